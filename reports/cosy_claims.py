"""The claims of the COSY paper's evaluation, as ledger records (``schedlab.reports.ledger``).

Paper: W. Cao and M. Zimmermann (NEC Europe), "Queue Scheduling and Advance Reservations
with COSY", IPDPS 2004: section 4.4 (Table 1, Figures 2-5), the conclusions (section 5) and
the abstract and introduction, which restate them.

The claims read two result tables of the stage report, restricted to the workload and W
reading the ledger judges (``parameters.json`` names them; the report does the filtering):

``runs``       one row per run: ``seed``, ``share`` (p as a fraction), ``policy``
               ("fixed", "adaptive", diagnostics), ``factor`` (the policy's n; empty for
               the adaptive policy) and the run's metrics ``q``, ``utilization``,
               ``rejection_rate``, ``measured_notice`` (wa / wq) and ``max_queue_wait``.
``baselines``  one row per seed: the run without reservations (``utilization``,
               ``max_queue_wait``).

Every point of a workload runs on the same seeds (common random numbers), so trends are
per-seed slopes and comparisons with the baseline per-seed paired differences.

How the rows are made:

* One row per statement of the paper.  Table 1 states three quantities over experiments 2-12
  (q, u and r): one row each, whose parts are the column's eleven cells (``Claim.cells``), every
  cell judged against its own number with the project's tolerance for a number printed in a table
  (``schedlab.reports.ledger``); exp. 1's u, the baseline, is a row of its own (the calibration).
  That band of ours often holds what no reservation effect would give (q = 1, r = 0, u as without
  reservations), so a cell holds only where the runs also tell it from no effect: the ledger's
  no-effect test, u paired with the same seed's run without reservations.
  The text's "+19 % in exp. No. 2" and "+76 % in exp. No. 7" print the q of those cells
  again: they are the same statement, in q's row.  A cell is compared at the fixed
  policy's grid factor whose mean measured n (wa / wq) over seeds, at the row's p, is
  nearest the row's n (the paper's n is the measured ratio, Sec. 4.3).
* Each sentence of Sec. 4.4 and of the conclusions that states a trend over the whole
  figure (q rises with p; q falls with n; q > 1 at n = 1 for any p; u falls with p and with
  n; r rises with p and falls with n; the notice needed for q ~ 1 grows with p) is one row,
  its parts every p or n of our grid the sentence covers (n within the paper's range
  0.84-5.59).  A slope is per 5 % more reservations (the paper's step of p) or per unit of n.
* The notice n at which q comes down to 1 is censored where the grid does not bracket it:
  a seed whose q is at most 1 already at the grid's smallest n counts as ``-inf`` (below any
  band), one whose q never comes down to 1 on the grid as ``+inf``; those parts are ordered
  outcomes, decided by a sign test on the side of each seed.
* A statistic that is the same on every seed (a slope exactly 0 on each, as r over n under
  the fixed-point reading of W, where every reservation moves by the same n x W so the
  reservations' conflicts do not change with n) has no spread to sample: it is judged as
  one deterministic value, so that a flat slope fails a strict trend (``seed_invariant``).
* Calibration: the baseline utilization (exp. 1, 74 %) chose the arrival gaps of every
  workload, the one knob tuned; that cell is a ``calibration`` row: judged and shown, not
  counted.  Nothing else was chosen on a judged number: the default workload's sizes and
  times come from the model's description and the paper's setup (``schedlab.workloads.cirne_berman``).

Statements not made into rows, and why: the setup (Sec. 4.2-4.3: one 100-job workload,
32 nodes, p from 5 to 20 %, n stepped "approximately as 1, 2, 3, 4 ..."); Sec. 4.3's "n
can also be calculated as wa / wq after experiments" and Solution I (the notice rule's
design; under the ledger's fixed-point reading wa / wq equals n by construction, within the
search's tolerance, which the page's readings table shows); the Fig. 3 rule itself (a
design, whose outcome is the adaptive-policy row); "a very small amount of advance
reservations are rejected" (a restatement of Table 1's r column, 0-4 %, judged cell by cell,
with no bound of its own); "we assume that the impact [of rejections] is very limited"
(an assumption about the method); the remarks on real-world systems (Sec. 4.4, on u and
r) and on lighter or heavier workloads (beyond the paper's scope, it says).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from schedlab.reports.ledger import (
    MIN_SEEDS, TEXT_NUMBER_TOLERANCE, TEXT_NUMBER_WHY, Claim, Measurement, NotMeasured, Part, Results,
    paired, part, per_seed, slopes,
)

# Table 1 of the paper, experiments 2-12 in order: (p %, n = wa / wq, q, u %, r %).
PAPER_TABLE1 = (
    (5, 1.30, 1.19, 70, 0),
    (5, 2.18, 0.99, 68, 0),
    (10, 0.91, 1.44, 58, 1),
    (10, 2.39, 1.10, 57, 1),
    (10, 4.20, 0.94, 41, 0),
    (15, 0.84, 1.76, 52, 2),
    (15, 3.10, 1.19, 50, 1),
    (15, 3.9, 1.08, 39, 0),
    (20, 1.17, 2.10, 45, 4),
    (20, 3.33, 1.18, 39, 2),
    (20, 5.59, 0.93, 37, 1),
)
FIRST_EXPERIMENT = 2  # PAPER_TABLE1[0] is the paper's exp. No. 2 (No. 1 ran without reservations)
PAPER_BASELINE_UTILIZATION = 74  # Table 1, experiment 1 (no reservations), %
PAPER_N_RANGE = (min(row[1] for row in PAPER_TABLE1), max(row[1] for row in PAPER_TABLE1))
"""The span of n the paper's Figures 2, 4 and 5 cover; our trends over n use the grid factors inside it."""
PAPER_SHARES = (5, 10, 15, 20)

FIXED = "fixed"
ADAPTIVE = "adaptive"
P_STEP = 5
"""A slope over p is given per 5 % more reservations, the paper's step of p."""

# Units, the paper's.
Q_UNIT = "x wq0"  # q: the queue jobs' mean wait as a multiple of the wait without reservations
N_UNIT = "x wq"  # n: the notice as a multiple of the queue jobs' mean wait
U_UNIT = "% of node time"
R_UNIT = "% of all jobs"
HOURS = "h"

# What each quantity can take: the clip of a band, and the range a direction's bound must lie inside.
POSITIVE = (0.0, math.inf)  # q, n: ratios of waits
PERCENT = (0.0, 100.0)  # u, r

TEXT_NUMBER = {"relative_tolerance": TEXT_NUMBER_TOLERANCE, "tolerance_why": TEXT_NUMBER_WHY}
R_ZERO_TOLERANCE = 0.5
R_ZERO_WHY = ("the paper prints r in whole percent of its 100 jobs, so its 0 stands for less than half a percent "
              "(a relative tolerance of a 0 is 0)")

BASELINE_CALIBRATION = ("every workload's arrival gaps are scaled until its run without reservations keeps the nodes "
                        "74 % +- 1 % busy (TARGET_BASELINE_UTILIZATION, simulators/cosy/experiments.py), this number")

def share_percent(share: float) -> int:
    """A reservation share as the paper prints it, in whole percent."""
    return int(round(100 * share))


def _fixed_runs(results: Results) -> pd.DataFrame:
    runs = results["runs"]
    fixed = runs[runs["policy"] == FIXED]
    if fixed.empty:
        raise NotMeasured("no run of the fixed notice policy")
    return fixed.assign(p_percent=fixed["share"].map(share_percent))


def grid_factors(results: Results) -> list[float]:
    """The fixed policy's notice factors n, ascending."""
    return sorted(float(f) for f in _fixed_runs(results)["factor"].unique())


def nearest_measured_n(measured: pd.Series, n: float):
    """The label of ``measured`` (mean measured n, wa / wq, by point) nearest the paper's ``n``, None if
    nothing was measured: where a paper row is compared (see the docstring)."""
    measured = measured.dropna()
    return None if measured.empty else (measured - n).abs().idxmin()


def _measured_by_factor(results: Results, percent: int) -> pd.Series:
    runs = _fixed_runs(results)
    at_share = runs[runs["p_percent"] == percent]
    if at_share.empty:
        raise NotMeasured(f"no fixed-policy run at p = {percent} %")
    return at_share.groupby("factor")["measured_notice"].mean()


def factor_at_measured_n(results: Results, percent: int, n: float) -> float:
    """The grid factor of share ``percent`` whose measured n is nearest ``n`` (``nearest_measured_n``)."""
    factor = nearest_measured_n(_measured_by_factor(results, percent), n)
    if factor is None:
        raise NotMeasured(f"no measured n (wa / wq) at p = {percent} %")
    return float(factor)


def factors_in_paper_range(results: Results) -> list[float]:
    inside = [f for f in grid_factors(results) if PAPER_N_RANGE[0] <= f <= PAPER_N_RANGE[1]]
    if len(inside) < 2:
        raise NotMeasured(f"fewer than two grid factors within the paper's n range {PAPER_N_RANGE}")
    return inside


def _shares(results: Results) -> list[int]:
    return sorted(_fixed_runs(results)["p_percent"].unique())


def _metric(results: Results, metric: str, percent: int, factor: float, scale: float = 1.0) -> pd.Series:
    return per_seed(_fixed_runs(results), metric, {"p_percent": percent, "factor": factor}) * scale


def _point_label(results: Results, percent: int, paper_n: float | None, factor: float) -> str:
    """"p = 5 %, n ~ 1.3 (ours: policy n = 1.5, measured n = 1.49)": a point in the paper's terms and where we met it."""
    measured = _measured_by_factor(results, percent).get(factor, math.nan)
    paper = f"p = {percent} %" + ("" if paper_n is None else f", n ~ {paper_n:g}")
    return f"{paper} (ours: policy n = {factor:g}, measured n = {measured:.2f})"


def ordered_part(label: str, series: pd.Series) -> Part:
    """A ``Part`` of ordered outcomes (infinite values for censored seeds) from a per-seed series."""
    plain = part(label, series)
    return Part(plain.label, plain.values, plain.seeds, ordered=True)


def seed_invariant(parts: list[Part]) -> Measurement:
    """The measurement of ``parts``, deterministic where every part has one value on every seed.

    A statistic that no seed changes (a slope exactly 0 on each) has no sampling spread: its
    zero-width interval would sit on a strict bound, undecided, though the value itself is
    decided.  Judged as one value per part (stated in its label), a flat slope fails a claim
    that the quantity rises or falls.  With fewer than ``MIN_SEEDS`` seeds, or where any part
    varies over seeds, the parts stay per-seed samples."""
    invariant = all(len(p.values) >= MIN_SEEDS and len(set(p.values)) == 1 for p in parts)
    if not invariant:
        return Measurement(tuple(parts))
    return Measurement(tuple(Part(f"{p.label} (the same on all {len(p.values)} seeds)", (p.values[0],))
                             for p in parts), stochastic=False)


# --- Table 1 -----------------------------------------------------------------------------------

TABLE1_METRICS = {
    # column: (metric in the runs, scale to the paper's unit, the paper's name, unit, possible range, column of PAPER_TABLE1)
    "q": ("q", 1.0, "relative queue wait q = wq / wq0", Q_UNIT, POSITIVE, 2),
    "u": ("utilization", 100.0, "utilization u", U_UNIT, PERCENT, 3),
    "r": ("rejection_rate", 100.0, "share r of all jobs refused as reservations", R_UNIT, PERCENT, 4),
}


TABLE1_NO_EFFECT = {"q": 1.0, "r": 0.0}
"""Table 1's q and r had reservations no effect: the queue as fast as without them, nothing refused.  u's is the
same workload's utilization without reservations, per seed (``table1_cell_value``)."""


def table1_cell_value(row: int, column: str):
    """Per seed, the Table 1 cell's metric at the grid factor whose measured n is nearest the row's n; a u cell
    carries, as its no-effect value, the same seed's utilization without reservations."""
    metric, scale, *_ = TABLE1_METRICS[column]
    percent, n = PAPER_TABLE1[row][:2]

    def compute(results: Results) -> Measurement:
        factor = factor_at_measured_n(results, percent, n)
        label = f"exp. {row + FIRST_EXPERIMENT}, " + _point_label(results, percent, n, factor)
        baseline = per_seed(results["baselines"], "utilization") * scale if column == "u" else None
        return Measurement((part(label, _metric(results, metric, percent, factor, scale), baseline),))
    return compute


# The text's own words for two q cells (Sec. 4.4, Mean Wait Time): the same statements, in the cells' rows.
TEXT_ON_CELL = {
    (2, "q"): ("Sec. 4.4 (Mean Wait Time)", "queue jobs wait 19 % longer than without reservations"),
    (7, "q"): ("Sec. 4.4 (Mean Wait Time)", "queue jobs wait 76 % longer than without reservations"),
}


def table1_cell(row: int, column: str, link: str) -> Claim:
    """One number of Table 1 (experiments 2-12): a cell, judged as a part of its column's row."""
    metric, scale, name, unit, possible, index = TABLE1_METRICS[column]
    percent, n = PAPER_TABLE1[row][:2]
    value = PAPER_TABLE1[row][index]
    experiment = row + FIRST_EXPERIMENT
    location, statement = f"Table 1, exp. {experiment}", (
        f"With {percent} % of the jobs reservations asking for a notice of n = {n:g} times the queue's mean wait, "
        f"the {name} is {value:g}{'' if column == 'q' else ' %'}.")
    text = TEXT_ON_CELL.get((experiment, column))
    if text:
        location = f"{location}; {text[0]}"
        statement += f" The text says it in words: {text[1]}."
    tolerance = TEXT_NUMBER if value != 0 else {"tolerance": R_ZERO_TOLERANCE, "tolerance_why": R_ZERO_WHY}
    return Claim(
        f"t1-exp{experiment}-{column}", location, statement, "value",
        f"{column} = {value:g}{'' if column == 'q' else ' %'} at p = {percent} %, n = {n:g}",
        f"runs (fixed): {metric}{'' if scale == 1 else ' x 100'} per seed at the grid's policy n whose mean measured n "
        f"(wa / wq) at p = {percent} % is nearest {n:g}",
        table1_cell_value(row, column), unit=unit, target=float(value), possible=possible, link=link,
        no_effect=TABLE1_NO_EFFECT.get(column), **tolerance,
    )


def baseline_utilization(results: Results) -> Measurement:
    return Measurement((part("no reservations", per_seed(results["baselines"], "utilization") * 100),))


# --- trends over the grid ------------------------------------------------------------------------

def at_n_near_one(metric: str, scale: float = 1.0):
    """The metric at the grid factor whose measured n is nearest 1, one part per p."""
    def compute(results: Results) -> Measurement:
        parts = []
        for percent in _shares(results):
            factor = factor_at_measured_n(results, percent, 1.0)
            parts.append(part(_point_label(results, percent, 1.0, factor), _metric(results, metric, percent, factor, scale)))
        return Measurement(tuple(parts))
    return compute


def slope_over_p(metric: str, scale: float = 1.0):
    """Per seed, the slope of the metric against p per 5 % more reservations, one part per grid factor
    in the paper's n range."""
    def compute(results: Results) -> Measurement:
        runs = _fixed_runs(results)
        return seed_invariant([
            part(f"n = {factor:g}", P_STEP * scale * slopes(runs, "p_percent", metric, {"factor": factor}))
            for factor in factors_in_paper_range(results)
        ])
    return compute


def slope_over_n(metric: str, scale: float = 1.0):
    """Per seed, the slope of the metric against n over the grid factors in the paper's range, one part per p."""
    def compute(results: Results) -> Measurement:
        runs = _fixed_runs(results)
        runs = runs[runs["factor"].isin(factors_in_paper_range(results))]
        return seed_invariant([part(f"p = {p} %", scale * slopes(runs, "factor", metric, {"p_percent": p}))
                               for p in _shares(results)])
    return compute


# --- the notice at which q comes down to 1 ---------------------------------------------------------

def crossing_factor(factors: np.ndarray, qs: np.ndarray) -> float:
    """The smallest n at which q comes down to 1, interpolated linearly between grid factors.

    Censored where the grid does not bracket it: ``-inf`` if q <= 1 at the smallest factor
    already (the crossing lies at or below it), ``+inf`` if q stays above 1 at every factor
    (it lies beyond the grid).  Neither is a measurement, only a side.
    """
    if qs[0] <= 1.0:
        return -math.inf
    for (n0, q0), (n1, q1) in zip(zip(factors, qs), zip(factors[1:], qs[1:])):
        if q1 <= 1.0:
            return float(n0 + (q0 - 1.0) * (n1 - n0) / (q0 - q1))
    return math.inf


def crossing_factors(results: Results, percent: int) -> pd.Series:
    """Per seed, the n at which this p's q comes down to 1 over the whole fixed grid (censored: +-inf)."""
    runs = _fixed_runs(results)
    runs = runs[runs["p_percent"] == percent]
    if runs.empty:
        raise NotMeasured(f"no fixed-policy run at p = {percent} %")
    crossings = {}
    for seed, group in runs.groupby("seed", sort=True):
        group = group.sort_values("factor")
        if group["factor"].nunique() < 2:
            raise NotMeasured(f"seed {seed}: fewer than two notice factors at p = {percent} %")
        crossings[seed] = crossing_factor(group["factor"].to_numpy(float), group["q"].to_numpy(float))
    return pd.Series(crossings, dtype=float)


def crossing_at(percent: int):
    """Per seed, the n at which q comes down to 1 at this p, an ordered outcome (censored at the grid's ends)."""
    def compute(results: Results) -> Measurement:
        return Measurement((ordered_part(f"p = {percent} %", crossing_factors(results, percent)),))
    return compute


def crossing_step(lower: float, higher: float) -> float:
    """How much later q comes down to 1 at the higher p than at the lower, for one seed.

    Either crossing may be censored (``crossing_factor``): a censored one against a finite one,
    or two censored on opposite sides, still has a side (+-inf); two censored on the same side
    have none (0: neither order is seen)."""
    if math.isinf(lower) and math.isinf(higher) and lower == higher:
        return 0.0
    return higher - lower


def crossing_steps(results: Results) -> Measurement:
    """One ordered part per step from one p to the next: per seed, the later crossing minus the earlier."""
    shares = _shares(results)
    if len(shares) < 2:
        raise NotMeasured("fewer than two shares p")
    crossings = {p: crossing_factors(results, p) for p in shares}
    parts = []
    for lower, higher in zip(shares, shares[1:]):
        first, second = crossings[lower], crossings[higher].reindex(crossings[lower].index)
        steps = pd.Series([crossing_step(a, b) for a, b in zip(first, second)], index=first.index, dtype=float)
        parts.append(ordered_part(f"p = {lower} % -> {higher} %", steps))
    return Measurement(tuple(parts))


# --- the rest ----------------------------------------------------------------------------------------

def adaptive_q(results: Results) -> Measurement:
    runs = results["runs"]
    adaptive = runs[runs["policy"] == ADAPTIVE]
    if adaptive.empty:
        raise NotMeasured("the adaptive policy was not run")
    adaptive = adaptive.assign(p_percent=adaptive["share"].map(share_percent))
    return Measurement(tuple(
        part(f"p = {p} % (Fig. 3 rule)", per_seed(adaptive, "q", {"p_percent": p}))
        for p in sorted(adaptive["p_percent"].unique())
    ))


def longest_wait_over_baseline(percent: int, n: float):
    """Per seed, the longest queue wait (hours) at this point minus the same workload's without reservations."""
    def compute(results: Results) -> Measurement:
        factor = factor_at_measured_n(results, percent, n)
        point = _metric(results, "max_queue_wait", percent, factor, 1 / 3600)
        baseline = per_seed(results["baselines"], "max_queue_wait") / 3600
        label = f"exp. 10, {_point_label(results, percent, n, factor)}, minus no reservations"
        return Measurement((part(label, paired(point, baseline.reindex(point.index))),))
    return compute


TABLE1 = "table1.md"
FIG2, FIG3, FIG4, FIG5 = "fig2_q.png", "fig3_chosen_n.png", "fig4_u.png", "fig5_r.png"
STARVATION = "starvation.png"
ADAPTIVE_TABLE = "adaptive.md"
CROSSING_CENSORED = ("an ordered outcome, censored where the grid does not bracket it: -inf where q <= 1 already at "
                     "the grid's smallest n, inf where q stays above 1 up to its largest")
PAPER_RANGE_FACTORS = f"the grid factors within the paper's n range {PAPER_N_RANGE[0]:g}-{PAPER_N_RANGE[1]:g}"

def table1_column(column: str) -> Claim:
    """One quantity of Table 1 over experiments 2-12: one statement, its eleven cells its parts, each judged against
    its own number (the text's two restatements of q cells with them)."""
    _, _, name, unit, _, index = TABLE1_METRICS[column]
    cells = tuple(table1_cell(row, column, TABLE1) for row in range(len(PAPER_TABLE1)))
    printed = ", ".join(f"{row[index]:g}" for row in PAPER_TABLE1)
    restated = [f"exp. {experiment}: {words}" for (experiment, cell_column), (_, words) in TEXT_ON_CELL.items()
                if cell_column == column]
    return Claim(
        f"t1-{column}", "Table 1, exps. 2-12" + ("; Sec. 4.4 (Mean Wait Time)" if restated else ""),
        f"Table 1 gives the {name} of each experiment with reservations (p = 5-20 %, n = 0.84-5.59)."
        + (f" The text restates two of them ({'; '.join(restated)})." if restated else ""),
        "value", f"{column} = {printed}{'' if column == 'q' else ' %'} (exps. 2-12)",
        f"runs (fixed), per cell: the cell's metric per seed at the grid's policy n whose mean measured n (wa / wq) at "
        "the row's p is nearest the row's n; every cell judged against its own number",
        unit=unit, cells=cells, link=TABLE1,
    )


TABLE1_CLAIMS = tuple(table1_column(column) for column in ("q", "u", "r"))

CLAIMS = (
    Claim(
        "t1-exp1-u", "Table 1, exp. 1; Sec. 4.4",
        "Without reservations the workload keeps the 32 nodes 74 % busy, first submission to last end.",
        "value", "u = 74 %", "baselines: utilization x 100, per seed", baseline_utilization,
        unit=U_UNIT, target=PAPER_BASELINE_UTILIZATION, **TEXT_NUMBER, possible=PERCENT, link=TABLE1,
        basis="calibration", basis_why=BASELINE_CALIBRATION,
    ),
    *TABLE1_CLAIMS,
    Claim(
        "fig2-q-above-one-n1", "Sec. 4.4 (Mean Wait Time), Fig. 2; abstract",
        "Where reservations gain no start-time advantage (n = 1), queue jobs still wait longer than without "
        "reservations, whatever the share p of reservations: q > 1.",
        "threshold", "q > 1 at n = 1 for any p (Table 1: 1.19, 1.44, 1.76, 2.10 at p = 5-20 %)",
        "runs (fixed): q per seed at the grid's policy n whose mean measured n is nearest 1; one part per p",
        at_n_near_one("q"), unit=Q_UNIT, possible=POSITIVE, side="above", bound=1.0, link=FIG2,
    ),
    Claim(
        "fig2-q-rises-with-p", "Sec. 4.4 (Mean Wait Time), Fig. 2",
        "The larger the share of reservations, the longer queue jobs wait: q rises with p.",
        "trend", "rises (Table 1 at n ~ 1: q = 1.19, 1.44, 1.76, 2.10 for p = 5, 10, 15, 20 %)",
        f"runs (fixed): per-seed least-squares slope of q over p, per {P_STEP} % more reservations; one part per "
        f"each of {PAPER_RANGE_FACTORS}",
        slope_over_p("q"), unit=f"{Q_UNIT} per {P_STEP} % more reservations", side="above", bound=0.0, link=FIG2,
    ),
    Claim(
        "fig2-q-falls-with-n", "Sec. 4.4 (Mean Wait Time), Fig. 2",
        "A longer notice n lowers q, at every share p ('in any case').",
        "trend", "falls (e.g. p = 20 %: q = 2.10, 1.18, 0.93 at n = 1.17, 3.33, 5.59)",
        f"runs (fixed): per-seed least-squares slope of q over n on {PAPER_RANGE_FACTORS}; one part per p",
        slope_over_n("q"), unit=f"{Q_UNIT} per unit of n", side="below", bound=0.0, link=FIG2,
    ),
    Claim(
        "sec44-n-q1-p5", "Sec. 4.4 (Mean Wait Time), exp. 3",
        "With 5 % reservations a notice of n = 2.18 already makes the queue as fast as without reservations.",
        "value", "n = 2.18 (q = 0.99)",
        "runs (fixed, p = 5 %): per seed, the smallest n at which q <= 1, interpolated between grid factors; "
        f"{CROSSING_CENSORED}",
        crossing_at(5), unit=N_UNIT, target=2.18, **TEXT_NUMBER, possible=POSITIVE, link=FIG3,
    ),
    Claim(
        "sec44-n-q1-p15", "Sec. 4.4 (Mean Wait Time), exp. 9",
        "With 15 % reservations the notice must be as long as n = 3.9 before the queue is about as fast as "
        "without reservations.",
        "value", "n = 3.9 (q = 1.08)",
        "runs (fixed, p = 15 %): per seed, the smallest n at which q <= 1, interpolated between grid factors; "
        f"{CROSSING_CENSORED}",
        crossing_at(15), unit=N_UNIT, target=3.9, **TEXT_NUMBER, possible=POSITIVE, link=FIG3,
    ),
    Claim(
        "fig3-n-q1-rises-with-p", "Sec. 4.4 (Mean Wait Time), Fig. 3; abstract; Sec. 1",
        "The more jobs are reservations, the longer the notice must be before the queue is as fast as without "
        "them (the basis of the Fig. 3 rule, n from 1 to 4 as p goes from 0 to 15 %).",
        "trend", "rises (Table 1: n = 2.18, 4.20, 3.9, 5.59 where q ~ 1, at p = 5, 10, 15, 20 %)",
        "runs (fixed): per seed, the n at which q comes down to 1 at the higher p minus at the lower, for each "
        "step of p (as in sec44-n-q1-*, where a crossing is censored: a censored crossing gives the step a side, "
        "+-inf, two censored on the same side give none, 0)",
        crossing_steps, unit=N_UNIT, side="above", bound=0.0, link=FIG3,
    ),
    Claim(
        "fig3-adaptive-no-penalty", "Sec. 5, Solution II; Sec. 4.4, Fig. 3",
        "The proposed rule (n = 1 + 3 p / 15 %, reservations refused while p > 15 %) leaves the queue as fast as "
        "without reservations at every share p (the paper proposes it but did not simulate it).",
        "value", "no queue wait penalty: q = 1, as without reservations (Table 1, exp. 1)",
        "runs (adaptive): q per seed; one part per p",
        adaptive_q, unit=Q_UNIT, target=1.0, **TEXT_NUMBER, possible=POSITIVE, link=ADAPTIVE_TABLE,
    ),
    Claim(
        "sec44-starvation-p20", "Sec. 4.4, exp. 10",
        "At p = 20 % and n ~ 1 some large queue jobs find no gap between reservations: they wait far longer "
        "than any job without reservations (in a real system, for ever).",
        "ordering", "large jobs cannot be scheduled (no number given)",
        "runs (fixed) and baselines: per seed, the longest queue wait (h) at p = 20 % at the grid's policy n whose "
        "mean measured n is nearest 1.17, minus the same workload's longest wait without reservations (paired)",
        longest_wait_over_baseline(20, 1.17), unit=HOURS, side="above", bound=0.0, link=STARVATION,
    ),
    Claim(
        "fig4-u-falls-with-p", "Sec. 4.4 (Resource Utilization), Fig. 4; Sec. 1",
        "The more jobs are reservations, the lower the utilization.",
        "trend", "falls (Table 1 at n ~ 1: u = 70, 58, 52, 45 % for p = 5, 10, 15, 20 %)",
        f"runs (fixed): per-seed least-squares slope of utilization x 100 over p, per {P_STEP} % more reservations; "
        f"one part per each of {PAPER_RANGE_FACTORS}",
        slope_over_p("utilization", 100), unit=f"{U_UNIT} per {P_STEP} % more reservations", side="below",
        bound=0.0, link=FIG4,
    ),
    Claim(
        "fig4-u-falls-with-n", "Sec. 4.4 (Resource Utilization), Fig. 4",
        "Postponing reservations (larger n) does not raise utilization but lowers it slightly, most where they "
        "are postponed most (exps. 6, 9, 12).",
        "trend", "falls (e.g. p = 10 %: u = 58, 57, 41 % at n = 0.91, 2.39, 4.20)",
        f"runs (fixed): per-seed least-squares slope of utilization x 100 over n on {PAPER_RANGE_FACTORS}; "
        "one part per p",
        slope_over_n("utilization", 100), unit=f"{U_UNIT} per unit of n", side="below", bound=0.0, link=FIG4,
    ),
    Claim(
        "fig4-u-end-effect", "Sec. 4.4 (Resource Utilization)",
        "The low utilization at large n comes from reservations placed after every queue job had finished, "
        "leaving idle nodes at the experiment's end.",
        "ordering", "explanation from the paper's raw data (exps. 6, 9, 12)",
        "needs, per run, what ran last and the idle time after the last queue job",
        unit=U_UNIT,
        not_attempted="our result tables keep per-run metrics only, not the per-job end times this explanation "
        "needs (the simulator's schedules are not kept by the report)",
        link=FIG4,
    ),
    Claim(
        "fig5-r-rises-with-p", "Sec. 4.4 (Rejection Rate), Fig. 5",
        "The more jobs are reservations, the more of them conflict and are refused: r rises with p.",
        "trend", "rises (Table 1 at n ~ 1: r = 0, 1, 2, 4 % for p = 5, 10, 15, 20 %)",
        f"runs (fixed): per-seed least-squares slope of rejection_rate x 100 over p, per {P_STEP} % more "
        f"reservations; one part per each of {PAPER_RANGE_FACTORS}",
        slope_over_p("rejection_rate", 100), unit=f"{R_UNIT} per {P_STEP} % more reservations", side="above",
        bound=0.0, link=FIG5,
    ),
    Claim(
        "fig5-r-falls-with-n", "Sec. 4.4 (Rejection Rate), Fig. 5",
        "A longer notice spreads reservations apart, so fewer are refused: r falls as n grows.",
        "trend", "falls (e.g. p = 20 %: r = 4, 2, 1 % at n = 1.17, 3.33, 5.59)",
        f"runs (fixed): per-seed least-squares slope of rejection_rate x 100 over n on {PAPER_RANGE_FACTORS}; "
        "one part per p (a slope the same on every seed is judged as one value: exactly 0 fails)",
        slope_over_n("rejection_rate", 100), unit=f"{R_UNIT} per unit of n", side="below", bound=0.0, link=FIG5,
    ),
)
"""Every checkable statement of the paper's section 4.4 and conclusions, one row each."""
