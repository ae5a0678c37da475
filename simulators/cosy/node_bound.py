"""Reservations bound to nodes when accepted: a diagnostic of the COSY experiment.

COSY places jobs and advance reservations on named nodes, not on a processor count
(Cao and Zimmermann, IPDPS 2004, section 3.1: flexible node selection "is also applied
to advance reservations"; section 3.2: a latest-end reservation "may be rescheduled to
earlier possible nodes").  The engine's availability profile counts processors, which
lets a reservation take whichever nodes are free when it starts.  If COSY fixes the nodes
at booking, a queue job may find free nodes that a reservation owns later while the
other nodes are busy, and wait where the counting model would start it: a candidate
for the fragmentation the paper measured and our counting model does not show.

This module replays one run of the paper's single-queue setting with node identities:

- A reservation request (``ReservationRequest``, ``schedlab.simulators.cosy.notice`` policies,
  as in ``simulate_cosy``) is accepted if ``procs`` nodes are free over its whole
  interval: no running job on them past its start (jobs hold nodes to their binding
  end) and no accepted reservation overlapping it.  DEFAULT: it takes the lowest-numbered
  such nodes (first fit), fixed from then on.  A refused request is dropped.
- Queue jobs: FCFS with EASY backfilling over the same node calendars.  The head job
  that cannot start gets a promise at the earliest time enough nodes are free for its
  whole run; DEFAULT: the promise takes nodes busy now first, so that without
  reservations the schedule is exactly the counting model's (tested).  A backfilled job
  must end before that time or stay off the promised nodes.  DEFAULT node choice for a
  starting job: nodes whose next reservation comes soonest first (best fit in time,
  keeping nodes with long free stretches for long jobs), then the promised nodes (a
  job ending before the promise may use them), then the lowest number.
- ``W`` is the mean wait of the queue jobs started so far, updated after every pass.

Scope: one queue, jobs that run exactly their requested time (the paper's experiment;
anything else raises ``ValueError``), no two-phase commitment.  Every run checks that no
node holds two jobs at once, that no job starts before its submission and that every
accepted reservation started exactly at its start time; ``InvariantError`` if not.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np

from schedlab.simulators.core.invariants import InvariantError, check_batch_schedule
from schedlab.simulators.core.jobs import BatchJobs
from schedlab.simulators.cosy.notice import NoNotice, notice_is_long_enough
from schedlab.simulators.cosy.run import CosyResult, cosy_metrics


@dataclass
class NodeCalendar:
    """One node: the binding end of the job on it, and the reservations it is booked for."""

    busy_until: float = -math.inf
    bookings: list[tuple[float, float]] = field(default_factory=list)  # (start, end), not yet started

    def free_over(self, start: float, end: float) -> bool:
        return self.busy_until <= start and all(b_end <= start or b_start >= end for b_start, b_end in self.bookings)

    def next_booking(self, t: float) -> float:
        return min((b_start for b_start, _ in self.bookings if b_start >= t), default=math.inf)


class NodeBoundCosy:
    def __init__(self, jobs: BatchJobs, capacity: int, reservations: dict, notice):
        if np.any(jobs.actual != jobs.estimate):
            raise ValueError("the node-bound diagnostic needs jobs that run exactly their requested time")
        self.jobs = jobs
        self.requests = reservations
        self.notice = notice
        self.nodes = [NodeCalendar() for _ in range(capacity)]
        n = len(jobs)
        self.start = np.full(n, math.nan)
        self.placed: list[tuple[int, ...]] = [()] * n
        self.requested_start = np.full(n, math.nan)
        self.rejected = np.zeros(n, dtype=bool)
        self.queue: list[int] = []
        self.bookings: dict[float, list[int]] = {}  # start time -> reservations starting then
        self.times: list[float] = []
        self.received = self.accepted = 0
        self.started_queue_jobs = 0
        self.queue_wait_sum = 0.0

    def mean_queue_wait(self) -> float:
        return self.queue_wait_sum / self.started_queue_jobs if self.started_queue_jobs else 0.0

    def run(self) -> None:
        jobs = self.jobs
        self.times = sorted(set(jobs.submit.tolist()))
        heapq.heapify(self.times)
        next_job = 0
        while self.times:
            t = heapq.heappop(self.times)
            while self.times and self.times[0] <= t:
                heapq.heappop(self.times)
            self._start_reservations(t)
            while next_job < len(jobs) and jobs.submit[next_job] <= t:
                if next_job in self.requests:
                    self._request(next_job, t)
                else:
                    self.queue.append(next_job)
                next_job += 1
            self._start_reservations(t)  # a request may ask for "now"
            self._serve_queue(t)

    def _occupy(self, job: int, t: float, nodes) -> None:
        end = t + self.jobs.estimate[job]
        for i in nodes:
            self.nodes[i].busy_until = end
        self.start[job] = t
        self.placed[job] = tuple(nodes)
        heapq.heappush(self.times, end)

    def _request(self, job: int, t: float) -> None:
        self.received += 1
        factor = self.notice.required_factor(self.accepted / self.received)
        minimum_notice = factor * self.mean_queue_wait() if factor is not None else math.inf
        start = self.requests[job].start(t, minimum_notice, self.jobs.estimate[job])
        self.requested_start[job] = start
        end = start + self.jobs.estimate[job]
        free = [i for i, node in enumerate(self.nodes) if node.free_over(start, end)]
        if factor is None or not notice_is_long_enough(start, t, minimum_notice) or len(free) < self.jobs.procs[job]:
            self.rejected[job] = True
            return
        self.accepted += 1
        chosen = free[: self.jobs.procs[job]]
        for i in chosen:
            self.nodes[i].bookings.append((start, end))
        self.placed[job] = tuple(chosen)
        self.bookings.setdefault(start, []).append(job)
        heapq.heappush(self.times, start)

    def _start_reservations(self, t: float) -> None:
        for job in self.bookings.pop(t, []):
            end = t + self.jobs.estimate[job]
            for i in self.placed[job]:
                node = self.nodes[i]
                if node.busy_until > t:
                    raise InvariantError(f"cosy node-bound: node {i} still busy when reservation {self.jobs.job_id[job]} starts")
                node.bookings.remove((t, end))
            self._occupy(job, t, self.placed[job])

    def _placement_order(self, nodes, t: float, promised=frozenset()):
        return sorted(nodes, key=lambda i: (self.nodes[i].next_booking(t), i not in promised, i))

    def _serve_queue(self, t: float) -> None:
        started = []
        while self.queue:
            head = self.queue[0]
            length, width = self.jobs.estimate[head], self.jobs.procs[head]
            free = [i for i, node in enumerate(self.nodes) if node.free_over(t, t + length)]
            if len(free) >= width:
                self._occupy(head, t, self._placement_order(free, t)[:width])
                started.append(self.queue.pop(0))
                continue
            promise_time, promised = self._promise(head, t)
            for job in list(self.queue[1:]):
                end = t + self.jobs.estimate[job]
                usable = [
                    i for i, node in enumerate(self.nodes)
                    if node.free_over(t, end) and (end <= promise_time or i not in promised)
                ]
                if len(usable) >= self.jobs.procs[job]:
                    self._occupy(job, t, self._placement_order(usable, t, promised)[: self.jobs.procs[job]])
                    self.queue.remove(job)
                    started.append(job)
            break
        for job in started:
            self.started_queue_jobs += 1
            self.queue_wait_sum += t - self.jobs.submit[job]

    def _promise(self, head: int, t: float) -> tuple[float, frozenset]:
        """The earliest time enough nodes are free for the head's whole run, and those nodes."""
        length, width = self.jobs.estimate[head], self.jobs.procs[head]
        moments = {node.busy_until for node in self.nodes if node.busy_until > t}
        moments |= {end for node in self.nodes for _, end in node.bookings if end > t}
        for moment in sorted(moments):
            free = [i for i, node in enumerate(self.nodes) if node.free_over(moment, moment + length)]
            if len(free) >= width:
                busy_now_first = sorted(free, key=lambda i: (self.nodes[i].busy_until <= t, i))
                return moment, frozenset(busy_now_first[:width])
        raise InvariantError(f"cosy node-bound: job {self.jobs.job_id[head]} can never start")


def check_nodes_never_shared(start: np.ndarray, end: np.ndarray, placed, job_id: np.ndarray) -> None:
    """No node runs two jobs at the same time (a job ending at t frees its nodes for t)."""
    per_node: dict[int, list[tuple[float, float, int]]] = {}
    for job, nodes in enumerate(placed):
        if not math.isnan(start[job]):
            for i in nodes:
                per_node.setdefault(i, []).append((start[job], end[job], job))
    for i, spans in per_node.items():
        spans.sort()
        for (_, first_end, first), (second_start, _, second) in zip(spans, spans[1:]):
            if second_start < first_end:
                raise InvariantError(f"cosy node-bound: node {i} runs jobs {job_id[first]} and {job_id[second]} at once")


def simulate_node_bound(jobs: BatchJobs, capacity: int, *, reservations: dict | None = None, notice=NoNotice()) -> CosyResult:
    """One run with node-bound reservations; the schedule has the columns of ``simulate_cosy``'s."""
    reservations = dict(reservations or {})
    sim = NodeBoundCosy(jobs, capacity, reservations, notice)
    sim.run()
    ran = ~sim.rejected
    end = sim.start + jobs.actual
    check_batch_schedule(
        machine="cosy node-bound", capacity=capacity, job_id=jobs.job_id[ran], submit=jobs.submit[ran],
        start=sim.start[ran], end=end[ran], actual=jobs.actual[ran], procs=jobs.procs[ran],
        promised=np.full(int(ran.sum()), math.inf),
    )
    check_nodes_never_shared(sim.start, end, sim.placed, jobs.job_id)
    is_reservation = np.zeros(len(jobs), dtype=bool)
    is_reservation[list(reservations)] = True
    late = is_reservation & ran & (sim.start != sim.requested_start)
    if late.any():
        raise InvariantError(f"cosy node-bound: reservation(s) not started on time: {jobs.job_id[late][:10]}")
    columns = {
        "job_id": jobs.job_id,
        "submit": jobs.submit,
        "start": sim.start,
        "end": end,
        "procs": jobs.procs,
        "run_time": jobs.actual,
        "kind": np.where(is_reservation, "reservation", "queue"),
        "outcome": np.where(sim.rejected, "rejected", "ran"),
        "nodes": [" ".join(map(str, nodes)) for nodes in sim.placed],
    }
    return CosyResult(columns, cosy_metrics(columns, capacity))
