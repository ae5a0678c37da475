"""The verdict engine on constructed data whose answers are known by hand."""

import math

import numpy as np
import pandas as pd
import pytest

from schedlab.reports.ledger import (
    LEDGER_COLUMNS,
    Claim,
    Measurement,
    NotMeasured,
    Part,
    interval,
    judge,
    ledger,
    paired,
    per_seed,
    single,
    slopes,
    verdict_counts,
)

SEEDS = (1, 2, 3, 4, 5)


def claim(kind="ordering", **fields):
    values = fields.pop("values", (1.0,) * len(SEEDS))
    parts = fields.pop("parts", None)
    stochastic = fields.pop("stochastic", True)
    if parts is None:
        parts = (Part("", tuple(values), SEEDS[: len(values)] if stochastic else ()),)
    measurement = Measurement(tuple(parts), stochastic)
    base = dict(claim_id="X1", location="Fig. 1", statement="s", kind=kind, paper_value="p", measure="m",
                compute=lambda results: measurement)
    base.update(fields)
    return Claim(**base)


def test_interval_is_the_student_t_interval():
    # mean 3, sample sd sqrt(2.5), n 5: half-width t(0.975, 4) * sd / sqrt(5) = 2.776445 * 0.707107
    mean, low, high = interval([1, 2, 3, 4, 5])
    assert mean == 3
    assert high - mean == pytest.approx(2.776445 * math.sqrt(2.5) / math.sqrt(5), rel=1e-6)
    assert low == pytest.approx(2 * mean - high)


def test_one_value_has_no_interval():
    mean, low, high = interval([4.0])
    assert mean == 4.0 and math.isnan(low) and math.isnan(high)


def test_ordering_holds_when_every_paired_difference_is_positive():
    verdict = judge(claim(values=[1.0, 1.2, 0.9, 1.1, 1.0]), {})
    assert verdict.verdict == "reproduced" and verdict.seeds == 5 and verdict.low > 0


def test_ordering_is_broken_when_the_interval_lies_on_the_other_side():
    assert judge(claim(values=[-1.0, -1.2, -0.9, -1.1, -1.0]), {}).verdict == "not_reproduced"


def test_differences_that_change_sign_are_inconclusive():
    verdict = judge(claim(values=[1.0, -1.0, 0.5, -0.5, 0.2]), {})
    assert verdict.verdict == "inconclusive"
    assert verdict.low < 0 < verdict.high


def test_side_below_a_threshold():
    below = claim(kind="threshold", side="below", bound=240.0, values=[100, 120, 110, 90, 130])
    above = claim(kind="threshold", side="below", bound=240.0, values=[300, 320, 310, 290, 330])
    assert judge(below, {}).verdict == "reproduced"
    assert judge(above, {}).verdict == "not_reproduced"


def test_fewer_than_five_seeds_never_decide():
    verdict = judge(claim(values=[5.0, 5.1, 5.2, 5.3]), {})
    assert verdict.verdict == "inconclusive" and "at least 5" in verdict.reason


HIGH = (10.0, 11.0, 9.0, 10.5, 9.5)
LOW = tuple(-v for v in HIGH)


def test_value_inside_the_relative_band_is_reproduced():
    values = [50.0, 51.0, 49.0, 50.5, 49.5]
    verdict = judge(claim(kind="value", target=52.5, relative_tolerance=0.1, tolerance_why="w", values=values,
                          unit="%"), {})
    assert verdict.verdict == "reproduced"
    assert verdict.reason.startswith("50 % [49, 51], inside paper 52.5 % (+-10 %: 47.2-57.8)")


def test_value_outside_the_band_is_not_reproduced_whatever_its_sign():
    # A value has no direction: 20 % against the paper's 52.5 % is a miss, not "direction right".
    values = [20.0, 21.0, 19.0, 20.5, 19.5]
    verdict = judge(claim(kind="value", target=52.5, relative_tolerance=0.1, tolerance_why="w", values=values), {})
    assert verdict.verdict == "not_reproduced" and "below paper " in verdict.reason


def test_a_wide_interval_around_the_papers_value_is_inconclusive():
    # The ICS case: five seeds from -41 % to +53 % around a paper value of 52.5 %.
    values = [-41.0, 53.0, 10.0, 30.0, -5.0]
    verdict = judge(claim(kind="value", target=52.5, relative_tolerance=0.2, tolerance_why="w", values=values), {})
    assert verdict.verdict == "inconclusive"


def test_a_band_is_clipped_to_what_the_quantity_can_take():
    # +-50 % around a 72.5 % reduction would reach 108.75 %, impossible for a reduction.
    reduction = claim(kind="value", target=72.5, relative_tolerance=0.5, tolerance_why="w", possible=(0.0, 100.0))
    assert reduction.paper_band() == (36.25, 100.0)


def test_the_papers_own_range_is_the_band():
    inside = claim(kind="value", band=(5.0, 10.0), values=[6.0, 7.0, 8.0, 7.5, 6.5])
    below = claim(kind="value", band=(5.0, 10.0), values=[3.0, 3.1, 2.9, 3.05, 2.95])
    assert judge(inside, {}).verdict == "reproduced"
    assert judge(below, {}).verdict == "not_reproduced"
    around_zero = claim(kind="value", band=(-25.0, 25.0), values=[30.0, 31.0, 29.0, 30.5, 29.5], unit="%")
    assert "above the paper's -25 to 25 %" in judge(around_zero, {}).reason  # never "-25-25 %"


def test_ordering_with_a_size_direction_right_size_off_is_partial():
    verdict = judge(claim(target=50.0, relative_tolerance=0.2, tolerance_why="w", values=HIGH), {})
    assert verdict.verdict == "partial" and "direction right" in verdict.reason


def test_ordering_with_a_size_against_the_direction_is_not_reproduced():
    verdict = judge(claim(target=50.0, relative_tolerance=0.2, tolerance_why="w", values=LOW), {})
    assert verdict.verdict == "not_reproduced"


@pytest.mark.parametrize("kind", ["ordering", "trend", "threshold"])
@pytest.mark.parametrize("side", ["above", "below"])
def test_every_direction_kind_reproduces_on_agreeing_data_and_fails_on_contrary_data(kind, side):
    bound = 5.0 if kind == "threshold" else 0.0
    agreeing = tuple(bound + (v if side == "above" else -v) for v in HIGH)
    contrary = tuple(bound - (v if side == "above" else -v) for v in HIGH)
    assert judge(claim(kind=kind, side=side, bound=bound, values=agreeing), {}).verdict == "reproduced"
    assert judge(claim(kind=kind, side=side, bound=bound, values=contrary), {}).verdict == "not_reproduced"


def test_the_value_kind_reproduces_on_agreeing_data_and_fails_on_contrary_data():
    agreeing = claim(kind="value", target=10.0, relative_tolerance=0.2, tolerance_why="w", values=HIGH)
    contrary = claim(kind="value", target=10.0, relative_tolerance=0.2, tolerance_why="w", values=tuple(3 * v for v in HIGH))
    assert judge(agreeing, {}).verdict == "reproduced"
    assert judge(contrary, {}).verdict == "not_reproduced"


def test_a_check_that_cannot_fail_is_refused():
    # A room that is positive by construction judged as "above 0" could never fail.
    with pytest.raises(ValueError, match="could not fail"):
        claim(kind="ordering", side="above", bound=0.0, possible=(0.0, math.inf))
    with pytest.raises(ValueError, match="could not fail"):
        claim(kind="threshold", side="below", bound=100.0, possible=(0.0, 100.0))


def test_ordered_outcomes_are_decided_by_a_sign_test():
    # A saturated seed has no mean to compare, only a side: all five seeds on the claimed side decide it.
    every = Part("load 60 %", (math.inf, 3.0, math.inf, 1.0, 2.0), SEEDS, ordered=True)
    assert judge(claim(parts=(every,)), {}).verdict == "reproduced"
    against = Part("load 60 %", (-math.inf, -3.0, -math.inf, -1.0, -2.0), SEEDS, ordered=True)
    assert judge(claim(parts=(against,)), {}).verdict == "not_reproduced"
    four = Part("load 60 %", (math.inf, 3.0, -1.0, 1.0, 2.0), SEEDS, ordered=True)
    assert judge(claim(parts=(four,)), {}).verdict == "inconclusive"


def test_a_censored_value_outside_the_papers_band_is_not_reproduced():
    # Saturation points: the paper says 75-80 % of capacity; every seed saturates at 50-55 %, or never.
    early = Part("", (50.0, 55.0, 50.0, 50.0, 55.0), SEEDS, ordered=True)
    never = Part("", (math.inf,) * 5, SEEDS, ordered=True)
    right = Part("", (75.0, 80.0, 75.0, 75.0, 80.0), SEEDS, ordered=True)
    saturation = dict(kind="value", band=(75.0, 80.0), unit="% of capacity")
    assert judge(claim(parts=(early,), **saturation), {}).verdict == "not_reproduced"
    assert judge(claim(parts=(never,), **saturation), {}).verdict == "not_reproduced"
    assert judge(claim(parts=(right,), **saturation), {}).verdict == "reproduced"


def test_deterministic_value_is_judged_on_itself():
    assert judge(claim(values=[0.3], stochastic=False), {}).verdict == "reproduced"
    assert judge(claim(values=[0.0], stochastic=False), {}).verdict == "not_reproduced"


GOOD = Part("load 0.25", HIGH, SEEDS)
BAD = Part("load 0.75", LOW, SEEDS)
UNSURE = Part("load 0.5", (1.0, -1.0, 0.5, -0.5, 0.2), SEEDS)


def test_one_part_against_the_claim_makes_it_not_reproduced():
    verdict = judge(claim(parts=(GOOD, GOOD, GOOD, BAD)), {})
    assert verdict.verdict == "not_reproduced"
    assert verdict.reason.startswith("against the claim at load 0.75 (holds at 3 of 4 parts, against at 1, undecided at 0)")
    assert "shown: load 0.75, one of 4 parts." in verdict.reason and verdict.ours == pytest.approx(-10)


def test_an_exception_the_paper_allows_keeps_a_majority_partial():
    verdict = judge(claim(parts=(GOOD, GOOD, GOOD, BAD), exceptions=1, exceptions_why="one near-tie"), {})
    assert verdict.verdict == "partial" and "one near-tie" in verdict.reason


def test_partial_needs_a_majority_of_the_parts():
    assert judge(claim(parts=(GOOD, GOOD, UNSURE)), {}).verdict == "partial"
    verdict = judge(claim(parts=(GOOD, UNSURE, UNSURE)), {})
    assert verdict.verdict == "inconclusive"
    assert verdict.reason.startswith("too few parts hold to decide: holds at 1 of 3 parts, against at 0, undecided at 2")


def test_an_undecided_claim_counts_the_parts_that_are_against_it_too():
    verdict = judge(claim(parts=(GOOD, UNSURE, BAD, UNSURE), exceptions=1, exceptions_why="one near-tie"), {})
    assert verdict.verdict == "inconclusive"
    assert "holds at 1 of 4 parts, against at 1, undecided at 2" in verdict.reason


def cell(claim_id, target, values, **fields):
    """A cell of a table column: its own paper value, one part of its own values."""
    part_ = Part(claim_id, tuple(values), SEEDS)
    return claim("value", claim_id=claim_id, target=target, relative_tolerance=0.1, tolerance_why="text number",
                 parts=(part_,), **fields)


def test_a_table_column_is_one_statement_whose_cells_are_judged_each_against_its_own_number():
    column = claim("value", claim_id="T-q", compute=None, cells=(
        cell("exp2", 1.2, (1.19, 1.2, 1.21, 1.2, 1.2)), cell("exp3", 2.0, (2.0, 2.01, 1.99, 2.0, 2.0))))
    verdict = judge(column, {})
    assert verdict.verdict == "reproduced" and "shown: exp2, one of 2 parts" in verdict.reason
    rows = ledger("P", [column], {}, "quick")
    assert len(rows) == 1 and rows.loc[0, "paper_low"] == pytest.approx(1.08) and rows.loc[0, "paper_high"] == pytest.approx(1.32)


def test_a_cell_off_its_own_number_breaks_the_column_and_the_row_shows_that_cell_and_its_band():
    # exp3's values match exp2's number: within the column's values, but not its own cell's
    column = claim("value", claim_id="T-q", compute=None, cells=(
        cell("exp2", 1.2, (1.19, 1.2, 1.21, 1.2, 1.2)), cell("exp3", 2.0, (1.19, 1.2, 1.21, 1.2, 1.2))))
    assert judge(column, {}).verdict == "not_reproduced"
    rows = ledger("P", [column], {}, "quick")
    assert rows.loc[0, "ours"] == pytest.approx(1.2) and rows.loc[0, "paper_low"] == pytest.approx(1.8)
    assert rows.loc[0, "reason"].startswith("against the claim at exp3")


def test_a_cell_keeps_its_own_no_effect_test():
    no_effect_cell = cell("exp2", 1.05, (1.0, 1.01, 0.99, 1.0, 1.0), no_effect=1.0)
    verdict = judge(claim("value", claim_id="T-q", compute=None, cells=(no_effect_cell,)), {})
    assert verdict.verdict == "inconclusive" and "cannot tell the claim from no effect" in verdict.reason


def test_a_statement_of_cells_takes_nothing_of_its_own_to_judge():
    with pytest.raises(ValueError, match="from its cells"):
        claim("value", claim_id="T-q", target=1.0, relative_tolerance=0.1, tolerance_why="w",
              cells=(cell("exp2", 1.2, (1.2,) * 5),))
    column = claim("value", claim_id="T-q", compute=None, cells=(cell("exp2", 1.2, (1.2,) * 5),))
    with pytest.raises(ValueError, match="no cells of their own"):
        claim("value", claim_id="T", compute=None, cells=(column,))


def test_partial_on_a_subset_the_paper_names():
    named = claim(parts=(GOOD, UNSURE, UNSURE), named_subset=("load 0.25",), named_subset_why="'at low load'")
    assert judge(named, {}).verdict == "partial"


def test_calibration_rows_are_judged_shown_and_not_counted():
    calibrated = claim(claim_id="K", kind="value", target=6.1, relative_tolerance=0.1, tolerance_why="w",
                       values=[7.27] * 5, unit="", basis="calibration", basis_why="the width factor was chosen on it")
    verdict = judge(calibrated, {})
    assert verdict.verdict == "not_reproduced" and verdict.ours == pytest.approx(7.27)
    assert verdict.reason.startswith("calibration (the width factor was chosen on it)")
    frame = ledger("demo", [calibrated, claim(claim_id="R", values=HIGH)], {}, "quick")
    counts = verdict_counts(frame).iloc[0]
    assert (counts["claims"], counts["reproduced"], counts["not_reproduced"], counts["calibration"]) == (1, 1, 0, 1)


def test_not_measured_and_hardware_claims_are_not_attempted():
    def missing(results):
        raise NotMeasured("the quick profile does not run Fig. 9")

    assert judge(claim(compute=missing), {}).verdict == "not_attempted"
    hardware = Claim("H1", "Table 2", "s", "value", "3 us", "m", target=3.0, relative_tolerance=0.3,
                     tolerance_why="w", not_attempted="measured on the authors' cluster")
    verdict = judge(hardware, {})
    assert verdict.verdict == "not_attempted" and "cluster" in verdict.reason


def test_claims_refuse_inconsistent_definitions():
    with pytest.raises(ValueError):
        Claim("V", "Fig. 1", "s", "value", "p", "m", compute=lambda r: None)  # a value without its target
    with pytest.raises(ValueError):
        Claim("V", "Fig. 1", "s", "slope", "p", "m", compute=lambda r: None)
    with pytest.raises(ValueError):
        Claim("V", "Fig. 1", "s", "ordering", "p", "m")  # neither compute nor reason


def test_compute_errors_propagate():
    def broken(results):
        raise KeyError("no such table")

    with pytest.raises(KeyError):
        judge(claim(compute=broken), {})


RUNS = pd.DataFrame({
    "seed": [1, 2, 3, 1, 2, 3],
    "policy": ["a", "a", "a", "b", "b", "b"],
    "wait": [10.0, 12.0, 14.0, 7.0, 8.0, 9.0],
})


def test_paired_statistics_pair_by_seed():
    a = per_seed(RUNS, "wait", {"policy": "a"})
    b = per_seed(RUNS.iloc[::-1], "wait", {"policy": "b"})  # row order must not matter
    assert list(paired(a, b)) == [3.0, 4.0, 5.0]
    assert list(paired(a, b, "relative")) == pytest.approx([3 / 7, 4 / 8, 5 / 9])


def test_pairing_refuses_different_seeds():
    a = per_seed(RUNS, "wait", {"policy": "a"})
    with pytest.raises(ValueError, match="same seeds"):
        paired(a, a.iloc[:2])


def test_missing_rows_are_not_measured():
    with pytest.raises(NotMeasured):
        per_seed(RUNS, "wait", {"policy": "c"})


def test_slopes_per_seed():
    frame = pd.DataFrame({"seed": [1, 1, 1, 2, 2, 2], "x": [0, 1, 2] * 2, "y": [0, 2, 4, 1, 1, 1]})
    assert list(slopes(frame, "x", "y")) == pytest.approx([2.0, 0.0])


def test_a_flat_metric_has_exactly_zero_slope_and_no_trend():
    # np.polyfit leaves about 4e-18 on this constant series, the same on every seed: its
    # zero-width interval would lie above 0 and pass a rising-trend claim.
    factors = [1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6]
    frame = pd.DataFrame({"seed": np.repeat([0, 1, 2], len(factors)), "x": factors * 3, "r": 0.0638})
    flat = slopes(frame, "x", "r")
    assert list(flat) == [0.0, 0.0, 0.0]
    rising = Claim("R", "Fig. 5", "r rises with n", "trend", "up", "m",
                   compute=lambda results: single(flat), side="above", bound=0.0)
    assert ledger("demo", [rising], {}, "quick")["verdict"].iloc[0] != "reproduced"


def test_ledger_rows_and_counts():
    claims = [
        claim(claim_id="A", values=[1, 1.1, 0.9, 1, 1.2]),
        claim(claim_id="B", values=[-1, -1.1, -0.9, -1, -1.2]),
        Claim("C", "Table 2", "s", "value", "3 us", "m", band=(2.0, 4.0), not_attempted="hardware"),
    ]
    frame = ledger("demo", claims, {}, "quick")
    assert tuple(frame.columns[: len(LEDGER_COLUMNS)]) == LEDGER_COLUMNS
    assert list(frame["verdict"]) == ["reproduced", "not_reproduced", "not_attempted"]
    counts = verdict_counts(frame).iloc[0]
    assert (counts["reproduced"], counts["not_reproduced"], counts["not_attempted"], counts["claims"]) == (1, 1, 1, 3)
    with pytest.raises(ValueError, match="repeat"):
        ledger("demo", claims + claims[:1], {}, "quick")


def test_seed_columns_report_the_smallest_part():
    parts = (Part("a", tuple(np.ones(5) + np.arange(5) / 10), SEEDS), Part("b", (1.0, 1.0, 1.1, 1.0, 1.0, 1.2), (1, 2, 3, 4, 5, 6)))
    assert judge(claim(parts=parts), {}).seeds == 5


def test_an_undecided_claims_spread_counts_its_ordered_parts_apart():
    from schedlab.reports.causes import seed_spread

    ordered = Part("load 90 %", (math.inf, 2.0, -1.0, 1.0, 3.0), SEEDS, ordered=True)
    wide = Part("load 40 %", (1.0, -1.0, 0.5, -0.5, 0.2), SEEDS)
    sentence = seed_spread(claim(parts=(wide, ordered)), {})
    assert sentence.startswith("The seeds disagree: over 5 seeds the parts' 95 % intervals are +-")
    assert "sign test on their seeds' sides" in sentence and ": 1 of 2." in sentence
    assert seed_spread(claim(parts=(ordered,)), {}).startswith("No part has an interval over 5 seeds. Parts judged")


# --- the no-effect test --------------------------------------------------------------------------

def ratio_claim(values, **fields):
    """The paper's q = 1.05 (+-10 %: 0.945-1.155), a ratio to the baseline: no effect is 1."""
    return claim("value", values=values, target=1.05, relative_tolerance=0.1, tolerance_why="w", **fields)


def test_a_pass_that_no_effect_would_also_give_is_inconclusive():
    near_one = [0.98, 1.02, 1.0, 1.03, 0.99]
    assert judge(ratio_claim(near_one), {}).verdict == "reproduced"  # inside the band of ours...
    verdict = judge(ratio_claim(near_one, no_effect=1.0), {})
    assert verdict.verdict == "inconclusive"  # ...and so would a run without any effect be
    assert "cannot tell the claim from no effect" in verdict.reason and "no effect (1 x)" not in verdict.reason


def test_a_value_told_apart_from_no_effect_still_reproduces():
    verdict = judge(ratio_claim([1.08, 1.1, 1.09, 1.11, 1.1], no_effect=1.0), {})
    assert verdict.verdict == "reproduced"


def test_no_effect_data_never_reproduce_a_claim_of_an_effect():
    for kind, fields in (("value", dict(target=1.05, relative_tolerance=0.1, tolerance_why="w")),
                         ("value", dict(band=(1.02, 1.2), relative_tolerance=0.1, tolerance_why="w")),
                         ("ordering", dict(side="above", bound=1.0, possible=(0, math.inf)))):
        verdict = judge(claim(kind, values=[1.0] * 5, no_effect=1.0, **fields), {})
        assert verdict.verdict != "reproduced" and verdict.verdict != "partial", (kind, fields, verdict)


def test_a_statement_of_no_effect_is_not_tested_against_it():
    no_difference = claim("value", values=[0.1, -0.2, 0.0, 0.15, -0.05], target=0.0, tolerance=1.0,
                          tolerance_why="w", no_effect=0.0)
    assert judge(no_difference, {}).verdict == "reproduced"
    below_five = claim("threshold", values=[0.5, 1.0, 0.0, 1.5, 0.8], side="below", bound=5.0, no_effect=0.0,
                       possible=(0, 100))
    assert judge(below_five, {}).verdict == "reproduced"


def test_a_measured_no_effect_is_paired_per_seed():
    baseline = (74.0, 72.0, 76.0, 73.0, 75.0)
    # The paper's u = 70 % (+-10 %: 63-77): every run inside the band, but none below its own baseline.
    level = Part("p = 5 %", tuple(b + d for b, d in zip(baseline, (0.3, -0.2, 0.1, -0.4, 0.2))), SEEDS, no_effect=baseline)
    lower = Part("p = 5 %", tuple(b - 4.0 + d for b, d in zip(baseline, (0.3, -0.2, 0.1, -0.4, 0.2))), SEEDS,
                 no_effect=baseline)
    fields = dict(target=70.0, relative_tolerance=0.1, tolerance_why="w", unit="%")
    verdict = judge(claim("value", parts=(level,), **fields), {})
    assert verdict.verdict == "inconclusive" and "ours minus the baseline's" in verdict.reason and "holds 0" in verdict.reason
    assert judge(claim("value", parts=(lower,), **fields), {}).verdict == "reproduced"


def test_ordered_and_deterministic_parts_face_no_effect_too():
    ordered = dict(band=(3.5, 5.0), relative_tolerance=0.1, tolerance_why="w")  # ours: 3.0-5.5
    at_no_effect = Part("", (3.3,) * 5, SEEDS, ordered=True, no_effect=(3.3,) * 5)
    beyond = Part("", (3.3,) * 5, SEEDS, ordered=True, no_effect=(1.0,) * 5)
    assert judge(claim("value", parts=(at_no_effect,), **ordered), {}).verdict == "inconclusive"
    assert judge(claim("value", parts=(beyond,), **ordered), {}).verdict == "reproduced"
    deterministic = dict(stochastic=False, target=1.05, relative_tolerance=0.1, tolerance_why="w")
    assert judge(claim("value", values=[1.0], no_effect=1.0, **deterministic), {}).verdict == "inconclusive"
    assert judge(claim("value", values=[1.04], no_effect=1.0, **deterministic), {}).verdict == "reproduced"


def test_a_no_effect_value_the_quantity_cannot_take_is_refused():
    with pytest.raises(ValueError, match="no-effect value"):
        claim("value", values=[1.0] * 5, target=50.0, relative_tolerance=0.1, tolerance_why="w", possible=(0, 100),
              no_effect=-1.0)


def test_a_value_and_its_interval_never_mix_number_formats():
    from schedlab.reports.ledger import interval_text, number_text

    assert interval_text(10589.0, 8890.0, 12290.0, "% points") == "10,589 % points [8,890, 12,290]"
    assert number_text(1870.0) == "1,870" and number_text(999.4) == "999" and number_text(999.6) == "1,000"
    assert number_text(0.0123) == "0.0123" and number_text(42.54) == "42.5"
