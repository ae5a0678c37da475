"""One point of the COSY experiment simulated: the stage's ``simulate(point)`` (docs/architecture.md, "Anatomy
of a stage").

A point (``schedlab.simulators.cosy.experiments.Point``) is a reservation share, a notice policy with its factor
and how it reads W; it runs on every tuned workload of a set, the same workloads for every point (common random
numbers), each run as ``schedlab.simulators.cosy.experiments.run_point`` describes.
"""

from __future__ import annotations

import pandas as pd

from schedlab.simulators.cosy.experiments import MACHINE_NODES, Point, Profile, reading_of, run_point, select_workloads


def simulate(point: Point, workloads, nodes: int = MACHINE_NODES) -> pd.DataFrame:
    """One row per workload: its seed, the point's parameters (with the W reading used) and every metric."""
    used = reading_of(point.policy, point.reading)
    return pd.DataFrame([
        {"seed": w.seed, "share": point.share, "policy": point.policy, "factor": point.factor, "reading": used,
         **run_point(w, nodes, **point._asdict())}
        for w in workloads
    ])


def simulate_profile(profile: Profile, nodes: int = MACHINE_NODES) -> pd.DataFrame:
    """Every run of a profile without the pipeline (tests, the bench): one row per run."""
    frames = []
    for workload, n_jobs, count, points in profile.grids():
        workloads, _ = select_workloads(count, n_jobs, nodes, workload=workload)
        frames.extend(simulate(point, workloads, nodes).assign(jobs_per_workload=n_jobs, workload=workload)
                      for point in points)
    return pd.concat(frames, ignore_index=True)
