"""Worst Fit (WF): KOALA's default policy for non-fixed requests.

Sonmez, Mohamed, Epema, TPDS 2010, Sec. 4.1: take the job's components from the
largest to the smallest and put each on the cluster that has the most idle nodes left
at that moment, provided that cluster can hold it; if it cannot, the job does not fit
now.  WF spreads load and leaves as much room as possible everywhere, so it may split a
job over several clusters even when one cluster could hold it all.  With one component
per job it is plain load balancing without coallocation (the paper's baseline).
Ties go to the cluster listed first in the topology.
"""

from __future__ import annotations

from schedlab.simulators.multicluster.requests import NonFixedRequest, Placement


class WorstFit:
    name = "WF"

    def place(self, request: NonFixedRequest, idle) -> Placement | None:
        if not isinstance(request, NonFixedRequest):
            raise TypeError(f"Worst Fit serves non-fixed requests, not {type(request).__name__}")
        left = [int(nodes) for nodes in idle]
        placement = []
        for size in sorted(request.sizes, reverse=True):
            most = max(left)
            if most < size:
                return None
            roomiest = left.index(most)  # the first of the roomiest clusters
            left[roomiest] -= size
            placement.append((roomiest, size))
        return tuple(placement)
