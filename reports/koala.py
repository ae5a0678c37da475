"""The koala stage's report: Figs. 7a, 7b, 8, 10 and Table 4 of Sonmez et al. (TPDS 2010) regenerated.

``write_koala_report(directory, runs, profile_name, profile)`` takes one row per
simulation run (a ``simulators.koala.simulate.Point``'s fields plus its summary) and
writes ``index.md`` / ``index.html``, the figures (PNG and SVG, via
``reports.figures.save_figure``) and the tables (CSV, Markdown and LaTeX).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from reports.document import BulletList, Document, Figure as FigureBlock, Heading, Link, paragraph, render_html, render_markdown, table
from reports.figures import save_figure
from reports.tables import document_table, write_table
from simulators.koala.execution import CALIBRATION, POISSON_FOUR_CLUSTER_TIME, calibrated_kappa, mpi_applications
from simulators.koala.experiments import (
    Profile,
    comparisons,
    format_interval,
    line_tables,
    mean_over_seeds,
    saturation_intervals,
)
from simulators.koala.metrics import GROWTH_SHARE_OF_JOBS, MIN_GROWTH_JOBS, WARM_UP_FRACTION
from simulators.koala.trends import check_trends

PAPER_SATURATION = {
    ("Prime", "WF"): "85-90 %",
    ("Prime", "FCM"): "90-95 %",
    ("Wave", "FCM"): "early (Fig. 7b, Table 4)",
    ("config A", "FCM"): "75-80 % (system)",
    ("config A", "CA"): "75-80 % (system)",
    ("config B", "FCM"): "60-70 % (system)",
    ("config B", "CA"): "60-70 % (system)",
}
"""Table 4's values are not in the text; these are the intervals its prose states."""

POLICY_NAMES = {"WF": "WF", "FCM": "FCM", "FCM2": "FCM<=2", "CA": "CA"}


# --- figures ------------------------------------------------------------------------------


def _plot_lines(axes, tables, labels, x, y, saturated_column):
    for label in labels:
        frame = tables[label]
        line, = axes.plot(100 * frame[x], frame[y], marker="o", label=label)
        hit = frame[frame[saturated_column]]
        axes.plot(100 * hit[x], hit[y], linestyle="none", marker="o", markersize=11,
                  markerfacecolor="none", markeredgecolor=line.get_color())


def percent_change_figure(tables, labels, title) -> Figure:
    figure = Figure(figsize=(7.0, 4.5), layout="constrained")
    axes = figure.add_subplot()
    tables = {k: v.assign(either=v["saturated_baseline"] | v["saturated_treatment"]) for k, v in tables.items()}
    _plot_lines(axes, tables, labels, "net_utilization", "percent_change", "either")
    axes.axhline(0.0, color="black", linewidth=0.8)
    axes.set_yscale("symlog", linthresh=100.0)
    axes.set_xlabel("net utilization (%)")
    axes.set_ylabel("change in mean response time (%)\n(symlog above +-100 %)")
    axes.set_title(title + "\n(ringed: a policy saturated at that point)")
    axes.grid(True, alpha=0.3)
    axes.legend(loc="upper left")
    return figure


def observed_utilization_figure(tables, labels) -> Figure:
    figure = Figure(figsize=(6.0, 4.5), layout="constrained")
    axes = figure.add_subplot()
    _plot_lines(axes, tables, labels, "net_utilization", "observed_utilization_treatment", "saturated_treatment")
    axes.plot([0, 100], [0, 1], color="black", linewidth=0.8, linestyle="--", label="observed = net")
    axes.set_xlabel("net utilization (%)")
    axes.set_ylabel("observed utilization (FCM)")
    axes.set_ylim(0, 1.05)
    axes.set_title("Fig. 7b: observed vs net utilization under FCM\n(ringed: saturated)")
    axes.grid(True, alpha=0.3)
    axes.legend(loc="upper left")
    return figure


def policies_figure(tables) -> Figure:
    figure = Figure(figsize=(10.0, 4.5), layout="constrained")
    for axes, config, title in zip(figure.subplots(1, 2), ("A", "B"), ("(a) Delft excluded", "(b) Delft included")):
        frame = tables[f"config {config}"]
        for policy, column, saturated in (("FCM", "mean_response_time_baseline", "saturated_baseline"),
                                          ("CA", "mean_response_time_treatment", "saturated_treatment")):
            line, = axes.plot(100 * frame["net_utilization"], frame[column], marker="o", label=policy)
            hit = frame[frame[saturated]]
            axes.plot(100 * hit["net_utilization"], hit[column], linestyle="none", marker="o", markersize=11,
                      markerfacecolor="none", markeredgecolor=line.get_color())
        axes.set_yscale("log")
        axes.set_xlabel("net utilization (%)")
        axes.set_ylabel("mean job response time (s, log)")
        axes.set_title(f"Fig. 10{title}: Wave, 32/48/64 nodes")
        axes.grid(True, alpha=0.3, which="both")
        axes.legend(loc="upper left")
    return figure


def comparison_frame(tables, labels) -> pd.DataFrame:
    frames = [tables[label] for label in labels]
    frame = pd.concat(frames, ignore_index=True)
    return frame[[
        "label", "net_utilization", "mean_response_time_baseline", "mean_response_time_treatment", "percent_change",
        "observed_utilization_treatment", "coallocated_fraction_treatment", "saturated_baseline", "saturated_treatment",
    ]].rename(columns={"mean_response_time_baseline": "baseline_response_s", "mean_response_time_treatment":
                       "treatment_response_s", "observed_utilization_treatment": "observed_utilization",
                       "coallocated_fraction_treatment": "coallocated_fraction"})


def saturation_frame(intervals, profile: Profile) -> pd.DataFrame:
    rows = []
    for line in comparisons(profile):
        for policy in (line.baseline, line.treatment):
            if policy == "WF" and line.treatment == "FCM2":
                continue  # the same WF runs as the Wave line's baseline
            rows.append({
                "workload": line.label if line.experiment != "policies" else f"Wave 32/48/64, {line.label}",
                "policy": POLICY_NAMES[policy],
                "saturation_interval": format_interval(intervals[(line.label, policy)]),
                "paper": PAPER_SATURATION.get((line.label, policy), ""),
            })
    return pd.DataFrame(rows)


# --- page ---------------------------------------------------------------------------------


def _calibration_items():
    apps = mpi_applications()
    return (
        ("Execution time T(S) = T_comp + f(S) x T_comm with f = 1 + kappa x sum_{c != d} w_c w_d L(c, d) "
         "(w: share of the job's nodes per cluster, L: inter-cluster latency in ms, DEFAULT latency table "
         "in simulators/multicluster/topology.py).",),
        (f"kappa = {calibrated_kappa():.4f} per ms, the only fitted constant: it makes {CALIBRATION['application']} "
         f"(T1 = {CALIBRATION['single_cluster_time']:g} s, CCR {CALIBRATION['ccr']:g}) take "
         f"{CALIBRATION['four_cluster_time']:g} s on the 4 clusters of config A (8/8/8/8 nodes), as in Fig. 4; "
         "config B uses the same kappa, so Delft's larger latencies alone make its coallocations slow.",),
        (f"Prime: T1 {apps['prime'].single_cluster_time:g} s (DEFAULT), CCR 0. Poisson: T1 "
         f"{apps['poisson'].single_cluster_time:g} s (DEFAULT), {POISSON_FOUR_CLUSTER_TIME:g} s on 4 clusters "
         f"(DEFAULT, 'much less' than Wave), hence CCR {apps['poisson'].ccr:.3f}. Synthetic: T1 180 s.",),
        ("Slowest-processor penalty off and start-up overhead 0 s in every run (both are parameters of the "
         "model; the paper's simulations ignore both).",),
        (f"Saturation rule (ours, the paper gives none): the placement queue, sampled every minute, grows over the "
         f"window (least-squares line after the first {WARM_UP_FRACTION:.3g} of it) by more than "
         f"{100 * GROWTH_SHARE_OF_JOBS:g} % of the jobs submitted (at least {MIN_GROWTH_JOBS:g} jobs); with several "
         "seeds, a point is saturated if most seeds are. A Table 4 interval runs from the highest load below the "
         "first saturated one to that one.",),
    )


def koala_page(profile_name, profile, runs, checks, figures, tables) -> Document:
    agree = sum(c.verdict == "agrees" for c in checks)
    blocks = [
        paragraph(
            "Processor coallocation in the DAS-3 multicluster: KOALA's Worst Fit (WF, here without coallocation), "
            "Flexible Cluster Minimization (FCM) and Communication-Aware (CA) placement, after Sonmez, Mohamed and "
            "Epema, 'On the Benefit of Processor Coallocation in Multicluster Grid Systems', IEEE TPDS 21(6), 2010 "
            "(simulated experiments of Sec. 6.3 and 7.2)."
        ),
        paragraph(
            f"Profile '{profile_name}': {len(runs)} runs, seeds {', '.join(map(str, profile.seeds))}, "
            f"{profile.hours:g} simulated hours of Poisson arrivals per run (the queue then drains; every job counts). "
            f"{agree} of {len(checks)} stated trends agree."
        ),
        Heading("The paper's stated trends, checked one by one"),
        table(("claim", "paper", "ours", "verdict"), [(c.claim, c.paper, c.ours, c.verdict) for c in checks]),
        Heading("Figures"),
        *[FigureBlock(stem, caption) for stem, caption in figures],
        Heading("Table 4: saturation intervals"),
        document_table(tables["table4_saturation"]),
        Heading("Tables"),
        BulletList(tuple(
            (f"{stem}: ", Link("CSV", f"{stem}.csv"), ", ", Link("Markdown", f"{stem}.md"), ", ",
             Link("LaTeX", f"{stem}.tex")) for stem in tables
        )),
        Heading("Model, calibration and defaults"),
        BulletList(_calibration_items()),
    ]
    return Document("koala: processor coallocation in multicluster grids", tuple(blocks))


def write_koala_report(directory, runs: pd.DataFrame, profile_name: str, profile: Profile) -> list:
    """Aggregate ``runs`` and write the whole report into ``directory``; returns the trend checks."""
    directory = Path(directory)
    means = mean_over_seeds(runs)
    tables = line_tables(means, profile)
    intervals = saturation_intervals(means, profile)
    checks = check_trends(tables, intervals)
    labels = {kind: [l.label for l in comparisons(profile) if l.experiment == kind] for kind in ("coallocation", "ccr")}

    figures = [
        ("fig7a_coallocation", "Fig. 7a: % change in mean response time, FCM vs WF, MPI applications (sizes 8/16/32, config A)"),
        ("fig7b_observed_utilization", "Fig. 7b: observed vs net utilization under FCM"),
        ("fig8_ccr", "Fig. 8: % change in mean response time, FCM vs WF, synthetic application by CCR"),
        ("fig10_policies", "Fig. 10: mean response time of FCM and CA, Wave with 32/48/64 nodes, configs A and B"),
    ]
    save_figure(percent_change_figure(tables, labels["coallocation"], "Fig. 7a: FCM vs WF"), directory, figures[0][0])
    save_figure(observed_utilization_figure(tables, labels["coallocation"]), directory, figures[1][0])
    save_figure(percent_change_figure(tables, labels["ccr"], "Fig. 8: FCM vs WF by CCR"), directory, figures[2][0])
    save_figure(policies_figure(tables), directory, figures[3][0])

    written = {
        "fig7_coallocation": comparison_frame(tables, labels["coallocation"]),
        "fig8_ccr": comparison_frame(tables, labels["ccr"]),
        "fig10_policies": comparison_frame(tables, ["config A", "config B"]),
        "table4_saturation": saturation_frame(intervals, profile),
        "trend_checks": pd.DataFrame([c.__dict__ for c in checks]),
        "runs_mean_over_seeds": means,
    }
    for stem, frame in written.items():
        write_table(directory, stem, frame)
    page = koala_page(profile_name, profile, runs, checks, figures, written)
    (directory / "index.md").write_text(render_markdown(page), encoding="utf-8")
    (directory / "index.html").write_text(render_html(page), encoding="utf-8")
    return checks
