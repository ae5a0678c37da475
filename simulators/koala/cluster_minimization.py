"""Flexible Cluster Minimization (FCM) for flexible requests, and its cluster-limited variant.

Sonmez, Mohamed, Epema, TPDS 2010, Sec. 4.2 (and [3] there): to keep inter-cluster
messages few, use as few clusters as possible.  Order the clusters by decreasing number
of idle nodes; walk that order, giving the job on each cluster a component as large as
the cluster's idle nodes (the last one only what is still missing), until the job's
total is reached.  If the idle nodes run out first, the job does not fit now.  A job
that fits in the emptiest cluster therefore lands there whole.

``max_clusters`` (Sec. 6.3.1: "FCM limited to combine two clusters at most") stops the
walk after that many clusters.  ``fill_in_order`` is the walk itself, shared with the
Communication-Aware policy, which walks a different order.
"""

from __future__ import annotations

import numpy as np

from schedlab.simulators.multicluster.requests import FlexibleRequest, Placement


def fill_in_order(request: FlexibleRequest, idle: np.ndarray, order, max_clusters: int | None = None) -> Placement | None:
    """Components as large as each cluster's idle nodes, in ``order``, until ``request.total``.

    At most ``min(request.max_components, max_clusters)`` components; a cluster whose
    component would be smaller than ``request.min_component`` is passed over (components
    are never rebalanced to make room for a minimum).
    """
    limits = [limit for limit in (request.max_components, max_clusters) if limit is not None]
    most = min(limits) if limits else len(idle)
    missing = request.total
    placement = []
    for cluster in order:
        if missing == 0 or len(placement) == most:
            break
        take = min(int(idle[cluster]), missing)
        if take >= max(request.min_component, 1):
            placement.append((int(cluster), take))
            missing -= take
    return tuple(placement) if missing == 0 else None


def by_idle_nodes(idle: np.ndarray) -> list[int]:
    """Clusters by decreasing idle nodes; ties to the cluster listed first."""
    return sorted(range(len(idle)), key=lambda cluster: (-int(idle[cluster]), cluster))


class FlexibleClusterMinimization:
    def __init__(self, max_clusters: int | None = None):
        self.max_clusters = max_clusters
        self.name = "FCM" if max_clusters is None else f"FCM<={max_clusters}"

    def place(self, request: FlexibleRequest, idle: np.ndarray) -> Placement | None:
        if not isinstance(request, FlexibleRequest):
            raise TypeError(f"{self.name} serves flexible requests, not {type(request).__name__}")
        return fill_in_order(request, idle, by_idle_nodes(idle), self.max_clusters)
