"""The ICS stage report: figures, tables, the claims ledger and the page, from result tables only.

Input: the files ``pipeline.ics.IcsReport`` writes into the report directory
(``read_results``): ``runs.csv`` (one row per figure, group, scheme and seed with the
run's metrics), ``schemes.csv`` (each scheme and how it waits for a message) and
``parameters.json`` (the profile and the model constants the runs used); from the
parameters and seeds in ``runs.csv`` it redraws each workload the runs used
(``workload_inputs``, the simulator's own deterministic generator) and measures it, so
that the setup's job counts, means and offered loads are what the runs had, never the
intended parameters.  Output (``write_report``): matplotlib figures of the per-seed means (object API, saved
deterministically by ``schedlab.reports.figures.save_figure``), tables (CSV, Markdown, LaTeX),
the claims ledger of Yu, Kim and Maeng's evaluation (``schedlab.reports.ics_claims``) and the
page, whose every number and verdict comes from those files.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from typing import TYPE_CHECKING

from schedlab.reports.document import BulletList, Document, Heading, Link, paragraph, render_html, render_markdown
from schedlab.reports.document import Figure as FigureBlock
from schedlab.reports.figures import legend_below, save_figure
from schedlab.reports.ics_causes import causes_frame
from schedlab.reports.ics_claims import CLAIMS
from schedlab.reports.ledger import ledger, ledger_blocks, measured_text, write_ledger
from schedlab.reports.ledger_compare import moved
from schedlab.reports.tables import document_table, publish_inputs, write_table

if TYPE_CHECKING:
    from schedlab.simulators.ics.experiments import Point

PAPER = "ics"
SPINNING_SCHEMES = ("LOCAL", "DCS", "PB", "PROC-S")
PROFILE_COLORS = ("#4c72b0", "#dd8452", "#c7c7c7", "#8c8c8c", "#55a868", "#c44e52")

FIGURE_TITLES = {
    "fig7": "Fig. 7: wl4 under light load (MPL 5, v = 10 %)",
    "fig8": "Fig. 8: wl4 under heavy load (MPL 5, v = 10 %)",
    "fig9": "Fig. 9: communication intensity, wl1-wl3 (MPL 5, v = 10 %)",
    "fig10": "Fig. 10: multiprogramming level 2, 3, 5 (wl4, v = 10 %)",
    "fig11": "Fig. 11: task skew 0 % and 60 % (wl4, all jobs at time 0, MPL 5)",
    "fig12": "Fig. 12: fairness on wl5 (MPL 5, v = 0 %)",
    "fig13": "Fig. 13: NPB-like applications, one kind at a time (64 nodes, MPL 5, v = 10 %)",
    "fig14": "Fig. 14: mix of NPB-like applications at rising arrival rates (64 nodes, MPL 5)",
    "compression": "Time-compression check: wl4 heavy, all jobs at time 0 and arriving, at several compression factors",
}

# --- the paper's numbers (Yu, Kim and Maeng) ------------------------------------------

PAPER_TABLE3 = {  # workload -> scheme -> (BCR %, FDR %)
    "wl1": {"PB": (34.65, 72.07), "PROC-S": (34.43, 35.18), "SB": (29.26, 57.55), "PROC-B": (26.71, 19.11), "HYBRID": (29.19, 56.63)},
    "wl2": {"PB": (70.41, 71.32), "PROC-S": (71.65, 35.05), "SB": (49.14, 62.94), "PROC-B": (49.42, 31.89), "HYBRID": (46.63, 55.42)},
    "wl3": {"PB": (75.82, 72.78), "PROC-S": (78.91, 36.21), "SB": (52.79, 62.70), "PROC-B": (50.03, 33.50), "HYBRID": (48.58, 52.57)},
}
PAPER_TABLE4 = {
    "MPL 2": {"PB": (13.13, 45.51), "PROC-S": (10.47, 16.51), "SB": (15.39, 55.26), "PROC-B": (14.69, 16.93), "HYBRID": (15.43, 49.49)},
    "MPL 3": {"PB": (37.26, 57.61), "PROC-S": (31.60, 22.93), "SB": (29.64, 58.25), "PROC-B": (29.15, 23.12), "HYBRID": (28.17, 50.85)},
    "MPL 5": {"PB": (66.44, 72.89), "PROC-S": (67.83, 35.06), "SB": (45.90, 62.71), "PROC-B": (42.73, 29.81), "HYBRID": (42.95, 56.19)},
}
PAPER_FIG11C = {
    "v = 0%": {"PB": (65.98, 72.76), "PROC-S": (66.89, 35.12), "SB": (45.98, 62.43), "PROC-B": (44.93, 31.32), "HYBRID": (44.16, 56.38)},
    "v = 60%": {"PB": (66.30, 73.43), "PROC-S": (68.63, 36.09), "SB": (40.17, 61.12), "PROC-B": (38.84, 28.66), "HYBRID": (37.86, 55.94)},
}
PAPER_FAIRNESS = {"LOCAL": 1.0743, "DCS": 0.5371, "PB": 0.1369, "PROC-S": 0.1153, "SB": 0.1374, "PROC-B": 0.0803, "HYBRID": 0.1105, "GS": 0.0456}
PAPER_BCR_FDR = {  # Fig. 8c is the MPL-5 column of Table 4 (same experiment)
    "fig8": {"heavy": PAPER_TABLE4["MPL 5"]}, "fig9": PAPER_TABLE3, "fig10": PAPER_TABLE4, "fig11": PAPER_FIG11C,
}


# --- result tables -----------------------------------------------------------------------

RESULT_TABLES = ("runs", "means_runs", "schemes")


def read_results(directory) -> tuple[dict[str, pd.DataFrame], dict]:
    """The result tables (``runs``, ``means_runs``, ``schemes``) and ``parameters.json`` of a report directory,
    with ``workloads``: the inputs the runs used, measured (``workload_inputs``)."""
    directory = Path(directory)
    results = {name: pd.read_csv(directory / f"{name}.csv") for name in RESULT_TABLES}
    results["workloads"] = workload_inputs(results["runs"])
    parameters = json.loads((directory / "parameters.json").read_text(encoding="utf-8"))
    return results, parameters


# --- the workloads the runs used, redrawn and measured ----------------------------------------

WORKLOAD_FIELDS = ("family", "workload", "load", "n_jobs", "skew", "compression", "iteration_share", "simultaneous",
                   "apps", "mean_interarrival", "means")
"""The parameters of a point that, with its seed, fix its jobs (the scheme, nodes and MPL only run them)."""


def _apps(value) -> tuple[str, ...]:
    """runs.csv joins a point's applications with '+'; a synthetic point has none (read back as NaN)."""
    return tuple(value.split("+")) if isinstance(value, str) and value else ()


def point_of(row) -> Point:
    """The simulator's experiment point of one runs.csv row (its parameters are all in the row)."""
    from schedlab.simulators.ics.experiments import Point  # the generator the runs used; only the report's setup needs it

    fields = {name: row[name] for name in Point.__dataclass_fields__ if name not in ("scheme", "apps", "seed")}
    for name in ("n_jobs", "nodes", "mpl"):
        fields[name] = int(fields[name])
    for name in ("simultaneous", "boost_preempts_spinner"):
        fields[name] = bool(fields[name])
    return Point(scheme=str(row["scheme"]), apps=_apps(row["apps"]), seed=int(row["seed"]), **fields)


def measure_workload(jobs, nodes: int, compression: float) -> dict:
    """What a workload offers, in full-length seconds (compressed seconds times ``compression``).

    Arrival times are sums of the gaps from time 0, so the last arrival over the job count is the mean
    gap; the offered load is the dedicated processor-seconds over the node-seconds until the last arrival
    (``schedlab.simulators.ics.simulate.offered_load``).  A workload submitted at time 0 has neither."""
    submits = np.array([job.submit for job in jobs])
    dedicated = np.array([job.dedicated_time for job in jobs])
    sizes = np.array([job.size for job in jobs])
    span = float(submits.max())
    arriving = span > 0
    return {
        "jobs": len(jobs),
        "mean_gap_s": compression * span / len(jobs) if arriving else math.nan,
        "mean_runtime_s": compression * float(dedicated.mean()),
        "mean_size": float(sizes.mean()),
        "offered_load": float((sizes * dedicated).sum() / (nodes * span)) if arriving else math.nan,
    }


def workload_inputs(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per figure, group and seed: the workload its runs used (every scheme of a point runs the same
    jobs), redrawn from the point's parameters and seed with the simulator's generator, and measured."""
    measured: dict[tuple, dict] = {}
    rows = []
    for (figure, group, seed), part in runs.groupby(["figure", "group", "seed"], sort=False):
        first = part.iloc[0]
        key = (*(str(first[name]) for name in WORKLOAD_FIELDS), int(seed), int(first["nodes"]))
        if key not in measured:
            point = point_of(first)
            measured[key] = measure_workload(point.jobs(), point.nodes, point.compression)
        rows.append({"figure": figure, "group": group, "seed": int(seed), "family": first["family"],
                     "workload": first["workload"] if first["family"] == "synthetic" else f"NPB {first['apps']}",
                     "load": first["load"], "means": first["means"], "simultaneous": bool(first["simultaneous"]),
                     "compression": float(first["compression"]), "nodes": int(first["nodes"]), **measured[key]})
    return pd.DataFrame(rows)


def means_variant_results(results: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The results as the variant reading of the stated means gives them: the runs of the figures it ran
    (``means_runs``) in place of the default's, and their workloads measured."""
    variant = results["means_runs"]
    kept = ~results["runs"]["figure"].isin(set(variant["figure"]))
    kept_workloads = ~results["workloads"]["figure"].isin(set(variant["figure"]))
    return {**results, "runs": pd.concat([results["runs"][kept], variant], ignore_index=True),
            "workloads": pd.concat([results["workloads"][kept_workloads], workload_inputs(variant)], ignore_index=True)}


def means_workloads_table(results: dict[str, pd.DataFrame], readings: dict) -> pd.DataFrame:
    """Per figure of the variant and reading, the arriving synthetic workloads as the runs had them: mean gap,
    mean dedicated run time and offered load, each the mean [range] over seeds (full-length seconds)."""
    rows = []
    for reading, workloads in ((readings["default"], results["workloads"]),
                               (readings["variant"], workload_inputs(results["means_runs"]))):
        for figure in dict.fromkeys(results["means_runs"]["figure"]):
            inputs = workloads[workloads["figure"] == figure].drop_duplicates(["group", "seed"])
            rows.append({"figure": figure, "stated means met": reading, "load": ", ".join(dict.fromkeys(inputs["load"])),
                         "mean gap (s)": _spread_text(inputs["mean_gap_s"]),
                         "mean dedicated run time (s)": _spread_text(inputs["mean_runtime_s"]),
                         "offered load": _spread_text(inputs["offered_load"])})
    return pd.DataFrame(rows)


def figure_means(runs: pd.DataFrame, figure: str, scheme_order) -> pd.DataFrame:
    """One row per group and scheme of ``figure``: every metric's mean over the seeds, and the seed count."""
    part = runs[runs["figure"] == figure]
    numeric = [c for c in part.columns if pd.api.types.is_numeric_dtype(part[c]) and c != "seed"]
    grouped = part.groupby(["group", "scheme"], sort=False)
    frame = grouped[numeric].mean().join(grouped["seed"].nunique().rename("seeds")).reset_index()
    frame["scheme"] = pd.Categorical(frame["scheme"], categories=list(scheme_order), ordered=True)
    frame["group"] = pd.Categorical(frame["group"], categories=list(dict.fromkeys(part["group"])), ordered=True)
    return frame.sort_values(["group", "scheme"]).reset_index(drop=True)


def _value(frame: pd.DataFrame, group: str, scheme: str, metric: str) -> float:
    match = frame[(frame["group"] == group) & (frame["scheme"] == scheme)]
    return float(match[metric].iloc[0]) if len(match) else float("nan")


def _groups(frame: pd.DataFrame) -> list[str]:
    return [g for g in frame["group"].cat.categories if (frame["group"] == g).any()]


MIN_PANELS_WIDTH = 7.0
"""Inches: however few the groups, room for a figure title of a line ("Fig. 8: wl4 under heavy load ...")."""


def _panels(frame: pd.DataFrame, height: float = 3.6):
    groups = _groups(frame)
    figure = Figure(figsize=(max(3.4 * len(groups) + 1.0, MIN_PANELS_WIDTH), height), layout="constrained")
    axes = figure.subplots(1, len(groups), squeeze=False)[0]
    return figure, groups, axes


def stacked_bars(frame: pd.DataFrame, columns, labels, title: str, ylabel: str, colors=None) -> Figure:
    """One panel per group, one bar per scheme, ``columns`` stacked."""
    figure, groups, axes = _panels(frame)
    for ax, group in zip(axes, groups):
        part = frame[frame["group"] == group]
        x = np.arange(len(part))
        bottom = np.zeros(len(part))
        for i, (column, label) in enumerate(zip(columns, labels)):
            values = part[column].to_numpy(dtype=float)
            ax.bar(x, values, bottom=bottom, label=label, color=None if colors is None else colors[i])
            bottom += values
        ax.set_xticks(x, [str(s) for s in part["scheme"]], rotation=60, fontsize=8)
        ax.set_title(str(group), fontsize=9)
        ax.grid(True, axis="y", alpha=0.3)
    axes[0].set_ylabel(ylabel)
    legend_below(figure, *axes, fontsize=7)
    figure.suptitle(title, fontsize=10)
    return figure


def response_figure(frame: pd.DataFrame, title: str) -> Figure:
    return stacked_bars(frame, ("mean_wait", "mean_execution"), ("wait", "execution"), title,
                        "mean response time (compressed s)")


def cpu_profile_figure(frame: pd.DataFrame, categories, title: str) -> Figure:
    columns = [f"share_{name}" for name in categories]
    return stacked_bars(frame, columns, categories, title, "share of CPU time", PROFILE_COLORS)


def turnaround_figure(frame: pd.DataFrame, title: str, relative_to: str | None = None) -> Figure:
    """Turnaround per scheme; with ``relative_to``, divided by that scheme's in the same group."""
    shown = frame.copy()
    if relative_to is not None:
        for group in _groups(shown):
            base = _value(shown, group, relative_to, "turnaround")
            shown.loc[shown["group"] == group, "turnaround"] /= base
    ylabel = f"turnaround / {relative_to}'s" if relative_to else "turnaround (compressed s)"
    return stacked_bars(shown, ("turnaround",), ("turnaround",), title, ylabel)


def job_types(frame: pd.DataFrame) -> list[str]:
    """The job types with a slowdown in ``frame``: runs.csv has a column for every type of every figure, and
    a workload's rows leave the others empty (wl5 has J1, J3 and J4 only)."""
    return sorted(c.removeprefix("slowdown_") for c in frame.columns
                  if c.startswith("slowdown_") and frame[c].notna().any())


def slowdown_by_type_figure(frame: pd.DataFrame, title: str) -> Figure:
    """Fig. 12a: mean slowdown per job type, normalized by the least-slowed type of each scheme."""
    types = job_types(frame)
    figure = Figure(figsize=(8.0, 3.8), layout="constrained")
    ax = figure.add_subplot()
    x = np.arange(len(frame))
    width = 0.8 / max(1, len(types))
    values = frame[[f"slowdown_{t}" for t in types]].to_numpy(dtype=float)
    normalized = values / np.nanmin(values, axis=1, keepdims=True)
    for i, kind in enumerate(types):
        ax.bar(x + (i - (len(types) - 1) / 2) * width, normalized[:, i], width, label=kind)
    ax.set_xticks(x, [str(s) for s in frame["scheme"]], rotation=45, fontsize=8)
    ax.set_ylabel("slowdown / least-slowed type's")
    ax.grid(True, axis="y", alpha=0.3)
    legend_below(figure, ax, fontsize=8)
    ax.set_title(title, fontsize=10)
    return figure


def lines_figure(frame: pd.DataFrame, metric: str, title: str, ylabel: str, scale_by_group=None) -> Figure:
    """``metric`` against the groups (in order), one line per scheme."""
    figure = Figure(figsize=(7.0, 4.0), layout="constrained")
    ax = figure.add_subplot()
    groups = _groups(frame)
    for scheme in [s for s in frame["scheme"].cat.categories if (frame["scheme"] == s).any()]:
        values = [_value(frame, g, scheme, metric) * (scale_by_group(g) if scale_by_group else 1.0) for g in groups]
        ax.plot(range(len(groups)), values, marker="o", label=scheme)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    legend_below(figure, ax, fontsize=8)
    ax.set_title(title, fontsize=10)
    return figure


# --- tables ---------------------------------------------------------------------------

MAIN_COLUMNS = (
    "seeds", "processes_per_node", "mean_response", "mean_wait", "mean_execution", "turnaround", "utilization", "mean_slowdown",
    "fairness_cv", "bcr", "fdr",
)


COLUMN_LABELS = {
    "processes_per_node": "processes per node",
    "mean_response": "mean response (compressed s)",
    "mean_wait": "mean wait (compressed s)",
    "mean_execution": "mean execution (compressed s)",
    "turnaround": "turnaround (compressed s)",
    "utilization": "utilization (share of CPU time)",
    "mean_slowdown": "mean slowdown",
    "fairness_cv": "fairness: CV of type slowdowns",
    "bcr": "BCR: boost conflicts / decisions",
    "fdr": "FDR: false decisions / conflicts",
    "mean_gap_s": "mean gap between arrivals (s, full length)",
    "mean_runtime_s": "mean dedicated run time (s, full length)",
    "mean_size": "mean processes per job",
    "offered_load": "offered load (dedicated processor-seconds / node-seconds to the last arrival)",
}
"""Headers of the page's tables in words with units (``schedlab.simulators.ics.metrics`` defines each); the CSV
files keep the column names."""


def header_labels(columns) -> dict[str, str]:
    """``COLUMN_LABELS``, and each CPU-profile share (``share_spin``...) as the share of CPU time it is."""
    shares = {c: f"CPU {c.removeprefix('share_').replace('_', ' ')} (share)" for c in columns if c.startswith("share_")}
    return {**COLUMN_LABELS, **shares}


def main_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Means over the seeds, per group and scheme (per-seed values are in ``runs.csv``)."""
    shares = [c for c in frame.columns if c.startswith("share_")]
    columns = ["group", "scheme", *[c for c in MAIN_COLUMNS if c in frame.columns], *shares]
    shown = frame[columns].copy()
    shown["group"] = shown["group"].astype(str)
    shown["scheme"] = shown["scheme"].astype(str)
    return shown


def _interval_text(values: pd.Series, scale: float = 1.0) -> str:
    return measured_text((values * scale).to_numpy())


def _per_seed(runs: pd.DataFrame, figure: str, group: str, scheme: str, metric: str) -> pd.Series:
    chosen = runs[(runs["figure"] == figure) & (runs["group"] == group) & (runs["scheme"] == scheme)]
    return chosen.set_index("seed")[metric].sort_index()


def bcr_fdr_table(runs: pd.DataFrame, figure: str, paper: dict) -> pd.DataFrame:
    """Ours (mean over seeds [95 % interval]) beside the paper's BCR and FDR (%), for the paper's five schemes, with
    the FDR a uniformly random pick among the conflicting processes would have had in the same runs."""
    rows = []
    for group, schemes in paper.items():
        for scheme, (bcr, fdr) in schemes.items():
            rows.append({
                "group": group, "scheme": scheme,
                "BCR % (ours)": _interval_text(_per_seed(runs, figure, group, scheme, "bcr"), 100.0),
                "BCR % (paper)": bcr,
                "FDR % (ours)": _interval_text(_per_seed(runs, figure, group, scheme, "fdr"), 100.0),
                "FDR % (paper)": fdr,
                "FDR % by chance (ours)": _interval_text(_per_seed(runs, figure, group, scheme, "fdr_chance"), 100.0),
            })
    return pd.DataFrame(rows)


def fairness_table(runs: pd.DataFrame) -> pd.DataFrame:
    rows = [{"scheme": s, "CV (ours)": _interval_text(_per_seed(runs, "fig12", "wl5", s, "fairness_cv")), "CV (paper)": cv}
            for s, cv in PAPER_FAIRNESS.items()]
    return pd.DataFrame(rows)


def reduction_per_seed(runs: pd.DataFrame, figure: str, group: str, scheme: str, baseline: str,
                       metric: str) -> pd.Series:
    """Per seed, the per cent by which ``scheme`` lowers ``metric`` against ``baseline`` on that seed."""
    return 100.0 * (1.0 - _per_seed(runs, figure, group, scheme, metric) / _per_seed(runs, figure, group, baseline, metric))


def npb_speedup_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Fig. 13: turnaround reduction against BATCH per application (mean over seeds [95 % interval])."""
    apps = list(dict.fromkeys(runs.loc[runs["figure"] == "fig13", "group"]))
    rows = []
    for app in apps:
        row = {"application": app}
        for scheme in ("PROC-B", "PROC-S", "SB", "HYBRID", "GS"):
            row[f"{scheme} vs BATCH %"] = _interval_text(reduction_per_seed(runs, "fig13", app, scheme, "BATCH", "turnaround"))
        rows.append(row)
    return pd.DataFrame(rows)


def compression_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per workload and factor: the schemes ordered by mean response (mean over seeds), and that response scaled
    to full length."""
    rows = []
    for group in _groups(frame):
        part = frame[frame["group"] == group].sort_values("mean_response")
        factor = float(part["compression"].iloc[0])
        row = {"group": group, "factor": factor,
               "ranking of the seed means (best first)": " < ".join(str(s) for s in part["scheme"])}
        for _, r in part.iterrows():
            row[f"{r['scheme']} response x factor (s)"] = r["mean_response"] * factor
        rows.append(row)
    return pd.DataFrame(rows)


# --- the setup section, generated from parameters.json and runs.csv ------------------------

RUNTIME_ESTIMATES = ("none: allocation is first-come first-served without backfilling and never reads a requested "
                     "time, so the jobs carry no run-time estimates (neither exact nor user-supplied)")


def regime_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Processes resident per node (time-average over the measurement window), per figure, group and scheme:
    mean over seeds [95 % interval]; MPL as run."""
    rows = []
    for (figure, group, scheme), part in runs.groupby(["figure", "group", "scheme"], sort=False):
        rows.append({"figure": figure, "group": group, "scheme": scheme, "MPL": int(part["mpl"].iloc[0]),
                     "processes per node": _interval_text(part.set_index("seed")["processes_per_node"].sort_index())})
    return pd.DataFrame(rows)


def regime_facts(runs: pd.DataFrame) -> list[str]:
    """The load the heavy-load experiments reached, and how much CPU the spinning schemes spend spinning."""
    facts = []
    heavy = runs[(runs["figure"] == "fig8") & (runs["scheme"] != "BATCH")]
    if len(heavy):
        per_scheme = heavy.groupby("scheme")["processes_per_node"].mean()
        facts.append(
            f"Fig. 8 (heavy load, MPL 5): processes resident per node, time-averaged over the measurement window, "
            f"{heavy['processes_per_node'].mean():.2f} on average over the {len(per_scheme)} time-sharing schemes and "
            f"{heavy['seed'].nunique()} seeds (per scheme {per_scheme.min():.2f}-{per_scheme.max():.2f}; BATCH runs "
            "one process per node)."
        )
    mpl_sweep = runs[runs["figure"] == "fig10"]
    if len(mpl_sweep):
        by_mpl = mpl_sweep.groupby("mpl")["processes_per_node"].mean()
        facts.append("Fig. 10: processes per node by MPL, mean over schemes and seeds: "
                     + ", ".join(f"MPL {mpl} {value:.2f}" for mpl, value in by_mpl.items()) + ".")
    spinning = runs[(runs["figure"] == "fig8") & runs["scheme"].isin(SPINNING_SCHEMES)]
    if len(spinning):
        spin = 100.0 * spinning.groupby("scheme")["share_spin"].mean()
        facts.append("Fig. 8: share of CPU time spent spinning, mean over seeds: "
                     + ", ".join(f"{scheme} {spin[scheme]:.1f} %" for scheme in SPINNING_SCHEMES if scheme in spin)
                     + " (the paper does not publish these shares; its Fig. 8b shows spinning as a minor part).")
    return facts


def job_length_facts(runs: pd.DataFrame, parameters: dict) -> list[str]:
    """How short the synthetic jobs arriving over time came out at the profile's compression, from the runs."""
    model, compression = parameters["model"], parameters["profile"]["compression"]
    arriving = runs[(runs["family"] == "synthetic") & ~runs["simultaneous"].astype(bool)
                    & (runs["compression"] == compression)]
    if arriving.empty:
        return []
    quantum = model["costs_s"]["gang quantum"]
    return [f"Job lengths: a synthetic job runs at least {model['synthetic']['min_iterations']} iterations. At "
            f"compression {compression:g}, the workloads arriving over time lengthened "
            f"{100 * arriving['lengthened_job_fraction'].mean():.0f} % of their measured jobs to that floor, and "
            f"{100 * arriving['short_job_fraction'].mean():.0f} % run shorter than one gang quantum ({quantum:g} s) "
            "on a dedicated machine (means over those points, schemes and seeds); runs.csv holds, per run, the mean "
            "slowdown of the jobs shorter and longer than that quantum and the fairness CV over the longer ones."]


def _seed_text(seeds) -> str:
    seeds = list(seeds)
    consecutive = seeds == list(range(seeds[0], seeds[0] + len(seeds)))
    return f"{seeds[0]}-{seeds[-1]}" if consecutive and len(seeds) > 2 else ", ".join(str(s) for s in seeds)


def message_handling_text(handling: dict[str, str]) -> str:
    """What each scheme's kernel does on a message for a process that is not running, as the model set it."""
    by_rule: dict[str, list[str]] = {}
    for scheme, rule in handling.items():
        by_rule.setdefault(rule, []).append(scheme)
    return "On a message for a process that is not running: " + "; ".join(
        f"{', '.join(schemes)}: {rule}" for rule, schemes in by_rule.items()) + " (Table 1)."


def boost_rule_text(runs: pd.DataFrame) -> str:
    """Which process a boost preempts, as the runs set it (``boost_preempts_spinner`` of each point)."""
    rule = runs["boost_preempts_spinner"].astype(bool)
    lower = "A boost (the interrupt handler of DCS, SB and PROC-B, the kernel thread of PB and PROC-S) preempts " \
        "a runner of a lower priority level"
    reason = "The paper states no preemption rule; it gives the boost the purpose of coscheduling the destination " \
        "with its sender (Sect. 2)."
    if rule.all():
        return (f"{lower}, and also a busy-waiting runner of the same level, which yields its turn to the back of "
                f"its level (our reading). {reason}")
    if not rule.any():
        return f"{lower} only: a runner of the same level keeps the CPU, busy-waiting or not (the plain TS rule). {reason}"
    by_scheme = rule.groupby(runs["scheme"], sort=False).agg(["all", "any"])
    if (by_scheme["all"] == by_scheme["any"]).all():
        plain = ", ".join(by_scheme.index[~by_scheme["all"]])
        preempting = ", ".join(by_scheme.index[by_scheme["all"]])
        return (f"{lower}. In the runs of {plain} only that: a runner of the same level keeps the CPU (the plain TS "
                f"rule). In the runs of {preempting} also a busy-waiting runner of the same level, which yields its "
                f"turn to the back of its level (our reading). {reason}")
    return (f"{lower}; in {int(rule.sum())} of {len(rule)} runs also a busy-waiting runner of the same level, in the "
            f"others not (see boost_preempts_spinner in runs.csv). {reason}")


def boost_position_text(positions: dict[str, str]) -> str:
    """Where each periodic boost thread puts the process it raises, as the model set it."""
    where = "; ".join(f"{scheme} at the {position}" for scheme, position in positions.items())
    return (f" A periodic boost thread puts the process it raises in the top level's queue: {where} (Algorithm 1 of "
            "PROC returns the process to run next; a TS boost joins the back).")


def _setup_number(value: float) -> str:
    """A measured setup number: whole with thousands separators from 100 on, else three significant digits."""
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


MEANS_MET = {"per_sample": "each sample's mean", "expected": "the model's expected mean"}
"""How a workload meets the paper's stated means, by reading (``schedlab.simulators.ics.workload.MEAN_READINGS``)."""
MEANS_EXPLAINED = {
    "per_sample": "each sample's gaps and run times are scaled by the one constant that gives that sample the "
                  "paper's means",
    "expected": "gaps and run times are scaled by the constants that give the model's expectations the paper's "
                "means, so each sample realises its own",
}


def _spread_text(values: pd.Series) -> str:
    """Mean [smallest-largest] over seeds, or the single value when the seeds agree."""
    low, high = values.min(), values.max()
    if low == high:
        return _setup_number(values.mean())
    return f"{_setup_number(values.mean())} [{_setup_number(low)}-{_setup_number(high)}]"


def experiments_table(runs: pd.DataFrame, workloads: pd.DataFrame, model: dict) -> pd.DataFrame:
    """One row per figure and group: what was run, on which seeds, and the workload as the runs had it (measured
    from the redrawn inputs: mean [range] over seeds, full-length seconds)."""
    rows = []
    for (figure, group), part in runs.groupby(["figure", "group"], sort=False):
        first = part.iloc[0]
        synthetic = first["family"] == "synthetic"
        inputs = workloads[(workloads["figure"] == figure) & (workloads["group"] == group)]
        arriving = inputs["mean_gap_s"].notna().all()
        if not arriving:
            arrivals = "all jobs at time 0"
        elif synthetic:
            stated = model["synthetic"]["mean_interarrival_s"][first["load"]]
            arrivals = (f"Lublin-Feitelson gaps ({MEANS_MET[first['means']]} {stated:g} s), "
                        f"/ {first['compression']:g}")
        else:
            arrivals = f"exponential gaps (parameter {first['mean_interarrival']:g} s)"
        closed = "closed batch"
        rows.append({
            "figure": figure, "group": group,
            "workload": first["workload"] if synthetic else f"NPB {first['apps']}",
            "load": first["load"] if synthetic else "",
            "jobs": _spread_text(inputs["jobs"]), "nodes": int(first["nodes"]), "MPL": int(first["mpl"]),
            "skew": float(first["skew"]),
            "compression": f"{first['compression']:g}" if synthetic else
            f"none; {_iteration_text(first['iteration_share'])}",
            "seeds": " ".join(str(s) for s in sorted(part["seed"].unique())),
            "arrivals": arrivals,
            "mean gap (s, measured)": _spread_text(inputs["mean_gap_s"]) if arriving else closed,
            "mean dedicated run time (s, measured)": _spread_text(inputs["mean_runtime_s"]),
            "offered load (measured)": _spread_text(inputs["offered_load"]) if arriving else closed,
        })
    return pd.DataFrame(rows)


def arriving_workloads_text(workloads: pd.DataFrame, compression: float) -> str:
    """The synthetic workloads arriving over time at the profile's compression, as sampled: per workload and load,
    jobs, mean gap, mean dedicated run time and offered load, each the mean [range] over seeds."""
    arriving = workloads[(workloads["family"] == "synthetic") & workloads["mean_gap_s"].notna()
                         & (workloads["compression"] == compression)].drop_duplicates(["workload", "load", "seed"])
    parts = []
    for (workload, load), rows in arriving.groupby(["workload", "load"], sort=False):
        parts.append(f"{workload} {load}: {_spread_text(rows['jobs'])} jobs, mean gap {_spread_text(rows['mean_gap_s'])} "
                     f"s, mean run time {_spread_text(rows['mean_runtime_s'])} s, offered load "
                     f"{_spread_text(rows['offered_load'])} on {int(rows['nodes'].iloc[0])} nodes")
    return "; ".join(parts)


def _iteration_text(share: float) -> str:
    return "every iteration" if share >= 1.0 else f"{share:.3g} of the iterations"


def _jobs_text(workloads: pd.DataFrame, figure: str) -> str:
    jobs = workloads.loc[workloads["figure"] == figure, "jobs"]
    return _spread_text(jobs) if len(jobs) else "no (not run)"


def _variant_figures_text(profile: dict) -> str:
    figures = [figure for figure in profile["means_variant_figures"] if figure in profile["figures"]]
    if not figures:
        return "this profile runs it for no figure"
    return f"{', '.join(figures)} also run with it, reported beside the default below"


def setup_blocks(parameters: dict, runs: pd.DataFrame, workloads: pd.DataFrame) -> list:
    profile, model, readings = parameters["profile"], parameters["model"], parameters["means"]
    synthetic, network, npb = model["synthetic"], model["network"], model["npb"]
    types = ", ".join(f"{name} {'/'.join(f'{100 * s:g}' for s in shares)}" for name, shares in synthetic["job_types"].items())
    mixes = ", ".join(f"{name} = {'+'.join(kinds)}" for name, kinds in synthetic["workloads"].items())
    shares = ", ".join(f"{name} {100 * app['communication_share']:g} %" for name, app in npb["apps"].items())
    costs = ", ".join(f"{name} {1e6 * seconds:g} us" for name, seconds in model["costs_s"].items())
    iterations = ", ".join(f"{name} {count:,}" for name, count in npb["iterations"].items())
    facts = [
        f"Profile {profile['name']}: seeds {_seed_text(profile['seeds'])} for every synthetic point and "
        f"{_seed_text(profile['npb_seeds'])} for every NPB point, every scheme on the same seeds (common random "
        f"numbers); figures run: {', '.join(profile['figures'])}.",
        f"Synthetic workloads: job lengths and inter-arrival times divided by {profile['compression']:g} (compressed "
        "seconds; per-iteration costs, quanta and latencies kept). "
        f"Arrivals: {synthetic['arrivals']}; {synthetic['runtimes']}; sizes {synthetic['size_distribution']} "
        f"{synthetic['sizes'][0]}-{synthetic['sizes'][1]}: the Lublin-Feitelson model's shapes (fitted on logs like "
        "the paper's SDSC SP2, which is not available here), scaled to the paper's means "
        f"({synthetic['mean_interarrival_s']['heavy']:g} s heavy, {synthetic['mean_interarrival_s']['light']:g} s "
        f"light, {synthetic['mean_runtime_s']:g} s) as the reading '{readings['default']}' has it: "
        f"{MEANS_EXPLAINED[readings['default']]} (the calibration rows of the ledger show what the workloads reach "
        f"after rounding to whole iterations). Named variant '{readings['variant']}': "
        f"{MEANS_EXPLAINED[readings['variant']]}; {_variant_figures_text(profile)}. "
        "As the runs had them (redrawn from their parameters and "
        f"seeds, mean [range] over seeds, full-length seconds): {arriving_workloads_text(workloads, profile['compression'])}"
        ". Every figure's workloads are in the "
        "experiments table below and, per seed, in workloads.csv.",
        f"Steady state: job metrics average all but the first {100 * synthetic['warmup_share']:g} % (warm-up) and the "
        f"last {100 * synthetic['drain_share']:g} % (drain) of the jobs in arrival order; processes per node are "
        "time-averaged from the first to the last measured arrival. Workloads submitted at time 0 measure every job "
        "over the whole run. Turnaround, utilization, BCR, FDR and the CPU profile cover the whole run.",
        *regime_facts(runs),
        *job_length_facts(runs, parameters),
        f"Job types (compute/communication/I-O %): {types}; workloads {mixes}.",
        f"Run-time estimates: {RUNTIME_ESTIMATES}.",
        f"NPB-like workloads (Figs. 13-14): {_jobs_text(workloads, 'fig13')} jobs of {npb['nodes']} processes at time 0 "
        f"(Fig. 13), {_jobs_text(workloads, 'fig14')} arriving over time (Fig. 14), at real length (no time compression), running "
        f"{_iteration_text(profile['npb_share'])} of each application ({iterations}); assumed communication shares "
        f"(Table 2 gives none): {shares}; MG is all-to-all one iteration in {npb['mg_all_to_all_every']}.",
        f"Network: 16 KB one way {1e6 * network['one_way_16k_s']:g} us, split (our assumption) into a "
        f"{1e6 * network['startup_s']:g} us start-up and {1e9 * network['seconds_per_byte']:.4g} ns per byte, one FIFO "
        "send interface per node.",
        f"Costs: {costs}; {model['scheduler']['levels']} priority levels, quanta {1e3 * model['scheduler']['quantum_s_min']:g}-"
        f"{1e3 * model['scheduler']['quantum_s_max']:g} ms; PROC's EWMA weight {model['scheduler']['ewma_weight']:g}.",
        message_handling_text(model["scheduler"]["message_handling"]),
        boost_rule_text(runs) + boost_position_text(model["scheduler"]["periodic_boost_position"]),
        "BCR counts, at every scheduling decision (context switch or not: PROC-B keeping its runner decides too), "
        "whether two or more ready processes have pending messages; FDR, among those conflicts, the choices that do "
        "not talk to the least contended node by an oracle. The headline BCR and FDR average the per-node ratios "
        "(the paper's definition); runs.csv also holds them pooled over nodes (bcr_pooled, fdr_pooled). FDR by chance "
        "(fdr_chance) is, at the same conflicts, the share of the conflicting processes whose pick would have been "
        "false: what a uniformly random choice among them would score. Besides the synthetic workloads' gap and run-time "
        "scales (chosen on the paper's means: the calibration rows), no constant was tuned to approach a published "
        "number.",
    ]
    experiments = experiments_table(runs, workloads, model)
    return [
        Heading("Setup (generated from the parameters the runs used)"),
        BulletList(tuple((fact,) for fact in facts)),
        Heading("Experiments run", 3),
        document_table(experiments),
    ]


# --- writing the report ---------------------------------------------------------------

def _figures(directory: Path, runs: pd.DataFrame, scheme_order, categories) -> tuple[list, dict]:
    figures, tables = [], {}

    def figure(stem, built, caption):
        save_figure(built, directory, stem)
        figures.append((stem, caption))

    for name in dict.fromkeys(runs["figure"]):
        frame = figure_means(runs, name, scheme_order)
        title = f"{FIGURE_TITLES[name]}, mean of {int(frame['seeds'].min())} seeds"
        tables[f"{name}_results"] = main_table(frame)
        if name in ("fig7", "fig8", "fig9", "fig10", "fig12", "compression"):
            figure(f"{name}_response", response_figure(frame, title), f"{title}: mean response time")
        if name in ("fig11", "fig13"):
            base = "BATCH" if name == "fig13" else None
            figure(f"{name}_turnaround", turnaround_figure(frame, title, base), f"{title}: turnaround")
        if name == "fig14":
            figure(f"{name}_response", lines_figure(frame, "mean_response", title, "mean response (s, real length)"),
                   f"{title}: mean response time")
        figure(f"{name}_profile", cpu_profile_figure(frame, categories, title), f"{title}: CPU profile")
        if name in PAPER_BCR_FDR:
            tables[f"{name}_bcr_fdr"] = bcr_fdr_table(runs, name, PAPER_BCR_FDR[name])
        if name == "fig12":
            tables["fig12_fairness"] = fairness_table(runs)
            figure("fig12_slowdown", slowdown_by_type_figure(frame, title), f"{title}: slowdown per job type")
        if name == "fig13":
            tables["fig13_vs_batch"] = npb_speedup_table(runs)
        if name == "compression":
            tables["compression_ranking"] = compression_table(frame)
    tables["regime"] = regime_table(runs)
    return figures, tables


def claims_ledger(results: dict[str, pd.DataFrame], profile: str, directory: Path | None = None) -> pd.DataFrame:
    """The ledger of this stage; with ``directory``, links to files the report did not write are dropped."""
    frame = ledger(PAPER, CLAIMS, results, profile)
    if directory is not None:
        frame["link"] = [link if link and (directory / link).exists() else "" for link in frame["link"]]
    return frame


def write_report(directory, results: Mapping[str, pd.DataFrame], parameters: dict) -> pd.DataFrame:
    """The result tables (``RESULT_TABLES``) and ``parameters.json`` written into ``directory`` and read back, then
    figures, tables, ``claims.csv/.md/.tex`` and ``index.md/.html`` from them; returns the claims ledger."""
    directory = Path(directory)
    publish_inputs(directory, {name: results[name] for name in RESULT_TABLES}, parameters)
    results, parameters = read_results(directory)
    runs = results["runs"]
    scheme_order = list(results["schemes"]["scheme"])
    figures, tables = _figures(directory, runs, scheme_order, parameters["model"]["cpu_categories"])
    for stem, frame in tables.items():
        write_table(directory, stem, frame, stem.replace("_", " "), header_labels(frame.columns))
    write_table(directory, "workloads", results["workloads"], "the workloads the runs used, measured per seed",
                header_labels(results["workloads"].columns))
    claims = claims_ledger(results, parameters["profile"]["name"], directory)
    write_ledger(directory, claims)
    causes = causes_frame(claims, results, parameters)
    write_table(directory, "causes", causes, "measured causes of the claims not reproduced")
    if len(results["means_runs"]):
        readings = parameters["means"]
        tables["means_workloads"] = means_workloads_table(results, readings)
        tables["means_claims"] = moved(claims, claims_ledger(means_variant_results(results), parameters["profile"]["name"]),
                                       (readings["default"], readings["variant"]))
        for stem in ("means_workloads", "means_claims"):
            write_table(directory, stem, tables[stem], stem.replace("_", " "))
    events = int(runs["events"].sum())
    page = report_page(parameters, runs, results["workloads"], claims, causes, figures, tables, events)
    (directory / "index.md").write_text(render_markdown(page), encoding="utf-8")
    (directory / "index.html").write_text(render_html(page), encoding="utf-8")
    return claims


def report_page(parameters: dict, runs: pd.DataFrame, workloads: pd.DataFrame, claims: pd.DataFrame,
                causes: pd.DataFrame, figures: list[tuple[str, str]], tables: dict[str, pd.DataFrame],
                events: int) -> Document:
    blocks = [
        paragraph(
            "Reproduction of Yu, Kim and Maeng, \"A runtime resolution scheme for priority boost conflict in "
            "implicit coscheduling\": the schemes of ", Link("schemes.csv", "schemes.csv"),
            " simulated process by process and message by message on a cluster of single-CPU nodes. Per-seed "
            "results: ", Link("runs.csv", "runs.csv"), "; parameters: ", Link("parameters.json", "parameters.json"),
            "; the workloads the runs used, redrawn and measured per seed: ", Link("workloads.csv", "workloads.csv"), ".",
        ),
        *setup_blocks(parameters, runs, workloads),
        *ledger_blocks(claims),
        paragraph("As ", Link("CSV", "claims.csv"), ", ", Link("Markdown", "claims.md"), " and ",
                  Link("LaTeX", "claims.tex"), "."),
        Heading("What does not reproduce, and the measured cause"),
        paragraph("Each claim not reproduced, with what our runs measure behind its statistic (means over the "
                  "seeds; ", Link("causes.csv", "causes.csv"), "): a response split into wait and execution, "
                  "conflicts and decisions per run, a series per scheme, or its seeds' spread when undecided."),
        document_table(causes),
    ]
    def table_blocks(stem: str) -> list:
        frame = tables[stem]
        return [Heading(stem.replace("_", " "), 3), document_table(frame, header_labels(frame.columns)),
                paragraph("As ", Link("CSV", f"{stem}.csv"), " and ", Link("LaTeX", f"{stem}.tex"), ".")]

    means_stems = [stem for stem in ("means_workloads", "means_claims") if stem in tables]
    if means_stems:
        readings = parameters["means"]
        blocks += [
            Heading(f"The paper's stated means: met by each sample ('{readings['default']}', the default) or by the "
                    f"model's expectation ('{readings['variant']}')"),
            paragraph(f"{', '.join(dict.fromkeys(tables['means_workloads']['figure']))} ran under both readings, on "
                      "the same seeds. The workloads each reading gave (mean [range] over seeds, full-length "
                      "seconds), then every claim whose measurement moved, judged under each:"),
        ]
        for stem in means_stems:
            blocks += table_blocks(stem)
    blocks.append(Heading("Tables"))
    for stem in tables:
        if stem not in means_stems:
            blocks += table_blocks(stem)
    blocks.append(Heading("Figures"))
    blocks += [FigureBlock(stem, caption) for stem, caption in figures]
    blocks += [Heading("Simulation speed"),
               BulletList(((f"simulated events over all points and seeds: {events:,}",),
                           ("events per second: printed by bench/bench_ics.py (wall time is not part of any output)",)))]
    return Document("Stage ics: implicit coscheduling and PROC", tuple(blocks))
