"""The koala stage's report: Figs. 7a, 7b, 8, 10 and Table 4 of Sonmez, Mohamed and Epema, "On the
Benefit of Processor Coallocation in Multicluster Grid Systems" (IEEE TPDS 21(6), 2010), regenerated
with intervals, and every claim of the paper's evaluation judged in a claims ledger.

``write_report(directory, results, parameters)`` takes the result tables, ``runs`` with one row per
simulation run (the point's fields and its summary, job sizes as "8/16/32"), and the parameters the runs used
(``pipeline.koala.report_parameters``: profile, comparisons, policy labels, applications,
clusters, execution model, saturation rule).  It writes ``runs.csv`` and
``parameters.json``, reads the runs back as the ledger's result table, and writes the
ledger (``claims.csv/.md/.tex``) with the measured cause of each claim not reproduced
(``causes.csv``, ``schedlab.reports.koala_causes``), the figures (PNG and SVG), the tables (CSV, Markdown,
LaTeX) and ``index.md`` / ``index.html``.  Nothing here knows the simulator: every label,
constant and number on the page comes from those two inputs.

Intervals: every mean over seeds is shown with its 95 % Student-t interval; a % change is
the mean of per-seed paired changes (the policies ran the same seeds).  A comparison at a
load where any seed of either policy saturated gets no % change: it is marked saturated.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from schedlab.reports.document import (
    BulletList,
    Document,
    Figure as FigureBlock,
    Heading,
    Link,
    paragraph,
    render_html,
    render_markdown,
)
from schedlab.reports.figures import legend_below, save_figure
from schedlab.reports.koala_causes import causes_frame
from schedlab.reports.koala_claims import APPLICATIONS, CLAIMS, CLUSTER_USE, EXECUTION_MODEL, RUNS, first_saturated_load
from schedlab.reports.ledger import INTERVAL_METHOD, interval, ledger, ledger_blocks, write_ledger
from schedlab.reports.tables import document_table, publish_inputs, write_table

RUNS_STEM, CLUSTER_USE_STEM = "runs", "cluster_use_by_run"
RUNS_FILE, PARAMETERS_FILE, CLUSTER_USE_FILE = f"{RUNS_STEM}.csv", "parameters.json", f"{CLUSTER_USE_STEM}.csv"
FIGURES = {
    "fig7a_coallocation": "Fig. 7a: % change in mean response time, FCM vs WF, MPI applications (sizes 8/16/32, config A)",
    "fig7b_observed_utilization": "Fig. 7b: observed vs net utilization under FCM",
    "fig8_ccr": "Fig. 8: % change in mean response time, FCM vs WF, synthetic application by CCR",
    "fig10_policies": "Fig. 10: mean response time of FCM and CA, Wave with 32/48/64 nodes, configs A and B",
}
SATURATED_NOTE = "a triangle in the top strip: a seed of either policy saturated at that load, so no % change"
CHANGE_TICKS = (-100, -50, -20, -10, 0, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000)
"""Labelled % changes on the symlog axis (linear within +-10 %, logarithmic beyond)."""
LINEAR_WITHIN = 10.0


# --- aggregation with intervals ----------------------------------------------------------------


def _select(runs: pd.DataFrame, line: dict, policy: str) -> pd.DataFrame:
    sizes = "/".join(map(str, line["sizes"]))
    return runs[(runs.app == line["app"]) & (runs.config == line["config"]) & (runs.sizes == sizes)
                & (runs.policy == policy)].set_index(["net_utilization", "seed"]).sort_index()


def comparison_table(runs: pd.DataFrame, line: dict, labels: dict) -> pd.DataFrame:
    """Per load of one comparison: both policies' mean response times and the paired % change, each with
    its 95 % interval over seeds; no % change where a seed of either policy saturated."""
    base, treated = _select(runs, line, line["baseline"]), _select(runs, line, line["treatment"])
    rows = []
    for load in sorted(base.index.get_level_values(0).unique()):
        b, t = base.loc[load], treated.loc[load]
        change = 100.0 * (t["mean_response_time"] / b["mean_response_time"].reindex(t.index) - 1.0)
        saturated = bool(b["saturated"].any() or t["saturated"].any())
        mean, low, high = interval(change.to_numpy()) if not saturated else (math.nan,) * 3
        rows.append({
            "line": line["label"],
            "baseline": labels[line["baseline"]],
            "treatment": labels[line["treatment"]],
            "net_utilization": load,
            "seeds": len(t),
            "baseline_response_s": b["mean_response_time"].mean(),
            "treatment_response_s": t["mean_response_time"].mean(),
            "change_percent": mean,
            "change_low": low,
            "change_high": high,
            "treatment_observed_utilization": t["observed_utilization"].mean(),
            "treatment_coallocated_fraction": t["coallocated_fraction"].mean(),
            "baseline_saturated_seeds": int(b["saturated"].sum()),
            "treatment_saturated_seeds": int(t["saturated"].sum()),
        })
    return pd.DataFrame(rows)


def workload_policies(parameters: dict):
    """Each (workload selector, workload name, policy) of the comparisons once (the WF runs of Wave serve
    two lines), in the comparisons' order."""
    seen = set()
    for line in parameters["comparisons"]:
        where = {"app": line["app"], "config": line["config"], "sizes": "/".join(map(str, line["sizes"]))}
        for policy in (line["baseline"], line["treatment"]):
            if (*where.values(), policy) not in seen:
                seen.add((*where.values(), policy))
                yield where, f"{where['app']} {where['sizes']}, config {where['config']}", policy


def saturation_table(runs: pd.DataFrame, parameters: dict) -> pd.DataFrame:
    """Per workload and policy, each seed's first saturated load of the grid (Table 4's quantity)."""
    labels = {name: policy["label"] for name, policy in parameters["policies"].items()}
    rows = []
    for where, workload, policy in workload_policies(parameters):
        first, grid = first_saturated_load(runs, {**where, "policy": policy})
        per_seed = ", ".join(f"{100 * v:.0f}" if math.isfinite(v) else f">{100 * grid[-1]:.0f}" for v in first)
        rows.append({
            "workload": workload,
            "policy": labels[policy],
            "first_saturated_load_per_seed_percent": per_seed,
            "seeds_saturated_on_grid": f"{int(first.notna().sum())}/{len(first)}",
        })
    return pd.DataFrame(rows)


def cluster_use_table(use: pd.DataFrame, parameters: dict) -> pd.DataFrame:
    """Per workload and coallocating policy, pooled over seeds and loads: the share of jobs split over
    2, 3 and 4 clusters, and the cluster sets split jobs used most."""
    labels = {name: policy["label"] for name, policy in parameters["policies"].items()}
    rows = []
    for where, workload, policy in workload_policies(parameters):
        if parameters["policies"][policy]["request"] != "single":  # WF never splits a job
            mine = use[(use.app == where["app"]) & (use.config == where["config"]) & (use.sizes == where["sizes"])
                       & (use.policy == policy)]
            by_set = mine.groupby("clusters")["jobs"].sum()
            width = by_set.index.str.count(r"\+") + 1
            total, split = int(by_set.sum()), by_set[width > 1].sort_values(ascending=False, kind="stable")
            rows.append({
                "workload": workload,
                "policy": labels[policy],
                "jobs": total,
                **{f"on_{k}_clusters_percent": 100.0 * by_set[width == k].sum() / total for k in (1, 2, 3, 4)},
                "most_used_split_sets": ", ".join(f"{name} {100.0 * jobs / split.sum():.0f} %"
                                                  for name, jobs in split.head(3).items()),
            })
    return pd.DataFrame(rows)


def cluster_use_figure(table: pd.DataFrame) -> Figure:
    figure = Figure(figsize=(8.0, 0.45 * len(table) + 1.4), layout="constrained")
    axes = figure.add_subplot()
    names = [f"{row.workload}: {row.policy}" for row in table.itertuples()]
    left = np.zeros(len(table))
    for k in (1, 2, 3, 4):
        share = table[f"on_{k}_clusters_percent"].to_numpy()
        axes.barh(names, share, left=left, label=f"{k} cluster{'s' if k > 1 else ''}")
        left += share
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("share of jobs (%), pooled over seeds and loads")
    axes.set_title("How many clusters each policy's jobs ran on", fontsize=9)
    legend_below(figure, axes, fontsize=8)
    return figure


# --- figures ----------------------------------------------------------------------------------


def _error_bars(axes, x, mean, low, high, **style):
    return axes.errorbar(x, mean, yerr=[mean - low, high - mean], capsize=3, **style)


def percent_change_figure(tables: dict, lines: list, title: str) -> Figure:
    figure = Figure(figsize=(7.0, 5.0), layout="constrained")
    # A saturated load has no % change: it is marked in a strip of its own above the values (one row per line),
    # never drawn as a value.
    strip, axes = figure.subplots(2, 1, sharex=True, height_ratios=(1, 6))
    for row, line in enumerate(lines):
        frame = tables[line["label"]]
        loads = 100 * frame["net_utilization"]
        drawn = _error_bars(axes, loads, frame["change_percent"], frame["change_low"], frame["change_high"],
                            marker="o", label=line["label"])
        saturated = frame["change_percent"].isna().to_numpy()
        strip.plot(loads[saturated], np.full(int(saturated.sum()), -row), linestyle="none", marker="^",
                   markersize=6, color=drawn.lines[0].get_color())
    strip.set_ylim(-len(lines) + 0.4, 0.6)
    strip.set_yticks([])
    strip.text(0.005, 0.5, "saturated:", transform=strip.transAxes, ha="left", va="center", fontsize=8)
    strip.grid(True, axis="x", alpha=0.3)
    axes.axhline(0.0, color="black", linewidth=0.8)
    axes.set_yscale("symlog", linthresh=LINEAR_WITHIN)
    values = pd.concat([tables[line["label"]][["change_low", "change_high", "change_percent"]] for line in lines])
    finite = values.to_numpy(dtype=float)
    finite = finite[np.isfinite(finite)]
    low, high = (min(finite.min(), -LINEAR_WITHIN), max(finite.max(), LINEAR_WITHIN)) if finite.size else (
        -LINEAR_WITHIN, LINEAR_WITHIN)
    axes.set_ylim(max(-100.0, 1.5 * low), 1.5 * high)
    axes.yaxis.set_major_locator(FixedLocator([tick for tick in CHANGE_TICKS if 1.5 * low <= tick <= 1.5 * high]))
    axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axes.yaxis.set_minor_locator(NullLocator())
    axes.set_xlabel("net utilization (%)")
    axes.set_ylabel("change in mean response time (%)\n(mean of per-seed changes, 95 % interval; symlog)")
    # Over the whole figure, not the axes: the two-line y label leaves the axes too narrow for the note.
    figure.suptitle(f"{title}\n({SATURATED_NOTE})", fontsize=9)
    axes.grid(True, alpha=0.3)
    legend_below(figure, axes)
    return figure


def observed_utilization_figure(runs: pd.DataFrame, lines: list, labels: dict) -> Figure:
    figure = Figure(figsize=(6.0, 4.5), layout="constrained")
    axes = figure.add_subplot()
    for line in lines:
        frame = _select(runs, line, line["treatment"]).groupby(level=0)
        stats = pd.DataFrame([interval(group.to_numpy()) for _, group in frame["observed_utilization"]],
                             index=list(frame.groups), columns=["mean", "low", "high"])
        saturated = frame["saturated"].any()
        drawn = _error_bars(axes, 100 * stats.index.to_numpy(), stats["mean"], stats["low"], stats["high"],
                            marker="o", label=f"{line['label']} ({labels[line['treatment']]})")
        axes.plot(100 * stats.index[saturated.to_numpy()], stats["mean"][saturated.to_numpy()], linestyle="none",
                  marker="o", markersize=12, markerfacecolor="none", markeredgecolor=drawn.lines[0].get_color())
    axes.plot([0, 100], [0, 1], color="black", linewidth=0.8, linestyle="--", label="observed = net")
    axes.set_xlabel("net utilization (%)")
    axes.set_ylabel("observed utilization (mean, 95 % interval)")
    axes.set_ylim(0, 1.05)
    axes.set_title("Fig. 7b: observed vs net utilization\n(ringed: a seed saturated)", fontsize=9)
    axes.grid(True, alpha=0.3)
    legend_below(figure, axes, fontsize=8)
    return figure


def policies_figure(runs: pd.DataFrame, lines: list, labels: dict) -> Figure:
    figure = Figure(figsize=(10.0, 4.5), layout="constrained")
    for axes, line in zip(figure.subplots(1, len(lines), squeeze=False)[0], lines):
        for policy in (line["baseline"], line["treatment"]):
            frame = _select(runs, line, policy).groupby(level=0)
            stats = pd.DataFrame([interval(group.to_numpy()) for _, group in frame["mean_response_time"]],
                                 index=list(frame.groups), columns=["mean", "low", "high"])
            saturated = frame["saturated"].any().to_numpy()
            drawn = _error_bars(axes, 100 * stats.index.to_numpy(), stats["mean"], stats["low"], stats["high"],
                                marker="o", label=labels[policy])
            axes.plot(100 * stats.index[saturated], stats["mean"][saturated], linestyle="none", marker="o",
                      markersize=12, markerfacecolor="none", markeredgecolor=drawn.lines[0].get_color())
        axes.set_yscale("log")
        axes.set_xlabel("net utilization (%)")
        axes.set_ylabel("mean job response time (s, log; 95 % interval)")
        axes.set_title(f"Fig. 10, {line['label']}: {line['app']} {'/'.join(map(str, line['sizes']))} nodes\n"
                       "(ringed: a seed saturated)", fontsize=9)
        axes.grid(True, alpha=0.3, which="both")
    legend_below(figure, *figure.axes)
    return figure


# --- the generated setup --------------------------------------------------------------------------


def _grid_text(loads) -> str:
    loads = [100 * v for v in loads]
    return f"{loads[0]:.0f}-{loads[-1]:.0f} % ({len(loads)} loads)" if len(loads) > 1 else f"{loads[0]:.0f} %"


def setup_items(runs: pd.DataFrame, parameters: dict) -> tuple:
    profile = parameters["profile"]
    model = parameters["execution_model"]
    calibration = model["calibration"]
    configs = parameters["configs"]
    splits = model["factor_by_split"]
    split_values = sorted(set(round(v, 9) for v in splits.values()))
    split_sentence = (
        f"it does not depend on how the job's nodes are spread over them: on config A's four clusters "
        f"f = {split_values[0]:.4g} for every split evaluated ({', '.join(splits)})"
        if len(split_values) == 1 else
        "it depends on how the job's nodes are spread: on config A's four clusters "
        + ", ".join(f"f = {v:.4g} for {name}" for name, v in splits.items())
    )
    communication = model["communication"]
    weights_text = (
        ("x_c = 1 / k for every cluster of S (split rule 'cluster-set')" if communication["split_rule"] == "cluster-set"
         else f"x_c the share of the job's nodes on cluster c (split rule '{communication['split_rule']}')")
        + f"; w_2 = {communication['two_cluster_weight']:g}, w_3 = {communication['three_cluster_weight']:g} "
        "(0: no penalty below four clusters; 1: the latency form alone), w_k = 1 from four clusters on"
    )
    sets = pd.DataFrame(model["cluster_sets"])
    by_count = sets.groupby(["config", "n_clusters"])["communication_factor"].agg(["min", "max"])
    factor_text = "; ".join(
        f"config {config}: " + ", ".join(f"{k} cluster{'s' if k > 1 else ''} {row['min']:.3g}-{row['max']:.3g}"
                                           for (c, k), row in by_count.iterrows() if c == config)
        for config in sorted(configs)
    )
    apps = "; ".join(
        f"{a['name']}: T1 {a['single_cluster_time_s']:g} s, CCR {a['ccr']:.3g} (T_comp {a['computation_s']:.4g} s, "
        f"T_comm {a['communication_s']:.4g} s)" for a in parameters["applications"].values()
    )
    clusters = "; ".join(
        f"config {name}: " + ", ".join(f"{c['name']} {c['nodes']}" for c in config["clusters"])
        + f" nodes ({config['total_nodes']} in all)" for name, config in configs.items()
    )
    offered = runs.assign(gap=100 * (runs["net_utilization_realized"] - runs["net_utilization"]))
    rule = parameters["saturation_rule"]
    options = ", ".join(
        f"{column} = {', '.join(map(str, sorted(runs[column].unique())))}"
        for column in ("slowest_processor", "startup_overhead")
    )
    policies = ", ".join(f"{p['label']} ({p['request']} requests)" for p in parameters["policies"].values())
    periods = sorted(runs["scan_period"].unique())
    scans = ("at every arrival and every end" if periods == [0.0] else
             "every " + ", ".join(f"{p:g} s" for p in periods) + " (0: at every arrival and end)")
    delft_shares = ", ".join(f"{share:g}" for share in sorted(runs.loc[runs["config"] == "B", "delft_latency_share"].unique()))
    return (
        (f"Profile '{parameters['profile_name']}': {len(runs)} runs; seeds {', '.join(map(str, profile['seeds']))} "
         f"for every policy compared (common random numbers); {profile['hours']:g} simulated hours of Poisson "
         "arrivals per run, then the queue drains and every job counts.",),
        (f"Offered load: the net utilization (node-seconds at single-cluster times over the system's capacity) is "
         f"swept over {_grid_text(profile['coallocation_utilizations'])} for Sec. 6.3 and "
         f"{_grid_text(profile['policies_utilizations'])} for Sec. 7.2; the realized net utilization of a run "
         f"differs from its target by {offered['gap'].mean():+.2f} points on average "
         f"(from {offered['gap'].min():+.1f} to {offered['gap'].max():+.1f}).",),
        ("Run-time estimates: none are used, the placement policies only look at job sizes; every job runs "
         "exactly its application's modelled time on the clusters it got (exact estimates, were any needed).",),
        (f"Policies: {policies}. A submitted job is tried at once; the placement queue is scanned from head to "
         f"tail, every job that fits placed, {scans} (the paper says only that KOALA 'regularly scans' its "
         "queue; other periods: the sensitivity page).",),
        (f"Clusters (nodes): {clusters}.",),
        (f"Applications: {apps}; synthetic CCRs {', '.join(f'{c:g}' for c in profile['ccrs'])}.",),
        (f"Execution time on a cluster set S: T_comp + f(S) x T_comm, f = 1 on one cluster, with "
         f"f(S) = 1 + kappa x w_k x (sum over ordered pairs of distinct clusters c, d of S of x_c x_d L(c, d)), "
         f"L the inter-cluster latency and k = |S|; {weights_text}. f(S) depends on the "
         f"set S, and {split_sentence}. Range of f per number of clusters: {factor_text} (every set: ",
         Link("execution_model.md", "execution_model.md"), "). Delft's latencies in config B: share "
         f"{delft_shares} of the DEFAULT table's excess over the farthest Myri-10G pair (1: the table; other shares: "
         "the sensitivity page).",),
        (f"Calibration: kappa = {model['kappa_per_ms']:.4g} per ms makes {calibration['application']} "
         f"(T1 {calibration['single_cluster_time']:g} s, CCR {calibration['ccr']:g}) take "
         f"{calibration['four_cluster_time']:g} s on the four clusters of config {calibration['configuration']} "
         f"with {calibration['job_nodes']} nodes; Poisson's CCR follows from a DEFAULT of "
         f"{model['poisson_four_cluster_time_s']:g} s on four clusters.",),
        (f"Model options in the runs: {options}.",),
        (f"Saturation rule (ours, the paper gives none), applied per seed: the placement queue, sampled every "
         f"{rule['sample_step_s']:g} s, grows over the window after its first {rule['warm_up_fraction']:.3g} "
         f"(least-squares line) by more than {100 * rule['growth_share_of_jobs']:g} % of the jobs submitted and "
         f"at least {rule['min_growth_jobs']:g} jobs.",),
    )


# --- page and files -------------------------------------------------------------------------------


def cluster_use_blocks(written) -> tuple:
    if "cluster_use" not in written:
        return ()
    return (
        Heading("Clusters per job"),
        FigureBlock("cluster_use", "Share of each coallocating policy's jobs on 1, 2, 3 and 4 clusters"),
        document_table(written["cluster_use"]),
        paragraph("Every job's components (cluster, nodes) are saved with its run (components.parquet of each "
                  "KoalaRuns task); per run and cluster set: ", Link(CLUSTER_USE_FILE, CLUSTER_USE_FILE), "."),
    )


def koala_page(runs, parameters, claims_frame, written) -> Document:
    blocks = [
        paragraph(
            "Processor coallocation in the DAS-3 multicluster: KOALA's Worst Fit (WF, here without coallocation), "
            "Flexible Cluster Minimization (FCM) and Communication-Aware (CA) placement, after Sonmez, Mohamed and "
            "Epema, 'On the Benefit of Processor Coallocation in Multicluster Grid Systems', IEEE TPDS 21(6), 2010 "
            "(simulated experiments of Sec. 6.3 and 7.2)."
        ),
        *ledger_blocks(claims_frame),
        paragraph("Ledger files: ", Link("CSV", "claims.csv"), ", ", Link("Markdown", "claims.md"), ", ",
                  Link("LaTeX", "claims.tex"), f". Intervals in figures and tables: {INTERVAL_METHOD}."),
        Heading("What does not reproduce, and the measured cause"),
        paragraph("Each claim not reproduced, with what our runs measure behind it (means over the seeds; ",
                  Link("causes.csv", "causes.csv"), "): a change in mean response time split into queue wait and "
                  "execution with the share of jobs coallocated, or where each policy first saturates beside the "
                  "utilization it kept at the last load no seed saturated; an undecided claim's seeds' spread first."),
        document_table(written["causes"]),
        Heading("Figures"),
        *[FigureBlock(stem, caption) for stem, caption in FIGURES.items()],
        Heading("Table 4: first saturated load per seed"),
        document_table(written["table4_saturation"]),
        *cluster_use_blocks(written),
        Heading("Tables"),
        BulletList(tuple(
            (f"{stem}: ", Link("CSV", f"{stem}.csv"), ", ", Link("Markdown", f"{stem}.md"), ", ",
             Link("LaTeX", f"{stem}.tex")) for stem in written
        ) + ((Link("runs.csv", RUNS_FILE), " (one row per run), ", Link("parameters.json", PARAMETERS_FILE),
              " (the parameters the runs used)"),)),
        Heading("Model and defaults (generated from the parameters of the runs)"),
        BulletList(setup_items(runs, parameters)),
    ]
    return Document("koala: processor coallocation in multicluster grids", tuple(blocks))


def claim_results(runs: pd.DataFrame, parameters: dict, cluster_use: pd.DataFrame | None = None) -> dict:
    """The tables the claims read: the runs, the execution model and applications they used, and (when
    given) which cluster sets each run's jobs ran on."""
    results = {
        RUNS: runs,
        EXECUTION_MODEL: pd.DataFrame(parameters["execution_model"]["cluster_sets"]),
        APPLICATIONS: pd.DataFrame([{"key": key, **app} for key, app in parameters["applications"].items()]),
    }
    if cluster_use is not None:
        results[CLUSTER_USE] = cluster_use
    return results


def write_report(directory, results: Mapping[str, pd.DataFrame], parameters: dict) -> pd.DataFrame:
    """Write the whole report into ``directory``; returns the claims ledger.  ``results``: ``runs`` (one row
    per run), and optionally ``cluster_use`` (one row per run and cluster set: the point's fields,
    clusters, jobs), which adds the cluster-use table and figure."""
    directory = Path(directory)
    published = publish_inputs(directory, {RUNS_STEM: results[RUNS], CLUSTER_USE_STEM: results.get(CLUSTER_USE)},
                               parameters, float_format="%.10g")
    runs, cluster_use = published[RUNS_STEM], published.get(CLUSTER_USE_STEM)
    results = claim_results(runs, parameters, cluster_use)
    claims_frame = ledger("koala", CLAIMS, results, parameters["profile_name"])
    write_ledger(directory, claims_frame, "koala: claims ledger")

    labels = {name: policy["label"] for name, policy in parameters["policies"].items()}
    lines = {kind: [line for line in parameters["comparisons"] if line["experiment"] == kind]
             for kind in ("coallocation", "ccr", "policies")}
    tables = {line["label"]: comparison_table(runs, line, labels) for line in parameters["comparisons"]}
    save_figure(percent_change_figure(tables, lines["coallocation"], "Fig. 7a: FCM vs WF"), directory,
                "fig7a_coallocation")
    save_figure(observed_utilization_figure(runs, lines["coallocation"], labels), directory,
                "fig7b_observed_utilization")
    save_figure(percent_change_figure(tables, lines["ccr"], "Fig. 8: FCM vs WF by CCR"), directory, "fig8_ccr")
    save_figure(policies_figure(runs, lines["policies"], labels), directory, "fig10_policies")

    written = {
        f"{stem}": pd.concat([tables[line["label"]] for line in lines[kind]], ignore_index=True)
        for stem, kind in (("fig7_coallocation", "coallocation"), ("fig8_ccr", "ccr"), ("fig10_policies", "policies"))
    }
    written["causes"] = causes_frame(claims_frame, results, parameters)
    written["table4_saturation"] = saturation_table(runs, parameters)
    if cluster_use is not None:
        written["cluster_use"] = cluster_use_table(cluster_use, parameters)
        save_figure(cluster_use_figure(written["cluster_use"]), directory, "cluster_use")
    written["execution_model"] = pd.DataFrame(parameters["execution_model"]["cluster_sets"])
    for stem, frame in written.items():
        write_table(directory, stem, frame)
    page = koala_page(runs, parameters, claims_frame, written)
    (directory / "index.md").write_text(render_markdown(page), encoding="utf-8")
    (directory / "index.html").write_text(render_html(page), encoding="utf-8")
    return claims_frame
