"""The bandwidth stage's report: Jones, Ligon, Shrivastava (ICPADS 2006) Figs. 5-13, Tables 1-2 and its
claims ledger.

``write_report(directory, results, parameters)`` takes the stage's result tables
(``runs``: one row per run and seed; ``pass_order_runs``: the same in the variant pass order;
``load_runs`` and ``convergence_runs``: the sensitivity runs at other loads and lengths;
``queue_depth``: Migration Only's mean queue by hour of day, per workload and seed, see
``schedlab.reports.bandwidth_claims``; ``offered_load``: per workload, seed, load and length) and the parameters the
runs used (as ``pipeline.bandwidth.report_parameters`` gives them: profile, system, strategy
labels and constants, each workload's recipe).  It writes the tables (CSV,
Markdown, LaTeX), reads them back and judges the paper's claims on what it read
(``claims.csv/.md/.tex``) with the measured cause of each claim not reproduced
(``causes.csv``, ``schedlab.reports.bandwidth_causes``), draws the figures (PNG + SVG) and writes ``index.md`` /
``index.html`` and ``parameters.json``.  Every number and verdict on the page comes from
those tables; every comparison with the paper is a ledger verdict.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from schedlab.reports.bandwidth_claims import (
    CLAIMS, REALISTIC, SENSITIVITY_STATISTICS, SHORT, SYNTHETIC, TABLE1_CELLS, TABLE2_CELLS, coallocated_stretch,
    half_gain_shares, improvement, information_curve, migration_gain, offered_load_of, run_metric, swept_ppbws,
    turnarounds,
)
from schedlab.reports.bandwidth_causes import causes_frame
from schedlab.reports.document import BulletList, Document, Figure as FigureBlock, Heading, Link, paragraph, render_html, render_markdown
from schedlab.reports.figures import legend_below, save_figure
from schedlab.reports.ledger import (
    NotMeasured, cell_verdicts, claims_by_id, interval, interval_text, judge, ledger, ledger_blocks, measured_text, paired,
    verdict_words, write_ledger,
)
from schedlab.reports.tables import document_table, write_table

PAPER = "bandwidth"
RESULT_TABLES = ("runs", "pass_order_runs", "load_runs", "convergence_runs", "queue_depth", "offered_load")
FIGURE_WORKLOADS = {"fig05_realistic": REALISTIC, "fig06_synthetic": SYNTHETIC, "fig10_workload_A": "A",
                    "fig11_workload_B": "B", "fig12_workload_C": "C", "fig13_workload_D": "D"}
INFORMATION_FIGURES = {"fig07_information_realistic": REALISTIC, "fig08_information_synthetic": SYNTHETIC}
CLAIMS_BY_ID = claims_by_id(CLAIMS)


def _percent_interval(values: pd.Series) -> str:
    """Mean of per-seed percentages with its 95 % interval; "unstable" if a run saturated."""
    return measured_text(values, "%", "unstable" if len(values) else "")


def _measured(statistic) -> pd.Series | None:
    """The statistic, or None when these results do not hold its runs."""
    try:
        return statistic()
    except NotMeasured:
        return None


def _verdict_cell(frame: pd.DataFrame, claim_id: str | None) -> str:
    """The verdict of the row or cell ``claim_id`` (``frame``: the ledger with its cells' verdicts), with its id and, for
    a cell, its row's."""
    if claim_id is None:
        return ""
    judged = frame.set_index("claim_id")
    row = judged["row"].get(claim_id) if "row" in judged else None
    part_of = f", in {row}" if isinstance(row, str) and row else ""
    return f"{verdict_words(judged.verdict[claim_id])} ({claim_id}{part_of})"


def _paper_cell(claim_id: str | None) -> str:
    return CLAIMS_BY_ID[claim_id].paper_value if claim_id else ""


def improvement_table(runs: pd.DataFrame, verdicts: pd.DataFrame, labels: dict, workloads, strategies,
                      cells: dict) -> pd.DataFrame:
    """Improvement over Migration Only (PPBW ~ U[0, 300]) per strategy and workload, beside the paper's
    value and the verdict of the claim that judges that cell."""
    rows = []
    for strategy in strategies:
        row = {"strategy": labels[strategy]}
        for workload in workloads:
            name, claim_id = SHORT[workload], cells.get((workload, strategy))
            values = _measured(lambda: improvement(runs, workload, strategy))
            row[f"{name} ours"] = "" if values is None else _percent_interval(values)
            row[f"{name} paper"] = _paper_cell(claim_id)
            row[f"{name} verdict"] = _verdict_cell(verdicts, claim_id)
        rows.append(row)
    return pd.DataFrame(rows)


def headline(runs: pd.DataFrame, verdicts: pd.DataFrame) -> pd.DataFrame:
    """Migration Only's gain over No Share and the exposure for half of ICS's gain, per workload."""
    rows = []
    for workload in (REALISTIC, SYNTHETIC):
        name = SHORT[workload]
        gain = _measured(lambda: migration_gain(runs, workload))
        rows.append({"measure": f"Migration Only faster than No Share, (T_noshare - T_mig) / T_noshare ({name})",
                     "ours": "" if gain is None else _percent_interval(gain),
                     "paper": _paper_cell(f"sec51-noshare-{name}"),
                     "verdict": _verdict_cell(verdicts, f"sec51-noshare-{name}")})
        claim_id = "fig8-S-half-gain" if workload == SYNTHETIC else "fig7-R-half-gain"
        shares = _measured(lambda: half_gain_shares(runs, workload))
        rows.append({"measure": f"exposed share for half of ICS's full-information gain ({name})",
                     "ours": "" if shares is None else _percent_interval(shares),
                     "paper": _paper_cell(claim_id), "verdict": _verdict_cell(verdicts, claim_id)})
    return pd.DataFrame(rows)


def ppbw_sweeps(runs: pd.DataFrame, labels: dict) -> pd.DataFrame:
    """Per workload, strategy and PPBW: mean turnaround over seeds, the seeds whose run saturated, the
    per-seed improvement over Migration Only with its interval (the data of Figs. 5, 6 and 10-13), and the
    share of jobs co-allocated with their mean stretch (run time / T_E0) where the runs record them."""
    rows = []
    for workload in dict.fromkeys(runs.workload):
        for strategy in dict.fromkeys(runs[runs.workload == workload].strategy):
            fixed = _measured(lambda: swept_ppbws(runs, workload, strategy))
            for ppbw in (fixed or [None]):
                if fixed is None and strategy not in ("zero_comm", "migration_only", "no_share"):
                    continue
                values = turnarounds(runs, workload, strategy, ppbw)
                row = {"workload": SHORT[workload], "strategy": labels[strategy],
                       "PPBW (Mb/s)": "any" if ppbw is None else f"{ppbw:g}", "seeds": len(values),
                       "saturated seeds": int((~np.isfinite(values.to_numpy())).sum()),
                       "mean turnaround (s)": float(values.mean()),
                       "improvement over Migration Only": _percent_interval(
                           improvement(runs, workload, strategy, ppbw))}
                if "coallocated_share" in runs:
                    share = run_metric(runs, "coallocated_share", workload, strategy, ppbw)
                    stretch = float(coallocated_stretch(runs, workload, strategy, ppbw).mean())
                    row["co-allocated jobs (%)"] = f"{100 * float(share.mean()):.1f}"
                    row["their stretch (x T_E0)"] = f"{stretch:.2f}" if math.isfinite(stretch) else ""
                rows.append(row)
    return pd.DataFrame(rows)


def pass_order_table(results: dict, verdicts: pd.DataFrame, labels: dict, order: dict) -> pd.DataFrame:
    """Improvement over Migration Only (PPBW ~ U[0, 300]) in the paper's pass order and in the variant,
    per workload and strategy the variant changes, with the per-seed paired difference between the two
    and, where a Table 1 claim judges the cell, its verdict under each reading (Migration Only places
    no job differently in either order, so both improvements share its runs)."""
    runs, variant_runs = results["runs"], results["pass_order_runs"]
    variant = pd.concat([runs[runs.strategy == "migration_only"], variant_runs], ignore_index=True)
    rows = []
    for workload in dict.fromkeys(variant_runs.workload):
        for strategy in dict.fromkeys(variant_runs[variant_runs.workload == workload].strategy):
            default = improvement(runs, workload, strategy)
            other = improvement(variant, workload, strategy)
            claim_id = TABLE1_CELLS.get((workload, strategy))
            rows.append({"workload": SHORT[workload], "strategy": labels[strategy],
                         f"{order['default']} (paper's text)": _percent_interval(default),
                         f"{order['variant']} (variant)": _percent_interval(other),
                         "paper's text minus variant (points)": _percent_interval(paired(default, other, "difference")),
                         "paper": _paper_cell(claim_id),
                         "verdict, paper's text": _verdict_cell(verdicts, claim_id),
                         "verdict, variant": "" if claim_id is None else
                         verdict_words(judge(CLAIMS_BY_ID[claim_id], {**results, "runs": variant}).verdict)})
    return pd.DataFrame(rows)


def workloads_table(parameters: dict, offered_load: pd.DataFrame, jobs_per_cluster: int) -> pd.DataFrame:
    """Each workload's recipe and the offered load measured on the jobs its claimed runs used: the
    default load (not the sensitivity sweep's) at the runs' number of jobs per cluster, per seed."""
    rows = []
    for name, described in parameters["workloads"].items():
        loads = offered_load_of(offered_load, name, jobs_per_cluster)
        rows.append({"workload": SHORT[name], "how it is built": described["recipe"],
                     "jobs per cluster": jobs_per_cluster, "seeds": len(loads),
                     "offered load (mean over seeds)": round(float(loads.mean()), 3),
                     "range over seeds": f"{loads.min():.3f}-{loads.max():.3f}",
                     "run-time estimates": described["estimates"]})
    return pd.DataFrame(rows)


def sensitivity(runs: pd.DataFrame, load_runs: pd.DataFrame, convergence_runs: pd.DataFrame,
                offered_load: pd.DataFrame, jobs_per_cluster: int) -> pd.DataFrame:
    """Each of ``SENSITIVITY_STATISTICS`` with its interval over seeds: every workload of ``load_runs``
    at each requested offered load beside its default run, and the realistic and synthetic workloads
    at each number of jobs per cluster (none below the profile's: no row)."""
    settings = []
    for workload in (name for name in SHORT if name in set(load_runs.workload)):
        settings.append(("load", workload, jobs_per_cluster, None, runs))
        settings += [("load", workload, jobs_per_cluster, load, load_runs[load_runs.load == load])
                     for load in sorted(set(load_runs[load_runs.workload == workload].load))]
    if not convergence_runs.empty:
        for jobs in (*sorted(set(convergence_runs.jobs_per_cluster)), jobs_per_cluster):
            chosen = runs if jobs == jobs_per_cluster else convergence_runs[convergence_runs.jobs_per_cluster == jobs]
            settings += [("jobs per cluster", workload, jobs, None, chosen) for workload in (REALISTIC, SYNTHETIC)]
    rows = []
    for swept, workload, jobs, load, chosen in settings:
        offered = float(offered_load_of(offered_load, workload, jobs, load).mean())
        for compute, statistic in SENSITIVITY_STATISTICS.values():
            values = compute(chosen, workload)
            mean, low, high = interval(values)
            rows.append({"swept": swept, "workload": SHORT[workload],
                         "requested load": "default" if load is None else f"{load:g}", "offered load": offered,
                         "jobs per cluster": jobs, "improvement": statistic, "mean": mean, "low": low, "high": high,
                         "seeds": len(values)})
    return pd.DataFrame(rows, columns=["swept", "workload", "requested load", "offered load", "jobs per cluster",
                                       "improvement", "mean", "low", "high", "seeds"])


def _sensitivity_cells(table: pd.DataFrame) -> pd.DataFrame:
    """The sensitivity table as the page shows it: one interval per cell."""
    cells = table.drop(columns=["mean", "low", "high"]).copy()
    cells["offered load"] = cells["offered load"].round(3)
    cells["improvement"] = [f"{statistic}: {interval_text(*values, '%')}" for statistic, *values in
                            zip(table["improvement"], table["mean"], table["low"], table["high"], strict=True)]
    return cells


def sensitivity_figure(table: pd.DataFrame, swept: str, title: str) -> Figure:
    """One panel per statistic: its mean and 95 % interval over seeds against the swept setting, a line
    per workload; the load panels mark the realistic stream's default run (the fitted trace's load)."""
    chosen = table[table.swept == swept]
    statistics = list(dict.fromkeys(chosen.improvement))
    figure = Figure(figsize=(4.0 * len(statistics), 4.0), layout="constrained")
    x_column = "offered load" if swept == "load" else "jobs per cluster"
    for index, statistic in enumerate(statistics):
        axes = figure.add_subplot(1, len(statistics), index + 1)
        for workload, group in chosen[chosen.improvement == statistic].groupby("workload", sort=False):
            group = group.sort_values(x_column)
            errors = np.nan_to_num(np.abs(group[["low", "high"]].to_numpy().T - group["mean"].to_numpy()))
            axes.errorbar(group[x_column], group["mean"], yerr=errors, marker="o", capsize=2,
                          label=workload)
        if swept == "load":
            default = chosen[(chosen.workload == SHORT[REALISTIC]) & (chosen["requested load"] == "default")]
            axes.axvline(default["offered load"].iloc[0], linestyle=":", color="grey", label="R at the trace's load")
            axes.set(xlabel="offered load per cluster (measured)")
        else:
            axes.set(xscale="log", xlabel="jobs per cluster")
        axes.set(ylabel="improvement (%)", title=statistic)
    legend_below(figure, *figure.axes, fontsize="small")
    figure.suptitle(title)
    return figure


def _limit_lines(axes, runs, workload, labels):
    for strategy, style, colour in (("zero_comm", ":", "grey"), ("migration_only", "--", "black")):
        axes.axhline(turnarounds(runs, workload, strategy).mean(), linestyle=style, color=colour,
                     label=labels[strategy])


def ppbw_figure(runs: pd.DataFrame, workload: str, labels: dict, swept, title: str) -> Figure:
    """Mean turnaround vs PPBW with the 95 % interval over seeds; saturated runs are off the chart."""
    figure = Figure(figsize=(6.5, 4.2), layout="constrained")
    axes = figure.add_subplot()
    for strategy in swept:
        ppbws = _measured(lambda: swept_ppbws(runs, workload, strategy))
        if ppbws is None:
            continue
        points = [(ppbw, *interval(turnarounds(runs, workload, strategy, ppbw))) for ppbw in ppbws]
        points = np.array([p for p in points if math.isfinite(p[1])])
        if len(points):
            errors = np.nan_to_num(np.abs(points[:, [2, 3]].T - points[:, 1]))
            axes.errorbar(points[:, 0], points[:, 1], yerr=errors, marker="o", capsize=2, label=labels[strategy])
    _limit_lines(axes, runs, workload, labels)
    axes.set_ylim(0, 2.5 * turnarounds(runs, workload, "migration_only").mean())
    axes.set(xscale="log", xlabel="PPBW (Mb/s per processor)", ylabel="mean turnaround (s)", title=title)
    legend_below(figure, axes, fontsize="small")
    return figure


def information_figure(runs: pd.DataFrame, workload: str, title: str) -> Figure:
    """ICS's improvement over Migration Only vs exposed share, mean and 95 % interval over seeds."""
    figure = Figure(figsize=(6.5, 4.2), layout="constrained")
    axes = figure.add_subplot()
    curve = information_curve(runs, workload)
    stats = np.array([interval(curve[share]) for share in curve.columns])
    errors = np.nan_to_num(np.abs(stats[:, 1:].T - stats[:, 0]))
    axes.errorbar(100 * np.asarray(curve.columns), stats[:, 0], yerr=errors, marker="o", capsize=2,
                  label="ICS")
    axes.axhline(stats[-1, 0] / 2, linestyle=":", color="grey", label="half of the full-information gain")
    axes.set(xlabel="jobs exposing PPBW and rho (%)", ylabel="improvement over Migration Only (%)", title=title)
    legend_below(figure, axes, fontsize="small")
    return figure


def queue_figure(queue_depth: pd.DataFrame) -> Figure:
    figure = Figure(figsize=(6.5, 4.2), layout="constrained")
    axes = figure.add_subplot()
    for workload in (REALISTIC, SYNTHETIC):
        depth = queue_depth[queue_depth.workload == workload].groupby("hour").waiting_jobs.mean()
        axes.plot(depth.index, depth.to_numpy(), marker="o", label=f"{SHORT[workload]} (Migration Only)")
    axes.set(xlabel="hour of day", ylabel="mean waiting jobs (all clusters)", title="Fig. 9: daily queue depth")
    legend_below(figure, axes, fontsize="small")
    return figure


def _scale(runs: pd.DataFrame) -> int:
    """The number of jobs per cluster of the claimed runs (one for all of them)."""
    scales = runs.jobs_per_cluster.unique()
    if len(scales) != 1:
        raise ValueError(f"the claimed runs mix {sorted(scales)} jobs per cluster")
    return int(scales[0])


def _read_back(directory: Path, tables: dict) -> dict[str, pd.DataFrame]:
    """Write the result tables and read them back: the ledger judges exactly what the report publishes."""
    for stem in RESULT_TABLES:
        write_table(directory, stem, tables[stem])
    return {stem: pd.read_csv(directory / f"{stem}.csv") for stem in RESULT_TABLES}


def _values_text(values, unit: str = "") -> str:
    """Distinct values in order, as a person reads them: "10, 50, 200, 1000 Mb/s"."""
    ordered = sorted(set(float(value) for value in values))
    return ", ".join(f"{value:,.0f}" if value.is_integer() else f"{value:g}" for value in ordered) + (
        f" {unit}" if unit and ordered else "")


def experiments_table(results: dict, labels: dict) -> pd.DataFrame:
    """What ran, read from the result tables: per table of runs and workload, the strategies, PPBWs, exposed
    shares, requested loads, jobs per cluster, seeds and number of runs (the provenance of every number, in words
    rather than the runs' parameter lists)."""
    rows = []
    for stem, purpose in RUN_TABLES.items():
        frame = results[stem]
        for workload in (name for name in SHORT if name in set(frame.workload)):
            chosen = frame[frame.workload == workload]
            mixed = chosen.ppbw_mixed.astype(bool)
            ppbws = ([f"{_values_text(chosen.ppbw[~mixed])} Mb/s"] if (~mixed).any() else []) + (
                ["U[0, 300] per job"] if mixed.any() else [])
            rows.append({
                "runs": purpose, "workload": SHORT[workload],
                "strategies": ", ".join(labels[s] for s in labels if s in set(chosen.strategy)),
                "PPBW": "; ".join(ppbws),
                "jobs exposing PPBW and rho (%)": _values_text(100 * chosen.information),
                "requested load": _values_text(chosen.load) if "load" in chosen else "default",
                "jobs per cluster": _values_text(chosen.jobs_per_cluster),
                "seeds": _values_text(chosen.seed), "count": len(chosen),
            })
    return pd.DataFrame(rows, columns=["runs", "workload", "strategies", "PPBW", "jobs exposing PPBW and rho (%)",
                                       "requested load", "jobs per cluster", "seeds", "count"])


RUN_TABLES = {"runs": "at each workload's own load", "pass_order_runs": "in the variant pass order",
              "load_runs": "at other offered loads", "convergence_runs": "at fewer jobs per cluster"}
"""The result tables that hold runs, and what each holds, as the setup counts them."""


def _setup_paragraph(results: dict, parameters: dict):
    """The setup as the result tables measure it: runs per table, jobs per cluster and seeds of the runs the claims
    read (each workload at its own load, in the paper's pass order)."""
    runs = results["runs"]
    counts = [f"{len(results[stem]):,} {what}" for stem, what in RUN_TABLES.items() if len(results[stem])]
    scales = sorted(int(jobs) for jobs in runs.jobs_per_cluster.unique())
    seeds = sorted(int(seed) for seed in runs.seed.unique())
    per_point = runs.groupby(["workload", "strategy", "ppbw_mixed", "ppbw", "information"], dropna=False).seed.nunique()
    seed_counts = sorted(int(count) for count in per_point.unique())
    paper_scale = parameters["paper_jobs_per_cluster"]
    text = (f"Profile '{parameters['profile']['name']}': {sum(len(results[stem]) for stem in RUN_TABLES):,} runs "
            f"({'; '.join(counts)}). The runs at each workload's own load simulate "
            f"{' or '.join(f'{jobs:,}' for jobs in scales)} jobs "
            f"per cluster (the paper ran {paper_scale:,}), each point on "
            f"{' or '.join(map(str, seed_counts))} seed(s) ({', '.join(map(str, seeds))}), the same seeds for every "
            "strategy, PPBW and information level (common random numbers). Improvements are of mean turnaround over "
            "Migration Only, per seed; intervals are Student-t 95 % intervals over seeds; figures show means over "
            "seeds with those intervals.")
    if max(scales) < paper_scale:
        text += (f" Runs of {max(scales):,} jobs per cluster have not converged to the paper's length: sizes in the "
                 "ledger are judged at this profile and may differ at the paper's scale.")
    return paragraph(text)


def _model_items(parameters: dict) -> tuple:
    system, strategies = parameters["system"], parameters["strategies"]
    low, high = parameters["ppbw_range"]
    nodes = system["nodes_per_cluster"]
    return (
        (f"{system['clusters']} clusters of {', '.join(map(str, nodes))} nodes, one {system['link_mbps']:g} Mb/s "
         "full-duplex link each to a central switch.",),
        ("Rectangular jobs: floor(sqrt(N)) x ceil(sqrt(N)) nodes; T_E = "
         f"{system['processing_share']:g} T_E0 + {1 - system['processing_share']:g} T_E0 / f, f the job's "
         "progressive-filling share of its demand, re-planned on every co-allocated start and end.",),
        ("Demand per link: rho PPBW n_c (n - n_c) / (n - 1) all-to-all plus (cut mesh edges) (1 - rho) PPBW / 4, "
         "the grid laid row-major over the pieces in placement order (the paper lost its formulas).",),
        (f"LSLT: clusters whose link load is at most {strategies['lslt_threshold']:.0%} of capacity; LSLT+CS: first "
         f"piece at least {strategies['chunk_share']:.0%} of the job. ICS: no link over capacity, fewest clusters, "
         "largest first piece; jobs not exposing (PPBW, rho) are not co-allocated.",),
        _pass_order_item(parameters["pass_order"]),
        (f"PPBW: one value per run (swept) or U[{low:g}, {high:g}] Mb/s per job; rho ~ U[0, 1] per job. "
         f"A run stops as saturated (unstable) once more than {100 * system['saturation']['share']:g} % of its jobs "
         f"wait at one time (at least {system['saturation']['floor']:,}, at most {system['saturation']['cap']:,} "
         "jobs): an unstable queue grows with the run's length, a stable one does not.",),
    )


PASS_ORDERS_EXPLAINED = {
    "as_stated": "as the paper states it per strategy: ICS places every waiting job that fits whole (home "
                 "cluster, else migration) before it co-allocates any of 'the remaining jobs' (Sec. 4.2); "
                 "First-Fit, LSLT Only and LSLT+CS take the FPFS queue job by job, each trying its home cluster, "
                 "migration, then co-allocation (Sec. 4.1); Zero Comm., a baseline whose order the paper does not "
                 "state, places whole jobs first as ICS does",
    "whole_first": "every strategy places every waiting job that fits whole before any job is co-allocated, "
                   "as the paper states it for ICS alone",
    "per_job": "each waiting job in turn tries its home cluster, migration, then co-allocation, for every strategy",
}


def _pass_order_item(order: dict) -> tuple:
    return (f"One FPFS queue over the clusters' streams in arrival order, no reservations. Pass order "
            f"'{order['default']}': {PASS_ORDERS_EXPLAINED[order['default']]}; named variant '{order['variant']}' "
            f"(reported beside it by the profiles that run it): {PASS_ORDERS_EXPLAINED[order['variant']]}.",)


def write_report(directory, results: dict, parameters: dict) -> pd.DataFrame:
    """Write the report into ``directory`` from the result tables (``RESULT_TABLES``); returns the claims ledger."""
    directory = Path(directory)
    (directory / "parameters.json").write_text(json.dumps(parameters, indent=2, sort_keys=True) + "\n",
                                               encoding="utf-8")
    results = _read_back(directory, results)
    runs = results["runs"]
    labels = parameters["strategies"]["labels"]
    verdicts = ledger(PAPER, CLAIMS, results, parameters["profile"]["name"])
    write_ledger(directory, verdicts)
    causes = causes_frame(verdicts, results, parameters)
    write_table(directory, "causes", causes, "measured causes of the claims not reproduced")

    figures = []
    for stem, workload in FIGURE_WORKLOADS.items():
        title = f"Fig. {int(stem[3:5])}: workload {SHORT[workload]}, mean turnaround vs PPBW"
        save_figure(ppbw_figure(runs, workload, labels, parameters["strategies"]["swept"], title), directory, stem)
        figures.append((stem, title + " (Zero Comm. and Migration Only: horizontal limits)"))
    for stem, workload in INFORMATION_FIGURES.items():
        title = f"Fig. {int(stem[3:5])}: workload {SHORT[workload]}, ICS vs exposed share"
        save_figure(information_figure(runs, workload, title), directory, stem)
        figures.append((stem, title + " (PPBW ~ U[0, 300])"))
    save_figure(queue_figure(results["queue_depth"]), directory, "fig09_queue_depth")
    figures.append(("fig09_queue_depth", "Fig. 9: Migration Only's mean queue depth by hour of day"))
    figures.sort()
    swept = sensitivity(runs, results["load_runs"], results["convergence_runs"], results["offered_load"],
                        parameters["profile"]["jobs_per_cluster"])
    for stem, setting, title in (("load_sensitivity", "load", "Improvements vs offered load"),
                                 ("convergence", "jobs per cluster", "Improvements vs run length")):
        if (swept.swept == setting).any():
            save_figure(sensitivity_figure(swept, setting, title), directory, stem)
            figures.append((stem, f"{title}: not in the paper; PPBW ~ U[0, 300], mean and 95 % interval over "
                                  "seeds"))

    workloads = list(parameters["workloads"])
    by_cell = pd.concat([verdicts, cell_verdicts(CLAIMS, results)], ignore_index=True)  # a table's cells each shown
    page_tables = {
        "table1_improvement": improvement_table(runs, by_cell, labels, (REALISTIC, SYNTHETIC),
                                                ("migration_only", *parameters["strategies"]["swept"], "zero_comm"),
                                                TABLE1_CELLS),
        "table2_workloads": improvement_table(runs, by_cell, labels, workloads, ("ics", "zero_comm"), TABLE2_CELLS),
        "headline": headline(runs, by_cell),
        "workloads": workloads_table(parameters, results["offered_load"], _scale(runs)),
        "experiments": experiments_table(results, labels),
    }
    ran_variant = parameters["profile"]["pass_order_variant"]
    if ran_variant:
        page_tables["pass_order"] = pass_order_table(results, by_cell, labels, parameters["pass_order"])
    page_tables["sensitivity"] = _sensitivity_cells(swept)
    linked_tables = {"ppbw_sweeps": ppbw_sweeps(runs, labels), "sensitivity_runs": swept}
    for stem, frame in {**page_tables, **linked_tables}.items():
        write_table(directory, stem, frame)

    blocks = [
        paragraph(
            "Bandwidth-centric job co-allocation in a multi-cluster, after Jones, Ligon and Shrivastava, 'The Impact "
            "of Information Availability and Workload Characteristics on the Performance of Job Co-allocation in "
            "Multi-clusters', ICPADS 2006."
        ),
        _setup_paragraph(results, parameters),
        *ledger_blocks(verdicts),
        Heading("What does not reproduce, and the measured cause"),
        paragraph("Each claim not reproduced, with what our runs measure behind its statistic (means over the "
                  "seeds; ", Link("causes.csv", "causes.csv"), "): a room or gain against offered load over the "
                  "loads the profile ran, what a strategy co-allocated, or its seeds' spread when undecided."),
        document_table(causes),
        Heading("Table 1: improvement over Migration Only, PPBW ~ U[0, 300] Mb/s (ICS with full information)"),
        document_table(page_tables["table1_improvement"]),
        Heading("Table 2: improvement over Migration Only by workload"),
        document_table(page_tables["table2_workloads"]),
        Heading("Other numbers of the text"),
        document_table(page_tables["headline"]),
        Heading(f"Pass order: the paper's text ('{parameters['pass_order']['default']}') beside "
                f"'{parameters['pass_order']['variant']}' (PPBW ~ U[0, 300])"),
        document_table(page_tables["pass_order"]) if ran_variant else paragraph(
            f"Profile '{parameters['profile']['name']}' runs the paper's pass order only; the quick profile's report "
            f"sets the variant '{parameters['pass_order']['variant']}' beside it."),
        Heading("Sensitivity: offered load and run length (not in the paper)"),
        document_table(page_tables["sensitivity"]),
        Heading("Figures"),
        *[FigureBlock(stem, caption) for stem, caption in figures],
        Heading("Tables"),
        BulletList(tuple(
            (f"{stem}: ", Link("CSV", f"{stem}.csv"), ", ", Link("Markdown", f"{stem}.md"), ", ",
             Link("LaTeX", f"{stem}.tex"))
            for stem in (*page_tables, *linked_tables, *RESULT_TABLES, "claims")
        )),
        Heading("Model and defaults (generated from the parameters the runs used)"),
        BulletList(_model_items(parameters)),
        paragraph("Workloads: how each is built, its offered load measured on the generated jobs (node-seconds of "
                  "rectangular jobs at T_E0 per node-second between the first and last arrival) and where run-time "
                  "estimates come from."),
        document_table(page_tables["workloads"]),
        Heading("Experiments run (read from the result tables)"),
        document_table(page_tables["experiments"]),
    ]
    page = Document("bandwidth: bandwidth-centric job co-allocation in multi-clusters", tuple(blocks))
    (directory / "index.md").write_text(render_markdown(page), encoding="utf-8")
    (directory / "index.html").write_text(render_html(page), encoding="utf-8")
    return verdicts
