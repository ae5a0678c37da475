"""The COSY stage report: the paper's Table 1 and Figures 2-5 beside ours.

Paper: Cao and Zimmermann, "Queue scheduling and advance reservations with COSY",
IPDPS 2004.  Its numbers come from one workload; ours are means over many tuned
workloads (``simulators.cosy.experiment``) with 95 % t-intervals.  The paper's ``n`` is
both the notice factor of the policy and, by its argument, the measured ratio
``wa / wq``; we report both, because in our runs they differ.

``write_cosy_report(directory, profile, runs, baselines, selections)`` writes
``index.md``, ``index.html``, the figures ``fig2_q``, ``fig3_chosen_n``, ``fig4_u``,
``fig5_r``, ``starvation`` and ``regime_q`` (PNG and SVG), the tables ``table1`` (and
``table1_<jobs>`` for larger workloads), ``single_workload``, ``adaptive``, ``oracle``, ``requeue``, ``node_bound``,
``workloads`` and ``workload_regime`` (CSV, Markdown, LaTeX), and ``summary.csv`` (every point of the
Lublin-Feitelson workloads), ``regime_summary.csv`` (the log-uniform ones and any trace's slices) and ``runs.csv`` (every run).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure as MplFigure

from reports.document import Document, Figure, Heading, Link, paragraph, render_html, render_markdown, table
from reports.figures import save_figure
from reports.tables import write_table
from simulators.cosy.experiment import (
    LOG_UNIFORM_MODELS,
    LUBLIN_FEITELSON,
    NODE_BOUND,
    ORACLE,
    REQUEUE,
    TARGET_BASELINE_UTILIZATION,
    mean_interval,
    sliced_trace,
    summarize,
)

# Table 1 of the paper: (p %, n, q, u %, r %); the p = 0 row is the baseline (q = 1, u = 74 %).
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
PAPER_BASELINE_UTILIZATION = 74
# The n at which the paper reached q ~ 1 for each p (Table 1, exps 3, 6, 9, 12).
PAPER_CHOSEN_N = {5: 2.18, 10: 4.20, 15: 3.9, 20: 5.59}

SHARE_COLORS = {5: "tab:blue", 10: "tab:orange", 15: "tab:green", 20: "tab:red"}


def _percent(share: float) -> int:
    return int(round(100 * share))


def _cell(row, metric: str, scale: float = 1.0, decimals: int = 2) -> str:
    value, low, high = (row[metric] * scale, row[f"{metric}_low"] * scale, row[f"{metric}_high"] * scale)
    if math.isnan(value):
        return "n/a"
    if math.isnan(low):
        return f"{value:.{decimals}f}"
    return f"{value:.{decimals}f} [{low:.{decimals}f}, {high:.{decimals}f}]"


def _duration(seconds: float) -> str:
    return f"{seconds / 60:g} minutes" if seconds < 3600 else f"{seconds / 3600:g} hours"


def _fixed(summary: pd.DataFrame, jobs: int, policy: str = "fixed") -> pd.DataFrame:
    chosen = summary[(summary["policy"] == policy) & (summary["jobs_per_workload"] == jobs)]
    return chosen.sort_values(["share", "factor"])


def factor_near_one(summary: pd.DataFrame, jobs: int) -> float:
    """The fixed policy's grid factor closest to n = 1, where the paper reads its first trend."""
    return float(min(_fixed(summary, jobs)["factor"].unique(), key=lambda factor: abs(factor - 1.0)))


def nearest_point(summary: pd.DataFrame, jobs: int, percent: int, n: float) -> pd.Series | None:
    """Our fixed-policy point of share ``percent`` whose factor is closest to the paper's ``n``
    (None if the grid has no point at that share)."""
    rows = _fixed(summary, jobs)
    rows = rows[rows["share"].map(_percent) == percent]
    if rows.empty:
        return None
    return rows.iloc[int(np.argmin(np.abs(rows["factor"].to_numpy() - n)))]


def table1(summary: pd.DataFrame, baselines: pd.DataFrame, jobs: int) -> pd.DataFrame:
    """Table 1 side by side: each paper row with our point at the nearest notice factor."""
    base = baselines[baselines["jobs_per_workload"] == jobs]
    u0, u0_low, u0_high = mean_interval(base["utilization"])
    rows = [
        {
            "p %": 0, "paper n": "-", "paper q": "1", "paper u %": str(PAPER_BASELINE_UTILIZATION), "paper r %": "-",
            "our policy n": "-", "our measured n": "-", "our q": "1",
            "our u %": f"{100 * u0:.1f} [{100 * u0_low:.1f}, {100 * u0_high:.1f}]", "our r %": "-",
        }
    ]
    for percent, n, q, u, r in PAPER_TABLE1:
        ours = nearest_point(summary, jobs, percent, n)
        paper = {"p %": percent, "paper n": f"{n:.2f}", "paper q": f"{q:.2f}", "paper u %": str(u), "paper r %": str(r)}
        if ours is None:
            rows.append({**paper, **{column: "not run" for column in rows[0] if column not in paper}})
            continue
        rows.append(
            {
                **paper,
                "our policy n": f"{ours['factor']:g}",
                "our measured n": _cell(ours, "measured_notice"),
                "our q": _cell(ours, "q"),
                "our u %": _cell(ours, "utilization", 100, 1),
                "our r %": _cell(ours, "rejection_rate", 100, 1),
            }
        )
    return pd.DataFrame(rows)


def adaptive_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The adaptive policy (Fig. 3 rule) per workload size and share, beside fixed n = 1."""
    rows = []
    for (jobs, share), group in summary.groupby(["jobs_per_workload", "share"], sort=True):
        adaptive = group[group["policy"] == "adaptive"].iloc[0]
        fixed_one = group[(group["policy"] == "fixed") & (group["factor"] == 1.0)]
        rows.append(
            {
                "jobs": int(jobs), "p %": _percent(share),
                "adaptive q": _cell(adaptive, "q"),
                "adaptive u %": _cell(adaptive, "utilization", 100, 1),
                "adaptive r %": _cell(adaptive, "rejection_rate", 100, 1),
                "adaptive measured n": _cell(adaptive, "measured_notice"),
                "fixed n=1 q": _cell(fixed_one.iloc[0], "q") if len(fixed_one) else "n/a",
                "fixed n=1 r %": _cell(fixed_one.iloc[0], "rejection_rate", 100, 1) if len(fixed_one) else "n/a",
            }
        )
    return pd.DataFrame(rows)


def diagnostic_table(summary: pd.DataFrame, policy: str) -> pd.DataFrame:
    """The runs of one diagnostic policy (``experiment.DIAGNOSTICS``), per workload size, share and n."""
    runs = summary[summary["policy"] == policy].sort_values(["jobs_per_workload", "share", "factor"])
    return pd.DataFrame(
        [
            {
                "jobs": int(row["jobs_per_workload"]), "p %": _percent(row["share"]), "n": f"{row['factor']:g}",
                "q": _cell(row, "q"), "q, same jobs": _cell(row, "q_matched"), "measured n": _cell(row, "measured_notice"),
                "u %": _cell(row, "utilization", 100, 1), "r %": _cell(row, "rejection_rate", 100, 1),
                "dropped work %": _cell(row, "rejected_work_share", 100, 1),
            }
            for _, row in runs.iterrows()
        ]
    )


def workloads_table(baselines: pd.DataFrame) -> pd.DataFrame:
    """How each workload model's tuned workloads spread in time: the paper's are 'over one week'."""
    rows = []
    for (workload, jobs), group in baselines.groupby(["workload", "jobs_per_workload"], sort=True):
        span, window = group["submission_span"], group["makespan"]
        rows.append(
            {
                "workload model": workload, "jobs": int(jobs), "workloads": len(group),
                "offered load (median)": f"{group['offered_load'].median():.2f}",
                "submissions span (days)": f"{span.mean() / 86400:.2f}",
                "first submit to last end (days)": f"{window.mean() / 86400:.2f}",
                "span / window": f"{(span / window).mean():.2f}",
                "mean queue wait (h)": f"{group['mean_queue_wait'].mean() / 3600:.2f}",
            }
        )
    return pd.DataFrame(rows)


def regime_table(regime: pd.DataFrame) -> pd.DataFrame:
    """The regime workloads (log-uniform models, trace slices): the paper's rule (refusals dropped)
    beside refusals requeued and beside reservations asking for submit + n x wq0 (refusals dropped)."""
    rows = []
    keys = ["workload", "jobs_per_workload", "share", "factor"]
    for (workload, jobs, share, factor), group in regime.groupby(keys, sort=True):
        fixed = group[group["policy"] == "fixed"].iloc[0]
        requeued = group[group["policy"] == REQUEUE].iloc[0]
        oracle = group[group["policy"] == ORACLE].iloc[0]
        rows.append(
            {
                "workload model": workload, "jobs": int(jobs), "p %": _percent(share), "n": f"{factor:g}",
                "q (refusals dropped)": _cell(fixed, "q"),
                "measured n": _cell(fixed, "measured_notice"),
                "r %": _cell(fixed, "rejection_rate", 100, 1),
                "u %": _cell(fixed, "utilization", 100, 1),
                "q (refusals requeued)": _cell(requeued, "q"),
                "q, same jobs (requeued)": _cell(requeued, "q_matched"),
                "q (W = wq0)": _cell(oracle, "q"),
                "measured n (W = wq0)": _cell(oracle, "measured_notice"),
                "r % (W = wq0)": _cell(oracle, "rejection_rate", 100, 1),
            }
        )
    return pd.DataFrame(rows)


class RegimePoints:
    """The summarized points of one regime workload (a log-uniform model or a trace's slices) at one workload size."""

    def __init__(self, regime: pd.DataFrame, workload: str, jobs: int):
        self.workload, self.jobs = workload, jobs
        self.points = regime[(regime["workload"] == workload) & (regime["jobs_per_workload"] == jobs)]
        self.low_n, self.high_n = self.points["factor"].min(), self.points["factor"].max()
        self.percents = sorted(_percent(s) for s in self.points["share"].unique())

    def row(self, policy: str, percent: int, factor: float) -> pd.Series:
        chosen = self.points[(self.points["policy"] == policy) & (self.points["factor"] == factor)]
        return chosen[[_percent(s) == percent for s in chosen["share"]]].iloc[0]

    def above_one(self, policy: str) -> list[int]:
        """Shares whose whole q interval at the smallest n lies above 1."""
        return [p for p in self.percents if self.row(policy, p, self.low_n)["q_low"] > 1]

    def rises_with_p(self, policy: str) -> bool:
        qs = [self.row(policy, p, self.low_n)["q"] for p in self.percents]
        return all(a < b for a, b in zip(qs, qs[1:]))

    def falls_with_n(self, policy: str) -> list[int]:
        """Shares where q at the largest n lies below q at the smallest n, intervals disjoint."""
        return [
            p for p in self.percents
            if self.row(policy, p, self.high_n)["q_high"] < self.row(policy, p, self.low_n)["q_low"]
        ]

    def shows_first_trend(self, policy: str) -> bool:
        """The paper's first trend: q > 1 (whole interval) at every p and rising with p."""
        return len(self.above_one(policy)) == len(self.percents) and self.rises_with_p(policy)

    def listed(self, policy: str, factor: float, metric: str = "q", scale: float = 1.0, interval: bool = False,
               decimals: int = 2) -> str:
        return ", ".join(
            _cell(self.row(policy, p, factor), metric, scale, decimals) if interval
            else f"{scale * self.row(policy, p, factor)[metric]:.{decimals}f}"
            for p in self.percents
        )


def burst_paragraph(summary: pd.DataFrame, baselines: pd.DataFrame, jobs: int, factor: float, percents):
    """How our Lublin-Feitelson workloads spread in time against the paper's week, and what the
    steady 1,000-job ones show (``summary``: the Lublin-Feitelson points)."""
    lublin = baselines[baselines["workload"] == LUBLIN_FEITELSON]
    small = lublin[lublin["jobs_per_workload"] == jobs]
    steady = baselines[baselines["workload"].isin(list(LOG_UNIFORM_MODELS)) & (baselines["jobs_per_workload"] == jobs)]
    steady_days = steady.groupby("workload")["submission_span"].mean() / 86400
    text = (
        f"The paper's {jobs} jobs stand for 'over one week' of operation. Our Lublin-Feitelson {jobs}-job workloads "
        f"reach the 74 % baseline only as a burst: they arrive within {small['submission_span'].mean() / 3600:.1f} h on "
        f"average and the machine then drains them until {small['makespan'].mean() / 3600:.1f} h. The log-uniform "
        f"workloads reach it arriving steadily over {steady_days.min():.1f} to {steady_days.max():.1f} days on average. "
    )
    for other, group in lublin.groupby("jobs_per_workload"):
        if other != jobs and len(summary[(summary["policy"] == REQUEUE) & (summary["jobs_per_workload"] == other)]):
            text += (
                f"Steady arrivals alone do not decide the sign: the {other}-job Lublin-Feitelson workloads also arrive "
                f"over {group['submission_span'].mean() / 86400:.1f} days, as many small jobs, and with refused "
                f"reservations requeued their q at n = {factor:g} is "
                + ", ".join(f"{_q_at(summary, other, p, factor, REQUEUE)['q']:.2f}" for p in percents)
                + f" (p = {', '.join(map(str, percents))} %). "
            )
    return paragraph(text)


def regime_paragraph(points: RegimePoints, baselines: pd.DataFrame):
    """What one regime workload says about the paper's trends, from its numbers."""
    low_n, high_n, percents = points.low_n, points.high_n, points.percents
    requeued = [points.row(REQUEUE, p, low_n)["q"] for p in percents]
    rises, clearly_above, falls = points.rises_with_p(REQUEUE), points.above_one(REQUEUE), points.falls_with_n(REQUEUE)
    base = baselines[(baselines["workload"] == points.workload) & (baselines["jobs_per_workload"] == points.jobs)]
    return paragraph(
        f"{points.workload} ({points.jobs} jobs arriving over {base['submission_span'].mean() / 86400:.1f} days on "
        f"average): under the paper's rule (refused reservations dropped) q at n = {low_n:g} is "
        + points.listed("fixed", low_n)
        + f" (p = {', '.join(map(str, percents))} %). With refused reservations requeued, nothing is dropped and q is "
        + points.listed(REQUEUE, low_n, interval=True)
        + f": {'it rises with p' if rises else 'it does not rise steadily with p'}, and its whole interval lies above 1 "
        f"at {len(clearly_above)} of {len(percents)} shares. "
        + (
            "So with this workload the reservations do slow the queue as the paper found, though by less (paper: "
            "+19 % at 5 % to +110 % at 20 %), and under the paper's rule the work that refusals drop offsets it. "
            if points.shows_first_trend(REQUEUE)
            else "So this workload does not bring back the paper's slower queue either. "
        )
        + f"The paper reads n as the measured wa / wq, near {low_n:g} in its first rows; ours is "
        + points.listed("fixed", low_n, "measured_notice")
        + " (W lags, reservations ask for early slots and large ones are refused). When reservations ask for "
        "submit + n x wq0 instead, measured n is "
        + points.listed(ORACLE, low_n, "measured_notice")
        + ", refusals are "
        + points.listed(ORACLE, low_n, "rejection_rate", 100, decimals=1)
        + " % of the jobs (paper: 0-4 %), and with refusals dropped as in the paper q is "
        + points.listed(ORACLE, low_n, interval=True)
        + f". From n = {low_n:g} to {high_n:g}, the requeued q ("
        + ", ".join(f"{a:.2f} -> {b:.2f}" for a, b in zip(requeued, [points.row(REQUEUE, p, high_n)["q"] for p in percents]))
        + f") falls with disjoint intervals at {len(falls)} of {len(percents)} shares; the paper's q fell steadily with n."
    )


def describe_log_uniform(name: str) -> str:
    model = LOG_UNIFORM_MODELS[name]
    (low, high), (smallest, largest) = model["runtime_range"], model["size_range"]
    return f"{name}: {smallest} to {largest} nodes, {_duration(low)} to {_duration(high)}"


def slices_paragraph(slices: list[RegimePoints], baselines: pd.DataFrame, selections):
    """What the slices of real traces are (the spec's other DEFAULT workload) and how many tuned."""
    tried = {(s["workload"], s["jobs"]): s["seeds_tried"] for s in selections}
    described = []
    for points in slices:
        base = baselines[(baselines["workload"] == points.workload) & (baselines["jobs_per_workload"] == points.jobs)]
        described.append(
            f"{points.workload}: {len(base)} of the {tried.get((points.workload, points.jobs), '?')} slices tried reach "
            f"the baseline, arriving over {base['submission_span'].mean() / 86400:.1f} days with a baseline mean queue wait "
            f"of {base['mean_queue_wait'].mean() / 3600:.1f} h"
        )
    return paragraph(
        "The spec's other default workload, slices of a real trace (workloads/trace_slice.py): disjoint runs of "
        "consecutive jobs of the log, sizes rescaled to 32 nodes, each job running for its requested time as the "
        "paper's COSY ran each request for its required time, gaps scaled to the same 74 % baseline. "
        + "; ".join(described)
        + "."
    )


def models_paragraph(models: list[RegimePoints]):
    """The regime workloads side by side: where the paper's rule itself shows q > 1 rising with p."""
    low_n, high_n, percents = models[0].low_n, models[0].high_n, models[0].percents
    percent = percents[-1]

    shown = [m.workload for m in models if m.shows_first_trend("fixed")]
    shown_at_wq0 = [m.workload for m in models if m.shows_first_trend(ORACLE)]
    falling = [m.workload for m in models if len(m.falls_with_n("fixed")) == len(m.percents)]
    return paragraph(
        f"Side by side at p = {percent} % (paper at n ~ 1: q = 2.10): under the paper's rule q is "
        + "; ".join(f"{_cell(m.row('fixed', percent, low_n), 'q')} for {m.workload}" for m in models)
        + f" at n = {low_n:g}; with refusals requeued, "
        + "; ".join(
            f"{m.row(REQUEUE, percent, low_n)['q']:.2f} at n = {low_n:g} and {m.row(REQUEUE, percent, high_n)['q']:.2f} "
            f"at n = {high_n:g} for {m.workload}"
            for m in models
        )
        + ". "
        + (
            f"Under the paper's own rule, q > 1 at every p (whole intervals) and rising with p for: {', '.join(shown)}: "
            "the paper's first trend, in direction. "
            if shown
            else "No workload here shows q > 1 at every p and rising with p under the paper's own rule. "
        )
        + (
            f"With reservations at submit + n x wq0 (measured n near the paper's) and refusals dropped, it shows "
            f"for: {', '.join(shown_at_wq0)}. "
            if shown_at_wq0
            else "With reservations at submit + n x wq0 it shows for none. "
        )
        + (
            f"Under the paper's rule q falls from n = {low_n:g} to {high_n:g} with disjoint intervals at every p for: "
            f"{', '.join(falling)}."
            if falling
            else f"None shows the paper's second trend: under the paper's rule no model's q falls from n = {low_n:g} "
            f"to {high_n:g} with disjoint intervals at every p."
        )
    )


def chosen_factor(summary: pd.DataFrame, jobs: int) -> dict[int, float]:
    """Per share, the smallest notice factor of our grid whose mean q is at most 1 (NaN if none)."""
    chosen = {}
    for share, group in _fixed(summary, jobs).groupby("share"):
        fine = group[group["q"] <= 1.0]
        chosen[_percent(share)] = float(fine["factor"].min()) if len(fine) else math.nan
    return chosen


# --- figures ------------------------------------------------------------------------------


def _panels(variants, title: str, ylabel: str):
    figure = MplFigure(figsize=(5.0 * len(variants), 4.2), layout="constrained")
    axes = np.atleast_1d(figure.subplots(1, len(variants), sharey=True))
    figure.suptitle(title)
    axes[0].set_ylabel(ylabel)
    return figure, axes


def metric_figure(summary, variants, metric: str, paper_column: int | None, title: str, ylabel: str, scale=1.0):
    """Our metric vs notice factor n, one line (with 95 % band) per p, per workload size;
    the paper's Table 1 points as open markers."""
    figure, axes = _panels(variants, title, ylabel)
    for axis, jobs in zip(axes, variants):
        for share, group in _fixed(summary, jobs).groupby("share"):
            percent = _percent(share)
            color = SHARE_COLORS.get(percent)
            x = group["factor"].to_numpy()
            axis.plot(x, group[metric] * scale, marker="o", color=color, label=f"ours, p = {percent} %")
            axis.fill_between(x, group[f"{metric}_low"] * scale, group[f"{metric}_high"] * scale, color=color, alpha=0.15)
            if paper_column is not None:
                paper = [(row[1], row[paper_column]) for row in PAPER_TABLE1 if row[0] == percent]
                axis.plot(*zip(*paper), linestyle=":", marker="s", markerfacecolor="none", color=color, label=f"paper, p = {percent} %")
        axis.set_title(f"{jobs} jobs per workload, 32 nodes")
        axis.set_xlabel("notice factor n (policy; paper: n = wa / wq)")
        axis.grid(True, alpha=0.3)
    axes[-1].legend(fontsize="small", ncol=2)
    return figure


REGIME_PANELS = (("fixed", "paper's rule: refusals dropped, W running mean"), (REQUEUE, "refusals requeued"),
                 (ORACLE, "W = wq0, refusals dropped"))


def regime_figure(models: list["RegimePoints"]):
    """q at the smallest n vs p, one line (with 95 % band) per regime workload, one panel per
    policy; the paper's Table 1 rows nearest n = 1 as open squares."""
    figure, axes = _panels(REGIME_PANELS, "Regime diagnostic: relative queue wait q at n = 1 vs reservation share",
                           "q = wq / wq0")
    paper = {}
    for percent, n, q, _, _ in PAPER_TABLE1:
        if percent not in paper or abs(n - 1) < abs(paper[percent][0] - 1):
            paper[percent] = (n, q)
    for axis, (policy, title) in zip(axes, REGIME_PANELS):
        for model in models:
            rows = [model.row(policy, p, model.low_n) for p in model.percents]
            axis.plot(model.percents, [r["q"] for r in rows], marker="o", label=model.workload)
            axis.fill_between(model.percents, [r["q_low"] for r in rows], [r["q_high"] for r in rows], alpha=0.15)
        axis.plot(list(paper), [q for _, q in paper.values()], "ks", markerfacecolor="none", label="paper (n nearest 1)")
        axis.axhline(1.0, color="grey", linewidth=0.8)
        axis.set_title(title)
        axis.set_xlabel("share of reservations p (%)")
        axis.grid(True, alpha=0.3)
    axes[-1].legend(fontsize="small")
    return figure


def chosen_n_figure(summary, variants):
    figure = MplFigure(figsize=(6.0, 4.2), layout="constrained")
    axis = figure.add_subplot()
    rule_p = np.array([0.0, 15.0])
    axis.plot(rule_p, 1 + 3 * rule_p / 15, color="black", label="paper Fig. 3 rule (refuse above 15 %)")
    axis.plot(list(PAPER_CHOSEN_N), list(PAPER_CHOSEN_N.values()), "ks", markerfacecolor="none", label="paper Table 1: n with q ~ 1")
    for jobs, marker in zip(variants, ("o", "^")):
        chosen = chosen_factor(summary, jobs)
        axis.plot(list(chosen), list(chosen.values()), marker=marker, label=f"ours, {jobs} jobs: smallest grid n with mean q <= 1")
    axis.set_xlabel("share of reservations p (%)")
    axis.set_ylabel("chosen notice factor n")
    axis.set_title("Fig. 3: chosen shortest notice factor vs reservation share")
    axis.set_ylim(bottom=0)
    axis.grid(True, alpha=0.3)
    axis.legend(fontsize="small")
    return figure


def single_workload_patterns(runs: pd.DataFrame, jobs: int, factor: float) -> pd.DataFrame:
    """How often one workload alone shows the paper's n ~ 1 pattern (the paper ran a single one).

    For the fixed policy at ``factor``, one row per share: the share of workloads with q > 1,
    then a last row: the share of workloads whose q exceeds 1 at every share and rises with p.
    """
    chosen = runs[(runs["policy"] == "fixed") & (runs["jobs_per_workload"] == jobs) & (runs["factor"] == factor)]
    q = chosen.pivot(index="seed", columns="share", values="q").sort_index(axis=1)
    above = q > 1
    rising = (q.diff(axis=1).iloc[:, 1:] > 0).all(axis=1)
    rows = [{"p %": _percent(share), "workloads with q > 1 (%)": f"{100 * above[share].mean():.0f}"} for share in q.columns]
    rows.append({"p %": "all, rising", "workloads with q > 1 (%)": f"{100 * (above.all(axis=1) & rising).mean():.0f}"})
    return pd.DataFrame(rows)


# --- the written comparison ---------------------------------------------------------------


def _q_at(summary, jobs, percent, factor, policy: str = "fixed") -> pd.Series:
    rows = _fixed(summary, jobs, policy)
    return rows[(rows["share"].map(_percent) == percent) & (rows["factor"] == factor)].iloc[0]


def comparison_paragraphs(summary: pd.DataFrame, baselines: pd.DataFrame, variants) -> list:
    """The trends of the paper (spec 003) checked one by one against our means."""
    small = variants[0]
    low_n = factor_near_one(summary, small)
    high_n = _fixed(summary, small)["factor"].max()
    percents = sorted(_percent(s) for s in _fixed(summary, small)["share"].unique())
    text = []
    q_low = {p: _q_at(summary, small, p, low_n) for p in percents}
    q_high = {p: _q_at(summary, small, p, high_n) for p in percents}
    rising = all(q_low[a]["q"] < q_low[b]["q"] for a, b in zip(percents, percents[1:]))
    falling_p = all(q_low[a]["q"] > q_low[b]["q"] for a, b in zip(percents, percents[1:]))
    above = [p for p in percents if q_low[p]["q"] > 1]
    text.append(
        f"Paper: at n ~ 1 the queue wait grows (q > 1) and grows with p (+19 % at 5 %, +76 % at 15 %). "
        f"Ours ({small} jobs, n = {low_n:g}): "
        + ", ".join(f"q = {_cell(q_low[p], 'q')} at p = {p} %" for p in percents)
        + f". q > 1 at {len(above)} of {len(percents)} shares; q {'rises' if rising else ('falls' if falling_p else 'does not rise')} with p. "
        + ("This trend is reproduced." if rising and len(above) == len(percents) else "This trend is NOT reproduced.")
    )
    falling = [p for p in percents if q_high[p]["q"] < q_low[p]["q"]]
    clearly = [p for p in falling if q_high[p]["q_high"] < q_low[p]["q_low"]]
    text.append(
        f"Paper: q falls as n rises, reaching q ~ 1 at n ~ 2.2 (5 %) to ~ 3.9 (15 %). Ours: from n = {low_n:g} to "
        f"n = {high_n:g}, mean q falls at {len(falling)} of {len(percents)} shares ("
        + ", ".join(f"p = {p} %: {q_low[p]['q']:.2f} -> {q_high[p]['q']:.2f}" for p in percents)
        + f"); the two 95 % intervals are disjoint at {len(clearly)} of them. Since q starts below 1, "
        "the paper's question (which n brings q back to 1) has the trivial answer: the smallest n of our grid."
    )
    u_falls = all(q_low[a]["utilization"] >= q_low[b]["utilization"] for a, b in zip(percents, percents[1:]))
    base_u = baselines[baselines["jobs_per_workload"] == small]["utilization"].mean()
    text.append(
        f"Paper: utilization falls with p, from 74 % to 37-45 % at 20 %. Ours: baseline {100 * base_u:.1f} % (tuned), "
        f"at n = {low_n:g}: "
        + ", ".join(f"{100 * q_low[p]['utilization']:.1f} % at {p} %" for p in percents)
        + f"; it {'falls' if u_falls else 'does not fall monotonically'} with p, but far less than in the paper."
    )
    r_rises = all(q_low[a]["rejection_rate"] <= q_low[b]["rejection_rate"] for a, b in zip(percents, percents[1:]))
    r_falls = [p for p in percents if q_high[p]["rejection_rate"] < q_low[p]["rejection_rate"]]
    text.append(
        f"Paper: rejections are few (0-4 % of all jobs), rise with p and fall with n. Ours at n = {low_n:g}: "
        + ", ".join(f"{100 * q_low[p]['rejection_rate']:.1f} % at {p} %" for p in percents)
        + f" ({'rising' if r_rises else 'not monotone'} with p); they fall from n = {low_n:g} to {high_n:g} at "
        f"{len(r_falls)} of {len(percents)} shares. Rejected reservations carry a larger share of the work "
        f"than of the jobs (at p = {percents[-1]} %, n = {low_n:g}: {100 * q_low[percents[-1]]['rejected_work_share']:.1f} % "
        "of all processor-seconds), and dropping them unloads the queue."
        + "".join(
            f" At {jobs} jobs per workload, r at n = {low_n:g} is "
            + ", ".join(f"{100 * _q_at(summary, jobs, p, low_n)['rejection_rate']:.1f} %" for p in percents)
            + f" and at n = {high_n:g} "
            + ", ".join(f"{100 * _q_at(summary, jobs, p, high_n)['rejection_rate']:.1f} %" for p in percents)
            + " (p = " + ", ".join(f"{p}" for p in percents) + " %)."
            for jobs in variants[1:]
        )
    )
    for jobs in variants:
        base_max = baselines[baselines["jobs_per_workload"] == jobs]["max_queue_wait"].mean() / 3600
        worst = _q_at(summary, jobs, percents[-1], high_n)
        text.append(
            f"Paper: at p >= 20 % some large queue jobs find no interval between reservations and starve. Ours, {jobs} "
            f"jobs: the longest queue wait is {base_max:.1f} h without reservations and "
            f"{worst['max_queue_wait'] / 3600:.1f} h [{worst['max_queue_wait_low'] / 3600:.1f}, "
            f"{worst['max_queue_wait_high'] / 3600:.1f}] at p = {percents[-1]} %, n = {high_n:g} (every queue job "
            "started in every run: no job waited for ever in these finite workloads)."
        )
    text.append(
        "Paper: n is also the measured ratio wa / wq, because every reservation asks for exactly n x W. Ours: the "
        f"measured ratio is far below the policy's n (at n = {low_n:g}: "
        + ", ".join(f"{q_low[p]['measured_notice']:.2f}" for p in percents)
        + "). W, the mean wait of the queue jobs started so far, is near zero early in a run and lags the final "
        "mean wait, so reservations ask for short notice, start almost at once when the processors are free, "
        "and are rejected when they are not (the paper does not define W beyond 'mean wait time of queued jobs')."
    )
    oracle = summary[(summary["policy"] == ORACLE) & (summary["jobs_per_workload"] == small)]
    if len(oracle):
        text.append(
            "Diagnostic (not in the paper): when reservations ask for submit + n x wq0 instead, with wq0 the "
            "baseline's final mean queue wait, the measured n matches the paper's sense, yet q is "
            + ", ".join(
                f"{_cell(row, 'q')} (p = {_percent(row['share'])} %, n = {row['factor']:g})" for _, row in oracle.iterrows()
            )
            + ". So the lag of W does not explain q < 1 alone: in our model (Lublin-Feitelson jobs with exact "
            "run-time estimates, EASY), taking a random share of the jobs out of the FCFS queue and running them "
            "in slots fixed ahead shortens the wait of the jobs left in the queue. Of the candidates in the paper's "
            "setting, the workload matters (the steady-workload diagnostic above) and node-bound reservations do "
            "not (below); a spot check with requested times inflated by a uniform factor in [1, 5] also kept q "
            "below 1 (not part of this report)."
        )
    requeue = summary[(summary["policy"] == REQUEUE) & (summary["jobs_per_workload"] == small)]
    if len(requeue):
        dropped = [(p, _q_at(summary, small, p, low_n)) for p in percents]
        text.append(
            "Diagnostic (not in the paper): what makes q < 1. Under the fixed policy, refused reservations take "
            + ", ".join(f"{100 * row['rejected_work_share']:.1f} %" for _, row in dropped)
            + f" of all processor-seconds off the machine at n = {low_n:g} (p = "
            + ", ".join(str(p) for p, _ in dropped)
            + " %): large reservations are refused more often. When refused reservations join the queue instead, "
            "nothing is dropped and the queue jobs' wait relative to the same jobs without reservations is "
            + ", ".join(
                f"{_cell(row, 'q_matched')} (p = {_percent(row['share'])} %, n = {row['factor']:g})"
                for _, row in requeue.iterrows()
            )
            + ". "
            + (
                "Even then the queue jobs of these workloads wait less than without reservations (paper: +19 % "
                "at 5 % to +110 % at 20 %); the steady-workload diagnostic above shows a workload where they wait more."
                if (requeue["q_matched"] < 1).all()
                else "With nothing dropped, q is no longer below 1 everywhere: the dropped work explains much of the "
                "gap to the paper (+19 % at 5 % to +110 % at 20 %)."
            )
        )
    node_bound = summary[(summary["policy"] == NODE_BOUND) & (summary["jobs_per_workload"] == small)]
    if len(node_bound):
        fixed = {(_percent(row["share"]), row["factor"]): row for _, row in _fixed(summary, small).iterrows()}
        pairs = [(row, fixed.get((_percent(row["share"]), row["factor"]))) for _, row in node_bound.iterrows()]
        largest = max(abs(row["q"] - counted["q"]) for row, counted in pairs if counted is not None)
        text.append(
            "Diagnostic (not in the paper): COSY places reservations on named nodes (section 3.1), so a reservation "
            "might hold its nodes from booking on, where our processor-count profile lets it take whichever nodes are "
            "free when it starts. Replayed with node-bound reservations (each against the same node-level run "
            "without reservations, which gives the counting model's schedule job for job: tested), q is "
            + ", ".join(
                f"{_cell(row, 'q')} (p = {_percent(row['share'])} %, n = {row['factor']:g})" for row, _ in pairs
            )
            + f": at most {largest:.3f} from the counting model's mean at the same points. Binding reservations to "
            "nodes does not explain the paper's q > 1 in our model."
        )
    return [paragraph(t) for t in text]


def write_cosy_report(directory, profile, runs: pd.DataFrame, baselines: pd.DataFrame, selections) -> None:
    directory = Path(directory)
    regime_runs = runs[runs["workload"] != LUBLIN_FEITELSON]
    all_baselines = baselines
    runs = runs[runs["workload"] == LUBLIN_FEITELSON]
    baselines = baselines[baselines["workload"] == LUBLIN_FEITELSON]
    summary = pd.concat(
        [summarize(group).assign(jobs_per_workload=jobs) for jobs, group in runs.groupby("jobs_per_workload", sort=True)],
        ignore_index=True,
    )
    variants = [jobs for jobs, _ in profile.variants]
    small = variants[0]
    pd.concat([runs, regime_runs]).to_csv(directory / "runs.csv", index=False, lineterminator="\n")
    summary.to_csv(directory / "summary.csv", index=False, lineterminator="\n")
    workload_spread = workloads_table(all_baselines)
    write_table(directory, "workloads", workload_spread, "Tuned workloads: how they spread in time")
    regime_blocks = []
    if len(regime_runs):
        regime = pd.concat(
            [
                summarize(group).assign(workload=workload, jobs_per_workload=jobs)
                for (workload, jobs), group in regime_runs.groupby(["workload", "jobs_per_workload"], sort=True)
            ],
            ignore_index=True,
        )
        present = set(regime["workload"])
        models = [
            RegimePoints(regime, workload, jobs)
            for workload in [*(m for m in LOG_UNIFORM_MODELS if m in present), *sorted(present - set(LOG_UNIFORM_MODELS))]
            for jobs in sorted(regime[regime["workload"] == workload]["jobs_per_workload"].unique())
        ]
        slices = [m for m in models if sliced_trace(m.workload)]
        regime.to_csv(directory / "regime_summary.csv", index=False, lineterminator="\n")
        regime_rows = regime_table(regime)
        save_figure(regime_figure(models), directory, "regime_q")
        write_table(directory, "workload_regime", regime_rows,
                    "Diagnostic: log-uniform workloads arriving steadily" + (" and slices of real traces" if slices else ""))
        regime_blocks = [
            Heading("Diagnostic: a steady workload (not in the paper)"),
            paragraph(
                "The same experiment on workloads of log-uniform sizes (75 % powers of two) and log-uniform run "
                "times with Poisson arrivals (workloads/log_uniform.py): "
                + "; ".join(describe_log_uniform(name) for name in LOG_UNIFORM_MODELS)
                + ". The last two were chosen while looking for the setting that shows the paper's trends, after "
                "the first had shown a smaller effect. Each is "
                "tuned to the same 74 % baseline; fixed notice policy, with refused reservations dropped (the "
                "paper's rule) or run as queue jobs, and reservations at submit + n x wq0 with refusals dropped ("
                , Link("regime_summary.csv", "regime_summary.csv"), ")."
            ),
            *([slices_paragraph(slices, all_baselines, selections)] if slices else []),
            table(regime_rows.columns, regime_rows.astype(str).itertuples(index=False)),
            Figure("regime_q", "q at n = 1 vs p for each workload and policy (mean, 95 % band); open squares the paper"),
            burst_paragraph(summary, all_baselines, models[0].jobs, models[0].low_n, models[0].percents),
            *[regime_paragraph(model, all_baselines) for model in models],
            *([models_paragraph(models)] if len(models) > 1 else []),
        ]
    first = table1(summary, baselines, small)
    write_table(directory, "table1", first, f"Table 1: paper vs ours ({small} jobs)")
    tables = {"table1": first}
    for jobs in variants[1:]:
        tables[f"table1_{jobs}"] = table1(summary, baselines, jobs)
        write_table(directory, f"table1_{jobs}", tables[f"table1_{jobs}"], f"Table 1 at {jobs} jobs per workload")
    low_n = factor_near_one(summary, small)
    single = single_workload_patterns(runs, small, low_n)
    write_table(directory, "single_workload", single, f"Workloads showing q > 1 at n = {low_n:g}")
    adaptive = adaptive_table(summary)
    write_table(directory, "adaptive", adaptive, "Adaptive notice policy (paper Fig. 3 rule)")
    oracle = diagnostic_table(summary, ORACLE)
    write_table(directory, "oracle", oracle, "Diagnostic: reservations at submit + n x wq0")
    requeue = diagnostic_table(summary, REQUEUE)
    write_table(directory, "requeue", requeue, "Diagnostic: refused reservations join the queue")
    node_bound = diagnostic_table(summary, NODE_BOUND)
    write_table(directory, "node_bound", node_bound, "Diagnostic: reservations bound to nodes when accepted")

    save_figure(metric_figure(summary, variants, "q", 2, "Fig. 2: relative queue wait q vs notice factor n", "q = wq / wq0"), directory, "fig2_q")
    save_figure(chosen_n_figure(summary, variants), directory, "fig3_chosen_n")
    save_figure(metric_figure(summary, variants, "utilization", 3, "Fig. 4: utilization u vs n", "u (%)", 100), directory, "fig4_u")
    save_figure(metric_figure(summary, variants, "rejection_rate", 4, "Fig. 5: rejected reservations r vs n", "r (% of all jobs)", 100), directory, "fig5_r")
    save_figure(
        metric_figure(summary, variants, "max_queue_wait", None, "Starvation: longest queue wait vs n", "max queue wait (h)", 1 / 3600),
        directory,
        "starvation",
    )

    tried = ", ".join(
        f"{s['workloads']} of {s['seeds_tried']} seeds at {s['jobs']} {s.get('workload', LUBLIN_FEITELSON)} jobs"
        for s in selections
    )
    loads = "; ".join(
        f"{jobs} jobs: median {group['offered_load'].median():.2f} (range {group['offered_load'].min():.2f}-"
        f"{group['offered_load'].max():.2f}), baseline mean queue wait {group['mean_queue_wait'].mean() / 3600:.1f} h"
        for jobs, group in baselines.groupby("jobs_per_workload", sort=True)
    )
    baseline_max = {
        jobs: baselines[baselines["jobs_per_workload"] == jobs]["max_queue_wait"].mean() / 3600 for jobs in variants
    }
    blocks = [
        paragraph(
            "Reproduction of Cao and Zimmermann, 'Queue scheduling and advance reservations with COSY' (IPDPS 2004): "
            "FCFS with EASY backfilling on 32 nodes, a share p of the jobs turned into advance reservations that ask "
            "for start = submit + n x W (W: mean wait of the queue jobs started so far), accepted only if the nodes "
            "are free given running jobs and accepted reservations."
        ),
        paragraph(
            f"Profile '{profile.name}'. Workloads: Lublin-Feitelson model (the paper's Cirne-Berman model with ANL "
            f"arrivals is not available), arrival gaps scaled per seed so that the no-reservation utilization is "
            f"{100 * TARGET_BASELINE_UTILIZATION:.0f} +- 1 %; seeds that cannot reach it are skipped ({tried}). "
            "Every value is the mean over workloads with its 95 % t-interval in brackets; q is computed per workload "
            "against its own baseline. Every run checked that each accepted reservation started exactly at its start time."
        ),
        paragraph(
            f"Offered load (work over capacity x submission span) of the tuned workloads: {loads}. Above 1 means "
            "that a 100-job workload reaches 74 % over the paper's window (first submission to last end) only with "
            "its arrivals packed faster than the machine can serve them, followed by a drain: a heavy-tailed model "
            "with 100 jobs has a long tail after the last arrival. The paper's 'over one week' of 100 Cirne-Berman "
            "jobs suggests a less bursty load; the 1,000-job variant is closer to that, and the log-uniform "
            "workloads of the steady-workload diagnostic below arrive over about a week:"
        ),
        table(workload_spread.columns, workload_spread.astype(str).itertuples(index=False)),
        Heading("Table 1: paper vs ours"),
        paragraph(
            "Our point is the grid factor nearest to the paper's n; 'our measured n' is wa / wq, the paper's definition. "
            "Tables as ", Link("CSV", "table1.csv"), ", ", Link("Markdown", "table1.md"), " and ", Link("LaTeX", "table1.tex"), "."
        ),
        table(first.columns, first.astype(str).itertuples(index=False)),
    ]
    for name, frame in tables.items():
        if name != "table1":
            blocks += [Heading(f"Table 1 at {name.split('_')[1]} jobs per workload (what the 100-job noise hides)", 3),
                       table(frame.columns, frame.astype(str).itertuples(index=False))]
    blocks += [
        Heading("One workload at a time"),
        paragraph(
            f"The paper's numbers come from a single workload. Share of our {small}-job workloads (fixed policy, "
            f"n = {low_n:g}) whose own q exceeds 1, per p, and whose q exceeds 1 at every p while rising "
            "with p, as the paper's did: how likely the published pattern is from one draw of our model."
        ),
        table(single.columns, single.astype(str).itertuples(index=False)),
        Heading("Figures"),
        Figure("fig2_q", "Fig. 2: q vs n per p; lines ours (mean, 95 % band), open squares the paper"),
        Figure("fig3_chosen_n", "Fig. 3: chosen n vs p: the paper's rule and Table 1 points, our smallest n with q <= 1"),
        Figure("fig4_u", "Fig. 4: utilization vs n per p"),
        Figure("fig5_r", "Fig. 5: rejected reservations (% of all jobs) vs n per p"),
        Figure("starvation", "Longest queue wait vs n per p (the paper's starvation at p >= 20 %)"),
        paragraph(
            "Baseline longest queue wait: "
            + ", ".join(f"{h:.1f} h at {jobs} jobs" for jobs, h in baseline_max.items())
            + ". All points: ", Link("summary.csv", "summary.csv"), "; every run: ", Link("runs.csv", "runs.csv"), "."
        ),
        Heading("Adaptive notice policy (new: the paper proposes it but never simulated it)"),
        paragraph(
            "n = 1 + 3 p / 15 % for the current share p of accepted reservations among requests so far, reservations "
            "refused while p > 15 %; requests ask for the earliest start the rule allows."
        ),
        table(adaptive.columns, adaptive.astype(str).itertuples(index=False)),
        Heading("Diagnostic: reservations at submit + n x wq0 (not in the paper)"),
        table(oracle.columns, oracle.astype(str).itertuples(index=False)),
        Heading("Diagnostic: refused reservations join the queue (not in the paper)"),
        paragraph(
            "The fixed policy, but a refused reservation is run as a queue job instead of being dropped; it still "
            "counts in r, and in wq as the queue job it became. Refusals pick out large jobs, so the queue jobs are "
            "no longer a random subset: 'q, same jobs' divides by the baseline mean wait of the same jobs. "
            "'dropped work %' is the share of all processor-seconds that refused reservations took off the machine "
            "(0 here by construction)."
        ),
        table(requeue.columns, requeue.astype(str).itertuples(index=False)),
        Heading("Diagnostic: reservations bound to nodes when accepted (not in the paper)"),
        paragraph(
            "The fixed policy on a node-level simulator: an accepted reservation takes the lowest-numbered nodes free "
            "over its interval and keeps them; queue jobs (FCFS, EASY) start only on nodes free for their whole run; "
            "q is against the same simulator without reservations (",
            Link("node_bound.csv", "node_bound.csv"), "; rules in simulators/cosy/node_bound.py).",
        ),
        table(node_bound.columns, node_bound.astype(str).itertuples(index=False)),
        *regime_blocks,
        Heading("Comparison of trends"),
        *comparison_paragraphs(summary, baselines, variants),
    ]
    document = Document("COSY: queue scheduling with advance reservations", tuple(blocks))
    (directory / "index.md").write_text(render_markdown(document), encoding="utf-8")
    (directory / "index.html").write_text(render_html(document), encoding="utf-8")
