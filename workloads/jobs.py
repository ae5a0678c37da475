"""What every workload generator shares: request checks, random streams, the job table."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from schedlab.parsers.schema import as_job_table
from schedlab.errors import SchedlabError
from schedlab.workloads.load import check_target_load

COMPLETED = 1  # SWF status of a job that ran to completion


def check_synthesis_request(n_jobs, machine_procs, seed, target_utilization) -> None:
    """Reject requests no generator can honour, before anything is drawn or written."""
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs < 1:
        raise SchedlabError(f"the number of jobs must be a whole number >= 1, got {n_jobs!r}")
    if isinstance(machine_procs, bool) or not isinstance(machine_procs, numbers.Integral) or machine_procs < 2:
        raise SchedlabError(f"the machine must have a whole number >= 2 of processors, got {machine_procs!r}")
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise SchedlabError(f"the seed must be a whole number >= 0, got {seed!r}")
    if target_utilization is not None:
        check_target_load(target_utilization)


def independent_streams(seed: int, count: int) -> list[np.random.Generator]:
    """``count`` statistically independent generators derived from one seed.

    Each model part draws from its own stream, so that the draws of one part never
    depend on how many numbers another part consumed (its redraws, for instance).
    """
    return [np.random.default_rng(child) for child in np.random.SeedSequence(seed).spawn(count)]


def synthetic_job_table(submit_times, run_times, procs, requested_times) -> pd.DataFrame:
    """A canonical job table for generated jobs: numbered from 1, completed, rest unknown."""
    n = len(submit_times)
    return as_job_table(
        {
            "job_id": np.arange(1, n + 1),
            "submit_time": submit_times,
            "run_time": run_times,
            "allocated_procs": procs,
            "requested_procs": procs,
            "requested_time": requested_times,
            "status": np.full(n, COMPLETED),
        }
    )
