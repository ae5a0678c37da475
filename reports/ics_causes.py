"""Measured causes of the ICS claims our runs do not reproduce.

A claim judged anything but reproduced gets one sentence of what our runs measure behind
its statistic, every number a mean over the replication seeds of ``runs.csv`` (times at
full length, as the ledger gives them: compressed seconds times the compression): a mean
response split into queue wait and execution, a boost-conflict ratio into decisions and
conflicts per node, a turnaround beside the CPU share the scheme spent spinning, with the
processes resident per node that set the contention.  An undecided claim's cause is its
seeds' spread (``schedlab.reports.ledger.measured_causes``); a claim without a decomposition here
says so.
"""

from __future__ import annotations

import math

import pandas as pd

from schedlab.reports.causes import Cause, combined, measured_causes, row_causes
from schedlab.reports.ics_claims import (
    CLAIMS,
    ICS_SCHEMES,
    PROC_PAIRS,
    figure_runs,
    figure_schemes,
    full_length,
    per_seed_metric,
    reduction,
    synthetic_workloads,
)
from schedlab.reports.ledger import Results, interval, number_text

BLOCKING = ("SB", "PROC-B", "HYBRID")
SPINNING = ("PB", "PROC-S")
"""The ICS schemes of Tables 3-4 by how they wait (their BCR and FDR are the paper's)."""


TIMES = ("mean_response", "mean_wait", "mean_execution", "turnaround")
"""Metrics in (compressed) seconds: a cause gives them at full length, as the ledger does."""


def _mean(results: Results, figure: str, group: str, scheme: str, metric: str) -> float:
    """The mean over the seeds; a time in full-length seconds (``full_length``)."""
    values = (full_length if metric in TIMES else per_seed_metric)(results, figure, group, scheme, metric)
    return float(values.mean())


def _groups(results: Results, figure: str) -> list[str]:
    return list(dict.fromkeys(figure_runs(results, figure)["group"]))


def _response(results: Results, figure: str, group: str, scheme: str) -> str:
    """``scheme``'s mean response as wait + execution, its spin share and processes per node."""
    def mean(metric: str) -> float:
        return _mean(results, figure, group, scheme, metric)

    return (f"{scheme} {number_text(mean('mean_response'))} s = wait {number_text(mean('mean_wait'))} + execution "
            f"{number_text(mean('mean_execution'))} (spinning {100 * mean('share_spin'):.0f} % of CPU, "
            f"{mean('processes_per_node'):.2f} processes per node)")


def response_split(figure: str, groups: tuple[str, ...] | None = None, schemes: tuple[str, ...] | None = None) -> Cause:
    """Mean response of each scheme at each group, split into wait and execution."""
    def cause(results: Results, parameters: dict) -> str:
        lines = []
        for group in groups or _groups(results, figure):
            chosen = schemes or tuple(figure_schemes(results, figure, group))
            lines.append(f"{figure} {group}: " + "; ".join(_response(results, figure, group, s) for s in chosen))
        return ". ".join(lines) + "."
    return cause


def conflicts(figure: str, group: str, schemes: tuple[str, ...]) -> Cause:
    """BCR = conflicts / decisions and FDR = false decisions / conflicts, as counts per run."""
    def cause(results: Results, parameters: dict) -> str:
        def mean(scheme: str, metric: str) -> float:
            return _mean(results, figure, group, scheme, metric)

        parts = [f"{s}: {mean(s, 'boost_conflicts'):,.0f} conflicts in {mean(s, 'decisions'):,.0f} decisions per run "
                 f"(BCR {100 * mean(s, 'bcr'):.1f} % per-node mean, {100 * mean(s, 'bcr_pooled'):.1f} % pooled), "
                 f"{mean(s, 'false_decisions'):,.0f} false (FDR {100 * mean(s, 'fdr'):.1f} %; "
                 f"a random pick among the conflicting processes {100 * mean(s, 'fdr_chance'):.1f} %), "
                 f"{mean(s, 'processes_per_node'):.2f} processes per node" for s in schemes]
        return f"{figure} {group}: " + "; ".join(parts) + "."
    return cause


def series(figure: str, metric: str, schemes: tuple[str, ...], scale: float = 1.0, unit: str = "") -> Cause:
    """``metric`` of each scheme at every group of ``figure``, in the figure's order."""
    def cause(results: Results, parameters: dict) -> str:
        groups = _groups(results, figure)
        parts = [f"{s} " + " -> ".join(f"{number_text(scale * _mean(results, figure, g, s, metric))}{unit}" for g in groups)
                 for s in schemes]
        return f"{figure} {metric} over {', '.join(groups)}: " + "; ".join(parts) + "."
    return cause


ARRIVALS_PREFIX = "heavy arrivals, factor "


def compression_gain(scheme: str, baseline: str) -> Cause:
    """What ``scheme`` cuts from ``baseline``'s mean response in the compression check's heavy arrivals, per factor."""
    def cause(results: Results, parameters: dict) -> str:
        runs = results["runs"]
        groups = [g for g in dict.fromkeys(runs.loc[runs["figure"] == "compression", "group"])
                  if g.startswith(ARRIVALS_PREFIX)]
        if not groups:
            return ""
        parts = []
        for group in groups:
            mean, low, high = interval(reduction(results, "compression", group, scheme, baseline, "mean_response"))
            parts.append(f"{mean:.1f} [{low:.1f}, {high:.1f}] % at factor {group.removeprefix(ARRIVALS_PREFIX)}")
        return (f"Compression check on Fig. 8's heavy arrivals, paired per seed: {scheme} cuts {baseline}'s mean "
                f"response by " + ", ".join(parts) + ".")
    return cause


def real_idle(results: Results, parameters: dict) -> str:
    parts = []
    for figure, load in (("fig7", "light"), ("fig8", "heavy")):
        shares = ", ".join(f"{s} {100 * _mean(results, figure, load, s, 'share_real_idle'):.1f} %"
                           for s in figure_schemes(results, figure, load))
        parts.append(f"{load}: {shares}")
    return "Share of CPU time really idle (no process resident): " + "; ".join(parts) + "."


def fairness(results: Results, parameters: dict) -> str:
    runs = figure_runs(results, "fig12")
    types = sorted(c.removeprefix("slowdown_") for c in runs.columns if c.startswith("slowdown_")
                   and runs[c].notna().any())
    parts = []
    for scheme in figure_schemes(results, "fig12", "wl5"):
        slowdowns = ", ".join(f"{t} {_mean(results, 'fig12', 'wl5', scheme, f'slowdown_{t}'):.2f}" for t in types)
        parts.append(f"{scheme} CV {_mean(results, 'fig12', 'wl5', scheme, 'fairness_cv'):.3f} ({slowdowns})")
    text = "fig12 wl5, CV of the per-type mean slowdowns (" + ", ".join(types) + "): " + "; ".join(parts) + "."
    return f"{text} {short_jobs(results, parameters)}"


def short_jobs(results: Results, parameters: dict) -> str:
    """fig12's jobs shorter than one gang quantum: how many, their slowdown beside the others', the CV without them."""
    runs = figure_runs(results, "fig12")
    quantum = parameters["model"]["costs_s"]["gang quantum"]
    floor = parameters["model"]["synthetic"]["min_iterations"]

    def mean(scheme: str, metric: str) -> float:
        return _mean(results, "fig12", "wl5", scheme, metric)

    def split(scheme: str) -> str:
        if math.isnan(mean(scheme, "long_job_slowdown")):
            return f"{scheme} {mean(scheme, 'short_job_slowdown'):.1f}, no job a quantum long"
        return (f"{scheme} {mean(scheme, 'short_job_slowdown'):.1f} against {mean(scheme, 'long_job_slowdown'):.2f}, "
                f"CV {mean(scheme, 'long_job_fairness_cv'):.3f} over the longer jobs")

    parts = [split(s) for s in figure_schemes(results, "fig12", "wl5")]
    return (f"At compression {runs['compression'].iloc[0]:g}, {100 * runs['short_job_fraction'].mean():.0f} % of the "
            f"measured jobs run shorter than one gang quantum ({quantum:g} s) on a dedicated machine "
            f"({100 * runs['lengthened_job_fraction'].mean():.0f} % lengthened to the {floor}-iteration floor); mean "
            "slowdown of those jobs against the longer ones: " + "; ".join(parts) + ".")


def npb(metric: str) -> Cause:
    def cause(results: Results, parameters: dict) -> str:
        parts = []
        for app in _groups(results, "fig13"):
            values = ", ".join(f"{s} {number_text(_mean(results, 'fig13', app, s, metric))} s "
                               f"({100 * _mean(results, 'fig13', app, s, 'share_spin'):.0f} % spin)"
                               for s in figure_schemes(results, "fig13", app))
            parts.append(f"{app}: {values}")
        return f"fig13 {metric}: " + "; ".join(parts) + "."
    return cause


def shares(metric: str, places: tuple[tuple[str, str], ...], schemes: tuple[str, ...] | None = None) -> Cause:
    """The CPU share ``metric`` of each scheme at each (figure, group), in per cent."""
    def cause(results: Results, parameters: dict) -> str:
        lines = []
        for figure, group in places:
            chosen = schemes or tuple(figure_schemes(results, figure, group))
            values = ", ".join(f"{s} {100 * _mean(results, figure, group, s, metric):.1f} %" for s in chosen)
            lines.append(f"{figure} {group}: {values}")
        return f"{metric.removeprefix('share_').replace('_', ' ')} share of CPU time: " + "; ".join(lines) + "."
    return cause


def npb_utilization(results: Results, parameters: dict) -> str:
    return shares("utilization", tuple(("fig13", app) for app in _groups(results, "fig13")))(results, parameters)


def workload_means(column: str, what: str) -> Cause:
    """A measured workload quantity per workload: mean [smallest-largest] over the seeds (``workloads``)."""
    def cause(results: Results, parameters: dict) -> str:
        table = synthetic_workloads(results)
        parts = []
        for (workload, load), rows in table.groupby(["workload", "load"], sort=False):
            values = rows.drop_duplicates("seed")[column].dropna()
            if len(values):
                parts.append(f"{workload} {load} {values.mean():,.0f} [{values.min():,.0f}-{values.max():,.0f}] s over "
                             f"{len(values)} seeds")
        return f"{what} of the sampled synthetic workloads (workloads.csv): " + "; ".join(parts) + "."
    return cause


FIG8 = ("fig8", ("heavy",))
LIGHT_AND_HEAVY = combined(response_split("fig7", ("light",)), response_split(*FIG8))
PROC_AND_BASES = tuple(s for pair in PROC_PAIRS for s in pair)
CONFLICTS_BY_LOAD = combined(conflicts("fig7", "light", ICS_SCHEMES), conflicts("fig8", "heavy", ICS_SCHEMES))
LOAD_PLACES = (("fig7", "light"), ("fig8", "heavy"))
FIG9 = response_split("fig9")
FIG10 = series("fig10", "mean_response", ("PB", "PROC-S", "SB", "PROC-B", "HYBRID", "GS"), unit=" s")
FIG11 = series("fig11", "turnaround", ("LOCAL", "DCS", *ICS_SCHEMES, "GS", "BATCH"), unit=" s")
FIG14_WASTE = combined(series("fig14", "share_spin", ICS_SCHEMES, 100.0, " %"),
                   series("fig14", "share_idle", ICS_SCHEMES, 100.0, " %"))
NUMBER_CAUSES: dict[str, Cause] = {
    "fig7-8-load-raises-response": LIGHT_AND_HEAVY,
    "fig7-8-load-raises-wait-most": LIGHT_AND_HEAVY,
    "fig7-8-compute-share-unchanged": shares("share_compute", LOAD_PLACES, ("LOCAL", "DCS", "BATCH")),
    "fig7-8-fragmentation": real_idle,
    "fig7-8-gs-batch-wait-longer": LIGHT_AND_HEAVY,
    "fig7-8-blocking-beats-spinning": LIGHT_AND_HEAVY,
    "fig7-8-proc-best-in-family": LIGHT_AND_HEAVY,
    "fig7-8-gain-grows-with-load": combined(response_split("fig7", ("light",), PROC_AND_BASES),
                                        response_split(*FIG8, PROC_AND_BASES)),
    "fig7-8-procb-best": LIGHT_AND_HEAVY,
    "fig8-procb-vs-sb": combined(response_split(*FIG8, ("PROC-B", "SB")), compression_gain("PROC-B", "SB")),
    "fig8-procb-vs-hybrid": combined(response_split(*FIG8, ("PROC-B", "HYBRID")), compression_gain("PROC-B", "HYBRID")),
    "fig8-procs-vs-pb": combined(response_split(*FIG8, ("PROC-S", "PB")), compression_gain("PROC-S", "PB")),
    "fig7-8-bcr-common": CONFLICTS_BY_LOAD,
    "fig7-8-proc-lower-fdr": CONFLICTS_BY_LOAD,
    "fig7-8-bcr-spinning-above-blocking": CONFLICTS_BY_LOAD,
    "fig7-8-hybrid-fdr-below-sb": CONFLICTS_BY_LOAD,
    "fig8-procb-fdr-vs-sb": conflicts("fig8", "heavy", ("PROC-B", "SB")),
    "fig8-procs-fdr-vs-pb": conflicts("fig8", "heavy", ("PROC-S", "PB")),
    "fig8-spin-idle-cut": response_split(*FIG8, PROC_AND_BASES),
    "fig7-8-proc-overhead": shares("share_overhead", LOAD_PLACES, PROC_AND_BASES),
    "fig9-local-dcs-batch-worst": FIG9,
    "fig9-local-dcs-batch-gap-grows": FIG9,
    "fig9-gs-above-ics": FIG9,
    "fig9-gs-gap-shrinks": FIG9,
    "fig9-wl1-little-difference": response_split("fig9", ("wl1", "wl2", "wl3"), ICS_SCHEMES),
    "fig9-gain-grows-with-intensity": response_split("fig9", ("wl1", "wl2", "wl3"), PROC_AND_BASES),
    "fig9-wl3-procb-vs-sb": response_split("fig9", ("wl3",), ("PROC-B", "SB")),
    "fig9-wl3-procb-vs-batch": response_split("fig9", ("wl3",), ("PROC-B", "BATCH")),
    "fig9-wl3-procb-vs-gs": response_split("fig9", ("wl3",), ("PROC-B", "GS")),
    "tab3-bcr-rises-with-communication": series("fig9", "bcr", ICS_SCHEMES, 100.0, " %"),
    "fig9-switching-rises": series("fig9", "share_switch", ICS_SCHEMES, 100.0, " %"),
    "fig9-wasted-time-rises": combined(series("fig9", "share_spin", ("DCS", "PB", "SB", "HYBRID"), 100.0, " %"),
                                   series("fig9", "share_idle", ("DCS", "PB", "SB", "HYBRID"), 100.0, " %")),
    "tab3-proc-lower-fdr": series("fig9", "fdr", ICS_SCHEMES, 100.0, " %"),
    "tab3-wl3-bcr-spinning": conflicts("fig9", "wl3", SPINNING),
    "tab3-wl3-bcr-blocking": conflicts("fig9", "wl3", BLOCKING),
    "local-dcs-behind-pb": combined(LIGHT_AND_HEAVY, response_split("fig9", schemes=("LOCAL", "DCS", "PB")),
                                npb("turnaround")),
    "fig10-execution-rises-with-mpl": series("fig10", "mean_execution", ICS_SCHEMES, unit=" s"),
    "fig10-wait-falls-with-mpl": series("fig10", "mean_wait", ICS_SCHEMES, unit=" s"),
    "fig10-response-falls-with-mpl": combined(series("fig10", "mean_wait", ICS_SCHEMES, unit=" s"),
                                          series("fig10", "mean_execution", ICS_SCHEMES, unit=" s")),
    "fig10-proc-better-at-every-mpl": FIG10,
    "fig10-mpl2-gain": response_split("fig10", ("MPL 2",), ("PROC-B", "SB", "HYBRID", "PROC-S", "PB")),
    "fig10-blocking-gap-grows-with-mpl": FIG10,
    "fig10-real-idle-falls-with-mpl": series("fig10", "share_real_idle", ICS_SCHEMES, 100.0, " %"),
    "tab4-bcr-rises-with-mpl": combined(series("fig10", "bcr", ICS_SCHEMES, 100.0, " %"),
                                    series("fig10", "processes_per_node", ICS_SCHEMES)),
    "fig10-proc-scales-best": FIG10,
    "fig11-skew-prolongs": combined(FIG11, series("fig11", "share_spin", ("LOCAL", "DCS", *ICS_SCHEMES, "GS", "BATCH"),
                                              100.0, " %")),
    "fig11-gs-batch-hurt-most": FIG11,
    "fig11-proc-robust": FIG11,
    "fig11-bcr-with-skew": series("fig11", "bcr", ICS_SCHEMES, 100.0, " %"),
    "fig11-proc-gain-with-skew": FIG11,
    "fig12-gs-fairest": fairness,
    "fig12-local-least-fair": fairness,
    "fig12-fairness-tiers": fairness,
    "fig13-proc-best-in-family": npb("turnaround"),
    "fig13-procb-best": npb("turnaround"),
    "fig13-local-dcs-low-utilization": npb_utilization,
    "fig13-gs-comparable-to-batch": npb("turnaround"),
    "fig13-gain-rises-with-intensity": npb("turnaround"),
    "fig13-procb-vs-batch": npb("turnaround"),
    "fig13-procs-vs-batch": npb("turnaround"),
    "fig13-blocking-beats-spinning": npb("turnaround"),
    "fig14-response-rises-with-rate": combined(series("fig14", "mean_wait", ("PB", "PROC-S", "SB", "PROC-B"), unit=" s"),
                                           series("fig14", "mean_execution", ("PB", "PROC-S", "SB", "PROC-B"), unit=" s")),
    "fig14-procb-best": response_split("fig14"),
    "fig14-procs-comparable-to-sb": response_split("fig14", schemes=("PROC-S", "SB")),
    "fig14-low-rate-small-differences": combined(response_split("fig14"), series("fig14", "processes_per_node",
                                                                             ("PB", "PROC-S", "SB", "PROC-B", "HYBRID",
                                                                              "GS"))),
    "fig14-bcr-rises-with-rate": series("fig14", "bcr", ICS_SCHEMES, 100.0, " %"),
    "fig14-proc-cuts-wasted-time": FIG14_WASTE,
    "cal-heavy-mean-gap": workload_means("mean_gap_s", "Mean gap between arrivals"),
    "cal-light-mean-gap": workload_means("mean_gap_s", "Mean gap between arrivals"),
    "cal-mean-runtime": workload_means("mean_runtime_s", "Mean dedicated run time"),
}
"""The numbers a decomposition explains, by id (every one a claim of ``NUMBERS``)."""

CAUSES = row_causes(CLAIMS, NUMBER_CAUSES)
"""The ledger's rows a decomposition explains, by id: a sentence of several numbers gives its numbers' causes."""


def causes_frame(claims: pd.DataFrame, results: Results, parameters: dict) -> pd.DataFrame:
    """One row per claim not reproduced (nor left unattempted): its verdict and measured cause."""
    return measured_causes(claims, CLAIMS, CAUSES, results, parameters)
