"""Policies compared on resampled workloads, open- and closed-loop: the runs behind a trace's intervals.

One log gives one replay per policy and no interval.  Here each of ``seeds`` is one user-based
resample of the log (``schedlab.workloads.resampling``), and every policy replays the same
resamples (common random numbers), once open-loop (the resample's submit times) and once
closed-loop (its users' dependent sessions arriving after the sessions they waited for end,
``schedlab.simulators.batch.feedback``).  The runs table has one row per (seed, policy,
arrivals) with the replay's metrics; ``schedlab.reports.resampled`` turns it into paired
per-seed differences with 95 % intervals.
"""

from __future__ import annotations

import pandas as pd

from schedlab.simulators.batch.replay import replay
from schedlab.simulators.core.tails import wait_tails
from schedlab.workloads.resampling import UserActivity, resample
from schedlab.workloads.sessions import find_sessions

ARRIVALS = ("open-loop", "closed-loop")
RUN_METRICS = ("mean_wait", "p95_wait", "mean_bsld", "utilization", "makespan")
RUN_TAILS = ("max_wait", "over_a_week", "worst_user_mean_wait")
"""Of ``schedlab.simulators.core.tails``: what the means hide (the longest wait, the jobs waiting over a week,
the worst-served user), per run."""


def resampled_runs(activity: UserActivity, machine_procs: int, policies, seeds, order: str = "fcfs",
                   estimates: str = "requested", progress=None) -> pd.DataFrame:
    """One row per (seed, policy, arrivals): the metrics of ``RUN_METRICS`` and ``RUN_TAILS``, the resample's job
    count."""
    rows = []
    for done, seed in enumerate(seeds):
        workload = resample(activity, machine_procs, seed)
        sessions = find_sessions(workload)
        for policy in policies:
            for arrivals, feedback in zip(ARRIVALS, (None, sessions)):
                result = replay(workload, machine_procs, policy=policy, order=order, estimates=estimates,
                                sessions=feedback)
                schedule = result.schedule_columns
                users = workload.set_index("job_id")["user_id"].reindex(schedule["job_id"]).to_numpy()
                tails = wait_tails(schedule["start"] - schedule["submit"], users)
                rows.append({"seed": seed, "policy": policy, "arrivals": arrivals, "jobs": len(workload),
                             **{metric: result.metrics[metric] for metric in RUN_METRICS},
                             **{metric: tails[metric] for metric in RUN_TAILS}})
        if progress is not None:
            progress(done + 1, len(seeds))
    return pd.DataFrame(rows)
