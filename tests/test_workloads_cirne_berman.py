"""The Cirne-Berman-like workload: typical days, the measured Argonne cycle, the generator."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import shared_path
from schedlab.workloads.cirne_berman import (
    ANL_DAY_WEIGHTS,
    ANL_HOUR_WEIGHTS,
    SIZE_RANGE,
    arrival_cycle_weights,
    cirne_berman_jobs,
    typical_days,
)
from schedlab.workloads.cycle import SECONDS_PER_DAY, SECONDS_PER_HOUR


def _submissions(per_day_hour: dict[tuple[int, int], int]) -> np.ndarray:
    """Week seconds of ``count`` submissions at each (day, hour), on the half hour."""
    return np.array([
        day * SECONDS_PER_DAY + hour * SECONDS_PER_HOUR + 1800
        for (day, hour), count in per_day_hour.items()
        for _ in range(count)
    ], dtype=float)


def test_a_day_far_from_the_median_count_is_anomalous():
    # Counts 10, 10, 2, 40, 10, 0, 11: median of the days with submissions 10, kept within [10/3, 30].
    days = np.repeat(np.arange(7), [10, 10, 2, 40, 10, 0, 11])
    assert typical_days(days).tolist() == [0, 1, 4, 6]


def test_cycle_weights_count_typical_days_only_and_weekdays_per_kept_day():
    # Monday (day 0) and the next Monday (day 7): 6 at 09:00 and 2 at 21:00 each; Tuesday (day 1) 8 at 09:00;
    # Wednesday (day 2) 40 at 03:00 is anomalous (median 8, bound 24) and must count nowhere.
    week = _submissions({(0, 9): 6, (0, 21): 2, (1, 9): 8, (2, 3): 40, (7, 9): 6, (7, 21): 2})
    hours, days, kept, spanned = arrival_cycle_weights(week)
    assert (kept, spanned) == (3, 8)  # days 0, 1, 7 of the 8 days the log spans; days 3-6 saw nothing
    expected_hours = np.zeros(24)
    expected_hours[9], expected_hours[21] = 20, 4
    np.testing.assert_allclose(hours, expected_hours / expected_hours.mean())
    # Monday: 16 submissions over two kept Mondays = 8 a day; Tuesday 8 on one; the rest never kept.
    np.testing.assert_allclose(days, np.array([8, 8, 0, 0, 0, 0, 0]) / (16 / 7))


def test_the_argonne_constants_are_measured_on_theta():
    from schedlab.parsers.cleaning import clean
    from schedlab.parsers.swf import read_swf
    from schedlab.workloads.fitting import local_week_seconds

    trace = read_swf(shared_path("traces-extra", "ALCF-Theta-2023H2.swf"))
    jobs, _ = clean(trace.jobs, trace.machine_procs)
    week = local_week_seconds(jobs["submit_time"].to_numpy(float), trace.header.unix_start_time, "America/Chicago")
    hours, days, kept, spanned = arrival_cycle_weights(week)
    assert (kept, spanned) == (110, 136)
    np.testing.assert_allclose(hours, ANL_HOUR_WEIGHTS, atol=5e-4)
    np.testing.assert_allclose(days, ANL_DAY_WEIGHTS, atol=5e-4)


def test_jobs_have_the_model_sizes_run_their_request_and_are_reproducible():
    jobs = cirne_berman_jobs(2_000, 32, seed=3, target_utilization=0.8)
    sizes = jobs["allocated_procs"].to_numpy()
    assert sizes.min() >= SIZE_RANGE[0] and sizes.max() <= SIZE_RANGE[1]
    assert (jobs["run_time"] == jobs["requested_time"]).all()
    assert jobs.equals(cirne_berman_jobs(2_000, 32, seed=3, target_utilization=0.8))


def test_arrivals_follow_the_argonne_day():
    submits = cirne_berman_jobs(20_000, 32, seed=5)["submit_time"].to_numpy()
    by_hour = np.bincount((submits % SECONDS_PER_DAY // SECONDS_PER_HOUR).astype(int), minlength=24)
    assert np.corrcoef(by_hour, ANL_HOUR_WEIGHTS)[0, 1] > 0.95
    quietest, busiest = int(np.argmin(ANL_HOUR_WEIGHTS)), int(np.argmax(ANL_HOUR_WEIGHTS))
    assert by_hour[busiest] > 3 * by_hour[quietest]


def test_the_experiment_refuses_the_model_on_another_machine_size():
    from schedlab.errors import SchedlabError
    from schedlab.simulators.cosy.experiment import CIRNE_BERMAN, generate_workload

    with pytest.raises(SchedlabError, match="32 nodes"):
        generate_workload(CIRNE_BERMAN, 100, 64, 0.8, 0)
