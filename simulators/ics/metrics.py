"""Metrics of one ICS run (Yu, Kim and Maeng, Sect. 4.2).

- response (end - submit), wait (start - submit), execution (end - start), means over jobs;
- turnaround: end of the last job minus the first submission (the workload's makespan);
- utilization: share of all CPU time (nodes x turnaround) spent computing;
- slowdown: execution time over the job's dedicated time (its iterations run alone,
  without skew or scheduling costs);
- fairness: coefficient of variation (population std / mean) of the mean slowdown of
  each job type (J1..J4, or NPB application);
- BCR: boost conflicts over context switches, FDR: false decisions over boost
  conflicts, both pooled over all nodes (the paper averages per node; pooling weighs
  busy nodes more and avoids dividing by nodes that never switched);
- CPU profile: share of CPU time per category (compute, spin, idle, real-idle, switch,
  overhead), pooled over nodes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulators.ics.state import CPU_CATEGORIES


def job_table(jobs) -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "job_id": [job.job_id for job in jobs],
            "kind": [job.kind for job in jobs],
            "type": [job.kind.split("-")[0] for job in jobs],
            "procs": [job.size for job in jobs],
            "iterations": [job.iterations for job in jobs],
            "submit": [job.submit for job in jobs],
            "start": [job.start for job in jobs],
            "end": [job.end for job in jobs],
            "dedicated": [job.dedicated_time for job in jobs],
        }
    )
    frame["wait"] = frame["start"] - frame["submit"]
    frame["execution"] = frame["end"] - frame["start"]
    frame["response"] = frame["end"] - frame["submit"]
    frame["slowdown"] = frame["execution"] / frame["dedicated"]
    return frame


def fairness_cv(jobs: pd.DataFrame) -> float:
    by_type = jobs.groupby("type")["slowdown"].mean().to_numpy()
    if len(by_type) < 2:
        return 0.0
    return float(np.std(by_type) / np.mean(by_type))


def summarize(jobs: pd.DataFrame, nodes, makespan_end: float) -> dict:
    first_submit = float(jobs["submit"].min())
    turnaround = makespan_end - first_submit
    accounts = np.sum([node.accounts for node in nodes], axis=0)
    total_cpu = accounts.sum()
    switches = sum(node.switches for node in nodes)
    conflicts = sum(node.conflicts for node in nodes)
    false_decisions = sum(node.false_decisions for node in nodes)
    summary = {
        "jobs": int(len(jobs)),
        "mean_response": float(jobs["response"].mean()),
        "mean_wait": float(jobs["wait"].mean()),
        "mean_execution": float(jobs["execution"].mean()),
        "turnaround": float(turnaround),
        "utilization": float(accounts[0] / (len(nodes) * turnaround)) if turnaround > 0 else 0.0,
        "mean_slowdown": float(jobs["slowdown"].mean()),
        "fairness_cv": fairness_cv(jobs),
        "context_switches": int(switches),
        "boost_conflicts": int(conflicts),
        "false_decisions": int(false_decisions),
        "bcr": conflicts / switches if switches else 0.0,
        "fdr": false_decisions / conflicts if conflicts else 0.0,
    }
    for name, seconds in zip(CPU_CATEGORIES, accounts):
        summary[f"share_{name}"] = float(seconds / total_cpu) if total_cpu > 0 else 0.0
    for kind, slowdown in jobs.groupby("type")["slowdown"].mean().items():
        summary[f"slowdown_{kind}"] = float(slowdown)
    return summary
