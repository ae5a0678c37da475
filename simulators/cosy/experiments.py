"""The paper's experiment (Cao and Zimmermann, IPDPS 2004, sections 4.2-4.4), over many seeds.

Workloads
    The paper uses one 100-job week of the Cirne-Berman model (ANL arrivals) on a 32-node
    cluster, with a no-reservation utilization of 74 %.  DEFAULT, the workload the ledger
    judges: ``cirne-berman`` (``schedlab.workloads.cirne_berman``), that model's published parts
    (log-uniform sizes over the whole machine with its lean to powers of two, log-uniform
    times, an Argonne weekly arrival cycle), each job running for its request as COSY ran
    them.  Every workload's arrival gaps are scaled (``target_utilization`` of its generator)
    so that the baseline run (EASY, no reservation) reaches ``u0 = 74 % +- 1 %`` over the
    paper's window, first submission to last end: the one knob, tuned on baselines only.
    With 100 jobs the drain after the last arrival sometimes caps ``u0`` below 74 % at any
    load, so candidate seeds 0, 1, 2, ... are tried in order and those that cannot be tuned
    are skipped (``select_workloads`` reports how many): the sample is conditioned on reaching
    the paper's baseline, as the paper's single workload was.

    Other workloads, each run on a coarser grid (``Profile.regime_variants``) so that the
    sensitivity table of the report shows which claims move with the workload: the same
    model under the other reading of its run-time/request ratio (``cirne-berman-run-times``:
    drawn times are run times, requests longer by the Argonne log's ratio); the burst the
    ledger judged before (``cirne-berman-burst``: 15 to 32 nodes, whose floor was chosen on a
    wait share worked back from judged rows, kept here only); the Lublin-Feitelson model
    (``lublin-feitelson``, perfect estimates), whose 100 jobs reach 74 % only as a burst
    followed by a long drain; and log-uniform sizes and run times with Poisson arrivals
    (``schedlab.workloads.log_uniform``, three variants, ``LOG_UNIFORM_MODELS``), whose work
    is spread over many jobs arriving steadily.

    The spec's other DEFAULT, a scaled slice of a real trace (``TraceSlices``,
    ``schedlab.workloads.trace_slice``): disjoint runs of 100 consecutive jobs of a log, sizes
    rescaled to 32 nodes, each job running for its requested time as the paper's COSY ran
    each request for its "required time" (section 4.2), gaps scaled until the baseline
    reaches 74 %.  ``schedlab cosy --trace`` runs it, and so does the report for the traces
    it is given (``Profile.grids(traces)``), as one more of the other workloads, named
    ``slices:<trace>``.  Most slices queue far less than the paper's workload did
    (``bench/cosy_trace_regime.py`` measures it per trace), so the paper profile also runs
    ``regime-slices:<trace>`` for each of ``Profile.regime_traces`` found: only the slices
    whose baseline mean queue wait is ``PAPER_WAIT_SHARE`` of the window, a choice made on
    baselines alone.

W readings
    The fixed policy runs under both readings of the notice rule's W
    (``schedlab.simulators.cosy.fixed_point``): ``fixed-point`` (the default, under which the
    paper's identity n = wa / wq holds) and ``running-mean``.  Every other policy reads W
    as the running mean (the oracle reads none: its W is the baseline's wq0).  Each run
    records its ``reading``.

Reservations
    For share ``p``, a random ``round(p x jobs)`` of the jobs (drawn from the workload's
    seed; nested: the 5 % subset lies inside the 10 % one, and the same for every ``n``)
    become reservations asking for the earliest start the notice rule allows,
    ``submit + n x W``, so the rule itself never rejects them; conflicts between
    reservations can.

A diagnostic, not in the paper (``policy="oracle"``): the same reservations ask for
``submit + n x wq0``, the baseline's final mean queue wait, under no notice rule; it
separates the effect of reserving from that of ``W`` lagging behind ``wq`` during a run.
A second diagnostic (``policy="requeue"``): the fixed policy, but a refused reservation
joins the queue instead of being dropped; it separates the reservations' interference
with the queue from the work that refusals take off the machine.
A third (``policy="node_bound"``): the fixed policy with every reservation bound to named
nodes when accepted, as COSY places reservations (``schedlab.simulators.cosy.node_bound``); ``q``
is then against the same node-level simulator without reservations.

Per run: ``q = wq / wq0`` against the same workload's baseline; ``q_matched``, the mean
wait of this run's queue jobs over the baseline mean wait of the same jobs (equal to
``q`` in expectation when the queue jobs are a random subset, as in the paper's design,
but not when refusals pick out large jobs); and the metrics of ``schedlab.simulators.cosy.run``.  ``schedlab.reports.cosy.summarize`` gives mean and 95 % t-interval over seeds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from schedlab.errors import SchedlabError
from schedlab.simulators.batch.conventions import default_inputs
from schedlab.simulators.cosy.fixed_point import FIXED_POINT, RUNNING_MEAN, WAIT_READINGS, solve_fixed_point
from schedlab.simulators.cosy.node_bound import simulate_node_bound
from schedlab.simulators.cosy.notice import NoNotice, notice_policy
from schedlab.simulators.cosy.scheduler import EXACT_START, ReservationRequest
from schedlab.simulators.cosy.run import simulate_cosy
from schedlab.workloads import cirne_berman
from schedlab.workloads.cirne_berman import MACHINE_NODES as CIRNE_BERMAN_NODES
from schedlab.workloads.cirne_berman import cirne_berman_jobs
from schedlab.workloads.log_uniform import log_uniform_jobs
from schedlab.workloads.model import EXACT_ESTIMATES, builtin_lublin_feitelson_model
from schedlab.workloads.synthesis import synthesize
from schedlab.workloads.trace_slice import slice_count, trace_slice

MACHINE_NODES = 32
TARGET_BASELINE_UTILIZATION = 0.74
UTILIZATION_TOLERANCE = 0.01
LOAD_RANGE = (0.3, 4.0)
TUNING_STEPS = 16
RESERVATION_STREAM = 2004  # mixed with the workload seed: the reservation subset's own stream
# The paper's baseline mean queue wait as a share of its run window, worked back from its
# Table 1 (utilization falling to 37-41 % at large n means the window roughly doubled).
PAPER_WAIT_SHARE = (0.20, 0.28)

POINT_METRICS = (
    "q", "q_matched", "utilization", "rejection_rate", "measured_notice", "max_queue_wait", "mean_queue_wait", "rejected_work_share",
)
BASELINE_WAIT_READING = "baseline wq0"  # the oracle's W
SHARES = (0.05, 0.10, 0.15, 0.20)
ORACLE, REQUEUE, NODE_BOUND = "oracle", "requeue", "node_bound"
EXPERIMENT_POLICIES = ("fixed", "adaptive", ORACLE, REQUEUE, NODE_BOUND)
DIAGNOSTICS = (ORACLE, REQUEUE, NODE_BOUND)
CIRNE_BERMAN, LUBLIN_FEITELSON, LOG_UNIFORM = "cirne-berman", "lublin-feitelson", "log-uniform"
CIRNE_BERMAN_RUN_TIMES, CIRNE_BERMAN_BURST = "cirne-berman-run-times", "cirne-berman-burst"
CIRNE_BERMAN_MODELS = {
    CIRNE_BERMAN: cirne_berman.DEFAULT,
    CIRNE_BERMAN_RUN_TIMES: cirne_berman.RUN_TIMES,
    CIRNE_BERMAN_BURST: cirne_berman.BURST,
}
LOG_UNIFORM_NARROW, LOG_UNIFORM_WIDE = "log-uniform-narrow", "log-uniform-wide"
# The log-uniform models (``schedlab.workloads.log_uniform`` arguments): the default, run times from 20
# minutes to 20 hours on 1 to 32 nodes; run times more alike (within a factor of 10); and those
# on wide jobs only (8 to 32 nodes).  Each range puts 100 jobs at the 74 % baseline over about a
# week (the schedule does not depend on the time unit, only on these ratios).  The last two
# were chosen while looking for the setting that shows the paper's trends, after the first
# had shown a smaller effect.
LOG_UNIFORM_MODELS = {
    LOG_UNIFORM: {"runtime_range": (1_200.0, 72_000.0), "size_range": (1, 32)},
    LOG_UNIFORM_NARROW: {"runtime_range": (4_320.0, 43_200.0), "size_range": (1, 32)},
    LOG_UNIFORM_WIDE: {"runtime_range": (2_160.0, 21_600.0), "size_range": (8, 32)},
}
WORKLOAD_MODELS = (*CIRNE_BERMAN_MODELS, LUBLIN_FEITELSON, *LOG_UNIFORM_MODELS)
REGIME_POLICIES = ("fixed", REQUEUE, ORACLE)
SLICES_PREFIX = "slices:"  # a workload name "slices:<trace>": the slices of that trace
REGIME_SLICES_PREFIX = "regime-slices:"  # those of its slices in the paper's regime (PAPER_WAIT_SHARE)


def slices_workload(trace: str, regime_only: bool = False) -> str:
    return (REGIME_SLICES_PREFIX if regime_only else SLICES_PREFIX) + trace


def sliced_trace(workload: str) -> str | None:
    """The trace a ``slices:<trace>`` or ``regime-slices:<trace>`` workload name names; None for a model's name."""
    for prefix in (SLICES_PREFIX, REGIME_SLICES_PREFIX):
        if workload.startswith(prefix):
            return workload[len(prefix):]
    return None


def slices_wait_share(workload: str) -> tuple[float, float] | None:
    """The baseline wait share a trace-slice workload keeps its slices within; None: every slice."""
    return PAPER_WAIT_SHARE if workload.startswith(REGIME_SLICES_PREFIX) else None


def check_workload_name(workload: str) -> None:
    if workload not in WORKLOAD_MODELS and not sliced_trace(workload):
        raise SchedlabError(f"unknown workload {workload!r}: one of {', '.join(WORKLOAD_MODELS)}, "
                            f"{SLICES_PREFIX}<trace> or {REGIME_SLICES_PREFIX}<trace>")


class Point(NamedTuple):
    """One point of the experiment: ``share`` of the jobs are reservations under ``policy`` (with its notice
    ``factor``; None for the adaptive policy), which reads W as ``reading``."""

    share: float
    policy: str
    factor: float | None
    reading: str = FIXED_POINT


@dataclass(frozen=True)
class Profile:
    """An experiment grid: sizes and seed counts of the ledger's workload, reservation shares, notice
    factors, and the other workloads' coarser grid."""

    name: str
    variants: tuple[tuple[int, int], ...]  # (jobs per workload, workloads) of ``workload``
    shares: tuple[float, ...]
    factors: tuple[float, ...]

    oracle_factors: tuple[float, ...] = (1.0, 4.0)
    requeue_factors: tuple[float, ...] = (1.0, 4.0)
    node_bound_factors: tuple[float, ...] = (1.0, 4.0)
    regime_variants: tuple[tuple[str, int, int], ...] = ()  # (other workload, jobs, workloads)
    regime_factors: tuple[float, ...] = (1.0, 2.0, 4.0)
    readings: tuple[str, ...] = (FIXED_POINT, RUNNING_MEAN)  # of the fixed policy; the first is the ledger's
    trace_slice_variant: tuple[int, int] = (100, 30)  # (jobs per slice, slices) of each trace given to grids()
    regime_traces: tuple[str, ...] = ()  # traces whose in-regime slices run when found (``regime-slices:``)
    workload: str = CIRNE_BERMAN  # the workload the ledger judges

    def points(self) -> list[Point]:
        """Every point of the ledger's workload; the adaptive policy has no factor."""
        return [
            Point(share, policy, factor, reading)
            for share in self.shares
            for policy, factor, reading in [
                *(("fixed", f, r) for r in self.readings for f in self.factors),
                ("adaptive", None, RUNNING_MEAN),
                *((ORACLE, f, BASELINE_WAIT_READING) for f in self.oracle_factors),
                *((REQUEUE, f, RUNNING_MEAN) for f in self.requeue_factors),
                *((NODE_BOUND, f, RUNNING_MEAN) for f in self.node_bound_factors),
            ]
        ]

    def regime_points(self) -> list[Point]:
        """The points of the other workloads' runs."""
        return [
            Point(share, policy, f, reading)
            for share in self.shares
            for policy in REGIME_POLICIES
            for reading in (self.readings if policy == "fixed" else (reading_of(policy),))
            for f in self.regime_factors
        ]

    def grids(self, traces=(), regime_traces=()) -> list[tuple[str, int, int, list]]:
        """(workload, jobs, workloads, points) of every set of runs; the slices of each of
        ``traces``, and the in-regime slices of each of ``regime_traces``, join the other workloads."""
        slice_jobs, slices = self.trace_slice_variant
        return (
            [(self.workload, jobs, count, self.points()) for jobs, count in self.variants]
            + [(workload, jobs, count, self.regime_points()) for workload, jobs, count in self.regime_variants]
            + [(slices_workload(trace), slice_jobs, slices, self.regime_points()) for trace in traces]
            + [(slices_workload(trace, regime_only=True), slice_jobs, slices, self.regime_points())
               for trace in regime_traces]
        )


OTHER_WORKLOADS = (CIRNE_BERMAN_RUN_TIMES, CIRNE_BERMAN_BURST, LUBLIN_FEITELSON, *LOG_UNIFORM_MODELS)
PROFILES = {
    # CI: a couple of minutes at most; still 30 seeds of the paper's size, as 100 jobs are noisy.
    "quick": Profile(
        "quick", ((100, 30),), SHARES, (0.5, 1.0, 2.0, 3.0, 4.0, 6.0),
        regime_variants=tuple((model, 100, 30) for model in OTHER_WORKLOADS),
    ),
    "paper": Profile(
        "paper", ((100, 100),), SHARES, (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0),
        regime_variants=tuple((model, 100, 100) for model in OTHER_WORKLOADS), trace_slice_variant=(100, 100),
        # The trace whose slices most often queue as the paper's workload did (12 of its 178,
        # bench/cosy_trace_regime.py; CEA-Curie: 4 of the first 300, too few to search them all).
        regime_traces=("MetaCentrum-wagap-2013.extended",),
    ),
}


@dataclass(frozen=True)
class TunedWorkload:
    seed: int
    offered_load: float
    baseline: dict  # metrics of the run without reservations
    jobs: pd.DataFrame  # with BASELINE_WAIT: each job's wait in that run


BASELINE_WAIT = "baseline_wait"


def baseline_run(jobs: pd.DataFrame, nodes: int) -> tuple[dict, np.ndarray]:
    """The run without reservations: its metrics (with the submission span) and each job's wait,
    start minus submission, in the rows' order of ``jobs``."""
    batch = default_inputs(jobs, nodes, "requested")
    result = simulate_cosy(batch, nodes)
    submits = jobs["submit_time"]
    result.metrics["submission_span"] = float(submits.max() - submits.min())
    waits = np.empty(len(batch))
    waits[batch.source_row] = result.columns["start"] - result.columns["submit"]
    return result.metrics, waits


def baseline_wait_share(metrics: dict) -> float:
    """A run's mean queue wait as a share of its window, first submission to last end."""
    return metrics["mean_queue_wait"] / metrics["makespan"]


@dataclass(frozen=True)
class TraceSlices:
    """Slices of one clean trace as the experiment's workloads; see the module docstring."""

    name: str
    jobs: pd.DataFrame  # every job's run time already set to its requested time
    procs: int  # the trace's machine size
    wait_share: tuple[float, float] | None = None  # keep only slices whose baseline wait share is in it

    @classmethod
    def of_trace(cls, name: str, jobs: pd.DataFrame, procs: int, wait_share=None) -> TraceSlices:
        requested = jobs["requested_time"].to_numpy(dtype=np.float64)
        return cls(name, jobs.assign(run_time=np.where(requested > 0, requested, jobs["run_time"])), procs, wait_share)

    def keeps(self, baseline: dict) -> bool:
        """Whether a tuned slice's baseline is in ``wait_share`` (always, without one)."""
        if self.wait_share is None:
            return True
        low, high = self.wait_share
        return low <= baseline_wait_share(baseline) <= high

    def generate(self, n_jobs: int, nodes: int, load: float, seed: int) -> pd.DataFrame:
        return trace_slice(self.jobs, self.procs, n_jobs, nodes, seed, load)

    def slices(self, n_jobs: int) -> int:
        return slice_count(self.jobs, n_jobs)


def generate_workload(workload, n_jobs: int, nodes: int, load: float, seed: int) -> pd.DataFrame:
    """``n_jobs`` jobs offering ``load`` on ``nodes`` processors, of one of ``WORKLOAD_MODELS`` or of
    any source with that ``generate(n_jobs, nodes, load, seed)`` (a trace's slices, a calibration's variant)."""
    if not isinstance(workload, str):
        return workload.generate(n_jobs, nodes, load, seed)
    if workload in CIRNE_BERMAN_MODELS:
        if nodes != CIRNE_BERMAN_NODES:
            raise SchedlabError(f"the {workload} sizes are set for {CIRNE_BERMAN_NODES} nodes, not {nodes}")
        return cirne_berman_jobs(n_jobs, nodes, seed, load, CIRNE_BERMAN_MODELS[workload])
    if workload == LUBLIN_FEITELSON:
        return synthesize(builtin_lublin_feitelson_model(EXACT_ESTIMATES), n_jobs, nodes, load, seed)
    if workload in LOG_UNIFORM_MODELS:
        return log_uniform_jobs(n_jobs, nodes, seed, load, **LOG_UNIFORM_MODELS[workload])
    raise ValueError(f"unknown workload model {workload!r}; choose one of {WORKLOAD_MODELS}")


def tune_workload(seed: int, n_jobs: int, nodes: int, target: float, workload=CIRNE_BERMAN) -> TunedWorkload | None:
    """Bisect the offered load (log scale) until the baseline utilization is ``target``;
    None if it cannot get within ``UTILIZATION_TOLERANCE``.  The jobs keep their wait in
    the baseline run (``BASELINE_WAIT``), which every point's ``q_matched`` needs."""
    low, high = math.log(LOAD_RANGE[0]), math.log(LOAD_RANGE[1])
    best = None  # (distance to the target, load, metrics, jobs, waits)
    for _ in range(TUNING_STEPS):
        load = math.exp((low + high) / 2)
        jobs = generate_workload(workload, n_jobs, nodes, load, seed)
        metrics, waits = baseline_run(jobs, nodes)
        distance = abs(metrics["utilization"] - target)
        if best is None or distance < best[0]:
            best = (distance, load, metrics, jobs, waits)
        if metrics["utilization"] < target:
            low = math.log(load)
        else:
            high = math.log(load)
    distance, load, metrics, jobs, waits = best
    if distance > UTILIZATION_TOLERANCE:
        return None
    return TunedWorkload(seed, load, metrics, jobs.assign(**{BASELINE_WAIT: waits}))


def select_workloads(
    count: int, n_jobs: int, nodes: int = MACHINE_NODES, target: float = TARGET_BASELINE_UTILIZATION,
    workload=CIRNE_BERMAN, max_candidates: int | None = None, fewer_ok: bool = False,
) -> tuple[list[TunedWorkload], int]:
    """The first ``count`` seeds whose workload tunes to ``target``; also how many seeds were tried
    (a trace's slices are numbered like seeds, and are tried until they run out; a slice outside
    the source's ``wait_share`` is passed over like one that does not tune).  With
    ``fewer_ok``, running out of candidates leaves fewer workloads (at least two) instead of failing."""
    max_candidates = max_candidates or 20 * count
    if isinstance(workload, TraceSlices):
        max_candidates = min(max_candidates, workload.slices(n_jobs))
    chosen, seed = [], 0
    while len(chosen) < count:
        if seed >= max_candidates:
            if fewer_ok and len(chosen) >= 2:
                break
            raise SchedlabError(f"only {len(chosen)} of {max_candidates} seeds tune to utilization {target}")
        tuned = tune_workload(seed, n_jobs, nodes, target, workload)
        if tuned is not None and (not isinstance(workload, TraceSlices) or workload.keeps(tuned.baseline)):
            chosen.append(tuned)
        seed += 1
    return chosen, seed


def reservation_jobs(n_jobs: int, share: float, seed: int) -> np.ndarray:
    """Indices of the jobs turned into reservations (nested across shares, fixed across n)."""
    order = np.random.default_rng([seed, RESERVATION_STREAM]).permutation(n_jobs)
    return np.sort(order[: int(round(share * n_jobs))])


def reading_of(policy: str, reading: str = FIXED_POINT) -> str:
    """The W reading a run of ``policy`` uses: ``reading`` for the fixed policy (see the module docstring)."""
    if policy != "fixed":
        return BASELINE_WAIT_READING if policy == ORACLE else RUNNING_MEAN
    if reading not in WAIT_READINGS:
        raise SchedlabError(f"unknown W reading {reading!r}: one of {', '.join(WAIT_READINGS)}")
    return reading


def run_point(workload: TunedWorkload, nodes: int, share: float, policy: str, factor: float | None,
              reading: str = FIXED_POINT) -> dict:
    """One run of one workload: ``share`` of its jobs are reservations under a notice policy
    (or one of the diagnostics, see the module docstring), measured against the same
    simulator's run without reservations: the one tuning kept, or for ``node_bound`` the
    node-level run.  ``reading`` (fixed policy only): how W is read.  Besides the metrics,
    ``notice_wait`` (the constant W of a fixed-point or oracle run, else NaN) and the
    fixed-point search's ``fixed_point_runs`` and ``fixed_point_converged`` (NaN elsewhere)."""
    reading = reading_of(policy, reading)
    batch = default_inputs(workload.jobs, nodes, "requested")
    chosen = reservation_jobs(len(batch), share, workload.seed)
    if policy == NODE_BOUND:
        simulate = simulate_node_bound
        baseline = simulate_node_bound(batch, nodes)
        wq0, baseline_waits = baseline.metrics["mean_queue_wait"], baseline.columns["start"] - batch.submit
    else:
        simulate = simulate_cosy
        wq0 = workload.baseline["mean_queue_wait"]
        baseline_waits = workload.jobs[BASELINE_WAIT].to_numpy()[batch.source_row]
    search = {"notice_wait": math.nan, "fixed_point_runs": math.nan, "fixed_point_converged": math.nan}
    if policy == ORACLE:
        reservations = {int(j): ReservationRequest(EXACT_START, batch.submit[j] + factor * wq0) for j in chosen}
        result = simulate(batch, nodes, reservations=reservations, notice=NoNotice())
        search["notice_wait"] = wq0
    else:
        reservations = {int(j): ReservationRequest() for j in chosen}
        notice = notice_policy("fixed" if policy in (REQUEUE, NODE_BOUND) else policy, factor)
        options = {"requeue_refused": True} if policy == REQUEUE else {}
        if reading == FIXED_POINT:
            fixed_point = solve_fixed_point(
                lambda mean_wait: simulate(batch, nodes, reservations=reservations, notice=notice, mean_wait=mean_wait), wq0
            )
            result = fixed_point.result
            search = {"notice_wait": fixed_point.mean_wait, "fixed_point_runs": float(fixed_point.runs),
                      "fixed_point_converged": float(fixed_point.converged)}
        else:
            result = simulate(batch, nodes, reservations=reservations, notice=notice, **options)
    metrics = result.metrics
    metrics["q"] = metrics["mean_queue_wait"] / wq0 if wq0 > 0 else math.nan
    metrics["q_matched"] = matched_queue_wait_ratio(result.columns, baseline_waits)
    return {**metrics, **search}


def matched_queue_wait_ratio(run: dict, baseline_waits: np.ndarray) -> float:
    """Mean wait of the run's queue jobs (those that went through the queue and ran) over the
    mean wait the same jobs had in the baseline run; ``run``: the run's columns
    (``CosyResult.columns``), ``baseline_waits``: each job's baseline wait in the same order."""
    outcome = run["outcome"]
    queued = (outcome == "requeued") | ((outcome == "ran") & (run["kind"] == "queue"))
    if not queued.any():
        return math.nan
    waits = (run["start"] - run["submit"])[queued]
    before = baseline_waits[queued]
    return float(waits.mean() / before.mean()) if before.mean() > 0 else math.nan
