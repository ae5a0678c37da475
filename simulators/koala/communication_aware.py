"""Communication-Aware (CA) placement, latency option, for flexible requests.

Sonmez, Mohamed, Epema, TPDS 2010, Sec. 4.3: first try to avoid coallocation, in the
best network: walk the clusters by increasing intra-cluster latency and place the whole
job on the first one with enough idle nodes.  If none can hold it, rank each cluster by
the mean of its latencies to every cluster of the system (its own intra-cluster latency
included) and fill clusters in increasing order of that mean exactly as FCM fills them
(components as large as the idle nodes, the last one what is still missing).  Both
orders depend only on the topology, so they are computed once.  Ties (latencies equal
to a picosecond, so that float summation order cannot break them) go to the cluster
listed first.
"""

from __future__ import annotations

import numpy as np

from schedlab.simulators.koala.cluster_minimization import fill_in_order
from schedlab.simulators.multicluster.requests import FlexibleRequest, Placement
from schedlab.simulators.multicluster.topology import Topology


class CommunicationAware:
    name = "CA"

    def __init__(self, topology: Topology):
        latency = topology.latency_ms.round(9)
        clusters = range(len(topology.clusters))
        self.single_cluster_order = sorted(clusters, key=lambda c: (latency[c, c], c))
        mean_latency = topology.latency_ms.mean(axis=1).round(9)
        self.coallocation_order = sorted(clusters, key=lambda c: (mean_latency[c], c))

    def place(self, request: FlexibleRequest, idle: np.ndarray) -> Placement | None:
        if not isinstance(request, FlexibleRequest):
            raise TypeError(f"CA serves flexible requests, not {type(request).__name__}")
        for cluster in self.single_cluster_order:
            if idle[cluster] >= request.total:
                return ((cluster, request.total),)
        return fill_in_order(request, idle, self.coallocation_order)
