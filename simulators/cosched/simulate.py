"""One point of the coscheduling study simulated: the stage's ``simulate(point)`` (docs/architecture.md,
"Anatomy of a stage").

The point (``schedlab.simulators.cosched.experiments.Point``) fixes the series, its x, the scheme combination
and the seed; machine A's month, the fitted model B is drawn from and B's shortest run time come from the
pipeline's earlier tasks.  ``simulate`` draws B, pairs the machines' jobs, runs both machines in one loop
(``schedlab.simulators.cosched.run.cosimulate``) and returns both schedules with the point's row.
"""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pandas as pd

from schedlab.simulators.cosched.coscheduler import CoschedSettings
from schedlab.simulators.cosched.experiments import (
    ANALYSIS_PROCS,
    BASELINE,
    COMBINATIONS,
    PAIRING_WINDOW_SECONDS,
    RATIO_PAIRING,
    Point,
    analysis_workload,
    job_diagnostics,
    max_pair_start_gap,
    workload_facts,
)
from schedlab.simulators.cosched.run import MACHINE_NAMES, cosimulate
from schedlab.simulators.cosched.workloads import SECONDS_PER_DAY, make_pairs


def simulate(point: Point, jobs_a: pd.DataFrame, procs_a: int, model: dict,
             min_runtime: float = 0.0) -> tuple[pd.DataFrame, dict]:
    """Both machines' schedules in one table (a ``machine`` column), and the point's row as ``summary.json``
    holds it (JSON-able)."""
    jobs_b = analysis_workload(point, model, jobs_a, min_runtime)
    if point.series == "load":
        pairing = make_pairs(jobs_a, jobs_b, "window", PAIRING_WINDOW_SECONDS)
    else:
        pairing = make_pairs(jobs_a, jobs_b, RATIO_PAIRING[point.ratio_arrivals], point.x, PAIRING_WINDOW_SECONDS)
    settings = None
    if point.scheme != BASELINE:
        settings = CoschedSettings(COMBINATIONS[point.scheme], release_period=None if not point.release else 1200.0)
    result = cosimulate(jobs_a, procs_a, jobs_b, ANALYSIS_PROCS, pairing.pairs, settings)
    window_start = float(jobs_a["submit_time"].min())
    if result.deadlock["deadlock"]:
        result.deadlock["day"] = (result.deadlock["time"] - window_start) / SECONDS_PER_DAY
    result.deadlock["last_start_day"] = {name: (t - window_start) / SECONDS_PER_DAY
                                         for name, t in result.deadlock["last_start"].items()}
    summary = {
        "point": asdict(point),
        "pairing": {**pairing.summary(), "mean_abs_submit_gap": float(pairing.pairs["submit_gap"].abs().mean())},
        "workloads": {name: workload_facts(jobs, procs) for name, jobs, procs in
                      zip(MACHINE_NAMES, (jobs_a, jobs_b), (procs_a, ANALYSIS_PROCS))},
        "diagnostics": {name: job_diagnostics(result.schedules[name], pairing.pairs[f"job_id_{name.lower()}"])
                        for name in MACHINE_NAMES},
        "metrics": result.metrics,
        "deadlock": result.deadlock,
        "max_pair_start_gap": max_pair_start_gap(result.schedules["A"], result.schedules["B"]) if settings else np.nan,
    }
    schedule = pd.concat(
        [frame.assign(machine=name) for name, frame in result.schedules.items()], ignore_index=True
    )
    return schedule, summary
