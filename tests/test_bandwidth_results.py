"""Aggregates of the bandwidth stage on hand-made run tables."""

from __future__ import annotations

import math

import pandas as pd

from simulators.bandwidth.results import improvement, information_curve, information_for_half_gain, migration_gain_over_no_share


def runs():
    rows = [
        ("synthetic", "migration_only", None, 1.0, 1000.0),
        ("synthetic", "no_share", None, 1.0, 4000.0),
        ("synthetic", "zero_comm", None, 1.0, 600.0),
        ("synthetic", "ics", None, 1.0, 700.0),
        ("synthetic", "ics", None, 0.0, 1000.0),
        ("synthetic", "ics", None, 0.2, 800.0),
    ]
    return pd.DataFrame(rows, columns=["workload", "strategy", "ppbw", "information", "mean_turnaround"]).astype(
        {"ppbw": float})


def test_improvements_and_no_share_gain():
    table = runs()
    assert improvement(table, "synthetic", "zero_comm") == 0.4
    assert math.isclose(improvement(table, "synthetic", "ics"), 0.3)
    assert migration_gain_over_no_share(table, "synthetic") == 0.75


def test_half_of_the_full_information_gain_is_interpolated():
    # gains 0, 0.2, 0.3 at 0, 0.2, 1.0: half of 0.3 = 0.15 is reached at 0.15
    assert math.isclose(information_for_half_gain(information_curve(runs(), "synthetic")), 0.15)
