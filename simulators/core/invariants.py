"""Checks every simulation runs on its own result before anyone sees it.

A broken invariant is a simulator bug, never a property of the input, so it raises
``InvariantError`` with the first offending jobs named.
"""

from __future__ import annotations

import numpy as np


class InvariantError(AssertionError):
    """The simulator produced an impossible schedule."""


def _fail(what: str, job_ids: np.ndarray, detail: str = "") -> None:
    shown = ", ".join(str(j) for j in job_ids[:10])
    more = f" (and {len(job_ids) - 10} more)" if len(job_ids) > 10 else ""
    raise InvariantError(f"{what}: job(s) {shown}{more}{detail}")


def check_batch_schedule(
    *,
    machine: str,
    capacity: int,
    job_id: np.ndarray,
    submit: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    actual: np.ndarray,
    procs: np.ndarray,
    promised: np.ndarray,
) -> None:
    """Every job ran, after its submission, for its actual time, within its promise,
    and the machine never ran more processors than it has."""
    prefix = f"{machine}: "
    never = np.isnan(start)
    if never.any():
        _fail(prefix + "never started", job_id[never])
    early = start < submit
    if early.any():
        _fail(prefix + "started before submission", job_id[early])
    wrong_end = end != start + actual
    if wrong_end.any():
        _fail(prefix + "end != start + actual run time", job_id[wrong_end])
    late = start > promised
    if late.any():
        _fail(prefix + "started after its reservation", job_id[late])
    # Sweep starts and ends; at equal times ends come first (processors free at t are
    # usable by a job starting at t).
    times = np.concatenate([end, start])
    deltas = np.concatenate([-procs, procs])
    order = np.lexsort((deltas, times))
    in_use = np.cumsum(deltas[order])
    if in_use.size and in_use.max() > capacity:
        worst = int(np.argmax(in_use))
        raise InvariantError(
            f"{prefix}{int(in_use[worst])} processors in use at t={times[order][worst]} "
            f"on a {capacity}-processor machine"
        )
