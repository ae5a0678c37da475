"""A run whose queue grows without bound is stopped and reported as saturated."""

from __future__ import annotations

import math

from simulators.bandwidth.simulate import run_workload, summarise
from simulators.bandwidth.workload import make_workload


def test_unstable_run_is_stopped_and_flagged():
    workload = make_workload("synthetic", 1500, seed=2, ppbw=500.0)
    run = run_workload(workload, "first_fit", max_waiting=200)
    assert run.saturated and len(run.schedule) < len(workload)
    summary = summarise(run)
    assert summary["saturated"] and math.isinf(summary["mean_turnaround"])


def test_stable_run_is_not_flagged():
    run = run_workload(make_workload("synthetic", 500, seed=2, ppbw=100.0), "ics")
    assert not run.saturated and not summarise(run)["saturated"]
