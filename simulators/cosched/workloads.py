"""The two workloads of the coscheduling study and their pairs (spec 000, paper section V).

Machine A: a window (one month in the paper) of a large machine's trace, submit times
kept.  Machine B: an analysis cluster (Eureka, 100 nodes, whose trace is not public),
synthesized from a model fitted on a real trace of a machine that size
(``workloads.synthesis``), in one of two shapes:

``analysis_by_load``
    as many jobs as fill A's window at the target utilization: jobs are drawn with
    their arrival gaps scaled by one constant to the target load (the shape of the
    arrival process kept, as the paper scales Eureka's real gaps), then those submitted
    within the window are kept and shifted to its start.
``analysis_like``
    the paper's "special workload" for the runs by paired proportion: the same job
    count and the same span as A at about the target utilization.  Job shapes (sizes,
    run and requested times) are drawn from the model; the k-th job is submitted at
    the time of A's k-th job (DEFAULT: the paper does not say how its arrivals were
    placed; this way a ratio pair, made of equal ranks, is submitted together, as a
    window pair is within 2 minutes); run and requested times are then multiplied by
    one constant that makes the load the target.  Pairing equal ranks of independent
    arrival processes instead would leave paired jobs hours apart, so that a holding
    job would mostly wait for a mate not yet submitted.

Pairs come from ``workloads.pairing``: by submit-time window (2 minutes) or by ratio.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from schedlab.errors import SchedlabError
from workloads.pairing import Pairing, pair_by_ratio, pair_by_window
from workloads.lublin import lublin_feitelson_jobs
from workloads.synthesis import requested_times, synthesize

SECONDS_PER_DAY = 86_400.0
PAIRING_MODES = ("window", "ratio")


def trace_window(jobs: pd.DataFrame, start_day: float, days: float) -> pd.DataFrame:
    """Jobs submitted in ``[first + start_day, first + start_day + days)`` (days from the first submission)."""
    first = float(jobs["submit_time"].min())
    begin = first + start_day * SECONDS_PER_DAY
    end = begin + days * SECONDS_PER_DAY
    window = jobs[(jobs["submit_time"] >= begin) & (jobs["submit_time"] < end)].reset_index(drop=True)
    if len(window) < 2:
        raise SchedlabError(f"the window of {days} days from day {start_day} holds {len(window)} job(s)")
    return window


def _span(jobs: pd.DataFrame) -> tuple[float, float]:
    submit = jobs["submit_time"].to_numpy(dtype=float)
    return float(submit.min()), float(submit.max() - submit.min())


def analysis_by_load(model: dict, machine_procs: int, load: float, reference: pd.DataFrame, seed: int) -> pd.DataFrame:
    """Jobs filling the submission span of ``reference`` (A's window) at ``load``."""
    start, span = _span(reference)
    n_jobs = 256
    while True:
        jobs = synthesize(model, n_jobs, machine_procs, load, seed)
        if jobs["submit_time"].iloc[-1] > span:
            break
        n_jobs *= 2
    kept = jobs[jobs["submit_time"] <= span].reset_index(drop=True)
    kept["submit_time"] = kept["submit_time"] + start
    return kept


def analysis_like(model: dict, machine_procs: int, load: float, reference: pd.DataFrame, seed: int) -> pd.DataFrame:
    """As many jobs as ``reference``, submitted at its submit times, offering ``load``."""
    jobs = synthesize(model, len(reference), machine_procs, None, seed)
    start, span = _span(reference)
    work = float((jobs["allocated_procs"] * jobs["run_time"]).sum())
    scale = load * machine_procs * span / work
    scaled = jobs.copy()
    scaled["submit_time"] = np.sort(reference["submit_time"].to_numpy(dtype=float))
    for column in ("run_time", "requested_time"):
        scaled[column] = np.maximum(np.round(jobs[column].to_numpy(dtype=float) * scale), 1.0)
    scaled["requested_time"] = np.maximum(scaled["requested_time"], scaled["run_time"])
    return scaled


def make_pairs(jobs_a: pd.DataFrame, jobs_b: pd.DataFrame, mode: str, value: float) -> Pairing:
    """``mode="window"``: ``value`` seconds; ``mode="ratio"``: ``value`` is the paired share (0-1)."""
    if mode == "window":
        return pair_by_window(jobs_a, jobs_b, value)
    if mode == "ratio":
        return pair_by_ratio(jobs_a, jobs_b, value)
    raise SchedlabError(f"pairing mode must be one of {', '.join(PAIRING_MODES)}, got {mode!r}")


INTREPID_PROCS = 40_960
INTREPID_PARTITION = 512
INTREPID_MONTH_JOBS = 9_219


def intrepid_standin(
    accuracy_model: dict, load: float, seed: int, n_jobs: int = INTREPID_MONTH_JOBS, days: float = 30.0
) -> pd.DataFrame:
    """A synthetic Intrepid month, for when the real log is not at hand.

    Lublin-Feitelson jobs on a machine of 80 partitions of 512 nodes, sizes multiplied
    by 512 (Intrepid's jobs are 512..32,768 nodes in 512-node steps), drawn at ``load``
    and then stretched or squeezed in time (all times by one constant, which keeps the
    load) to span ``days``.  The model has no requested times; they come from the
    requested/actual ratios of ``accuracy_model`` (a fitted model, e.g. of KTH-SP2).
    """
    partitions = INTREPID_PROCS // INTREPID_PARTITION
    jobs = lublin_feitelson_jobs(n_jobs, partitions, seed, load)
    scale = days * SECONDS_PER_DAY / float(jobs["submit_time"].iloc[-1])
    jobs["submit_time"] = np.floor(jobs["submit_time"].to_numpy(dtype=float) * scale)
    run = np.maximum(np.round(jobs["run_time"].to_numpy(dtype=float) * scale), 1.0)
    jobs["run_time"] = run
    request_rng = np.random.default_rng([seed, 1])
    jobs["requested_time"] = requested_times(request_rng, accuracy_model["requested_time_accuracy"], run)
    for column in ("allocated_procs", "requested_procs"):
        jobs[column] = jobs[column] * INTREPID_PARTITION
    return jobs
