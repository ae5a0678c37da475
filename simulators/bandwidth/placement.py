"""Where a waiting job goes: local, migrated, or co-allocated by one of the paper's strategies.

Jones et al., ICPADS 2006, Sec. 4.  For the job at hand the scheduler tries, in order:

1. its home cluster, if it has ``n`` idle nodes (local, no inter-cluster traffic);
2. migration: the whole job on the remote cluster with the most idle nodes, if that is
   enough (no inter-cluster traffic either);
3. co-allocation over several clusters, which only some strategies do:

- First-Fit (``FIRST_FIT``; ``ZERO_COMM`` is First-Fit on a network of infinite bandwidth):
  clusters by idle nodes, most first, each giving all it can until ``n`` is met, which uses
  the fewest clusters, hence links.
- LSLT only (``LSLT``): as First-Fit over the clusters whose link is at most 70 % loaded
  ("least saturated link threshold").
- LSLT + chunk (``LSLT_CS``): as LSLT, but the first (largest) piece must hold at least
  85 % of the job ("chunk size"), else the job waits.
- ICS (``ICS``, integer constraint satisfaction): only for jobs that expose their PPBW and
  rho; picks integer pieces ``n_c`` so that no link's load exceeds its capacity, trying
  two clusters before three before four and, within a set of clusters (most idle first),
  the largest first piece first, by backtracking: a piece's demand depends only on its
  size and its first rank, so each link is checked as soon as its piece is chosen.
  A job it cannot place without saturating a link waits, so ICS never slows a running
  job and only adds placements to Migration Only.

Baselines: ``MIGRATION_ONLY`` stops after step 2, ``NO_SHARE`` after step 1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from schedlab.simulators.bandwidth.demand import piece_demand
from schedlab.simulators.bandwidth.jit import uncounted

NO_SHARE, MIGRATION_ONLY, FIRST_FIT, LSLT, LSLT_CS, ICS, ZERO_COMM = range(7)
STRATEGIES = {
    "no_share": NO_SHARE,
    "migration_only": MIGRATION_ONLY,
    "first_fit": FIRST_FIT,
    "lslt": LSLT,
    "lslt_cs": LSLT_CS,
    "ics": ICS,
    "zero_comm": ZERO_COMM,
}
LABELS = {
    "no_share": "No Share",
    "migration_only": "Migration Only",
    "first_fit": "First-Fit",
    "lslt": "LSLT only",
    "lslt_cs": "LSLT+CS",
    "ics": "ICS",
    "zero_comm": "Zero Comm.",
}
LSLT_THRESHOLD = 0.70
"""Largest link load (share of capacity) at which LSLT still uses a cluster (paper, Sec. 4)."""
CHUNK_SHARE = 0.85
"""Smallest share of the job on one cluster that LSLT+CS accepts (paper, Sec. 4)."""

LOCAL, MIGRATED, COALLOCATED = 1, 2, 3
PLACEMENT_NAMES = ("unplaced", "local", "migrated", "coallocated")
"""The kernel's placement codes by value (0: never placed); a schedule's ``kind`` column holds these names
as a categorical (a dictionary column in Parquet), so a table read elsewhere says what each job was."""
PASS_ORDERS = ("as_stated", "whole_first", "per_job")
"""How a scheduling pass visits the queue.  ``as_stated``, the paper's text strategy by strategy: ICS
co-allocates only "the remaining jobs", once local execution and migration have placed all they can
(Sec. 4.2, on ICS alone), so it places whole jobs (steps 1-2) for every waiting job before any
co-allocation (step 3); First-Fit, LSLT Only and LSLT+CS traverse the FPFS queue for the first job
that fits (Sec. 4.1) and co-allocate it in that traversal, so each job goes through steps 1-3 before
the next.  Zero Comm. is a baseline (Sec. 4.3: links of unlimited capacity), not one of the strategies
of Sec. 4.1-4.2, and the paper states no order for it: it keeps whole jobs first, as this model always
ran it.  ``whole_first``: every strategy as ICS; ``per_job``: every strategy job by job."""
STATED_WHOLE_FIRST = frozenset({ICS, ZERO_COMM})
"""The strategies ``as_stated`` runs whole jobs first."""


def places_whole_jobs_first(pass_order: str, strategy: int) -> bool:
    """Whether ``strategy`` (a code of ``STRATEGIES``) places whole jobs for the whole queue before
    co-allocating any, under ``pass_order`` (one of ``PASS_ORDERS``)."""
    if pass_order not in PASS_ORDERS:
        raise ValueError(f"pass_order must be one of {PASS_ORDERS}, got {pass_order!r}")
    return strategy in STATED_WHOLE_FIRST if pass_order == "as_stated" else pass_order == "whole_first"


RANKED, CHOSEN, AFTER, START = range(4)
"""Rows of the work array of ``place`` (``new_scratch``): the clusters by idle nodes, the clusters ICS
tries, and the two work rows of ``ics_split``."""


@njit(cache=True)
def new_scratch(n_clusters: int) -> np.ndarray:
    """The work array ``place`` and ``ics`` need for ``n_clusters`` clusters."""
    return np.zeros((4, n_clusters + 1), dtype=np.int64)


@uncounted
def rank_by_idle(idle, ranked) -> None:
    """Fill ``ranked`` with the cluster indices, most idle nodes first, lower index first on ties."""
    for cluster in range(len(idle)):
        i = cluster
        while i > 0 and idle[ranked[i - 1]] < idle[cluster]:
            ranked[i] = ranked[i - 1]
            i -= 1
        ranked[i] = cluster


@uncounted
def first_fit(nodes, idle, load, max_load, scratch, order, pieces) -> int:
    """Largest-idle-first pieces over the clusters whose link load is at most ``max_load``; number of
    pieces, 0 if short."""
    ranked = scratch[RANKED]
    rank_by_idle(idle, ranked)
    left, used = nodes, 0
    for rank in range(len(idle)):
        cluster = ranked[rank]
        if left == 0:
            break
        if load[cluster] <= max_load and idle[cluster] > 0:
            take = min(idle[cluster], left)
            order[used], pieces[used] = cluster, take
            used += 1
            left -= take
    return used if left == 0 else 0


@uncounted
def ics_split(nodes, columns, ppbw, rho, clusters, idle, load, capacity, pieces, after, start) -> bool:
    """Backtracking search of pieces on ``clusters`` (in that order) saturating no link;
    ``after`` and ``start``: work arrays of ``len(clusters) + 1``."""
    k = len(clusters)
    after[k] = 0  # idle nodes on the clusters after level i
    for level in range(k - 1, -1, -1):
        after[level] = after[level + 1] + idle[clusters[level]]
    if after[0] < nodes:
        return False
    start[0] = 0
    level = 0
    pieces[0] = min(idle[clusters[0]], nodes - (k - 1))
    while level >= 0:
        left = nodes - start[level]
        lowest = max(1, left - after[level + 1]) if level < k - 1 else left
        if pieces[level] < lowest:
            level -= 1
            if level >= 0:
                pieces[level] -= 1
            continue
        cluster = clusters[level]
        if load[cluster] + piece_demand(nodes, columns, ppbw, rho, start[level], pieces[level]) <= capacity:
            if level == k - 1:
                return True
            start[level + 1] = start[level] + pieces[level]
            level += 1
            pieces[level] = min(idle[clusters[level]], nodes - start[level] - (k - 1 - level))
        else:
            pieces[level] -= 1
    return False


@uncounted
def least_piece_demand(nodes, columns, ppbw, rho, smaller) -> float:
    """A lower bound on R_c for any piece of the job whose smaller side, min(s, n - s), is ``smaller``:
    the all-to-all part exactly, and ``min(s, n - s, columns)`` cut mesh edges.  (A row-major range of
    s ranks in a grid of two or more rows: with s <= columns, each of its ranks has a vertical
    neighbour and none inside it, likewise for the rest with n - s <= columns; otherwise every column
    holds ranks of both, so each column has a cut edge.  Grids of one row have at most two nodes.)"""
    return ppbw * (rho * smaller * (nodes - smaller) / (nodes - 1) + (1.0 - rho) * min(smaller, columns) / 4.0)


@uncounted
def ics_may_place(nodes, columns, ppbw, rho, idle, load, capacity) -> bool:
    """False when no split of the job over two or more clusters can leave every link within its
    capacity, judged before the search from ``least_piece_demand``, which rises with the piece's
    smaller side up to n / 2: a cluster can hold only pieces of s nodes with min(s, n - s) up to
    some ``low``, and no more than its idle nodes.  A split needs two such clusters whose largest
    pieces add up to ``n``.  Only a search that would fail is skipped, so ICS places exactly as
    without this test; it matters where links are busy (high PPBW), where the search, tried on
    every waiting job that fits the idle nodes, would fail on almost all."""
    if nodes < 2:
        return False
    hosts, total = 0, 0
    for cluster in range(len(idle)):
        largest = min(idle[cluster], nodes - 1)
        room = capacity - load[cluster] + 1e-6  # slack: never exclude a piece the search would accept
        if largest <= 0 or least_piece_demand(nodes, columns, ppbw, rho, 1) > room:
            continue
        low, high = 1, nodes // 2  # the largest smaller side that fits, by bisection
        while low < high:
            middle = (low + high + 1) // 2
            if least_piece_demand(nodes, columns, ppbw, rho, middle) <= room:
                low = middle
            else:
                high = middle - 1
        if largest < nodes - low:
            largest = min(largest, low)
        hosts += 1
        total += largest
    return hosts >= 2 and total >= nodes


@uncounted
def ics(nodes, columns, ppbw, rho, idle, load, capacity, subsets, subset_sizes, scratch, order, pieces) -> int:
    """ICS placement: fewest clusters first; number of pieces, 0 if none saturates no link."""
    ranked, chosen, after, start = scratch[RANKED], scratch[CHOSEN], scratch[AFTER], scratch[START]
    rank_by_idle(idle, ranked)
    for s in range(len(subsets)):
        k = subset_sizes[s]
        usable = True
        for i in range(k):
            chosen[i] = ranked[subsets[s, i]]
            usable = usable and idle[chosen[i]] > 0
        if usable and ics_split(nodes, columns, ppbw, rho, chosen[:k], idle, load, capacity, pieces, after, start):
            for i in range(k):
                order[i] = chosen[i]
            return k
    return 0


def cluster_subsets(n_clusters: int) -> tuple[np.ndarray, np.ndarray]:
    """Rank subsets of 2.. clusters, smaller first, as (padded rank matrix, sizes), for ``ics``."""
    from itertools import combinations

    subsets = [c for k in range(2, n_clusters + 1) for c in combinations(range(n_clusters), k)]
    matrix = np.zeros((len(subsets), n_clusters), dtype=np.int64)
    for row, subset in enumerate(subsets):
        matrix[row, : len(subset)] = subset
    return matrix, np.array([len(s) for s in subsets], dtype=np.int64)


@uncounted
def place(strategy, home, nodes, columns, ppbw, rho, exposed, idle, load, capacity,
          lslt_threshold, chunk_share, subsets, subset_sizes, scratch, order, pieces) -> int:
    """Placement of one job: (kind, k) with ``order[:k]`` / ``pieces[:k]`` filled; kind 0: it waits.
    ``scratch``: ``new_scratch(len(idle))``."""
    if idle[home] >= nodes:
        order[0], pieces[0] = home, nodes
        return LOCAL, 1
    if strategy == NO_SHARE:
        return 0, 0
    best = -1
    for cluster in range(len(idle)):
        if cluster != home and (best < 0 or idle[cluster] > idle[best]):
            best = cluster
    if idle[best] >= nodes:
        order[0], pieces[0] = best, nodes
        return MIGRATED, 1
    if strategy == MIGRATION_ONLY:
        return 0, 0
    total = 0
    for cluster in range(len(idle)):
        total += idle[cluster]
    if total < nodes:
        return 0, 0
    if strategy == ICS:
        if not exposed or not ics_may_place(nodes, columns, ppbw, rho, idle, load, capacity):
            return 0, 0
        k = ics(nodes, columns, ppbw, rho, idle, load, capacity, subsets, subset_sizes, scratch, order, pieces)
        return (COALLOCATED if k else 0), k
    max_load = lslt_threshold * capacity if strategy == LSLT or strategy == LSLT_CS else np.inf
    k = first_fit(nodes, idle, load, max_load, scratch, order, pieces)
    if k == 0 or (strategy == LSLT_CS and pieces[0] < np.ceil(chunk_share * nodes - 1e-9)):
        return 0, 0
    return COALLOCATED, k
