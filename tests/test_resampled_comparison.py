"""Policies over resampled workloads: the paired table by hand (agreeing, contrary and undecided data) and the
trace page's section when the comparison ran or could not."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from schedlab.reports.resampled import direction, paired_table


def _runs(waits: dict[str, list[float]], arrivals: str = "open-loop") -> pd.DataFrame:
    """Runs of each policy over seeds 1..n, mean wait in hours as given (bounded slowdown = wait in h + 1)."""
    return pd.DataFrame([
        {"seed": seed, "policy": policy, "arrivals": arrivals, "mean_wait": 3600 * wait, "mean_bsld": wait + 1,
         "utilization": 0.7}
        for policy, values in waits.items() for seed, wait in enumerate(values, start=1)
    ])


def test_a_policy_lower_on_every_seed_is_lower_and_a_higher_one_higher():
    runs = _runs({"fcfs": [3.0, 4.0, 5.0], "easy": [1.0, 2.0, 3.1], "worse": [4.0, 5.0, 6.2]})
    table = paired_table(runs).set_index(["metric", "policy"])
    easy = table.loc[("mean wait (h)", "easy")]
    # differences -2, -2, -1.9: mean -1.9667, sd 0.0577, t(0.975, 2) = 4.303 -> half width 0.1434
    assert easy["difference"] == pytest.approx(-5.9 / 3)
    assert easy["high"] == pytest.approx(-5.9 / 3 + 4.302653 * 0.057735 / math.sqrt(3), rel=1e-5)
    assert easy["verdict"] == "lower" and easy["baseline"] == "fcfs" and easy["seeds"] == 3
    assert table.loc[("mean wait (h)", "worse"), "verdict"] == "higher"
    assert table.loc[("mean bounded slowdown", "worse"), "verdict"] == "higher"


def test_differences_of_both_signs_are_inconclusive_and_one_seed_says_so():
    runs = _runs({"fcfs": [3.0, 4.0, 5.0], "easy": [4.0, 3.0, 5.5]})
    assert set(paired_table(runs)["verdict"]) == {"inconclusive"}
    assert direction(math.nan, math.nan) == "inconclusive (too few seeds)"


def test_each_arrivals_mode_is_paired_on_its_own():
    runs = pd.concat([_runs({"fcfs": [3.0, 4.0], "easy": [1.0, 1.5]}),
                      _runs({"fcfs": [1.0, 1.2], "easy": [2.0, 2.5]}, "closed-loop")])
    table = paired_table(runs)
    verdicts = table[table["metric"] == "mean wait (h)"].set_index("arrivals")["verdict"]
    assert verdicts["open-loop"] in ("lower", "inconclusive") and verdicts["closed-loop"] in ("higher", "inconclusive")
    assert table[table["arrivals"] == "closed-loop"]["difference"].iloc[0] == pytest.approx(1.15)


def test_the_trace_page_shows_the_table_or_why_it_did_not_run():
    from schedlab.reports.pages import _resampled_blocks

    runs = _runs({"fcfs": [3.0, 4.0, 5.0], "easy": [1.0, 2.0, 3.1]})
    shown = render_markdown_blocks(_resampled_blocks({"ran": True, "seeds": [1, 2, 3], "paired": paired_table(runs)}))
    assert "| open-loop | mean wait (h) | easy - fcfs | 2.03 | 4 | -1.97 [-2.11, -1.82] | lower |" in shown
    refused = render_markdown_blocks(_resampled_blocks({"ran": False, "reason": "a synthetic workload has no users"}))
    assert "Not run: a synthetic workload has no users." in refused
    assert _resampled_blocks(None) == []


def render_markdown_blocks(blocks) -> str:
    from schedlab.reports.document import Document, render_markdown

    return render_markdown(Document("t", tuple(blocks)))
