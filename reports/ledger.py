"""The claims ledger: every checkable claim of a paper as one record, judged by one engine.

A ``Claim`` says what the paper reports (where, in our words, its value), what kind of
test decides it and with what tolerance, and how our number is computed from a stage's
result tables (``compute``).  ``compute`` returns a ``Measurement``: one or more
``Part``s, each a statistic per seed.  The statistic is whatever the claim is about: a
value (a mean wait), a paired per-seed difference between two policies run on the same
seeds (common random numbers), or a per-seed slope over a swept parameter.  A claim
that holds "at every load" has one part per load.

Verdicts (``judge``) come from the 95 % Student-t interval of the mean of each part's
per-seed values (seeds are independent replications, so the t interval of their mean is
the textbook one; paired differences make it an interval of the paired t test):

``value``      the paper's value ``target`` within ``tolerance``: reproduced when the
               interval lies inside the band ``target +- tolerance``; when it lies
               wholly outside, ``partial`` if it has the paper's sign (direction right,
               size off), else ``not_reproduced``; ``inconclusive`` when it straddles a
               band edge.
``ordering``,  the statistic lies on ``side`` ("above" or "below") of ``bound`` (0 for a
``trend``,     paired difference or a slope): the claim holds when the whole interval
``threshold``  does, is broken (``not_reproduced``) when the whole interval lies on the
               other side, else ``inconclusive``.  With a ``target`` too (the paper's
               size of the effect), a holding claim is ``reproduced`` when the interval
               lies inside the band, ``partial`` when outside, ``inconclusive`` between.

A stochastic part with fewer than ``MIN_SEEDS`` seeds is ``inconclusive`` whatever its
values.  Deterministic measurements (``stochastic=False``, one value each) are judged on
the value itself.  Parts combine as: all reproduced -> reproduced; some holding (reproduced
or partial) and some broken -> partial, naming where it holds; none holding and some
broken -> not_reproduced; otherwise (some undecided, none broken) inconclusive, or
partial if a part is partial.  ``compute`` raising ``NotMeasured`` gives ``not_attempted``
with its message; so does a claim with ``not_attempted`` set (measured on real hardware,
say).  Any other error propagates: a broken measurement fails the report loudly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from reports.document import Heading, Link, paragraph, table
from reports.tables import write_table

VERDICTS = ("reproduced", "partial", "not_reproduced", "inconclusive", "not_attempted")
KINDS = ("value", "ordering", "trend", "threshold")
SIDES = ("above", "below")
MIN_SEEDS = 5
"""Fewest seeds on which a stochastic claim may be decided."""
CONFIDENCE = 0.95
INTERVAL_METHOD = "Student-t 95 % interval of the mean of per-seed values (paired per seed where two runs are compared)"

LEDGER_COLUMNS = (
    "paper", "claim_id", "location", "statement", "kind", "paper_value",
    "ours", "low", "high", "seeds", "profile", "verdict", "reason",
)
"""The columns every ledger starts with; ``EXTRA_COLUMNS`` follow."""
EXTRA_COLUMNS = ("tolerance", "measure", "link")
OTHER_PROFILE_VERDICT = "other_profile_verdict"
"""Optional column: the same claim's verdict at the other profile (quick vs paper), shown and flagged when it differs."""


class NotMeasured(Exception):
    """Raised by a claim's ``compute`` when the results at hand cannot measure it (the reason)."""


@dataclass(frozen=True)
class Part:
    """One statistic, one value per seed (``seeds`` name them, in the same order)."""

    label: str
    values: tuple[float, ...]
    seeds: tuple[int, ...] = ()

    def __post_init__(self):
        if self.seeds and len(self.seeds) != len(self.values):
            raise ValueError(f"part {self.label!r}: {len(self.values)} values for {len(self.seeds)} seeds")


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
    """One checkable claim of a paper's evaluation.

    ``target`` and ``tolerance`` are in the unit of our statistic; ``paper_value`` is the
    paper's own wording of the number(s) (its unit).  ``link`` names the file of the stage
    report (figure or table) where the reader sees the claim's data.
    """

    claim_id: str
    location: str
    statement: str
    kind: str
    paper_value: str
    measure: str
    compute: Callable[[Results], Measurement] | None = None
    target: float | None = None
    tolerance: float | None = None
    tolerance_why: str = ""
    side: str = "above"
    bound: float = 0.0
    link: str = ""
    not_attempted: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"claim {self.claim_id}: kind {self.kind!r} is not one of {KINDS}")
        if self.side not in SIDES:
            raise ValueError(f"claim {self.claim_id}: side {self.side!r} is not one of {SIDES}")
        if self.kind == "value" and (self.target is None or self.tolerance is None):
            raise ValueError(f"claim {self.claim_id}: a value claim needs a target and a tolerance")
        if (self.target is None) != (self.tolerance is None):
            raise ValueError(f"claim {self.claim_id}: target and tolerance go together")
        if self.compute is None and not self.not_attempted:
            raise ValueError(f"claim {self.claim_id}: no compute and no reason for not attempting it")

    def tolerance_text(self) -> str:
        if self.tolerance is None:
            return ""
        text = f"+-{_number(self.tolerance)}"
        return f"{text} ({self.tolerance_why})" if self.tolerance_why else text


@dataclass(frozen=True)
class Verdict:
    verdict: str
    ours: float
    low: float
    high: float
    seeds: int
    reason: str


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


def _number(value: float) -> str:
    if not math.isfinite(value):
        return "nan"
    return f"{value:.3g}" if abs(value) < 1e4 else f"{value:.0f}"


def _side_of(low: float, high: float, bound: float) -> str:
    """Where the interval lies: 'above' or 'below' the bound, or 'across' it."""
    if low > bound:
        return "above"
    if high < bound:
        return "below"
    return "across"


def _band_check(low: float, high: float, target: float, tolerance: float) -> str:
    """'inside', 'outside' or 'across' the band ``target +- tolerance``."""
    if low >= target - tolerance and high <= target + tolerance:
        return "inside"
    if high < target - tolerance or low > target + tolerance:
        return "outside"
    return "across"


def _judge_part(claim: Claim, part: Part, stochastic: bool) -> Verdict:
    n = len(part.values)
    mean, low, high = interval(part.values)
    if not stochastic:
        if n != 1:
            raise ValueError(f"claim {claim.claim_id}: a deterministic part has one value, got {n}")
        low = high = mean
    elif not math.isfinite(mean):
        return Verdict("inconclusive", mean, low, high, n, "no finite value to judge")
    elif n < MIN_SEEDS:
        return Verdict("inconclusive", mean, low, high, n, f"{n} seed(s): at least {MIN_SEEDS} are needed to decide")
    where = f"{_number(mean)} [{_number(low)}, {_number(high)}]" if stochastic else _number(mean)
    band = None if claim.target is None else f"{_number(claim.target)} +- {_number(claim.tolerance)}"

    if claim.kind == "value":
        fit = _band_check(low, high, claim.target, claim.tolerance)
        if fit == "inside":
            return Verdict("reproduced", mean, low, high, n, f"{where} inside {band}")
        if fit == "across":
            return Verdict("inconclusive", mean, low, high, n, f"{where} straddles the edge of {band}")
        same_sign = claim.target != 0 and _side_of(low, high, 0.0) == ("above" if claim.target > 0 else "below")
        if same_sign:
            return Verdict("partial", mean, low, high, n, f"{where} has the paper's sign but lies outside {band}")
        return Verdict("not_reproduced", mean, low, high, n, f"{where} lies outside {band}")

    claimed = f"{claim.side} {_number(claim.bound)}"
    side = _side_of(low, high, claim.bound)
    if side == "across" and not stochastic:  # a single value equal to the bound: a strict claim fails
        return Verdict("not_reproduced", mean, low, high, n, f"{where} equals {_number(claim.bound)}, not {claimed}")
    if side == "across":
        return Verdict("inconclusive", mean, low, high, n, f"{where} is not wholly {claimed}")
    if side != claim.side:
        return Verdict("not_reproduced", mean, low, high, n, f"{where} lies {side} {_number(claim.bound)}, not {claimed}")
    if claim.target is None:
        return Verdict("reproduced", mean, low, high, n, f"{where} lies {claimed}")
    fit = _band_check(low, high, claim.target, claim.tolerance)
    if fit == "inside":
        return Verdict("reproduced", mean, low, high, n, f"{where} lies {claimed}, inside {band}")
    if fit == "outside":
        return Verdict("partial", mean, low, high, n, f"{where} lies {claimed} (direction right) but outside {band}")
    return Verdict("inconclusive", mean, low, high, n, f"{where} lies {claimed}; its size straddles the edge of {band}")


HOLDING = ("reproduced", "partial")


def _combine(parts: Sequence[tuple[Part, Verdict]]) -> Verdict:
    if len(parts) == 1:
        part_, verdict = parts[0]
        if not part_.label:
            return verdict
        return Verdict(verdict.verdict, verdict.ours, verdict.low, verdict.high, verdict.seeds,
                       f"{part_.label}: {verdict.reason}")
    verdicts = [v.verdict for _, v in parts]
    holding = [p.label for p, v in parts if v.verdict in HOLDING]
    broken = [p.label for p, v in parts if v.verdict == "not_reproduced"]
    if all(v == "reproduced" for v in verdicts):
        overall = "reproduced"
    elif holding and broken:
        overall = "partial"
    elif broken:
        overall = "not_reproduced"
    elif "partial" in verdicts:
        overall = "partial"
    else:
        overall = "inconclusive"
    # The part shown in ours/low/high is the first whose verdict is the claim's, else the first broken one.
    shown = next((v for _, v in parts if v.verdict == overall), None) or next(
        v for _, v in parts if v.verdict != "reproduced"
    )
    details = "; ".join(f"{p.label}: {v.verdict} ({v.reason})" for p, v in parts)
    summary = f"holds at {', '.join(holding)}; " if overall == "partial" and broken else ""
    return Verdict(overall, shown.ours, shown.low, shown.high, min(v.seeds for _, v in parts), summary + details)


def judge(claim: Claim, results: Results) -> Verdict:
    """The claim's verdict on ``results`` (see the module docstring for the rules)."""
    if claim.not_attempted:
        return Verdict("not_attempted", math.nan, math.nan, math.nan, 0, claim.not_attempted)
    try:
        measurement = claim.compute(results)
    except NotMeasured as missing:
        return Verdict("not_attempted", math.nan, math.nan, math.nan, 0, str(missing))
    judged = [(part, _judge_part(claim, part, measurement.stochastic)) for part in measurement.parts]
    return _combine(judged)


def ledger(paper: str, claims: Sequence[Claim], results: Results, profile: str) -> pd.DataFrame:
    """One row per claim with the columns of ``LEDGER_COLUMNS`` and ``EXTRA_COLUMNS``."""
    ids = [claim.claim_id for claim in claims]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{paper}: claim ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    rows = []
    for claim in claims:
        verdict = judge(claim, results)
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
        })
    return pd.DataFrame(rows, columns=[*LEDGER_COLUMNS, *EXTRA_COLUMNS])


def unattempted_ledger(paper: str, claims: Sequence[Claim], profile: str, reason: str) -> pd.DataFrame:
    """The ledger of a paper whose stage did not run: every claim not attempted, for ``reason``."""
    unmeasured = [Claim(**{**c.__dict__, "compute": None, "not_attempted": reason}) for c in claims]
    return ledger(paper, unmeasured, {}, profile)


NUMBER_COLUMNS = ("ours", "low", "high")


def read_ledger(path) -> pd.DataFrame:
    """A ledger CSV as ``ledger`` made it: numbers as floats (NaN where empty), text as text ("" where empty)."""
    frame = pd.read_csv(path, keep_default_na=False)
    for column in NUMBER_COLUMNS:
        frame[column] = pd.to_numeric(frame[column].replace("", math.nan), errors="raise").astype(float)
    frame["seeds"] = frame["seeds"].astype(int)
    return frame


def verdict_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """Per paper, how many claims got each verdict (every verdict a column, in ``VERDICTS`` order)."""
    counts = pd.crosstab(frame["paper"], frame["verdict"]).reindex(columns=list(VERDICTS), fill_value=0)
    counts = counts.reindex(list(dict.fromkeys(frame["paper"])))
    counts["claims"] = counts.sum(axis=1)
    return counts.reset_index()


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


def part(label: str, series: pd.Series) -> Part:
    """A ``Part`` from a per-seed series (index: seeds)."""
    return Part(label, tuple(float(v) for v in series.to_numpy()), tuple(int(s) for s in series.index))


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
    if math.isfinite(row.low):
        return f"{_number(row.ours)} [{_number(row.low)}, {_number(row.high)}]"
    return _number(row.ours)


def counts_sentence(frame: pd.DataFrame) -> str:
    counts = frame["verdict"].value_counts()
    parts = [f"{int(counts[v])} {v.replace('_', ' ')}" for v in VERDICTS if v in counts]
    return f"{len(frame)} claims: " + ", ".join(parts) + "."


def ledger_blocks(frame: pd.DataFrame, link_prefix: str = "", heading: str = "Claims ledger",
                  name_with_paper: bool = False) -> list:
    """A heading, how verdicts are reached, and one row per claim, its id (after its paper's
    name with ``name_with_paper``) linking to its data."""
    other_profile = OTHER_PROFILE_VERDICT in frame.columns
    rows = []
    for row in frame.itertuples(index=False):
        name = f"{row.paper} {row.claim_id}" if name_with_paper else row.claim_id
        cell = Link(name, f"{link_prefix}{row.link}") if row.link else name
        cells = [cell, row.location, row.statement, row.paper_value, _interval_text(row),
                 str(row.seeds), row.verdict.replace("_", " ")]
        if other_profile:
            other = getattr(row, OTHER_PROFILE_VERDICT).replace("_", " ")
            cells.append(f"{other} (differs)" if other and other != cells[-1] else other)
        rows.append((*cells, row.reason))
    header = ("claim", "where", "claim (our words)", "paper", "ours [95 % interval]", "seeds", "verdict",
              *(("verdict at the other profile",) if other_profile else ()), "why")
    method = (
        f"Each verdict is computed from the result tables: {INTERVAL_METHOD}; a stochastic claim needs at least "
        f"{MIN_SEEDS} seeds to be decided. reproduced: inside the paper's value +- the tolerance, or the claimed "
        "direction holds over the whole interval; partial: direction right but size off, or holds on a named subset "
        "only; not reproduced: the interval excludes the claim; inconclusive: the interval is too wide to decide; "
        "not attempted: measured on hardware we do not simulate, or not run at this profile (reason given)."
    )
    return [Heading(heading), paragraph(counts_sentence(frame)), paragraph(method), table(header, rows, (4, 5))]
