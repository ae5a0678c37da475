"""What a job asks for (its request) and what it gets (its placement).

Sonmez et al., TPDS 2010, Sec. 2 (Fig. 1): a job is one or more components that start
together on possibly different clusters.  Three request structures:

- ``FixedRequest``: component sizes AND their clusters are given; nothing to decide.
- ``NonFixedRequest``: component sizes are given, the scheduler picks a cluster for each
  (several components may land on the same cluster).
- ``FlexibleRequest``: only the total size is given; the scheduler splits it into
  components, optionally with a minimum component size and a maximum number of
  components (defaults: 1 and the number of clusters).

A ``Placement`` is the scheduler's answer: ``(cluster index, nodes)`` components.
Placement is atomic: either every component gets its nodes at the same instant, or the
job gets nothing (``ClusterState.allocate`` enforces it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class FixedRequest:
    components: tuple[tuple[int, int], ...]
    """(cluster index, nodes) per component."""

    @property
    def total(self) -> int:
        return sum(nodes for _, nodes in self.components)


@dataclass(frozen=True)
class NonFixedRequest:
    sizes: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.sizes)


@dataclass(frozen=True)
class FlexibleRequest:
    total: int
    min_component: int = 1
    max_components: int | None = None
    """None: as many components as there are clusters."""


Request = FixedRequest | NonFixedRequest | FlexibleRequest

Placement = tuple[tuple[int, int], ...]
"""(cluster index, nodes) per component, every nodes > 0."""


def nodes_per_cluster(placement: Placement, n_clusters: int) -> np.ndarray:
    """Nodes the placement takes on each cluster (components on one cluster added up)."""
    taken = np.zeros(n_clusters, dtype=np.int64)
    for cluster, nodes in placement:
        taken[cluster] += nodes
    return taken


def nodes_by_cluster(placement: Placement) -> list[tuple[int, int]]:
    """(cluster, nodes) per cluster the placement uses, in cluster order, components on one cluster added up."""
    nodes: dict[int, int] = {}
    for cluster, taken in placement:
        nodes[cluster] = nodes.get(cluster, 0) + taken
    return sorted(nodes.items())


def clusters_used(placement: Placement) -> tuple[int, ...]:
    return tuple(sorted({cluster for cluster, _ in placement}))


def place_fixed(request: FixedRequest, idle: np.ndarray) -> Placement | None:
    """A fixed request goes exactly where it asks, or waits."""
    wanted = nodes_per_cluster(request.components, len(idle))
    return request.components if bool(np.all(wanted <= idle)) else None


def check_placement(request: Request, placement: Placement, n_clusters: int) -> None:
    """Raise if ``placement`` does not honour ``request`` (a policy bug, never a user error)."""
    if not placement or any(nodes <= 0 or not 0 <= cluster < n_clusters for cluster, nodes in placement):
        raise AssertionError(f"malformed placement {placement!r}")
    if sum(nodes for _, nodes in placement) != request.total:
        raise AssertionError(f"placement {placement!r} does not give the {request.total} nodes of {request!r}")
    if isinstance(request, FixedRequest) and tuple(placement) != request.components:
        raise AssertionError(f"fixed request {request!r} moved to {placement!r}")
    if isinstance(request, NonFixedRequest) and sorted(n for _, n in placement) != sorted(request.sizes):
        raise AssertionError(f"non-fixed request {request!r} resized to {placement!r}")
    if isinstance(request, FlexibleRequest):
        limit = request.max_components or n_clusters
        if len(clusters_used(placement)) > limit or len(placement) > limit:
            raise AssertionError(f"flexible request {request!r} split into too many components: {placement!r}")
        if any(nodes < request.min_component for _, nodes in placement):
            raise AssertionError(f"flexible request {request!r} got a component below its minimum: {placement!r}")
