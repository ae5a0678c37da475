"""One run of the bandwidth stage: a workload, a strategy, a network; checked and summarised.

``simulate(point)`` builds the workload (``schedlab.simulators.bandwidth.workload``), runs the
compiled event loop (``schedlab.simulators.bandwidth.kernel``) on the substrate's star network
(``schedlab.simulators.multicluster.topology.star_4x100``: 4 x 100 nodes, one 1000 Mb/s
full-duplex link per cluster), then hands the schedule to the substrate's invariant
checks (``schedlab.simulators.multicluster.invariants``), which raise if any cluster was
over-committed or any job's components did not start and end together.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba import njit

from schedlab.simulators.bandwidth.kernel import run_kernel, waiting_limit
from schedlab.simulators.bandwidth.placement import (
    CHUNK_SHARE, COALLOCATED, LOCAL, LSLT_THRESHOLD, MIGRATED, PASS_ORDERS, PLACEMENT_NAMES, STRATEGIES, ZERO_COMM,
    cluster_subsets, places_whole_jobs_first,
)
from schedlab.simulators.bandwidth.workload import Workload, generate_jobs, offered_load
from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.multicluster.invariants import check_multicluster_schedule
from schedlab.simulators.multicluster.topology import STAR_LINK_MBPS, Topology, star_4x100

MAX_COALLOCATED = 1024
"""Slots for running co-allocated jobs: more than 400 nodes can hold (every job has 2+)."""
SATURATION_SHARE = 0.05
"""A run is declared saturated (unstable) and stopped once more than this share of the jobs
arrived so far wait at one time.  An unstable system's queue grows in proportion to the jobs
that have arrived, a stable one's does not grow with the run's length, so the test is relative
to the run's progress: an unstable run is stopped early at any length."""
SATURATION_FLOOR = 5_000
"""...but never below this many waiting jobs: stable runs have deep queues at their weekly peaks,
early in a run too.  Calibrated on the baselines only, at about twice the deepest queue of any
workload under Migration Only or No Share in the quick profile (seeds 1-5): 2,437 jobs
(workload B, synthetic jobs on the KTH-SP2 model's weekday-heavy arrival clock, under No Share)."""
SATURATION_CAP = 20_000
"""...and never above this many: every scan walks the queue, and a queue this deep is far past
any stable run's."""


def saturation_limit(arrived: int) -> int:
    """Waiting jobs beyond which a run is declared saturated once ``arrived`` jobs have arrived."""
    return int(waiting_limit(arrived, SATURATION_SHARE, SATURATION_FLOOR, SATURATION_CAP))


@dataclass(frozen=True)
class Point:
    workload: str
    strategy: str
    ppbw: float | None
    """Mb/s per processor for every job; None: each job draws U[0, 300]."""
    information: float = 1.0
    jobs_per_cluster: int = 2000
    seed: int = 1
    pass_order: str = "as_stated"
    """One of ``placement.PASS_ORDERS``: ``as_stated`` (the paper's text): ICS places whole jobs for every
    waiting job, then co-allocates; the other strategies take local, migration, co-allocation on each
    job before the next.  ``whole_first`` and ``per_job``: every strategy one way."""
    load: float | None = None
    """Offered load per cluster of the realistic stream the workload is drawn from (None: the fitted
    trace's; see ``schedlab.simulators.bandwidth.workload.generate_jobs``)."""

    def __post_init__(self):
        if self.pass_order not in PASS_ORDERS:
            raise ValueError(f"pass_order must be one of {PASS_ORDERS}, got {self.pass_order!r}")


@dataclass(frozen=True)
class Run:
    schedule: pd.DataFrame
    allocation: np.ndarray
    """Nodes per job (row) and cluster (column)."""
    layout: np.ndarray
    """Clusters per job in the order its pieces take the grid's ranks, -1 padded."""
    queue_by_hour: np.ndarray
    """Mean number of waiting jobs in each hour of the day (Fig. 9)."""
    total_nodes: int
    saturated: bool
    """Stopped because more than ``saturation_limit`` jobs waited; only finished jobs are in ``schedule``."""


def run_workload(workload: Workload, strategy: str, topology: Topology | None = None,
                 link_mbps: float = STAR_LINK_MBPS, pass_order: str = "as_stated") -> Run:
    """Schedule ``workload`` with ``strategy`` and check the result; raises on a broken invariant."""
    topology = topology or star_4x100()
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {sorted(STRATEGIES)}, got {strategy!r}")
    whole_first = places_whole_jobs_first(pass_order, STRATEGIES[strategy])
    capacities = topology.capacities
    subsets, subset_sizes = cluster_subsets(len(capacities))
    start, end, kind, allocation, layout, area, observed, saturated = run_kernel(
        workload.submit, workload.home, workload.nodes, workload.columns, workload.base_time, workload.ppbw,
        workload.rho, workload.exposed, capacities, float(link_mbps), STRATEGIES[strategy], LSLT_THRESHOLD,
        CHUNK_SHARE, subsets, subset_sizes, MAX_COALLOCATED, SATURATION_SHARE, SATURATION_FLOOR, SATURATION_CAP,
        whole_first,
    )
    schedule = pd.DataFrame(copy=False, data={
        "job_id": np.arange(len(workload), dtype=np.int64), "home": workload.home, "submit": workload.submit,
        "placed": start, "start": start, "end": end, "procs": workload.nodes, "requested": workload.requested,
        "base_time": workload.base_time, "kind": pd.Categorical.from_codes(kind, PLACEMENT_NAMES), "n_clusters": _clusters_used(allocation),
    })
    if saturated:
        finished = np.flatnonzero(~np.isnan(end))
        schedule = schedule.iloc[finished].reset_index(drop=True)
        allocation, layout = allocation[finished], layout[finished]
    check_run(schedule, allocation, capacities, stretched=STRATEGIES[strategy] != ZERO_COMM)
    queue_by_hour = np.divide(area, observed, out=np.zeros(24), where=observed > 0)
    return Run(schedule, allocation, layout, queue_by_hour, topology.total_nodes, bool(saturated))


@njit(cache=True)
def _clusters_used(allocation):
    """``(allocation > 0).sum(axis=1)``: per job (row), the clusters it holds nodes of (int64), in one pass."""
    used = np.zeros(allocation.shape[0], dtype=np.int64)
    for job in range(allocation.shape[0]):
        count = 0
        for cluster in range(allocation.shape[1]):
            count += allocation[job, cluster] > 0
        used[job] = count
    return used


def check_run(schedule: pd.DataFrame, allocation: np.ndarray, capacities: np.ndarray, stretched: bool) -> None:
    """Substrate invariants plus the stage's own: run times never below T_E0, exact unless co-allocated."""
    check_multicluster_schedule(capacities=capacities, totals=schedule["procs"].to_numpy(), jobs=schedule,
                                allocation=allocation)
    # The kind as a boolean per job, compared on the categorical's codes (``to_numpy`` of the column would
    # build an array of strings); the stage's three checks in one compiled pass, raised in their order.
    coallocated = np.asarray((schedule["kind"] == PLACEMENT_NAMES[COALLOCATED]).to_numpy(), dtype=np.bool_)
    faster, inexact, disagrees = _run_time_violations(
        np.asarray(schedule["start"].to_numpy(), dtype=np.float64), np.asarray(schedule["end"].to_numpy(), dtype=np.float64),
        np.asarray(schedule["base_time"].to_numpy(), dtype=np.float64), coallocated,
        np.asarray(schedule["n_clusters"].to_numpy(), dtype=np.int64), bool(stretched))
    if faster:
        raise InvariantError("a job ran faster than T_E0")
    if inexact:
        raise InvariantError("a local, migrated or zero-communication job did not run exactly T_E0")
    if disagrees:
        raise InvariantError("a job's kind disagrees with its number of clusters")


@njit(cache=True)
def _run_time_violations(start, end, base, coallocated, n_clusters, stretched):
    """Whether any job ran faster than T_E0 (``end - start < base - slack``), any plain job (not co-allocated, or
    any job if not ``stretched``) ran other than T_E0 (``|end - start - base| > slack``), and any job's kind
    disagrees with its number of clusters; ``slack = 1e-6 max(base, 1) + 1e-6 |end| 1e-3``, the same
    operations in the same order as the vectorised form, so the same bits."""
    faster, inexact, disagrees = False, False, False
    for j in range(len(start)):
        run_time = end[j] - start[j]
        b = base[j]
        at_least_one = 1.0 if b < 1.0 else b  # np.maximum(b, 1.0), NaN kept
        slack = 1e-6 * at_least_one + 1e-6 * abs(end[j]) * 1e-3
        if run_time < b - slack:
            faster = True
        if (not coallocated[j] or not stretched) and abs(run_time - b) > slack:
            inexact = True
        if coallocated[j] != (n_clusters[j] > 1):
            disagrees = True
    return faster, inexact, disagrees


def summarise(run: Run) -> dict:
    """Mean turnaround and placement shares; a saturated run's turnaround is infinite (unstable)."""
    schedule = run.schedule
    turnaround = schedule["end"] - schedule["submit"]
    kind = schedule["kind"]
    chosen = kind == PLACEMENT_NAMES[COALLOCATED]
    coallocated = {column: schedule[column][chosen] for column in ("end", "start", "base_time")}  # not every column
    horizon = schedule["end"].max() - schedule["submit"].min()
    return {
        "jobs": int(len(schedule)),
        "saturated": run.saturated,
        "mean_turnaround": float("inf") if run.saturated else float(turnaround.mean()),
        "mean_wait": float((schedule["start"] - schedule["submit"]).mean()),
        "local_share": float((kind == PLACEMENT_NAMES[LOCAL]).mean()),
        "migrated_share": float((kind == PLACEMENT_NAMES[MIGRATED]).mean()),
        "coallocated_share": float(chosen.mean()),
        "coallocated_slowdown": float(((coallocated["end"] - coallocated["start"]) / coallocated["base_time"]).mean())
        if chosen.any() else 1.0,
        "utilization": float((schedule["procs"] * (schedule["end"] - schedule["start"])).sum() / (run.total_nodes * horizon)),
    }


def simulate(point: Point, jobs: Workload | None = None) -> tuple[Run, dict]:
    """Run one point; ``jobs``: its workload's jobs already generated (``generate_jobs`` of the point's
    workload, jobs per cluster and seed), so that the runs of one workload share one generation."""
    if jobs is None:
        jobs = generate_jobs(point.workload, point.jobs_per_cluster, point.seed, load=point.load)
    workload = jobs.with_communication(point.ppbw, point.information)
    run = run_workload(workload, point.strategy, pass_order=point.pass_order)
    return run, summarise(run)


def generation(point: Point) -> tuple:
    """What fixes a point's jobs: workload, jobs per cluster, seed and load."""
    return point.workload, point.jobs_per_cluster, point.seed, point.load


def simulate_workload(chosen: Sequence[Point], progress: Callable[[int, Point], None] | None = None) -> dict:
    """Every point of ``chosen`` (one ``generation``) on one generation of its jobs:
    ``{"offered_load": ..., "runs": [{"point", "metrics", "queue_by_hour"}, ...]}`` in ``chosen``'s order.
    ``progress(i, point)`` is called before the i-th run."""
    generations = {generation(point) for point in chosen}
    if len(generations) != 1:
        raise ValueError(f"the points must share one workload, jobs per cluster, seed and load, got {generations}")
    workload, jobs_per_cluster, seed, load = generations.pop()
    jobs = generate_jobs(workload, jobs_per_cluster, seed, load=load)
    summaries = []
    for done, point in enumerate(chosen):
        if progress is not None:
            progress(done, point)
        run, metrics = simulate(point, jobs)
        summaries.append({"point": dataclasses.asdict(point), "metrics": metrics,
                          "queue_by_hour": run.queue_by_hour.tolist()})
    return {"offered_load": offered_load(jobs.submit, jobs.nodes, jobs.base_time, int(star_4x100().total_nodes)),
            "runs": summaries}
