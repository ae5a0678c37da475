"""The coscheduling figures (paper Figs. 3-10) drawn from constructed per-seed runs tables:
which interval each error bar is, what the difference line shows, and readable tick labels."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.container import BarContainer, ErrorbarContainer

from schedlab.reports.cosched import FIGURES_BY_NUMBER, coscheduling_figure

SEEDS = (1, 2, 3, 4, 5)
SCHEMES = ("HH", "HY", "YH", "YY", "base")
METRICS = ("mean_wait", "mean_slowdown", "mean_sync", "su_loss_hours", "su_loss_share")
LOADS = (0.25, 0.5, 0.75)
RATIOS = (0.025, 0.05, 0.1, 0.2, 0.33)
NAMES = {"A": "A: compute machine", "B": "B: analysis cluster"}
T_975_4_DOF = 2.776445  # Student-t 97.5 % quantile, 4 degrees of freedom (five seeds)


def runs_table(series, xs, value, seeds=SEEDS, offered_load=lambda x, seed, machine: 0.5,
               paired_share=lambda x, seed, machine: 0.05):
    """One release-on row per (x, scheme, seed, machine); every metric is ``value(x, scheme, seed, machine)``."""
    rows = []
    for x, scheme, seed, machine in itertools.product(xs, SCHEMES, seeds, ("A", "B")):
        metric = value(x, scheme, seed, machine)
        rows.append({
            "series": series, "x": x, "scheme": scheme, "release": True, "seed": seed, "machine": machine,
            **{name: metric for name in METRICS},
            "paired_share": 0.0 if scheme == "base" else paired_share(x, seed, machine),
            "offered_load": offered_load(x, seed, machine), "utilization": 0.5,
        })
    return pd.DataFrame(rows)


def drawn(figure):
    FigureCanvasAgg(figure).draw()
    return figure


def panel(figure, letter):
    """The main axes of panel (a) or (b), found by its title."""
    return next(axes for axes in figure.axes if axes.get_title().startswith(f"({letter})"))


def extra_axes(figure, letter):
    """The right-hand axes of a bars panel: the twin sharing the panel's x axis."""
    main = panel(figure, letter)
    return next(axes for axes in main.get_shared_x_axes().get_siblings(main) if axes is not main)


def bars(axes, label):
    return next(c for c in axes.containers if isinstance(c, BarContainer) and c.get_label() == label)


def error_bar_ends(container: ErrorbarContainer) -> np.ndarray:
    """(lower, upper) of each drawn error bar, in the order of the points."""
    _, _, (vertical_lines, *_) = container.lines
    return np.array([[segment[0][1], segment[1][1]] for segment in vertical_lines.get_segments()])


def test_bar_error_is_the_paired_difference_interval_centred_on_the_bar():
    # Base and schemes swing by 100 s per seed, their differences do not (HH) or a little (HY):
    # separate intervals of the two means would be ~3 minutes wide, the paired one is 0 for HH.
    hy_extra = {1: 10.0, 2: 20.0, 3: 30.0, 4: 40.0, 5: 50.0}
    extra = {"HH": lambda seed: 60.0, "HY": hy_extra.get, "YH": lambda seed: 120.0, "YY": lambda seed: 0.0,
             "base": lambda seed: 0.0}
    runs = runs_table("load", LOADS, lambda x, scheme, seed, machine: 100.0 * seed + extra[scheme](seed))
    figure = drawn(coscheduling_figure(runs, FIGURES_BY_NUMBER[3], NAMES))

    for letter in "ab":
        hh = bars(panel(figure, letter), "HH")
        heights = [patch.get_height() for patch in hh.patches]
        assert heights == pytest.approx([(300.0 + 60.0) / 60.0] * len(LOADS))  # minutes
        ends = error_bar_ends(hh.errorbar)
        assert ends.mean(axis=1) == pytest.approx(heights)
        assert (ends[:, 1] - ends[:, 0]) / 2 == pytest.approx([0.0] * len(LOADS), abs=1e-9)

        hy = bars(panel(figure, letter), "HY")
        ends = error_bar_ends(hy.errorbar)
        paired_half_width = T_975_4_DOF * np.std(list(hy_extra.values()), ddof=1) / np.sqrt(len(SEEDS)) / 60.0
        assert (ends[:, 1] - ends[:, 0]) / 2 == pytest.approx([paired_half_width] * len(LOADS), rel=1e-5)
        assert ends.mean(axis=1) == pytest.approx([patch.get_height() for patch in hy.patches])


def test_difference_line_is_the_mean_per_seed_difference_on_the_shared_seeds():
    rng = np.random.default_rng(7)
    values = {key: float(rng.uniform(0, 1_000)) for key in itertools.product(RATIOS, SCHEMES, SEEDS, "AB")}
    runs = runs_table("ratio", RATIOS, lambda x, scheme, seed, machine: values[x, scheme, seed, machine])
    # No baseline run of seed 5 at the first ratio: the mean of the differences is then not the
    # difference of the means, so the test tells the two apart.
    runs = runs[~((runs["x"] == RATIOS[0]) & (runs["scheme"] == "base") & (runs["seed"] == 5))]
    figure = drawn(coscheduling_figure(runs, FIGURES_BY_NUMBER[8], NAMES))

    for letter, machine in zip("ab", "AB"):
        lines = {c.get_label(): c for c in extra_axes(figure, letter).containers if isinstance(c, ErrorbarContainer)}
        for combination in ("HH", "HY", "YH", "YY"):
            expected = [
                np.mean([values[x, combination, seed, machine] - values[x, "base", seed, machine]
                         for seed in SEEDS if (x, seed) != (RATIOS[0], 5)])
                for x in RATIOS
            ]
            line, _, _ = lines[f"{combination} - base"].lines
            assert line.get_ydata() == pytest.approx(expected)


def test_value_panels_take_the_interval_over_seeds_and_skip_single_seeds():
    runs = runs_table("load", LOADS, lambda x, scheme, seed, machine: 60.0 * seed)
    figure = drawn(coscheduling_figure(runs, FIGURES_BY_NUMBER[5], NAMES))
    ends = error_bar_ends(bars(panel(figure, "a"), "local hold").errorbar)
    half_width = T_975_4_DOF * np.std(SEEDS, ddof=1) / np.sqrt(len(SEEDS))  # minutes: 60 s per seed
    assert (ends[:, 1] - ends[:, 0]) / 2 == pytest.approx([half_width] * 2 * len(LOADS), rel=1e-5)
    assert "means over 5 seeds" in figure.get_suptitle() and "t-interval over seeds" in figure.get_suptitle()

    single = drawn(coscheduling_figure(runs[runs["seed"] == 1], FIGURES_BY_NUMBER[3], NAMES))
    ends = error_bar_ends(bars(panel(single, "a"), "HH").errorbar)
    assert ends[:, 1] - ends[:, 0] == pytest.approx([0.0] * len(LOADS))
    assert "means over 1 seeds" in single.get_suptitle() and "difference to the baseline" in single.get_suptitle()


def overlapping(boxes):
    """Pairs of boxes sharing more than a pixel in both directions (touching is fine)."""
    return [(i, j) for (i, a), (j, b) in itertools.combinations(enumerate(boxes), 2)
            if min(a.x1, b.x1) - max(a.x0, b.x0) > 1 and min(a.y1, b.y1) - max(a.y0, b.y0) > 1]


@pytest.mark.parametrize("number", [7, 9, 10])  # bars, sync and loss of the ratio series
def test_ratio_series_tick_labels_do_not_overlap(number):
    runs = runs_table("ratio", RATIOS, lambda x, scheme, seed, machine: 1_000.0 * seed,
                      paired_share=lambda x, seed, machine: 0.98 * x)
    figure = drawn(coscheduling_figure(runs, FIGURES_BY_NUMBER[number], NAMES))
    renderer = figure.canvas.get_renderer()
    labels = [label for axes in (panel(figure, "a"), panel(figure, "b"))
              for label in axes.get_xticklabels(which="both") if label.get_visible() and label.get_text()]
    assert len(labels) >= 2 * len(RATIOS)
    boxes = [label.get_window_extent(renderer) for label in labels]
    assert overlapping(boxes) == [], [(labels[i].get_text(), labels[j].get_text()) for i, j in overlapping(boxes)]


def test_load_series_ticks_show_machine_b_offered_load_reached():
    b_offered = {1: 0.47, 2: 0.48, 3: 0.49, 4: 0.50, 5: 0.51}  # mean 0.49 at every load, A always 0.70
    runs = runs_table("load", LOADS, lambda x, scheme, seed, machine: 100.0,
                      offered_load=lambda x, seed, machine: (x - 0.5 + b_offered[seed]) if machine == "B" else 0.7)
    figure = drawn(coscheduling_figure(runs, FIGURES_BY_NUMBER[3], NAMES))
    texts = [label.get_text() for label in panel(figure, "a").get_xticklabels()]
    assert texts == ["0.25\n(offered 0.24)", "0.50\n(offered 0.49)", "0.75\n(offered 0.74)"]


def test_ratio_series_ticks_show_machine_a_paired_share_reached_when_known():
    runs = runs_table("ratio", RATIOS, lambda x, scheme, seed, machine: 100.0,
                      paired_share=lambda x, seed, machine: 0.92 * x if machine == "A" else 0.5)
    figure = drawn(coscheduling_figure(runs, FIGURES_BY_NUMBER[7], NAMES))
    texts = [label.get_text() for label in panel(figure, "b").get_xticklabels()]
    assert texts[0] == "2.5%\n(paired 2.3%)" and texts[-1] == "33%\n(paired 30.4%)"

    without = drawn(coscheduling_figure(runs.drop(columns="paired_share"), FIGURES_BY_NUMBER[7], NAMES))
    assert [label.get_text() for label in panel(without, "a").get_xticklabels()] == ["2.5%", "5%", "10%", "20%", "33%"]
