"""What a model says against what data show: the curves behind the fit figures.

For a model and a workload (the trace it was fitted on, or a workload synthesized from
it) this module gives, side by side,

* inter-arrival gaps measured on the model's warped clock (:mod:`schedlab.workloads.cycle`),
  so that the daily (and weekly) cycle is factored out and one CDF describes them; for
  a synthesized workload the gaps are divided by the synthesis' gap scale, which puts
  them back on the model's own scale;
* job sizes and runtimes;
* the share of arrivals in each hour of the day;

with the model's CDF for each quantity (:func:`model_cdfs`), and the Kolmogorov-Smirnov
distance between each sample and its model CDF (:func:`ks_to_model`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from schedlab.parsers.cleaning import effective_procs
from schedlab.workloads import lublin
from schedlab.workloads.cycle import SECONDS_PER_DAY, SECONDS_PER_HOUR
from schedlab.workloads.distributions import distribution
from schedlab.workloads.fitting import gaps_on_clock, local_week_seconds, usable_jobs
from schedlab.workloads.gof import integer_ks_distance, ks_distance
from schedlab.workloads.model import FITTED, SIZE_PARAMETERS
from schedlab.workloads.sizes import SizeModel
from schedlab.workloads.synthesis import Synthesis, arrival_cycle, runtime_limit

HOURS_PER_DAY = 24


@dataclass(frozen=True)
class WorkloadSample:
    """The quantities of one workload that a model describes."""

    interarrival: np.ndarray  # gaps on the model's warped clock, seconds
    sizes: np.ndarray
    runtimes: np.ndarray
    hourly_shares: np.ndarray  # share of arrivals in each hour of the day (24)


@dataclass(frozen=True)
class ModelCdfs:
    """The model's CDF of each quantity (functions of an array) and its hourly shares."""

    interarrival: Callable[[np.ndarray], np.ndarray]
    sizes: Callable[[np.ndarray], np.ndarray]
    runtimes: Callable[[np.ndarray], np.ndarray]
    hourly_shares: np.ndarray


def hourly_shares(seconds_of_day_clock: np.ndarray) -> np.ndarray:
    """Share of the given instants (seconds from a midnight) falling in each hour of the day."""
    hours = (np.mod(seconds_of_day_clock, SECONDS_PER_DAY) // SECONDS_PER_HOUR).astype(np.int64)
    return np.bincount(hours, minlength=HOURS_PER_DAY) / max(hours.size, 1)


def _sample(model: dict, clock_seconds: np.ndarray, sizes, runtimes, gap_scale: float) -> WorkloadSample:
    return WorkloadSample(
        interarrival=gaps_on_clock(clock_seconds, arrival_cycle(model)) / gap_scale,
        sizes=np.asarray(sizes),
        runtimes=np.asarray(runtimes, dtype=float),
        hourly_shares=hourly_shares(clock_seconds),
    )


def trace_sample(model: dict, jobs: pd.DataFrame) -> WorkloadSample:
    """The jobs a fitted model was fitted on (same filters, same local clock)."""
    kept, _ = usable_jobs(jobs, model["machine_procs"])
    source = model["source"]
    clock = local_week_seconds(jobs["submit_time"].to_numpy()[kept], source["unix_start_time"], source["time_zone"])
    return _sample(model, clock, effective_procs(jobs)[kept], jobs["run_time"].to_numpy()[kept], 1.0)


def synthesis_sample(model: dict, synthesis: Synthesis) -> WorkloadSample:
    """A workload synthesized from ``model``, its gaps brought back to the model's scale."""
    jobs = synthesis.jobs
    return _sample(
        model, jobs["submit_time"].to_numpy(dtype=float), jobs["allocated_procs"].to_numpy(),
        jobs["run_time"].to_numpy(), synthesis.gap_scale,
    )


def _truncated(cdf: Callable, upper: float) -> Callable[[np.ndarray], np.ndarray]:
    """``cdf`` conditioned on the value being at most ``upper``."""
    mass = float(cdf(np.array([upper]))[0])
    return lambda x: np.minimum(cdf(np.asarray(x, dtype=float)) / mass, 1.0)


def _family_fit_cdf(family_fit: dict, upper: float | None = None) -> Callable[[np.ndarray], np.ndarray]:
    """The chosen family's CDF truncated where the synthesis truncates it (default: the fit's upper limit)."""
    chosen = family_fit["chosen"]
    upper = family_fit["upper_limit"] if upper is None else upper
    return _truncated(distribution(chosen, family_fit["candidates"][chosen]["params"]).cdf, upper)


def _size_cdf(size_model: SizeModel, machine_procs: int) -> Callable[[np.ndarray], np.ndarray]:
    cumulative = np.concatenate(([0.0], np.cumsum(size_model.pmf(machine_procs))))
    return lambda x: cumulative[np.clip(np.floor(np.asarray(x, dtype=float)).astype(np.int64), 0, machine_procs)]


def _fitted_cdfs(model: dict, machine_procs: int) -> ModelCdfs:
    arrivals = model["arrivals"]
    zero_share = arrivals["zero_gap_share"]
    positive_gap_cdf = _family_fit_cdf(arrivals["gaps"])
    size_model = SizeModel(**{name: model["sizes"][name] for name in SIZE_PARAMETERS}).for_machine(machine_procs)
    hour_weights = np.asarray(arrivals["hour_of_day_weights"])
    return ModelCdfs(
        interarrival=lambda x: np.where(np.asarray(x) >= 0, zero_share + (1 - zero_share) * positive_gap_cdf(x), 0.0),
        sizes=_size_cdf(size_model, machine_procs),
        runtimes=_family_fit_cdf(model["runtimes"], runtime_limit(model)),
        hourly_shares=hour_weights / hour_weights.sum(),
    )


def _lublin_feitelson_cdfs(model: dict, machine_procs: int) -> ModelCdfs:
    parameters = model["parameters"]
    arrivals, runtimes = parameters["arrivals"], parameters["runtimes"]
    log_gap = stats.gamma(arrivals["log_gap_shape"] * arrivals["rush_to_all_ratio"], scale=arrivals["log_gap_scale"])
    gap_cdf = _truncated(lambda x: log_gap.cdf(np.log(np.maximum(x, 1e-300))), np.exp(arrivals["max_log_gap"]))
    size_model = SizeModel(**parameters["sizes"]).for_machine(machine_procs)
    size_pmf = size_model.pmf(machine_procs)
    first_share = lublin.first_component_share(runtimes, np.arange(1, machine_procs + 1))
    short = stats.gamma(runtimes["shape1"], scale=runtimes["scale1"])
    long = stats.gamma(runtimes["shape2"], scale=runtimes["scale2"])
    cap = runtimes["max_log_runtime"]

    def runtime_cdf(x):
        log_x = np.log(np.maximum(np.asarray(x, dtype=float), 1e-300))[:, None]
        mixture = first_share * short.cdf(log_x) + (1 - first_share) * long.cdf(log_x)
        mixture_at_cap = first_share * short.cdf(cap) + (1 - first_share) * long.cdf(cap)
        return np.minimum(mixture / mixture_at_cap, 1.0) @ size_pmf

    half_hours = lublin.daily_cycle(arrivals).weights
    hourly = half_hours.reshape(HOURS_PER_DAY, 2).sum(axis=1)
    return ModelCdfs(
        interarrival=gap_cdf,
        sizes=_size_cdf(size_model, machine_procs),
        runtimes=runtime_cdf,
        hourly_shares=hourly / hourly.sum(),
    )


def model_cdfs(model: dict, machine_procs: int) -> ModelCdfs:
    """The model's CDFs on a machine of ``machine_procs`` processors."""
    if model["kind"] == FITTED:
        return _fitted_cdfs(model, machine_procs)
    return _lublin_feitelson_cdfs(model, machine_procs)


def ks_to_model(sample: WorkloadSample, cdfs: ModelCdfs) -> dict:
    """KS distance of each sampled quantity to the model's CDF (sizes compared at whole numbers)."""
    return {
        "interarrival": ks_distance(sample.interarrival, cdfs.interarrival),
        "sizes": integer_ks_distance(sample.sizes, cdfs.sizes),
        "runtimes": ks_distance(sample.runtimes, cdfs.runtimes),
    }
