"""The cosched stage's event loop compiled: both machines under WFP + EASY with RunJob, hold and yield.

It runs the interpreted reference (``Engine`` with the default conventions, ``EasyBackfilling(wfp)`` per
machine and, with settings, the ``Coscheduler`` around both) job for job: the same event order
``(time, rank, tie, sequence)`` with one global sequence, the same passes per timestamp in machine order,
the same WFP keys computed in the same order and sorted stably, the same EASY head, reservation and
promise, the same gate (``run_job``), holds, extensions, periodic releases, deferred passes and deadlock
checks.  Where the reference nests ``try_start_mate`` a pass inside a pass, the loop has an outer pass
and an inner one: inside the inner pass the asking machine is mid-pass, so its gate never asks again
(``Coscheduler.run_job``), and no recursion is needed.  ``tests/test_cosched_compiled.py`` compares the
two start for start, hold for hold.  ``simulators/cosched/run.py`` builds its result from what
:func:`run_compiled` returns and checks it as it checks the reference's.
"""

from __future__ import annotations

import math
from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from schedlab.simulators.core.event_heap import helper  # the loop allocates nothing: its buffers come from run_compiled
from schedlab.simulators.core.profile import (
    OverCommitError,
    _add,
    _earliest_start,
    _fits_beside,
    _forget_before,
    _min_free,
    _segment,
)
from schedlab.simulators.cosched.coscheduler import YIELD

_TERMINATE, _SUBMIT, _PASS = 0, 1, 2  # event ranks: the engine's 0, 1 and 1.5 under the default conventions
_START, _DENY, _ASK = 0, 1, 2  # the gate's answers; _ASK: the mate is queuing on a machine free to pass now
_STARTED, _HOLDING, _QUEUING, _UNSUBMITTED = 0, 1, 2, 3
_HEADS, _BACKFILL, _BACKFILLED, _DONE = 0, 1, 2, 3  # where an EASY pass is; _BACKFILLED: it just offered a job
_COUNT, _POS, _PHASE, _HEAD, _RESERVED = 0, 1, 2, 3, 4  # fields of an EASY pass's frame
NO_DEADLOCK, CIRCULAR_WAIT, LIVELOCK = 0, 1, 2
_MIN_COMPACT = 64  # AvailabilityProfile's first compaction threshold


State = namedtuple("State", [
    # per machine and job (rows: machines); ``arrival``: position in the machine's submission order
    "submit", "estimate", "actual", "procs", "mates", "start", "promised", "first_ready", "yields",
    "held", "since", "booked", "released", "stuck", "arrival", "key",
    # per machine: its queue (submission order), its holds in insertion order, its jobs released this pass,
    # its queue in the WFP order of its last pass (held jobs too; ``seen``: arrivals it includes)
    "queue", "qlen", "hold_list", "nheld", "release_list", "nreleased", "ranked", "nranked", "arrivals", "seen",
    "held_procs", "busy", "capacity", "in_pass", "needs_pass", "next_release", "releases", "protected_head",
    # per machine: the availability profile
    "times", "free", "segments", "compact_at",
    # the event heap, and the machines with an event at the present instant
    "heap_time", "heap_rank", "heap_tie", "heap_seq", "heap_machine", "heap_job", "heap_size", "pending",
    # the two EASY passes that may be open at once (outer, inner)
    "order", "frame", "free_now", "reservation",
    # settings: cosched (False for the baseline), release_period (NaN: off), release_after, max_held_share,
    # max_yields (-1: none), yield_when_remote_busy, whether each machine yields
    "cosched", "period", "release_after", "max_held_share", "max_yields", "yield_when_busy", "yielding",
    # run-wide: counters (below), the caller of a try_start_mate (machine, job), clocks (below), the
    # verdict's time, the closed hold episodes (machine, job, from, to), scratch for the deadlock check
    "counters", "caller", "clock", "verdict_time", "episodes", "locked", "scratch",
])
_SEQUENCE, _PROGRESS, _ENDED, _KIND, _EPISODES = 0, 1, 2, 3, 4  # ``_PROGRESS``: starts and holds so far
_NOW, _LAST_START, _LAST_BUSY, _LAST_SUBMIT = 0, 1, 2, 3


# --- event heap ------------------------------------------------------------------------------------

@helper
def _before(S, a, b):
    if S.heap_time[a] != S.heap_time[b]:
        return S.heap_time[a] < S.heap_time[b]
    if S.heap_rank[a] != S.heap_rank[b]:
        return S.heap_rank[a] < S.heap_rank[b]
    if S.heap_tie[a] != S.heap_tie[b]:
        return S.heap_tie[a] < S.heap_tie[b]
    return S.heap_seq[a] < S.heap_seq[b]


@helper
def _swap(S, a, b):
    S.heap_time[a], S.heap_time[b] = S.heap_time[b], S.heap_time[a]
    S.heap_rank[a], S.heap_rank[b] = S.heap_rank[b], S.heap_rank[a]
    S.heap_tie[a], S.heap_tie[b] = S.heap_tie[b], S.heap_tie[a]
    S.heap_seq[a], S.heap_seq[b] = S.heap_seq[b], S.heap_seq[a]
    S.heap_machine[a], S.heap_machine[b] = S.heap_machine[b], S.heap_machine[a]
    S.heap_job[a], S.heap_job[b] = S.heap_job[b], S.heap_job[a]


@helper
def _push(S, t, rank, tie, side, job):
    """Push an event under the next sequence number, as ``Engine.next_sequence`` draws it."""
    S.counters[_SEQUENCE] += 1
    i = S.heap_size[0]
    S.heap_size[0] = i + 1
    S.heap_time[i], S.heap_rank[i], S.heap_tie[i] = t, rank, tie
    S.heap_seq[i], S.heap_machine[i], S.heap_job[i] = S.counters[_SEQUENCE], side, job
    while i > 0:
        parent = (i - 1) // 2
        if not _before(S, i, parent):
            break
        _swap(S, i, parent)
        i = parent


@helper
def _pop(S):
    """Take the first event off the heap into its last slot; return that slot."""
    size = S.heap_size[0] - 1
    S.heap_size[0] = size
    _swap(S, 0, size)
    i = 0
    while True:
        left, right, smallest = 2 * i + 1, 2 * i + 2, i
        if left < size and _before(S, left, smallest):
            smallest = left
        if right < size and _before(S, right, smallest):
            smallest = right
        if smallest == i:
            return size
        _swap(S, i, smallest)
        i = smallest


# --- profile ----------------------------------------------------------------------------------------

@helper
def _forget(S, side, t):
    S.segments[side] = _forget_before(S.times[side], S.free[side], S.segments[side], t)
    S.compact_at[side] = max(_MIN_COMPACT, 2 * S.segments[side])


@helper
def _add_free(S, side, start, end, delta):
    """``AvailabilityProfile.book`` (``delta`` < 0) or ``release``: fails loudly on over-commit."""
    if end <= start:
        return
    if S.segments[side] + 2 > S.times.shape[1]:
        # Every question from now on is about the present or later, so forgetting the past changes no
        # answer.  What is left is about one breakpoint per job running or holding (where its booking
        # ends), and the buffers hold four per job.
        _forget(S, side, S.clock[_NOW])
        if S.segments[side] + 2 > S.times.shape[1]:
            raise OverCommitError("availability profile buffer full")
    n, status = _add(S.times[side], S.free[side], S.segments[side], start, end, delta, S.capacity[side])
    S.segments[side] = n
    if status != 0:
        raise OverCommitError("a booking exceeds the machine, or a release was never booked")


@helper
def _free_at(S, side, t):
    return S.free[side, _segment(S.times[side], S.segments[side], t)]


# --- starts and holds -------------------------------------------------------------------------------

@helper
def _start(S, side, job, t, booked):
    """``Machine.start`` past its gate."""
    if not booked:
        _add_free(S, side, t, t + S.estimate[side, job], -S.procs[side, job])
    queue, n = S.queue[side], S.qlen[side]
    k = 0
    while queue[k] != job:
        k += 1
    for m in range(k, n - 1):
        queue[m] = queue[m + 1]
    S.qlen[side] = n - 1
    S.start[side, job] = t
    S.busy[side] += S.procs[side, job]
    _push(S, t + S.actual[side, job], _TERMINATE, t, side, job)


@helper
def _arm_release(S, side, t):
    period = S.period[0]
    if math.isnan(period) or S.nheld[side] == 0:
        return
    if not math.isnan(S.next_release[side]) and S.next_release[side] > t:
        return
    S.next_release[side] = (math.floor(t / period) + 1.0) * period
    _push(S, S.next_release[side], _PASS, 0.0, side, -1)


@helper
def _hold(S, side, job, t):
    until = t + S.estimate[side, job]
    _add_free(S, side, t, until, -S.procs[side, job])
    S.held[side, job] = True
    S.since[side, job], S.booked[side, job] = t, until
    S.hold_list[side, S.nheld[side]] = job
    S.nheld[side] += 1
    S.held_procs[side] += S.procs[side, job]
    S.counters[_PROGRESS] += 1
    _arm_release(S, side, t)


@helper
def _extend_hold(S, side, job, t):
    until = t + S.estimate[side, job]
    if until > S.booked[side, job]:
        _add_free(S, side, max(S.booked[side, job], t), until, -S.procs[side, job])
        S.booked[side, job] = until


@helper
def _end_hold(S, side, job, t):
    holds, n = S.hold_list[side], S.nheld[side]
    k = 0
    while holds[k] != job:
        k += 1
    for m in range(k, n - 1):  # kept in insertion order, as the reference's dict
        holds[m] = holds[m + 1]
    S.nheld[side] = n - 1
    S.held[side, job] = False
    S.held_procs[side] -= S.procs[side, job]
    k = S.counters[_EPISODES]
    S.counters[_EPISODES] = k + 1
    if k < S.episodes.shape[0]:  # else the run stops at the end of this pass, to run again with more room
        S.episodes[k, 0], S.episodes[k, 1], S.episodes[k, 2], S.episodes[k, 3] = side, job, S.since[side, job], t


@helper
def _start_held(S, side, job, t):
    _extend_hold(S, side, job, t)
    _end_hold(S, side, job, t)
    _start(S, side, job, t, True)


@helper
def _release_due_holds(S, side, t):
    k = 0
    while k < S.nheld[side]:  # in insertion order; a job released leaves the list, the next takes its place
        job = S.hold_list[side, k]
        if t - S.since[side, job] < S.release_after[0]:
            k += 1
        else:
            _end_hold(S, side, job, t)
            _add_free(S, side, t, S.booked[side, job], S.procs[side, job])
            S.released[side, job] = True
            S.release_list[side, S.nreleased[side]] = job
            S.nreleased[side] += 1
            S.releases[side] += 1


# --- the gate (Coscheduler.run_job) -----------------------------------------------------------------

@helper
def _status(S, side, job, t):
    if not math.isnan(S.start[side, job]):
        return _STARTED
    if S.held[side, job]:
        return _HOLDING
    return _UNSUBMITTED if S.submit[side, job] > t else _QUEUING


@helper
def _started(S, t):
    S.counters[_PROGRESS] += 1
    S.clock[_LAST_START] = t
    return _START


@helper
def _hold_or_yield(S, side, job, t):
    may_hold = not (S.yielding[side] and (S.max_yields[0] < 0 or S.yields[side, job] < S.max_yields[0]))
    if may_hold and S.held_procs[side] + S.procs[side, job] <= S.max_held_share[0] * S.capacity[side]:
        _hold(S, side, job, t)
    else:
        S.yields[side, job] += 1
    return _DENY


@helper
def _gate(S, side, job, t):
    """``run_job`` up to ``try_start_mate``: _ASK when the reference would run the remote pass now."""
    if not S.cosched[0]:
        return _START
    if math.isnan(S.first_ready[side, job]):
        S.first_ready[side, job] = t
    mate = S.mates[side, job]
    if mate < 0:
        return _started(S, t)
    remote = 1 - side
    if S.caller[0] == remote and S.caller[1] == mate:
        return _started(S, t)
    status = _status(S, remote, mate, t)
    if status == _HOLDING:
        _start_held(S, remote, mate, t)
        return _started(S, t)
    if status == _STARTED:
        return _started(S, t)
    if status == _QUEUING:
        if not S.in_pass[remote]:
            return _ASK
        S.needs_pass[remote] = True
        if S.yield_when_busy[0]:
            S.yields[side, job] += 1
            return _DENY
    return _hold_or_yield(S, side, job, t)


# --- EASY over the coscheduler's queue order --------------------------------------------------------

@helper
def _wfp(S, side, t):
    """``wfp``: the queue sorted by its key, ties in queue order, into ``S.ranked[side]``.  The sort starts
    from the last pass's order (the jobs started since taken out, those submitted since added last), which
    the keys' slow growth leaves nearly sorted: insertion sort then costs little more than a look at each
    job.  Keys and queue positions (arrivals) together order the jobs totally, so any correct sort finds
    what the stable ``sorted`` finds."""
    ranked, count = S.ranked[side], 0
    for k in range(S.nranked[side]):
        if math.isnan(S.start[side, ranked[k]]):
            ranked[count] = ranked[k]
            count += 1
    queue, n = S.queue[side], S.qlen[side]
    for k in range(n - (S.arrivals[side] - S.seen[side]), n):
        ranked[count] = queue[k]
        count += 1
    S.nranked[side], S.seen[side] = count, S.arrivals[side]
    key, arrival = S.key[side], S.arrival[side]
    for k in range(count):
        job = ranked[k]
        key[job] = -(((t - S.submit[side, job]) / S.estimate[side, job]) ** 3.0) * S.procs[side, job]
    for k in range(1, count):
        job = ranked[k]
        m = k
        while m > 0 and (key[job] < key[ranked[m - 1]]
                         or (key[job] == key[ranked[m - 1]] and arrival[job] < arrival[ranked[m - 1]])):
            ranked[m] = ranked[m - 1]
            m -= 1
        ranked[m] = job
    return count


@helper
def _queue_order(S, side, depth, t):
    """WFP without held jobs, the jobs released in this pass last, into ``S.order[depth]``; its length."""
    n = _wfp(S, side, t)
    ranked, order, count = S.ranked[side], S.order[depth], 0
    for last in (False, True):
        if last and S.nreleased[side] == 0:
            break
        for k in range(n):
            job = ranked[k]
            if not S.held[side, job] and S.released[side, job] == last:
                order[count] = job
                count += 1
    return count


@helper
def _easy_first(S, side, depth, t):
    """Open an EASY pass on ``side``; the first job it would start, or -1."""
    count = _queue_order(S, side, depth, t)
    frame = S.frame[depth]
    frame[_COUNT], frame[_POS], frame[_PHASE] = count, 0, _HEADS
    previous = S.protected_head[side]
    if count and previous >= 0 and previous != S.order[depth, 0] and math.isnan(S.start[side, previous]):
        S.promised[side, previous] = np.inf  # overtaken: ``EasyBackfilling._overtaken_by``
    return _easy_next(S, side, depth, t)


@helper
def _easy_next(S, side, depth, t):
    """The next job the EASY pass would start (its gate still to ask), or -1 once the pass is over."""
    frame, order = S.frame[depth], S.order[depth]
    times, free, n = S.times[side], S.free[side], S.segments[side]
    estimate, procs = S.estimate[side], S.procs[side]
    if frame[_PHASE] == _HEADS:
        k = frame[_POS]
        if k < frame[_COUNT]:
            job = order[k]
            if _min_free(times, free, n, t, t + estimate[job]) >= procs[job]:
                frame[_POS] = k + 1
                return job
        if k == frame[_COUNT]:
            frame[_PHASE] = _DONE
            return -1
        frame[_HEAD], frame[_POS], frame[_PHASE], frame[_RESERVED] = order[k], k + 1, _BACKFILL, 0
        S.protected_head[side] = order[k]
        S.free_now[depth] = _free_at(S, side, t)
    elif frame[_PHASE] == _BACKFILLED:
        frame[_PHASE] = _BACKFILL
        S.free_now[depth] = _free_at(S, side, t)  # the gate may have kept the job back
    elif frame[_PHASE] == _DONE:
        return -1
    head = frame[_HEAD]
    while frame[_POS] < frame[_COUNT]:
        job = order[frame[_POS]]
        frame[_POS] += 1
        if procs[job] > S.free_now[depth]:
            continue
        if not frame[_RESERVED]:
            S.reservation[depth] = _earliest_start(times, free, n, t, estimate[head], procs[head])
            S.promised[side, head] = min(S.promised[side, head], S.reservation[depth])
            frame[_RESERVED] = 1
        reservation = S.reservation[depth]
        if _fits_beside(times, free, n, t, t + estimate[job], procs[job],
                        reservation, reservation + estimate[head], procs[head]):
            frame[_PHASE] = _BACKFILLED
            return job
    frame[_PHASE] = _DONE
    return -1


# --- passes -----------------------------------------------------------------------------------------

@helper
def _open_pass(S, side, t):
    S.in_pass[side] = True
    for job in S.hold_list[side, :S.nheld[side]]:
        _extend_hold(S, side, job, t)
    for other in range(S.start.shape[0]):
        if not math.isnan(S.next_release[other]) and t >= S.next_release[other]:
            S.next_release[other] = np.nan
            _release_due_holds(S, other, t)


@helper
def _close_pass(S, side, t):
    for job in S.release_list[side, :S.nreleased[side]]:
        S.released[side, job] = False
    S.nreleased[side] = 0
    S.in_pass[side] = False
    _arm_release(S, side, t)


@helper
def _inner_pass(S, side, t):
    """The pass ``try_start_mate`` asks for: the asking machine is mid-pass, so no gate here answers _ASK."""
    _open_pass(S, side, t)
    job = _easy_first(S, side, 1, t)
    while job >= 0:
        if _gate(S, side, job, t) == _START:
            _start(S, side, job, t, False)
        job = _easy_next(S, side, 1, t)
    _close_pass(S, side, t)


@helper
def _outer_pass(S, side, t):
    _open_pass(S, side, t)
    job = _easy_first(S, side, 0, t)
    while job >= 0:
        answer = _gate(S, side, job, t)
        if answer == _ASK:
            remote, mate = 1 - side, S.mates[side, job]
            S.caller[0], S.caller[1] = side, job
            _inner_pass(S, remote, t)
            S.caller[0], S.caller[1] = -1, -1
            if not math.isnan(S.start[remote, mate]):
                answer = _started(S, t)
            else:
                answer = _hold_or_yield(S, side, job, t)
        if answer == _START:
            _start(S, side, job, t, False)
        job = _easy_next(S, side, 0, t)
    _close_pass(S, side, t)


@helper
def _check_livelock(S, t):
    if S.busy.any():
        S.clock[_LAST_BUSY] = t
        return NO_DEADLOCK
    quiet_since = max(S.clock[_LAST_START], S.clock[_LAST_SUBMIT], S.clock[_LAST_BUSY])
    if t - quiet_since > 2 * S.period[0] + S.release_after[0]:
        for side in range(S.start.shape[0]):
            for job in S.hold_list[side, :S.nheld[side]]:
                S.stuck[side, job] = True
        return LIVELOCK
    return NO_DEADLOCK


@helper
def _check_deadlock(S, t):
    """``Coscheduler._check_deadlock``: drop, one at a time in (machine, job) order, each held job whose
    mate could still start; what is left waits in a circle."""
    machines = S.start.shape[0]
    left = 0
    for side in range(machines):
        for job in S.hold_list[side, :S.nheld[side]]:
            S.stuck[side, job] = True
            left += 1
    changed = True
    while changed and left:
        changed = False
        locked = S.locked
        for side in range(machines):
            locked[side] = 0
        for side in range(machines):
            for job in S.hold_list[side, :S.nheld[side]]:
                if S.stuck[side, job]:
                    locked[side] += S.procs[side, job]
        for side in range(machines):
            held = S.scratch[:S.nheld[side]]
            for k in range(held.size):  # the held jobs by index, as ``sorted(stuck)``
                job, m = S.hold_list[side, k], k
                while m > 0 and held[m - 1] > job:
                    held[m] = held[m - 1]
                    m -= 1
                held[m] = job
            for job in held:
                if not S.stuck[side, job]:
                    continue
                remote, mate = 1 - side, S.mates[side, job]
                if S.submit[remote, mate] > t or S.procs[remote, mate] <= S.capacity[remote] - locked[remote]:
                    S.stuck[side, job] = False
                    left -= 1
                    changed = True
                    break
            if changed:
                break
    return CIRCULAR_WAIT if left else NO_DEADLOCK


@helper
def _scheduling_pass(S, side, t):
    """``Coscheduler.scheduling_pass`` (or EASY's alone for the baseline); the deadlock found, if any."""
    _outer_pass(S, side, t)
    while S.needs_pass.any():
        before = S.counters[_PROGRESS]
        for other in range(S.start.shape[0]):
            if S.needs_pass[other]:
                S.needs_pass[other] = False
                _outer_pass(S, other, t)
        if S.counters[_PROGRESS] == before:
            for other in range(S.start.shape[0]):
                S.needs_pass[other] = False
    if S.nheld.any():
        return _check_deadlock(S, t) if math.isnan(S.period[0]) else _check_livelock(S, t)
    return NO_DEADLOCK


@helper
def _run(S, jobs):
    """``Engine.run``: every event in order, then each machine that had one gets its pass."""
    machines = S.start.shape[0]
    for side in range(machines):
        for job in range(jobs[side]):
            _push(S, S.submit[side, job], _SUBMIT, 0.0, side, job)
    pending = S.pending
    while S.heap_size[0]:
        slot = _pop(S)
        t, rank, side, job = S.heap_time[slot], S.heap_rank[slot], S.heap_machine[slot], S.heap_job[slot]
        if t != S.clock[_NOW]:
            if S.clock[_NOW] != -np.inf:  # ``Engine._record``: the profiles tidied at every new instant
                for other in range(machines):
                    if S.segments[other] >= S.compact_at[other]:
                        _forget(S, other, S.clock[_NOW])
            S.clock[_NOW] = t
        if rank == _SUBMIT:
            S.queue[side, S.qlen[side]] = job
            S.qlen[side] += 1
            S.arrival[side, job] = S.arrivals[side]
            S.arrivals[side] += 1
        elif rank == _TERMINATE:
            _add_free(S, side, t, S.start[side, job] + S.estimate[side, job], S.procs[side, job])
            S.busy[side] -= S.procs[side, job]
            S.counters[_ENDED] += 1
        pending[side] = True
        if S.heap_size[0] and S.heap_time[0] == t:
            continue
        for other in range(machines):
            if pending[other]:
                pending[other] = False
                deadlock = _scheduling_pass(S, other, t)
                if deadlock != NO_DEADLOCK:
                    S.counters[_KIND] = deadlock
                    S.verdict_time[0] = t
                    return
                if S.counters[_EPISODES] > S.episodes.shape[0]:
                    return


@dataclass
class RunOutcome:
    """What ``cosimulate`` needs of a run (either engine's), per machine: starts (NaN: never), promises,
    ``holds`` rows (job, from, to) in the reference's order (closed episodes, then the holds still on, to
    the deadlock or the end), first ready time and yields per job, releases; then the deadlock raised
    (``kind`` None if none), ``stuck`` (machine, job) sorted, the clock at the end and the jobs ended."""

    start: list[np.ndarray]
    promised: list[np.ndarray]
    holds: list[np.ndarray]
    first_ready: list[np.ndarray]
    yields: list[np.ndarray]
    releases: list[int]
    kind: str | None
    time: float | None
    stuck: list[tuple[int, int]]
    now: float
    ended: int


KINDS = {NO_DEADLOCK: None, CIRCULAR_WAIT: "circular wait", LIVELOCK: "livelock"}


def run_compiled(batches, capacities, mates, settings, room: int | None = None) -> RunOutcome:
    """Run one machine per batch (``BatchJobs`` as ``CONVENTIONS["default"].prepare`` makes them) on
    ``capacities``; ``mates`` and ``settings`` as ``Coscheduler`` takes them, ``settings=None`` for none.
    ``room``: the hold episodes to keep room for (by default one per job and as many again for
    releases); a run that needs more runs again with twice what it needed."""
    jobs = np.array([len(batch) for batch in batches], dtype=np.int64)
    room = 2 * int(jobs.sum()) + 64 if room is None else room
    while True:
        S = _state(batches, capacities, mates, settings, jobs, room)
        _run(S, jobs)
        if S.counters[_EPISODES] <= room:
            return _outcome(S, jobs)
        room = 2 * int(S.counters[_EPISODES])


def _state(batches, capacities, mates, settings, jobs, room) -> State:
    machines = len(batches)
    width = max(int(jobs.max(initial=0)), 1)
    segments = 4 * width + 2 * _MIN_COMPACT

    def per_job(columns, dtype, fill):
        table = np.full((machines, width), fill, dtype=dtype)
        for side, column in enumerate(columns):
            table[side, :len(column)] = column
        return table

    def per_machine(fill, dtype=np.int64):
        return np.full(machines, fill, dtype=dtype)

    cosched = settings is not None
    times = np.empty((machines, segments))
    times[:, 0] = -np.inf
    free = np.zeros((machines, segments), dtype=np.int64)
    free[:, 0] = capacities
    heap = int(jobs.sum()) + 2 * machines  # every job's submission or end, and a release pass per machine
    last_submit = max((float(batch.submit.max()) for batch in batches if len(batch)), default=-np.inf)
    return State(
        submit=per_job([b.submit for b in batches], np.float64, 1.0),
        estimate=per_job([b.estimate for b in batches], np.float64, 1.0),
        actual=per_job([b.actual for b in batches], np.float64, 1.0),
        procs=per_job([b.procs for b in batches], np.int64, 0), mates=per_job(mates, np.int64, -1),
        start=np.full((machines, width), np.nan), promised=np.full((machines, width), np.inf),
        first_ready=np.full((machines, width), np.nan), yields=np.zeros((machines, width), dtype=np.int64),
        held=np.zeros((machines, width), dtype=np.bool_), since=np.zeros((machines, width)),
        booked=np.zeros((machines, width)), released=np.zeros((machines, width), dtype=np.bool_),
        stuck=np.zeros((machines, width), dtype=np.bool_), arrival=np.zeros((machines, width), dtype=np.int64),
        key=np.zeros((machines, width)),
        queue=np.zeros((machines, width), dtype=np.int64), qlen=per_machine(0),
        hold_list=np.zeros((machines, width), dtype=np.int64), nheld=per_machine(0),
        release_list=np.zeros((machines, width), dtype=np.int64), nreleased=per_machine(0),
        held_procs=per_machine(0), busy=per_machine(0), capacity=np.asarray(capacities, dtype=np.int64),
        ranked=np.zeros((machines, width), dtype=np.int64), nranked=per_machine(0), arrivals=per_machine(0),
        seen=per_machine(0),
        in_pass=per_machine(False, np.bool_), needs_pass=per_machine(False, np.bool_),
        next_release=per_machine(np.nan, np.float64), releases=per_machine(0), protected_head=per_machine(-1),
        times=times, free=free, segments=per_machine(1), compact_at=per_machine(_MIN_COMPACT),
        heap_time=np.empty(heap), heap_rank=np.empty(heap, dtype=np.int64), heap_tie=np.empty(heap),
        heap_seq=np.empty(heap, dtype=np.int64), heap_machine=np.empty(heap, dtype=np.int64),
        heap_job=np.empty(heap, dtype=np.int64), heap_size=np.zeros(1, dtype=np.int64),
        pending=per_machine(False, np.bool_),
        order=np.zeros((2, width), dtype=np.int64), frame=np.zeros((2, 5), dtype=np.int64),
        free_now=np.zeros(2, dtype=np.int64), reservation=np.zeros(2),
        cosched=np.array([cosched]),
        period=np.array([np.nan if not cosched or settings.release_period is None else settings.release_period]),
        release_after=np.array([settings.release_after if cosched else 0.0]),
        max_held_share=np.array([settings.max_held_share if cosched else 1.0]),
        max_yields=np.array([-1 if not cosched or settings.max_yields is None else settings.max_yields]),
        yield_when_busy=np.array([cosched and settings.yield_when_remote_busy]),
        yielding=np.array([cosched and settings.schemes[side] == YIELD for side in range(machines)]),
        counters=np.zeros(5, dtype=np.int64), caller=np.array([-1, -1], dtype=np.int64),
        clock=np.array([-np.inf, -np.inf, -np.inf, last_submit]), verdict_time=np.zeros(1),
        episodes=np.zeros((room, 4)), locked=per_machine(0), scratch=np.zeros(width, dtype=np.int64),
    )


def _outcome(S: State, jobs) -> RunOutcome:
    machines = len(jobs)
    kind = KINDS[int(S.counters[_KIND])]
    now = float(S.clock[_NOW])
    stop = float(S.verdict_time[0]) if kind else now
    episodes = S.episodes[:S.counters[_EPISODES]]
    holds = []
    for side in range(machines):
        closed = episodes[episodes[:, 0] == side, 1:]
        still = S.hold_list[side, :S.nheld[side]]
        on = np.column_stack([still, S.since[side, still], np.full(len(still), stop)])
        holds.append(np.concatenate([closed, on]).reshape(-1, 3))
    stuck = [(int(side), int(job)) for side, job in zip(*np.nonzero(S.stuck))] if kind else []
    return RunOutcome(
        start=[S.start[side, :jobs[side]].copy() for side in range(machines)],
        promised=[S.promised[side, :jobs[side]].copy() for side in range(machines)],
        holds=holds,
        first_ready=[S.first_ready[side, :jobs[side]].copy() for side in range(machines)],
        yields=[S.yields[side, :jobs[side]].copy() for side in range(machines)],
        releases=[int(r) for r in S.releases],
        kind=kind,
        time=float(S.verdict_time[0]) if kind else None,
        stuck=stuck,
        now=now,
        ended=int(S.counters[_ENDED]),
    )
