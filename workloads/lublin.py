"""The Lublin-Feitelson workload model with its published default parameters.

Uri Lublin and Dror G. Feitelson, "The workload on parallel supercomputers: modeling the
characteristics of rigid jobs", Journal of Parallel and Distributed Computing 63(11),
1105-1122, 2003 (first as a 1999 technical report of the Hebrew University; the model is
widely called "Lublin99").  The parameters below are the paper's defaults for the whole
sample (no split into batch and interactive jobs), as distributed with the authors'
generator.  The model needs no trace.  Its rules, restated:

Sizes
    Serial with probability 0.244; otherwise ``log2(size)`` is two-stage uniform
    (probability 0.86 on [0.8, uhi - 2.5], else on [uhi - 2.5, uhi], ``uhi = log2(P)``
    for a machine of ``P`` processors); a parallel job is a power of two with
    probability 0.576 of all jobs (log2 size rounded), any size otherwise (size
    rounded).  See :mod:`schedlab.workloads.sizes`.

Runtimes
    ``ln(runtime)`` follows a hyper-gamma distribution: with probability ``p`` a
    gamma(shape 4.2, scale 0.94) (short jobs, median about a minute), otherwise a
    gamma(shape 312, scale 0.03) (long jobs, around three hours).  ``p`` falls linearly
    with the job's size, ``p = 0.78 - 0.0054 * size`` clipped to [0, 1]: big jobs run
    longer, which is the model's size-runtime correlation.  Draws with
    ``ln(runtime) > 12`` (about 45 hours) are drawn again.  Runtimes are rounded to
    whole seconds, at least 1.

Arrivals
    The gap between two arrivals during the rush hours has ``ln(gap)`` gamma
    distributed (shape 10.2303 x 1.0225, the rush-to-all-day ratio, scale 0.4871);
    draws with ``ln(gap) > 13`` are drawn again.  The daily cycle has 48 half-hour
    slots; slot ``k`` weighs the probability mass that a gamma(shape 8.1737, scale
    3.9631) puts on the unit interval centred on ``((k - 10) mod 48) + 11``, i.e. the
    day is read from 05:00 to 05:00 so the quiet night lands in the gamma's tail and
    the peak in the early afternoon.  Gaps are spent on the warped clock of these
    weights (:mod:`schedlab.workloads.cycle`), so busy slots receive more arrivals.  There is
    no weekly cycle.  The first job arrives at time 0, midnight.

Requested times
    The model has none.  By default they come from the user-estimate model of Tsafrir,
    Etsion and Feitelson (:mod:`schedlab.workloads.estimates`) with the maximal estimate
    ``max_estimate``: the smallest whole hour at or above the runtime cap (46 h with the
    defaults), so no estimate is below its runtime or above that maximum.  Asked for
    exact estimates, every job's requested time equals its runtime.  Fitted models
    (:mod:`schedlab.workloads.fitting`) use the observed requested-time accuracy instead.

A target load scales every arrival gap by one constant (:func:`schedlab.workloads.load.place_arrivals`);
without a target the model's own arrival rate is kept.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from schedlab.workloads.cycle import SECONDS_PER_DAY, ArrivalCycle
from schedlab.workloads.estimates import HOUR, tsafrir_estimates
from schedlab.workloads.jobs import (
    check_synthesis_request,
    independent_streams,
    synthetic_job_table,
)
from schedlab.workloads.load import place_arrivals
from schedlab.workloads.sizes import SizeModel

MODEL_NAME = "lublin-feitelson-1999"
CITATION = (
    "U. Lublin and D. G. Feitelson, The workload on parallel supercomputers: modeling the "
    "characteristics of rigid jobs, J. Parallel Distrib. Comput. 63(11):1105-1122, 2003"
)

HALF_HOURS_PER_DAY = 48

DEFAULT_PARAMETERS: dict[str, dict[str, float]] = {
    "sizes": {
        "serial_prob": 0.244,
        "pow2_prob": 0.576,
        "ulow": 0.8,
        "umed": 4.5,
        "uhi": 7.0,
        "uprob": 0.86,
    },
    "runtimes": {
        "shape1": 4.2,
        "scale1": 0.94,
        "shape2": 312.0,
        "scale2": 0.03,
        "p_per_proc": -0.0054,
        "p_intercept": 0.78,
        "max_log_runtime": 12.0,
    },
    "arrivals": {
        "log_gap_shape": 10.2303,
        "rush_to_all_ratio": 1.0225,
        "log_gap_scale": 0.4871,
        "max_log_gap": 13.0,
        "daily_cycle_shape": 8.1737,
        "daily_cycle_scale": 3.9631,
    },
}


def daily_cycle(arrivals: dict) -> ArrivalCycle:
    """The model's 48 half-hour slot weights (see the module docstring)."""
    slots = np.arange(HALF_HOURS_PER_DAY)
    positions = np.mod(slots - 10, HALF_HOURS_PER_DAY) + 11
    shape, scale = arrivals["daily_cycle_shape"], arrivals["daily_cycle_scale"]
    weights = stats.gamma.cdf(positions + 0.5, shape, scale=scale) - stats.gamma.cdf(
        positions - 0.5, shape, scale=scale
    )
    return ArrivalCycle(SECONDS_PER_DAY / HALF_HOURS_PER_DAY, weights)


def truncated_gamma(rng: np.random.Generator, shape: float, scale: float, upper: float, n: int) -> np.ndarray:
    """Gamma draws, each redrawn until it is at most ``upper``."""
    values = rng.gamma(shape, scale, n)
    too_big = values > upper
    while too_big.any():
        values[too_big] = rng.gamma(shape, scale, int(too_big.sum()))
        too_big = values > upper
    return values


def first_component_share(runtimes: dict, sizes) -> np.ndarray:
    """Probability that a job of each size draws from the short-job gamma: ``p_per_proc * size + p_intercept`` in [0, 1]."""
    return np.clip(runtimes["p_per_proc"] * np.asarray(sizes, dtype=float) + runtimes["p_intercept"], 0.0, 1.0)


def lublin_runtimes(rng: np.random.Generator, sizes: np.ndarray, runtimes: dict) -> np.ndarray:
    """Whole-second runtimes from the size-dependent hyper-gamma on ln(runtime).

    A draw above the cap is replaced by a fresh hyper-gamma draw (component chosen
    again), so ln(runtime) follows the hyper-gamma conditioned on being at most the cap.
    """
    first_share = first_component_share(runtimes, sizes)
    log_runtimes = np.empty(sizes.size)
    pending = np.arange(sizes.size)
    while pending.size:
        from_first = rng.random(pending.size) < first_share[pending]
        shapes = np.where(from_first, runtimes["shape1"], runtimes["shape2"])
        scales = np.where(from_first, runtimes["scale1"], runtimes["scale2"])
        log_runtimes[pending] = rng.gamma(shapes, scales)
        pending = pending[log_runtimes[pending] > runtimes["max_log_runtime"]]
    return np.maximum(np.round(np.exp(log_runtimes)), 1.0)


def max_estimate(runtimes: dict) -> int:
    """The estimate model's maximal estimate: the smallest whole hour at or above the runtime cap."""
    return int(math.ceil(math.exp(runtimes["max_log_runtime"]) / HOUR)) * HOUR


def generate_lublin_feitelson(
    parameters: dict, n_jobs: int, machine_procs: int, seed: int, target_utilization: float | None,
    exact_estimates: bool = False,
) -> tuple[pd.DataFrame, float]:
    """Jobs from the model with the given parameters; returns them and the gap scale used.

    Requested times come from the estimate model, or equal the runtimes with ``exact_estimates``
    (a stream of their own, so the other columns do not depend on the choice)."""
    check_synthesis_request(n_jobs, machine_procs, seed, target_utilization)
    size_rng, runtime_rng, arrival_rng, estimate_rng = independent_streams(seed, 4)
    size_model = SizeModel(**parameters["sizes"]).for_machine(machine_procs)
    sizes = size_model.sizes_from_uniforms(size_rng.random(n_jobs), machine_procs)
    runtimes = lublin_runtimes(runtime_rng, sizes, parameters["runtimes"])
    arrivals = parameters["arrivals"]
    log_gaps = truncated_gamma(
        arrival_rng,
        arrivals["log_gap_shape"] * arrivals["rush_to_all_ratio"],
        arrivals["log_gap_scale"],
        arrivals["max_log_gap"],
        n_jobs - 1,
    )
    submit_times, gap_scale = place_arrivals(
        np.exp(log_gaps), daily_cycle(arrivals), float(np.sum(sizes * runtimes)), machine_procs, target_utilization
    )
    estimates = runtimes if exact_estimates else tsafrir_estimates(
        estimate_rng, runtimes, max_estimate(parameters["runtimes"])
    )
    return synthetic_job_table(submit_times, runtimes, sizes, estimates), gap_scale


def lublin_feitelson_jobs(
    n_jobs: int, machine_procs: int, seed: int, target_utilization: float | None = None, exact_estimates: bool = False
) -> pd.DataFrame:
    """``n_jobs`` jobs of the Lublin-Feitelson model (published defaults) for ``machine_procs`` processors.

    Returns a canonical job table (:mod:`schedlab.parsers.schema`) sorted by submit time, job ids
    1..n, whole-second times, ``requested_time`` from the estimate model (equal to
    ``run_time`` with ``exact_estimates``), status 1 and every other field -1.  With
    ``target_utilization`` the offered load (:mod:`schedlab.workloads.load`) is that value;
    without, the model's own arrival rate is kept.  The same arguments always give the
    same table.  Bad arguments raise :class:`schedlab.errors.SchedlabError`.
    """
    jobs, _ = generate_lublin_feitelson(
        DEFAULT_PARAMETERS, n_jobs, machine_procs, seed, target_utilization, exact_estimates
    )
    return jobs
