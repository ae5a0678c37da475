"""Figures, tables and page of the coscheduling stage (paper Figs. 3-10, spec 000 targets).

The results and deadlock tables read the confidence table the pipeline makes from the runs:
one row per (series, x, scheme, release, machine) with the mean over replications and the
half-width of its 95 % interval (``<metric>_ci``).  Figures read the per-seed runs table (one
row per run and machine), because a scheme and the baseline ran on the same seeds: the
interval of their per-seed difference is the one that says whether coscheduling costs
anything, and only the seeds give it.  Only release-on rows make figures.  The claims ledger
(``schedlab.reports.cosched_claims``) reads the per-seed runs table too; the page's setup is generated
from ``parameters.json``, the parameters the runs used, as the pipeline wrote them.  Nothing
here imports the simulator.

Figure kinds, as in the paper:

``bars``  (Figs. 3, 4, 7, 8) one group per x, bars HH / HY / YH / YY, the baseline
          without coscheduling as a line over each group, each combination's extra over
          the baseline as a line with points on the right-hand axis;
``sync``  (Figs. 5, 9) one group per (x, remote scheme), bars local hold / local yield;
``loss``  (Figs. 6, 10) one group per (x, remote scheme), the loss of local hold only
          (yield holds nothing), node-hours left, share of capacity on the right axis.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from schedlab.reports.cosched_causes import causes_frame
from schedlab.reports.cosched_claims import CLAIMS, PAPER, PAPER_A_BASE_SLOWDOWN, combination
from schedlab.reports.document import BulletList, Document, Heading, Paragraph, render_html, render_markdown, table
from schedlab.reports.document import Figure as FigureBlock
from schedlab.reports.ledger import CONFIDENCE, interval, interval_text, ledger, ledger_blocks, write_ledger
from schedlab.reports.ledger_compare import moved
from schedlab.reports.tables import latex_table as shared_latex_table
from schedlab.reports.tables import publish_inputs

COMBINATIONS = ("HH", "HY", "YH", "YY")
BASELINE = "base"
REMOTE_SCHEMES = ("H", "Y")
MACHINES = ("A", "B")
SECONDS_PER_MINUTE = 60.0
PAIR_GAP = 0.6  # blank between the groups of two x values, in group widths
PAIR_LABEL_PAD = 20.0  # points: the x labels' row sits below the remote schemes' row
# inches: the ratio series has five x values, each labelled on two lines, where the load series has three
FIGURE_WIDTH = {"load": 11.0, "ratio": 14.0}


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


def _released(runs: pd.DataFrame, series: str) -> pd.DataFrame:
    """The runs one figure draws: release-on runs of its series (release off only feeds the deadlock table)."""
    return runs[runs["release"].astype(bool) & (runs["series"] == series)]


def _xs(runs: pd.DataFrame) -> list[float]:
    return sorted(runs["x"].unique())


def _per_seed(runs: pd.DataFrame, x: float, scheme: str, machine: str, metric: str) -> pd.Series:
    """One value per seed, indexed by seed, so that a scheme can be paired with the baseline on the seed."""
    rows = runs[(runs["x"] == x) & (runs["scheme"] == scheme) & (runs["machine"] == machine)]
    return rows.set_index("seed")[metric].dropna()


def _paired_difference(runs: pd.DataFrame, x: float, scheme: str, machine: str, metric: str) -> pd.Series:
    """Scheme minus baseline on the same seed.  Both ran the same workload (common random numbers),
    so the difference is free of the workload's own variation, which separate intervals of the two
    means would count (twice) as uncertainty of the effect.  Seeds only one of the two ran drop out."""
    return (_per_seed(runs, x, scheme, machine, metric) - _per_seed(runs, x, BASELINE, machine, metric)).dropna()


def _t_half_width(values: pd.Series) -> float:
    """Half-width of the ledger's Student-t interval of the mean; NaN below two values."""
    _, low, high = interval(values)
    return (high - low) / 2


def _error_lengths(half_widths: list[float]) -> np.ndarray:
    """A group without an interval draws no error bar rather than none of the figure."""
    return np.nan_to_num(np.array(half_widths, dtype=float))


def _tick_label(runs: pd.DataFrame, series: str, x: float) -> str:
    """The point as asked for and, below, what its workload holds: machine B's offered load for the
    load series (B's gaps are stretched to offer the label exactly; the utilization reached is in the
    workloads table), machine A's paired share for the ratio series (every k-th job in submit order,
    k = round(1 / ratio), so the share sits a little off the label)."""
    at_x = runs[runs["x"] == x]
    if series == "load":
        reached = f"offered {at_x.loc[at_x['machine'] == 'B', 'offered_load'].mean():.2f}"
    elif "paired_share" in runs:
        coscheduled_a = at_x[(at_x["machine"] == "A") & (at_x["scheme"] != BASELINE)]
        reached = f"paired {100 * coscheduled_a['paired_share'].mean():.1f}%"
    else:
        return x_label(series, x)
    return f"{x_label(series, x)}\n({reached})"


def _bars_panel(axes, runs: pd.DataFrame, spec: FigureSpec, machine: str) -> list:
    """Bars of each combination's mean with the paired interval of its difference to the baseline
    centred on the bar top; the baseline as a black line over each group; on the right-hand axis
    each combination's mean extra over the baseline (the paper's "line with points"), same interval."""
    xs = _xs(runs)
    width = 0.8 / len(COMBINATIONS)
    extra_axes = axes.twinx()
    extra_axes.axhline(0.0, color="grey", linewidth=0.6, linestyle=":")
    handles = []
    for k, scheme in enumerate(COMBINATIONS):
        colour = f"C{k}"
        positions = np.arange(len(xs)) - 0.4 + width * (k + 0.5)
        means = [_per_seed(runs, x, scheme, machine, spec.metric).mean() / spec.scale for x in xs]
        differences = [_paired_difference(runs, x, scheme, machine, spec.metric) / spec.scale for x in xs]
        errors = _error_lengths([_t_half_width(difference) for difference in differences])
        handles.append(axes.bar(positions, means, width, yerr=errors, capsize=2, color=colour, alpha=0.75,
                                label=scheme))
        extra_axes.errorbar(positions, [difference.mean() for difference in differences], yerr=errors,
                            color=colour, marker="o", markersize=4.5, markeredgecolor="white", linewidth=1.0,
                            elinewidth=0.7, capsize=1.5, label=f"{scheme} - {BASELINE}")
    baselines = [_per_seed(runs, x, BASELINE, machine, spec.metric).mean() / spec.scale for x in xs]
    baseline_lines = axes.hlines(baselines, np.arange(len(xs)) - 0.45, np.arange(len(xs)) + 0.45, colors="black",
                                 linewidth=1.5, label="baseline (no coscheduling)")
    extra_axes.set_ylabel(f"extra over baseline ({spec.unit})")
    axes.set_xticks(np.arange(len(xs)), [_tick_label(runs, spec.series, x) for x in xs])
    marker = Line2D([], [], color="grey", marker="o", markersize=4, linewidth=0.9,
                    label="extra over baseline: right axis, colour of the scheme, dotted = none")
    return [*handles, baseline_lines, marker]


def _pair_groups(runs: pd.DataFrame) -> tuple[list[tuple[float, str]], np.ndarray]:
    """Groups (x, remote scheme) and their positions: the two remote schemes of one x side by side,
    a gap between x values so that each x reads as one block."""
    xs = _xs(runs)
    groups = [(x, remote) for x in xs for remote in REMOTE_SCHEMES]
    block = len(REMOTE_SCHEMES) + PAIR_GAP
    positions = np.array([block * i + j for i in range(len(xs)) for j in range(len(REMOTE_SCHEMES))], float)
    return groups, positions


def _label_pair_groups(axes, runs: pd.DataFrame, spec: FigureSpec, positions: np.ndarray) -> None:
    """Two rows of tick labels: the remote scheme under each group, the x value (and what it reached)
    once under both groups of that x, so that no label repeats and none has to be squeezed."""
    axes.set_xticks(positions, REMOTE_SCHEMES * (len(positions) // len(REMOTE_SCHEMES)), minor=True)
    centres = positions.reshape(-1, len(REMOTE_SCHEMES)).mean(axis=1)
    axes.set_xticks(centres, [_tick_label(runs, spec.series, x) for x in _xs(runs)])
    axes.tick_params(axis="x", which="major", length=0, pad=PAIR_LABEL_PAD)


def _sync_panel(axes, runs: pd.DataFrame, spec: FigureSpec, machine: str) -> list:
    """Mean sync time of local hold and local yield per (x, remote scheme), interval over seeds."""
    groups, positions = _pair_groups(runs)
    handles = []
    for k, local in enumerate(("H", "Y")):
        values = [_per_seed(runs, x, combination(machine, local, remote), machine, spec.metric) / spec.scale
                  for x, remote in groups]
        handles.append(axes.bar(positions - 0.2 + 0.4 * k, [v.mean() for v in values], 0.4,
                                yerr=_error_lengths([_t_half_width(v) for v in values]), capsize=2,
                                label="local hold" if local == "H" else "local yield"))
    _label_pair_groups(axes, runs, spec, positions)
    return handles


def _capacity_share_per_unit(runs: pd.DataFrame, spec: FigureSpec, machine: str) -> float:
    """Share of the machine's capacity one displayed unit of loss is, from the runs that lost some
    (their loss and its share give the capacity); NaN when none lost anything."""
    lost = runs[(runs["machine"] == machine) & (runs[spec.metric] > 0)]
    return float((lost["su_loss_share"] * spec.scale / lost[spec.metric]).mean()) if len(lost) else np.nan


def _loss_panel(axes, runs: pd.DataFrame, spec: FigureSpec, machine: str) -> list:
    """Mean loss of local hold per (x, remote scheme), interval over seeds; yield holds nothing, so
    loses nothing.  The right-hand axis reads the same bars as a share of capacity."""
    groups, positions = _pair_groups(runs)
    values = [_per_seed(runs, x, combination(machine, "H", remote), machine, spec.metric) / spec.scale
              for x, remote in groups]
    bars = axes.bar(positions, [v.mean() for v in values], 0.5,
                    yerr=_error_lengths([_t_half_width(v) for v in values]), capsize=2, label="local hold")
    _label_pair_groups(axes, runs, spec, positions)
    share_per_unit = _capacity_share_per_unit(runs, spec, machine)
    if np.isfinite(share_per_unit) and share_per_unit > 0:
        secondary = axes.secondary_yaxis("right", functions=(lambda v: 100 * v * share_per_unit,
                                                             lambda p: p / (100 * share_per_unit)))
        secondary.set_ylabel("% of capacity")
    return [bars]


PANELS = {"bars": _bars_panel, "sync": _sync_panel, "loss": _loss_panel}


def _statistics_line(runs: pd.DataFrame, spec: FigureSpec) -> str:
    """What the bars and their error bars are, with the number of seeds the data hold."""
    level = f"{100 * CONFIDENCE:g} %"
    interval = "of the per-seed difference to the baseline" if spec.kind == "bars" else "over seeds"
    return f"bars: means over {runs['seed'].nunique()} seeds; error bars: {level} t-interval {interval}"


def coscheduling_figure(runs: pd.DataFrame, spec: FigureSpec, machine_names: dict[str, str]) -> Figure:
    """Panel (a) machine A, (b) machine B, like the paper's figures, drawn from the per-seed runs
    table (one row per run and machine): the intervals need the seeds, paired where a baseline is."""
    released = _released(runs, spec.series)
    figure = Figure(figsize=(FIGURE_WIDTH[spec.series], 4.6), layout="constrained")
    for letter, (axes, machine) in zip("ab", zip(figure.subplots(1, 2), MACHINES)):
        handles = PANELS[spec.kind](axes, released, spec, machine)
        axes.set_title(f"({letter}) {machine_names[machine]}")
        axes.set_ylabel(spec.unit)
        axes.set_xlabel("B load" if spec.series == "load" else "paired proportion")
        if spec.kind != "bars":
            axes.set_xlabel(axes.get_xlabel() + "; remote scheme H hold, Y yield")
        axes.set_ylim(bottom=0)  # an interval's lower end below 0 means nothing for these metrics
        axes.grid(True, axis="y", alpha=0.3)
        axes.tick_params(axis="x", which="both", labelsize="small")  # two-line labels, five side by side
    figure.legend(handles=handles, loc="outside lower center", ncols=len(handles), fontsize="small", frameon=False)
    figure.suptitle(f"Fig. {spec.number} (ours): {spec.title}\n{_statistics_line(released, spec)}", fontsize="medium")
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
    """Deadlocked runs out of all runs, per scheme combination with the release on (both
    series together), and per series with it off (hold-hold only), there also per point."""
    header = ["scheme", "release", "series", "runs", "deadlocked runs", "deadlocked by point"]
    rows = []
    machine_a = table_[(table_["machine"] == "A") & (table_["scheme"] != "base")]
    for (scheme, release), group in machine_a.groupby(["scheme", "release"], sort=True):
        if release:
            rows.append([scheme, "on", "both", str(int(group["replications"].sum())),
                         str(int(group["deadlocks"].sum())), "-"])
            continue
        for series, points in group.groupby("series", sort=True):
            by_point = ", ".join(
                f"{x_label(series, x)}: {int(d)}/{int(n)}" + (f" (earliest day {day:.1f})" if d else "")
                for x, d, n, day in zip(points["x"], points["deadlocks"], points["replications"],
                                        points["first_deadlock_day"])
            )
            rows.append([scheme, "off", series, str(int(points["replications"].sum())),
                         str(int(points["deadlocks"].sum())), by_point])
    return header, rows


def latex_table(header, rows) -> str:
    """A (header, rows) table as a LaTeX tabular, by the project's shared writer (``schedlab.reports.tables``),
    which escapes LaTeX's special characters in every cell; the pipeline writes each table's .tex with it."""
    return shared_latex_table(pd.DataFrame([list(row) for row in rows], columns=list(header)))


# --- page ---------------------------------------------------------------------------------------


def report_tables(confidence: pd.DataFrame, runs: pd.DataFrame) -> dict[str, tuple[list[str], list[list[str]]]]:
    """The tables the report writes as CSV, Markdown and LaTeX (by file stem), beside ``runs.csv`` and the ledger."""
    return {"deadlocks": deadlock_table(confidence), "results": results_table(confidence),
            "workloads": workloads_table(runs)}


def claims_ledger(runs: pd.DataFrame, profile: str) -> pd.DataFrame:
    """The stage's claims judged on the per-seed runs table."""
    return ledger(PAPER, CLAIMS, {"runs": runs}, profile)


RATIO_ARRIVALS_EXPLAINED = {
    "own_model": "arriving at the model's own pace, its gaps stretched to A's span",
    "at_a_submits": "the k-th submitted at A's k-th submit time",
}
"""Where the ratio series' B jobs arrive, by reading (``schedlab.simulators.cosched.workloads.RATIO_ARRIVALS``)."""
RATIO_PAIRING_EXPLAINED = {
    "ratio_within_window": "each chosen job of A pairs with the nearest free job of B submitted within the window",
    "ratio": "every k-th job of A pairs with B's job of the same rank",
}


def variant_runs_judged(runs: pd.DataFrame, variant_runs: pd.DataFrame) -> pd.DataFrame:
    """The runs as the variant reading gives them: its ratio series in place of the default's."""
    return pd.concat([runs[runs["series"] != "ratio"], variant_runs], ignore_index=True)


def ratio_arrivals_table(claims: pd.DataFrame, runs: pd.DataFrame, variant_runs: pd.DataFrame,
                         parameters: dict) -> tuple[list[str], list[list[str]]]:
    """B's queue under each reading of the ratio series' arrivals, then every claim whose measurement moved,
    judged under each."""
    readings = parameters["ratio_series_arrivals"]
    labels = (readings["default"], readings["variant"])
    header = ["claim or quantity", f"verdict ({labels[0]})", f"measured ({labels[0]})", f"verdict ({labels[1]})",
              f"measured ({labels[1]})"]
    if variant_runs.empty:
        return header, []

    def b_wait(frame: pd.DataFrame, scheme: str) -> str:
        chosen = frame[(frame["series"] == "ratio") & (frame["scheme"] == scheme) & frame["release"]
                       & (frame["machine"] == "B")]
        mean, low, high = interval(chosen.groupby("seed")["mean_wait"].mean() / SECONDS_PER_MINUTE)
        return interval_text(mean, low, high, "min")

    rows = [[f"B's mean wait, {scheme} (over the paired shares)", "", b_wait(runs, scheme), "", b_wait(variant_runs, scheme)]
            for scheme in ("base", "HH")]
    other = claims_ledger(variant_runs_judged(runs, variant_runs), str(claims["profile"].iloc[0]))
    for row in moved(claims, other, labels).itertuples(index=False):
        rows.append([row[0], *row[1:5]])
    return header, rows


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


def _ratio_reading_text(parameters: dict, which: str) -> str:
    readings = parameters["ratio_series_arrivals"]
    reading = readings[which]
    return (f"'{reading}': {RATIO_ARRIVALS_EXPLAINED[reading]}; "
            f"{RATIO_PAIRING_EXPLAINED[readings['pairing'][reading]]}")


def _builtin_text(machine_b: dict) -> str:
    """Whether B's model is the one shipped with schedlab, standing in for a fit of the trace itself."""
    if not machine_b.get("model_builtin"):
        return ""
    return (f" (the fit shipped with schedlab, workloads/models/, standing in for {machine_b['model_trace']}'s own "
            "fit: the trace is not in the trace directories)")


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
        f"at each B load and each paired share.",
        f"Machine A: {kind}, {a['description']}; {a['jobs']:,} jobs over {profile['days']:g} days on {a['procs']:,} "
        f"nodes, Intrepid's (each job's share of the log's {a['source_procs']:,} nodes mapped onto them, below); "
        f"offered load {offered_a:.3f}; {_estimates(a['estimate_source'], runs_a['exact_estimate_share'].mean())}.",
        f"Machine B: {b['procs']} nodes, jobs synthesized from a model fitted on {b['model_trace']}"
        f"{_builtin_text(b)}; "
        f"{_estimates(b['estimate_source'], runs.loc[runs['machine'] == 'B', 'exact_estimate_share'].mean())}. "
        f"By load: arrival gaps scaled to offered load {b_loads}, pairs by a {parameters['pairing_window_seconds']:g}-s "
        f"submit window. By ratio: A's job count and span at offered load {parameters['ratio_series_load']:g}, "
        f"{_ratio_reading_text(parameters, 'default')}, {ratios} of jobs paired (named variant, reported beside it: "
        f"{_ratio_reading_text(parameters, 'variant')}). Offered and achieved loads per point: workloads table below.",
        f"Calibration, on the no-coscheduling baselines only: each of A's jobs takes its share of the log's nodes x "
        f"{a['width_scale']:g} x {a['procs']:,} nodes, rounded up to whole {a['partition_nodes']:,}-node partitions "
        f"(at most {a['largest_job_nodes']:,}; submit, run and requested times are the log's, whose month offers "
        f"load {a['offered_load_of_source']:.3f} on its own machine), the factor whose baseline mean wait is the "
        f"paper's {a['calibration_target_wait'] / 60:g} min (reached: {a['calibrated_base_wait'] / 60:.1f} min; "
        f"baseline mean slowdown {runs_a.loc[runs_a['series'] == 'load', 'mean_slowdown'].mean():.2f}, the paper's "
        f"{PAPER_A_BASE_SLOWDOWN:g}: the knob, widths rather than run times, was chosen on this "
        f"baseline slowdown, so that claim is calibration too); "
        f"B's jobs shorter than {b['min_runtime']:g} s left out, the cut whose baseline mean slowdown at load "
        f"{b['calibration_load']:g} over seeds {', '.join(map(str, b['calibration_seeds']))} is the paper's "
        f"{b['calibration_target_slowdown']:g} (reached: {b['calibrated_base_slowdown']:.2f}). The claims on these "
        "numbers are marked calibration; everything else is a prediction.",
        f"Both machines: {parameters['policy']}; {release}; {caps}; a job whose remote machine is mid-pass "
        f"{'yields whatever its scheme' if rules['yield_when_remote_busy'] else 'follows its scheme'} "
        "(holds and yields per machine and point: runs.csv).",
    ]


def report_page(
    title: str,
    setup: list[str],
    claims: pd.DataFrame,
    causes: tuple[list[str], list[list[str]]],
    workloads: tuple[list[str], list[list[str]]],
    deadlocks: tuple[list[str], list[list[str]]],
    figures: list[FigureSpec],
    results: tuple[list[str], list[list[str]]],
    ratio_arrivals: tuple[list[str], list[list[str]]],
    parameters: dict,
) -> Document:
    readings = parameters["ratio_series_arrivals"]
    blocks = [
        Heading("Setup"),
        BulletList(tuple((item,) for item in setup)),
        *ledger_blocks(claims, heading="Paper versus ours: claims ledger"),
        Heading("What does not reproduce, and the measured cause"),
        Paragraph((
            "Each claim not reproduced, with what our runs measure behind it (means over the seeds; "
            "causes.csv): the parts its statistic is made of, or its seeds' spread when undecided.",
        )),
        table(*causes),
        Heading("How each claim is measured"),
        table(("claim", "kind", "our statistic, from which table and columns", "tolerance"),
              [(row.claim_id, row.kind, row.measure, row.tolerance or "-") for row in claims.itertuples(index=False)]),
        Heading("Workloads: offered load, achieved utilization, pairs"),
        table(*workloads, right_aligned=range(3, len(workloads[0]))),
        Heading("Deadlock: periodic release on and off"),
        Paragraph((
            "A run deadlocks either by a circular wait, found as soon as it forms (held jobs whose mates can never "
            "fit beside the holds of that set: the run stops there, dated by that pass), or by a stall: both "
            "machines left with jobs that never started when the events ran out, dated by the last start on either "
            "machine, after which nothing ran anywhere. With the release on, a guard stops a run as a livelock "
            "when release rounds go round with every job submitted and nothing running or starting on either machine "
            "(the paper reports no such case). One machine left with unstarted jobs while the other kept "
            "starting is starvation, not deadlock (runs.csv: starved, last_start_day per machine). The day is the "
            "earliest over the seeds. Without the release, hold-hold runs on the load series (the paper's setting, "
            "which the claims judge) and on the ratio series, where the number of pairs grows.",
        )),
        table(*deadlocks, right_aligned=(2, 3)),
        Heading(f"Ratio series: where B's jobs arrive, '{readings['default']}' (default) beside '{readings['variant']}'"),
        Paragraph((
            "The paper gives the ratio series' B workload only A's job count and span. The same seeds ran under both "
            "readings of where its jobs arrive (setup above): B's mean wait (95 % interval over seeds), then every "
            "claim whose measurement moved, judged under each (ratio_arrivals.csv; the runs: ratio_arrivals_runs.csv)."
            if ratio_arrivals[1] else "This profile runs the ratio series under the default reading only.",
        )),
        table(*ratio_arrivals),
        Heading("Figures"),
        *(FigureBlock(spec.stem, f"Fig. {spec.number}: {spec.title}") for spec in figures),
        Heading("All results (mean ± 95 % CI half-width over replications)"),
        table(*results, right_aligned=range(4, len(results[0]))),
    ]
    return Document(title, tuple(blocks))


def rows_of(frame: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """A table as this page's tables are kept: its header and its rows."""
    return list(frame.columns), frame.values.tolist()


def write_report(directory, results: Mapping[str, pd.DataFrame], parameters: dict) -> pd.DataFrame:
    """The whole stage report in ``directory``; returns the claims ledger.

    ``results``: ``runs`` (one row per run), ``ratio_arrivals_runs`` (the ratio series under the variant
    reading of where B's jobs arrive; may be empty) and ``confidence`` (means and intervals per point).
    The runs and the parameters are written and read back (``parameters.json``, ``runs.csv``,
    ``ratio_arrivals_runs.csv``): the page shows exactly the published tables.  The figures'
    PNG and SVG files (``FIGURES``) are expected in ``directory`` already; the page links them.
    """
    directory = Path(directory)
    published = publish_inputs(directory, {"runs": results["runs"],
                                           "ratio_arrivals_runs": results["ratio_arrivals_runs"]}, parameters)
    parameters = json.loads((directory / "parameters.json").read_text(encoding="utf-8"))
    runs, variant_runs = published["runs"], published["ratio_arrivals_runs"]
    claims = claims_ledger(runs, parameters["profile"]["name"])
    write_ledger(directory, claims)
    tables = {**report_tables(results["confidence"], runs), "causes": rows_of(causes_frame(claims, {"runs": runs}, parameters)),
              "ratio_arrivals": ratio_arrivals_table(claims, runs, variant_runs, parameters)}
    for stem, (header, rows) in tables.items():
        pd.DataFrame(rows, columns=header).to_csv(directory / f"{stem}.csv", index=False, lineterminator="\n")
        (directory / f"{stem}.md").write_text(render_markdown(Document(stem, (table(header, rows),))), encoding="utf-8")
        (directory / f"{stem}.tex").write_text(latex_table(header, rows), encoding="utf-8")
    results["confidence"].to_csv(directory / "confidence.csv", index=False, lineterminator="\n")
    page = report_page(
        f"Coscheduling on coupled systems ({parameters['profile']['name']} profile)",
        setup_items(parameters, runs), claims, tables["causes"], tables["workloads"], tables["deadlocks"],
        list(FIGURES), tables["results"], tables["ratio_arrivals"], parameters,
    )
    (directory / "index.md").write_text(render_markdown(page), encoding="utf-8")
    (directory / "index.html").write_text(render_html(page), encoding="utf-8")
    return claims
