"""Figures, tables and page of the coscheduling stage (paper Figs. 3-10, spec 000 targets).

Figures and the results table read the confidence table the pipeline makes from the runs:
one row per (series, x, scheme, release, machine) with the mean over replications and the
half-width of its 95 % interval (``<metric>_ci``).  Only release-on rows make figures.
The claims ledger (``reports.cosched_claims``) reads the per-seed runs table itself; the
page's setup is generated from ``parameters.json``, the parameters the runs used, as the
pipeline wrote them.  Nothing here imports the simulator.

Figure kinds, as in the paper:

``bars``  (Figs. 3, 4, 7, 8) one group per x, bars HH / HY / YH / YY, the baseline
          without coscheduling as a line over each group;
``sync``  (Figs. 5, 9) one group per (x, remote scheme), bars local hold / local yield;
``loss``  (Figs. 6, 10) one group per (x, remote scheme), the loss of local hold only
          (yield holds nothing), node-hours left, share of capacity on the right axis.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from reports.cosched_claims import CLAIMS, PAPER
from reports.document import Document, Heading, Paragraph, BulletList, table
from reports.document import Figure as FigureBlock
from reports.ledger import ledger, ledger_blocks

COMBINATIONS = ("HH", "HY", "YH", "YY")
MACHINES = ("A", "B")
SECONDS_PER_MINUTE = 60.0


@dataclass(frozen=True)
class FigureSpec:
    number: int
    series: str
    kind: str
    metric: str
    title: str
    unit: str
    scale: float = 1.0  # divide the metric by this for display

    @property
    def stem(self) -> str:
        return f"fig{self.number:02d}_{self.series}_{self.metric}"


FIGURES = (
    FigureSpec(3, "load", "bars", "mean_wait", "Average wait by B load", "minutes", SECONDS_PER_MINUTE),
    FigureSpec(4, "load", "bars", "mean_slowdown", "Average slowdown by B load", "slowdown"),
    FigureSpec(5, "load", "sync", "mean_sync", "Paired-job sync time by B load", "minutes", SECONDS_PER_MINUTE),
    FigureSpec(6, "load", "loss", "su_loss_hours", "Service-unit loss by B load", "node-hours"),
    FigureSpec(7, "ratio", "bars", "mean_wait", "Average wait by paired proportion", "minutes", SECONDS_PER_MINUTE),
    FigureSpec(8, "ratio", "bars", "mean_slowdown", "Average slowdown by paired proportion", "slowdown"),
    FigureSpec(9, "ratio", "sync", "mean_sync", "Paired-job sync time by paired proportion", "minutes", SECONDS_PER_MINUTE),
    FigureSpec(10, "ratio", "loss", "su_loss_hours", "Service-unit loss by paired proportion", "node-hours"),
)
FIGURES_BY_NUMBER = {spec.number: spec for spec in FIGURES}


def x_label(series: str, x: float) -> str:
    return f"{x:.2f}" if series == "load" else f"{100 * x:g}%"


def _cell(table_: pd.DataFrame, series: str, x: float, scheme: str, machine: str, metric: str) -> tuple[float, float]:
    row = table_[
        (table_["series"] == series)
        & (table_["x"] == x)
        & (table_["scheme"] == scheme)
        & (table_["machine"] == machine)
        & (table_["release"])
    ]
    if row.empty:
        return np.nan, np.nan
    return float(row[metric].iloc[0]), float(row[f"{metric}_ci"].iloc[0])


def _xs(table_: pd.DataFrame, series: str) -> list[float]:
    return sorted(table_.loc[table_["series"] == series, "x"].unique())


def _local_scheme(machine: str, combination: str) -> str:
    return combination[0] if machine == "A" else combination[1]


def _combination(machine: str, local: str, remote: str) -> str:
    return local + remote if machine == "A" else remote + local


def _bars_panel(axes, table_, spec: FigureSpec, machine: str) -> None:
    xs = _xs(table_, spec.series)
    width = 0.8 / len(COMBINATIONS)
    for k, combination in enumerate(COMBINATIONS):
        cells = [_cell(table_, spec.series, x, combination, machine, spec.metric) for x in xs]
        means = np.array([c[0] for c in cells]) / spec.scale
        errors = np.nan_to_num(np.array([c[1] for c in cells]) / spec.scale)
        axes.bar(np.arange(len(xs)) - 0.4 + width * (k + 0.5), means, width, yerr=errors, capsize=2, label=combination)
    for i, x in enumerate(xs):
        base, _ = _cell(table_, spec.series, x, "base", machine, spec.metric)
        axes.hlines(base / spec.scale, i - 0.45, i + 0.45, colors="black", linewidth=1.5,
                    label="baseline (no coscheduling)" if i == 0 else None)
    axes.set_xticks(np.arange(len(xs)), [x_label(spec.series, x) for x in xs])


def _pair_groups(table_, series: str) -> list[tuple[float, str]]:
    return [(x, remote) for x in _xs(table_, series) for remote in ("H", "Y")]


def _sync_panel(axes, table_, spec: FigureSpec, machine: str) -> None:
    groups = _pair_groups(table_, spec.series)
    for k, local in enumerate(("H", "Y")):
        cells = [_cell(table_, spec.series, x, _combination(machine, local, remote), machine, spec.metric) for x, remote in groups]
        means = np.array([c[0] for c in cells]) / spec.scale
        errors = np.nan_to_num(np.array([c[1] for c in cells]) / spec.scale)
        axes.bar(np.arange(len(groups)) - 0.2 + 0.4 * k, means, 0.4, yerr=errors, capsize=2,
                 label="local hold" if local == "H" else "local yield")
    axes.set_xticks(np.arange(len(groups)), [f"{x_label(spec.series, x)}/{remote}" for x, remote in groups])


def _loss_panel(axes, table_, spec: FigureSpec, machine: str) -> None:
    groups = _pair_groups(table_, spec.series)
    cells = [_cell(table_, spec.series, x, _combination(machine, "H", remote), machine, spec.metric) for x, remote in groups]
    shares = [_cell(table_, spec.series, x, _combination(machine, "H", remote), machine, "su_loss_share")[0] for x, remote in groups]
    means = np.array([c[0] for c in cells])
    axes.bar(np.arange(len(groups)), means, 0.5, yerr=np.nan_to_num([c[1] for c in cells]), capsize=2, label="local hold")
    axes.set_xticks(np.arange(len(groups)), [f"{x_label(spec.series, x)}/{remote}" for x, remote in groups])
    ratio = np.nanmax(np.array(shares) / np.where(means > 0, means, np.nan)) if np.any(means > 0) else 0.0
    if np.isfinite(ratio) and ratio > 0:
        secondary = axes.secondary_yaxis("right", functions=(lambda v: 100 * v * ratio, lambda p: p / (100 * ratio)))
        secondary.set_ylabel("% of capacity")


PANELS = {"bars": _bars_panel, "sync": _sync_panel, "loss": _loss_panel}


def coscheduling_figure(table_: pd.DataFrame, spec: FigureSpec, machine_names: dict[str, str]) -> Figure:
    """Panel (a) machine A, (b) machine B, like the paper's figures."""
    figure = Figure(figsize=(11.0, 4.2), layout="constrained")
    for letter, (axes, machine) in zip("ab", zip(figure.subplots(1, 2), MACHINES)):
        PANELS[spec.kind](axes, table_, spec, machine)
        axes.set_title(f"({letter}) {machine_names[machine]}")
        axes.set_ylabel(spec.unit)
        axes.set_xlabel("B utilization" if spec.series == "load" else "paired proportion")
        if spec.kind != "bars":
            axes.set_xlabel(axes.get_xlabel() + " / remote scheme")
        axes.set_ylim(bottom=0)  # an interval's lower end below 0 means nothing for these metrics
        axes.grid(True, axis="y", alpha=0.3)
        axes.legend(fontsize="small")
    figure.suptitle(f"Fig. {spec.number} (ours): {spec.title}; means over replications, bars = 95 % CI")
    return figure


# --- tables ----------------------------------------------------------------------------------

TABLE_COLUMNS = ("mean_wait", "mean_slowdown", "mean_bsld", "mean_sync", "su_loss_hours", "su_loss_share", "paired_share")


def results_table(table_: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Every release-on point: mean ± CI half-width of each metric (waits and sync in minutes)."""
    header = ["series", "x", "scheme", "machine", "n", "wait (min)", "slowdown", "bsld", "sync (min)",
              "SU loss (node-h)", "SU loss (%)", "paired (%)", "deadlocks"]
    rows = []
    for _, r in table_[table_["release"]].iterrows():
        def fmt(metric, scale=1.0, digits=1):
            mean, half = r[metric] / scale, r[f"{metric}_ci"] / scale
            if np.isnan(mean):
                return "-"
            return f"{mean:.{digits}f}" + ("" if np.isnan(half) else f" ± {half:.{digits}f}")
        rows.append([
            r["series"], x_label(r["series"], r["x"]), r["scheme"], r["machine"], str(r["replications"]),
            fmt("mean_wait", SECONDS_PER_MINUTE), fmt("mean_slowdown"), fmt("mean_bsld"),
            fmt("mean_sync", SECONDS_PER_MINUTE), fmt("su_loss_hours", 1.0, 0), fmt("su_loss_share", 0.01, 2),
            fmt("paired_share", 0.01, 1), str(r["deadlocks"]),
        ])
    return header, rows


def deadlock_table(table_: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Deadlocked runs out of all runs, per scheme combination, release on and off; for
    release off also per B load (the release-off runs are of the load series)."""
    header = ["scheme", "release", "runs", "deadlocked runs", "deadlocked by B load"]
    rows = []
    machine_a = table_[table_["machine"] == "A"]
    for (scheme, release), group in machine_a[machine_a["scheme"] != "base"].groupby(["scheme", "release"], sort=True):
        by_load = "-"
        if not release:
            by_load = ", ".join(
                f"{x:.2f}: {int(d)}/{int(n)}" + (f" (earliest day {day:.1f})" if d else "")
                for x, d, n, day in zip(group["x"], group["deadlocks"], group["replications"], group["first_deadlock_day"])
            )
        rows.append([scheme, "on" if release else "off", str(int(group["replications"].sum())),
                     str(int(group["deadlocks"].sum())), by_load])
    return header, rows


def latex_table(header, rows) -> str:
    def escape(text: str) -> str:
        return str(text).replace("\\", r"\textbackslash{}").replace("%", r"\%").replace("_", r"\_").replace("±", r"$\pm$")
    lines = [r"\begin{tabular}{" + "l" * len(header) + "}", r"\hline", " & ".join(map(escape, header)) + r" \\", r"\hline"]
    lines += [" & ".join(escape(cell) for cell in row) + r" \\" for row in rows]
    lines += [r"\hline", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


# --- page ---------------------------------------------------------------------------------------


def report_tables(confidence: pd.DataFrame, runs: pd.DataFrame) -> dict[str, tuple[list[str], list[list[str]]]]:
    """The tables the report writes as CSV, Markdown and LaTeX (by file stem), beside ``runs.csv`` and the ledger."""
    return {"deadlocks": deadlock_table(confidence), "results": results_table(confidence),
            "workloads": workloads_table(runs)}


def claims_ledger(runs: pd.DataFrame, profile: str) -> pd.DataFrame:
    """The stage's claims judged on the per-seed runs table."""
    return ledger(PAPER, CLAIMS, {"runs": runs}, profile)


def _estimates(source: str, exact_share: float) -> str:
    if exact_share >= 1.0:
        return "exact estimates (requested time equals run time for every job)"
    return f"requested times {source} ({100 * exact_share:.0f} % of jobs exact)"


def workloads_table(runs: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Per point and machine: the load offered, the utilization reached and the paired share,
    means over the seeds of the baseline runs (the workloads are the same for every scheme)."""
    header = ["series", "x", "machine", "offered load", "achieved utilization", "paired (%)", "exact estimates (%)"]
    base = runs[(runs["scheme"] == "base") & runs["release"]]
    coscheduled = runs[(runs["scheme"] == "HH") & runs["release"]]
    paired_share = coscheduled.groupby(["series", "x", "machine"])["paired_share"].mean()
    rows = []
    for (series, x, machine), group in base.groupby(["series", "x", "machine"], sort=True):
        share = paired_share.get((series, x, machine), np.nan)
        rows.append([series, x_label(series, x), machine, f"{group['offered_load'].mean():.3f}",
                     f"{group['utilization'].mean():.3f}", "-" if np.isnan(share) else f"{100 * share:.1f}",
                     f"{100 * group['exact_estimate_share'].mean():.0f}"])
    return header, rows


def setup_items(parameters: dict, runs: pd.DataFrame) -> list[str]:
    """The setup section, every number from the parameters the runs used and the runs themselves."""
    profile, a, b, rules = parameters["profile"], parameters["machine_a"], parameters["machine_b"], parameters["coscheduling"]
    runs_a = runs[(runs["machine"] == "A") & (runs["scheme"] == "base")]
    offered_a = runs_a["offered_load"].mean()
    kind = "synthetic stand-in (not a real log)" if a["synthetic"] else f"real trace {a['source']}"
    b_loads = ", ".join(f"{x:g}" for x in profile["loads"])
    ratios = ", ".join(f"{100 * x:g} %" for x in profile["ratios"])
    release = (f"held nodes released every {rules['release_period'] / 60:g} min for jobs held >= "
               f"{rules['release_after'] / 60:g} min (lowest priority in that pass)")
    caps = (f"held-share cap {rules['max_held_share']:g} (1 = none), yield cap "
            f"{'none' if rules['max_yields'] is None else rules['max_yields']}")
    return [
        f"Profile {profile['name']}: seeds {', '.join(map(str, profile['seeds']))} for every scheme and the baseline "
        f"(common random numbers); hold-hold without release on seeds {', '.join(map(str, profile['deadlock_seeds']))} "
        f"at each B load.",
        f"Machine A: {kind}, {a['description']}; {a['jobs']:,} jobs over {profile['days']:g} days on {a['procs']:,} "
        f"nodes; offered load {offered_a:.3f}; {_estimates(a['estimate_source'], runs_a['exact_estimate_share'].mean())}.",
        f"Machine B: {b['procs']} nodes, jobs synthesized from a model fitted on {b['model_trace']}; "
        f"{_estimates(b['estimate_source'], runs.loc[runs['machine'] == 'B', 'exact_estimate_share'].mean())}. "
        f"By load: arrival gaps scaled to offered load {b_loads}, pairs by a {parameters['pairing_window_seconds']:g}-s "
        f"submit window. By ratio: A's job count and span at offered load {parameters['ratio_series_load']:g}, "
        f"{ratios} of jobs paired. Offered and achieved loads per point: workloads table below.",
        f"Both machines: {parameters['policy']}; {release}; {caps}.",
    ]


def report_page(
    title: str,
    setup: list[str],
    claims: pd.DataFrame,
    workloads: tuple[list[str], list[list[str]]],
    deadlocks: tuple[list[str], list[list[str]]],
    figures: list[FigureSpec],
    results: tuple[list[str], list[list[str]]],
) -> Document:
    blocks = [
        Heading("Setup"),
        BulletList(tuple((item,) for item in setup)),
        *ledger_blocks(claims, heading="Paper versus ours: claims ledger"),
        Heading("How each claim is measured"),
        table(("claim", "kind", "our statistic, from which table and columns", "tolerance"),
              [(row.claim_id, row.kind, row.measure, row.tolerance or "-") for row in claims.itertuples(index=False)]),
        Heading("Workloads: offered load, achieved utilization, pairs"),
        table(*workloads, right_aligned=range(3, len(workloads[0]))),
        Heading("Deadlock: periodic release on and off"),
        Paragraph((
            "A run deadlocks either by a circular wait, found as soon as it forms (held jobs whose mates can never "
            "fit beside the holds of that set: the run stops there, dated by that pass), or by a stall: jobs left "
            "that never started when the events ran out, dated by the arrival of the first job that never started. "
            "The day is the earliest over the seeds.",
        )),
        table(*deadlocks, right_aligned=(2, 3)),
        Heading("Figures"),
        *(FigureBlock(spec.stem, f"Fig. {spec.number}: {spec.title}") for spec in figures),
        Heading("All results (mean ± 95 % CI half-width over replications)"),
        table(*results, right_aligned=range(4, len(results[0]))),
    ]
    return Document(title, tuple(blocks))
