"""The COSY causes on the constructed tables of ``test_cosy_claims``: every number read back by hand."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from schedlab.reports.cosy_causes import CAUSES, CELL_CAUSES, causes_frame
from schedlab.reports.cosy_claims import CLAIMS
from schedlab.reports.ledger import ledger
from tests.test_cosy_claims import FACTORS, SHARES, reversed_pattern, results_of


def _with_counts_and_diagnostics(runs: pd.DataFrame) -> pd.DataFrame:
    """The constructed runs with the columns a cause reads, and a requeue and an oracle run at n = 1 and 4."""
    fixed = runs[runs["policy"] == "fixed"]
    runs = runs.assign(
        makespan=5 * 86400.0 * 1.1,  # every run's window 10 % longer than the baselines' 5 days
        reservations_requested=runs["share"] * 100,
        reservations_rejected=runs["rejection_rate"] * 100,
    )
    diagnostics = []
    for policy, q in (("requeue", 1.3), ("oracle", 0.7)):
        at = fixed[fixed["factor"].isin([1.0, 4.0])]
        diagnostics.append(at.assign(policy=policy, q=q, makespan=0.0, reservations_requested=0.0,
                                     reservations_rejected=0.0))
    return pd.concat([runs, *diagnostics], ignore_index=True)


def _number_before(text: str, suffix: str) -> float:
    return float(re.search(r"([0-9.]+)" + re.escape(suffix), text).group(1))


def test_every_cause_is_of_a_claim_of_the_ledger():
    assert set(CAUSES) <= {claim.claim_id for claim in CLAIMS}


def test_a_q_cell_reads_its_point_the_diagnostics_and_the_baseline():
    runs, baselines = reversed_pattern()
    results = results_of(_with_counts_and_diagnostics(runs), baselines)
    text = CELL_CAUSES["t1-exp4-q"](results, {})  # p = 10 %, n = 0.91: the grid's n = 1
    # reversed q at p = 10 %: 0.55 + 0.05 n (mean over seeds, the noise cancels): 0.60 at n = 1; r = 2 + 0.25 = 2.25 %
    assert text.startswith("p = 10 %, policy n = 1: queue jobs wait q = 0.60 x wq0")
    assert _number_before(text, " % of all jobs)") == pytest.approx(2.25, abs=0.051)
    assert "taking 1.0 % of the work off the machine" in text
    assert "run as queue jobs instead, q = 1.30 (n = 1)" in text and "asking for submit + n x wq0, q = 0.70 (n = 1)" in text
    # baselines: mean wait 0.24 x 5 days = 28.8 h, 24 % of the 5-day window
    assert text.endswith("queue jobs wait 28.8 h on average, 24.0 % of the run window.")


def test_a_u_cell_reads_the_window_growth_and_the_notice():
    runs, baselines = reversed_pattern()
    text = CELL_CAUSES["t1-exp6-u"](results_of(_with_counts_and_diagnostics(runs), baselines), {})  # p = 10 %, n = 4.2
    # u = 66 + 2 x 4 = 74 %; baseline 50 %; notice 4 x 1 h = 4 h of the 5-day (120 h) window: 3.3 %
    assert text == ("p = 10 %, policy n = 4: u = 74.0 % against 50.0 % without reservations; refused reservations took "
                    "1.0 % of the work off the machine and the run window (5.0 days without reservations) grew by "
                    "10.0 %; a reservation's notice n x W is 4.0 h, 3.3 % of the window.")


def test_r_lists_every_n_of_the_grid():
    runs, baselines = reversed_pattern()
    text = CAUSES["fig5-r-falls-with-n"](results_of(_with_counts_and_diagnostics(runs), baselines), {})
    # p = 20 %: r = 0.5 + 0.25 n %
    at_20 = re.search(r"p = 20 %: r = ([0-9., ]+) % of all jobs at n = ([0-9., ]+) \(", text)
    assert [float(v) for v in at_20.group(1).split(", ")] == pytest.approx([0.5 + 0.25 * n for n in FACTORS], abs=0.0051)
    assert [float(n) for n in at_20.group(2).split(", ")] == list(FACTORS)
    assert len(text.split("p = ")) - 1 == len(SHARES)


def test_the_causes_table_lists_each_claim_not_reproduced_and_says_what_is_not_measured():
    runs, baselines = reversed_pattern()  # no makespan or request counts in these runs
    results = results_of(runs, baselines)
    claims = ledger("cosy", CLAIMS, results, "constructed")
    frame = causes_frame(claims, results, {})
    not_reproduced = claims[~claims["verdict"].isin(["reproduced", "not_attempted"])]
    assert list(frame["claim"]) == list(not_reproduced["claim_id"])
    u_column = frame.set_index("claim")["measured cause"]["t1-u"]
    assert u_column == "Not measured: the runs have no makespan."


def test_a_table_column_gives_the_cause_of_each_cell_that_does_not_reproduce_after_its_number():
    runs, baselines = reversed_pattern()
    results = results_of(_with_counts_and_diagnostics(runs), baselines)
    text = CAUSES["t1-q"](results, {})
    assert text.startswith("q = 1.19 at p = 5 %, n = 1.3: p = 5 %")
    assert len(re.findall(r"q = [0-9.]+ at p = [0-9]+ %, n = [0-9.]+: ", text)) == 11  # every cell off its number
    assert f"q = 1.44 at p = 10 %, n = 0.91: {CELL_CAUSES['t1-exp4-q'](results, {})}" in text
