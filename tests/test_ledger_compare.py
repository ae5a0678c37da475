"""schedlab.reports.ledger_compare: two ledgers of one paper side by side."""

from __future__ import annotations

import math

import pandas as pd

from schedlab.reports.ledger_compare import compare, main


def ledger(rows):
    return pd.DataFrame(rows, columns=["claim_id", "verdict", "ours", "low", "high"])


FIRST = ledger([("a", "reproduced", 1.0, 0.5, 1.5), ("b", "inconclusive", 0.1, -0.2, 0.4),
                ("c", "not_attempted", math.nan, math.nan, math.nan), ("only-first", "reproduced", 1.0, 1.0, 1.0)])
SECOND = ledger([("b", "reproduced", 0.3, 0.1, 0.5), ("a", "reproduced", 1.2, 0.9, 1.5),
                 ("c", "not_attempted", math.nan, math.nan, math.nan)])


def test_rows_follow_the_first_ledger_and_flag_changed_verdicts():
    table = compare(FIRST, SECOND, ("x", "y"))
    assert list(table["claim_id"]) == ["a", "b", "c"]
    assert list(table["verdict differs"]) == [False, True, False]
    assert list(table["verdict (y)"]) == ["reproduced", "reproduced", "not attempted"]  # as a reader reads it
    assert table.loc[1, "measured (x)"] == "0.1 [-0.2, 0.4]" and table.loc[2, "measured (y)"] == ""


def test_the_command_writes_the_table_and_counts_reproduced_claims(tmp_path, capsys):
    FIRST.to_csv(tmp_path / "first.csv", index=False)
    SECOND.to_csv(tmp_path / "second.csv", index=False)
    assert main([str(tmp_path / "first.csv"), str(tmp_path / "second.csv"), "--labels", "x", "y",
                 "--out", str(tmp_path / "out")]) == 0
    title = capsys.readouterr().out.strip()
    assert title == "Claims judged under x and under y: 1 of 3 verdicts differ; reproduced 1 (x), 2 (y)"
    assert (tmp_path / "out" / "comparison.md").read_text().startswith(f"# {title}")
    assert len(pd.read_csv(tmp_path / "out" / "comparison.csv")) == 3
