"""The COSY experiment's runs on a compiled loop: one queue, reservations confirmed at once, the engine's
default conventions.

It runs the same rules as the interpreted reference (``CosyScheduler`` on ``Engine`` and ``Machine``,
``EventOrder()``: ends before submissions at one time, one pass per timestamp, a reservation's start
event after both), decision for decision (Cao and Zimmermann, IPDPS 2004, sections 3 and 4):

- at each pass, every job submitted then is admitted in submission order; a reservation leaves the queue
  and asks for its start (``earliest``: now + n x W, ``start``: its time, ``end``: its latest end minus its
  requested time); it is refused if the notice policy refuses reservations now, if its notice is short of
  n x W (``notice.notice_is_long_enough``) or if its processors are not free then
  (``ReservationBook.request``); an accepted one voids the head reservations of the waiting jobs, and a
  refused one joins the queue under ``requeue_refused`` (``bisect.insort`` by job index);
- then EASY backfilling over the queue in its order (``EasyBackfilling`` with ``start_fitting_heads``),
  W following each pass's started queue jobs unless it is a constant;
- the same availability profile kernels (``simulators/core/profile.py``) on the same bookings, tidied at
  the same moments, and the same sequence numbers, so equal-time ends pop in the same order.

``simulate_cosy`` (``simulators/cosy/run.py``) runs it where ``supported`` says it applies and checks its
output as it checks the reference's; ``tests/test_cosy_compiled.py`` compares the two exactly.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
from numba import njit

from schedlab.simulators.core.engine import EventOrder
from schedlab.simulators.core.profile import _OK as OK
from schedlab.simulators.core.profile import _add, _earliest_start, _fits_beside, _forget_before, _min_free, _segment
from schedlab.simulators.core.reservations import CONFIRMED, STARTED, Reservation, ReservationBook
from schedlab.simulators.cosy.notice import NOTICE_TOLERANCE, AdaptiveNotice, FixedNotice, NoNotice
from schedlab.simulators.cosy.scheduler import EARLIEST, EXACT_START, LATEST_END
from schedlab.simulators.core.event_heap import helper, pop, push

QUEUE_JOB = -1
_EARLIEST, _EXACT_START, _LATEST_END = 0, 1, 2
KINDS = {EARLIEST: _EARLIEST, EXACT_START: _EXACT_START, LATEST_END: _LATEST_END}  # a request's kind by code
CONSTANT, ADAPTIVE = 0, 1  # how the notice factor n is found
# ``Decision.rejected_because`` by code (0: not refused)
REFUSALS = ("", "reservation share above the limit", "notice too short", "processors not free")
_SHARE, _NOTICE, _NOT_FREE = 1, 2, 3
_TERMINATE, _SUBMIT, _START = 0, 1, 2  # the engine's ranks under terminations first
_COMPACT_AT = 64  # AvailabilityProfile's first tidying length


def supported(jobs, capacity: int, reservations: dict, notice, queues, confirm_timeout: float,
              event_order: EventOrder) -> str | None:
    """Why a run must go to the reference engine, or None if the compiled loop runs it."""
    if queues is not None:
        return "queues given: the loop runs only the default single queue"
    if event_order != EventOrder():
        return f"event order {event_order}"
    if type(notice) not in (NoNotice, FixedNotice, AdaptiveNotice):
        return f"notice policy {type(notice).__name__}"
    if not confirm_timeout > 0:
        return "a confirmation timeout <= 0"
    if any(request.confirm_after != 0.0 for request in reservations.values()):
        return "two-phase reservations"
    if len(jobs) == 0:
        return "no jobs"
    if any(not 0 <= job < len(jobs) for job in reservations):
        return "a reservation for no job"
    if int(jobs.procs.max()) > capacity:
        return "a job larger than the machine"
    return None


def notice_parameters(notice) -> tuple[int, float, float, float, float, float]:
    """(CONSTANT or ADAPTIVE, the constant n, the adaptive policy's max share, lowest and highest n, the
    notice comparison's tolerance): arguments, not globals, which numba's cache would keep stale."""
    if isinstance(notice, AdaptiveNotice):
        return ADAPTIVE, math.nan, notice.max_share, notice.lowest_factor, notice.highest_factor, NOTICE_TOLERANCE
    return CONSTANT, notice.required_factor(0.0), math.nan, math.nan, math.nan, NOTICE_TOLERANCE


def reservation_book(jobs, start, accepted, reserved_start, started, confirm_timeout: float) -> ReservationBook:
    """The ``ReservationBook`` the reference would end with, from the compiled loop's output, for its
    invariant ``check_started_on_time``: each accepted reservation, started if its start event ran."""
    book = ReservationBook(SimpleNamespace(name="cosy", start_time=start), confirm_timeout)
    for job in np.flatnonzero(accepted):
        job = int(job)
        begin = float(reserved_start[job])
        book.reservations[job] = Reservation(job, begin, int(jobs.procs[job]), begin + float(jobs.estimate[job]),
                                             STARTED if started[job] else CONFIRMED)
    return book


@njit(cache=True)
def _change(times, free, n, start, end, delta, capacity):
    """``AvailabilityProfile._add`` on buffers sized for every booking of the run."""
    if end <= start:
        return n, OK
    return _add(times, free, n, start, end, delta, capacity)


@njit(cache=True)
def _start_now(job, t, times, free, segments, capacity, estimate, actual, procs, start, end_time, end_start, end_seq,
               end_job, ends, sequence):
    """``Machine.start`` of a queue job: book its estimate, queue its end under a new sequence number."""
    segments, status = _change(times, free, segments, t, t + estimate[job], -procs[job], capacity)
    start[job] = t
    sequence += 1
    ends = push(end_time, end_start, end_seq, end_job, ends, t + actual[job], t, sequence, job)
    return segments, status, ends, sequence


@helper
def _remove(queue, size, job):
    """``list.remove``: drop the first ``job`` from ``queue[:size]``; the new size."""
    at = 0
    while queue[at] != job:
        at += 1
    for i in range(at, size - 1):
        queue[i] = queue[i + 1]
    return size - 1


@helper
def _insort(queue, size, job):
    """``bisect.insort``: insert ``job`` after the entries not greater than it; the new size."""
    low, high = 0, size
    while low < high:
        middle = (low + high) // 2
        if job < queue[middle]:
            high = middle
        else:
            low = middle + 1
    for i in range(size, low, -1):
        queue[i] = queue[i - 1]
    queue[low] = job
    return size + 1


@njit(cache=True)
def run_cosy(submit, estimate, actual, procs, capacity, kind, requested_time, notice_mode, constant_factor,
             max_share, lowest_factor, highest_factor, notice_tolerance, requeue_refused, fixed_mean_wait,
             use_fixed_mean_wait):
    """``kind[j]``: ``QUEUE_JOB`` or the reservation request's ``KINDS`` code, ``requested_time[j]`` its time.
    Returns a status (``OK``, or the profile's over-commit code: rerun on the reference to see where) and,
    per job, its start, its promise, its refusal code, whether it was requeued, its requested start, W and
    the required notice at its request, and whether its reservation's start event started it."""
    n_jobs = submit.shape[0]
    start = np.full(n_jobs, np.nan)
    promised = np.full(n_jobs, np.inf)
    refusal = np.zeros(n_jobs, dtype=np.int64)
    requeued = np.zeros(n_jobs, dtype=np.bool_)
    requested_start = np.full(n_jobs, np.nan)
    mean_wait = np.full(n_jobs, np.nan)
    required_notice = np.full(n_jobs, np.nan)
    reservation_started = np.zeros(n_jobs, dtype=np.bool_)
    size = 4 * n_jobs + 2  # each job books and releases once, each adding at most two breakpoints
    times, free = np.empty(size), np.empty(size, dtype=np.int64)
    times[0], free[0], segments, compact_at = -np.inf, capacity, 1, _COMPACT_AT
    next_arrival = 0  # ``BatchJobs`` are sorted by submission: they pop by (time, sequence = job + 1)
    end_time, end_start = np.empty(n_jobs), np.empty(n_jobs)
    end_seq, end_job = np.empty(n_jobs, dtype=np.int64), np.empty(n_jobs, dtype=np.int64)
    ends = 0
    due_time, due_zero = np.empty(n_jobs), np.zeros(n_jobs)  # reservation starts: (time, 0, sequence)
    due_seq, due_job = np.empty(n_jobs, dtype=np.int64), np.empty(n_jobs, dtype=np.int64)
    dues = 0
    sequence = n_jobs  # the submissions took 1..n
    queue = np.empty(n_jobs, dtype=np.int64)
    queued = 0
    before = np.empty(n_jobs, dtype=np.int64)
    submitted = np.empty(n_jobs, dtype=np.int64)
    arrived = 0
    protected = -1
    received = accepted = started_queue_jobs = 0
    queue_wait_sum = 0.0
    now = -np.inf
    status = OK
    while status == OK:
        # the next event by (time, rank); within a rank the heaps and the arrival order break ties
        event, t = -1, np.inf
        if ends > 0:
            event, t = _TERMINATE, end_time[0]
        if next_arrival < n_jobs and submit[next_arrival] < t:
            event, t = _SUBMIT, submit[next_arrival]
        if dues > 0 and due_time[0] < t:
            event, t = _START, due_time[0]
        if event == -1:
            break
        if t != now:
            # ``Engine._record``: the profile tidied for the time just left
            if now != -np.inf and segments >= compact_at:
                segments = _forget_before(times, free, segments, now)
                compact_at = max(_COMPACT_AT, 2 * segments)
            now = t
        if event == _START:
            # the planned start's sequence orders its end, as ``Machine.start(sequence=...)`` does
            seq = due_seq[0]
            job, dues = pop(due_time, due_zero, due_seq, due_job, dues)
            reservation_started[job] = True
            start[job] = t
            ends = push(end_time, end_start, end_seq, end_job, ends, t + actual[job], t, seq, job)
            continue
        if event == _SUBMIT:
            job = next_arrival
            next_arrival += 1
            queue[queued] = job
            queued += 1
            submitted[arrived] = job
            arrived += 1
        else:
            job, ends = pop(end_time, end_start, end_seq, end_job, ends)
            segments, status = _change(times, free, segments, t, start[job] + estimate[job], procs[job], capacity)
        if (ends > 0 and end_time[0] == t) or (next_arrival < n_jobs and submit[next_arrival] == t):
            continue  # one pass per timestamp, after its ends and submissions
        # the pass: admissions in submission order, then the queue
        for i in range(arrived):
            job = submitted[i]
            received += 1
            if kind[job] == QUEUE_JOB:
                continue
            queued = _remove(queue, queued, job)
            share = accepted / received
            if notice_mode == ADAPTIVE and share > max_share:
                refusal[job] = _SHARE
            else:
                factor = constant_factor
                if notice_mode == ADAPTIVE:
                    factor = lowest_factor + (highest_factor - lowest_factor) * share / max_share
                w = fixed_mean_wait
                if not use_fixed_mean_wait:
                    w = queue_wait_sum / started_queue_jobs if started_queue_jobs else 0.0
                mean_wait[job] = w
                required_notice[job] = factor * w
                if kind[job] == _EARLIEST:
                    asked = t + required_notice[job]
                elif kind[job] == _EXACT_START:
                    asked = requested_time[job]
                else:
                    asked = requested_time[job] - estimate[job]
                requested_start[job] = asked
                if not asked - t >= required_notice[job] - notice_tolerance:
                    refusal[job] = _NOTICE
                elif asked < t or _min_free(times, free, segments, asked, asked + estimate[job]) < procs[job]:
                    refusal[job] = _NOT_FREE
                else:
                    segments, status = _change(times, free, segments, asked, asked + estimate[job], -procs[job],
                                               capacity)
                    promised[job] = asked
                    sequence += 1
                    dues = push(due_time, due_zero, due_seq, due_job, dues, asked, 0.0, sequence, job)
                    accepted += 1
                    for k in range(queued):
                        promised[queue[k]] = np.inf
            if refusal[job] != 0 and requeue_refused:
                requeued[job] = True
                queued = _insort(queue, queued, job)
        arrived = 0
        waiting = queued
        before[:waiting] = queue[:waiting]
        # EASY: a job that moved ahead of the protected head voids its reservation
        if queued > 0 and protected != -1 and protected != queue[0] and np.isnan(start[protected]):
            promised[protected] = np.inf
        heads = 0
        while heads < queued and status == OK:
            job = queue[heads]
            if _min_free(times, free, segments, t, t + estimate[job]) < procs[job]:
                break
            segments, status, ends, sequence = _start_now(job, t, times, free, segments, capacity, estimate, actual,
                                                          procs, start, end_time, end_start, end_seq, end_job, ends,
                                                          sequence)
            heads += 1
        queue[:queued - heads] = queue[heads:queued]
        queued -= heads
        if queued > 0:
            head = queue[0]
            protected = head
            free_now = free[_segment(times, segments, t)]
            reserved, shadow = False, 0.0  # the head's reservation, found once a candidate fits now
            kept = 1
            for i in range(1, queued):
                job = queue[i]
                if procs[job] <= free_now and status == OK:
                    if not reserved:
                        reserved, shadow = True, _earliest_start(times, free, segments, t, estimate[head], procs[head])
                        promised[head] = min(promised[head], shadow)
                    if _fits_beside(times, free, segments, t, t + estimate[job], procs[job], shadow,
                                    shadow + estimate[head], procs[head]):
                        segments, status, ends, sequence = _start_now(
                            job, t, times, free, segments, capacity, estimate, actual, procs, start, end_time,
                            end_start, end_seq, end_job, ends, sequence)
                        free_now = free[_segment(times, segments, t)]
                        continue
                queue[kept] = job
                kept += 1
            queued = kept
        for i in range(waiting):
            job = before[i]
            if not np.isnan(start[job]):
                started_queue_jobs += 1
                queue_wait_sum += start[job] - submit[job]
    return status, start, promised, refusal, requeued, requested_start, mean_wait, required_notice, reservation_started
