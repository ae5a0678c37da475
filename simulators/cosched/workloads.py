"""The two workloads of the coscheduling study and their pairs (spec 000, paper section V).

Machine A: a window (one month in the paper) of a large machine's trace, submit times
kept; by default the log's busiest such window (``busiest_window_start_day``).  Machine B:
an analysis cluster (Eureka, 100 nodes, whose trace is not public), synthesized from a
model fitted on a real trace of a machine that size
(``schedlab.workloads.synthesis``), in one of two shapes:

``analysis_by_load``
    jobs spanning A's window at exactly the target utilization, as the paper packs
    Eureka's months into one: a stream drawn at the model's own rate, cut where its
    work fills the window at the target, every arrival gap multiplied by one constant
    (the shape of the arrival process kept).
``analysis_like``
    the paper's "special workload" for the runs by paired proportion: the same job
    count and the same span as A at the target utilization (Sect. V-B says no more).
    Job shapes (sizes, run and requested times) are drawn from the model, and run and
    requested times multiplied by one constant that makes the load the target.  Where
    the jobs arrive is a reading (``RATIO_ARRIVALS``).  By default (``at_a_submits``)
    the k-th job is submitted at A's k-th submit time and equal ranks pair, which
    realises the paired shares the paper states but bunches B's arrivals as A's are
    bunched.  The variant (``own_model``) keeps the model's arrival process, its gaps
    stretched by one constant to A's span, so B's queue is the load series' queue at
    that load, and pairs within the 2-minute window (``make_pairs`` mode
    ``ratio_within_window``); measured on the paper profile, too few of A's jobs have a
    B job within the window for it to pair more than about 10 % of them.

Both take ``min_runtime``: B's jobs shorter than it are left out of the stream (B's
baseline calibration, ``schedlab.simulators.cosched.experiments.calibrate_min_runtime``).
``widths_on_intrepid`` is A's load knob (its baseline calibration): A runs on Intrepid's
40,960 nodes whatever log its jobs come from.

Pairs come from ``schedlab.workloads.pairing``: by submit-time window (2 minutes), by ratio, or by
ratio within the window.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from schedlab.errors import SchedlabError
from schedlab.workloads.pairing import (
    DEFAULT_WINDOW_SECONDS,
    Pairing,
    pair_by_ratio,
    pair_by_ratio_within_window,
    pair_by_window,
)
from schedlab.workloads.jobs import independent_streams, synthetic_job_table
from schedlab.workloads.synthesis import requested_times, synthesize

SECONDS_PER_DAY = 86_400.0
PAIRING_MODES = ("window", "ratio", "ratio_within_window")
RATIO_ARRIVALS = ("at_a_submits", "own_model")
"""Where the ratio series' B jobs arrive: at A's submit times (default), or at B's model's own pace over A's span."""
BUSIEST = "busiest"


def trace_window(jobs: pd.DataFrame, start_day: float, days: float) -> pd.DataFrame:
    """Jobs submitted in ``[first + start_day, first + start_day + days)`` (days from the first submission)."""
    first = float(jobs["submit_time"].min())
    begin = first + start_day * SECONDS_PER_DAY
    end = begin + days * SECONDS_PER_DAY
    window = jobs[(jobs["submit_time"] >= begin) & (jobs["submit_time"] < end)].reset_index(drop=True)
    if len(window) < 2:
        raise SchedlabError(f"the window of {days} days from day {start_day} holds {len(window)} job(s)")
    return window


def busiest_window_start_day(jobs: pd.DataFrame, days: float) -> float:
    """The whole day (counted from the first submission) that starts the ``days``-long window
    holding the most submissions, the earliest on a tie; only windows that end by the last
    submission count.  The paper's month of Intrepid held 9,219 jobs and pairs grow with the
    job count, so the fullest month of a smaller log is the one closest to it; the choice
    looks at submissions only, never at a run."""
    submit = np.sort(jobs["submit_time"].to_numpy(dtype=float))
    first, span_days = submit[0], (submit[-1] - submit[0]) / SECONDS_PER_DAY
    if span_days < days:
        return 0.0
    begins = first + np.arange(int(span_days - days) + 1) * SECONDS_PER_DAY
    counts = np.searchsorted(submit, begins + days * SECONDS_PER_DAY) - np.searchsorted(submit, begins)
    return float(np.argmax(counts))


def window_start_day(jobs: pd.DataFrame, start_day: str | float, days: float) -> float:
    """A window's first day: ``"busiest"`` (``busiest_window_start_day``) or a number of days."""
    if start_day == BUSIEST:
        return busiest_window_start_day(jobs, days)
    try:
        return float(start_day)
    except ValueError:
        raise SchedlabError(f"start_day must be '{BUSIEST}' or a number of days, got {start_day!r}") from None


def _span(jobs: pd.DataFrame) -> tuple[float, float]:
    submit = jobs["submit_time"].to_numpy(dtype=float)
    return float(submit.min()), float(submit.max() - submit.min())


def analysis_stream(model: dict, machine_procs: int, n_jobs: int, seed: int, min_runtime: float) -> pd.DataFrame:
    """``n_jobs`` drawn at the model's own arrival rate, less those shorter than ``min_runtime`` s."""
    jobs = synthesize(model, n_jobs, machine_procs, None, seed)
    return jobs[jobs["run_time"] >= min_runtime].reset_index(drop=True)


def analysis_by_load(
    model: dict, machine_procs: int, load: float, reference: pd.DataFrame, seed: int, min_runtime: float = 0.0
) -> pd.DataFrame:
    """Jobs spanning ``reference``'s (A's) submissions at offered load ``load`` exactly.

    The paper packs months of Eureka's trace into one by multiplying every arrival gap by
    one constant.  Here a stream drawn at the model's own rate is cut after the first job
    whose cumulative work fills A's span at ``load``, and its gaps are multiplied by the
    constant that makes those jobs offer exactly ``load`` (so B's span exceeds A's by at
    most one job's share).  Cutting by submit time instead, after scaling a stream to the
    load, left the window's own load to chance (0.135 for a label of 0.25 over a week).
    """
    start, span = _span(reference)
    wanted_work = load * machine_procs * span
    n_jobs = 256
    while True:
        jobs = analysis_stream(model, machine_procs, n_jobs, seed, min_runtime)
        work = np.cumsum(jobs["allocated_procs"].to_numpy(dtype=float) * jobs["run_time"].to_numpy(dtype=float))
        if len(work) > 1 and work[-1] >= wanted_work:
            break
        n_jobs *= 2
    count = max(int(np.searchsorted(work, wanted_work)) + 1, 2)
    kept = jobs.iloc[:count].copy()
    arrivals = kept["submit_time"].to_numpy(dtype=float) - float(kept["submit_time"].iloc[0])
    stretch = work[count - 1] / (machine_procs * load) / arrivals[-1]
    kept["submit_time"] = start + np.round(arrivals * stretch)
    return kept


def analysis_like(
    model: dict, machine_procs: int, load: float, reference: pd.DataFrame, seed: int, min_runtime: float = 0.0,
    arrivals: str = "at_a_submits",
) -> pd.DataFrame:
    """As many jobs as ``reference`` over its span, offering ``load``, arriving as ``arrivals`` says."""
    n_jobs = len(reference)
    while len(jobs := analysis_stream(model, machine_procs, n_jobs, seed, min_runtime)) < len(reference):
        n_jobs *= 2
    jobs = jobs.iloc[: len(reference)].reset_index(drop=True)
    start, span = _span(reference)
    work = float((jobs["allocated_procs"] * jobs["run_time"]).sum())
    scale = load * machine_procs * span / work
    scaled = jobs.copy()
    if arrivals == "own_model":
        offsets = jobs["submit_time"].to_numpy(dtype=float) - float(jobs["submit_time"].iloc[0])
        scaled["submit_time"] = start + np.round(offsets * (span / offsets[-1]))
    elif arrivals == "at_a_submits":
        scaled["submit_time"] = np.sort(reference["submit_time"].to_numpy(dtype=float))
    else:
        raise SchedlabError(f"ratio-series arrivals must be one of {', '.join(RATIO_ARRIVALS)}, got {arrivals!r}")
    for column in ("run_time", "requested_time"):
        scaled[column] = np.maximum(np.round(jobs[column].to_numpy(dtype=float) * scale), 1.0)
    scaled["requested_time"] = np.maximum(scaled["requested_time"], scaled["run_time"])
    return scaled


INTREPID_PROCS = 40_960
INTREPID_PARTITION = 512
INTREPID_LARGEST_PARTITIONS = 64  # 32,768 nodes, Intrepid's largest job
STANDIN_RUN_TIME_RANGE = (600.0, 43_200.0)
"""Our choice for the stand-in's run times, log-uniform: 10 minutes to 12 hours (capability jobs run for hours)."""


def widths_on_intrepid(jobs: pd.DataFrame, source_procs: int, factor: float) -> pd.DataFrame:
    """Each job's width mapped onto Intrepid: A's load knob.

    A job's share of its own machine (``source_procs`` nodes) times ``factor`` times
    Intrepid's 40,960 nodes, rounded up to whole 512-node partitions (a Blue Gene/P job
    gets the smallest block that holds it) and kept within Intrepid's 512 to 32,768.
    Submit, run and requested times stay the log's: the month, its job count, its
    arrival pattern (hence the pairs a 2-minute window makes) and every job's length
    (hence what a slowdown divides by) are real; only how much of the machine a job
    takes changes.
    """
    mapped = jobs.copy()
    allocated = mapped["allocated_procs"].to_numpy(dtype=float)
    width = np.where(allocated > 0, allocated, mapped["requested_procs"].to_numpy(dtype=float))
    partitions = np.ceil(width / source_procs * factor * INTREPID_PROCS / INTREPID_PARTITION)
    nodes = INTREPID_PARTITION * np.clip(partitions, 1, INTREPID_LARGEST_PARTITIONS)
    mapped["allocated_procs"] = nodes.astype(np.int64)
    mapped["requested_procs"] = nodes.astype(np.int64)
    return mapped


def make_pairs(jobs_a: pd.DataFrame, jobs_b: pd.DataFrame, mode: str, value: float,
               window_seconds: float = DEFAULT_WINDOW_SECONDS) -> Pairing:
    """``mode="window"``: ``value`` seconds; ``mode="ratio"``: ``value`` is the paired share (0-1);
    ``mode="ratio_within_window"``: that share, each pair within ``window_seconds``."""
    if mode == "window":
        return pair_by_window(jobs_a, jobs_b, value)
    if mode == "ratio":
        return pair_by_ratio(jobs_a, jobs_b, value)
    if mode == "ratio_within_window":
        return pair_by_ratio_within_window(jobs_a, jobs_b, value, window_seconds)
    raise SchedlabError(f"pairing mode must be one of {', '.join(PAIRING_MODES)}, got {mode!r}")


def intrepid_standin(accuracy_model: dict, load: float, seed: int, days: float = 30.0) -> pd.DataFrame:
    """A synthetic Intrepid month, for when no real machine-A log is at hand.

    Intrepid ran capability jobs of 512 to 32,768 nodes in 512-node partitions for
    hours.  The stand-in draws partition counts 1, 2, 4, ..., 64 with probability halving
    at each doubling (most jobs small, as on any capability machine), run times
    log-uniform over ``STANDIN_RUN_TIME_RANGE``, and Poisson arrivals over ``days``,
    as many jobs as make the expected offered load ``load``.  Requested times come from
    the requested/actual ratios of ``accuracy_model`` (a fitted model, e.g. of KTH-SP2).
    Every number here is our assumption, not Intrepid's; the page says it is synthetic.
    """
    sizes = INTREPID_PARTITION * 2 ** np.arange(int(np.log2(INTREPID_LARGEST_PARTITIONS)) + 1)
    size_weights = 1.0 / sizes
    size_weights /= size_weights.sum()
    shortest, longest = STANDIN_RUN_TIME_RANGE
    mean_run_time = (longest - shortest) / np.log(longest / shortest)  # of the log-uniform distribution
    span = days * SECONDS_PER_DAY
    n_jobs = int(round(load * INTREPID_PROCS * span / (float(sizes @ size_weights) * mean_run_time)))
    size_rng, run_rng, arrival_rng, request_rng = independent_streams(seed, 4)
    procs = size_rng.choice(sizes, size=n_jobs, p=size_weights)
    run = np.round(np.exp(run_rng.uniform(np.log(shortest), np.log(longest), n_jobs)))
    submit = np.floor(np.sort(arrival_rng.uniform(0.0, span, n_jobs)))
    requested = requested_times(request_rng, accuracy_model["requested_time_accuracy"], run)
    return synthetic_job_table(submit, run, procs, requested)
