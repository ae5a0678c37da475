"""Invariants of a coscheduled run, checked on every run before anyone sees its result.

- every machine: jobs start after their submission and run their actual time, and the
  processors in use never exceed the machine (``check_batch_schedule``; EASY's head
  promise is not checked: holds and WFP reordering may legitimately delay a head);
- held processors are never used by another job: running and held processors together
  never exceed the machine;
- a job holds only before it starts;
- each pair starts at the same instant (both started), or neither started (deadlock);
- every job starts (and so ends) unless the run reports a deadlock, or the release is off and
  the machine is reported starved (``run.py``).
"""

from __future__ import annotations

import numpy as np

from schedlab.simulators.core.invariants import InvariantError, check_batch_schedule


def check_machine(name: str, capacity: int, batch, start: np.ndarray, holds: np.ndarray, deadlocked: bool) -> None:
    """``holds`` has rows (job index, from, to); ``start`` is NaN for a job that never started."""
    started = ~np.isnan(start)
    if not deadlocked and not started.all():
        raise InvariantError(f"{name}: {int((~started).sum())} job(s) never started and no deadlock was reported")
    check_batch_schedule(
        machine=name,
        capacity=capacity,
        job_id=batch.job_id[started],
        submit=batch.submit[started],
        start=start[started],
        end=start[started] + batch.actual[started],
        actual=batch.actual[started],
        procs=batch.procs[started],
        promised=np.full(int(started.sum()), np.inf),
    )
    if len(holds) == 0:
        return
    jobs = holds[:, 0].astype(np.int64)
    held_from, held_to = holds[:, 1], holds[:, 2]
    late = started[jobs] & (held_to > start[jobs])
    if late.any():
        raise InvariantError(f"{name}: job(s) {batch.job_id[jobs[late]][:10]} held after they started")
    times = np.concatenate([start[started], start[started] + batch.actual[started], held_from, held_to])
    procs = batch.procs[started]
    deltas = np.concatenate([procs, -procs, batch.procs[jobs], -batch.procs[jobs]])
    order = np.lexsort((deltas, times))
    in_use = np.cumsum(deltas[order])
    if in_use.max() > capacity:
        worst = int(np.argmax(in_use))
        raise InvariantError(
            f"{name}: {int(in_use[worst])} processors running or held at t={times[order][worst]} "
            f"on a {capacity}-processor machine: held processors were used by another job"
        )


def check_pairs(start_a: np.ndarray, start_b: np.ndarray, pairs_a: np.ndarray, pairs_b: np.ndarray, job_ids) -> None:
    """Mates (job indices ``pairs_a[i]`` on A, ``pairs_b[i]`` on B) start together or not at all."""
    a, b = start_a[pairs_a], start_b[pairs_b]
    apart = ~((a == b) | (np.isnan(a) & np.isnan(b)))
    if apart.any():
        first = int(np.flatnonzero(apart)[0])
        raise InvariantError(
            f"{int(apart.sum())} pair(s) did not start together, e.g. A job {job_ids[0][pairs_a[first]]} "
            f"at {a[first]} and B job {job_ids[1][pairs_b[first]]} at {b[first]}"
        )
