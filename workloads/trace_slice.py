"""Slices of a real trace: runs of consecutive jobs, fitted to a smaller machine and a target load.

Where an experiment needs many short workloads with real structure (the COSY stage's
100-job weeks, spec 003, whose DEFAULT allows "a scaled slice of a real trace"), the
trace's jobs, in submission order (ties by job id), are cut into consecutive blocks of
``n_jobs`` (a remainder at the end is left out) and slice ``k`` is the ``k``-th block of
a fixed shuffle of the blocks.  Slices therefore never share a job, so statistics over them
are over independent stretches of the log, and the first few are spread over the whole
log rather than taken from its first weeks.  A slice keeps its jobs as they are (sizes,
runtimes, estimates, the pattern of their arrivals); then :mod:`schedlab.workloads.scaling` does
the rest:

* sizes are resized to ``machine_procs`` (``"rescale"`` by default: each job keeps its
  share of the machine, so a 100-node trace's 50-node job takes 16 of 32 nodes);
* every gap is multiplied by one constant so that the slice offers the target load.

Submit times are shifted so that the slice starts at 0; job ids stay the trace's, so a
slice can be traced back to its log.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from schedlab.errors import SchedlabError
from schedlab.workloads.jobs import check_synthesis_request
from schedlab.workloads.scaling import resize_jobs, scale_trace

BLOCK_SHUFFLE_SEED = 0  # one shuffle for every slice: slice numbers name disjoint blocks


def slice_count(jobs: pd.DataFrame, n_jobs: int) -> int:
    """How many disjoint slices of ``n_jobs`` jobs the trace holds."""
    return len(jobs) // n_jobs


def trace_slice(
    jobs: pd.DataFrame,
    trace_procs: int,
    n_jobs: int,
    machine_procs: int,
    index: int,
    target_utilization: float | None = None,
    resize_mode: str = "rescale",
) -> pd.DataFrame:
    """Slice ``index`` (from 0) of ``n_jobs`` consecutive jobs of the clean trace ``jobs``
    (run on ``trace_procs`` processors), sized for ``machine_procs`` and, with a target,
    paced to offer it."""
    check_synthesis_request(n_jobs, machine_procs, index, target_utilization)
    count = slice_count(jobs, n_jobs)
    if index >= count:
        raise SchedlabError(
            f"the trace's {len(jobs)} jobs hold {count} disjoint slices of {n_jobs} jobs; slice {index} was asked for"
        )
    block = int(np.random.default_rng(BLOCK_SHUFFLE_SEED).permutation(count)[index])
    ordered = jobs.sort_values(["submit_time", "job_id"], kind="stable").reset_index(drop=True)
    window = ordered.iloc[block * n_jobs : (block + 1) * n_jobs].reset_index(drop=True)
    if target_utilization is None:
        window = resize_jobs(window, trace_procs, machine_procs, resize_mode)
    else:
        window = scale_trace(
            window, trace_procs, target_utilization, resize_procs=machine_procs, resize_mode=resize_mode
        ).jobs
    return window.assign(submit_time=window["submit_time"] - window["submit_time"].iloc[0])
