"""Checks every multicluster run makes on itself before its result is used.

A run is checked either from its allocation log (``check_multicluster_run``: one entry per
cluster each time a job takes or gives back nodes, as ``ClusterState`` records them), which
checks what actually happened to the clusters, or from the nodes each job held on each
cluster (``check_multicluster_schedule``: a compiled run whose jobs hold their nodes from
placement to end by construction, checked without building a log):

- every job was placed after its submission, started no earlier than placed and ended
  no earlier than started;
- (log) its components were allocated at one instant (atomic placement: they start
  together) and released at one instant, each cluster getting back what it gave;
- together its components hold exactly the nodes it asked for;
- no cluster ever had more nodes taken than it has (at one time, releases count first).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from numba import njit

from schedlab.simulators.core.invariants import InvariantError, _fail


LOG_COLUMNS = ("time", "job", "cluster", "delta")


def check_multicluster_run(*, capacities: np.ndarray, totals: np.ndarray, jobs: pd.DataFrame, log) -> None:
    """Raise ``InvariantError`` on the first broken invariant.  ``log``: (time, job, cluster, delta)
    entries, or a mapping of those four names to arrays; ``job`` is the row of ``jobs``."""
    _check_times(jobs)
    entries = log if isinstance(log, Mapping) else pd.DataFrame(log, columns=list(LOG_COLUMNS))
    time, job = np.asarray(entries["time"], dtype=np.float64), np.asarray(entries["job"], dtype=np.int64)
    cluster, delta = np.asarray(entries["cluster"], dtype=np.int64), np.asarray(entries["delta"], dtype=np.int64)
    taken_at, given_at, taken, given = _log_per_job(time, job, cluster, delta, len(jobs), len(capacities))
    job_id = jobs["job_id"].to_numpy()
    for what, (first, last), nodes, expected in (("allocated", taken_at, taken, jobs["placed"].to_numpy()),
                                                 ("released", given_at, given, jobs["end"].to_numpy())):
        logged = nodes.any(axis=1)
        split = logged & (first != last)
        if split.any():
            _fail(f"components not {what} at one instant", job_id[split])
        wrong = logged & (first != expected)
        if wrong.any():
            _fail(f"{what} at a time other than the job's record", job_id[wrong])
    unbalanced = (given != taken).any(axis=1)
    if unbalanced.any():
        _fail("released nodes differ from allocated nodes", job_id[unbalanced])
    _check_holdings(capacities, totals, jobs, taken)


def check_multicluster_schedule(*, capacities: np.ndarray, totals: np.ndarray, jobs: pd.DataFrame,
                                allocation: np.ndarray) -> None:
    """Raise ``InvariantError`` on the first broken invariant of a schedule in which job (row) ``j`` of
    ``jobs`` holds ``allocation[j, c]`` nodes of cluster ``c`` from its placement to its end."""
    _check_times(jobs)
    _check_holdings(capacities, totals, jobs, allocation)


def _check_times(jobs) -> None:
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


def _check_holdings(capacities, totals, jobs, holding) -> None:
    """Each job's nodes add up to its request; no cluster is over-committed while they are held."""
    job_id = jobs["job_id"].to_numpy()
    short = holding.sum(axis=1) != totals
    if short.any():
        _fail("allocated nodes differ from the request", job_id[short])
    placed, end = jobs["placed"].to_numpy(), jobs["end"].to_numpy()
    capacities = np.asarray(capacities)
    peak, at = _peaks_in_use(placed, end, holding, np.argsort(placed, kind="stable"),
                             np.argsort(end, kind="stable"))
    over = np.flatnonzero(peak > capacities)
    if over.size:
        worst_cluster = over[0]
        raise InvariantError(
            f"cluster {worst_cluster}: {int(peak[worst_cluster])} nodes in use at t={placed[at[worst_cluster]]} "
            f"on {capacities[worst_cluster]} nodes"
        )


@njit(cache=True)
def _log_per_job(time, job, cluster, delta, n_jobs, n_clusters):
    """Per job, from its log entries: the first and last instant it took nodes, the first and last it
    gave some back, and the nodes it took and gave back per cluster."""
    taken_at = np.empty((2, n_jobs))
    given_at = np.empty((2, n_jobs))
    taken_at[0], taken_at[1] = np.inf, -np.inf
    given_at[0], given_at[1] = np.inf, -np.inf
    taken = np.zeros((n_jobs, n_clusters), dtype=np.int64)
    given = np.zeros((n_jobs, n_clusters), dtype=np.int64)
    for entry in range(len(time)):
        j, c, t, d = job[entry], cluster[entry], time[entry], delta[entry]
        if d > 0:
            taken[j, c] += d
            taken_at[0, j] = min(taken_at[0, j], t)
            taken_at[1, j] = max(taken_at[1, j], t)
        elif d < 0:
            given[j, c] -= d
            given_at[0, j] = min(given_at[0, j], t)
            given_at[1, j] = max(given_at[1, j], t)
    return taken_at, given_at, taken, given


@njit(cache=True)
def _peaks_in_use(placed, end, holding, by_placement, by_end):
    """Jobs taking their nodes in placement order, those ended by then (at the same instant too) having
    given theirs back: per cluster, the most nodes in use at once and the job that first reached it
    (-1: never used)."""
    n_clusters = holding.shape[1]
    in_use = np.zeros(n_clusters, dtype=np.int64)
    peak = np.zeros(n_clusters, dtype=np.int64)
    at = np.full(n_clusters, -1, dtype=np.int64)
    released = 0
    for job in by_placement:
        while released < len(by_end) and end[by_end[released]] <= placed[job]:
            for c in range(n_clusters):
                in_use[c] -= holding[by_end[released], c]
            released += 1
        for c in range(n_clusters):
            in_use[c] += holding[job, c]
            if in_use[c] > peak[c]:
                peak[c] = in_use[c]
                at[c] = job
    return peak, at
