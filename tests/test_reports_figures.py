"""Figures: the binned time averages are right and saved files are byte-identical run to run."""

import warnings

import numpy as np
import pandas as pd
import pytest

from schedlab.reports.figures import (
    moving_average,
    recorded_waits,
    save_figure,
    time_binned_mean,
    utilization_figure,
    wait_time_cdf_figure,
    wait_times,
)
from tests.conftest import layout_faults


def test_time_binned_mean_integrates_the_step_function():
    # 0 before t=10, 4 on [10, 20), 2 on [20, 40), 0 from 40 on.
    times = np.array([10.0, 20.0, 40.0])
    values = np.array([4.0, 2.0, 0.0])
    edges = np.array([0.0, 10.0, 20.0, 30.0, 50.0])
    means = time_binned_mean(times, values, edges)
    np.testing.assert_allclose(means, [0.0, 4.0, 2.0, 10.0 * 2.0 / 20.0])


def test_time_binned_mean_bin_inside_one_step_and_simultaneous_events():
    times = np.array([0.0, 5.0, 5.0])  # two events at t=5; the value after both is 3
    values = np.array([1.0, 7.0, 3.0])
    means = time_binned_mean(times, values, np.array([0.0, 5.0, 6.0, 8.0]))
    np.testing.assert_allclose(means, [1.0, 3.0, 3.0])


def test_wait_times():
    schedule = pd.DataFrame({"submit": [0.0, 5.0], "start": [0.0, 65.0]})
    np.testing.assert_array_equal(wait_times(schedule), [0.0, 60.0])


def series(seed):
    rng = np.random.default_rng(seed)
    times = np.cumsum(rng.integers(1, 3600, size=300)).astype(float)
    return pd.DataFrame(
        {"time": times, "queue_length": rng.integers(0, 20, 300), "busy_procs": rng.integers(0, 64, 300)}
    )


def build_figures():
    rng = np.random.default_rng(1)
    waits = {"fcfs": rng.exponential(3600, 500), "easy": rng.exponential(600, 500), "none": np.array([])}
    return (
        wait_time_cdf_figure(waits, "waits"),
        utilization_figure({"fcfs": series(1), "easy": series(2)}, 64, "use"),
    )


def test_saved_figures_are_byte_identical(tmp_path):
    outputs = []
    for run in ("first", "second"):
        directory = tmp_path / run
        cdf, use = build_figures()
        paths = save_figure(cdf, directory, "wait_cdf") + save_figure(use, directory, "utilization")
        outputs.append({path.name: path.read_bytes() for path in paths})
    assert sorted(outputs[0]) == ["utilization.png", "utilization.svg", "wait_cdf.png", "wait_cdf.svg"]
    assert outputs[0] == outputs[1]
    svg = outputs[0]["wait_cdf.svg"].decode()
    assert "<dc:date>" not in svg and "Matplotlib v" not in svg
    assert b"Software" not in outputs[0]["wait_cdf.png"]
    assert list(tmp_path.rglob("*.tmp")) == []


def test_figures_of_empty_replays_draw_without_warnings():
    empty = pd.DataFrame({"time": [], "queue_length": [], "busy_procs": []})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        use = utilization_figure({"fcfs": empty}, 8, "nothing ran")
        cdf = wait_time_cdf_figure({"fcfs": np.array([])}, "nothing waited")
    assert len(use.axes) == 2 and len(cdf.axes) == 1


@pytest.mark.parametrize("longest", [0.0, 30.0, 10 * 86_400.0])
def test_wait_cdf_ticks_stay_within_the_data(longest):
    figure = wait_time_cdf_figure({"fcfs": np.array([0.0, longest])}, "t")
    axes = figure.axes[0]
    assert axes.get_xlim() == (0.0, max(longest, 1.0))
    assert max(axes.get_xticks()) <= max(longest, 1.0)


def test_legends_stand_outside_the_axes_and_their_titles():
    cdf, use = build_figures()
    assert cdf.legends and use.legends
    assert layout_faults(cdf) == [] and layout_faults(use) == []


def test_the_layout_check_sees_a_legend_inside_the_axes_and_a_cut_title():
    cdf, _ = build_figures()
    cdf.legends.clear()
    cdf.axes[0].legend(loc="upper left")
    assert layout_faults(cdf) == ["a legend covers axes 'waits'"]
    cdf.axes[0].legend().remove()
    cdf.axes[0].set_title("a title far too long for a figure seven and a half inches wide, " * 3)
    assert layout_faults(cdf) == [f"title {cdf.axes[0].get_title()!r} is cut"]


def test_the_wait_cdf_draws_the_logs_recorded_waits_dashed():
    schedule = pd.DataFrame({"submit": [0.0, 0.0, 0.0], "start": [0.0, 10.0, 20.0], "recorded_wait": [5.0, np.nan, 50.0]})
    np.testing.assert_array_equal(recorded_waits(schedule), [5.0, 50.0])
    figure = wait_time_cdf_figure({"easy": wait_times(schedule)}, "waits", recorded_waits(schedule))
    lines = {line.get_label(): line for line in figure.axes[0].get_lines()}
    assert sorted(lines) == ["easy", "recorded in the log"]
    assert lines["recorded in the log"].get_linestyle() == "--"
    assert lines["recorded in the log"].get_xdata().max() == 50.0


def test_moving_average_is_centred_and_shrinks_at_the_ends():
    np.testing.assert_allclose(moving_average(np.array([0.0, 3.0, 6.0, 0.0, 3.0]), 3), [1.5, 3.0, 3.0, 3.0, 1.5])
