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

import numpy as np
import pandas as pd

from schedlab.simulators.core.engine import Engine, EventOrder
from schedlab.simulators.core.invariants import InvariantError, check_batch_schedule
from schedlab.simulators.core.jobs import BatchJobs
from schedlab.simulators.core.machine import Machine
from schedlab.simulators.core.reservations import DEFAULT_CONFIRM_TIMEOUT, EXPIRED
from schedlab.simulators.cosy.notice import NoNotice
from schedlab.simulators.cosy.queues import Queues
from schedlab.simulators.cosy.scheduler import CosyScheduler


@dataclass
class CosyResult:
    schedule: pd.DataFrame
    metrics: dict[str, float]


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
) -> CosyResult:
    """Run ``jobs`` on a ``capacity``-node COSY machine.

    ``reservations`` maps job indices (positions in ``jobs``) to ``ReservationRequest``;
    every other job goes to the queue.  ``queues`` defaults to the paper's single queue.
    ``mean_wait``: the notice rule's ``W`` as a constant (seconds) instead of the running
    mean wait of started queue jobs.
    Raises ``InvariantError`` if the schedule is impossible or a reservation did not
    start exactly on time.
    """
    reservations = dict(reservations or {})
    queues = queues or Queues.single(len(jobs))
    scheduler = CosyScheduler(queues, notice, reservations, confirm_timeout, requeue_refused, mean_wait)
    machine = Machine("cosy", capacity, jobs, scheduler)
    Engine([machine], event_order).run()

    n = len(jobs)
    start = np.array(machine.start_time, dtype=np.float64)
    decisions = [scheduler.decisions[j] for j in range(n)]
    is_reservation = np.array([d.reservation for d in decisions], dtype=bool)
    refused = np.array([bool(d.rejected_because) for d in decisions], dtype=bool)
    requeued = np.array([d.requeued for d in decisions], dtype=bool)
    rejected = refused & ~requeued
    book = scheduler.book
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
        machine=machine.name,
        capacity=capacity,
        job_id=jobs.job_id[ran],
        submit=jobs.submit[ran],
        start=start[ran],
        end=end[ran],
        actual=jobs.actual[ran],
        procs=jobs.procs[ran],
        promised=np.array(machine.promised, dtype=np.float64)[ran],
    )
    outcome = np.where(rejected, "rejected", np.where(expired, "expired", np.where(requeued, "requeued", "ran")))
    schedule = pd.DataFrame(
        {
            "job_id": jobs.job_id,
            "submit": jobs.submit,
            "start": start,
            "end": end,
            "procs": jobs.procs,
            "requested_time": jobs.estimate,
            "run_time": jobs.actual,
            "kind": np.where(is_reservation, "reservation", "queue"),
            "outcome": outcome,
            "rejected_because": [d.rejected_because for d in decisions],
            "requested_start": [d.requested_start for d in decisions],
            "mean_wait_at_request": [d.mean_wait for d in decisions],
            "required_notice": [d.required_notice for d in decisions],
        }
    )
    return CosyResult(schedule, cosy_metrics(schedule, capacity))


def cosy_metrics(schedule: pd.DataFrame, capacity: int) -> dict[str, float]:
    outcome = schedule["outcome"].to_numpy()
    ran = np.isin(outcome, ("ran", "requeued"))
    reservation = schedule["kind"].to_numpy() == "reservation"
    held = reservation & (outcome == "ran")
    wait = (schedule["start"] - schedule["submit"]).to_numpy()
    queue_waits = wait[ran & ~held]
    reservation_waits = wait[held]
    wq, wa = _mean(queue_waits), _mean(reservation_waits)
    first_submit = float(schedule["submit"].min())
    last_end = float(schedule["end"][ran].max()) if ran.any() else first_submit
    window = last_end - first_submit
    job_work = (schedule["run_time"] * schedule["procs"]).to_numpy()
    work = float(job_work[ran].sum())
    n = len(schedule)
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
