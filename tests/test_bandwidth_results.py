"""Aggregates of the bandwidth stage on hand-made run tables."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from schedlab.simulators.bandwidth.results import (
    BROKEN, HOLDS, WITHIN_NOISE, half_width, improvement, information_curve, information_for_half_gain,
    migration_gain_over_no_share, mixed, no_share_ordering, orderings, verdict,
)

COLUMNS = ["workload", "strategy", "ppbw", "information", "seed", "mean_turnaround"]


def runs():
    rows = [
        ("synthetic", "migration_only", None, 1.0, 1000.0),
        ("synthetic", "no_share", None, 1.0, 4000.0),
        ("synthetic", "zero_comm", None, 1.0, 600.0),
        ("synthetic", "ics", None, 1.0, 700.0),
        ("synthetic", "ics", None, 0.0, 1000.0),
        ("synthetic", "ics", None, 0.2, 800.0),
    ]
    return pd.DataFrame([(*row[:4], 1, row[4]) for row in rows], columns=COLUMNS).astype({"ppbw": float})


def test_improvements_and_no_share_gain():
    table = runs()
    assert improvement(table, "synthetic", "zero_comm") == 0.4
    assert math.isclose(improvement(table, "synthetic", "ics"), 0.3)
    assert migration_gain_over_no_share(table, "synthetic") == 0.75


def test_half_of_the_full_information_gain_is_interpolated():
    # gains 0, 0.2, 0.3 at 0, 0.2, 1.0: half of 0.3 = 0.15 is reached at 0.15
    assert math.isclose(information_for_half_gain(information_curve(runs(), "synthetic")), 0.15)


def seeded_runs():
    # two seeds; seed 2's workload is twice as slow, which pairing cancels out
    rows = []
    for seed, scale in ((1, 1.0), (2, 2.0)):
        rows += [("R", "migration_only", None, 1.0, seed, 1000.0 * scale),
                 ("R", "zero_comm", None, 1.0, seed, 800.0 * scale),
                 ("R", "no_share", None, 1.0, seed, 3000.0 * scale),
                 ("R", "ics", 10.0, 1.0, seed, 850.0 * scale),
                 ("R", "ics", 1000.0, 1.0, seed, (1010.0 if seed == 1 else 995.0) * scale)]
    return pd.DataFrame(rows, columns=COLUMNS).astype({"ppbw": float})


def test_measures_are_means_over_seeds_of_paired_values():
    table = seeded_runs()
    assert mixed(table, "R", "migration_only") == 1500.0
    assert math.isclose(improvement(table, "R", "zero_comm"), 0.2)
    assert math.isclose(migration_gain_over_no_share(table, "R"), 2 / 3)


def test_an_ordering_is_judged_on_paired_differences_with_an_interval():
    assert verdict([0.0, 0.0]) == HOLDS
    assert verdict([0.03, -0.01]) == HOLDS
    assert verdict([0.01, -0.02]) == WITHIN_NOISE  # mean -0.005, interval +- 0.19
    assert verdict([-0.010, -0.012, -0.011]) == BROKEN
    assert verdict([-0.01]) == BROKEN  # one seed: no interval to hide in
    assert math.isclose(half_width([1.0, 3.0]), 12.706, rel_tol=1e-4)  # t(0.975, 1) * sd sqrt(2) / sqrt(2)
    table = orderings(seeded_runs(), ["R"])
    assert table.ppbw.tolist() == [10.0, 1000.0] and table.seeds.tolist() == [2, 2]
    # PPBW 1000: ICS 1 % above Migration Only on seed 1, 0.5 % below on seed 2
    assert table.verdict.tolist() == [HOLDS, WITHIN_NOISE]
    assert table.zero_le_ics.tolist() == [HOLDS, HOLDS]
    assert math.isclose(table.migration_minus_ics.iloc[1], (-0.01 + 0.005) / 2)
    assert no_share_ordering(seeded_runs(), ["R"]).verdict.tolist() == [HOLDS]


def test_runs_of_different_seeds_are_not_paired():
    table = seeded_runs()
    table = table[~((table.strategy == "zero_comm") & (table.seed == 2))]
    with pytest.raises(ValueError, match="paired"):
        improvement(table, "R", "zero_comm")
