"""One COSY run: simulate, check the invariants, measure what the paper measures.

Metrics (Cao and Zimmermann, IPDPS 2004, section 4.1, and the issue's additions):

- ``mean_queue_wait`` (the paper's ``wq``) and ``max_queue_wait``: over the queue jobs;
- ``mean_reservation_wait`` (``wa``): start - submission of the reservations that ran;
- ``measured_notice`` = wa / wq, the paper's way of reporting ``n`` after the fact;
- ``utilization`` (``u``): processor-seconds run over capacity x (last end - first
  submission);
- ``rejection_rate`` (``r``): refused reservations over all jobs (with
  ``requeue_refused`` a refused reservation still runs, as a queue job, outcome
  ``requeued``; it counts in ``r``, and in ``wq`` as the queue job it became).

Times are float64 seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from schedlab.simulators.core.engine import Engine, EventOrder
from schedlab.simulators.core.invariants import InvariantError, check_batch_schedule
from schedlab.simulators.core.jobs import BatchJobs
from schedlab.simulators.core.machine import Machine
from schedlab.simulators.core.reservations import DEFAULT_CONFIRM_TIMEOUT, EXPIRED
from schedlab.simulators.cosy import compiled
from schedlab.simulators.cosy.notice import NoNotice
from schedlab.simulators.cosy.queues import Queues
from schedlab.simulators.cosy.scheduler import CosyScheduler


ENGINES = ("compiled", "reference")
_REFUSALS = np.array(compiled.REFUSALS, dtype=object)


@dataclass(frozen=True)
class Outcome:
    """What one run decided, per job, as the engine leaves it (before any check)."""

    start: np.ndarray  # NaN: never started
    promised: np.ndarray  # latest start promised (EASY's head reservation, an accepted reservation's start)
    reservation: np.ndarray  # bool: asked for a reservation
    rejected_because: np.ndarray  # object: "" or the refusal's reason
    requeued: np.ndarray  # bool
    requested_start: np.ndarray
    mean_wait: np.ndarray  # W when the request came
    required_notice: np.ndarray


@dataclass
class CosyResult:
    """A run's schedule, column by column, and its metrics.  ``schedule``, the DataFrame, is built
    only when read: most runs of the experiment are only measured."""

    columns: dict
    metrics: dict[str, float]

    @cached_property
    def schedule(self) -> pd.DataFrame:
        return pd.DataFrame(self.columns)


def _mean(values: np.ndarray) -> float:
    return float(values.mean()) if values.size else math.nan


def simulate_cosy(
    jobs: BatchJobs,
    capacity: int,
    *,
    reservations: dict | None = None,
    notice=NoNotice(),
    queues: Queues | None = None,
    confirm_timeout: float = DEFAULT_CONFIRM_TIMEOUT,
    event_order: EventOrder = EventOrder(),
    requeue_refused: bool = False,
    mean_wait: float | None = None,
    engine: str = "compiled",
) -> CosyResult:
    """Run ``jobs`` on a ``capacity``-node COSY machine.

    ``reservations`` maps job indices (positions in ``jobs``) to ``ReservationRequest``;
    every other job goes to the queue.  ``queues`` defaults to the paper's single queue.
    ``mean_wait``: the notice rule's ``W`` as a constant (seconds) instead of the running
    mean wait of started queue jobs.  ``engine``: ``compiled`` runs the loop of
    ``schedlab.simulators.cosy.compiled`` where it applies (``compiled.supported``; the same
    schedules) and the interpreted reference elsewhere; ``reference`` always the latter.
    Raises ``InvariantError`` if the schedule is impossible or a reservation did not
    start exactly on time.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of {ENGINES}")
    reservations = dict(reservations or {})
    if engine == "compiled" and compiled.supported(jobs, capacity, reservations, notice, queues, confirm_timeout,
                                                   event_order) is None:
        result = _simulate_compiled(jobs, capacity, reservations, notice, confirm_timeout, requeue_refused, mean_wait)
        if result is not None:
            return result
    queues = queues or Queues.single(len(jobs))
    scheduler = CosyScheduler(queues, notice, reservations, confirm_timeout, requeue_refused, mean_wait)
    machine = Machine("cosy", capacity, jobs, scheduler)
    Engine([machine], event_order).run()
    decisions = [scheduler.decisions[j] for j in range(len(jobs))]
    outcome = Outcome(
        start=np.array(machine.start_time, dtype=np.float64),
        promised=np.array(machine.promised, dtype=np.float64),
        reservation=np.array([d.reservation for d in decisions], dtype=bool),
        rejected_because=np.array([d.rejected_because for d in decisions], dtype=object),
        requeued=np.array([d.requeued for d in decisions], dtype=bool),
        requested_start=np.array([d.requested_start for d in decisions], dtype=np.float64),
        mean_wait=np.array([d.mean_wait for d in decisions], dtype=np.float64),
        required_notice=np.array([d.required_notice for d in decisions], dtype=np.float64),
    )
    return checked_result(jobs, capacity, outcome, scheduler.book)


def _simulate_compiled(jobs, capacity, reservations, notice, confirm_timeout, requeue_refused, mean_wait):
    """The run on the compiled loop, checked as the reference's is; None if it over-committed the
    profile (a bug: the caller reruns on the reference, which raises where)."""
    n = len(jobs)
    kind = np.full(n, compiled.QUEUE_JOB, dtype=np.int64)
    requested_time = np.full(n, math.nan)
    for job, request in reservations.items():
        kind[job] = compiled.KINDS[request.kind]
        requested_time[job] = request.time
    status, start, promised, refusal, requeued, requested_start, wait, required_notice, started = compiled.run_cosy(
        np.asarray(jobs.submit, dtype=np.float64), np.asarray(jobs.estimate, dtype=np.float64),
        np.asarray(jobs.actual, dtype=np.float64), np.asarray(jobs.procs, dtype=np.int64), int(capacity), kind,
        requested_time, *compiled.notice_parameters(notice), bool(requeue_refused),
        math.nan if mean_wait is None else float(mean_wait), mean_wait is not None,
    )
    if status != compiled.OK:
        return None
    reservation = kind != compiled.QUEUE_JOB
    outcome = Outcome(start, promised, reservation, _REFUSALS[refusal], requeued, requested_start, wait,
                      required_notice)
    book = compiled.reservation_book(jobs, start, reservation & (refusal == 0), requested_start, started,
                                     confirm_timeout)
    return checked_result(jobs, capacity, outcome, book)


def checked_result(jobs: BatchJobs, capacity: int, outcome: Outcome, book) -> CosyResult:
    """Check a run's ``outcome`` (and ``book``'s reservations, if any) and measure it."""
    n = len(jobs)
    start = outcome.start
    refused = outcome.rejected_because != ""
    rejected = refused & ~outcome.requeued
    expired = np.zeros(n, dtype=bool)
    if book is not None:
        book.check_started_on_time()
        for job, reservation in book.reservations.items():
            expired[job] = reservation.state == EXPIRED
    ran = ~rejected & ~expired
    if np.any(~np.isnan(start[~ran])):
        raise InvariantError(f"cosy: rejected or expired job(s) ran: {jobs.job_id[~ran & ~np.isnan(start)][:10]}")
    end = start + jobs.actual
    check_batch_schedule(
        machine="cosy",
        capacity=capacity,
        job_id=jobs.job_id[ran],
        submit=jobs.submit[ran],
        start=start[ran],
        end=end[ran],
        actual=jobs.actual[ran],
        procs=jobs.procs[ran],
        promised=outcome.promised[ran],
    )
    columns = {
        "job_id": jobs.job_id,
        "submit": jobs.submit,
        "start": start,
        "end": end,
        "procs": jobs.procs,
        "requested_time": jobs.estimate,
        "run_time": jobs.actual,
        "kind": np.where(outcome.reservation, "reservation", "queue"),
        "outcome": np.where(rejected, "rejected", np.where(expired, "expired", np.where(outcome.requeued, "requeued", "ran"))),
        "rejected_because": outcome.rejected_because,
        "requested_start": outcome.requested_start,
        "mean_wait_at_request": outcome.mean_wait,
        "required_notice": outcome.required_notice,
    }
    return CosyResult(columns, cosy_metrics(columns, capacity))


def cosy_metrics(columns: dict, capacity: int) -> dict[str, float]:
    """The metrics of a schedule given column by column (numpy arrays, ``CosyResult.columns``)."""
    outcome = columns["outcome"]
    submit = columns["submit"]
    ran = np.isin(outcome, ("ran", "requeued"))
    reservation = columns["kind"] == "reservation"
    held = reservation & (outcome == "ran")
    wait = columns["start"] - submit
    queue_waits = wait[ran & ~held]
    reservation_waits = wait[held]
    wq, wa = _mean(queue_waits), _mean(reservation_waits)
    first_submit = float(submit.min()) if submit.size else math.nan
    last_end = float(columns["end"][ran].max()) if ran.any() else first_submit
    window = last_end - first_submit
    job_work = columns["run_time"] * columns["procs"]
    work = float(job_work[ran].sum())
    n = len(submit)
    rejected = reservation & (outcome == "rejected")
    rejected_reservations = int((reservation & np.isin(outcome, ("rejected", "requeued"))).sum())
    return {
        "jobs": float(n),
        "queue_jobs": float((~reservation).sum()),
        "reservations_requested": float(reservation.sum()),
        "reservations_run": float(held.sum()),
        "reservations_requeued": float((reservation & (outcome == "requeued")).sum()),
        "reservations_rejected": float(rejected_reservations),
        "reservations_expired": float((reservation & (outcome == "expired")).sum()),
        "queue_jobs_rejected": float((~reservation & ~ran).sum()),
        "mean_queue_wait": wq,
        "max_queue_wait": float(queue_waits.max()) if queue_waits.size else math.nan,
        "mean_reservation_wait": wa,
        "measured_notice": wa / wq if wq > 0 else math.nan,
        "utilization": work / (capacity * window) if window > 0 else math.nan,
        "rejection_rate": rejected_reservations / n if n else math.nan,
        "rejected_work_share": float(job_work[rejected].sum() / job_work.sum()) if n else math.nan,
        "makespan": window,
    }
