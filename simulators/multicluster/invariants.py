"""Checks every multicluster run makes on itself before its result is used.

They read the allocation log of ``ClusterState`` (one entry per cluster each time a job
takes or gives back nodes) rather than the placements, so they check what actually
happened to the clusters:

- every job was placed after its submission, started no earlier than placed and ended
  no earlier than started;
- its components were allocated at one instant (atomic placement: they start together)
  and released at one instant, and together they give exactly the nodes it asked for;
- no cluster ever had more nodes taken than it has (at one time, releases count first).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from numba import njit

from simulators.core.invariants import InvariantError, _fail


LOG_COLUMNS = ("time", "job", "cluster", "delta")


def check_multicluster_run(*, capacities: np.ndarray, totals: np.ndarray, jobs: pd.DataFrame, log) -> None:
    """Raise ``InvariantError`` on the first broken invariant.  ``log``: (time, job, cluster, delta)
    entries, or a mapping of those four names to arrays (a compiled run's log, not copied)."""
    job_id = jobs["job_id"].to_numpy()
    submit, placed = jobs["submit"].to_numpy(), jobs["placed"].to_numpy()
    start, end = jobs["start"].to_numpy(), jobs["end"].to_numpy()
    never = np.isnan(placed) | np.isnan(end)
    if never.any():
        _fail("never placed or never ended", job_id[never])
    for what, bad in (
        ("placed before submission", placed < submit),
        ("started before placement", start < placed),
        ("ended before start", end < start),
    ):
        if bad.any():
            _fail(what, job_id[bad])

    entries = log if isinstance(log, Mapping) else pd.DataFrame(log, columns=list(LOG_COLUMNS))
    time, job = np.asarray(entries["time"], dtype=np.float64), np.asarray(entries["job"], dtype=np.int64)
    cluster, delta = np.asarray(entries["cluster"], dtype=np.int64), np.asarray(entries["delta"], dtype=np.int64)
    n = len(jobs)
    for what, part, expected in (("allocated", delta > 0, placed), ("released", delta < 0, end)):
        logged = np.bincount(job[part], minlength=n) > 0
        first, last = np.full(n, np.inf), np.full(n, -np.inf)
        np.minimum.at(first, job[part], time[part])
        np.maximum.at(last, job[part], time[part])
        split = logged & (first != last)
        if split.any():
            _fail(f"components not {what} at one instant", job_id[split])
        wrong = logged & (first != expected)
        if wrong.any():
            _fail(f"{what} at a time other than the job's record", job_id[wrong])
    taken = delta > 0
    nodes = np.zeros(n, dtype=np.int64)
    np.add.at(nodes, job[taken], delta[taken])
    short = nodes != totals
    if short.any():
        _fail("allocated nodes differ from the request", job_id[short])
    back = np.zeros(n, dtype=np.int64)
    np.add.at(back, job[~taken], -delta[~taken])
    if (back != nodes).any():
        _fail("released nodes differ from allocated nodes", job_id[back != nodes])

    # In time order with releases first at one instant, each cluster's nodes in use and their peak.
    # (Within an instant the order among releases, or among allocations, cannot change the peak.)
    releases_first = np.r_[np.flatnonzero(~taken), np.flatnonzero(taken)]
    order = releases_first[np.argsort(time[releases_first], kind="stable")]
    capacities = np.asarray(capacities)
    peak, at = _peaks_in_use(cluster, delta, order, len(capacities))
    over = np.flatnonzero(peak > capacities)
    if over.size:
        worst_cluster = over[0]
        raise InvariantError(
            f"cluster {worst_cluster}: {int(peak[worst_cluster])} nodes in use at t={time[at[worst_cluster]]} "
            f"on {capacities[worst_cluster]} nodes"
        )


@njit(cache=True)
def _peaks_in_use(cluster, delta, order, n_clusters):
    """Walking the log in ``order``: per cluster, the most nodes in use at once and the entry that first
    reached it (-1: never used)."""
    in_use = np.zeros(n_clusters, dtype=np.int64)
    peak = np.zeros(n_clusters, dtype=np.int64)
    at = np.full(n_clusters, -1, dtype=np.int64)
    for entry in order:
        c = cluster[entry]
        in_use[c] += delta[entry]
        if in_use[c] > peak[c]:
            peak[c] = in_use[c]
            at[c] = entry
    return peak, at
