"""Offered load, and placing arrivals so that a workload offers a chosen load.

The offered load of a workload on a machine of ``P`` processors is

    load = sum(size_j * runtime_j) / (P * span)

where ``span`` is the time from the first to the last submission.  It is what the
machine would be busy on average if every job started on arrival; it does not depend on
any scheduler, which is why the generators target it.  A job's size is its allocated
processor count, or its requested count where the trace does not record the former;
jobs with an unknown runtime contribute no work.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from schedlab.parsers.cleaning import effective_procs
from schedlab.errors import SchedlabError
from schedlab.workloads.cycle import ArrivalCycle


def job_work(jobs: pd.DataFrame) -> np.ndarray:
    """Processor-seconds of each job; 0 where its size or runtime is unknown."""
    sizes = effective_procs(jobs)
    runtimes = jobs["run_time"].to_numpy(dtype=float)
    return np.where((sizes > 0) & (runtimes > 0), sizes * runtimes, 0.0)


def total_work(jobs: pd.DataFrame) -> float:
    """Processor-seconds of all jobs whose size and runtime are known."""
    return float(job_work(jobs).sum())


def offered_load(jobs: pd.DataFrame, machine_procs: int) -> float:
    """Offered load of ``jobs`` on ``machine_procs`` processors (see the module docstring)."""
    if machine_procs <= 0:
        raise SchedlabError(f"machine size must be > 0 processors, got {machine_procs}")
    submits = jobs["submit_time"].to_numpy()
    span = float(submits.max() - submits.min()) if submits.size else 0.0
    if span <= 0:
        raise SchedlabError("offered load is undefined: all jobs are submitted at the same instant")
    return total_work(jobs) / (machine_procs * span)


def check_target_load(target_utilization: float) -> None:
    """Reject a target that is not a positive number (above 1 is allowed: an overloaded machine)."""
    if not (np.isfinite(target_utilization) and 0 < target_utilization):
        raise SchedlabError(f"target load must be a number > 0, got {target_utilization}")


def place_arrivals(
    warped_gaps: np.ndarray,
    cycle: ArrivalCycle,
    work: float,
    machine_procs: int,
    target_utilization: float | None,
) -> tuple[np.ndarray, float]:
    """Submit times (whole seconds) from gaps on the cycle's warped clock.

    The first job arrives at time 0 (the start of the cycle's slot 0); each later one a
    gap after the previous one on the warped clock.  With a target load, every gap is
    multiplied by the one constant that makes ``work / (machine_procs * span)`` equal to
    the target: the wall-clock span must be ``work / (machine_procs * target)``, whose
    warped length divided by the sum of the gaps is that constant.  Job shapes (sizes,
    runtimes) are never touched.  Returns the submit times and the constant (1 without
    a target).
    """
    warped_arrivals = np.concatenate(([0.0], np.cumsum(warped_gaps, dtype=float)))
    scale = 1.0
    if target_utilization is not None:
        check_target_load(target_utilization)
        if warped_arrivals[-1] <= 0:
            raise SchedlabError("a target load needs at least two jobs submitted at different times")
        wanted_span = work / (machine_procs * target_utilization)
        scale = float(cycle.warp(wanted_span)) / warped_arrivals[-1]
    return np.round(cycle.unwarp(warped_arrivals * scale)), scale
