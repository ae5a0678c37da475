"""The batch replay's whole event loop, compiled: FCFS, EASY and conservative backfilling
under any queue order and either convention profile.

This is a second implementation of exactly what ``simulators.core.engine.Engine`` does
with one ``Machine`` and one of the built-in policies (``fcfs.py``, ``easy.py``,
``conservative.py``) and orders (``order.py``): those modules stay the readable
reference, and the tests compare both paths job for job on random workloads and on the
pyss references.  Everything that decides a schedule is mirrored, including the
order in which sequence numbers are drawn, since they break ties between equal-time
terminations.

Events are keyed ``(time, rank, tie, sequence)`` as in the engine.  Submissions are
not pushed on the heap: jobs arrive sorted and take sequence numbers 1..n, so they are
merged from a cursor, which keeps the heap to running jobs and planned starts.  The
availability profile is the engine's own (``simulators.core.profile``'s kernels).

The compiled function is cached on disk by numba (``cache=True``); ``warm_up()``
compiles it ahead of a first real call.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from simulators.core.profile import (
    _OK,
    _add,
    _earliest_start,
    _fits_beside,
    _forget_before,
    _min_free,
    _segment,
)

POLICY_CODES = {"fcfs": 0, "easy": 1, "conservative": 2}
ORDER_CODES = {"fcfs": 0, "wfp": 1, "sjf": 2}
_FCFS, _EASY, _CONSERVATIVE = 0, 1, 2
_ARRIVAL, _WFP, _SJF = 0, 1, 2

_SUBMIT, _TERMINATE, _START = 0, 1, 2
_START_RANK = 2.0

# Outcome codes returned by the loop; anything but DONE is a simulator bug.
DONE, OVER_COMMIT, OVER_RELEASE, COMPRESSION_MOVED_LATER = 0, 1, 2, 3
FAILURES = {
    OVER_COMMIT: "a booking exceeds the machine's capacity",
    OVER_RELEASE: "a release gives back processors that were never booked",
    COMPRESSION_MOVED_LATER: "conservative compression moved a reservation later",
}

# Heap rows: time, rank, tie, sequence, kind, job.
_T, _RANK, _TIE, _SEQ, _KIND, _JOB = 0, 1, 2, 3, 4, 5


@njit(cache=True)
def _before(heap, a, b):
    for column in range(4):
        if heap[a, column] != heap[b, column]:
            return heap[a, column] < heap[b, column]
    return False


@njit(cache=True)
def _swap(heap, a, b):
    for column in range(6):
        heap[a, column], heap[b, column] = heap[b, column], heap[a, column]


@njit(cache=True)
def _push(heap, size, t, rank, tie, seq, kind, job):
    if size == heap.shape[0]:
        grown = np.empty((2 * heap.shape[0], 6))
        grown[:size] = heap[:size]
        heap = grown
    heap[size, 0], heap[size, 1], heap[size, 2] = t, rank, tie
    heap[size, 3], heap[size, 4], heap[size, 5] = seq, kind, job
    child = size
    while child > 0:
        parent = (child - 1) // 2
        if not _before(heap, child, parent):
            break
        _swap(heap, child, parent)
        child = parent
    return heap, size + 1


@njit(cache=True)
def _pop(heap, size):
    """Move the smallest event to row ``size - 1`` and restore the heap above it."""
    size -= 1
    _swap(heap, 0, size)
    parent = 0
    while True:
        child = 2 * parent + 1
        if child >= size:
            break
        if child + 1 < size and _before(heap, child + 1, child):
            child += 1
        if not _before(heap, child, parent):
            break
        _swap(heap, child, parent)
        parent = child
    return size


@njit(cache=True)
def _dequeue(queue, length, job):
    """Take ``job`` off the queue, keeping the others in arrival order; return the new length."""
    found = False
    for i in range(length):
        if found:
            queue[i - 1] = queue[i]
        elif queue[i] == job:
            found = True
    return length - 1 if found else length


@njit(cache=True)
def _ordered(queue, queue_length, order, t, submit, estimate, procs):
    """The waiting jobs in the order a policy considers them (sorts are stable)."""
    jobs = queue[:queue_length].copy()
    if order == _ARRIVAL or queue_length < 2:
        return jobs
    keys = np.empty(queue_length)
    for i in range(queue_length):
        job = jobs[i]
        if order == _WFP:
            keys[i] = -(((t - submit[job]) / estimate[job]) ** 3.0) * procs[job]
        else:
            keys[i] = estimate[job]
    return jobs[np.argsort(keys, kind="mergesort")]


@njit(cache=True)
def run_loop(submit, estimate, actual, procs, capacity, policy, order, submissions_first, per_event):
    """Simulate; return ``(status, job, start, promised, series_time, series_queue, series_busy)``.

    ``status`` is ``DONE`` or the code of the broken invariant, ``job`` the job it concerns.
    """
    n = submit.shape[0]
    rank_submit = 0.0 if submissions_first else 1.0
    rank_terminate = 1.0 if submissions_first else 0.0

    start_time = np.full(n, np.nan)
    promised = np.full(n, np.inf)
    planned_time = np.full(n, np.nan)
    planned_seq = np.full(n, -1, dtype=np.int64)

    times = np.empty(64)
    free = np.empty(64, dtype=np.int64)
    times[0], free[0] = -np.inf, capacity
    segments, compact_at = 1, 64

    queue = np.empty(max(n, 1), dtype=np.int64)
    queue_length = 0
    busy = 0
    sequence = n  # submissions hold 1..n
    heap = np.empty((max(64, n // 4), 6))
    heap_size = 0
    cursor = 0

    series_time = np.empty(2 * n + 1)
    series_queue = np.empty(2 * n + 1, dtype=np.int64)
    series_busy = np.empty(2 * n + 1, dtype=np.int64)
    recorded = 0

    pending_submitted = np.empty(max(n, 1), dtype=np.int64)
    submitted_count = 0
    ended_count = 0
    protected_head = -1
    now = -np.inf

    while cursor < n or heap_size > 0:
        take_submission = cursor < n
        if take_submission and heap_size > 0:
            top_t, top_rank = heap[0, _T], heap[0, _RANK]
            top_tie, top_seq = heap[0, _TIE], heap[0, _SEQ]
            t_sub = submit[cursor]
            if t_sub != top_t:
                take_submission = t_sub < top_t
            elif rank_submit != top_rank:
                take_submission = rank_submit < top_rank
            elif top_tie != 0.0:
                take_submission = 0.0 < top_tie
            else:
                take_submission = cursor + 1 < top_seq
        if take_submission:
            t, kind, job, event_seq = submit[cursor], _SUBMIT, cursor, cursor + 1
            cursor += 1
        else:
            heap_size = _pop(heap, heap_size)
            t = heap[heap_size, _T]
            kind = int(heap[heap_size, _KIND])
            job = int(heap[heap_size, _JOB])
            event_seq = int(heap[heap_size, _SEQ])

        if t != now:
            if now != -np.inf:
                if recorded == series_time.shape[0]:
                    series_time = np.concatenate((series_time, np.empty(recorded)))
                    series_queue = np.concatenate((series_queue, np.empty(recorded, dtype=np.int64)))
                    series_busy = np.concatenate((series_busy, np.empty(recorded, dtype=np.int64)))
                series_time[recorded], series_queue[recorded], series_busy[recorded] = now, queue_length, busy
                recorded += 1
                if segments >= compact_at:
                    segments = _forget_before(times, free, segments, now)
                    compact_at = max(64, 2 * segments)
            now = t

        if kind == _START:
            if planned_seq[job] != event_seq or planned_time[job] != t:
                continue  # left behind by a compression
            planned_seq[job] = -1
            # start(job, t, booked=True, sequence=event_seq)
            queue_length = _dequeue(queue, queue_length, job)
            start_time[job] = t
            busy += procs[job]
            heap, heap_size = _push(heap, heap_size, t + actual[job], rank_terminate, t, event_seq, _TERMINATE, job)
            continue

        if kind == _SUBMIT:
            queue[queue_length] = job
            queue_length += 1
        else:
            if segments + 2 > times.shape[0]:
                times = np.concatenate((times, np.empty_like(times)))
                free = np.concatenate((free, np.empty_like(free)))
            end = start_time[job] + estimate[job]
            if end > t:
                segments, status = _add(times, free, segments, t, end, procs[job], capacity)
                if status != _OK:
                    return OVER_RELEASE, job, start_time, promised, series_time, series_queue, series_busy
            busy -= procs[job]

        if per_event:
            submitted_count = 0
            ended_count = 0
            if kind == _SUBMIT:
                pending_submitted[0] = job
                submitted_count = 1
            else:
                ended_count = 1
        else:
            if kind == _SUBMIT:
                pending_submitted[submitted_count] = job
                submitted_count += 1
            else:
                ended_count += 1
            # The pass waits for every submission and termination at this time.
            if cursor < n and submit[cursor] == t and rank_submit < _START_RANK:
                continue
            if heap_size > 0 and heap[0, _T] == t and heap[0, _RANK] < _START_RANK:
                continue

        # ---- the scheduling pass ----
        if policy == _CONSERVATIVE:
            if ended_count > 0:
                ordered = _ordered(queue, queue_length, order, t, submit, estimate, procs)
                for i in range(ordered.shape[0]):
                    candidate = ordered[i]
                    if planned_seq[candidate] < 0 or planned_time[candidate] <= t:
                        continue
                    old_start = planned_time[candidate]
                    duration, width = estimate[candidate], procs[candidate]
                    if segments + 4 > times.shape[0]:
                        times = np.concatenate((times, np.empty_like(times)))
                        free = np.concatenate((free, np.empty_like(free)))
                    segments, status = _add(times, free, segments, old_start, old_start + duration, width, capacity)
                    if status != _OK:
                        return OVER_RELEASE, candidate, start_time, promised, series_time, series_queue, series_busy
                    new_start = _earliest_start(times, free, segments, t, duration, width)
                    if new_start > old_start:
                        return COMPRESSION_MOVED_LATER, candidate, start_time, promised, series_time, series_queue, series_busy
                    segments, status = _add(times, free, segments, new_start, new_start + duration, -width, capacity)
                    if status != _OK:
                        return OVER_COMMIT, candidate, start_time, promised, series_time, series_queue, series_busy
                    if new_start != old_start:
                        sequence += 1
                        planned_time[candidate], planned_seq[candidate] = new_start, sequence
                        heap, heap_size = _push(heap, heap_size, new_start, _START_RANK, 0.0, sequence, _START, candidate)
                        promised[candidate] = min(promised[candidate], new_start)
            for i in range(submitted_count):
                candidate = pending_submitted[i]
                duration, width = estimate[candidate], procs[candidate]
                slot = _earliest_start(times, free, segments, t, duration, width)
                if segments + 2 > times.shape[0]:
                    times = np.concatenate((times, np.empty_like(times)))
                    free = np.concatenate((free, np.empty_like(free)))
                segments, status = _add(times, free, segments, slot, slot + duration, -width, capacity)
                if status != _OK:
                    return OVER_COMMIT, candidate, start_time, promised, series_time, series_queue, series_busy
                sequence += 1
                planned_time[candidate], planned_seq[candidate] = slot, sequence
                heap, heap_size = _push(heap, heap_size, slot, _START_RANK, 0.0, sequence, _START, candidate)
                promised[candidate] = min(promised[candidate], slot)
        else:
            ordered = _ordered(queue, queue_length, order, t, submit, estimate, procs)
            if policy == _EASY and ordered.shape[0] > 0:
                if protected_head >= 0 and protected_head != ordered[0] and math.isnan(start_time[protected_head]):
                    promised[protected_head] = np.inf  # overtaken under a priority order
            head_index = ordered.shape[0]
            reservation = np.nan
            free_now = 0
            for i in range(ordered.shape[0]):
                candidate = ordered[i]
                duration, width = estimate[candidate], procs[candidate]
                if i < head_index:
                    # Queue heads start while they fit.
                    if _min_free(times, free, segments, t, t + duration) < width:
                        head_index = i
                        if policy != _EASY:
                            break
                        protected_head = candidate
                        free_now = free[_segment(times, segments, t)]
                        continue
                else:
                    # EASY: a later job backfills if it fits now beside the head's reservation.
                    if width > free_now:
                        continue
                    head = ordered[head_index]
                    if math.isnan(reservation):
                        reservation = _earliest_start(times, free, segments, t, estimate[head], procs[head])
                        promised[head] = min(promised[head], reservation)
                    if not _fits_beside(times, free, segments, t, t + duration, width,
                                        reservation, reservation + estimate[head], procs[head]):
                        continue
                # start(candidate, t)
                if segments + 2 > times.shape[0]:
                    times = np.concatenate((times, np.empty_like(times)))
                    free = np.concatenate((free, np.empty_like(free)))
                segments, status = _add(times, free, segments, t, t + duration, -width, capacity)
                if status != _OK:
                    return OVER_COMMIT, candidate, start_time, promised, series_time, series_queue, series_busy
                queue_length = _dequeue(queue, queue_length, candidate)
                start_time[candidate] = t
                busy += width
                sequence += 1
                heap, heap_size = _push(heap, heap_size, t + actual[candidate], rank_terminate, t, sequence,
                                        _TERMINATE, candidate)
                if i > head_index:
                    free_now = free[_segment(times, segments, t)]
        submitted_count = 0
        ended_count = 0

    if now != -np.inf:
        if recorded == series_time.shape[0]:
            series_time = np.concatenate((series_time, np.empty(1)))
            series_queue = np.concatenate((series_queue, np.empty(1, dtype=np.int64)))
            series_busy = np.concatenate((series_busy, np.empty(1, dtype=np.int64)))
        series_time[recorded], series_queue[recorded], series_busy[recorded] = now, queue_length, busy
        recorded += 1
    return (DONE, -1, start_time, promised, series_time[:recorded], series_queue[:recorded],
            series_busy[:recorded])
