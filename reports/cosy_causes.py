"""Measured causes of the COSY claims our runs do not reproduce.

A claim judged anything but reproduced gets what our runs measure behind its statistic, every
number a mean over the workloads (seeds) of the ledger's runs, in the paper's terms: how long
queue jobs wait against the run without reservations, split by the two diagnostics (refused
reservations run as queue jobs instead of dropped; reservations asking for ``submit + n x wq0``,
W held at the baseline's), the share of the work refused reservations took off the machine, how
long the notice ``n x W`` is against the run window, how many reservation requests conflicted at
each n, and how long the longest queue wait is.  An undecided claim's cause starts with its
seeds' spread (``schedlab.reports.causes``).
"""

from __future__ import annotations

import math

import pandas as pd

from schedlab.reports.causes import Cause, column_mean, measured_causes, row_causes
from schedlab.reports.cosy_claims import (
    CLAIMS,
    FIRST_EXPERIMENT,
    PAPER_SHARES,
    PAPER_TABLE1,
    TABLE1_CLAIMS,
    factor_at_measured_n,
    grid_factors,
    share_percent,
)
from schedlab.reports.ledger import NotMeasured, Results

HOUR = 3600.0


def _point(results: Results, policy: str, percent: int, factor: float | None = None) -> pd.DataFrame:
    """The runs of ``policy`` at share ``percent`` (and at the grid factor nearest ``factor``, if given)."""
    runs = results["runs"]
    runs = runs[(runs["policy"] == policy) & (runs["share"].map(share_percent) == percent)]
    if runs.empty:
        raise NotMeasured(f"no run of the {policy} policy at p = {percent} %")
    if factor is None:
        return runs
    nearest = min(runs["factor"].unique(), key=lambda f: abs(float(f) - factor))
    return runs[runs["factor"] == nearest]


def _baseline(results: Results, column: str) -> float:
    return column_mean(results["baselines"], column, "baselines")


def _factor(runs: pd.DataFrame) -> float:
    return float(runs["factor"].iloc[0])


def _diagnostic_q(results: Results, policy: str, percent: int, factor: float, label: str) -> str:
    """``; <label>, q = ... (n = ...)``, or nothing where the diagnostic did not run."""
    try:
        runs = _point(results, policy, percent, factor)
    except NotMeasured:
        return ""
    return f"; {label}, q = {column_mean(runs, 'q'):.2f} (n = {_factor(runs):g})"


def queue_wait(percent: int, n: float) -> Cause:
    """q at the ledger's point beside the two diagnostics' q and the work refusals dropped."""
    def cause(results: Results, parameters: dict) -> str:
        factor = factor_at_measured_n(results, percent, n)
        fixed = _point(results, "fixed", percent, factor)
        wait = _baseline(results, "mean_queue_wait")
        return (
            f"p = {percent} %, policy n = {factor:g}: queue jobs wait q = {column_mean(fixed, 'q'):.2f} x wq0, with the "
            f"refused reservations ({100 * column_mean(fixed, 'rejection_rate'):.1f} % of all jobs) taking "
            f"{100 * column_mean(fixed, 'rejected_work_share'):.1f} % of the work off the machine"
            + _diagnostic_q(results, "requeue", percent, factor, "run as queue jobs instead")
            + _diagnostic_q(results, "oracle", percent, factor, "asking for submit + n x wq0")
            + f". Without reservations queue jobs wait {wait / HOUR:.1f} h on average, "
            f"{100 * wait / _baseline(results, 'makespan'):.1f} % of the run window."
        )
    return cause


def utilization(percent: int, n: float) -> Cause:
    """u at the ledger's point against the baseline's: work dropped by refusals, the window's growth and the notice."""
    def cause(results: Results, parameters: dict) -> str:
        factor = factor_at_measured_n(results, percent, n)
        fixed = _point(results, "fixed", percent, factor)
        window = _baseline(results, "makespan")
        growth = column_mean(fixed, "makespan") / window - 1
        notice = factor * column_mean(fixed, "notice_wait")
        notice_text = (f"; a reservation's notice n x W is {notice / HOUR:.1f} h, {100 * notice / window:.1f} % of "
                       "the window" if math.isfinite(notice) else "")
        return (
            f"p = {percent} %, policy n = {factor:g}: u = {100 * column_mean(fixed, 'utilization'):.1f} % against "
            f"{100 * _baseline(results, 'utilization'):.1f} % without reservations; refused reservations took "
            f"{100 * column_mean(fixed, 'rejected_work_share'):.1f} % of the work off the machine and the run window "
            f"({window / 86_400:.1f} days without reservations) grew by {100 * growth:.1f} %{notice_text}."
        )
    return cause


def rejections(percent: int) -> Cause:
    """r at every grid factor of one share, and how many requests that is."""
    def cause(results: Results, parameters: dict) -> str:
        fixed = _point(results, "fixed", percent)
        columns = ["rejection_rate", "reservations_rejected", "reservations_requested"]
        for column in columns:
            column_mean(fixed, column)
        by_factor = fixed.groupby("factor")[columns].mean()
        values = ", ".join(f"{100 * rate:.2f}" for rate in by_factor["rejection_rate"])
        factors = ", ".join(f"{f:g}" for f in by_factor.index)
        return (
            f"p = {percent} %: r = {values} % of all jobs at n = {factors} "
            f"({by_factor['reservations_rejected'].mean():.2f} of {by_factor['reservations_requested'].mean():.0f} "
            "reservation requests refused per workload, each for a conflict with accepted reservations: requests ask "
            "for the earliest start the notice rule allows)."
        )
    return cause


def crossing(percent: int) -> Cause:
    """Where q stands at the grid's smallest and largest n, which brackets the crossing of q = 1."""
    def cause(results: Results, parameters: dict) -> str:
        fixed = _point(results, "fixed", percent)
        factors = grid_factors(results)
        smallest, largest = (fixed[fixed["factor"] == f] for f in (factors[0], factors[-1]))
        return (
            f"p = {percent} %: q = {smallest['q'].mean():.2f} at the grid's smallest n ({factors[0]:g}), "
            f"{100 * (smallest['q'] <= 1).mean():.0f} % of workloads at most 1 there; q = {largest['q'].mean():.2f} at "
            f"its largest ({factors[-1]:g})."
        )
    return cause


def adaptive(results: Results, parameters: dict) -> str:
    runs = results["runs"]
    runs = runs[runs["policy"] == "adaptive"]
    if runs.empty:
        raise NotMeasured("the adaptive policy was not run")
    by_share = runs.groupby("share")[["q", "rejection_rate", "measured_notice"]].mean()
    return "; ".join(
        f"p = {share_percent(share)} %: q = {row.q:.2f}, r = {100 * row.rejection_rate:.1f} %, measured n = "
        f"{row.measured_notice:.2f}" for share, row in by_share.iterrows()
    ) + "."


def longest_wait(percent: int, n: float) -> Cause:
    def cause(results: Results, parameters: dict) -> str:
        factor = factor_at_measured_n(results, percent, n)
        fixed = _point(results, "fixed", percent, factor)
        return (
            f"p = {percent} %, policy n = {factor:g}: the longest queue wait is {column_mean(fixed, 'max_queue_wait') / HOUR:.1f} h "
            f"against {_baseline(results, 'max_queue_wait') / HOUR:.1f} h without reservations, with "
            f"{100 * column_mean(fixed, 'rejection_rate'):.1f} % of all jobs refused as reservations."
        )
    return cause


def per_share(cause_at) -> Cause:
    """The causes ``cause_at(p)`` of every share p the paper ran, one after the other."""
    def cause(results: Results, parameters: dict) -> str:
        return " ".join(cause_at(percent)(results, parameters) for percent in PAPER_SHARES)
    return cause


TABLE1_CAUSES = {"q": queue_wait, "u": utilization}


CELL_CAUSES: dict[str, Cause] = {
    **{f"t1-exp{row + FIRST_EXPERIMENT}-{column}": TABLE1_CAUSES[column](percent, n)
       for row, (percent, n, *_) in enumerate(PAPER_TABLE1) for column in TABLE1_CAUSES},
    **{f"t1-exp{row + FIRST_EXPERIMENT}-r": rejections(percent) for row, (percent, *_) in enumerate(PAPER_TABLE1)},
}
"""Table 1's cells by id: each column's cause gives those of its cells that do not reproduce."""

CAUSES: dict[str, Cause] = {
    **row_causes(TABLE1_CLAIMS, CELL_CAUSES),
    "fig2-q-above-one-n1": per_share(lambda p: queue_wait(p, 1.0)),
    "fig2-q-rises-with-p": per_share(lambda p: queue_wait(p, 1.0)),
    "fig2-q-falls-with-n": per_share(crossing),
    "sec44-n-q1-p5": crossing(5),
    "sec44-n-q1-p15": crossing(15),
    "fig3-n-q1-rises-with-p": per_share(crossing),
    "fig3-adaptive-no-penalty": adaptive,
    "sec44-starvation-p20": longest_wait(20, 1.17),
    "fig4-u-falls-with-p": per_share(lambda p: utilization(p, 1.0)),
    "fig4-u-falls-with-n": per_share(lambda p: utilization(p, 4.0)),
    "fig5-r-rises-with-p": per_share(rejections),
    "fig5-r-falls-with-n": per_share(rejections),
}
"""The claims a decomposition explains, by id (every one is a claim of ``CLAIMS``)."""


def causes_frame(claims: pd.DataFrame, results: Results, parameters: dict) -> pd.DataFrame:
    """One row per claim not reproduced (nor left unattempted): its verdict and measured cause."""
    return measured_causes(claims, CLAIMS, CAUSES, results, parameters)
