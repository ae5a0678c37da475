"""The claims ledger: every checkable statement of a paper as one record, judged by one engine.

A ``Claim`` is one statement of the paper (a sentence, a figure panel, a table's column),
counted once: where it is, the statement in our words, the paper's value, what kind of
test decides it, and how our number is computed from a stage's result tables
(``compute``).  A statement whose parts each carry their own paper number (a table's
cells) holds them as ``cells``: claims of their own, each judged against its number, that
combine as the statement's parts and are not counted alone.  ``compute`` returns a ``Measurement``: one or more ``Part``s (the loads,
schemes or workloads the statement covers, every one of them tested), each a statistic
per seed in the claim's ``unit``, the paper's own unit.  The statistic is the claim's
own quantity (a mean wait in minutes, a cut in %, a saturation load in % of capacity), a
paired per-seed difference between policies run on the same seeds (common random
numbers), or a per-seed slope over a swept parameter.

The rules (stated in the README too):

Each part is judged on the 95 % Student-t interval of the mean of its per-seed values
(``interval``), or, for a part of ``ordered`` outcomes (a saturation or censoring: a
seed that never saturated on the grid has no number, only a side), on an exact sign test
over the seeds.

``value``      the paper's value as a band: the paper's own range (``band``), or its
               number ``target`` +- a tolerance relative to it (``relative_tolerance``,
               or an absolute ``tolerance`` where the paper's value is 0), stated per claim
               with its reason (``tolerance_why``) and clipped to the range the quantity
               can take (``possible``).  Reproduced when the interval lies inside the
               band, not reproduced when it lies wholly outside, inconclusive when it
               straddles an edge.  A value has no direction: outside is outside.
``ordering``,  the statistic lies on ``side`` ("above" or "below") of ``bound`` (0 for a
``trend``,     paired difference or a slope).  The bound must lie strictly inside
``threshold``  ``possible``: a check whose quantity cannot fall on the wrong side is
               refused when the claim is defined.  Holds when the whole interval lies on
               the claimed side, broken (not reproduced) when it lies wholly on the other
               side, else inconclusive.  With a paper size too (``target`` or ``band``), a
               holding part is reproduced inside the band, partial (direction right, size
               off) outside it, inconclusive across its edge.
ordered parts  per seed the side of the bound (or of the band, for a value) it lies on,
               infinite values standing for censored seeds (never saturated on the grid:
               ``+inf``).  A side is decided when the one-sided exact sign test gives
               p < 0.05 (with 5 seeds: all five on it).

no effect     a claim that states an effect (``no_effect``: what its quantity would be had
               the studied change no effect, 0 for a paired difference or a slope, 1 for a
               ratio to the baseline; or, per seed, the baseline's own value, ``Part.no_effect``)
               holds only where the runs tell it from no effect: a part that would be reproduced
               or partial is inconclusive when the no-effect value lies inside its interval (per
               seed: when the interval of our value minus the no-effect value holds 0; ordered
               parts: unless the sign test puts the seeds on the paper's side of it).  A band of
               ours that also holds the no-effect value could otherwise pass a run in which
               nothing happened.  A statement the constant no-effect value satisfies (the
               paper's value or claimed side holds it: "no significant difference", "below 5 %"
               where no effect is 0) is not tested so; a measured one is given only to the
               parts of a claim of an effect, whatever our baseline's value.

A stochastic part with fewer than ``MIN_SEEDS`` seeds is inconclusive whatever its
values.  Deterministic measurements (``stochastic=False``, one value each) are judged on
the value itself.  Parts combine into the claim's verdict:

- every part reproduced: reproduced;
- a part significantly against the claim (not reproduced): not reproduced, unless the
  paper itself allows exceptions (``exceptions``: how many, and the paper's words);
- the claimed direction holding (reproduced or partial) on a strict majority of the parts,
  or on every part of a subset the paper itself names (``named_subset``): partial;
- otherwise inconclusive.

``compute`` raising ``NotMeasured`` gives ``not_attempted`` with its message; so does a
claim with ``not_attempted`` set (measured on real hardware, say).  Any other error
propagates: a broken measurement fails the report loudly.

Two kinds of row are judged but not counted among the results (``basis``): a
``calibration`` row, whose number chose a constant of the model (its value is still shown
and judged, so a calibration that misses its target is seen), and an ``invariant`` row,
whose statement the simulator enforces on every run (a violation stops the run, so the
row can crash but never fail; the row says so).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from schedlab.reports.document import Heading, Link, paragraph, table
from schedlab.reports.tables import write_table

VERDICTS = ("reproduced", "partial", "not_reproduced", "inconclusive", "not_attempted")
KINDS = ("value", "ordering", "trend", "threshold")
SIDES = ("above", "below")
BASES = ("result", "calibration", "invariant")
"""What a row is: a result of the runs (counted), or judged but not counted (see the module docstring)."""
MIN_SEEDS = 5
"""Fewest seeds on which a stochastic claim may be decided."""
CONFIDENCE = 0.95
SIGN_TEST_LEVEL = 0.05
"""One-sided exact sign test on ordered (censored) outcomes: with 5 seeds, all five must agree."""
INTERVAL_METHOD = "Student-t 95 % interval of the mean of per-seed values (paired per seed where two runs are compared)"
EVERYTHING = (-math.inf, math.inf)

# The project's tolerances for a paper number, relative to it, one per kind of number: a claim
# takes the one that says how the paper gives its value, never one chosen for its verdict.
TEXT_NUMBER_TOLERANCE = 0.10
TEXT_NUMBER_WHY = "a number printed in the paper's text or a table, from its runs, no spread given: 10 % of it"
FIGURE_READING_TOLERANCE = 0.20
FIGURE_READING_WHY = "a value read off a figure of the paper, no number printed: 20 % of it"
APPROXIMATE_WORDS_TOLERANCE = 0.25
APPROXIMATE_WORDS_WHY = "the paper's words only approximate the number ('about', 'roughly'): 25 % of it"

LEDGER_COLUMNS = (
    "paper", "claim_id", "location", "statement", "kind", "paper_value",
    "ours", "low", "high", "seeds", "profile", "verdict", "reason",
)
"""The columns every ledger starts with; ``EXTRA_COLUMNS`` follow."""
EXTRA_COLUMNS = ("tolerance", "measure", "link", "unit", "paper_low", "paper_high", "basis")
"""``paper_low``/``paper_high``: the paper's value as an interval in ``unit`` (the band a value must lie in, or
the side of the bound an ordering claims: an open end is infinite); what the forest plots draw."""
OTHER_PROFILE_VERDICT = "other_profile_verdict"
"""Optional column: the same claim's verdict at the other profile (quick vs paper), shown and flagged when it differs."""


class NotMeasured(Exception):
    """Raised by a claim's ``compute`` when the results at hand cannot measure it (the reason)."""


@dataclass(frozen=True)
class Part:
    """One statistic, one value per seed (``seeds`` name them, in the same order).

    ``ordered``: the values are judged only by the side they lie on (a censored seed is
    ``+inf`` or ``-inf``), with a sign test across seeds instead of an interval."""

    label: str
    values: tuple[float, ...]
    seeds: tuple[int, ...] = ()
    ordered: bool = False
    no_effect: tuple[float, ...] = ()
    """Per value, what it would be had the studied change no effect (the baseline's own value on that
    seed); empty: the claim's constant ``no_effect``, if it has one."""

    def __post_init__(self):
        if self.seeds and len(self.seeds) != len(self.values):
            raise ValueError(f"part {self.label!r}: {len(self.values)} values for {len(self.seeds)} seeds")
        if self.no_effect and len(self.no_effect) != len(self.values):
            raise ValueError(f"part {self.label!r}: {len(self.no_effect)} no-effect values for {len(self.values)} values")


@dataclass(frozen=True)
class Measurement:
    parts: tuple[Part, ...]
    stochastic: bool = True

    def __post_init__(self):
        if not self.parts:
            raise ValueError("a measurement needs at least one part")


Results = Mapping[str, pd.DataFrame]
"""A stage's result tables by name, as its report writes them."""


@dataclass(frozen=True)
class Claim:
    """One statement of a paper's evaluation, counted once.

    ``unit`` is the unit of our statistic and of ``target``, ``band``, ``tolerance`` and
    ``bound`` (the paper's unit: "min", "%", "% of capacity", "s per MPL step");
    ``paper_value`` is the paper's own wording of the number(s).  ``link`` names the file
    of the stage report (figure or table) where the reader sees the claim's data.
    """

    claim_id: str
    location: str
    statement: str
    kind: str
    paper_value: str
    measure: str
    compute: Callable[[Results], Measurement] | None = None
    unit: str = ""
    target: float | None = None
    band: tuple[float, float] | None = None
    relative_tolerance: float | None = None
    tolerance: float | None = None
    tolerance_why: str = ""
    possible: tuple[float, float] = EVERYTHING
    side: str = "above"
    bound: float = 0.0
    exceptions: int = 0
    exceptions_why: str = ""
    named_subset: tuple[str, ...] = ()
    named_subset_why: str = ""
    link: str = ""
    not_attempted: str = ""
    basis: str = "result"
    basis_why: str = ""
    no_effect: float | None = None
    """The claim's quantity had the studied change no effect, in ``unit`` (see the module docstring)."""
    cells: tuple[Claim, ...] = ()
    """A statement whose parts each carry a paper value of their own (a table's column: its cells): each cell a
    claim with its own value, tolerance and ``compute``, judged as a part of this one and not counted alone."""

    def __post_init__(self):
        def refuse(why):
            raise ValueError(f"claim {self.claim_id}: {why}")
        if self.cells:
            if self.compute is not None or self.target is not None or self.band is not None:
                refuse("a statement of cells takes its values and measurements from its cells")
            if any(cell.cells for cell in self.cells):
                refuse("its cells have no cells of their own")
            return
        if self.kind not in KINDS:
            refuse(f"kind {self.kind!r} is not one of {KINDS}")
        if self.side not in SIDES:
            refuse(f"side {self.side!r} is not one of {SIDES}")
        if self.basis not in BASES:
            refuse(f"basis {self.basis!r} is not one of {BASES}")
        if self.basis != "result" and not self.basis_why:
            refuse(f"a {self.basis} row says why (basis_why)")
        low, high = self.possible
        if not low < high:
            refuse(f"possible range {self.possible} is empty")
        if self.target is not None and self.band is not None:
            refuse("the paper's size is a target or a band, not both")
        if self.relative_tolerance is not None and self.tolerance is not None:
            refuse("a tolerance is relative or absolute, not both")
        has_tolerance = self.relative_tolerance is not None or self.tolerance is not None
        if self.target is not None and not has_tolerance:
            refuse("a target needs a tolerance (relative_tolerance, or tolerance where the target is 0)")
        if has_tolerance and self.target is None and self.band is None:
            refuse("a tolerance needs a target or a band")
        if has_tolerance and not self.tolerance_why:
            refuse("a tolerance states its reason (tolerance_why)")
        if self.relative_tolerance is not None and not 0 < self.relative_tolerance < 1:
            refuse(f"relative tolerance {self.relative_tolerance} is not a fraction in (0, 1)")
        if self.tolerance is not None and self.target is not None and self.target != 0 and self.band is None:
            refuse("a nonzero target takes a relative tolerance (the absolute one is for a paper value of 0)")
        if self.band is not None and not self.band[0] <= self.band[1]:
            refuse(f"band {self.band} is reversed")
        if self.kind == "value" and self.target is None and self.band is None:
            refuse("a value claim needs the paper's value (target or band)")
        if self.kind != "value" and not low < self.bound < high:
            refuse(f"bound {self.bound} does not lie strictly inside the possible range {self.possible}: "
                   "the check could not fail")
        if self.exceptions and not self.exceptions_why:
            refuse("exceptions the paper allows are quoted (exceptions_why)")
        if self.named_subset and not self.named_subset_why:
            refuse("a subset the paper names is quoted (named_subset_why)")
        if self.compute is None and not self.not_attempted:
            refuse("no compute and no reason for not attempting it")
        if self.no_effect is not None and not low <= self.no_effect <= high:
            refuse(f"no-effect value {self.no_effect} lies outside the possible range {self.possible}")

    def states_an_effect(self, no_effect: float) -> bool:
        """Whether the paper's own value (before any tolerance of ours) or claimed side excludes ``no_effect``."""
        if self.kind == "value":
            low, high = self.band if self.band is not None else (self.target, self.target)
            return not low <= no_effect <= high
        return no_effect <= self.bound if self.side == "above" else no_effect >= self.bound

    def paper_band(self) -> tuple[float, float] | None:
        """The paper's size as an interval in ``unit``, widened by the tolerance, clipped to ``possible``."""
        if self.band is None and self.target is None:
            return None
        low, high = self.band if self.band is not None else (self.target, self.target)
        if self.relative_tolerance is not None:
            reference = abs(self.target) if self.target is not None else max(abs(low), abs(high))
            low, high = low - self.relative_tolerance * reference, high + self.relative_tolerance * reference
        elif self.tolerance is not None:
            low, high = low - self.tolerance, high + self.tolerance
        return max(low, self.possible[0]), min(high, self.possible[1])

    def paper_interval(self) -> tuple[float, float]:
        """What the forest plots draw: the band, or for an ordering without a size the claimed side of the bound."""
        band = self.paper_band()
        if band is not None:
            return band
        return (self.bound, math.inf) if self.side == "above" else (-math.inf, self.bound)

    def judged_against(self) -> str:
        """What a size is judged against, saying which band is the paper's and which is ours: "the paper's
        85-90 %", or, where a tolerance of ours widens the paper's value, "paper 8-9 % (+-10 %: 7.1-9.9)": 10 % of its larger end."""
        band = self.paper_band()
        own = self.band if self.band is not None else (self.target, self.target)
        if band == tuple(own):
            return f"the paper's {_band_text(band, self.unit)}"
        widened = f"+-{100 * self.relative_tolerance:.0f} %" if self.relative_tolerance is not None else \
            f"+-{number_text(self.tolerance)}{_unit(self.unit)}"
        return f"paper {_band_text(own, self.unit)} ({widened}: {_band_text(band, '')})"

    def tolerance_text(self) -> str:
        if self.cells:
            return "; ".join(dict.fromkeys(filter(None, (cell.tolerance_text() for cell in self.cells))))
        if self.relative_tolerance is not None:
            text = f"+-{100 * self.relative_tolerance:.0f} % of the paper's value"
        elif self.tolerance is not None:
            text = f"+-{number_text(self.tolerance)}{_unit(self.unit)}"
        else:
            return ""
        return f"{text} ({self.tolerance_why})" if self.tolerance_why else text


@dataclass(frozen=True)
class Verdict:
    verdict: str
    ours: float
    low: float
    high: float
    seeds: int
    reason: str


def verdict_words(verdict: str) -> str:
    """A verdict as a reader reads it: ``not reproduced``, not ``not_reproduced``."""
    return verdict.replace("_", " ")


def interval(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """Mean and the bounds of its Student-t interval; NaN bounds for fewer than two values."""
    sample = np.asarray(values, dtype=float)
    if sample.size == 0 or not np.all(np.isfinite(sample)):
        return math.nan, math.nan, math.nan
    mean = float(sample.mean())
    if sample.size < 2:
        return mean, math.nan, math.nan
    half = float(stats.t.ppf(0.5 + confidence / 2, sample.size - 1) * sample.std(ddof=1) / math.sqrt(sample.size))
    return mean, mean - half, mean + half


def number_text(value: float) -> str:
    """A number as every page writes it: three significant digits, whole numbers with thousands separators from
    1,000 on ("0.0123", "42.5", "1,870", "10,589"), so that a value and its interval never mix formats."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if not math.isfinite(value):
        return "nan"
    return f"{value:.3g}" if abs(value) < 999.5 else f"{value:,.0f}"


def _unit(unit: str) -> str:
    """A unit after a number, a space between them as the pages write "26.5 %"."""
    return f" {unit}" if unit else ""


def quantity(value: float, unit: str) -> str:
    """A number with its unit, as the ledger writes it ("7.27 min", "26.5 %")."""
    return f"{number_text(value)}{_unit(unit)}"


def interval_text(mean: float, low: float, high: float, unit: str) -> str:
    """"26.5 % [20.5, 32.5]": the mean with its unit, then the interval."""
    text = quantity(mean, unit)
    return f"{text} [{number_text(low)}, {number_text(high)}]" if math.isfinite(low) and math.isfinite(high) else text


def measured_text(values, unit: str = "", missing: str = "n/a") -> str:
    """Per-seed values as every page writes them: their mean with its 95 % interval ("26.5 % [20.5, 32.5]"),
    the mean alone from one seed, ``missing`` when no value is finite."""
    mean, low, high = interval(values)
    return interval_text(mean, low, high, unit) if math.isfinite(mean) else missing


def _band_text(band: tuple[float, float], unit: str) -> str:
    low, high = band
    if low == high:
        return quantity(low, unit)
    if math.isinf(high):
        return f">= {quantity(low, unit)}"
    if math.isinf(low):
        return f"<= {quantity(high, unit)}"
    joint = " to " if low < 0 or high < 0 else "-"  # "-25 to 25 %", never "-25-25 %"
    return f"{number_text(low)}{joint}{quantity(high, unit)}"


def _side_of(low: float, high: float, bound: float) -> str:
    """Where the interval lies: 'above' or 'below' the bound, or 'across' it."""
    if low > bound:
        return "above"
    if high < bound:
        return "below"
    return "across"


def _band_check(low: float, high: float, band: tuple[float, float]) -> str:
    """'inside', 'outside' or 'across' the band."""
    if low >= band[0] and high <= band[1]:
        return "inside"
    if high < band[0] or low > band[1]:
        return "outside"
    return "across"


def sign_test_decides(count: int, total: int) -> bool:
    """True when ``count`` of ``total`` seeds on one side is beyond chance: the one-sided exact
    binomial test of "either side equally likely" gives p < ``SIGN_TEST_LEVEL``."""
    return total > 0 and float(stats.binom.sf(count - 1, total, 0.5)) < SIGN_TEST_LEVEL


def _judge_ordered(claim: Claim, part: Part) -> Verdict:
    """A part of ordered (possibly censored) outcomes: each seed counts by the side it lies on."""
    values = np.asarray(part.values, dtype=float)
    n = values.size
    if np.isnan(values).any():
        raise ValueError(f"claim {claim.claim_id}, part {part.label!r}: an ordered outcome is never NaN")
    finite = values[np.isfinite(values)]
    middle = float(np.median(values))
    ours = middle if math.isfinite(middle) else math.nan
    unit = claim.unit
    if n < MIN_SEEDS:
        return Verdict("inconclusive", ours, math.nan, math.nan, n, f"{n} seed(s): at least {MIN_SEEDS} are needed")
    censored = n - finite.size
    censored_text = f" ({censored} with no finite value, placed by side only)" if censored else ""
    band = claim.paper_band()
    if claim.kind == "value":
        below, above = int((values < band[0]).sum()), int((values > band[1]).sum())
        inside = n - below - above
        counts = (f"{inside} of {n} seeds inside {claim.judged_against()}, {below} below, {above} above"
                  f"{censored_text}")
        if sign_test_decides(inside, n):
            return Verdict("reproduced", ours, math.nan, math.nan, n, counts)
        if sign_test_decides(below, n) or sign_test_decides(above, n):
            return Verdict("not_reproduced", ours, math.nan, math.nan, n, counts)
        return Verdict("inconclusive", ours, math.nan, math.nan, n, counts)
    on_side = int((values > claim.bound).sum() if claim.side == "above" else (values < claim.bound).sum())
    against = int((values < claim.bound).sum() if claim.side == "above" else (values > claim.bound).sum())
    other = "below" if claim.side == "above" else "above"
    counts = (f"{on_side} of {n} seeds {claim.side} {quantity(claim.bound, unit)}, {against} {other}, "
              f"{n - on_side - against} level{censored_text}")
    if sign_test_decides(against, n):
        return Verdict("not_reproduced", ours, math.nan, math.nan, n, counts)
    if not sign_test_decides(on_side, n):
        return Verdict("inconclusive", ours, math.nan, math.nan, n, counts)
    if band is None:
        return Verdict("reproduced", ours, math.nan, math.nan, n, counts)
    inside = int(((values >= band[0]) & (values <= band[1])).sum())
    if sign_test_decides(inside, n):
        return Verdict("reproduced", ours, math.nan, math.nan, n, f"{counts}; {inside} inside {claim.judged_against()}")
    if sign_test_decides(n - inside, n):
        return Verdict("partial", ours, math.nan, math.nan, n, f"{counts} (direction right); {n - inside} outside "
                       f"{claim.judged_against()}")
    return Verdict("inconclusive", ours, math.nan, math.nan, n, f"{counts}; the size is undecided against "
                   f"{claim.judged_against()}")


def _judge_part(claim: Claim, part: Part, stochastic: bool) -> Verdict:
    if part.ordered:
        return _judge_ordered(claim, part)
    n = len(part.values)
    mean, low, high = interval(part.values)
    unit = claim.unit
    if not stochastic:
        if n != 1:
            raise ValueError(f"claim {claim.claim_id}: a deterministic part has one value, got {n}")
        low = high = mean
    elif not math.isfinite(mean):
        return Verdict("inconclusive", mean, low, high, n, "no finite value to judge")
    elif n < MIN_SEEDS:
        return Verdict("inconclusive", mean, low, high, n, f"{n} seed(s): at least {MIN_SEEDS} are needed to decide")
    where = interval_text(mean, low, high, unit) if stochastic else quantity(mean, unit)
    band = claim.paper_band()
    paper = None if band is None else claim.judged_against()

    if claim.kind == "value":
        fit = _band_check(low, high, band)
        if fit == "inside":
            return Verdict("reproduced", mean, low, high, n, f"{where}, inside {paper}")
        if fit == "across":
            return Verdict("inconclusive", mean, low, high, n, f"{where}, across the edge of {paper}")
        direction = "above" if low > band[1] else "below"
        return Verdict("not_reproduced", mean, low, high, n, f"{where}, {direction} {paper}")

    claimed = f"{claim.side} {quantity(claim.bound, unit)}"
    side = _side_of(low, high, claim.bound)
    if side == "across" and not stochastic:  # a single value equal to the bound: a strict claim fails
        return Verdict("not_reproduced", mean, low, high, n, f"{where}, equal to {quantity(claim.bound, unit)}, "
                       f"not {claimed}")
    if side == "across":
        return Verdict("inconclusive", mean, low, high, n, f"{where}, not wholly {claimed}")
    if side != claim.side:
        return Verdict("not_reproduced", mean, low, high, n, f"{where}, {side} {quantity(claim.bound, unit)}, "
                       f"not {claimed}")
    if band is None:
        return Verdict("reproduced", mean, low, high, n, f"{where}, {claimed}")
    fit = _band_check(low, high, band)
    if fit == "inside":
        return Verdict("reproduced", mean, low, high, n, f"{where}, {claimed} and inside {paper}")
    if fit == "outside":
        return Verdict("partial", mean, low, high, n, f"{where}, {claimed} (direction right) but outside {paper}")
    return Verdict("inconclusive", mean, low, high, n, f"{where}, {claimed}; its size is across the edge of {paper}")


HOLDING = ("reproduced", "partial")


def _told_from_no_effect(claim: Claim, part: Part, stochastic: bool, verdict: Verdict) -> Verdict:
    """``verdict``, or inconclusive where a holding part of a claim that states an effect cannot be told
    from no effect (see the module docstring)."""
    values = np.asarray(part.values, dtype=float)
    if part.no_effect:
        no_effect = np.asarray(part.no_effect, dtype=float)
    elif claim.no_effect is not None:
        no_effect = np.full(values.size, float(claim.no_effect))
    else:
        return verdict
    typical = float(np.mean(no_effect))
    # A measured no-effect value (the baseline's) is given only to a part of a claim of an effect: whether a
    # statement is one is the paper's to say, not our baseline's.
    if verdict.verdict not in HOLDING or not (part.no_effect or claim.states_an_effect(typical)):
        return verdict
    unit = claim.unit
    named = f"the baseline's {quantity(typical, unit)} on average" if part.no_effect else quantity(typical, unit)
    difference = values - no_effect
    if part.ordered:
        if claim.kind == "value":
            low, high = claim.band if claim.band is not None else (claim.target, claim.target)
            upward = (low + high) / 2 > typical
        else:
            upward = claim.side == "above"
        beyond = int((difference > 0).sum() if upward else (difference < 0).sum())
        if sign_test_decides(beyond, values.size):
            return verdict
        why = (f"only {beyond} of {values.size} seeds lie {'above' if upward else 'below'} no effect ({named}): "
               "the runs cannot tell the claim from no effect")
    elif not np.all(np.isfinite(difference)):
        why = f"no effect ({named}) is not measured on every seed: the runs cannot tell the claim from it"
    elif not stochastic:
        if difference[0] != 0:
            return verdict
        why = f"no effect gives the same value ({named}): the run cannot tell the claim from no effect"
    else:
        mean, low, high = interval(difference)
        if not low <= 0 <= high:
            return verdict
        if part.no_effect:
            why = (f"ours minus the baseline's on the same seeds is {interval_text(mean, low, high, unit)}, which holds 0: "
                   "the runs cannot tell the claim from no effect")
        else:
            why = f"no effect ({named}) lies inside our interval: the runs cannot tell the claim from no effect"
    return Verdict("inconclusive", verdict.ours, verdict.low, verdict.high, verdict.seeds, f"{verdict.reason}; but {why}")


def _combine(claim: Claim, parts: Sequence[tuple[Part, Verdict]]) -> tuple[Verdict, int]:
    """The claim's verdict from its parts', and the index of the part whose numbers the row shows."""
    if len(parts) == 1:
        part_, verdict = parts[0]
        if not part_.label:
            return verdict, 0
        return Verdict(verdict.verdict, verdict.ours, verdict.low, verdict.high, verdict.seeds,
                       f"{part_.label}: {verdict.reason}"), 0
    verdicts = [v.verdict for _, v in parts]
    holding = [p.label for p, v in parts if v.verdict in HOLDING]
    broken = [p.label for p, v in parts if v.verdict == "not_reproduced"]
    allowed = len(broken) <= claim.exceptions
    subset_holds = bool(claim.named_subset) and all(
        v.verdict in HOLDING for p, v in parts if p.label in claim.named_subset)
    undecided = len(parts) - len(holding) - len(broken)
    tally = f"holds at {len(holding)} of {len(parts)} parts, against at {len(broken)}, undecided at {undecided}"
    if all(v == "reproduced" for v in verdicts):
        overall, summary = "reproduced", ""
    elif broken and not allowed:
        overall, summary = "not_reproduced", f"against the claim at {', '.join(broken)} ({tally})"
    elif 2 * len(holding) > len(parts):
        overall, summary = "partial", tally
    elif subset_holds:
        overall, summary = "partial", f"{tally}; holds on the subset the paper names ({claim.named_subset_why})"
    else:
        overall, summary = "inconclusive", f"too few parts hold to decide: {tally}"
    if broken and allowed and overall != "not_reproduced":
        summary += (f"; {len(broken)} exception(s), which the paper allows ({claim.exceptions_why}): "
                    f"{', '.join(broken)}")
    # The part shown in ours/low/high is the first whose verdict is the claim's, else the first not reproduced.
    shown = next((i for i, (_, v) in enumerate(parts) if v.verdict == overall), None)
    if shown is None:
        shown = next((i for i, (_, v) in enumerate(parts) if v.verdict != "reproduced"), 0)
    summary = f"{summary}; shown: {parts[shown][0].label}, one of {len(parts)} parts" if summary else \
        f"shown: {parts[shown][0].label}, one of {len(parts)} parts"
    details = "; ".join(f"{p.label}: {v.reason}" + ("" if v.verdict == overall else f" [{verdict_words(v.verdict)}]")
                        for p, v in parts)
    shown_verdict = parts[shown][1]
    return Verdict(overall, shown_verdict.ours, shown_verdict.low, shown_verdict.high, min(v.seeds for _, v in parts),
                   f"{summary}. {details}"), shown


def gathered(numbers: Sequence[Claim], sentences) -> tuple[Claim, ...]:
    """``numbers`` (a claim per number the paper prints) with the numbers one sentence prints together gathered
    into one row, whose cells they are.  ``sentences``: (row id, location, the sentence in our words, the paper's
    values, the ids of its numbers); the row stands where its first number stood and takes that number's unit and
    link, and the kind most of its numbers have."""
    by_id = {number.claim_id: number for number in numbers}
    rows = {}
    for claim_id, location, statement, paper_value, cell_ids in sentences:
        cells = tuple(by_id[cell_id] for cell_id in cell_ids)
        kinds = [cell.kind for cell in cells]
        rows[cell_ids[0]] = Claim(
            claim_id, location, statement, max(kinds, key=kinds.count), paper_value,
            "; ".join(f"{cell.claim_id}: {cell.measure}" for cell in cells),
            unit=cells[0].unit, cells=cells, link=cells[0].link,
        )
    in_sentences = {cell_id for *_, cell_ids in sentences for cell_id in cell_ids}
    return tuple(rows.get(number.claim_id, number) for number in numbers
                 if number.claim_id in rows or number.claim_id not in in_sentences)


def claims_by_id(claims: Sequence[Claim]) -> dict[str, Claim]:
    """Every claim of ``claims`` and every cell of one, by id."""
    return {claim.claim_id: claim for row in claims for claim in (row, *row.cells)}


def cell_verdicts(claims: Sequence[Claim], results: Results) -> pd.DataFrame:
    """The verdict of every cell of ``claims`` judged alone (``claim_id``, ``verdict``, ``row``: the id of the row
    it is a part of), for a page that shows a table's cells beside the paper's; the ledger counts only rows."""
    return pd.DataFrame([{"claim_id": cell.claim_id, "verdict": judge(cell, results).verdict, "row": row.claim_id}
                         for row in claims for cell in row.cells], columns=["claim_id", "verdict", "row"])


def judge(claim: Claim, results: Results) -> Verdict:
    """The claim's verdict on ``results`` (see the module docstring for the rules)."""
    return _judged(claim, results)[0]


def measure(claim: Claim, results: Results) -> list[tuple[Claim, Part, bool]]:
    """Every part of the claim's measurement on ``results``: (the claim, or the cell, whose paper value judges it,
    the part, whether it is stochastic)."""
    parts = []
    for judged_by in claim.cells or (claim,):
        measurement = judged_by.compute(results)
        parts += [(judged_by, part_, measurement.stochastic) for part_ in measurement.parts]
    return parts


def _judged(claim: Claim, results: Results) -> tuple[Verdict, Claim]:
    """The claim's verdict, and the claim (itself, or the cell) whose paper value the shown part is judged against."""
    if claim.not_attempted:
        return Verdict("not_attempted", math.nan, math.nan, math.nan, 0, claim.not_attempted), (claim.cells or (claim,))[0]
    try:
        parts = measure(claim, results)
    except NotMeasured as missing:
        return Verdict("not_attempted", math.nan, math.nan, math.nan, 0, str(missing)), (claim.cells or (claim,))[0]
    judged = [(part_, _told_from_no_effect(by, part_, stochastic, _judge_part(by, part_, stochastic)))
              for by, part_, stochastic in parts]
    verdict, shown = _combine(claim, judged)
    shown_by = parts[shown][0]
    if claim.basis == "result":
        return verdict, shown_by
    return Verdict(verdict.verdict, verdict.ours, verdict.low, verdict.high, verdict.seeds,
                   f"{claim.basis} ({claim.basis_why}): {verdict.reason}"), shown_by


def ledger(paper: str, claims: Sequence[Claim], results: Results, profile: str) -> pd.DataFrame:
    """One row per claim with the columns of ``LEDGER_COLUMNS`` and ``EXTRA_COLUMNS``."""
    ids = [claim.claim_id for claim in claims]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{paper}: claim ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    rows = []
    for claim in claims:
        verdict, shown_by = _judged(claim, results)
        paper_low, paper_high = shown_by.paper_interval()
        rows.append({
            "paper": paper,
            "claim_id": claim.claim_id,
            "location": claim.location,
            "statement": claim.statement,
            "kind": claim.kind,
            "paper_value": claim.paper_value,
            "ours": verdict.ours,
            "low": verdict.low,
            "high": verdict.high,
            "seeds": verdict.seeds,
            "profile": profile,
            "verdict": verdict.verdict,
            "reason": verdict.reason,
            "tolerance": claim.tolerance_text(),
            "measure": claim.measure,
            "link": claim.link,
            "unit": shown_by.unit,
            "paper_low": paper_low,
            "paper_high": paper_high,
            "basis": claim.basis,
        })
    return pd.DataFrame(rows, columns=[*LEDGER_COLUMNS, *EXTRA_COLUMNS])


NUMBER_COLUMNS = ("ours", "low", "high", "paper_low", "paper_high")


COLUMN_DEFAULTS = {"unit": "", "paper_low": "", "paper_high": "", "basis": "result"}
"""What a ledger written before these columns existed holds in their place."""


def read_ledger(path) -> pd.DataFrame:
    """A ledger CSV as ``ledger`` made it: numbers as floats (NaN where empty), text as text ("" where empty);
    a ledger from before the ``COLUMN_DEFAULTS`` columns gets them with their defaults."""
    frame = pd.read_csv(path, keep_default_na=False)
    for column, default in COLUMN_DEFAULTS.items():
        if column not in frame.columns:
            frame[column] = default
    for column in NUMBER_COLUMNS:
        frame[column] = pd.to_numeric(frame[column].replace("", math.nan), errors="raise").astype(float)
    frame["seeds"] = frame["seeds"].astype(int)
    return frame


def verdict_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """Per paper, how many result rows got each verdict (every verdict a column, in ``VERDICTS`` order),
    ``claims`` their sum, then how many calibration and invariant rows it has (judged, not counted)."""
    papers = list(dict.fromkeys(frame["paper"]))
    basis = frame["basis"] if "basis" in frame.columns else pd.Series("result", index=frame.index)
    results = frame[basis == "result"]
    counts = pd.crosstab(results["paper"], results["verdict"]).reindex(columns=list(VERDICTS), fill_value=0)
    counts = counts.reindex(papers, fill_value=0)
    counts["claims"] = counts.sum(axis=1)
    for kind in NOT_COUNTED:
        counts[kind] = frame[basis == kind].groupby("paper").size().reindex(papers, fill_value=0)
    counts.index.name = "paper"
    return counts.reset_index()


NOT_COUNTED = tuple(basis for basis in BASES if basis != "result")


# Helpers for ``compute`` functions: tidy result tables in, per-seed statistics out.

def _select(frame: pd.DataFrame, where: Mapping[str, object]) -> pd.DataFrame:
    mask = pd.Series(True, index=frame.index)
    for column, value in where.items():
        if column not in frame.columns:
            raise KeyError(f"result table has no column {column!r} (columns: {list(frame.columns)})")
        mask &= frame[column] == value
    chosen = frame[mask]
    if chosen.empty:
        raise NotMeasured(f"no result row with {dict(where)}")
    return chosen


def per_seed(frame: pd.DataFrame, value: str, where: Mapping[str, object] | None = None,
             seed: str = "seed") -> pd.Series:
    """``value`` per seed among the rows matching ``where`` (one row per seed, else an error)."""
    chosen = _select(frame, where or {})
    if chosen[seed].duplicated().any():
        raise ValueError(f"several rows per seed for {dict(where)}: add a selector")
    return chosen.set_index(seed)[value].sort_index().astype(float)


def paired(first: pd.Series, second: pd.Series, how: str = "difference") -> pd.Series:
    """Per-seed ``first - second`` (``difference``) or ``first / second - 1`` (``relative``),
    on common seeds only: the two must have been run on the same seeds."""
    if set(first.index) != set(second.index):
        raise ValueError(f"paired statistics need the same seeds: {sorted(first.index)} vs {sorted(second.index)}")
    second = second.reindex(first.index)
    if how == "difference":
        return first - second
    if how == "relative":
        return first / second - 1.0
    raise ValueError(f"unknown pairing {how!r}")


def slopes(frame: pd.DataFrame, x: str, value: str, where: Mapping[str, object] | None = None,
           seed: str = "seed") -> pd.Series:
    """Per seed, the least-squares slope of ``value`` against ``x`` (the sign of a trend)."""
    chosen = _select(frame, where or {})
    result = {}
    for key, group in chosen.groupby(seed, sort=True):
        if group[x].nunique() < 2:
            raise NotMeasured(f"seed {key}: fewer than two values of {x} to fit a trend")
        result[key] = least_squares_slope(group[x], group[value])
    return pd.Series(result, dtype=float).sort_index()


def least_squares_slope(x, y) -> float:
    """The least-squares slope of ``y`` against ``x``, exactly 0 where ``y`` does not change.

    A general fit (``np.polyfit``) leaves round-off of about 1e-19 on a constant series, and
    identical per-seed round-off has a zero-width interval that lies strictly on one side of
    0: a flat metric would pass for a trend.  Measuring from the first value keeps a constant
    series at exactly 0."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    dx, dy = x - x.mean(), y - y[0]
    return float((dx * dy).sum() / (dx * dx).sum())


def part(label: str, series: pd.Series, no_effect: pd.Series | None = None) -> Part:
    """A ``Part`` from a per-seed series (index: seeds); ``no_effect``, per seed, what the series would be had
    the studied change no effect (the same seed's baseline run)."""
    seeds = tuple(int(s) for s in series.index)
    nulls = () if no_effect is None else tuple(float(v) for v in no_effect.reindex(series.index).to_numpy())
    return Part(label, tuple(float(v) for v in series.to_numpy()), seeds, no_effect=nulls)


def single(series: pd.Series, label: str = "") -> Measurement:
    return Measurement((part(label, series),))


# Writing and showing a ledger: the same for a stage page and for the five-paper index.

LEDGER_STEM = "claims"


def write_ledger(directory, frame: pd.DataFrame, title: str = "Claims ledger") -> None:
    """``claims.csv``, ``claims.md`` and ``claims.tex`` in ``directory``."""
    write_table(directory, LEDGER_STEM, frame, title)


def _interval_text(row) -> str:
    if not math.isfinite(row.ours):
        return ""
    return interval_text(row.ours, row.low, row.high, getattr(row, "unit", ""))


def claim_anchors(ledger: pd.DataFrame) -> list[str]:
    """Each row's anchor on a page: its claim id, prefixed by its paper where two papers use the same id."""
    counts = ledger["claim_id"].value_counts()
    return [f"{paper}-{claim}" if counts[claim] > 1 else claim for paper, claim in zip(ledger["paper"], ledger["claim_id"])]


def counts_sentence(frame: pd.DataFrame) -> str:
    basis = frame["basis"] if "basis" in frame.columns else pd.Series("result", index=frame.index)
    counts = frame.loc[basis == "result", "verdict"].value_counts()
    parts = [f"{int(counts[v])} {verdict_words(v)}" for v in VERDICTS if v in counts]
    sentence = f"{int(counts.sum())} claims: " + ", ".join(parts)
    aside = [f"{int((basis == kind).sum())} {kind} row(s)" for kind in NOT_COUNTED if (basis == kind).any()]
    if aside:
        sentence += f" (and {' and '.join(aside)}, judged but not counted)"
    return sentence + "."


VERDICT_RULES = (
    f"Each verdict is computed from the result tables: {INTERVAL_METHOD}; a stochastic claim needs at least "
    f"{MIN_SEEDS} seeds to be decided. A value claim is reproduced when the interval lies inside the paper's value "
    "(its range, or its number +- a tolerance relative to it, clipped to what the quantity can take), not reproduced "
    "when it lies wholly outside, inconclusive across an edge. A direction claim (ordering, trend, threshold) holds "
    "when the whole interval lies on the claimed side of a bound the quantity could cross, and with a paper size is "
    "partial when the direction holds but the size lies outside the paper's. A saturation or censored outcome counts "
    "per seed by its side, decided by a one-sided exact sign test (p < 0.05: with 5 seeds, all five). A claim's parts "
    "(loads, schemes, workloads) combine: all reproduced, reproduced; any part significantly against the claim, not "
    "reproduced (unless the paper allows exceptions); the direction holding on a majority of parts, or on a subset "
    "the paper names, partial; otherwise inconclusive. Not attempted: measured on hardware we do not simulate, or "
    "not run at this profile (reason given). Calibration rows (a model constant was chosen on this number) and "
    "invariant rows (the simulator enforces the statement on every run) are judged and shown but not counted."
)
"""The verdict rules in one paragraph, as every ledger page and the README state them."""


def ledger_blocks(frame: pd.DataFrame, link_prefix: str = "", heading: str = "Claims ledger",
                  name_with_paper: bool = False) -> list:
    """A heading, how verdicts are reached, and one row per claim, its id (after its paper's
    name with ``name_with_paper``) linking to its data."""
    other_profile = OTHER_PROFILE_VERDICT in frame.columns
    rows = []
    for row in frame.itertuples(index=False):
        name = f"{row.paper} {row.claim_id}" if name_with_paper else row.claim_id
        cell = Link(name, f"{link_prefix}{row.link}") if row.link else name
        basis = getattr(row, "basis", "result")
        verdict = verdict_words(row.verdict)
        cells = [cell, row.location, row.statement, row.paper_value, _interval_text(row),
                 str(row.seeds), verdict if basis in ("", "result") else f"{verdict} ({basis})"]
        if other_profile:
            other = verdict_words(getattr(row, OTHER_PROFILE_VERDICT))
            cells.append(f"{other} (differs)" if other and other != verdict else other)
        rows.append((*cells, row.reason))
    header = ("claim", "where", "claim (our words)", "paper", "ours [95 % interval]", "seeds", "verdict",
              *(("verdict at the other profile",) if other_profile else ()), "why")
    return [Heading(heading), paragraph(counts_sentence(frame)), paragraph(VERDICT_RULES),
            table(header, rows, (4, 5), row_ids=claim_anchors(frame))]
