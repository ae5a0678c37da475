"""A light-tailed workload: log-uniform sizes and runtimes, Poisson arrivals.

Downey ("A parallel workload model and its implications for processor allocation",
HPDC 1997) found job lifetimes close to uniform in their logarithm between a shortest and
a longest value.  This generator draws

* runtimes log-uniformly in ``runtime_range`` (seconds, rounded to whole seconds);
* sizes log-uniformly in ``size_range`` (default ``[1, machine_procs]``): ``x = log2(size)`` uniform, then a
  ``power_of_two_share`` of the jobs round ``x`` to the nearest integer and take ``2**x``,
  the others take ``2**x`` rounded up (parallel machines see many power-of-two jobs);
* arrivals as a Poisson process (exponential gaps) on an arrival ``cycle``'s warped clock
  (``schedlab.workloads.cycle``); by default no cycle, the same rate all day;
* requested times equal to runtimes (exact estimates).

Against the Lublin-Feitelson model (median runtime of minutes, a few jobs carrying most
of the work), its work is spread over many jobs, so a few dozen jobs can keep a small
machine steadily busy: with the default 20 minutes to 20 hours, 100 jobs on 32 nodes at a
load of 0.8 arrive over about a week.  The COSY stage uses it to test whether its result depends on the
workload (``schedlab.simulators.cosy.experiments``).  With ``target_utilization`` every gap is
scaled so that the offered load is that value (``schedlab.workloads.load.place_arrivals``).  Each part (sizes,
runtimes, gaps) draws from its own stream of the one seed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from schedlab.errors import SchedlabError
from schedlab.workloads.cycle import SECONDS_PER_DAY, ArrivalCycle
from schedlab.workloads.jobs import check_synthesis_request, independent_streams, synthetic_job_table
from schedlab.workloads.load import place_arrivals

DEFAULT_RUNTIME_RANGE = (1_200.0, 72_000.0)  # 20 minutes to 20 hours
DEFAULT_POWER_OF_TWO_SHARE = 0.75
NO_CYCLE = ArrivalCycle(SECONDS_PER_DAY, np.ones(1))  # the same rate all day: warped time is wall time


def log_uniform_sizes(stream: np.random.Generator, n_jobs: int, smallest: int, largest: int,
                      power_of_two_share: float) -> np.ndarray:
    """Sizes log-uniform in ``[smallest, largest]``, a ``power_of_two_share`` of them rounded to a power of two."""
    exponent = stream.uniform(np.log2(smallest), np.log2(largest), n_jobs)
    power_of_two = stream.random(n_jobs) < power_of_two_share
    sizes = np.where(power_of_two, 2.0 ** np.round(exponent), np.ceil(2.0**exponent))
    return np.clip(sizes, smallest, largest).astype(np.int64)


def log_uniform_times(stream: np.random.Generator, n_jobs: int, time_range: tuple[float, float]) -> np.ndarray:
    """Whole seconds, log-uniform in ``time_range``."""
    shortest, longest = time_range
    return np.maximum(1.0, np.round(np.exp(stream.uniform(np.log(shortest), np.log(longest), n_jobs))))


def check_ranges(machine_procs: int, runtime_range, size_range, power_of_two_share: float) -> tuple[int, int]:
    """The size range (``[1, machine_procs]`` when None) once every argument is checked."""
    shortest, longest = runtime_range
    if not 1 <= shortest <= longest:
        raise SchedlabError(f"the runtime range must satisfy 1 <= shortest <= longest, got {runtime_range}")
    smallest, largest = size_range or (1, machine_procs)
    if not 1 <= smallest <= largest <= machine_procs:
        raise SchedlabError(f"the size range must satisfy 1 <= smallest <= largest <= {machine_procs}, got {size_range}")
    if not 0 <= power_of_two_share <= 1:
        raise SchedlabError(f"the power-of-two share must lie in [0, 1], got {power_of_two_share}")
    return smallest, largest


def log_uniform_jobs(
    n_jobs: int,
    machine_procs: int,
    seed: int,
    target_utilization: float | None = None,
    runtime_range: tuple[float, float] = DEFAULT_RUNTIME_RANGE,
    power_of_two_share: float = DEFAULT_POWER_OF_TWO_SHARE,
    size_range: tuple[int, int] | None = None,
    cycle: ArrivalCycle = NO_CYCLE,
) -> pd.DataFrame:
    """``n_jobs`` jobs for ``machine_procs`` processors as a canonical job table sorted by
    submit time; without ``target_utilization`` the mean gap is one mean runtime."""
    check_synthesis_request(n_jobs, machine_procs, seed, target_utilization)
    smallest, largest = check_ranges(machine_procs, runtime_range, size_range, power_of_two_share)
    size_stream, runtime_stream, gap_stream = independent_streams(seed, 3)
    sizes = log_uniform_sizes(size_stream, n_jobs, smallest, largest, power_of_two_share)
    runtimes = log_uniform_times(runtime_stream, n_jobs, runtime_range)
    return jobs_arriving(gap_stream, sizes, runtimes, machine_procs, target_utilization, cycle)


def jobs_arriving(gap_stream: np.random.Generator, sizes: np.ndarray, runtimes: np.ndarray, machine_procs: int,
                  target_utilization: float | None, cycle: ArrivalCycle) -> pd.DataFrame:
    """The job table of jobs of these sizes, each running for its runtime as requested, arriving as a
    Poisson process on the cycle's clock at the target load (mean gap one mean runtime without one)."""
    gaps = gap_stream.exponential(1.0, len(sizes) - 1) * runtimes.mean()
    work = float((sizes * runtimes).sum())
    submits, _ = place_arrivals(gaps, cycle, work, machine_procs, target_utilization)
    return synthetic_job_table(submits, runtimes, sizes, runtimes)
