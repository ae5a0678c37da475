"""The COSY stage report: the paper's Table 1 and Figures 2-5 beside ours, and its claims ledger.

Paper: W. Cao and M. Zimmermann, "Queue scheduling and advance reservations with COSY",
IPDPS 2004.  Its numbers come from one workload; ours are means over many tuned workloads
with 95 % Student-t intervals, and every verdict comes from the claims ledger
(``schedlab.reports.cosy_claims`` judged by ``schedlab.reports.ledger``).  The paper's ``n`` is both the
notice factor of the policy and, by its argument, the measured ratio ``wa / wq``; whether
the two agree depends on how the notice rule reads W.  The fixed policy runs under each
reading (``parameters["readings"]``); the ledger, Table 1 and Figs. 2-5 use the ledger's
(``parameters["ledger"]["reading"]``) and place our points at measured n, and the page's
readings table (``readings``) sets every reading side by side.

The report reads result tables only, never simulator code: ``parameters`` (what the
pipeline task hands over: the profile the runs used, the machine, the policy and workload
labels, each workload's selection and where its run-time estimates come from), ``runs``
(one row per run and seed) and ``baselines`` (one row per workload without reservations).

``write_report(directory, results, parameters)`` (``results``: ``runs`` and ``baselines``) writes ``parameters.json``,
``runs.csv``, ``baselines.csv``, the ledger ``claims.csv`` / ``.md`` / ``.tex``, ``index.md``,
``index.html``, the figures ``fig2_q``, ``fig3_chosen_n``, ``fig4_u``, ``fig5_r``,
``starvation``, ``regime_q`` and ``fig2_q_<reading>`` for each reading the ledger does not
use (PNG and SVG), the tables ``readings``, ``table1`` (and ``table1_<jobs>``
for larger workloads), ``single_workload``, ``adaptive``, ``oracle``, ``requeue``,
``node_bound``, ``workloads``, ``workload_regime``, ``sensitivity`` (every claim under
each workload and W reading) and ``causes`` (each claim not reproduced with what the runs
measure behind it, ``schedlab.reports.cosy_causes``) (CSV, Markdown, LaTeX; the
diagnostic ones only when their policy ran), ``summary.csv`` (every point of the ledger's
workload model) and ``regime_summary.csv`` (the other workloads).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure as MplFigure

from schedlab.reports.cosy_claims import (
    CLAIMS, PAPER_BASELINE_UTILIZATION, PAPER_TABLE1, crossing_factors, nearest_measured_n, share_percent,
)
from schedlab.reports.cosy_causes import causes_frame
from schedlab.reports.document import Document, Figure, Heading, Link, paragraph, render_html, render_markdown, table
from schedlab.reports.figures import legend_below, save_figure
from schedlab.reports.ledger import interval, ledger, ledger_blocks, verdict_words, write_ledger
from schedlab.reports.tables import document_table, publish_inputs, write_table

PAPER = "cosy"
SHARE_COLORS = {5: "tab:blue", 10: "tab:orange", 15: "tab:green", 20: "tab:red"}
POINT_METRICS = (
    "q", "q_matched", "utilization", "rejection_rate", "measured_notice", "max_queue_wait", "mean_queue_wait",
    "rejected_work_share", "notice_wait", "fixed_point_converged",
)
"""The per-run metrics summarized per point."""


def finite_interval(values) -> tuple[float, float, float]:
    """Mean and 95 % Student-t interval (``schedlab.reports.ledger.interval``) of the finite values."""
    values = np.asarray(values, dtype=np.float64)
    return interval(values[np.isfinite(values)])


def summarize(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per (share, policy, factor, reading): seeds, and mean, low and high of each metric over seeds."""
    rows = []
    keys = ["share", "policy", "factor", "reading"]
    for key, group in runs.groupby(keys, sort=True, dropna=False):
        row = dict(zip(keys, key))
        row["seeds"] = len(group)
        for metric in POINT_METRICS:
            row[metric], row[f"{metric}_low"], row[f"{metric}_high"] = finite_interval(group[metric])
        rows.append(row)
    return pd.DataFrame(rows)


def _summaries(runs: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """``summarize`` per group of ``by`` (workload, workload size), the group's keys as columns."""
    if runs.empty:
        return pd.DataFrame()
    return pd.concat(
        [summarize(group).assign(**dict(zip(by, key))) for key, group in runs.groupby(by, sort=True)],
        ignore_index=True,
    )

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
    """Our fixed-policy point of share ``percent`` whose mean measured n (wa / wq) is closest to
    the paper's ``n``, as the ledger compares them (None if no point at that share measured n)."""
    rows = _fixed(summary, jobs)
    nearest = nearest_measured_n(rows[rows["share"].map(share_percent) == percent]["measured_notice"], n)
    return None if nearest is None else rows.loc[nearest]


def table1(summary: pd.DataFrame, baselines: pd.DataFrame, jobs: int) -> pd.DataFrame:
    """Table 1 side by side: each paper row with our point whose measured n is nearest the paper's n."""
    base = baselines[baselines["jobs_per_workload"] == jobs]
    u0, u0_low, u0_high = finite_interval(base["utilization"])
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
                "jobs": int(jobs), "p %": share_percent(share),
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
    """The runs of one diagnostic policy (see ``parameters["policies"]``), per workload size, share and n."""
    runs = summary[summary["policy"] == policy].sort_values(["jobs_per_workload", "share", "factor"])
    return pd.DataFrame(
        [
            {
                "jobs": int(row["jobs_per_workload"]), "p %": share_percent(row["share"]), "n": f"{row['factor']:g}",
                "q": _cell(row, "q"), "q, same jobs": _cell(row, "q_matched"), "measured n": _cell(row, "measured_notice"),
                "u %": _cell(row, "utilization", 100, 1), "r %": _cell(row, "rejection_rate", 100, 1),
                "dropped work %": _cell(row, "rejected_work_share", 100, 1),
            }
            for _, row in runs.iterrows()
        ]
    )

def _median_range(values: pd.Series) -> str:
    return f"{values.median():.2f} [{values.min():.2f}, {values.max():.2f}]"


def workloads_table(baselines: pd.DataFrame, selections) -> pd.DataFrame:
    """Each workload model's tuned workloads: how many, their offered load and estimates, how they spread in time."""
    chosen = {(s["workload"], s["jobs"]): s for s in selections}
    rows = []
    for (workload, jobs), group in baselines.groupby(["workload", "jobs_per_workload"], sort=True):
        span, window, load = group["submission_span"], group["makespan"], group["offered_load"]
        selection = chosen.get((workload, jobs), {})
        rows.append(
            {
                "workload model": workload, "jobs": int(jobs),
                "workloads (seeds tried)": f"{len(group)} ({selection.get('seeds_tried', '?')})",
                "offered load, median [range]": _median_range(load),
                "run-time estimates": selection.get("estimates", "not recorded"),
                "submissions span (days)": f"{span.mean() / 86400:.2f}",
                "first submit to last end (days)": f"{window.mean() / 86400:.2f}",
                "mean queue wait (h)": f"{group['mean_queue_wait'].mean() / 3600:.2f}",
                "mean queue wait, % of window, median [range]": _median_range(100 * group["mean_queue_wait"] / window),
            }
        )
    return pd.DataFrame(rows)


def regime_table(regime: pd.DataFrame, policies: dict) -> pd.DataFrame:
    """The regime workloads (log-uniform models, trace slices): the paper's rule (refusals dropped)
    beside refusals requeued and beside reservations asking for submit + n x wq0 (refusals dropped)."""
    rows = []
    keys = ["workload", "jobs_per_workload", "share", "factor"]
    for (workload, jobs, share, factor), group in regime.groupby(keys, sort=True):
        fixed = group[group["policy"] == "fixed"].iloc[0]
        requeued = group[group["policy"] == policies["requeue"]].iloc[0]
        oracle = group[group["policy"] == policies["oracle"]].iloc[0]
        rows.append(
            {
                "workload model": workload, "jobs": int(jobs), "p %": share_percent(share), "n": f"{factor:g}",
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
        self.low_n = self.points["factor"].min()
        self.percents = sorted(share_percent(s) for s in self.points["share"].unique())

    def row(self, policy: str, percent: int, factor: float) -> pd.Series:
        chosen = self.points[(self.points["policy"] == policy) & (self.points["factor"] == factor)]
        return chosen[[share_percent(s) == percent for s in chosen["share"]]].iloc[0]


def describe_ranges(name: str, model: dict) -> str:
    (low, high), (smallest, largest) = model["runtime_range"], model["size_range"]
    return f"{name}: {smallest} to {largest} nodes, {_duration(low)} to {_duration(high)}"


def describe_workload(name: str, parameters: dict) -> str:
    """One workload model as the runs used it, from ``parameters["workload_models"]``."""
    model = parameters["workload_models"][name]
    if model["family"] == "log-uniform":
        return describe_ranges(name, model) + " (log-uniform, Poisson arrivals)"
    if model["family"] == "cirne-berman":
        times = ("the drawn times are the requests, which the jobs run for" if model["times_drawn"] == "requested"
                 else f"the drawn times are run times, each request longer by a run/request ratio drawn from "
                      f"{len(model['accuracy_quantiles'])} quantiles of an Argonne log's (median "
                      f"{np.median(model['accuracy_quantiles']):.2f}) and at most {_duration(model['longest_request'])}, "
                      f"and the jobs run for their requests")
        chosen = f"; {model['chosen_on_results']}" if model["chosen_on_results"] else ""
        return (describe_ranges(name, model) + f" (log-uniform, {100 * model['power_of_two_share']:g} % rounded "
                f"to powers of two, arrivals on an Argonne weekly cycle; {times}{chosen}; {model['module']})")
    return f"{name}: the {model['family']} model ({model['module']})"


def slices_paragraph(slices: list[RegimePoints], baselines: pd.DataFrame, parameters: dict):
    """What the slices of real traces are (the spec's other DEFAULT workload) and how many tuned."""
    tried = {(s["workload"], s["jobs"]): s["seeds_tried"] for s in parameters["workloads"]}
    described = []
    for points in slices:
        base = baselines[(baselines["workload"] == points.workload) & (baselines["jobs_per_workload"] == points.jobs)]
        described.append(
            f"{points.workload}: {len(base)} of the {tried.get((points.workload, points.jobs), '?')} slices tried reach "
            f"the baseline, arriving over {base['submission_span'].mean() / 86400:.1f} days with a baseline mean queue wait "
            f"of {base['mean_queue_wait'].mean() / 3600:.1f} h"
        )
    low, high = parameters["paper_wait_share"]
    missing = parameters["missing_regime_traces"]
    return paragraph(
        "The spec's other default workload, slices of a real trace (workloads/trace_slice.py): disjoint runs of "
        "consecutive jobs of the log, sizes rescaled to the machine, each job running for its requested time as the "
        "paper's COSY ran each request for its required time, gaps scaled to the same baseline utilization; "
        f"'regime-slices:' keeps only the slices whose baseline mean queue wait is {100 * low:g}-{100 * high:g} % of "
        "the window, the paper's regime (bench/cosy_trace_regime.py measures the share per trace). "
        + "; ".join(described)
        + "."
        + (f" Not found in the trace directories, so not run: {', '.join(missing)}." if missing else "")
    )


# --- figures ------------------------------------------------------------------------------


PANEL_WIDTH = 5.0
ONE_PANEL_WIDTH = 6.0  # inches: room for a legend of up to four columns under a single panel


def _panels(variants, title: str, ylabel: str):
    figure = MplFigure(figsize=(max(PANEL_WIDTH * len(variants), ONE_PANEL_WIDTH), 4.2), layout="constrained")
    axes = np.atleast_1d(figure.subplots(1, len(variants), sharey=True))
    figure.suptitle(title)
    axes[0].set_ylabel(ylabel)
    return figure, axes


OURS_STYLE = {"marker": "o"}
PAPER_STYLE = {"linestyle": ":", "marker": "s", "markerfacecolor": "none"}


def style_legend(axis, percents, paper: bool) -> None:
    """Legend entries that say what each colour and each line style is, once: a colour per p, then
    ours (solid, dots, with the 95 % band) and the paper's (dotted, open squares) in black.  One entry per (source, p)
    made eight entries, wider than a one-panel figure (they were cut at both edges)."""
    for percent in percents:
        axis.plot([], [], color=SHARE_COLORS.get(percent), linewidth=4, label=f"p = {percent} %")
    axis.plot([], [], color="black", label="ours", **OURS_STYLE)
    if paper:
        axis.plot([], [], color="black", label="paper", **PAPER_STYLE)


def metric_figure(summary, variants, metric: str, paper_column: int | None, title: str, ylabel: str, scale=1.0):
    """Our metric vs measured n (mean wa / wq of each grid point), one line (with 95 % band) per
    p, per workload size; the paper's Table 1 points, also at measured n, as open markers."""
    figure, axes = _panels(variants, title, ylabel)
    percents = set()
    for axis, jobs in zip(axes, variants):
        for share, group in _fixed(summary, jobs).groupby("share"):
            percent = share_percent(share)
            percents.add(percent)
            color = SHARE_COLORS.get(percent)
            x = group["measured_notice"].to_numpy()
            axis.plot(x, group[metric] * scale, color=color, **OURS_STYLE)
            axis.fill_between(x, group[f"{metric}_low"] * scale, group[f"{metric}_high"] * scale, color=color, alpha=0.15)
            if paper_column is not None:
                paper = [(row[1], row[paper_column]) for row in PAPER_TABLE1 if row[0] == percent]
                axis.plot(*zip(*paper), color=color, **PAPER_STYLE)
        axis.set_title(f"{jobs} jobs per workload")
        axis.set_xlabel("measured n = wa / wq (ours and the paper's)")
        axis.grid(True, alpha=0.3)
    style_legend(axes[0], sorted(percents), paper_column is not None)
    legend_below(figure, *axes, fontsize="small")
    return figure


def regime_panels(policies: dict, readings: dict) -> tuple[tuple[str, str], ...]:
    """(policy, panel title) of the regime figure; ``readings``: each policy's W reading in the runs."""
    return (("fixed", f"paper's rule: refusals dropped, W {readings['fixed']}"),
            (policies["requeue"], f"refusals requeued, W {readings[policies['requeue']]}"),
            (policies["oracle"], "W = wq0, refusals dropped"))


def regime_figure(models: list[RegimePoints], policies: dict, readings: dict):
    """q at the smallest n vs p, one line (with 95 % band) per regime workload, one panel per
    policy; the paper's Table 1 rows nearest n = 1 as open squares."""
    panels = regime_panels(policies, readings)
    figure, axes = _panels(panels, "Regime diagnostic: relative queue wait q at n = 1 vs reservation share",
                           "q = wq / wq0")
    paper = {}
    for percent, n, q, _, _ in PAPER_TABLE1:
        if percent not in paper or abs(n - 1) < abs(paper[percent][0] - 1):
            paper[percent] = (n, q)
    for axis, (policy, title) in zip(axes, panels):
        for model in models:
            rows = [model.row(policy, p, model.low_n) for p in model.percents]
            axis.plot(model.percents, [r["q"] for r in rows], marker="o", label=model.workload)
            axis.fill_between(model.percents, [r["q_low"] for r in rows], [r["q_high"] for r in rows], alpha=0.15)
        axis.plot(list(paper), [q for _, q in paper.values()], "ks", markerfacecolor="none", label="paper (n nearest 1)")
        axis.axhline(1.0, color="grey", linewidth=0.8)
        axis.set_title(title)
        axis.set_xlabel("share of reservations p (%)")
        axis.grid(True, alpha=0.3)
    legend_below(figure, *axes, fontsize="small")
    return figure


def paper_chosen_n() -> dict[int, float]:
    """Per p, the paper's largest n (its Table 1 row where q came back to ~ 1)."""
    chosen = {}
    for percent, n, *_ in PAPER_TABLE1:
        chosen[percent] = max(n, chosen.get(percent, n))
    return chosen


def crossing_summary(crossings: pd.Series) -> tuple[float, float, float]:
    """Median and quartiles of per-seed crossings, censored ones (+-inf) included by their side: order
    statistics need no value for a censored seed, only where it lies (any of them may be infinite)."""
    values = np.sort(crossings.to_numpy(float))
    low, middle, high = np.quantile(values, (0.25, 0.5, 0.75), method="inverted_cdf")
    return float(middle), float(low), float(high)


def crossing_note(crossings: pd.Series, factors) -> str:
    """How many seeds' crossing the grid does not bracket, per side, short enough to stand under each
    share's point ("26/30 ≤ 0.5": 26 of 30 seeds at or below the grid's smallest n; "" if none)."""
    below, above, total = int((crossings == -np.inf).sum()), int((crossings == np.inf).sum()), len(crossings)
    notes = ([f"{below}/{total} ≤ {min(factors):g}"] if below else []) + (
        [f"{above}/{total} > {max(factors):g}"] if above else [])
    return ", ".join(notes)


def chosen_n_figure(runs: pd.DataFrame, variants):
    """Fig. 3: the paper's rule and Table 1 points beside, per p, our n at which q comes down to 1
    (per-seed crossing as the ledger computes it: median and quartiles over seeds; seeds whose
    crossing the grid does not bracket count by their side, drawn at the grid's end and counted
    in a note)."""
    figure = MplFigure(figsize=(7.5, 4.6), layout="constrained")
    axis = figure.add_subplot()
    rule_p = np.array([0.0, 15.0])
    axis.plot(rule_p, 1 + 3 * rule_p / 15, color="black", label="paper: Fig. 3 rule (refused above 15 %)")
    paper = paper_chosen_n()
    axis.plot(list(paper), list(paper.values()), "ks", markerfacecolor="none", label="paper: Table 1, q ~ 1")
    for jobs, marker in zip(variants, ("o", "^")):
        results = {"runs": runs[runs["jobs_per_workload"] == jobs]}
        fixed = results["runs"][results["runs"]["policy"] == "fixed"]
        factors = sorted(fixed["factor"].unique())
        percents = sorted({share_percent(s) for s in fixed["share"]})
        crossings = {p: crossing_factors(results, p) for p in percents}
        summaries = np.clip([crossing_summary(crossings[p]) for p in percents], factors[0], factors[-1])
        middle = summaries[:, 0]
        errors = np.array([middle - summaries[:, 1], summaries[:, 2] - middle])
        axis.errorbar(percents, middle, yerr=errors, marker=marker, capsize=3,
                      label=f"ours, {jobs} jobs: median, quartiles")
        for percent, value in zip(percents, middle):
            note = crossing_note(crossings[percent], factors)
            if note:  # under its point, centred (the last share's ending there, inside the axes)
                last = percent == percents[-1]
                axis.annotate(note, (percent, value), textcoords="offset points", xytext=(0, -14),
                              ha="right" if last else "center", fontsize="x-small")
    axis.set_xlabel("share of reservations p (%)")
    axis.set_ylabel("shortest notice factor n at which q comes down to 1")
    axis.set_title("Fig. 3: chosen shortest notice factor vs reservation share")
    axis.set_ylim(bottom=0)
    axis.grid(True, alpha=0.3)
    legend_below(figure, axis, fontsize="small")
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
    rows = [{"p %": share_percent(share), "workloads with q > 1 (%)": f"{100 * above[share].mean():.0f}"} for share in q.columns]
    rows.append({"p %": "all, rising", "workloads with q > 1 (%)": f"{100 * (above.all(axis=1) & rising).mean():.0f}"})
    return pd.DataFrame(rows)


# --- the page -----------------------------------------------------------------------------


def other_readings(runs: pd.DataFrame, reading: str) -> pd.Series:
    """Which runs are of the fixed policy under a W reading other than ``reading`` (the ledger's)."""
    return (runs["policy"] == "fixed") & (runs["reading"] != reading)


def scoped_results(runs: pd.DataFrame, baselines: pd.DataFrame, workload: str, jobs: int,
                   reading: str) -> dict[str, pd.DataFrame]:
    """The result tables the claims judge: the runs and baselines of one workload model at one
    workload size, the fixed policy under one W reading."""
    def scoped(frame: pd.DataFrame) -> pd.DataFrame:
        return frame[(frame["workload"] == workload) & (frame["jobs_per_workload"] == jobs)].reset_index(drop=True)
    runs = scoped(runs)
    return {"runs": runs[~other_readings(runs, reading)].reset_index(drop=True), "baselines": scoped(baselines)}


SENSITIVITY_TOTAL = "reproduced (of checkable results)"
SENSITIVITY_WAIT = "baseline mean queue wait, % of window (median)"


@dataclass(frozen=True)
class Sensitivity:
    """The sensitivity table and, per column, the reproduced count and the median baseline wait share."""

    table: pd.DataFrame
    reproduced: pd.Series
    wait_share: pd.Series  # NaN where a column's workload has no baselines


def sensitivity_table(runs: pd.DataFrame, baselines: pd.DataFrame, profile: str) -> Sensitivity:
    """Every claim's verdict under each workload (and size) and each W reading the fixed policy ran
    under, judged exactly as the ledger judges its own; the last rows count the reproduced ones and
    give the workload's baseline mean queue wait as a share of the window (the paper's regime).  The
    count is of result rows, as the ledger counts: calibration rows are judged and shown, not counted."""
    fixed = runs[runs["policy"] == "fixed"]
    columns, reproduced, wait_share = {}, {}, {}
    for (workload, jobs, reading), _ in fixed.groupby(["workload", "jobs_per_workload", "reading"], sort=True):
        scoped = scoped_results(runs, baselines, workload, int(jobs), reading)
        claims = ledger(PAPER, CLAIMS, scoped, profile)
        verdicts = claims.set_index("claim_id")["verdict"]
        results_only = verdicts[claims.set_index("claim_id")["basis"] == "result"]
        checkable = results_only[results_only != "not_attempted"]
        name = f"{workload}, {int(jobs)} jobs, {reading}"
        reproduced[name] = int((checkable == "reproduced").sum())
        own = scoped["baselines"]
        wait_share[name] = (100 * own["mean_queue_wait"] / own["makespan"]).median() if len(own) else float("nan")
        columns[name] = [*(verdict_words(v) for v in verdicts), f"{reproduced[name]} of {len(checkable)}",
                         "n/a" if math.isnan(wait_share[name]) else f"{wait_share[name]:.1f}"]
    table_rows = pd.DataFrame({"claim": [claim.claim_id for claim in CLAIMS] + [SENSITIVITY_TOTAL, SENSITIVITY_WAIT],
                               **columns})
    return Sensitivity(table_rows, pd.Series(reproduced, dtype=int), pd.Series(wait_share, dtype=float))


def _most(counts: pd.Series) -> str:
    best = counts[counts == counts.max()].index
    return f"{' and under '.join(repr(name) for name in best)}: {counts.max()}"


def sensitivity_section(sensitivity: Sensitivity, directory: Path, scope: dict, paper_wait_share) -> list:
    """The sensitivity table with the settings under which most claims reproduce named from it, over
    every workload and over those in the paper's regime."""
    table_rows, counts = sensitivity.table, sensitivity.reproduced
    write_table(directory, "sensitivity", table_rows, "Claims under each workload and W reading")
    low, high = (100 * bound for bound in paper_wait_share)
    in_regime = counts[sensitivity.wait_share.between(low, high)]
    regime_text = (f"Among the workloads in the paper's regime (median baseline wait {low:g}-{high:g} % of the window), "
                   + (f"most claims reproduce under {_most(in_regime)}." if len(in_regime) else "none ran."))
    return [
        Heading("Sensitivity: which workload and W reading move which claim"),
        paragraph(
            f"Every claim judged as the ledger judges it, under each workload (and workload size) and each reading of "
            f"W the fixed policy ran under; the ledger's own column is '{scope['workload']}, {scope['jobs']} jobs, "
            f"{scope['reading']}'. The other workloads ran on a coarser grid of n (see the setup), so their Table 1 "
            "rows and crossings are placed more coarsely, and the adaptive policy ran on the ledger's workload only. "
            f"Most claims reproduce under {_most(counts)} (", Link("sensitivity.md", "sensitivity.md"), "). "
            + regime_text
        ),
        table(table_rows.columns, table_rows.astype(str).itertuples(index=False)),
    ]


def readings_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The fixed policy under each W reading, per workload and share, at the grid factor whose measured
    n is nearest 1 and at the largest factor: q, measured n, r and how many fixed-point searches converged."""
    rows = []
    fixed = summary[summary["policy"] == "fixed"]
    for (workload, jobs, reading, share), group in fixed.groupby(["workload", "jobs_per_workload", "reading", "share"], sort=True):
        near_one = nearest_point(group, jobs, share_percent(share), 1.0)
        largest = group.loc[group["factor"].idxmax()]
        converged = group["fixed_point_converged"].mean()
        row = {"workload": workload, "jobs": int(jobs), "W reading": reading, "p %": share_percent(share)}
        for label, point in (("n ~ 1", near_one), ("largest n", largest)):
            row[f"policy n ({label})"] = f"{point['factor']:g}" if point is not None else "n/a"
            row[f"measured n ({label})"] = _cell(point, "measured_notice") if point is not None else "n/a"
            row[f"q ({label})"] = _cell(point, "q") if point is not None else "n/a"
            row[f"r % ({label})"] = _cell(point, "rejection_rate", 100, 1) if point is not None else "n/a"
        row["fixed point within tolerance (% of runs)"] = "-" if math.isnan(converged) else f"{100 * converged:.0f}"
        rows.append(row)
    return pd.DataFrame(rows)


def readings_section(runs: pd.DataFrame, directory: Path, parameters: dict) -> list:
    """The fixed policy under every W reading, on every workload: which reading moves which result."""
    reading = parameters["ledger"]["reading"]
    summary = _summaries(runs[runs["policy"] == "fixed"], ["workload", "jobs_per_workload"])
    rows = readings_table(summary)
    write_table(directory, "readings", rows, "The fixed policy under each reading of W")
    others = summary[summary["reading"] != reading]
    blocks = [
        Heading("How W is read: the fixed policy under each reading"),
        paragraph(
            "The notice rule accepts a reservation only if start - now >= n x W. Readings of W: "
            + "; ".join(f"{name}: {text}" for name, text in parameters["readings"].items())
            + f" (fixed-point tolerance {100 * parameters['fixed_point_tolerance']:g} % of W). The ledger, Table 1 and "
            f"Figs. 2-5 use '{reading}'; this table puts every reading side by side on every workload (",
            Link("readings.md", "readings.md"), "). Not judged by the ledger.",
        ),
        table(rows.columns, rows.astype(str).itertuples(index=False)),
    ]
    main = others[others["workload"] == parameters["ledger"]["workload"]]
    for other in sorted(main["reading"].unique()):
        stem = f"fig2_q_{other.replace('-', '_')}"
        points = main[main["reading"] == other]
        save_figure(metric_figure(points, sorted(points["jobs_per_workload"].unique()), "q", 2,
                                  f"Fig. 2 under the '{other}' reading: q vs measured n", "q = wq / wq0"), directory, stem)
        blocks.append(Figure(stem, f"Fig. 2 under the '{other}' reading of W, at measured n"))
    return blocks


def _joined(values, unit: str = "") -> str:
    return ", ".join(f"{v:g}" for v in values) + unit


def setup_blocks(parameters: dict, baselines: pd.DataFrame, spread: pd.DataFrame) -> list:
    """The setup as the runs used it: generated from ``parameters`` and the baselines, not written by hand."""
    profile, policies = parameters["profile"], parameters["policies"]
    scope = parameters["ledger"]
    grid = [
        ("profile", profile["name"]),
        ("machine", f"{parameters['nodes']} nodes, FCFS with EASY backfilling, one queue"),
        ("the ledger's workload", profile["workload"]),
        ("its sizes (jobs per workload: workloads)", ", ".join(f"{j}: {c}" for j, c in profile["variants"])),
        ("reservation shares p", _joined([100 * s for s in profile["shares"]], " %")),
        ("notice factors n, fixed policy", _joined(profile["factors"])),
        ("W readings of the fixed policy", ", ".join(profile["readings"]) + f" (the ledger: {scope['reading']})"),
        ("adaptive policy", "n = 1 + 3 p / 15 % for the current share p of reservations, refused while p > 15 %"),
        (f"n of the diagnostic '{policies['oracle']}'", _joined(profile["oracle_factors"])),
        (f"n of the diagnostic '{policies['requeue']}'", _joined(profile["requeue_factors"])),
        (f"n of the diagnostic '{policies['node_bound']}'", _joined(profile["node_bound_factors"])),
        ("other workloads (model, jobs, workloads)", "; ".join(f"{m}, {j}, {c}" for m, j, c in profile["regime_variants"]) or "none"),
        ("n of the other workloads", _joined(profile["regime_factors"])),
        ("baseline utilization (tuned per workload)",
         f"{100 * parameters['target_baseline_utilization']:g} +- {100 * parameters['utilization_tolerance']:g} %"),
        ("the ledger judges", f"{scope['workload']}, {scope['jobs']} jobs per workload; paper rows compared at {scope['compared_at']}"),
    ]
    loads = "; ".join(
        f"{row['workload model']} ({row['jobs']} jobs): offered load {row['offered load, median [range]']}, "
        f"{row['run-time estimates']}"
        for _, row in spread.iterrows()
    )
    return [
        Heading("Setup (generated from the parameters the runs used)"),
        table(("parameter", "value"), grid),
        paragraph(
            "Offered load is the work over capacity x submission span, per workload (median [range] over the tuned "
            f"workloads): {loads}. The workload models: "
            + "; ".join(describe_workload(name, parameters) for name in parameters["workload_models"])
            + ". Tuned workloads and how they spread in time (", Link("workloads.md", "workloads.md"), "):"
        ),
        table(spread.columns, spread.astype(str).itertuples(index=False)),
    ]


def regime_section(regime_runs: pd.DataFrame, directory: Path, parameters: dict, baselines: pd.DataFrame) -> list:
    """The diagnostic on the other workload models (not in the paper): tables and figure, no verdicts."""
    if regime_runs.empty:
        return []
    policies, models = parameters["policies"], parameters["workload_models"]
    regime = _summaries(regime_runs, ["workload", "jobs_per_workload"])
    present = set(regime["workload"])
    ordered = [*(m for m in models if m in present), *sorted(present - set(models))]
    points = [
        RegimePoints(regime, workload, jobs)
        for workload in ordered
        for jobs in sorted(regime[regime["workload"] == workload]["jobs_per_workload"].unique())
    ]
    slices = [p for p in points if p.workload not in models]
    regime.to_csv(directory / "regime_summary.csv", index=False, lineterminator="\n")
    rows = regime_table(regime, policies)
    readings = regime_runs.groupby("policy")["reading"].first().to_dict()
    save_figure(regime_figure(points, policies, readings), directory, "regime_q")
    write_table(directory, "workload_regime", rows,
                "Diagnostic: the other workloads" + (" and slices of real traces" if slices else ""))
    return [
        Heading("Diagnostic: other workloads (not in the paper)"),
        paragraph(
            "The same experiment on the other workloads, tuned to the same baseline utilization: "
            + "; ".join(describe_workload(name, parameters) for name in ordered if name in models)
            + ". The log-uniform models after the first were added while searching for a setting that shows the "
            "paper's trends, a choice made after seeing results. Fixed notice policy with refused reservations dropped "
            "(the paper's rule) or run as queue jobs, and reservations at submit + n x wq0 with refusals dropped (",
            Link("regime_summary.csv", "regime_summary.csv"), "). The sensitivity table above judges their fixed-policy "
            "runs; this table and figure are diagnostics.",
        ),
        *([slices_paragraph(slices, baselines, parameters)] if slices else []),
        table(rows.columns, rows.astype(str).itertuples(index=False)),
        Figure("regime_q", "q at n = 1 vs p for each workload and policy (mean, 95 % band); open squares the paper"),
    ]


DIAGNOSTIC_TEXT = {
    "oracle": ("Diagnostic: reservations at submit + n x wq0 (not in the paper)",
               "Reservations ask for submit + n x wq0, with wq0 the baseline's final mean queue wait, under no notice "
               "rule; refusals are dropped."),
    "requeue": ("Diagnostic: refused reservations join the queue (not in the paper)",
                "The fixed policy, but a refused reservation is run as a queue job instead of being dropped; it still "
                "counts in r, and in wq as the queue job it became. Refused reservations need not be a random subset "
                "of the jobs, so 'q, same jobs' divides by the baseline mean wait of the same jobs. 'dropped work %' "
                "is the share of all processor-seconds that refused reservations took off the machine."),
    "node_bound": ("Diagnostic: reservations bound to nodes when accepted (not in the paper)",
                   "The fixed policy on a node-level simulator: an accepted reservation takes the lowest-numbered nodes "
                   "free over its interval and keeps them; queue jobs (FCFS, EASY) start only on nodes free for their "
                   "whole run; q is against the same simulator without reservations (rules in "
                   "simulators/cosy/node_bound.py)."),
}


def diagnostic_sections(summary: pd.DataFrame, directory: Path, policies: dict) -> list:
    blocks = []
    for role, (title, text) in DIAGNOSTIC_TEXT.items():
        rows = diagnostic_table(summary, policies[role])
        if rows.empty:
            continue
        write_table(directory, policies[role], rows, title)
        blocks += [Heading(title), paragraph(text, " (", Link(f"{policies[role]}.md", f"{policies[role]}.md"), ")"),
                   table(rows.columns, rows.astype(str).itertuples(index=False))]
    return blocks


def write_report(directory, results: Mapping[str, pd.DataFrame], parameters: dict) -> pd.DataFrame:
    """Write the stage report (see the module docstring) from ``results`` (``runs`` and ``baselines``);
    returns the claims ledger."""
    directory = Path(directory)
    runs, baselines = results["runs"], results["baselines"]
    published = publish_inputs(directory, {"runs": runs, "baselines": baselines}, parameters)
    scope, policies, profile = parameters["ledger"], parameters["policies"], parameters["profile"]
    results = scoped_results(published["runs"], published["baselines"], scope["workload"], scope["jobs"],
                             scope["reading"])
    claims = ledger(PAPER, CLAIMS, results, profile["name"])
    write_ledger(directory, claims, "COSY claims ledger")
    causes = causes_frame(claims, results, parameters)
    write_table(directory, "causes", causes, "What does not reproduce, and the measured cause")

    reading_blocks = readings_section(runs, directory, parameters)
    sensitivity_blocks = sensitivity_section(sensitivity_table(runs, baselines, profile["name"]), directory, scope,
                                             parameters["paper_wait_share"])
    runs = runs[~other_readings(runs, scope["reading"])]
    main = scope["workload"]
    regime_runs = runs[runs["workload"] != main]
    runs = runs[runs["workload"] == main]
    main_baselines = baselines[baselines["workload"] == main]
    summary = _summaries(runs, ["jobs_per_workload"])
    summary.to_csv(directory / "summary.csv", index=False, lineterminator="\n")
    variants = sorted(runs["jobs_per_workload"].unique())
    small = scope["jobs"]
    spread = workloads_table(baselines, parameters["workloads"])
    write_table(directory, "workloads", spread, "Tuned workloads: how they spread in time")

    first = table1(summary, main_baselines, small)
    write_table(directory, "table1", first, f"Table 1: paper vs ours ({small} jobs)")
    larger = {jobs: table1(summary, main_baselines, jobs) for jobs in variants if jobs != small}
    for jobs, frame in larger.items():
        write_table(directory, f"table1_{jobs}", frame, f"Table 1 at {jobs} jobs per workload")
    low_n = factor_near_one(summary, small)
    single = single_workload_patterns(runs, small, low_n)
    write_table(directory, "single_workload", single, f"Workloads showing q > 1 at n = {low_n:g}")
    adaptive_blocks = []
    if (summary["policy"] == "adaptive").any():
        adaptive = adaptive_table(summary[summary["policy"].isin(["adaptive", "fixed"])])
        write_table(directory, "adaptive", adaptive, "Adaptive notice policy (paper Fig. 3 rule)")
        adaptive_blocks = [
            Heading("Adaptive notice policy (new: the paper proposes it but never simulated it)"),
            paragraph(
                "n = 1 + 3 p / 15 % for the current share p of accepted reservations among requests so far, "
                "reservations refused while p > 15 %; requests ask for the earliest start the rule allows."
            ),
            table(adaptive.columns, adaptive.astype(str).itertuples(index=False)),
        ]

    save_figure(metric_figure(summary, variants, "q", 2, "Fig. 2: relative queue wait q vs notice factor n", "q = wq / wq0"), directory, "fig2_q")
    save_figure(chosen_n_figure(runs, variants), directory, "fig3_chosen_n")
    save_figure(metric_figure(summary, variants, "utilization", 3, "Fig. 4: utilization u vs n", "u (%)", 100), directory, "fig4_u")
    save_figure(metric_figure(summary, variants, "rejection_rate", 4, "Fig. 5: rejected reservations r vs n", "r (% of all jobs)", 100), directory, "fig5_r")
    save_figure(
        metric_figure(summary, variants, "max_queue_wait", None, "Starvation: longest queue wait vs n", "max queue wait (h)", 1 / 3600),
        directory,
        "starvation",
    )
    baseline_max = {
        jobs: main_baselines[main_baselines["jobs_per_workload"] == jobs]["max_queue_wait"].mean() / 3600 for jobs in variants
    }
    blocks = [
        paragraph(
            "Reproduction of Cao and Zimmermann, 'Queue scheduling and advance reservations with COSY' (IPDPS 2004): "
            f"FCFS with EASY backfilling on {parameters['nodes']} nodes, a share p of the jobs turned into advance "
            f"reservations that ask for start = submit + n x W ({parameters['readings'][scope['reading']]}), "
            "accepted only if the nodes are free given running jobs and accepted reservations. Every value is the "
            "mean over workloads with its 95 % Student-t interval in brackets; q is computed per workload against its "
            "own run without reservations, on the same seeds for every point. Every run checked that each accepted "
            "reservation started exactly at its start time."
        ),
        *ledger_blocks(claims),
        Heading("What does not reproduce, and the measured cause"),
        paragraph("Each claim not reproduced, with what the ledger's runs measure behind it (means over the "
                  "workloads; ", Link("causes.csv", "causes.csv"), "): the queue jobs' wait beside the two diagnostics "
                  "(refused reservations run as queue jobs; reservations asking for submit + n x wq0), the work refused "
                  "reservations took off the machine, the notice against the run window, the refused requests at "
                  "each n; an undecided claim's seeds' spread first."),
        document_table(causes),
        *sensitivity_blocks,
        paragraph("The ledger as ", Link("CSV", "claims.csv"), ", ", Link("Markdown", "claims.md"), " and ",
                  Link("LaTeX", "claims.tex"), "; the runs it reads: ", Link("runs.csv", "runs.csv"), ", ",
                  Link("baselines.csv", "baselines.csv"), ", ", Link("parameters.json", "parameters.json"), "."),
        *setup_blocks(parameters, baselines, spread),
        Heading("Table 1: paper vs ours"),
        paragraph(
            "Our point is the grid's policy n whose mean measured n (wa / wq) is nearest the paper's n (the paper's n "
            "is the measured wa / wq); 'our measured n' is our wa / wq. Each column is one ledger row whose parts are its cells, each judged "
            "against its own number (t1-q, t1-u and t1-r; t1-exp1-u for the baseline). "
            "Tables as ", Link("CSV", "table1.csv"), ", ", Link("Markdown", "table1.md"), " and ", Link("LaTeX", "table1.tex"), "."
        ),
        table(first.columns, first.astype(str).itertuples(index=False)),
    ]
    for jobs, frame in larger.items():
        blocks += [Heading(f"Table 1 at {jobs} jobs per workload (not judged by the ledger)", 3),
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
        Figure("fig2_q", "Fig. 2: q vs n per p; lines ours (mean, 95 % band), open squares the paper, both at measured n"),
        Figure("fig3_chosen_n", "Fig. 3: chosen n vs p: the paper's rule and Table 1 points, ours the n where q comes "
               "down to 1 (median and quartiles over workloads; 'k/N ≤ a': k of N workloads' q was at most 1 already at "
               "the grid's smallest n, a; 'k/N > b': above 1 up to its largest, b)"),
        Figure("fig4_u", "Fig. 4: utilization vs n per p"),
        Figure("fig5_r", "Fig. 5: rejected reservations (% of all jobs) vs n per p"),
        Figure("starvation", "Longest queue wait vs n per p (the paper's starvation at p >= 20 %)"),
        paragraph(
            "Baseline longest queue wait: "
            + ", ".join(f"{h:.1f} h at {jobs} jobs" for jobs, h in baseline_max.items())
            + ". All points: ", Link("summary.csv", "summary.csv"), "."
        ),
        *adaptive_blocks,
        *reading_blocks,
        *diagnostic_sections(summary, directory, policies),
        *regime_section(regime_runs, directory, parameters, baselines),
    ]
    document = Document("COSY: queue scheduling with advance reservations", tuple(blocks))
    (directory / "index.md").write_text(render_markdown(document), encoding="utf-8")
    (directory / "index.html").write_text(render_html(document), encoding="utf-8")
    return claims
