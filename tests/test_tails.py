"""The tails beside the means (issue 65, item 6): hand-worked values, and a mean that improves while the
tail gets worse is seen."""

from __future__ import annotations

import numpy as np
import pytest

from schedlab.reports.tails import tails_rows
from schedlab.simulators.core.tails import tails_table, wait_tails

DAY = 86_400.0


def test_hand_worked_tails_and_fairness():
    waits = np.array([0.0, 0.0, 3600.0, 2 * DAY, 8 * DAY])
    users = np.array([1, 1, 2, 2, 3])
    tails = wait_tails(waits, users)
    assert tails["max_wait"] == 8 * DAY and tails["over_a_day"] == 2 and tails["over_a_week"] == 1
    # users' mean waits: 0, (3600 + 172800) / 2 = 88200, 691200
    means = np.array([0.0, 88_200.0, 691_200.0])
    assert tails["worst_user_mean_wait"] == 691_200.0
    assert tails["user_fairness"] == pytest.approx(means.sum() ** 2 / (3 * (means ** 2).sum()))
    assert tails["p95_wait"] == pytest.approx(np.percentile(waits, 95))


def test_nobody_waiting_is_perfectly_fair():
    assert wait_tails(np.zeros(4), np.array([1, 2, 3, 4]))["user_fairness"] == 1.0


def test_a_lower_mean_with_a_longer_tail_shows_in_the_tail():
    """Policy B lowers the mean wait (2.4 h against 3 h) but leaves one job waiting ten days: its tail row says so."""
    a = np.full(100, 3 * 3600.0)
    b = np.concatenate([np.zeros(99), [10 * DAY]])
    assert b.mean() < a.mean()
    table = tails_table({"A": a, "B": b})
    assert table.set_index("policy").loc["B", "over_a_week"] == 1 and table.set_index("policy").loc["A", "over_a_week"] == 0
    header, rows = tails_rows(table)
    assert header[0] == "policy" and rows[1][3] == "240.00"  # B's longest wait, in hours
