"""Clusters and the network between them, as configuration data.

A ``Topology`` is a list of clusters (name, nodes, relative processor speed) and two
symmetric matrices over them: the latency (ms) and the bandwidth (MB/s) between a node of
one cluster and a node of another; the diagonal holds the intra-cluster values.  Pairs
that were never measured are ``None`` in the source data; a topology may only be built
over clusters whose pairs are all known (that is why the DAS-3 configurations exclude
Delft or Leiden, as the paper does).

DAS-3 (Sonmez, Mohamed, Epema, IEEE TPDS 21(6) 2010, Sec. 3.2, 5.1, Tables 1-2).  The
paper's tables lost their values, so the numbers below are DEFAULTS, chosen to respect
every ordering the text states (and that is all the placement policies look at):

- sizes in dual-CPU nodes: VU 85, UvA 41, Delft 68, MultimediaN 46, Leiden 32 (272 in all,
  as the text says); speeds in GHz from the public DAS-3 description (Leiden fastest, UvA
  slowest: the fastest/slowest ratios 2.6/2.4 = 1.08 and 2.6/2.2 = 1.18 come close to the
  7-17 % slowdown of Table 3);
- intra-cluster latency lower than any inter-cluster latency; UvA-MultimediaN (same
  building) the lowest inter-cluster pair; every pair involving Delft (1 Gb/s Ethernet
  only) the slowest, in latency and in bandwidth; Delft-Leiden unmeasured.

The bandwidth stage's network is ``star_4x100``: four clusters of 100 single-CPU nodes,
each joined to an ideal central switch by one 1000 Mb/s full-duplex link.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Cluster:
    name: str
    nodes: int
    speed: float = 1.0
    """Relative processor speed; only ratios matter."""


@dataclass(frozen=True)
class Topology:
    name: str
    clusters: tuple[Cluster, ...]
    latency_ms: np.ndarray
    """Symmetric, clusters x clusters; diagonal = intra-cluster latency."""
    bandwidth_mb_s: np.ndarray
    """Symmetric, clusters x clusters; diagonal = intra-cluster bandwidth."""

    def __post_init__(self):
        n = len(self.clusters)
        for label, matrix in (("latency", self.latency_ms), ("bandwidth", self.bandwidth_mb_s)):
            if matrix.shape != (n, n) or not np.array_equal(matrix, matrix.T) or np.isnan(matrix).any():
                raise ValueError(f"{self.name}: the {label} matrix must be a full symmetric {n}x{n} matrix")
        if len({c.name for c in self.clusters}) != n:
            raise ValueError(f"{self.name}: cluster names must be unique")
        self.latency_ms.setflags(write=False)
        self.bandwidth_mb_s.setflags(write=False)

    @property
    def capacities(self) -> np.ndarray:
        return np.array([c.nodes for c in self.clusters], dtype=np.int64)

    @property
    def total_nodes(self) -> int:
        return int(self.capacities.sum())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.clusters)

    def index(self, name: str) -> int:
        return self.names.index(name)


def topology_from_pairs(name: str, clusters, latency: dict, bandwidth: dict) -> Topology:
    """Build a topology from per-pair tables keyed by ``frozenset({a, b})`` (``{a}`` for intra)."""

    def matrix(table: dict) -> np.ndarray:
        values = np.full((len(clusters), len(clusters)), np.nan)
        for i, a in enumerate(clusters):
            for j, b in enumerate(clusters):
                value = table.get(frozenset((a.name, b.name)))
                if value is None:
                    raise ValueError(f"{name}: no measurement between {a.name} and {b.name}")
                values[i, j] = value
        return values

    return Topology(name, tuple(clusters), matrix(latency), matrix(bandwidth))


DAS3_CLUSTERS = {
    "VU": Cluster("VU", 85, 2.4),
    "UvA": Cluster("UvA", 41, 2.2),
    "Delft": Cluster("Delft", 68, 2.4),
    "MultimediaN": Cluster("MultimediaN", 46, 2.4),
    "Leiden": Cluster("Leiden", 32, 2.6),
}


def _pairs(rows) -> dict:
    return {frozenset(pair): value for pair, value in rows}


DAS3_LATENCY_MS = _pairs(
    [
        (("VU",), 0.05), (("UvA",), 0.05), (("MultimediaN",), 0.05), (("Leiden",), 0.04),
        (("Delft",), 0.15),  # GbE inside Delft too
        (("UvA", "MultimediaN"), 0.20),  # same building: the best inter-cluster pair
        (("VU", "UvA"), 0.45), (("VU", "MultimediaN"), 0.45),
        (("VU", "Leiden"), 0.60), (("UvA", "Leiden"), 0.65), (("MultimediaN", "Leiden"), 0.65),
        (("Delft", "VU"), 1.50), (("Delft", "UvA"), 1.60), (("Delft", "MultimediaN"), 1.60),
        (("Delft", "Leiden"), None),  # not measured (network configuration problem)
    ]
)

DAS3_BANDWIDTH_MB_S = _pairs(
    [
        (("VU",), 950.0), (("UvA",), 950.0), (("MultimediaN",), 950.0), (("Leiden",), 950.0),
        (("Delft",), 110.0),
        (("UvA", "MultimediaN"), 900.0),
        (("VU", "UvA"), 600.0), (("VU", "MultimediaN"), 600.0),
        (("VU", "Leiden"), 500.0), (("UvA", "Leiden"), 480.0), (("MultimediaN", "Leiden"), 480.0),
        (("Delft", "VU"), 60.0), (("Delft", "UvA"), 55.0), (("Delft", "MultimediaN"), 55.0),
        (("Delft", "Leiden"), None),
    ]
)

DAS3_CONFIGS = {
    # Config A: Delft excluded, Myri-10G between every pair.
    "A": ("VU", "UvA", "MultimediaN", "Leiden"),
    # Config B: Leiden excluded, Delft (1 GbE only) included.
    "B": ("VU", "UvA", "Delft", "MultimediaN"),
}


def das3(config: str, delft_latency_share: float = 1.0) -> Topology:
    """DAS-3 configuration ``"A"`` (without Delft) or ``"B"`` (without Leiden).

    ``delft_latency_share`` scales what Delft's 1 GbE adds to latency, an unknown (the paper's
    table lost its values): each latency involving Delft becomes the largest one of the same kind
    (intra- or inter-cluster) among the Myri-10G clusters plus that share of its DEFAULT excess
    over it; 1 keeps the DEFAULT table, 0 puts Delft on a par with the farthest Myri-10G pair."""
    try:
        names = DAS3_CONFIGS[config]
    except KeyError:
        raise ValueError(f"DAS-3 configuration must be one of {sorted(DAS3_CONFIGS)}, got {config!r}") from None
    if not 0.0 <= delft_latency_share <= 1.0:
        raise ValueError(f"delft_latency_share must lie in [0, 1], got {delft_latency_share}")
    clusters = [DAS3_CLUSTERS[name] for name in names]
    latency = DAS3_LATENCY_MS if delft_latency_share == 1.0 else delft_latency(delft_latency_share)
    return topology_from_pairs(f"DAS-3 {config}", clusters, latency, DAS3_BANDWIDTH_MB_S)


def delft_latency(share: float) -> dict:
    """``DAS3_LATENCY_MS`` with ``share`` of Delft's excess latency (see ``das3``)."""
    def farthest_myrinet(size: int) -> float:
        return max(value for pair, value in DAS3_LATENCY_MS.items()
                   if len(pair) == size and "Delft" not in pair and value is not None)

    return {pair: value if "Delft" not in pair or value is None
            else farthest_myrinet(len(pair)) + share * (value - farthest_myrinet(len(pair)))
            for pair, value in DAS3_LATENCY_MS.items()}


STAR_LINK_MBPS = 1000.0


def star_4x100() -> Topology:
    """The bandwidth stage's system: 4 x 100 nodes, one 1000 Mb/s link per cluster to a central switch.

    Intra-cluster switches are ideal (infinite bandwidth, zero latency); between two
    clusters a flow crosses both clusters' links, so a pair's bandwidth is one link's
    125 MB/s.  The per-link capacity the bandwidth stage shares out is ``STAR_LINK_MBPS``.
    """
    clusters = tuple(Cluster(f"C{i + 1}", 100) for i in range(4))
    latency = np.zeros((4, 4))
    bandwidth = np.full((4, 4), STAR_LINK_MBPS / 8.0)
    np.fill_diagonal(bandwidth, np.inf)
    return Topology("star 4x100", clusters, latency, bandwidth)
