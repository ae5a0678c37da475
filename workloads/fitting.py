"""Fitting a workload model to a parsed trace.

The model follows the structure of Lublin and Feitelson ("The workload on parallel
supercomputers: modeling the characteristics of rigid jobs", JPDC 63(11), 2003) with the
families chosen from the data rather than fixed:

Which jobs
    Jobs with a known size in 1..machine size and a runtime > 0 (the others are counted
    in ``source.jobs_dropped``).  A job's size is its allocated processor count, or its
    requested count where the trace has no allocation.

Arrivals
    The trace's submit times are read on the local clock of the installation (from
    the header's Unix start time and time zone; without a start time, time 0 is taken
    as Monday 00:00).  The share of arrivals in each hour of the day and each day of the
    week gives 24 and 7 weights (one arrival is added to every slot, so that no slot is
    empty).  Their product defines a weekly warped clock (:mod:`schedlab.workloads.cycle`); the
    gaps between consecutive arrivals on that clock are free of the daily and weekly
    cycle.  Gaps of zero (several jobs submitted in the same second) are kept as a
    share; the family is fitted to the others.

Sizes
    Serial, power-of-two and other jobs with a two-stage uniform log2 size
    (:mod:`schedlab.workloads.sizes`).

Runtimes
    Every family of :mod:`schedlab.workloads.distributions`, the smallest AIC chosen, with each
    family's KS distance reported.

Size-runtime correlation
    A Gaussian copula: its parameter is the correlation between the normal scores of
    the size ranks and the runtime ranks.  The trace's Spearman rank correlation is
    stored for reference.

Requested-time accuracy
    The percentiles of log10(requested time / runtime) over jobs with both known.

The source's offered load (processor-seconds of the fitted jobs per processor-second
between the first and the last of their arrivals) is recorded with it, so that a workload
drawn from the model can be placed at the load of the trace it came from.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from scipy import stats

from schedlab.parsers.cleaning import clean_or_refuse, effective_procs
from schedlab.parsers.header import SwfHeader
from schedlab.parsers.swf import Trace
from schedlab.errors import SchedlabError
from schedlab.workloads.cycle import (
    SECONDS_PER_DAY,
    SECONDS_PER_HOUR,
    ArrivalCycle,
    weekly_cycle,
)
from schedlab.workloads.distributions import fit_candidates
from schedlab.workloads.load import offered_load
from schedlab.workloads.model import (
    FITTED,
    PERCENTILES,
    SCHEMA_NAME,
    SCHEMA_VERSION,
    validate_model,
)
from schedlab.workloads.sizes import fit_sizes

MIN_JOBS = 10
MAX_CORRELATION = 0.999  # a copula correlation of exactly +-1 would make sizes decide runtimes


def local_week_seconds(submit_times, unix_start_time=None, time_zone=None) -> np.ndarray:
    """Seconds since the Monday 00:00 (local time) on or before the first submission.

    ``time_zone`` is an IANA name (e.g. ``"Europe/Stockholm"``, daylight saving
    handled) or a fixed offset in seconds east of UTC; ``None`` means UTC.  Without a
    Unix start time, time 0 of the trace is taken as Monday 00:00.
    """
    submit_times = np.asarray(submit_times, dtype=float)
    if unix_start_time is None:
        return submit_times - submit_times.min() // (7 * SECONDS_PER_DAY) * (7 * SECONDS_PER_DAY)
    utc = pd.to_datetime(np.round(unix_start_time + submit_times), unit="s", utc=True)
    if isinstance(time_zone, str):
        local = pd.DatetimeIndex(utc).tz_convert(time_zone).tz_localize(None)
    else:
        local = pd.DatetimeIndex(utc).tz_localize(None) + pd.Timedelta(seconds=time_zone or 0)
    first = local.min()
    week_start = first.normalize() - pd.Timedelta(days=first.day_of_week)
    return (local - week_start).total_seconds().to_numpy()


def usable_jobs(jobs: pd.DataFrame, machine_procs: int) -> tuple[np.ndarray, dict]:
    """Which jobs a model is fitted to (known size within the machine, runtime > 0,
    submit time known), and how many were dropped for each reason."""
    sizes = effective_procs(jobs)
    bad_size = (sizes < 1) | (sizes > machine_procs)
    bad_runtime = ~bad_size & ~(jobs["run_time"].to_numpy() > 0)
    bad_submit = ~bad_size & ~bad_runtime & ~(jobs["submit_time"].to_numpy() >= 0)
    dropped = {
        "size_unknown_or_above_machine": int(bad_size.sum()),
        "runtime_not_positive": int(bad_runtime.sum()),
        "submit_time_unknown": int(bad_submit.sum()),
    }
    return ~(bad_size | bad_runtime | bad_submit), dropped


def gaps_on_clock(seconds: np.ndarray, cycle: ArrivalCycle) -> np.ndarray:
    """Gaps between consecutive arrivals measured on the warped clock of ``cycle``.

    The warped times are sorted first: local clocks step back an hour when daylight
    saving ends, which could otherwise make a gap negative.
    """
    return np.diff(np.sort(cycle.warp(seconds)))


def cycle_weights(week_seconds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hour-of-day and day-of-week arrival weights (mean 1), one arrival added per slot."""
    hours = (np.mod(week_seconds, SECONDS_PER_DAY) // SECONDS_PER_HOUR).astype(np.int64)
    days = (np.mod(week_seconds, 7 * SECONDS_PER_DAY) // SECONDS_PER_DAY).astype(np.int64)
    hour_counts = np.bincount(hours, minlength=24) + 1.0
    day_counts = np.bincount(days, minlength=7) + 1.0
    return hour_counts / hour_counts.mean(), day_counts / day_counts.mean()


def normal_scores(values) -> np.ndarray:
    """Standard normal quantiles of the (average) ranks of ``values``."""
    ranks = stats.rankdata(values)
    return stats.norm.ppf(ranks / (len(values) + 1))


def size_runtime_correlation(sizes: np.ndarray, run_times: np.ndarray) -> dict:
    """Copula parameter (normal-score correlation, kept inside (-1, 1)) and Spearman's rho.

    Both are 0 when sizes or runtimes do not vary, where a correlation is undefined.
    """
    if np.ptp(sizes) == 0 or np.ptp(run_times) == 0:
        return {"normal_scores": 0.0, "spearman": 0.0}
    scores = np.corrcoef(normal_scores(sizes), normal_scores(run_times))[0, 1]
    return {
        "normal_scores": float(np.clip(scores, -MAX_CORRELATION, MAX_CORRELATION)),
        "spearman": float(stats.spearmanr(sizes, run_times).statistic),
    }


def family_fit(data) -> dict:
    """The candidates' fit of positive ``data`` and the largest value, for the model document."""
    fit = fit_candidates(data)
    return {"chosen": fit["chosen"], "upper_limit": float(np.max(data)), "candidates": fit["candidates"]}


def requested_time_accuracy(requested_times, run_times) -> dict | None:
    """Percentiles of log10(requested / actual) over jobs with both known, and the longest
    request among them (the synthesis's cap); None if under 2 jobs."""
    known = (requested_times > 0) & (run_times > 0)
    if known.sum() < 2:
        return None
    log_ratio = np.log10(requested_times[known] / run_times[known])
    return {
        "log10_ratio_quantiles": [float(q) for q in np.percentile(log_ratio, np.linspace(0, 100, PERCENTILES))],
        "share_below_one": float(np.mean(log_ratio < 0)),
        "jobs": int(known.sum()),
        "max_requested_time": float(requested_times[known].max()),
    }


def fit_workload(
    jobs: pd.DataFrame,
    machine_procs: int,
    *,
    trace_name: str,
    sha256: str,
    unix_start_time: int | None = None,
    time_zone: str | int | None = None,
    cleaning: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Fit a workload model (a validated document, see :mod:`schedlab.workloads.model`) to ``jobs``.

    ``trace_name`` and ``sha256`` (of the decompressed trace) identify the source;
    ``cleaning`` (jobs removed by each cleaning filter applied before, by name) is
    recorded with it.  ``progress(parts fitted, parts)``, if given, follows the three
    slow fits (arrival gaps, sizes, runtimes).
    """
    advance = progress or (lambda done, total: None)
    if machine_procs is None or machine_procs < 2:
        raise SchedlabError(f"fitting needs the machine size (>= 2 processors), got {machine_procs}")
    kept, dropped = usable_jobs(jobs, machine_procs)
    if kept.sum() < MIN_JOBS:
        raise SchedlabError(f"only {int(kept.sum())} usable jobs (known size and runtime > 0): at least {MIN_JOBS} needed")
    sizes = effective_procs(jobs)[kept]
    run_times = jobs["run_time"].to_numpy(dtype=float)[kept]
    week_seconds = local_week_seconds(jobs["submit_time"].to_numpy()[kept], unix_start_time, time_zone)
    hour_weights, day_weights = cycle_weights(week_seconds)
    warped_gaps = gaps_on_clock(week_seconds, weekly_cycle(hour_weights, day_weights))
    positive_gaps = warped_gaps[warped_gaps > 0]
    if positive_gaps.size < 2:
        raise SchedlabError("the trace's jobs are submitted at fewer than three distinct times: no arrival process to fit")
    for values, what in ((positive_gaps, "gap between submits (on the daily clock)"), (run_times, "run time")):
        if np.ptp(values) == 0:
            raise SchedlabError(f"every usable job has the same {what}, {values[0]:g} s: a distribution "
                                "fitted to one value is degenerate (no spread to estimate)")
    advance(0, 3)
    gap_fit = family_fit(positive_gaps)
    advance(1, 3)
    size_model, size_fit = fit_sizes(sizes, machine_procs)
    advance(2, 3)
    runtime_fit = family_fit(run_times)
    advance(3, 3)
    document = {
        "schema": SCHEMA_NAME,
        "schema_version": SCHEMA_VERSION,
        "kind": FITTED,
        "source": {
            "trace": trace_name,
            "sha256": sha256,
            "machine_procs": int(machine_procs),
            "unix_start_time": unix_start_time,
            "time_zone": time_zone,
            "cleaning": cleaning or {},
            "jobs_fitted_from": len(jobs),
            "jobs_used": int(kept.sum()),
            "jobs_dropped": dropped,
            "offered_load": offered_load(jobs[kept], machine_procs),
        },
        "machine_procs": int(machine_procs),
        "arrivals": {
            "hour_of_day_weights": hour_weights.tolist(),
            "day_of_week_weights": day_weights.tolist(),
            "zero_gap_share": float(np.mean(warped_gaps == 0)),
            "gaps": gap_fit,
        },
        "sizes": {**size_model.as_dict(), **size_fit},
        "runtimes": runtime_fit,
        "size_runtime_correlation": size_runtime_correlation(sizes, run_times),
        "requested_time_accuracy": requested_time_accuracy(
            jobs["requested_time"].to_numpy(dtype=float)[kept], run_times
        ),
    }
    return validate_model(document)


def header_clock(header: SwfHeader) -> tuple[int | None, str | int | None]:
    """The Unix start time and the time zone (name, else offset in seconds) of an SWF header."""
    return header.unix_start_time, header.time_zone_string or header.time_zone


def fit_trace(trace: Trace, trace_name: str, progress: Callable[[int, int], None] | None = None) -> dict:
    """Fit a model to a parsed trace after the standard cleaning (:func:`schedlab.parsers.cleaning.clean`),
    refusing one cleaned to nothing; ``progress`` as for :func:`fit_workload`."""
    cleaned, report = clean_or_refuse(trace.jobs, trace.machine_procs, trace.path or trace_name)
    unix_start_time, time_zone = header_clock(trace.header)
    return fit_workload(
        cleaned,
        trace.machine_procs,
        trace_name=trace_name,
        sha256=trace.sha256,
        unix_start_time=unix_start_time,
        time_zone=time_zone,
        cleaning={step.name: step.removed for step in report.steps},
        progress=progress,
    )
