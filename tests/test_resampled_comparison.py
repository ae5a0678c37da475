"""Policies over resampled workloads: the paired table by hand (agreeing, contrary and undecided data) and the
trace page's section when the comparison ran or could not."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from schedlab.reports.ledger import MIN_SEEDS
from schedlab.reports.resampled import paired_table


def _runs(waits: dict[str, list[float]], arrivals: str = "open-loop") -> pd.DataFrame:
    """Runs of each policy over seeds 1..n, mean wait in hours as given (bounded slowdown = wait in h + 1)."""
    return pd.DataFrame([
        {"seed": seed, "policy": policy, "arrivals": arrivals, "mean_wait": 3600 * wait, "mean_bsld": wait + 1,
         "utilization": 0.7}
        for policy, values in waits.items() for seed, wait in enumerate(values, start=1)
    ])


def test_a_policy_lower_on_every_seed_is_lower_and_a_higher_one_higher():
    runs = _runs({"fcfs": [3.0, 4.0, 5.0, 6.0, 7.0], "easy": [1.0, 2.0, 3.1, 4.0, 5.0],
                  "worse": [4.0, 5.0, 6.2, 7.0, 8.0]})
    table = paired_table(runs).set_index(["metric", "policy"])
    easy = table.loc[("mean wait (h)", "easy")]
    # differences -2, -2, -1.9, -2, -2: mean -1.98, sd 0.044721, t(0.975, 4) = 2.776445 -> half width 0.055529
    assert easy["difference"] == pytest.approx(-1.98)
    assert easy["high"] == pytest.approx(-1.98 + 2.776445 * 0.0447214 / math.sqrt(5), rel=1e-5)
    assert easy["verdict"] == "lower" and easy["baseline"] == "fcfs" and easy["seeds"] == 5
    assert easy["reason"] == "-1.98 h [-2.04, -1.92], below 0 h"
    assert table.loc[("mean wait (h)", "worse"), "verdict"] == "higher"
    assert table.loc[("mean bounded slowdown", "worse"), "verdict"] == "higher"


def test_differences_of_both_signs_or_too_few_seeds_are_inconclusive():
    runs = _runs({"fcfs": [3.0, 4.0, 5.0, 6.0, 7.0], "easy": [4.0, 3.0, 5.5, 5.0, 7.5]})
    assert set(paired_table(runs)["verdict"]) == {"inconclusive"}
    few = paired_table(_runs({"fcfs": [3.0, 4.0, 5.0], "easy": [1.0, 2.0, 3.1]}))  # lower on every seed, but 3
    assert set(few["verdict"]) == {"inconclusive"}
    assert few["reason"].iloc[0] == f"3 seed(s): at least {MIN_SEEDS} are needed to decide"


def test_each_arrivals_mode_is_paired_on_its_own():
    runs = pd.concat([_runs({"fcfs": [3.0, 4.0, 3.5, 4.5, 5.0], "easy": [1.0, 1.5, 1.2, 2.0, 2.1]}),
                      _runs({"fcfs": [1.0, 1.2, 1.1, 0.9, 1.3], "easy": [2.0, 2.5, 2.0, 2.2, 2.4]}, "closed-loop")])
    table = paired_table(runs)
    verdicts = table[table["metric"] == "mean wait (h)"].set_index("arrivals")["verdict"]
    assert verdicts["open-loop"] == "lower" and verdicts["closed-loop"] == "higher"
    assert table[table["arrivals"] == "closed-loop"]["difference"].iloc[0] == pytest.approx(1.12)


def test_the_trace_page_shows_the_table_or_why_it_did_not_run():
    from schedlab.reports.pages import _resampled_blocks

    runs = _runs({"fcfs": [3.0, 4.0, 5.0, 6.0, 7.0], "easy": [1.0, 2.0, 3.1, 4.0, 5.0]})
    shown = render_markdown_blocks(_resampled_blocks({"ran": True, "seeds": [1, 2, 3, 4, 5],
                                                      "paired": paired_table(runs)}))
    assert "| open-loop | mean wait (h) | easy - fcfs | 3.02 | 5 | -1.98 [-2.04, -1.92] | lower |" in shown
    refused = render_markdown_blocks(_resampled_blocks({"ran": False, "reason": "a synthetic workload has no users"}))
    assert "Not run: a synthetic workload has no users." in refused
    assert _resampled_blocks(None) == []


def render_markdown_blocks(blocks) -> str:
    from schedlab.reports.document import Document, render_markdown

    return render_markdown(Document("t", tuple(blocks)))


def test_a_lower_mean_with_a_longer_tail_is_lower_in_the_mean_and_higher_in_the_tail():
    """Issue 65: the comparison also pairs the tails; easy's mean wait is lower on every seed while its longest
    wait is longer on every seed, and both verdicts are shown."""
    runs = _runs({"fcfs": [3.0, 4.0, 5.0, 6.0, 7.0], "easy": [1.0, 2.0, 3.1, 4.0, 5.0]})
    runs["max_wait"] = [3600 * w for w in (10.0, 11.0, 12.0, 13.0, 14.0, 20.0, 22.0, 23.0, 25.0, 26.0)]
    table = paired_table(runs).set_index("metric")
    assert table.loc["mean wait (h)", "verdict"] == "lower"
    assert table.loc["longest wait (h)", "verdict"] == "higher"
    assert table.loc["longest wait (h)", "difference"] == pytest.approx(11.2)


def test_a_researchers_policy_is_named_by_its_file_and_class_on_the_page_and_in_full_in_the_runs(tmp_path,
                                                                                                  monkeypatch):
    from pipeline import report_tasks
    from pipeline.base import write_json

    policy_file = tmp_path / "deep" / "folders" / "my_policy.py"
    policy_file.parent.mkdir(parents=True)
    policy_file.write_text("from schedlab.simulators.batch.easy import EasyBackfilling as Mine\n")
    name = f"{policy_file}:Mine"
    runs = _runs({"fcfs": [3.0, 4.0, 5.0, 6.0, 7.0], name: [1.0, 2.0, 3.1, 4.0, 5.0]})
    runs.to_csv(tmp_path / "runs.csv", index=False)
    write_json(tmp_path / "resampled.json", {"ran": True, "seeds": [1, 2, 3, 4, 5]})

    class Resampled:
        def output_file(self, file):
            return tmp_path / file

    report = report_tasks.TraceReport(trace="KTH-SP2-1996-2.2", policies=["fcfs", name])
    monkeypatch.setattr(report_tasks.TraceReport, "resampled", lambda self: True)
    monkeypatch.setattr(report_tasks.TraceReport, "requires", lambda self: {"resampled": Resampled()})
    page = tmp_path / "page"
    page.mkdir()
    status = report.resampled_comparison(page, "KTH")
    assert set(status["paired"]["policy"]) == {"my_policy.py:Mine"}
    assert name in set(pd.read_csv(page / "resampled_runs.csv")["policy"])
    assert (page / "resampled_wait.png").is_file()
