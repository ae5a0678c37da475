"""The multicluster at run time: idle nodes per cluster, the event loop, what happened.

``ClusterState`` holds the idle nodes of every cluster and is the only place nodes are
taken or given back; ``allocate`` is atomic (all components of a placement or none) and
logs every change, so that ``schedlab.simulators.multicluster.invariants`` can check the run
afterwards from that log alone.

``MulticlusterSimulation`` runs one workload: it turns arrivals and ends into calls of a
scheduler's ``on_arrival(sim, job, t)`` and ``on_end(sim, job, t)``; the scheduler calls
``sim.start(job, placement, run_time)`` to start a job and, if it re-plans running jobs
(the bandwidth stage), ``sim.move_end(job, new_end)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import pandas as pd

from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.multicluster.events import Event, EventQueue
from schedlab.simulators.multicluster.invariants import check_multicluster_run
from schedlab.simulators.multicluster.requests import Placement, Request, clusters_used, nodes_by_cluster, nodes_per_cluster
from schedlab.simulators.multicluster.topology import Topology

END_RANK, ARRIVAL_RANK, WAKE_RANK = 0, 1, 2
"""At one timestamp: ends first (nodes freed at t serve a job arriving at t), then arrivals, then the
scheduler's own wake-ups (a periodic scan at t sees every job that arrived at t)."""


@dataclass(frozen=True)
class MulticlusterJob:
    job_id: int
    submit: float
    request: Request
    attributes: Any = None
    """Whatever the stage attaches (application, communication demand...)."""


class ClusterState:
    """Idle nodes per cluster, changed only by atomic allocations and releases.  A placement has a few
    components, so they are changed one by one in Python rather than as arrays the size of the system."""

    def __init__(self, capacities: np.ndarray):
        self.capacities = np.asarray(capacities, dtype=np.int64).copy()
        self.idle = self.capacities.copy()
        self.busy = 0
        """Nodes taken, over all clusters."""
        self.log: list[tuple[float, int, int, int]] = []
        """(time, job, cluster, +nodes taken / -nodes given back) per component change."""

    def allocate(self, job: int, placement: Placement, t: float) -> None:
        wanted = nodes_by_cluster(placement)
        if any(nodes > self.idle[cluster] for cluster, nodes in wanted):
            raise InvariantError(f"job {job}: placement {placement} over-commits idle nodes {self.idle.tolist()}")
        for cluster, nodes in wanted:
            self.idle[cluster] -= nodes
            self.busy += nodes
            self.log.append((t, job, int(cluster), int(nodes)))

    def release(self, job: int, placement: Placement, t: float) -> None:
        for cluster, nodes in nodes_by_cluster(placement):
            self.idle[cluster] += nodes
            if self.idle[cluster] > self.capacities[cluster]:
                raise InvariantError(f"job {job}: releasing {placement} leaves more idle nodes than clusters have")
            self.busy -= nodes
            self.log.append((t, job, int(cluster), -int(nodes)))


class Scheduler(Protocol):
    def on_arrival(self, sim: MulticlusterSimulation, job: int, t: float) -> None: ...

    def on_end(self, sim: MulticlusterSimulation, job: int, t: float) -> None: ...

    def on_wake(self, sim: MulticlusterSimulation, t: float) -> None:
        """A wake-up the scheduler asked for (``MulticlusterSimulation.wake_at``)."""

    def waiting(self) -> int:
        """Jobs submitted and not yet started (recorded in the time series)."""


@dataclass
class RunningJob:
    placement: Placement
    placed: float
    start: float
    end_event: Event


@dataclass
class MulticlusterResult:
    jobs: pd.DataFrame
    """One row per job: job_id, submit, placed, start, end, procs (nodes), n_clusters, clusters."""
    components: pd.DataFrame
    """One row per (job, cluster): job_id, cluster, nodes, start, end."""
    series: pd.DataFrame
    """After every event: time, waiting (jobs), busy (nodes)."""
    extra: dict = field(default_factory=dict)


class MulticlusterSimulation:
    def __init__(self, topology: Topology, jobs: Sequence[MulticlusterJob], scheduler: Scheduler):
        self.topology = topology
        self.jobs = list(jobs)
        self.scheduler = scheduler
        self.state = ClusterState(topology.capacities)
        self.events = EventQueue()
        self.running: dict[int, RunningJob] = {}
        self._placed = np.full(len(self.jobs), np.nan)
        self._start = np.full(len(self.jobs), np.nan)
        self._end = np.full(len(self.jobs), np.nan)
        self._placements: list[Placement | None] = [None] * len(self.jobs)
        self._series: list[tuple[float, int, int]] = []
        for index, job in enumerate(self.jobs):
            self.events.push(job.submit, ARRIVAL_RANK, "arrival", index)

    @property
    def now(self) -> float:
        return self.events.now

    def start(self, job: int, placement: Placement, run_time: float, overhead: float = 0.0) -> None:
        """Take the placement's nodes now; the job runs from now + ``overhead`` for ``run_time``."""
        if job in self.running or self._placements[job] is not None:
            raise InvariantError(f"job {self.jobs[job].job_id} started twice")
        t = self.now
        self.state.allocate(job, placement, t)
        start = t + overhead
        end_event = self.events.push(start + run_time, END_RANK, "end", job)
        self.running[job] = RunningJob(placement, t, start, end_event)
        self._placements[job] = placement
        self._placed[job], self._start[job] = t, start

    def wake_at(self, t: float) -> None:
        """Call the scheduler's ``on_wake`` at ``t`` (not before now): for a scheduler that acts on a
        clock of its own, not only on arrivals and ends."""
        self.events.push(t, WAKE_RANK, "wake")

    def move_end(self, job: int, new_end: float) -> None:
        """Re-plan the end of a running job (its nodes stay taken until then)."""
        running = self.running[job]
        if new_end < running.start:
            raise InvariantError(f"job {self.jobs[job].job_id} moved to end before it started")
        running.end_event = self.events.move(running.end_event, max(new_end, self.now))

    def run(self) -> MulticlusterResult:
        while (event := self.events.pop()) is not None:
            job, t = event.payload, event.time
            if event.kind == "end":
                running = self.running.pop(job)
                self.state.release(job, running.placement, t)
                self._end[job] = t
                self.scheduler.on_end(self, job, t)
            elif event.kind == "wake":
                self.scheduler.on_wake(self, t)
            else:
                self.scheduler.on_arrival(self, job, t)
            self._series.append((t, self.scheduler.waiting(), self.state.busy))
        result = self._result()
        check_multicluster_run(
            capacities=self.state.capacities,
            totals=np.array([job.request.total for job in self.jobs], dtype=np.int64),
            jobs=result.jobs,
            log=self.state.log,
        )
        return result

    def _result(self) -> MulticlusterResult:
        names = self.topology.names
        ids = np.array([job.job_id for job in self.jobs], dtype=np.int64)
        placements = [p or () for p in self._placements]
        jobs = pd.DataFrame(
            {
                "job_id": ids,
                "submit": np.array([job.submit for job in self.jobs], dtype=np.float64),
                "placed": self._placed,
                "start": self._start,
                "end": self._end,
                "procs": np.array([sum(n for _, n in p) for p in placements], dtype=np.int64),
                "n_clusters": np.array([len(clusters_used(p)) for p in placements], dtype=np.int64),
                "clusters": ["+".join(names[c] for c in clusters_used(p)) for p in placements],
            }
        )
        rows = [
            (int(ids[j]), names[c], int(nodes), self._start[j], self._end[j])
            for j, p in enumerate(placements)
            for c, nodes in enumerate(nodes_per_cluster(p, len(names)))
            if nodes
        ]
        components = pd.DataFrame(rows, columns=["job_id", "cluster", "nodes", "start", "end"])
        series = pd.DataFrame(self._series, columns=["time", "waiting", "busy"])
        return MulticlusterResult(jobs, components, series)
