"""A run whose queue grows without bound is stopped and reported as saturated, at any length."""

from __future__ import annotations

import math

from schedlab.simulators.bandwidth.simulate import (
    SATURATION_CAP, SATURATION_FLOOR, run_workload, saturation_limit, summarise,
)
from schedlab.simulators.bandwidth.workload import make_workload


def test_a_short_unstable_run_is_stopped_and_flagged_by_the_default_limit():
    # First-Fit at 1000 Mb/s per processor on the synthetic workload in the per-job order: co-allocated
    # jobs slow each other down faster than the queue drains.  12,000 jobs: stopped beyond 5,000 waiting.
    workload = make_workload("synthetic", 3000, seed=1, ppbw=1000.0)
    run = run_workload(workload, "first_fit", pass_order="per_job")
    assert run.saturated and len(run.schedule) < len(workload)
    summary = summarise(run)
    assert summary["saturated"] and math.isinf(summary["mean_turnaround"])


def test_the_same_workload_under_migration_only_is_stable():
    run = run_workload(make_workload("synthetic", 3000, seed=1, ppbw=1000.0), "migration_only")
    assert not run.saturated and not summarise(run)["saturated"]


def test_the_limit_grows_with_the_jobs_arrived_between_its_floor_and_cap():
    assert saturation_limit(12_000) == SATURATION_FLOOR
    assert saturation_limit(200_000) == 10_000
    assert saturation_limit(200_001) == 10_001
    assert saturation_limit(1_600_000) == SATURATION_CAP


def test_a_long_unstable_run_is_stopped_early_in_its_length():
    # 400,000 jobs: stopped once more than max(5,000, 5 % of the jobs arrived so far) wait; a limit on
    # the run's length alone (5 % of 400,000, capped at 20,000 waiting) lets 6.2 % of its jobs finish.
    workload = make_workload("synthetic", 100_000, seed=1, ppbw=1000.0)
    run = run_workload(workload, "first_fit", pass_order="per_job")
    assert run.saturated and len(run.schedule) < 0.03 * len(workload)


def test_stable_run_is_not_flagged():
    run = run_workload(make_workload("synthetic", 500, seed=2, ppbw=100.0), "ics")
    assert not run.saturated and not summarise(run)["saturated"]
