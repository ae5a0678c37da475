"""Metrics of one ICS run (Yu, Kim and Maeng, Sect. 4.2), from a kernel outcome.

Per job: response (end - submit), wait (start - submit), execution (end - start) and
slowdown (execution over the job's dedicated time: its iterations run alone, without
skew or scheduling costs).

Steady state.  A workload whose jobs arrive over time starts on an empty cluster and
ends draining it; neither is the loaded regime the paper studies.  The job metrics
(mean response, wait, execution, slowdown, per-type slowdown, fairness) therefore
average only the *measured* jobs: all but the first ``WARMUP_SHARE`` and the last
``DRAIN_SHARE`` of the jobs in arrival order.  The *measurement window* runs from the
arrival of the first measured job to the arrival of the last one.  When every job
arrives at time 0 (the skew, Fig. 13 NPB and compression experiments) there is no
arrival process and every job is measured; Fig. 14's NPB mix arrives over time and is
measured like the synthetic workloads.

- processes per node: the time-average, over the window and the nodes, of the
  processes resident on a node (started, not finished); with every job at time 0, over
  the whole run.  This is the regime the paper's "MPL 5, heavy load" describes.
- turnaround: end of the last job minus the first submission (the workload's makespan);
- utilization: share of all CPU time (nodes x turnaround) spent computing;
- fairness: coefficient of variation (population std / mean) of the mean slowdown of
  each job type (J1..J4, or NPB application);
- BCR: boost conflicts over scheduling decisions, FDR: false decisions over boost
  conflicts (``kernel.Kernel.count_decision``), over the whole run.  ``bcr``/``fdr``
  average the ratio per node, as the paper does ("averaged over all nodes"; a node
  without decisions, or without conflicts for FDR, has no ratio and is left out); they
  are the headline.  ``bcr_pooled``/``fdr_pooled`` divide the sums over nodes instead,
  weighing busy nodes more.
- CPU profile: share of CPU time per category (compute, spin, idle, real-idle, switch,
  overhead), pooled over nodes, over the whole run.
- job lengths against the schedulers' time slices: the fraction of measured jobs the
  workload lengthened to its iteration floor, and of those shorter (dedicated) than one
  gang quantum (0.1 s, within the TS quanta of 20-200 ms); the mean slowdown of the
  short and of the long jobs, and the fairness CV over the long jobs alone.  Time
  compression makes many jobs that short, and a job shorter than a time slice measures
  where its slices fell more than how the scheme shares the CPU; these say how much of
  a slowdown or fairness figure comes from such jobs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from schedlab.simulators.ics.outcome import KernelOutcome
from schedlab.simulators.ics.schemes.gang import GANG_QUANTUM
from schedlab.simulators.ics.state import CPU_CATEGORIES

WARMUP_SHARE = 0.2
DRAIN_SHARE = 0.2


def job_table(jobs, outcome: KernelOutcome) -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "job_id": [job.job_id for job in jobs],
            "kind": [job.kind for job in jobs],
            "type": [job.kind.split("-")[0] for job in jobs],
            "procs": [job.size for job in jobs],
            "iterations": [job.iterations for job in jobs],
            "submit": [job.submit for job in jobs],
            "start": outcome.job_start,
            "end": outcome.job_end,
            "dedicated": [job.dedicated_time for job in jobs],
            "lengthened": [job.lengthened for job in jobs],
        }
    )
    frame["wait"] = frame["start"] - frame["submit"]
    frame["execution"] = frame["end"] - frame["start"]
    frame["response"] = frame["end"] - frame["submit"]
    frame["slowdown"] = frame["execution"] / frame["dedicated"]
    frame["measured"] = measured_jobs(frame["submit"].to_numpy())
    return frame


def measured_jobs(submits: np.ndarray) -> np.ndarray:
    """Which jobs the steady-state metrics average (see the module docstring)."""
    n = len(submits)
    if n == 0 or np.all(submits == submits[0]):
        return np.ones(n, dtype=bool)
    order = np.argsort(submits, kind="stable")
    first, last = int(np.floor(WARMUP_SHARE * n)), n - int(np.floor(DRAIN_SHARE * n))
    measured = np.zeros(n, dtype=bool)
    measured[order[first:last]] = True
    return measured


def measurement_window(jobs: pd.DataFrame, end: float) -> tuple[float, float]:
    submits = jobs.loc[jobs["measured"], "submit"]
    low, high = float(submits.min()), float(submits.max())
    if high <= low:  # every job at time 0: the whole run
        return float(jobs["submit"].min()), end
    return low, high


def processes_per_node(jobs: pd.DataFrame, outcome: KernelOutcome, n_nodes: int, window: tuple[float, float]) -> float:
    """Time-average of the processes resident per node within ``window``."""
    low, high = window
    if high <= low:
        return 0.0
    starts = np.repeat(outcome.job_start, jobs["procs"].to_numpy())
    finishes = np.concatenate(outcome.process_finish) if outcome.process_finish else np.zeros(0)
    resident = np.clip(np.minimum(finishes, high) - np.maximum(starts, low), 0.0, None).sum()
    return float(resident / (n_nodes * (high - low)))


def fairness_cv(jobs: pd.DataFrame) -> float:
    by_type = jobs.groupby("type")["slowdown"].mean().to_numpy()
    if len(by_type) < 2:
        return 0.0
    return float(np.std(by_type) / np.mean(by_type))


def job_length_metrics(measured: pd.DataFrame) -> dict:
    """How much of the slowdown and fairness figures comes from jobs shorter than a time slice (module docstring)."""
    short = measured["dedicated"] < GANG_QUANTUM
    long_jobs = measured[~short]

    def mean_or_none(values: pd.Series):
        return float(values.mean()) if len(values) else None

    return {
        "lengthened_job_fraction": float(measured["lengthened"].mean()) if len(measured) else 0.0,
        "short_job_fraction": float(short.mean()) if len(measured) else 0.0,
        "short_job_slowdown": mean_or_none(measured.loc[short, "slowdown"]),
        "long_job_slowdown": mean_or_none(long_jobs["slowdown"]),
        "long_job_fairness_cv": fairness_cv(long_jobs) if len(long_jobs) else None,
    }


def per_node_ratio(numerators: np.ndarray, denominators: np.ndarray) -> float:
    """Mean over nodes with a non-zero denominator of numerator / denominator (0 if none)."""
    counted = denominators > 0
    if not counted.any():
        return 0.0
    return float(np.mean(numerators[counted] / denominators[counted]))


def summarize(jobs: pd.DataFrame, outcome: KernelOutcome, n_nodes: int) -> dict:
    first_submit = float(jobs["submit"].min())
    turnaround = outcome.end - first_submit
    accounts = outcome.accounts.sum(axis=0)
    total_cpu = accounts.sum()
    decisions, conflicts, false_decisions = (
        int(outcome.decisions.sum()), int(outcome.conflicts.sum()), int(outcome.false_decisions.sum())
    )
    measured = jobs[jobs["measured"]]
    window = measurement_window(jobs, outcome.end)
    summary = {
        "jobs": int(len(jobs)),
        "measured_jobs": int(len(measured)),
        "window_start": window[0],
        "window_end": window[1],
        "processes_per_node": processes_per_node(jobs, outcome, n_nodes, window),
        "mean_response": float(measured["response"].mean()),
        "mean_wait": float(measured["wait"].mean()),
        "mean_execution": float(measured["execution"].mean()),
        "turnaround": float(turnaround),
        "utilization": float(accounts[0] / (n_nodes * turnaround)) if turnaround > 0 else 0.0,
        "mean_slowdown": float(measured["slowdown"].mean()),
        "fairness_cv": fairness_cv(measured),
        **job_length_metrics(measured),
        "context_switches": int(outcome.switches.sum()),
        "decisions": decisions,
        "boost_conflicts": conflicts,
        "false_decisions": false_decisions,
        "bcr": per_node_ratio(outcome.conflicts, outcome.decisions),
        "fdr": per_node_ratio(outcome.false_decisions, outcome.conflicts),
        "fdr_chance": per_node_ratio(outcome.chance_false, outcome.conflicts),
        "bcr_pooled": conflicts / decisions if decisions else 0.0,
        "fdr_pooled": false_decisions / conflicts if conflicts else 0.0,
    }
    for name, seconds in zip(CPU_CATEGORIES, accounts):
        summary[f"share_{name}"] = float(seconds / total_cpu) if total_cpu > 0 else 0.0
    for kind, slowdown in measured.groupby("type")["slowdown"].mean().items():
        summary[f"slowdown_{kind}"] = float(slowdown)
    return summary
