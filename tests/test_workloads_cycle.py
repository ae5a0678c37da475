"""Arrival cycles: the warped clock and its inverse."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from schedlab.workloads.cycle import ArrivalCycle, weekly_cycle

weights_strategy = st.lists(st.floats(0.05, 20.0), min_size=1, max_size=50)


@given(weights=weights_strategy, seconds=st.lists(st.floats(0, 1e8), min_size=1, max_size=20))
def test_unwarp_inverts_warp(weights, seconds):
    cycle = ArrivalCycle(1800.0, np.array(weights))
    assert cycle.unwarp(cycle.warp(seconds)) == pytest.approx(np.array(seconds), abs=1e-5, rel=1e-9)


@given(weights=weights_strategy, start=st.floats(0, 1e7))
def test_one_period_lasts_one_period_on_both_clocks(weights, start):
    cycle = ArrivalCycle(600.0, np.array(weights))
    period = 600.0 * len(weights)
    assert cycle.warp(start + period) - cycle.warp(start) == pytest.approx(period, rel=1e-9)


def test_evenly_spaced_warped_arrivals_crowd_into_heavy_slots():
    cycle = ArrivalCycle(3600.0, np.array([1.0, 3.0]))  # a two-hour period, the second hour 3x busier
    wall_clock = cycle.unwarp(np.arange(0, 7200 * 100, 10.0))
    in_second_hour = (np.mod(wall_clock, 7200) >= 3600).mean()
    assert in_second_hour == pytest.approx(0.75, abs=0.001)


def test_weights_are_normalised_to_mean_one_and_must_be_positive():
    assert ArrivalCycle(1.0, np.array([2.0, 6.0])).weights == pytest.approx([0.5, 1.5])
    for bad in ([1.0, 0.0], [], [1.0, np.nan]):
        with pytest.raises(ValueError):
            ArrivalCycle(1.0, np.array(bad))


def test_weekly_cycle_multiplies_hour_and_day_weights_from_monday_midnight():
    hours = np.ones(24)
    hours[14] = 5.0
    days = np.ones(7)
    days[6] = 0.2
    cycle = weekly_cycle(hours, days)
    sunday_14h = 6 * 24 + 14
    assert cycle.weights[sunday_14h] / cycle.weights[14] == pytest.approx(0.2)
    assert cycle.weights[14] / cycle.weights[13] == pytest.approx(5.0)
    with pytest.raises(ValueError):
        weekly_cycle(np.ones(23), days)
