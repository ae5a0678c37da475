"""The claims ledger of the ics stage: Yu, Kim and Maeng's evaluation, statement by statement.

Paper: S. Yu, J. Kim and S. Maeng, "A runtime resolution scheme for priority boost
conflict in implicit coscheduling", Journal of Supercomputing (ClusterSchedSim on
CSIM19).  Its evaluation is Sect. 5 (Figs. 7-14, Tables 3-4); Sect. 6 adds a few numbers
of its own.  One row per statement of the paper: a sentence, or one printed number of a
sentence that gives several (the engine judges one paper value per row).  The loads,
schemes, workloads, applications and arrival rates a statement covers are the parts of
its row, every one of them tested.  Tables 3-4 and Fig. 12b are shown cell by cell beside
ours in the report's tables; the rows here are the statements the text makes of them.

Statements without a row of their own: Fig. 8a's full ranking PROC-B < HYBRID < SB <
PROC-S < PB is not in the text (the digest reads it off the figure) and restates the
three cuts and the blocking-beats-spinning row; "spinning keeps PROC-S from competing
with PROC-B" (Sect. 5.1) is a part of that row; explanations (why BCR is higher when
spinning, why GS suffers from skew, the MPL one or two behind Fig. 14's small differences)
and remarks on what was not run (backfilling would mitigate fragmentation, Sect. 5.1);
the uneven contention at v = 0 % (Sect. 5.4) points at Fig. 11c's cells; Sect. 6's
summaries restate Sect. 5's rows, and only its own numbers (66.8 % against GS, 78.9 % and
52.8 % of conflicts on wl3) have rows.

Every claim reads the stage's result tables only (``schedlab.reports.ics.read_results``):
``runs`` has one row per figure, group (the figure's coordinate: load, workload, MPL,
skew, application or arrival rate), scheme and seed, with that run's parameters and
metrics (``mean_response``, ``turnaround``, ``bcr`` and ``fdr`` as fractions,
``share_*`` CPU shares, ``fairness_cv`` ...); ``workloads`` (built by the report from the
inputs the runs used) has one row per figure, group and seed with the workload's
measured job count, mean gap, mean run time and offered load.  Every scheme of a figure
runs on the same seeds, so comparisons between schemes are paired per seed.  A claim
about a figure the profile does not run is not attempted, with that reason.

Units are the paper's: seconds of response or turnaround at full length (our compressed
seconds times the compression factor of the run), a cut or a lead in per cent of the
slower scheme's time, BCR, FDR and CPU shares in per cent.  The paper's sizes are judged
with the project's tolerances (``schedlab.reports.ledger``), chosen by how the paper gives its
number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd

from schedlab.reports.ledger import (
    APPROXIMATE_WORDS_TOLERANCE,
    APPROXIMATE_WORDS_WHY,
    FIGURE_READING_TOLERANCE,
    FIGURE_READING_WHY,
    TEXT_NUMBER_TOLERANCE,
    TEXT_NUMBER_WHY,
    Claim,
    Measurement,
    NotMeasured,
    Results,
    gathered,
    least_squares_slope,
    paired,
    part,
)

ICS_SCHEMES = ("PB", "PROC-S", "SB", "PROC-B", "HYBRID")
"""The five implicit-coscheduling schemes of Tables 3 and 4 (the paper's choice)."""
PROC_PAIRS = (("PROC-B", "SB"), ("PROC-S", "PB"))
"""Each PROC scheme and the existing scheme it reorders (Sect. 3): blocking and spinning."""
PROC_RIVALS = {"PROC-B": ("SB", "HYBRID"), "PROC-S": ("LOCAL", "DCS", "PB")}
"""The other schemes of each PROC scheme's family: blocking and spinning (Sect. 5.1's lists)."""
BLOCKING = ("SB", "HYBRID", "PROC-B")
SPINNING = ("LOCAL", "DCS", "PB", "PROC-S")
"""The paper's blocking- and spinning-based schemes (Sect. 5.1)."""
EXISTING_WITH_FDR = ("PB", "SB", "HYBRID")
"""The existing ICS schemes whose FDR the paper prints beside PROC's (Tables 3-4, Figs. 7c-8c)."""
WORKLOAD_INTENSITY = {"wl1": 1, "wl2": 2, "wl3": 3}
"""Rank of communication intensity of the single-type workloads (Fig. 6a: J1 < J2 < J3)."""
APP_INTENSITY = {"BT": 1, "MG": 2, "FT": 3, "IS": 4, "CG": 5}
"""Rank of communication intensity of the NPB applications (Sect. 5.6: BT < MG < FT < IS < CG)."""
LOADS = (("fig7", "light"), ("fig8", "heavy"))
"""Sect. 5.1's two experiments: wl4 under light (Fig. 7) and heavy (Fig. 8) load."""
COMMUNICATION_INTENSIVE_TYPE = "J3"
"""The communication-intensive job type of wl5 (Sect. 5.5)."""

PER_SEED = "per seed, on the same seeds for every scheme"
CUT = (-math.inf, 100.0)
"""A cut or lead in per cent of the slower time: at most 100, negative when the order is reversed."""
SHARE_POINTS = (-100.0, 100.0)
"""A difference of two percentages (BCR, FDR, CPU shares)."""
PERCENT = (0.0, 100.0)
RATIO = (0.0, math.inf)


def text_number(target: float) -> dict:
    """The size of a number printed in the paper's text or tables."""
    return {"target": target, "relative_tolerance": TEXT_NUMBER_TOLERANCE, "tolerance_why": TEXT_NUMBER_WHY}


def approximate_words(target: float) -> dict:
    """The size of a number the paper's words only approximate ('comparable', 'about')."""
    return {"target": target, "relative_tolerance": APPROXIMATE_WORDS_TOLERANCE, "tolerance_why": APPROXIMATE_WORDS_WHY}


def figure_reading(target: float) -> dict:
    """The size of a value read off a figure of the paper."""
    return {"target": target, "relative_tolerance": FIGURE_READING_TOLERANCE, "tolerance_why": FIGURE_READING_WHY}


# --- reading the result tables -----------------------------------------------------------

_INDEXED: dict[str, tuple[pd.DataFrame, dict, dict]] = {}
"""The last ``runs`` table read, split by figure and by (figure, group, scheme): a ledger reads well over a
thousand per-seed series, and filtering the whole table for each one made it take minutes.  Kept with the
table it splits, and rebuilt when another table comes."""


def _indexed(results: Results) -> tuple[dict, dict]:
    runs = results["runs"]
    cached = _INDEXED.get("runs")
    if cached is None or cached[0] is not runs:
        figures = dict(iter(runs.groupby("figure", sort=False)))
        points = dict(iter(runs.groupby(["figure", "group", "scheme"], sort=False)))
        cached = (runs, figures, points)
        _INDEXED["runs"] = cached
    return cached[1], cached[2]


def figure_runs(results: Results, figure: str) -> pd.DataFrame:
    chosen = _indexed(results)[0].get(figure)
    if chosen is None:
        raise NotMeasured(f"{figure} is not run in this profile (the paper profile runs it)")
    return chosen


def per_seed_metric(results: Results, figure: str, group: str, scheme: str, metric: str) -> pd.Series:
    """``metric`` of one point (figure, group, scheme), per seed."""
    rows = _indexed(results)[1].get((figure, group, scheme))
    if rows is None:
        figure_runs(results, figure)  # says so when the figure is not run at all
        raise NotMeasured(f"{figure}: no run of {scheme} at {group}")
    if rows["seed"].duplicated().any():
        raise ValueError(f"{figure} {group} {scheme}: several runs per seed")
    return pd.Series(rows[metric].to_numpy(dtype=float), index=rows["seed"].to_numpy(dtype=int),
                     name=metric).sort_index()


def full_length(results: Results, figure: str, group: str, scheme: str, metric: str) -> pd.Series:
    """Per seed, a time of ``metric`` in full-length seconds: compressed seconds times the run's compression."""
    return (per_seed_metric(results, figure, group, scheme, metric)
            * per_seed_metric(results, figure, group, scheme, "compression"))


def figure_schemes(results: Results, figure: str, group: str) -> list[str]:
    frame = figure_runs(results, figure)
    return list(dict.fromkeys(frame.loc[frame["group"] == group, "scheme"]))


def figure_groups(results: Results, figure: str) -> list[str]:
    return list(dict.fromkeys(figure_runs(results, figure)["group"]))


def present(results: Results, figure: str, group: str, schemes: Sequence[str]) -> list[str]:
    """``schemes`` that the figure runs (Fig. 10 has no LOCAL, DCS or BATCH; Fig. 14 no LOCAL or DCS)."""
    run = set(figure_schemes(results, figure, group))
    return [s for s in schemes if s in run]


def others(results: Results, figure: str, group: str, excluded: Sequence[str]) -> list[str]:
    return [s for s in figure_schemes(results, figure, group) if s not in excluded]


def metric_table(results: Results, figure: str, group: str, schemes: Sequence[str], metric: str) -> pd.DataFrame:
    """``metric`` per seed (rows) and scheme (columns); every scheme on the same seeds."""
    if not schemes:
        raise NotMeasured(f"{figure} {group}: none of the schemes compared is run")
    columns = {s: per_seed_metric(results, figure, group, s, metric) for s in schemes}
    seeds = [tuple(series.index) for series in columns.values()]
    if len(set(seeds)) != 1:
        raise ValueError(f"{figure} {group}: schemes compared on different seeds: {dict(zip(schemes, seeds))}")
    return pd.concat(columns, axis=1)


def reduction(results: Results, figure: str, group: str, scheme: str, baseline: str, metric: str) -> pd.Series:
    """Per seed, the per cent by which ``scheme`` lowers ``metric`` against ``baseline`` (NaN for 0 / 0)."""
    return -100.0 * paired(per_seed_metric(results, figure, group, scheme, metric),
                           per_seed_metric(results, figure, group, baseline, metric), "relative")


def lead(lower: pd.DataFrame, higher: pd.DataFrame) -> pd.Series:
    """Per seed, the per cent by which the largest of ``lower`` lies below the smallest of ``higher``:
    100 (1 - max lower / min higher), positive only when every column of ``lower`` lies below every one of
    ``higher`` (a faster scheme's lead, in per cent of the slower one's time)."""
    return 100.0 * (1.0 - lower.max(axis=1) / higher.min(axis=1))


def gap(higher: pd.DataFrame, lower: pd.DataFrame, scale: float = 1.0) -> pd.Series:
    """Per seed, the smallest of ``higher`` minus the largest of ``lower`` (times ``scale``): positive only
    when every column of ``higher`` lies above every one of ``lower``."""
    return scale * (higher.min(axis=1) - lower.max(axis=1))


def spread(table: pd.DataFrame) -> pd.Series:
    """Per seed, how far the largest column lies above the smallest, in per cent of the smallest."""
    return 100.0 * (table.max(axis=1) / table.min(axis=1) - 1.0)


def trend(points: Mapping[float, pd.Series]) -> pd.Series:
    """Per seed, the least-squares slope of the per-seed values against the keys (MPL, intensity rank, rate)."""
    seeds = {tuple(series.index) for series in points.values()}
    if len(seeds) != 1:
        raise ValueError(f"a trend needs every point on the same seeds: {sorted(seeds)}")
    table = pd.concat(points, axis=1)
    xs = list(points)
    return pd.Series({seed: least_squares_slope(xs, row.to_numpy()) for seed, row in table.iterrows()}, dtype=float)


def group_of(results: Results, figure: str, column: str, value) -> str:
    frame = figure_runs(results, figure)
    groups = frame.loc[frame[column] == value, "group"].unique()
    if len(groups) != 1:
        raise NotMeasured(f"{figure}: no single group with {column} = {value}")
    return str(groups[0])


def measured(*labelled: tuple[str, pd.Series]) -> Measurement:
    return Measurement(tuple(part(label, series) for label, series in labelled))


def wasted(results: Results, figure: str, group: str, scheme: str) -> pd.Series:
    """Per seed, CPU time spent spinning or idle waiting for messages: (spin + idle share) x turnaround."""
    share = (per_seed_metric(results, figure, group, scheme, "share_spin")
             + per_seed_metric(results, figure, group, scheme, "share_idle"))
    return share * full_length(results, figure, group, scheme, "turnaround")


def wasted_cut(results: Results, figure: str, group: str, scheme: str, baseline: str) -> pd.Series:
    return -100.0 * paired(wasted(results, figure, group, scheme), wasted(results, figure, group, baseline), "relative")


def intensity_groups(results: Results, figure: str, ranks: Mapping[str, int]) -> dict[str, int]:
    groups = set(figure_groups(results, figure))
    chosen = {group: rank for group, rank in ranks.items() if group in groups}
    if len(chosen) < 2:
        raise NotMeasured(f"{figure}: fewer than two intensities run")
    return chosen


def mpl_groups(results: Results) -> dict[int, str]:
    mpls = sorted(int(m) for m in figure_runs(results, "fig10")["mpl"].unique())
    return {mpl: group_of(results, "fig10", "mpl", mpl) for mpl in mpls}


def rate_groups(results: Results) -> dict[float, str]:
    """Fig. 14's groups by arrival rate (jobs per second), lowest first."""
    frame = figure_runs(results, "fig14").drop_duplicates("group")
    rates = {1.0 / float(gap_s): str(group) for group, gap_s in zip(frame["group"], frame["mean_interarrival"])}
    return dict(sorted(rates.items()))


def skew_groups(results: Results) -> tuple[str, str]:
    return group_of(results, "fig11", "skew", 0.0), group_of(results, "fig11", "skew", 0.6)


# --- Sect. 5.1: Figs. 7 and 8, wl4 under light and heavy load -----------------------------

def load_raises_response(results):
    return measured(*((s, full_length(results, "fig8", "heavy", s, "mean_response")
                       - full_length(results, "fig7", "light", s, "mean_response"))
                      for s in figure_schemes(results, "fig8", "heavy")))


def load_raises_wait_most(results):
    def rise(scheme, metric):
        return full_length(results, "fig8", "heavy", scheme, metric) - full_length(results, "fig7", "light", scheme, metric)

    return measured(*((s, rise(s, "mean_wait") - rise(s, "mean_execution"))
                      for s in figure_schemes(results, "fig8", "heavy")))


def compute_share_unchanged(results):
    return measured(*((s, paired(per_seed_metric(results, "fig8", "heavy", s, "share_compute"),
                                 per_seed_metric(results, "fig7", "light", s, "share_compute"), "relative") + 1.0)
                      for s in ("LOCAL", "DCS", "BATCH")))


def fragmentation(results):
    labelled = []
    for scheme in ("GS", "BATCH"):
        for figure, load in LOADS:
            rest = others(results, figure, load, ("GS", "BATCH"))
            labelled.append((f"{scheme} {load}", gap(metric_table(results, figure, load, [scheme], "share_real_idle"),
                                                     metric_table(results, figure, load, rest, "share_real_idle"), 100.0)))
    return measured(*labelled)


def gs_batch_wait_longer(results):
    labelled = []
    for scheme in ("GS", "BATCH"):
        for figure, load in LOADS:
            labelled.append((f"{scheme} {load}", lead(metric_table(results, figure, load, ICS_SCHEMES, "mean_wait"),
                                                      metric_table(results, figure, load, [scheme], "mean_wait"))))
    return measured(*labelled)


def blocking_beats_spinning(results):
    return measured(*((load, lead(metric_table(results, figure, load, BLOCKING, "mean_response"),
                                  metric_table(results, figure, load, SPINNING, "mean_response")))
                      for figure, load in LOADS))


def proc_leads_family(figure_groups_: Sequence[tuple[str, str, str]], metric: str):
    """Each PROC scheme's lead over the other schemes of its family that the figure runs, at every group."""
    def compute(results):
        labelled = []
        for scheme, rivals in PROC_RIVALS.items():
            for figure, group, label in figure_groups_:
                labelled.append((f"{scheme} {label}", lead(
                    metric_table(results, figure, group, [scheme], metric),
                    metric_table(results, figure, group, present(results, figure, group, rivals), metric))))
        return measured(*labelled)
    return compute


def procb_best(results):
    return measured(*((load, lead(metric_table(results, figure, load, ["PROC-B"], "mean_response"),
                                  metric_table(results, figure, load, others(results, figure, load, ["PROC-B"]),
                                               "mean_response")))
                      for figure, load in LOADS))


def heavy_reduction(scheme, baseline, metric="mean_response"):
    def compute(results):
        return measured((f"{scheme} vs {baseline}", reduction(results, "fig8", "heavy", scheme, baseline, metric)))
    return compute


def gain_grows_with_load(results):
    return measured(*((f"{scheme} vs {base}",
                       reduction(results, "fig8", "heavy", scheme, base, "mean_response")
                       - reduction(results, "fig7", "light", scheme, base, "mean_response"))
                      for scheme, base in PROC_PAIRS))


def bcr_common(results):
    return measured(*((f"{scheme} / {base} {load}",
                       paired(per_seed_metric(results, figure, load, scheme, "bcr"),
                              per_seed_metric(results, figure, load, base, "bcr"), "relative") + 1.0)
                      for scheme, base in PROC_PAIRS for figure, load in LOADS))


def proc_lower_fdr(figure_groups_: Sequence[tuple[str, str]]):
    def compute(results):
        return measured(*((group, gap(metric_table(results, figure, group, EXISTING_WITH_FDR, "fdr"),
                                      metric_table(results, figure, group, ("PROC-B", "PROC-S"), "fdr"), 100.0))
                          for figure, group in figure_groups_))
    return compute


def bcr_spinning_above_blocking(results):
    return measured(*((load, gap(metric_table(results, figure, load, ("PB", "PROC-S"), "bcr"),
                                 metric_table(results, figure, load, ("SB", "PROC-B", "HYBRID"), "bcr"), 100.0))
                      for figure, load in LOADS))


def hybrid_fdr_below_sb(results):
    return measured(*((load, 100.0 * paired(per_seed_metric(results, figure, load, "SB", "fdr"),
                                            per_seed_metric(results, figure, load, "HYBRID", "fdr")))
                      for figure, load in LOADS))


def spin_idle_cut(results):
    cuts = pd.concat([wasted_cut(results, "fig8", "heavy", scheme, base) for scheme, base in PROC_PAIRS], axis=1)
    return measured(("larger of PROC-B vs SB, PROC-S vs PB", cuts.max(axis=1)))


def proc_overhead(results):
    return measured(*((f"{scheme} vs {base} {load}",
                       100.0 * paired(per_seed_metric(results, figure, load, scheme, "share_overhead"),
                                      per_seed_metric(results, figure, load, base, "share_overhead")))
                      for scheme, base in PROC_PAIRS for figure, load in LOADS))


# --- Sect. 5.2: Fig. 9 and Table 3, communication intensity -------------------------------

WORST_AT_FIG9 = ("LOCAL", "DCS", "BATCH")


def fig9_worst(results):
    labelled = []
    for metric, name in (("mean_response", "response"), ("mean_wait", "wait")):
        for workload in intensity_groups(results, "fig9", WORKLOAD_INTENSITY):
            rest = others(results, "fig9", workload, WORST_AT_FIG9)
            labelled.append((f"{name}, {workload}", lead(metric_table(results, "fig9", workload, rest, metric),
                                                         metric_table(results, "fig9", workload, WORST_AT_FIG9, metric))))
    return measured(*labelled)


def excess_over_mean(results: Results, figure: str, group: str, scheme: str, reference: Sequence[str]) -> pd.Series:
    """Per seed, how far ``scheme``'s mean response lies above the mean of ``reference``'s, in per cent."""
    table = metric_table(results, figure, group, reference, "mean_response")
    return 100.0 * (per_seed_metric(results, figure, group, scheme, "mean_response") / table.mean(axis=1) - 1.0)


def fig9_worst_gap_grows(results):
    workloads = intensity_groups(results, "fig9", WORKLOAD_INTENSITY)

    def slope(scheme):
        return trend({rank: excess_over_mean(results, "fig9", w, scheme, others(results, "fig9", w, WORST_AT_FIG9))
                      for w, rank in workloads.items()})

    return measured(*((s, slope(s)) for s in WORST_AT_FIG9))


def gs_above_ics(results):
    return measured(*((w, lead(metric_table(results, "fig9", w, ICS_SCHEMES, "mean_response"),
                               metric_table(results, "fig9", w, ["GS"], "mean_response")))
                      for w in intensity_groups(results, "fig9", WORKLOAD_INTENSITY)))


def gs_gap_shrinks(results):
    workloads = intensity_groups(results, "fig9", WORKLOAD_INTENSITY)
    return measured(("GS", trend({rank: excess_over_mean(results, "fig9", w, "GS", ICS_SCHEMES)
                                  for w, rank in workloads.items()})))


def wl1_little_difference(results):
    def ics_spread(workload):
        return spread(metric_table(results, "fig9", workload, ICS_SCHEMES, "mean_response"))

    def proc_lead(scheme, rivals):
        return lead(metric_table(results, "fig9", "wl1", [scheme], "mean_response"),
                    metric_table(results, "fig9", "wl1", rivals, "mean_response"))

    return measured(
        ("spread of the five on wl2 minus on wl1", ics_spread("wl2") - ics_spread("wl1")),
        ("spread of the five on wl3 minus on wl1", ics_spread("wl3") - ics_spread("wl1")),
        ("PROC-B below SB, HYBRID on wl1", proc_lead("PROC-B", ("SB", "HYBRID"))),
        ("PROC-S below PB on wl1", proc_lead("PROC-S", ("PB",))),
    )


def gain_grows_with_intensity(figure: str, ranks: Mapping[str, int], metric: str):
    def compute(results):
        groups = intensity_groups(results, figure, ranks)
        return measured(*((f"{scheme} vs {base}",
                           trend({rank: reduction(results, figure, g, scheme, base, metric) for g, rank in groups.items()}))
                          for scheme, base in PROC_PAIRS))
    return compute


def share_rises_with_intensity(metrics: Sequence[str], schemes: Sequence[str]):
    """Per scheme, the slope of the CPU share of ``metrics`` (summed, in %) over Fig. 9's intensity ranks."""
    def compute(results):
        workloads = intensity_groups(results, "fig9", WORKLOAD_INTENSITY)

        def share(workload, scheme):
            return 100.0 * sum(per_seed_metric(results, "fig9", workload, scheme, m) for m in metrics)

        return measured(*((s, trend({rank: share(w, s) for w, rank in workloads.items()})) for s in schemes))
    return compute


def bcr_rises_with_communication(results):
    workloads = intensity_groups(results, "fig9", WORKLOAD_INTENSITY)
    return measured(*((s, trend({rank: 100.0 * per_seed_metric(results, "fig9", w, s, "bcr")
                                 for w, rank in workloads.items()}))
                      for s in ICS_SCHEMES))


def wl3_reduction(baseline):
    def compute(results):
        return measured((f"PROC-B vs {baseline}", reduction(results, "fig9", "wl3", "PROC-B", baseline, "mean_response")))
    return compute


def wl3_highest_bcr(schemes):
    def compute(results):
        table = metric_table(results, "fig9", "wl3", schemes, "bcr")
        return measured((f"highest of {', '.join(schemes)}", 100.0 * table.max(axis=1)))
    return compute


# --- Sect. 5.3: Fig. 10 and Table 4, multiprogramming level -------------------------------

def mpl_trend(metric: str, scale: float = 1.0, schemes: Sequence[str] | None = None):
    """Per scheme, the slope of ``metric`` (times ``scale``; times the compression for a time) over MPL."""
    def compute(results):
        groups = mpl_groups(results)
        chosen = schemes or figure_schemes(results, "fig10", next(iter(groups.values())))

        def value(group, scheme):
            if metric.startswith("mean_"):
                return full_length(results, "fig10", group, scheme, metric)
            return scale * per_seed_metric(results, "fig10", group, scheme, metric)

        return measured(*((s, trend({mpl: value(g, s) for mpl, g in groups.items()})) for s in chosen))
    return compute


def proc_better_at_every_mpl(results):
    return proc_leads_family([("fig10", group, f"at MPL {mpl}") for mpl, group in mpl_groups(results).items()],
                             "mean_response")(results)


def mpl2_gain(results):
    group = group_of(results, "fig10", "mpl", 2)
    comparisons = [(scheme, rival) for scheme, rivals in PROC_RIVALS.items()
                   for rival in present(results, "fig10", group, rivals)]
    table = pd.concat([reduction(results, "fig10", group, a, b, "mean_response") for a, b in comparisons], axis=1)
    return measured((f"largest of {', '.join(f'{a} vs {b}' for a, b in comparisons)} at MPL 2", table.max(axis=1)))


def blocking_gap_grows_with_mpl(results):
    def family_gap(group):
        spinning = metric_table(results, "fig10", group, present(results, "fig10", group, SPINNING), "mean_response")
        blocking = metric_table(results, "fig10", group, BLOCKING, "mean_response")
        return 100.0 * (1.0 - blocking.mean(axis=1) / spinning.mean(axis=1))

    return measured(("blocking's lead over spinning", trend({mpl: family_gap(g) for mpl, g in mpl_groups(results).items()})))


def proc_scales_best(results):
    groups = mpl_groups(results)
    low, high = groups[min(groups)], groups[max(groups)]

    def improvement(scheme):
        return reduction_between(results, scheme, high, low)

    schemes = figure_schemes(results, "fig10", high)
    rest = [s for s in schemes if s not in ("PROC-B", "PROC-S")]
    best_rest = pd.concat([improvement(s) for s in rest], axis=1).max(axis=1)
    return measured(*((f"{scheme} over the best of {', '.join(rest)}", improvement(scheme) - best_rest)
                      for scheme in ("PROC-B", "PROC-S")))


def reduction_between(results: Results, scheme: str, group: str, baseline_group: str) -> pd.Series:
    """Per seed, the per cent by which ``scheme``'s mean response at ``group`` lies below its own at ``baseline_group``."""
    return -100.0 * paired(per_seed_metric(results, "fig10", group, scheme, "mean_response"),
                           per_seed_metric(results, "fig10", baseline_group, scheme, "mean_response"), "relative")


def local_dcs_behind_pb(results):
    """PB's lead over the faster of LOCAL and DCS in every experiment of ours that runs the three."""
    places = [("fig7", "Fig. 7", "mean_response"), ("fig8", "Fig. 8", "mean_response"), ("fig9", "Fig. 9", "mean_response"),
              ("fig11", "Fig. 11", "turnaround"), ("fig12", "Fig. 12", "mean_response"), ("fig13", "Fig. 13", "turnaround")]
    labelled = []
    for figure, name, metric in places:
        if figure not in _indexed(results)[0]:
            continue
        for group in figure_groups(results, figure):
            labelled.append((f"{name} {group}", lead(metric_table(results, figure, group, ["PB"], metric),
                                                     metric_table(results, figure, group, ("LOCAL", "DCS"), metric))))
    if not labelled:
        raise NotMeasured("no experiment with LOCAL, DCS and PB is run in this profile")
    return measured(*labelled)


# --- Sect. 5.4: Fig. 11, task skew ---------------------------------------------------------

def skew_prolongs(results):
    even, skewed = skew_groups(results)
    schemes = figure_schemes(results, "fig11", even)
    turnaround = [(f"turnaround, {s}", full_length(results, "fig11", skewed, s, "turnaround")
                   - full_length(results, "fig11", even, s, "turnaround")) for s in schemes]
    waste = [(f"spin + idle time, {s}", wasted(results, "fig11", skewed, s) - wasted(results, "fig11", even, s))
             for s in schemes]
    return measured(*turnaround, *waste)


def turnaround_rise(results: Results, scheme: str) -> pd.Series:
    even, skewed = skew_groups(results)
    return 100.0 * paired(per_seed_metric(results, "fig11", skewed, scheme, "turnaround"),
                          per_seed_metric(results, "fig11", even, scheme, "turnaround"), "relative")


def gs_batch_hurt_most(results):
    even, _ = skew_groups(results)
    rest = others(results, "fig11", even, ("LOCAL", "GS", "BATCH"))
    largest = pd.concat([turnaround_rise(results, s) for s in rest], axis=1).max(axis=1)
    return measured(*((s, turnaround_rise(results, s) - largest) for s in ("GS", "BATCH")))


def proc_robust_to_skew(results):
    _, skewed = skew_groups(results)
    rivals = {"PROC-B": ("SB", "HYBRID"), "PROC-S": ("DCS", "PB")}
    return measured(*((f"{scheme} below {', '.join(rest)}", lead(
        metric_table(results, "fig11", skewed, [scheme], "turnaround"),
        metric_table(results, "fig11", skewed, rest, "turnaround"))) for scheme, rest in rivals.items()))


def proc_gain_with_skew(results):
    even, skewed = skew_groups(results)

    def gain(scheme, base, group):
        return reduction(results, "fig11", group, scheme, base, "turnaround")

    return measured(
        ("PROC-S's cut of PB, v = 60 % minus v = 0 %", gain("PROC-S", "PB", skewed) - gain("PROC-S", "PB", even)),
        ("PROC-B's cut of SB, v = 0 % minus v = 60 %", gain("PROC-B", "SB", even) - gain("PROC-B", "SB", skewed)),
        ("PROC-B's lead over the best other at v = 60 %", lead(
            metric_table(results, "fig11", skewed, ["PROC-B"], "turnaround"),
            metric_table(results, "fig11", skewed, others(results, "fig11", skewed, ["PROC-B"]), "turnaround"))),
    )


def bcr_with_skew(results):
    even, skewed = skew_groups(results)

    def rise(scheme):
        return 100.0 * paired(per_seed_metric(results, "fig11", skewed, scheme, "bcr"),
                              per_seed_metric(results, "fig11", even, scheme, "bcr"))

    return measured(*((f"{s} falls", -rise(s)) for s in ("SB", "PROC-B", "HYBRID")),
                    *((f"{s} rises", rise(s)) for s in ("PB", "PROC-S")))


# --- Sect. 5.5: Fig. 12, fairness on wl5 --------------------------------------------------

def fairness_cv(results: Results, schemes: Sequence[str]) -> pd.DataFrame:
    return metric_table(results, "fig12", "wl5", schemes, "fairness_cv")


def gs_fairest(results):
    rest = others(results, "fig12", "wl5", ["GS"])
    return measured((f"GS below {', '.join(rest)}", gap(fairness_cv(results, rest), fairness_cv(results, ["GS"]))))


def normalized_slowdown(results: Results, scheme: str, job_type: str) -> pd.Series:
    """Per seed, ``job_type``'s mean slowdown over that of the least-slowed type (Fig. 12a's unit)."""
    runs = figure_runs(results, "fig12")
    types = [c for c in runs.columns if c.startswith("slowdown_") and runs[c].notna().any()]
    table = pd.concat({c: per_seed_metric(results, "fig12", "wl5", scheme, c) for c in types}, axis=1)
    return table[f"slowdown_{job_type}"] / table.min(axis=1)


def local_least_fair(results):
    rest = others(results, "fig12", "wl5", ["LOCAL"])
    slowdowns = pd.concat({s: normalized_slowdown(results, s, COMMUNICATION_INTENSIVE_TYPE) for s in [*rest, "LOCAL"]},
                          axis=1)
    return measured(
        ("LOCAL's CV above the others'", lead(fairness_cv(results, rest), fairness_cv(results, ["LOCAL"]))),
        (f"{COMMUNICATION_INTENSIVE_TYPE}'s normalized slowdown under LOCAL above the others'",
         lead(slowdowns[rest], slowdowns[["LOCAL"]])),
    )


def fairness_tiers(results):
    return measured(
        ("PB, SB above PROC-B, HYBRID, PROC-S",
         gap(fairness_cv(results, ("PB", "SB")), fairness_cv(results, ("PROC-B", "HYBRID", "PROC-S")))),
        ("DCS above PB, SB", gap(fairness_cv(results, ["DCS"]), fairness_cv(results, ("PB", "SB")))),
    )


# --- Sect. 5.6: Figs. 13 and 14, NPB-like applications ------------------------------------

def npb_apps(results: Results) -> list[str]:
    return figure_groups(results, "fig13")


def npb_proc_best_in_family(results):
    return proc_leads_family([("fig13", app, app) for app in npb_apps(results)], "turnaround")(results)


def npb_procb_best(results):
    return measured(*((app, lead(metric_table(results, "fig13", app, ["PROC-B"], "turnaround"),
                                 metric_table(results, "fig13", app, others(results, "fig13", app, ["PROC-B"]),
                                              "turnaround")))
                      for app in npb_apps(results)))


def npb_blocking_beats_spinning(results):
    return measured(*((app, lead(metric_table(results, "fig13", app, BLOCKING, "turnaround"),
                                 metric_table(results, "fig13", app, ("DCS", "PB", "PROC-S"), "turnaround")))
                      for app in npb_apps(results)))


def npb_local_dcs_low_utilization(results):
    return measured(*((app, gap(metric_table(results, "fig13", app, others(results, "fig13", app, ("LOCAL", "DCS")),
                                             "utilization"),
                                metric_table(results, "fig13", app, ("LOCAL", "DCS"), "utilization"), 100.0))
                      for app in npb_apps(results)))


def npb_gs_against_batch(results):
    return measured(*((app, paired(per_seed_metric(results, "fig13", app, "GS", "turnaround"),
                                   per_seed_metric(results, "fig13", app, "BATCH", "turnaround"), "relative") + 1.0)
                      for app in npb_apps(results)))


def npb_best_vs_batch(scheme):
    def compute(results):
        table = pd.concat([reduction(results, "fig13", app, scheme, "BATCH", "turnaround") for app in npb_apps(results)],
                          axis=1)
        return measured((f"{scheme} vs BATCH, best application", table.max(axis=1)))
    return compute


def mix_trend(metric: str, schemes: Sequence[str] | None = None, scale: float = 1.0):
    """Per scheme, the slope of ``metric`` (times ``scale``) over Fig. 14's arrival rates (jobs per second)."""
    def compute(results):
        rates = rate_groups(results)
        chosen = schemes or figure_schemes(results, "fig14", next(iter(rates.values())))
        return measured(*((s, trend({rate: scale * per_seed_metric(results, "fig14", g, s, metric)
                                     for rate, g in rates.items()})) for s in chosen))
    return compute


def mix_procb_best(results):
    return measured(*((group, lead(metric_table(results, "fig14", group, ["PROC-B"], "mean_response"),
                                   metric_table(results, "fig14", group, others(results, "fig14", group, ["PROC-B"]),
                                                "mean_response")))
                      for group in rate_groups(results).values()))


def mix_procs_against_sb(results):
    return measured(*((group, paired(per_seed_metric(results, "fig14", group, "PROC-S", "mean_response"),
                                     per_seed_metric(results, "fig14", group, "SB", "mean_response"), "relative") + 1.0)
                      for group in rate_groups(results).values()))


def mix_low_rate_small_differences(results):
    rates = rate_groups(results)
    lowest, highest = rates[min(rates)], rates[max(rates)]

    def schemes_spread(group):
        return spread(metric_table(results, "fig14", group, figure_schemes(results, "fig14", group), "mean_response"))

    return measured((f"spread at {lowest} minus at {highest}", schemes_spread(lowest) - schemes_spread(highest)))


def mix_proc_cuts_wasted(results):
    rates = rate_groups(results)
    busier = [group for rate, group in rates.items() if rate > min(rates)]
    return measured(*((f"{scheme} vs {base} at {group}", wasted_cut(results, "fig14", group, scheme, base))
                      for group in busier for scheme, base in PROC_PAIRS))


# --- calibration: the workload constants chosen on the paper's means ------------------------

SYNTHETIC_FIGURES = ("fig7", "fig8", "fig9", "fig10", "fig11", "fig12")
"""The paper's synthetic experiments (the compression check is ours, not the paper's)."""


def synthetic_workloads(results: Results) -> pd.DataFrame:
    if "workloads" not in results:
        raise NotMeasured("no workloads table: the inputs the runs used were not measured")
    table = results["workloads"]
    chosen = table[(table["family"] == "synthetic") & table["figure"].isin(SYNTHETIC_FIGURES)]
    if chosen.empty:
        raise NotMeasured("no synthetic workload of the paper's figures is run in this profile")
    return chosen


def workload_parts(table: pd.DataFrame, label_columns: Sequence[str], value: str) -> Measurement:
    """One part per distinct workload (``label_columns``), its ``value`` per seed."""
    labelled = []
    for key, rows in table.groupby(list(label_columns), sort=False):
        key = key if isinstance(key, tuple) else (key,)
        per_workload = rows.drop_duplicates("seed").set_index("seed")[value].sort_index().astype(float)
        labelled.append((", ".join(str(k) for k in key), per_workload))
    return measured(*labelled)


def mean_gap(load: str):
    def compute(results):
        table = synthetic_workloads(results)
        arriving = table[(table["load"] == load) & ~table["simultaneous"].astype(bool)]
        if arriving.empty:
            raise NotMeasured(f"no synthetic workload arriving under {load} load is run in this profile")
        return workload_parts(arriving.assign(arrivals=f"{load} arrivals"), ("workload", "arrivals"), "mean_gap_s")
    return compute


def mean_runtime(results):
    table = synthetic_workloads(results).assign(
        arrivals=lambda t: t["simultaneous"].astype(bool).map({True: "all at time 0", False: "arriving"}))
    return workload_parts(table, ("workload", "arrivals"), "mean_runtime_s")


# --- the claims ---------------------------------------------------------------------------

def _lead_measure(what: str) -> str:
    return f"{what}: 100 (1 - faster / slower), {PER_SEED}; > 0 when every faster scheme beats every slower one"


CALIBRATION_WHY = ("the synthetic workloads' {knob} is chosen on this number of the paper, per sample or on the "
                   "Lublin-Feitelson model's expectation as the setup's reading of the stated means says "
                   "(schedlab.simulators.ics.workload); the row shows what the workloads the runs used realise")

NUMBERS = (
    # --- Sect. 5.1, Figs. 7 and 8 -------------------------------------------------------
    Claim("fig7-8-load-raises-response", "Sect. 5.1, Figs. 7a, 8a",
          "Every scheme's mean response is longer under heavy load than under light load.",
          "ordering", "much longer under heavy load, for all schemes (bars)",
          f"runs.csv mean_response x compression (full-length s), fig8 heavy minus fig7 light, {PER_SEED}; one part "
          "per scheme", load_raises_response, unit="s", link="fig8_response.png"),
    Claim("fig7-8-load-raises-wait-most", "Sect. 5.1, Figs. 7a, 8a",
          "Under heavy load the response grows mainly through the queue wait, not the execution, for every scheme.",
          "ordering", "mainly due to the waiting times (bars)",
          "runs.csv x compression (full-length s): rise of mean_wait minus rise of mean_execution from fig7 light to "
          f"fig8 heavy, {PER_SEED}; one part per scheme", load_raises_wait_most, unit="s", link="fig8_response.png"),
    Claim("fig7-8-compute-share-unchanged", "Sect. 5.1, Figs. 7b, 8b",
          "The load does not change the share of CPU time LOCAL, DCS and BATCH spend computing: they saturate "
          "already under light load.",
          "value", "unchanged (profile bars)",
          "runs.csv share_compute, fig8 heavy over fig7 light, per seed; one part per scheme",
          compute_share_unchanged, unit="x light load's", possible=RATIO, **figure_reading(1.0),
          link="fig8_profile.png"),
    Claim("fig7-8-fragmentation", "Sect. 5.1, Figs. 7b, 8b",
          "GS and BATCH leave more CPU time really idle (external fragmentation) than the time-sharing schemes.",
          "ordering", "larger real-idle share for GS and BATCH (profile bars)",
          "runs.csv share_real_idle (%): GS (BATCH) minus the largest of LOCAL, DCS, PB, PROC-S, SB, HYBRID, PROC-B, "
          "per seed; parts per scheme and load", fragmentation, unit="% points", possible=SHARE_POINTS,
          link="fig8_profile.png"),
    Claim("fig7-8-gs-batch-wait-longer", "Sect. 5.1, Figs. 7a, 8a",
          "Their allocation restrictions make jobs wait longer in the queue under GS and BATCH than under the five "
          "ICS schemes of Tables 3-4 (LOCAL and DCS, saturated, are the paragraph's other case).",
          "ordering", "higher job waiting times in GS and BATCH (bars)",
          _lead_measure("runs.csv mean_wait: the longest of PB, PROC-S, SB, HYBRID, PROC-B against GS (BATCH)")
          + "; parts per scheme and load", gs_batch_wait_longer, unit="%", possible=CUT, link="fig8_response.png"),
    Claim("fig7-8-blocking-beats-spinning", "Sect. 5.1, Figs. 7a, 8a",
          "Each blocking scheme (SB, HYBRID, PROC-B) responds faster than each spinning scheme (LOCAL, DCS, PB, "
          "PROC-S), at both loads.",
          "ordering", "blocking outperforms spinning in all cases",
          _lead_measure("runs.csv mean_response: the slowest blocking scheme against the fastest spinning one")
          + "; parts light and heavy", blocking_beats_spinning, unit="%", possible=CUT, link="fig8_response.png"),
    Claim("fig7-8-proc-best-in-family", "Sect. 5.1, Figs. 7a, 8a",
          "PROC-B responds faster than the other blocking schemes (SB, HYBRID) and PROC-S faster than the other "
          "spinning ones (LOCAL, DCS, PB), at both loads.",
          "ordering", "significant improvements over the other alternatives of each family",
          _lead_measure("runs.csv mean_response: the PROC scheme against the fastest other scheme of its family")
          + "; parts per PROC scheme and load",
          proc_leads_family([(f, load, load) for f, load in LOADS], "mean_response"), unit="%", possible=CUT,
          link="fig8_response.png"),
    Claim("fig7-8-gain-grows-with-load", "Sect. 5.1, Figs. 7a, 8a",
          "PROC's cut of the response of the scheme it reorders is larger under heavy load than under light load.",
          "trend", "more pronounced as the load rises",
          "runs.csv mean_response: per-seed cut (%) of PROC-B vs SB and PROC-S vs PB at heavy load minus the same at "
          "light load", gain_grows_with_load, unit="% points", link="fig8_response.png"),
    Claim("fig7-8-procb-best", "Sect. 5.1, Figs. 7a, 8a",
          "PROC-B has the shortest mean response of all nine schemes.",
          "ordering", "PROC-B performs the best",
          _lead_measure("runs.csv mean_response: PROC-B against the fastest other scheme") + "; parts light and heavy",
          procb_best, unit="%", possible=CUT, link="fig8_response.png"),
    Claim("fig8-procb-vs-sb", "Sect. 5.1, Fig. 8a",
          "Under heavy load PROC-B cuts SB's mean response by about two fifths.",
          "ordering", "42.3 % (up to)",
          f"runs.csv mean_response, fig8 heavy: 100 (1 - PROC-B / SB), {PER_SEED}", heavy_reduction("PROC-B", "SB"),
          unit="%", possible=CUT, **text_number(42.3), link="fig8_response.png"),
    Claim("fig8-procb-vs-hybrid", "Sect. 5.1, Fig. 8a",
          "Under heavy load PROC-B cuts HYBRID's mean response by about a third.",
          "ordering", "33.2 % (up to)",
          f"runs.csv mean_response, fig8 heavy: 100 (1 - PROC-B / HYBRID), {PER_SEED}",
          heavy_reduction("PROC-B", "HYBRID"), unit="%", possible=CUT, **text_number(33.2), link="fig8_response.png"),
    Claim("fig8-procs-vs-pb", "Sect. 5.1, Fig. 8a",
          "Under heavy load PROC-S cuts PB's mean response by over a quarter.",
          "ordering", "27.7 % (up to)",
          f"runs.csv mean_response, fig8 heavy: 100 (1 - PROC-S / PB), {PER_SEED}", heavy_reduction("PROC-S", "PB"),
          unit="%", possible=CUT, **text_number(27.7), link="fig8_response.png"),
    Claim("fig7-8-bcr-common", "Sect. 5.1, Figs. 7c, 8c",
          "Reordering leaves the boost conflict ratio as it is: each PROC scheme sees about the BCR of the scheme "
          "it reorders.",
          "value", "common results concerning BCR (e.g. Fig. 8c: PROC-B 42.73 %, SB 45.90 %; PROC-S 67.83 %, "
                   "PB 66.44 %)",
          "runs.csv bcr: PROC-B over SB and PROC-S over PB, per seed; parts per pair and load", bcr_common,
          unit="x the base scheme's", possible=RATIO, **approximate_words(1.0), link="fig8_bcr_fdr.md"),
    Claim("fig7-8-proc-lower-fdr", "Sect. 5.1, Figs. 7c, 8c",
          "Both PROC schemes make fewer false decisions than the existing ICS schemes (PB, SB, HYBRID), at both "
          "loads.",
          "ordering", "markedly low FDR values compared to the existing ICS schemes",
          "runs.csv fdr (%): the lowest of PB, SB, HYBRID minus the highest of PROC-B, PROC-S, per seed; parts light "
          "and heavy", proc_lower_fdr(LOADS), unit="% points", possible=SHARE_POINTS, link="fig8_bcr_fdr.md"),
    Claim("fig7-8-bcr-spinning-above-blocking", "Sect. 5.1, Figs. 7c, 8c",
          "The spinning schemes (PB, PROC-S) see more boost conflicts than the blocking ones (SB, PROC-B, HYBRID).",
          "ordering", "much higher BCR for spinning (e.g. Fig. 8c: 66.44-67.83 % against 42.73-45.90 %)",
          "runs.csv bcr (%): the lower of PB, PROC-S minus the highest of SB, PROC-B, HYBRID, per seed; parts light and "
          "heavy", bcr_spinning_above_blocking, unit="% points", possible=SHARE_POINTS, link="fig8_bcr_fdr.md"),
    Claim("fig7-8-hybrid-fdr-below-sb", "Sect. 5.1, Figs. 7c, 8c",
          "HYBRID makes slightly fewer false decisions than SB.",
          "ordering", "slightly lower FDR for HYBRID (e.g. Fig. 8c: 56.19 % against 62.71 %)",
          "runs.csv fdr (%): SB minus HYBRID, per seed; parts light and heavy", hybrid_fdr_below_sb,
          unit="% points", possible=SHARE_POINTS, link="fig8_bcr_fdr.md"),
    Claim("fig8-procb-fdr-vs-sb", "Sect. 5.1, Fig. 8c",
          "Under heavy load PROC-B makes about half as many false decisions per conflict as SB.",
          "ordering", "52.5 % lower FDR",
          f"runs.csv fdr, fig8 heavy: 100 (1 - PROC-B / SB), {PER_SEED} (NaN where SB had no boost conflict)",
          heavy_reduction("PROC-B", "SB", "fdr"), unit="%", possible=CUT, **text_number(52.5), link="fig8_bcr_fdr.md"),
    Claim("fig8-procs-fdr-vs-pb", "Sect. 5.1, Fig. 8c",
          "Under heavy load PROC-S makes about half as many false decisions per conflict as PB.",
          "ordering", "51.8 % lower FDR",
          f"runs.csv fdr, fig8 heavy: 100 (1 - PROC-S / PB), {PER_SEED} (NaN where PB had no boost conflict)",
          heavy_reduction("PROC-S", "PB", "fdr"), unit="%", possible=CUT, **text_number(51.8), link="fig8_bcr_fdr.md"),
    Claim("fig8-spin-idle-cut", "Sect. 5.1, Fig. 8b",
          "Under heavy load PROC's better conflict decisions cut the CPU time wasted spinning and idling by up to "
          "about 45 %.",
          "ordering", "up to 44.6 % less spin + idle time",
          "runs.csv (share_spin + share_idle) x turnaround, fig8 heavy: per seed the larger of 100 (1 - PROC-B / SB) "
          "and 100 (1 - PROC-S / PB) (the paper does not say which pair reaches 44.6 %)", spin_idle_cut,
          unit="%", possible=CUT, **text_number(44.6), link="fig8_profile.png"),
    Claim("fig7-8-proc-overhead", "Sect. 5.1, Figs. 7b, 8b",
          "PROC spends more CPU time on overheads than the scheme it reorders (updating the rescheduling-latency "
          "tables).",
          "ordering", "some additional overhead",
          "runs.csv share_overhead (%): PROC-B minus SB and PROC-S minus PB, per seed; parts per pair and load",
          proc_overhead, unit="% points", possible=SHARE_POINTS, link="fig8_profile.png"),
    # --- Sect. 5.2, Fig. 9 and Table 3 --------------------------------------------------
    Claim("fig9-local-dcs-batch-worst", "Sect. 5.2, Fig. 9",
          "On wl1-wl3 LOCAL, DCS and BATCH respond more slowly than the other schemes, mainly because their jobs "
          "wait longer.",
          "ordering", "poor response times, mainly a longer waiting time",
          _lead_measure("runs.csv mean_response and mean_wait, fig9: the slowest of PB, PROC-S, SB, HYBRID, PROC-B, GS "
                        "against the fastest of LOCAL, DCS, BATCH") + "; parts per metric and workload",
          fig9_worst, unit="%", possible=CUT, link="fig9_response.png"),
    Claim("fig9-local-dcs-batch-gap-grows", "Sect. 5.2, Fig. 9",
          "The more the workload communicates (wl1 < wl2 < wl3), the further LOCAL, DCS and BATCH fall behind.",
          "trend", "inefficiencies amplified with increasing communication intensity",
          "runs.csv mean_response, fig9: per seed the slope over the intensity ranks 1-3 of how far the scheme lies "
          "above the mean of PB, PROC-S, SB, HYBRID, PROC-B, GS (%); one part per scheme", fig9_worst_gap_grows,
          unit="% points per intensity step", link="fig9_response.png"),
    Claim("fig9-gs-above-ics", "Sect. 5.2, Fig. 9",
          "GS responds more slowly than the five ICS schemes on every one of wl1-wl3.",
          "ordering", "higher response than the five ICS schemes in all three workloads",
          _lead_measure("runs.csv mean_response, fig9: the slowest of PB, PROC-S, SB, HYBRID, PROC-B against GS")
          + "; one part per workload", gs_above_ics, unit="%", possible=CUT, link="fig9_response.png"),
    Claim("fig9-gs-gap-shrinks", "Sect. 5.2, Fig. 9",
          "GS's disadvantage shrinks as the computation share falls from wl1 to wl3.",
          "trend", "inefficiencies of GS less important from wl1 to wl3",
          "runs.csv mean_response, fig9: per seed the slope over the intensity ranks 1-3 of how far GS lies above the "
          "mean of the five ICS schemes (%)", gs_gap_shrinks, side="below", unit="% points per intensity step",
          link="fig9_response.png"),
    Claim("fig9-wl1-little-difference", "Sect. 5.2, Fig. 9a",
          "On the CPU-intensive wl1 the five ICS schemes respond about alike (less apart than on wl2 and wl3), PROC "
          "still marginally ahead of its family.",
          "ordering", "no significant difference on wl1; PROC marginally better",
          "runs.csv mean_response, fig9: spread of the five = 100 (slowest / fastest - 1) per seed, on wl2 (wl3) minus "
          "on wl1; and the PROC scheme's lead (%) over the other schemes of its family that are ICS, on wl1",
          wl1_little_difference, unit="%", possible=CUT, link="fig9_response.png"),
    Claim("fig9-gain-grows-with-intensity", "Sect. 5.2, Fig. 9",
          "The more the workload communicates, the more PROC cuts the response of the scheme it reorders.",
          "trend", "effectiveness of PROC increasingly pronounced",
          "runs.csv mean_response, fig9: per seed the slope over the intensity ranks 1-3 of the cut (%) of PROC-B vs SB "
          "and PROC-S vs PB", gain_grows_with_intensity("fig9", WORKLOAD_INTENSITY, "mean_response"),
          unit="% points per intensity step", link="fig9_response.png"),
    Claim("fig9-wl3-procb-vs-sb", "Sect. 5.2, Fig. 9c",
          "On the communication-intensive wl3 PROC-B halves SB's mean response.",
          "ordering", "50.4 %",
          f"runs.csv mean_response, fig9 wl3: 100 (1 - PROC-B / SB), {PER_SEED}", wl3_reduction("SB"),
          unit="%", possible=CUT, **text_number(50.4), link="fig9_response.png"),
    Claim("fig9-wl3-procb-vs-batch", "Sect. 5.2, Fig. 9c",
          "On wl3 PROC-B cuts BATCH's mean response by almost three quarters.",
          "ordering", "72.5 %",
          f"runs.csv mean_response, fig9 wl3: 100 (1 - PROC-B / BATCH), {PER_SEED}", wl3_reduction("BATCH"),
          unit="%", possible=CUT, **text_number(72.5), link="fig9_response.png"),
    Claim("fig9-wl3-procb-vs-gs", "Sect. 6 (item 4), Fig. 9c",
          "On wl3 PROC-B cuts GS's mean response by about two thirds.",
          "ordering", "66.8 %",
          f"runs.csv mean_response, fig9 wl3: 100 (1 - PROC-B / GS), {PER_SEED}", wl3_reduction("GS"),
          unit="%", possible=CUT, **text_number(66.8), link="fig9_response.png"),
    Claim("tab3-bcr-rises-with-communication", "Sect. 5.2, Table 3",
          "The more a workload communicates (wl1 < wl2 < wl3), the larger each ICS scheme's share of boost "
          "conflicts.",
          "trend", "low on wl1 against wl2 and wl3 (e.g. PB 34.65 -> 70.41 -> 75.82 %, SB 29.26 -> 49.14 -> 52.79 %)",
          "runs.csv bcr (%), fig9: per-seed slope over the intensity ranks 1-3; one part per ICS scheme",
          bcr_rises_with_communication, unit="% points per intensity step", link="fig9_bcr_fdr.md"),
    Claim("fig9-switching-rises", "Sect. 5.2, Fig. 9f",
          "The more the workload communicates, the more CPU time the ICS schemes spend switching context.",
          "trend", "more context switches (switching component of the profile)",
          "runs.csv share_switch (%), fig9: per-seed slope over the intensity ranks 1-3; one part per ICS scheme",
          share_rises_with_intensity(("share_switch",), ICS_SCHEMES), unit="% points per intensity step",
          link="fig9_profile.png"),
    Claim("fig9-wasted-time-rises", "Sect. 5.2, Fig. 9f",
          "The existing ICS schemes waste more CPU time spinning and idling the more the workload communicates.",
          "trend", "suffer even more from wasted time for wl3",
          "runs.csv share_spin + share_idle (%), fig9: per-seed slope over the intensity ranks 1-3; one part per "
          "existing ICS scheme (DCS, PB, SB, HYBRID)",
          share_rises_with_intensity(("share_spin", "share_idle"), ("DCS", "PB", "SB", "HYBRID")),
          unit="% points per intensity step", link="fig9_profile.png"),
    Claim("tab3-proc-lower-fdr", "Sect. 5.2, Table 3",
          "On every one of wl1-wl3 both PROC schemes make fewer false decisions than PB, SB and HYBRID.",
          "ordering", "more accurate decisions than the existing schemes (e.g. wl3: 33.50-36.21 % against "
                      "52.57-72.78 %)",
          "runs.csv fdr (%), fig9: the lowest of PB, SB, HYBRID minus the highest of PROC-B, PROC-S, per seed; one part "
          "per workload", proc_lower_fdr([("fig9", w) for w in WORKLOAD_INTENSITY]), unit="% points",
          possible=SHARE_POINTS, link="fig9_bcr_fdr.md"),
    Claim("tab3-wl3-bcr-spinning", "Sect. 6 (item 1), Table 3",
          "On the communication-intensive wl3 the spinning ICS schemes see boost conflicts at up to about four "
          "context switches in five.",
          "value", "as high as about 78.9 % (PROC-S)",
          "runs.csv bcr (%), fig9 wl3: per seed the higher of PB and PROC-S", wl3_highest_bcr(("PB", "PROC-S")),
          unit="%", possible=PERCENT, **text_number(78.9), link="fig9_bcr_fdr.md"),
    Claim("tab3-wl3-bcr-blocking", "Sect. 6 (item 1), Table 3",
          "On wl3 the blocking ICS schemes see boost conflicts at up to about half the context switches.",
          "value", "as high as about 52.8 % (SB)",
          "runs.csv bcr (%), fig9 wl3: per seed the highest of SB, PROC-B, HYBRID",
          wl3_highest_bcr(("SB", "PROC-B", "HYBRID")), unit="%", possible=PERCENT, **text_number(52.8),
          link="fig9_bcr_fdr.md"),
    # --- Sect. 5.3, Fig. 10 and Table 4 -------------------------------------------------
    Claim("local-dcs-behind-pb", "Sect. 5.3 (its opening), Figs. 7-9, 11-13",
          "LOCAL and DCS always do worse than PB (the reason Fig. 10 leaves them out).",
          "ordering", "LOCAL and DCS always show poorer performance than PB",
          _lead_measure("runs.csv mean_response (turnaround in Figs. 11 and 13): PB against the faster of LOCAL and DCS")
          + "; one part per experiment of ours that runs the three", local_dcs_behind_pb, unit="%", possible=CUT,
          link="fig8_response.png"),
    Claim("fig10-execution-rises-with-mpl", "Sect. 5.3, Fig. 10a",
          "A higher multiprogramming level stretches every scheme's execution time.",
          "trend", "execution times uniformly stretched",
          "runs.csv mean_execution x compression (full-length s), fig10: per-seed slope over MPL 2, 3, 5; one part per "
          "scheme", mpl_trend("mean_execution"), unit="s per MPL step", link="fig10_response.png"),
    Claim("fig10-wait-falls-with-mpl", "Sect. 5.3, Fig. 10a",
          "A higher multiprogramming level shortens every scheme's queue wait.",
          "trend", "lower waiting times",
          "runs.csv mean_wait x compression (full-length s), fig10: per-seed slope over MPL 2, 3, 5; one part per scheme",
          mpl_trend("mean_wait"), side="below", unit="s per MPL step", link="fig10_response.png"),
    Claim("fig10-response-falls-with-mpl", "Sect. 5.3, Fig. 10a",
          "Every scheme's mean response falls as the multiprogramming level rises.",
          "trend", "decreases with increasing MPL",
          "runs.csv mean_response x compression (full-length s), fig10: per-seed slope over MPL 2, 3, 5; one part per "
          "scheme", mpl_trend("mean_response"), side="below", unit="s per MPL step", link="fig10_response.png"),
    Claim("fig10-proc-better-at-every-mpl", "Sect. 5.3, Fig. 10a",
          "At every multiprogramming level PROC-B responds faster than SB and HYBRID, and PROC-S faster than PB.",
          "ordering", "PROC better than the other schemes at all MPL levels",
          _lead_measure("runs.csv mean_response, fig10: the PROC scheme against the fastest other scheme of its family")
          + "; parts per PROC scheme and MPL", proc_better_at_every_mpl, unit="%", possible=CUT,
          link="fig10_response.png"),
    Claim("fig10-mpl2-gain", "Sect. 5.3, Fig. 10a",
          "With two processes per node PROC's largest cut in mean response is under a fifth.",
          "ordering", "up to 18.8 %",
          "runs.csv mean_response at MPL 2: per seed the largest of the cuts (%) PROC-B vs SB, PROC-B vs HYBRID, "
          "PROC-S vs PB", mpl2_gain, unit="%", possible=CUT, **text_number(18.8), link="fig10_response.png"),
    Claim("fig10-blocking-gap-grows-with-mpl", "Sect. 5.3, Fig. 10a",
          "Blocking's advantage over spinning is smaller at a lower multiprogramming level.",
          "trend", "less pronounced at a lower MPL",
          "runs.csv mean_response, fig10: per seed 100 (1 - mean of SB, HYBRID, PROC-B / mean of PB, PROC-S), its "
          "slope over MPL 2, 3, 5", blocking_gap_grows_with_mpl, unit="% points per MPL step",
          link="fig10_response.png"),
    Claim("fig10-real-idle-falls-with-mpl", "Sect. 5.3, Fig. 10b",
          "At a lower multiprogramming level the nodes stand really idle for more of the time.",
          "trend", "underutilized for lower MPL, more real-idle time",
          "runs.csv share_real_idle (%), fig10: per-seed slope over MPL 2, 3, 5; one part per scheme",
          mpl_trend("share_real_idle", 100.0), side="below", unit="% points per MPL step", link="fig10_profile.png"),
    Claim("tab4-bcr-rises-with-mpl", "Sect. 5.3, Table 4",
          "The more processes a node may hold, the larger each ICS scheme's share of boost conflicts.",
          "trend", "low at MPL 2 (10.47-15.43 %), higher at MPL 3 (28.17-37.26 %) and 5 (42.73-67.83 %)",
          "runs.csv bcr (%), fig10: per-seed slope over MPL 2, 3, 5; one part per ICS scheme",
          mpl_trend("bcr", 100.0, ICS_SCHEMES), unit="% points per MPL step", link="fig10_bcr_fdr.md"),
    Claim("fig10-proc-scales-best", "Sect. 5.3, Fig. 10a",
          "Raising the multiprogramming level improves the PROC schemes' response more than any other scheme's.",
          "ordering", "the best scalable improvement among all schemes",
          "runs.csv mean_response, fig10: per seed each scheme's cut (%) from MPL 2 to MPL 5; the PROC scheme's minus "
          "the largest of PB, SB, HYBRID, GS; one part per PROC scheme", proc_scales_best, unit="% points",
          link="fig10_response.png"),
    # --- Sect. 5.4, Fig. 11 -------------------------------------------------------------
    Claim("fig11-skew-prolongs", "Sect. 5.4, Figs. 11a, 11b",
          "A 60 % task skew lengthens every scheme's turnaround compared with none, mainly through more spinning "
          "and idle time.",
          "ordering", "longer for all schemes, mainly more spinning and idle time",
          "runs.csv x compression (full-length s), fig11: v = 60 % minus v = 0 % of turnaround and of "
          f"(share_spin + share_idle) x turnaround, {PER_SEED}; parts per quantity and scheme", skew_prolongs,
          unit="s", link="fig11_turnaround.png"),
    Claim("fig11-gs-batch-hurt-most", "Sect. 5.4, Fig. 11a",
          "Skew lengthens GS's and BATCH's turnaround more than the ICS schemes'.",
          "ordering", "GS and BATCH unable to tolerate it compared to the ICS schemes",
          "runs.csv turnaround, fig11: per seed each scheme's rise (%) from v = 0 % to 60 %; GS's (BATCH's) minus the "
          "largest of DCS, PB, PROC-S, SB, HYBRID, PROC-B", gs_batch_hurt_most, unit="% points",
          link="fig11_turnaround.png"),
    Claim("fig11-proc-robust", "Sect. 5.4, Fig. 11a",
          "At 60 % skew PROC-B still finishes before SB and HYBRID, and PROC-S before DCS and PB.",
          "ordering", "PROC-S and PROC-B remain robust even at high task skewness",
          _lead_measure("runs.csv turnaround, fig11 v = 60 %: the PROC scheme against the fastest other ICS scheme "
                        "of its family"), proc_robust_to_skew, unit="%", possible=CUT, link="fig11_turnaround.png"),
    Claim("fig11-bcr-with-skew", "Sect. 5.4, Fig. 11c",
          "Skew spreads message arrivals: the blocking schemes see fewer boost conflicts, the spinning ones more.",
          "ordering", "SB 45.98 -> 40.17 %, PROC-B 44.93 -> 38.84 %, HYBRID 44.16 -> 37.86 %; PB 65.98 -> 66.30 %, "
                      "PROC-S 66.89 -> 68.63 %",
          "runs.csv bcr (%), fig11: change from v = 0 % to 60 % per seed, signed so that the paper's direction "
          "(fall for blocking, rise for spinning) is positive; one part per scheme", bcr_with_skew,
          unit="% points", possible=SHARE_POINTS, link="fig11_bcr_fdr.md"),
    Claim("fig11-proc-gain-with-skew", "Sect. 5.4, Fig. 11a",
          "With more skew PROC-S gains a little more over PB and PROC-B a little less over SB, while PROC-B keeps "
          "the shortest turnaround.",
          "ordering", "PROC-S marginally better improvement, PROC-B slightly less but the shortest turnaround",
          "runs.csv turnaround, fig11: cut (%) of PROC-S vs PB at v = 60 % minus at 0 %, of PROC-B vs SB at 0 % minus "
          "at 60 %, and PROC-B's lead (%) over the fastest other scheme at 60 %, per seed", proc_gain_with_skew,
          unit="%", possible=CUT, link="fig11_turnaround.png"),
    # --- Sect. 5.5, Fig. 12 -------------------------------------------------------------
    Claim("fig12-gs-fairest", "Sect. 5.5, Fig. 12b",
          "GS treats the job types of wl5 most evenly: the lowest coefficient of variation of their slowdowns.",
          "ordering", "GS most fair (0.0456, the lowest)",
          "runs.csv fairness_cv (CV of the per-type mean slowdowns), fig12 wl5: the lowest of the other schemes minus "
          "GS, per seed", gs_fairest, unit="CV", link="fig12_fairness.md"),
    Claim("fig12-local-least-fair", "Sect. 5.5, Fig. 12",
          "LOCAL is the least fair: its communication-intensive jobs are slowed down most, more than under any "
          "other scheme.",
          "ordering", "LOCAL runs counter to fairness (CV 1.0743, the highest)",
          _lead_measure("runs.csv fig12 wl5: the highest of the other schemes against LOCAL, of fairness_cv and of "
                        "J3's slowdown over the least-slowed type's (Fig. 12a's normalization)"),
          local_least_fair, unit="%", possible=CUT, link="fig12_fairness.md"),
    Claim("fig12-fairness-tiers", "Sect. 5.5, Fig. 12b",
          "PROC-B, HYBRID and PROC-S are fairer than PB and SB, which are fairer than DCS.",
          "ordering", "PROC-B 0.0803, HYBRID 0.1105, PROC-S 0.1153 < PB 0.1369, SB 0.1374 < DCS 0.5371",
          "runs.csv fairness_cv, fig12 wl5: smallest of the less fair tier minus largest of the fairer tier, per seed",
          fairness_tiers, unit="CV", link="fig12_fairness.md"),
    # --- Sect. 5.6, Figs. 13 and 14 -----------------------------------------------------
    Claim("fig13-proc-best-in-family", "Sect. 5.6, Fig. 13a",
          "On every NPB application PROC-B finishes before the other blocking schemes and PROC-S before the other "
          "spinning ones.",
          "ordering", "always, for all cases of realistic workloads",
          _lead_measure("runs.csv turnaround, fig13: the PROC scheme against the fastest other scheme of its family")
          + "; parts per PROC scheme and application",
          npb_proc_best_in_family,
          unit="%", possible=CUT, link="fig13_turnaround.png"),
    Claim("fig13-procb-best", "Sect. 5.6, Fig. 13a",
          "On every NPB application PROC-B finishes first of all schemes, ahead of BATCH.",
          "ordering", "PROC-B performs the best across all workloads",
          _lead_measure("runs.csv turnaround, fig13: PROC-B against the fastest other scheme") + "; one part per "
          "application", npb_procb_best, unit="%", possible=CUT, link="fig13_turnaround.png"),
    Claim("fig13-local-dcs-low-utilization", "Sect. 5.6, Fig. 13b",
          "On the NPB applications LOCAL and DCS put much less of the CPU to use than the other schemes.",
          "ordering", "much lower resource utilization",
          "runs.csv utilization (% of CPU time computing), fig13: the lowest of the other schemes minus the higher of "
          "LOCAL, DCS, per seed; one part per application", npb_local_dcs_low_utilization, unit="% points",
          possible=SHARE_POINTS, link="fig13_profile.png"),
    Claim("fig13-gs-comparable-to-batch", "Sect. 5.6, Fig. 13a",
          "With every NPB job taking the whole machine, GS finishes in about BATCH's time.",
          "value", "comparable turnaround",
          "runs.csv turnaround, fig13: GS over BATCH per seed (Fig. 13a's normalization); one part per application",
          npb_gs_against_batch, unit="x BATCH's", possible=RATIO, **approximate_words(1.0),
          link="fig13_turnaround.png"),
    Claim("fig13-gain-rises-with-intensity", "Sect. 5.6, Fig. 13a",
          "PROC's gain grows with the application's communication intensity (BT < MG < FT < IS < CG), minimal for BT.",
          "trend", "minimal for BT, more distinguished as the intensity increases",
          "runs.csv turnaround, fig13: per seed the slope of the cut (%) of PROC-B vs SB and of PROC-S vs PB over the "
          "intensity ranks 1-5", gain_grows_with_intensity("fig13", APP_INTENSITY, "turnaround"),
          unit="% points per intensity rank", link="fig13_vs_batch.md"),
    Claim("fig13-procb-vs-batch", "Sect. 5.6, Fig. 13a",
          "On the NPB applications PROC-B finishes up to about a quarter sooner than BATCH.",
          "ordering", "speedup as high as 25.6 %",
          "runs.csv turnaround, fig13: per seed the largest over applications of 100 (1 - PROC-B / BATCH)",
          npb_best_vs_batch("PROC-B"), unit="%", possible=CUT, **text_number(25.6), link="fig13_vs_batch.md"),
    Claim("fig13-procs-vs-batch", "Sect. 5.6, Fig. 13a",
          "On the NPB applications PROC-S finishes up to about an eighth sooner than BATCH.",
          "ordering", "speedup as high as 13.5 %",
          "runs.csv turnaround, fig13: per seed the largest over applications of 100 (1 - PROC-S / BATCH)",
          npb_best_vs_batch("PROC-S"), unit="%", possible=CUT, **text_number(13.5), link="fig13_vs_batch.md"),
    Claim("fig13-blocking-beats-spinning", "Sect. 5.6, Fig. 13a",
          "On every NPB application each blocking scheme (PROC-B, SB, HYBRID) finishes before each spinning one "
          "(DCS, PB, PROC-S).",
          "ordering", "blocking-based schemes outperform spinning-based ones",
          _lead_measure("runs.csv turnaround, fig13: the slowest blocking scheme against the fastest spinning one")
          + "; one part per application", npb_blocking_beats_spinning, unit="%", possible=CUT,
          link="fig13_turnaround.png"),
    Claim("fig14-response-rises-with-rate", "Sect. 5.6, Fig. 14a",
          "In the NPB mix every scheme's mean response grows with the job arrival rate.",
          "trend", "near-linear growth with the arrival rate",
          "runs.csv mean_response, fig14: per-seed slope over the arrival rate (1 / mean_interarrival, jobs per s); one "
          "part per scheme", mix_trend("mean_response"), unit="s per job/s", link="fig14_response.png"),
    Claim("fig14-procb-best", "Sect. 5.6, Fig. 14a",
          "In the NPB mix PROC-B gives the lowest mean response at every arrival rate.",
          "ordering", "much lower response times than the other schemes",
          _lead_measure("runs.csv mean_response, fig14: PROC-B against the fastest other scheme") + "; one part per "
          "rate", mix_procb_best, unit="%", possible=CUT, link="fig14_response.png"),
    Claim("fig14-procs-comparable-to-sb", "Sect. 5.6, Fig. 14a",
          "In the NPB mix PROC-S responds about as fast as SB.",
          "value", "comparable performance with SB",
          "runs.csv mean_response, fig14: PROC-S over SB per seed; one part per rate", mix_procs_against_sb,
          unit="x SB's", possible=RATIO, **approximate_words(1.0), link="fig14_response.png"),
    Claim("fig14-low-rate-small-differences", "Sect. 5.6, Fig. 14a",
          "At a low arrival rate jobs start almost at once and the schemes differ less than at a high rate.",
          "ordering", "less room to express the differences among the seven schemes",
          "runs.csv mean_response, fig14: spread of the seven schemes = 100 (slowest / fastest - 1) per seed, at the "
          "lowest rate minus at the highest", mix_low_rate_small_differences, side="below", unit="% points",
          link="fig14_response.png"),
    Claim("fig14-bcr-rises-with-rate", "Sect. 5.6, Fig. 14c",
          "In the NPB mix the share of boost conflicts grows with the arrival rate.",
          "trend", "generally increases the probability of a boost conflict",
          "runs.csv bcr (%), fig14: per-seed slope over the arrival rate (jobs per s); one part per ICS scheme",
          mix_trend("bcr", ICS_SCHEMES, 100.0), unit="% points per job/s", link="fig14_results.md"),
    Claim("fig14-proc-cuts-wasted-time", "Sect. 5.6, Figs. 14b, 14d",
          "As the arrival rate rises, PROC cuts the CPU time the scheme it reorders wastes spinning and idling.",
          "ordering", "wasted spinning and idle time significantly reduced",
          "runs.csv (share_spin + share_idle) x turnaround, fig14: 100 (1 - PROC / base) per seed for PROC-B vs SB and "
          "PROC-S vs PB, at every rate above the lowest (the paper's 'as the job-arrival rate increases')",
          mix_proc_cuts_wasted, unit="%", possible=CUT, link="fig14_profile.png"),
    Claim("fig14-procb-false-decisions", "Sect. 5.6, Fig. 14d",
          "At an arrival rate of 11.11 only about a tenth of PROC-B's context switches are false decisions.",
          "value", "about 10 % at arrival rate 11.11",
          "not measured: the paper's arrival-rate scale (11.11, no unit given) cannot be placed among our rates",
          unit="%", possible=PERCENT, **approximate_words(10.0), link="fig14_results.md",
          not_attempted="the paper gives the rate as 11.11 without a unit or the mix's job lengths, so no arrival rate "
                        "of ours corresponds to it"),
    # --- calibration: constants chosen on the paper's numbers --------------------------
    Claim("cal-heavy-mean-gap", "Sect. 5.1 (footnote 3 and the section's end)",
          "The synthetic workloads arriving under heavy load have the paper's mean inter-arrival time.",
          "value", "1554.42 s",
          "workloads.csv (the inputs the runs used, redrawn from their parameters and seeds): mean gap between "
          "arrivals x compression (full-length s) per seed; one part per workload", mean_gap("heavy"),
          unit="s", possible=(0.0, math.inf), **text_number(1554.42), link="workloads.md",
          basis="calibration", basis_why=CALIBRATION_WHY.format(knob="gap scale")),
    Claim("cal-light-mean-gap", "Sect. 5.1 (footnote 3)",
          "The synthetic workloads arriving under light load have the paper's mean inter-arrival time.",
          "value", "about 2.48 x 10^3 s",
          "workloads.csv: mean gap between arrivals x compression (full-length s) per seed; one part per workload",
          mean_gap("light"), unit="s", possible=(0.0, math.inf), **approximate_words(2480.0), link="workloads.md",
          basis="calibration", basis_why=CALIBRATION_WHY.format(knob="gap scale")),
    Claim("cal-mean-runtime", "Sect. 5.1 (the section's end)",
          "The synthetic jobs have the paper's mean execution time on a dedicated machine.",
          "value", "3228.05 s",
          "workloads.csv: mean dedicated run time of the jobs (after the 2-iteration floor) x compression "
          "(full-length s) per seed; one part per workload", mean_runtime, unit="s", possible=(0.0, math.inf),
          **text_number(3228.05), link="workloads.md",
          basis="calibration", basis_why=CALIBRATION_WHY.format(knob="run-time scale")),
)
"""Every number or sentence of the paper judged, before ``SENTENCES`` gathers those one sentence states together."""

SENTENCES = (
    ("fig8-proc-cuts", "Sect. 5.1, Fig. 8a",
     "Under heavy load PROC-B cuts the mean response of SB by about two fifths and of HYBRID by about a third, and "
     "PROC-S cuts PB's by over a quarter.", "up to 42.3 % (SB), 33.2 % (HYBRID); PROC-S up to 27.7 % (PB)",
     ("fig8-procb-vs-sb", "fig8-procb-vs-hybrid", "fig8-procs-vs-pb")),
    ("fig8-proc-fdr-cuts", "Sect. 5.1, Fig. 8c",
     "Under heavy load each PROC scheme makes about half as many false decisions per conflict as the scheme it "
     "reorders: PROC-B against SB, PROC-S against PB.", "52.5 % lower (PROC-B vs SB), 51.8 % (PROC-S vs PB)",
     ("fig8-procb-fdr-vs-sb", "fig8-procs-fdr-vs-pb")),
    ("fig9-wl3-procb-cuts", "Sect. 5.2, Fig. 9c",
     "On the communication-intensive wl3 PROC-B halves SB's mean response and cuts BATCH's by almost three "
     "quarters.", "50.4 % (SB), 72.5 % (BATCH)",
     ("fig9-wl3-procb-vs-sb", "fig9-wl3-procb-vs-batch")),
    ("tab3-wl3-bcr", "Sect. 6 (item 1), Table 3",
     "On the communication-intensive wl3 boost conflicts make up to about four fifths of the context switches of the "
     "spinning ICS schemes and about half of the blocking ones'.", "up to 78.9 % (spinning), 52.8 % (blocking)",
     ("tab3-wl3-bcr-spinning", "tab3-wl3-bcr-blocking")),
    ("fig13-proc-vs-batch", "Sect. 5.6, Fig. 13a",
     "On the NPB applications PROC-B finishes up to about a quarter sooner than BATCH, PROC-S up to about an "
     "eighth.", "up to 25.6 % (PROC-B), 13.5 % (PROC-S)",
     ("fig13-procb-vs-batch", "fig13-procs-vs-batch")),
)
"""Sentences that print several numbers (``schedlab.reports.ledger.gathered``)."""

CLAIMS = gathered(NUMBERS, SENTENCES)
