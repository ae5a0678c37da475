"""The Cirne-Berman workload: typical days, the measured Argonne cycle, the sizes and ratios of an Argonne log, the generator."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import shared_path
from schedlab.workloads.cirne_berman import (
    ANL_ACCURACY_QUANTILES,
    ANL_DAY_WEIGHTS,
    ANL_HOUR_WEIGHTS,
    ANL_LONGEST_REQUEST,
    ANL_POWER_OF_TWO_SHARE,
    BURST,
    DEFAULT,
    RUN_TIMES,
    CirneBermanModel,
    accuracy_quantiles,
    arrival_cycle_weights,
    cirne_berman_jobs,
    power_of_two_share,
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
    assert power_of_two_share(jobs["allocated_procs"]) == pytest.approx(ANL_POWER_OF_TWO_SHARE, abs=5e-5)
    np.testing.assert_allclose(accuracy_quantiles(jobs["run_time"], jobs["requested_time"]), ANL_ACCURACY_QUANTILES)
    assert jobs["requested_time"].max() == ANL_LONGEST_REQUEST


def test_power_of_two_share_by_hand():
    # 1, 2, 4 and 8 are powers of two (1 = 2 ** 0); 3 and 6 are not.
    assert power_of_two_share([1, 2, 3, 4, 6, 8]) == pytest.approx(4 / 6)


def test_accuracy_quantiles_by_hand():
    # Ratios 0.1, 0.5, 1 (a run over its request counts as 1); a job without a request is left out.
    quantiles = accuracy_quantiles([10, 50, 200, 30], [100, 100, 100, -1], count=2)
    np.testing.assert_allclose(quantiles, np.quantile([0.1, 0.5, 1.0], [0.25, 0.75]))


def test_the_default_spans_the_machine_with_the_power_of_two_lean():
    jobs = cirne_berman_jobs(20_000, 32, seed=3, target_utilization=0.8)
    sizes = jobs["allocated_procs"].to_numpy()
    assert sizes.min() == 1 and sizes.max() == 32  # no size floor
    # x = log2(size) uniform on [0, 5]; the lean's jobs take 2 ** round(x), the others ceil(2 ** x), itself a power
    # of two 2 ** k when 2 ** x lies in (2 ** k - 1, 2 ** k]: x in (0, 1], (log2 3, 2], (log2 7, 3], (log2 15, 4],
    # (log2 31, 5], together 1 + 2 + 3 + 4 + 5 - log2(3 * 7 * 15 * 31) of the 5.
    by_ceiling = (15 - np.log2(3 * 7 * 15 * 31)) / 5
    expected = ANL_POWER_OF_TWO_SHARE + (1 - ANL_POWER_OF_TWO_SHARE) * by_ceiling
    assert power_of_two_share(sizes) == pytest.approx(expected, abs=0.006)
    times = jobs["run_time"].to_numpy()
    assert times.min() >= DEFAULT.time_range[0] - 1 and times.max() <= DEFAULT.time_range[1] + 1


def test_jobs_run_their_request_and_are_reproducible():
    for model in (DEFAULT, RUN_TIMES, BURST):
        jobs = cirne_berman_jobs(2_000, 32, seed=3, target_utilization=0.8, model=model)
        assert (jobs["run_time"] == jobs["requested_time"]).all()
        assert jobs.equals(cirne_berman_jobs(2_000, 32, seed=3, target_utilization=0.8, model=model))
    burst = cirne_berman_jobs(2_000, 32, seed=3, model=BURST)["allocated_procs"]
    assert burst.min() >= 15


def test_the_run_time_reading_lengthens_each_time_by_a_drawn_ratio_within_the_longest_request():
    # Same seed, same streams: the run-times reading divides each drawn time by one of the Argonne ratios.
    drawn = cirne_berman_jobs(5_000, 32, seed=4)["run_time"].to_numpy()
    requested = cirne_berman_jobs(5_000, 32, seed=4, model=RUN_TIMES)["run_time"].to_numpy()
    ratios = drawn / requested
    capped = requested == ANL_LONGEST_REQUEST
    assert capped.any() and (requested <= ANL_LONGEST_REQUEST).all()
    uncapped = ~capped
    # ceil() to whole seconds: each ratio sits just under one of the table's values.
    table = np.asarray(ANL_ACCURACY_QUANTILES)
    nearest = table[np.abs(ratios[uncapped, None] - table[None, :]).argmin(axis=1)]
    assert np.all(np.abs(ratios[uncapped] - nearest) <= nearest / drawn[uncapped] + 1e-9)
    assert np.mean(ratios == 1.0) == pytest.approx(6 / 20, abs=0.02)  # 6 of the 20 quantiles are 1


def test_an_unknown_reading_of_the_times_is_refused():
    from schedlab.errors import SchedlabError

    with pytest.raises(SchedlabError, match="requested, run"):
        cirne_berman_jobs(10, 32, seed=1, model=CirneBermanModel((1, 32), 0.5, (60.0, 600.0), "wall"))


def test_arrivals_follow_the_argonne_day():
    submits = cirne_berman_jobs(20_000, 32, seed=5)["submit_time"].to_numpy()
    by_hour = np.bincount((submits % SECONDS_PER_DAY // SECONDS_PER_HOUR).astype(int), minlength=24)
    assert np.corrcoef(by_hour, ANL_HOUR_WEIGHTS)[0, 1] > 0.95
    quietest, busiest = int(np.argmin(ANL_HOUR_WEIGHTS)), int(np.argmax(ANL_HOUR_WEIGHTS))
    assert by_hour[busiest] > 3 * by_hour[quietest]


def test_the_experiment_refuses_the_model_on_another_machine_size():
    from schedlab.errors import SchedlabError
    from schedlab.simulators.cosy.experiments import CIRNE_BERMAN, generate_workload

    with pytest.raises(SchedlabError, match="32 nodes"):
        generate_workload(CIRNE_BERMAN, 100, 64, 0.8, 0)
