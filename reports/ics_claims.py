"""The claims ledger of the ics stage: Yu, Kim and Maeng's evaluation, claim by claim.

Paper: S. Yu, J. Kim and S. Maeng, "A runtime resolution scheme for priority boost
conflict in implicit coscheduling", Journal of Supercomputing (ClusterSchedSim on
CSIM19); the evaluation is its Sect. 5 (Figs. 7-14, Tables 3-4), the setup its Sect. 4.

Every claim reads the stage's result tables only (``reports.ics.read_results``):
``runs`` has one row per figure, group (the figure's coordinate: load, workload, MPL,
skew, application or arrival rate), scheme and seed, with that run's metrics
(``mean_response``, ``turnaround``, ``bcr`` and ``fdr`` as fractions, ``share_*`` CPU
shares, ``fairness_cv`` ...); ``schemes`` says how each scheme waits for a message.
Every scheme of a figure runs on the same seeds, so comparisons are paired per seed.
A claim about a figure the profile does not run is not attempted, with that reason.

Sizes are checked only where the paper's number is a relative one (reductions in %, BCR
and FDR in %): absolute times depend on the workload, and ours puts the paper's published
means on the Lublin-Feitelson model's shapes, not on its SDSC-SP2 fit, at a compressed
time scale.
"""

from __future__ import annotations

import pandas as pd

from reports.ledger import Claim, Measurement, NotMeasured, Results, paired, part, per_seed, single, slopes

ICS_SCHEMES = ("PB", "PROC-S", "SB", "PROC-B", "HYBRID")
"""The five implicit-coscheduling schemes of Tables 3 and 4 (the paper's choice)."""
PROC_PAIRS = (("PROC-B", "SB"), ("PROC-S", "PB"))
"""Each PROC scheme and the existing scheme it reorders (Sect. 3): blocking and spinning."""
WORKLOAD_INTENSITY = {"wl1": 1, "wl2": 2, "wl3": 3}
"""Rank of communication intensity of the single-type workloads (Fig. 6a: J1 < J2 < J3)."""
APP_INTENSITY = {"BT": 1, "MG": 2, "FT": 3, "IS": 4, "CG": 5}
"""Rank of communication intensity of the NPB applications (Sect. 5.6: BT < MG < FT < IS < CG)."""

REDUCTION_WHY = ("half the paper's value: it reports one run per point without spread ('up to'), and our jobs "
                 "follow its published means on a model's shapes, not its SDSC-SP2 fit, so only the order of the "
                 "effect compares")
FDR_WHY = ("the paper's own FDR reductions of PROC against its base scheme span 46.6-69.4 % over Tables 3-4 "
           "and Fig. 11c; +-15 points covers all of them but the largest (PROC-B against SB at MPL 2)")
BCR_WHY = ("the paper's BCR on wl4 at MPL 5 spans 66.0-68.6 % (spinning) and 37.9-46.0 % (blocking) over Table 4 "
           "and Fig. 11c; +-8 points covers the spread of its own runs")


# --- reading the result tables -----------------------------------------------------------

def figure_runs(results: Results, figure: str) -> pd.DataFrame:
    runs = results["runs"]
    chosen = runs[runs["figure"] == figure]
    if chosen.empty:
        raise NotMeasured(f"{figure} is not run in this profile (the paper profile runs it)")
    return chosen


def per_seed_metric(results: Results, figure: str, group: str, scheme: str, metric: str) -> pd.Series:
    return per_seed(figure_runs(results, figure), metric, {"group": group, "scheme": scheme})


def figure_schemes(results: Results, figure: str, group: str) -> list[str]:
    frame = figure_runs(results, figure)
    return list(dict.fromkeys(frame.loc[frame["group"] == group, "scheme"]))


def _waiting(results: Results, how: str) -> list[str]:
    schemes = results["schemes"]
    return list(schemes.loc[schemes["waiting"] == how, "scheme"])


def _extreme(results: Results, figure: str, group: str, schemes, metric: str, how: str) -> pd.Series:
    """Per seed, the smallest (``how="min"``) or largest value of ``metric`` among ``schemes``."""
    table = pd.concat({s: per_seed_metric(results, figure, group, s, metric) for s in schemes}, axis=1)
    return table.min(axis=1) if how == "min" else table.max(axis=1)


def reduction(results: Results, figure: str, group: str, scheme: str, baseline: str, metric: str) -> pd.Series:
    """Per seed, the per cent by which ``scheme`` lowers ``metric`` against ``baseline`` (NaN for 0 / 0)."""
    return -100.0 * paired(per_seed_metric(results, figure, group, scheme, metric),
                           per_seed_metric(results, figure, group, baseline, metric), "relative")


def _margin(results, figure, group, better, worse, metric="mean_response") -> pd.Series:
    """Per seed, how far the best of ``worse`` lies above the worst of ``better`` (> 0: all of ``better`` win)."""
    return (_extreme(results, figure, group, worse, metric, "min")
            - _extreme(results, figure, group, better, metric, "max"))


def _group_of(results: Results, figure: str, column: str, value) -> str:
    frame = figure_runs(results, figure)
    groups = frame.loc[frame[column] == value, "group"].unique()
    if len(groups) != 1:
        raise NotMeasured(f"{figure}: no single group with {column} = {value}")
    return str(groups[0])


def _parts(*labelled: tuple[str, pd.Series]) -> Measurement:
    return Measurement(tuple(part(label, series) for label, series in labelled))


# --- Sect. 5.1: Figs. 7 and 8, wl4 under light and heavy load -----------------------------

def load_raises_response(results):
    return _parts(*((s, paired(per_seed_metric(results, "fig8", "heavy", s, "mean_response"),
                               per_seed_metric(results, "fig7", "light", s, "mean_response")))
                    for s in figure_schemes(results, "fig8", "heavy")))


def load_raises_wait_most(results):
    def rise(scheme, metric):
        return paired(per_seed_metric(results, "fig8", "heavy", scheme, metric), per_seed_metric(results, "fig7", "light", scheme, metric))

    schemes = figure_schemes(results, "fig8", "heavy")
    excess = pd.concat([rise(s, "mean_wait") - rise(s, "mean_execution") for s in schemes], axis=1).mean(axis=1)
    return single(excess, "heavy - light, mean over schemes")


def fragmentation(results):
    labelled = []
    for figure, load in (("fig7", "light"), ("fig8", "heavy")):
        busiest = _extreme(results, figure, load, ICS_SCHEMES, "share_real_idle", "max")
        for scheme in ("GS", "BATCH"):
            labelled.append((f"{scheme} {load}", per_seed_metric(results, figure, load, scheme, "share_real_idle") - busiest))
    return _parts(*labelled)


def blocking_beats_spinning(results):
    return _parts(*((load, _margin(results, figure, load, _waiting(results, "blocking"), _waiting(results, "spinning")))
                    for figure, load in (("fig7", "light"), ("fig8", "heavy"))))


def procb_best(results):
    labelled = []
    for figure, load in (("fig7", "light"), ("fig8", "heavy")):
        others = [s for s in figure_schemes(results, figure, load) if s != "PROC-B"]
        labelled.append((load, _margin(results, figure, load, ["PROC-B"], others)))
    return _parts(*labelled)


def heavy_ranking(results):
    chain = ("PROC-B", "HYBRID", "SB", "PROC-S", "PB")
    return _parts(*((f"{worse} - {better}", paired(per_seed_metric(results, "fig8", "heavy", worse, "mean_response"),
                                                   per_seed_metric(results, "fig8", "heavy", better, "mean_response")))
                    for better, worse in zip(chain, chain[1:])))


def local_dcs_batch_worst(results):
    return single(_margin(results, "fig8", "heavy", ICS_SCHEMES, ("LOCAL", "DCS", "BATCH")), "heavy")


def heavy_reduction(scheme, baseline):
    def compute(results):
        return single(reduction(results, "fig8", "heavy", scheme, baseline, "mean_response"), f"{scheme} vs {baseline}")
    return compute


def gain_grows_with_load(results):
    return _parts(*((f"{scheme} vs {base}",
                     reduction(results, "fig8", "heavy", scheme, base, "mean_response")
                     - reduction(results, "fig7", "light", scheme, base, "mean_response"))
                    for scheme, base in PROC_PAIRS))


def fdr_halved(results):
    return _parts(*((f"{scheme} vs {base}", reduction(results, "fig8", "heavy", scheme, base, "fdr"))
                    for scheme, base in PROC_PAIRS))


def bcr_level(schemes):
    def compute(results):
        table = pd.concat([per_seed_metric(results, "fig8", "heavy", s, "bcr") for s in schemes], axis=1)
        return single(100.0 * table.mean(axis=1), "mean of " + ", ".join(schemes))
    return compute


def spin_idle_cut(results):
    def wasted(scheme):
        frame = {m: per_seed_metric(results, "fig8", "heavy", scheme, m) for m in ("share_spin", "share_idle", "turnaround")}
        return (frame["share_spin"] + frame["share_idle"]) * frame["turnaround"]

    return _parts(*((f"{scheme} vs {base}", -100.0 * paired(wasted(scheme), wasted(base), "relative"))
                    for scheme, base in PROC_PAIRS))


# --- Sect. 5.5: Fig. 12, fairness on wl5 --------------------------------------------------

def fairness_extremes(results):
    schemes = figure_schemes(results, "fig12", "wl5")
    rest = [s for s in schemes if s not in ("GS", "LOCAL")]
    return _parts(
        ("GS fairest", _margin(results, "fig12", "wl5", ["GS"], [*rest, "LOCAL"], "fairness_cv")),
        ("LOCAL least fair", _margin(results, "fig12", "wl5", [*rest, "GS"], ["LOCAL"], "fairness_cv")),
    )


def fairness_tiers(results):
    return _parts(
        ("PB, SB above PROC-B, HYBRID, PROC-S",
         _margin(results, "fig12", "wl5", ("PROC-B", "HYBRID", "PROC-S"), ("PB", "SB"), "fairness_cv")),
        ("DCS above PB, SB", _margin(results, "fig12", "wl5", ("PB", "SB"), ("DCS",), "fairness_cv")),
    )


# --- Sect. 5.2: Fig. 9 and Table 3, communication intensity -------------------------------

def wl3_reduction(baseline):
    def compute(results):
        return single(reduction(results, "fig9", "wl3", "PROC-B", baseline, "mean_response"), f"PROC-B vs {baseline}")
    return compute


def bcr_rises_with_communication(results):
    frame = figure_runs(results, "fig9").assign(intensity=lambda f: f["group"].map(WORKLOAD_INTENSITY))
    return _parts(*((s, slopes(frame, "intensity", "bcr", {"scheme": s}) * 100.0) for s in ICS_SCHEMES))


# --- Sect. 5.3: Fig. 10 and Table 4, multiprogramming level -------------------------------

def bcr_rises_with_mpl(results):
    frame = figure_runs(results, "fig10")
    return _parts(*((s, slopes(frame, "mpl", "bcr", {"scheme": s}) * 100.0) for s in ICS_SCHEMES))


def response_falls_with_mpl(results):
    frame = figure_runs(results, "fig10")
    return _parts(*((s, slopes(frame, "mpl", "mean_response", {"scheme": s}))
                    for s in dict.fromkeys(frame["scheme"])))


def mpl2_gain(results):
    group = _group_of(results, "fig10", "mpl", 2)
    comparisons = (("PROC-B", "SB"), ("PROC-B", "HYBRID"), ("PROC-S", "PB"))
    table = pd.concat([reduction(results, "fig10", group, a, b, "mean_response") for a, b in comparisons], axis=1)
    return single(table.max(axis=1), "largest PROC reduction at MPL 2")


# --- Sect. 5.4: Fig. 11, task skew ---------------------------------------------------------

def _skew_groups(results):
    return _group_of(results, "fig11", "skew", 0.0), _group_of(results, "fig11", "skew", 0.6)


def skew_prolongs(results):
    even, skewed = _skew_groups(results)
    return _parts(*((s, paired(per_seed_metric(results, "fig11", skewed, s, "turnaround"),
                               per_seed_metric(results, "fig11", even, s, "turnaround")))
                    for s in figure_schemes(results, "fig11", even)))


def bcr_with_skew(results):
    even, skewed = _skew_groups(results)

    def rise(scheme):
        return 100.0 * paired(per_seed_metric(results, "fig11", skewed, scheme, "bcr"), per_seed_metric(results, "fig11", even, scheme, "bcr"))

    return _parts(*((f"{s} falls", -rise(s)) for s in ("SB", "PROC-B", "HYBRID")),
                  *((f"{s} rises", rise(s)) for s in ("PB", "PROC-S")))


# --- Sect. 5.6: Figs. 13 and 14, NPB-like applications ------------------------------------

def npb_best_vs_batch(results):
    apps = list(dict.fromkeys(figure_runs(results, "fig13")["group"]))
    table = pd.concat([reduction(results, "fig13", app, "PROC-B", "BATCH", "turnaround") for app in apps], axis=1)
    return single(table.max(axis=1), "PROC-B vs BATCH, best application")


def npb_gain_rises_with_intensity(results):
    apps = [app for app in APP_INTENSITY if app in set(figure_runs(results, "fig13")["group"])]
    gains = pd.concat([
        pd.DataFrame({"intensity": APP_INTENSITY[app], "gain": gain.to_numpy(), "seed": gain.index})
        for app in apps
        for gain in [reduction(results, "fig13", app, "PROC-B", "SB", "turnaround")]
    ], ignore_index=True)
    return single(slopes(gains, "intensity", "gain"), "slope of PROC-B's gain over SB")


def npb_proc_best_in_family(results):
    labelled = []
    for app in dict.fromkeys(figure_runs(results, "fig13")["group"]):
        labelled.append((f"{app} PROC-B", _margin(results, "fig13", app, ["PROC-B"], ("SB", "HYBRID"), "turnaround")))
        labelled.append((f"{app} PROC-S", _margin(results, "fig13", app, ["PROC-S"], ("LOCAL", "DCS", "PB"), "turnaround")))
    return _parts(*labelled)


def mix_response_rises_with_rate(results):
    frame = figure_runs(results, "fig14").assign(rate=lambda f: 1.0 / f["mean_interarrival"])
    return _parts(*((s, slopes(frame, "rate", "mean_response", {"scheme": s})) for s in dict.fromkeys(frame["scheme"])))


def mix_procb_best(results):
    labelled = []
    for group in dict.fromkeys(figure_runs(results, "fig14")["group"]):
        others = [s for s in figure_schemes(results, "fig14", group) if s != "PROC-B"]
        labelled.append((group, _margin(results, "fig14", group, ["PROC-B"], others)))
    return _parts(*labelled)


# --- the claims ---------------------------------------------------------------------------

def _reduction_claim(claim_id, location, statement, paper, compute, target, link, measure):
    return Claim(claim_id, location, statement, "ordering", paper, measure, compute, target=target,
                 tolerance=target / 2, tolerance_why=REDUCTION_WHY, link=link)


PER_SEED = "per seed, on the same seeds for every scheme"

CLAIMS = (
    Claim("fig7-8-load-raises-response", "Figs. 7a, 8a",
          "Every scheme answers more slowly under heavy load than under light load.",
          "ordering", "heavy > light for all nine schemes (bars)",
          f"runs.csv mean_response, fig8 heavy minus fig7 light, {PER_SEED}; one part per scheme",
          load_raises_response, link="fig8_response.png"),
    Claim("fig7-8-load-raises-wait-most", "Sect. 5.1, Figs. 7a, 8a",
          "The longer response under heavy load comes mostly from longer queue waits, not longer execution.",
          "ordering", "wait grows more than execution (bars)",
          "runs.csv: per seed, mean over schemes of (rise of mean_wait - rise of mean_execution) from fig7 light "
          "to fig8 heavy", load_raises_wait_most, link="fig8_response.png"),
    Claim("fig7-8-fragmentation", "Sect. 5.1, Figs. 7b, 8b",
          "Gang scheduling and batch leave more CPU time really idle (fragmentation) than the time-sharing "
          "implicit-coscheduling schemes.",
          "ordering", "larger real-idle share for GS and BATCH (profile bars)",
          "runs.csv share_real_idle of GS (BATCH) minus the largest of PB, PROC-S, SB, PROC-B, HYBRID, per seed; "
          "parts per scheme and load", fragmentation, link="fig8_profile.png"),
    Claim("fig7-8-blocking-beats-spinning", "Sect. 5.1, Figs. 7a, 8a",
          "Each blocking scheme (SB, HYBRID, PROC-B) responds faster than each spinning scheme "
          "(LOCAL, DCS, PB, PROC-S), at both loads.",
          "ordering", "blocking < spinning in all cases",
          "runs.csv mean_response: smallest spinning minus largest blocking (families from schemes.csv), per seed; "
          "parts light and heavy", blocking_beats_spinning, link="fig8_response.png"),
    Claim("fig7-8-procb-best", "Sect. 5.1, Figs. 7a, 8a",
          "PROC-B has the shortest mean response of all nine schemes.",
          "ordering", "PROC-B lowest bar",
          "runs.csv mean_response: smallest of the other schemes minus PROC-B, per seed; parts light and heavy",
          procb_best, link="fig8_response.png"),
    Claim("fig8-ranking", "Sect. 5.1, Fig. 8a",
          "Under heavy load the mean responses rank PROC-B < HYBRID < SB < PROC-S < PB.",
          "ordering", "PROC-B < HYBRID < SB < PROC-S < PB",
          f"runs.csv mean_response, fig8 heavy: each neighbour pair of the chain as a paired difference, {PER_SEED}",
          heavy_ranking, link="fig8_response.png"),
    Claim("fig8-local-dcs-batch-worst", "Fig. 8a (spec digest; Sect. 5.2 says the same of Fig. 9)",
          "LOCAL, DCS and BATCH respond more slowly than the five implicit-coscheduling schemes.",
          "ordering", "LOCAL, DCS, BATCH slowest",
          "runs.csv mean_response, fig8 heavy: smallest of LOCAL, DCS, BATCH minus largest of PB, PROC-S, SB, "
          "PROC-B, HYBRID, per seed", local_dcs_batch_worst, link="fig8_response.png"),
    _reduction_claim("fig8-procb-vs-sb", "Sect. 5.1, Fig. 8a",
                     "Under heavy load PROC-B cuts the mean response of SB by about two fifths.",
                     "42.3 % (up to)", heavy_reduction("PROC-B", "SB"), 42.3, "fig8_response.png",
                     f"runs.csv mean_response, fig8 heavy: 100 (1 - PROC-B / SB), {PER_SEED}"),
    _reduction_claim("fig8-procb-vs-hybrid", "Sect. 5.1, Fig. 8a",
                     "Under heavy load PROC-B cuts the mean response of HYBRID by about a third.",
                     "33.2 % (up to)", heavy_reduction("PROC-B", "HYBRID"), 33.2, "fig8_response.png",
                     f"runs.csv mean_response, fig8 heavy: 100 (1 - PROC-B / HYBRID), {PER_SEED}"),
    _reduction_claim("fig8-procs-vs-pb", "Sect. 5.1, Fig. 8a",
                     "Under heavy load PROC-S cuts the mean response of PB by over a quarter.",
                     "27.7 % (up to)", heavy_reduction("PROC-S", "PB"), 27.7, "fig8_response.png",
                     f"runs.csv mean_response, fig8 heavy: 100 (1 - PROC-S / PB), {PER_SEED}"),
    Claim("fig7-8-gain-grows-with-load", "Sect. 5.1, Figs. 7a, 8a",
          "PROC's advantage over the scheme it reorders is larger under heavy load than under light load.",
          "trend", "more pronounced as the load rises",
          "runs.csv mean_response: per-seed reduction (%) of PROC-B vs SB and PROC-S vs PB at heavy load minus the "
          "same at light load", gain_grows_with_load, link="fig8_response.png"),
    Claim("fig8-fdr-halved", "Sect. 5.1, Fig. 8c (= Table 4, MPL 5)",
          "PROC roughly halves the false decision ratio of the scheme it reorders.",
          "ordering", "52.5 % lower (PROC-B vs SB), 51.8 % lower (PROC-S vs PB)",
          f"runs.csv fdr, fig8 heavy: 100 (1 - PROC / base), {PER_SEED}; parts per pair (NaN where the base had no "
          "boost conflict)", fdr_halved, target=52.2, tolerance=15.0, tolerance_why=FDR_WHY, link="fig8_bcr_fdr.md"),
    Claim("fig8-bcr-spinning", "Sect. 5.1, Fig. 8c (= Table 4, MPL 5)",
          "About two thirds of the context switches of the spinning schemes PB and PROC-S are boost conflicts.",
          "value", "PB 66.44 %, PROC-S 67.83 %",
          "runs.csv bcr (%), fig8 heavy: mean of PB and PROC-S, per seed", bcr_level(("PB", "PROC-S")),
          target=67.1, tolerance=8.0, tolerance_why=BCR_WHY, link="fig8_bcr_fdr.md"),
    Claim("fig8-bcr-blocking", "Sect. 5.1, Fig. 8c (= Table 4, MPL 5)",
          "Somewhat over two fifths of the context switches of the blocking schemes are boost conflicts, fewer "
          "than for the spinning ones.",
          "value", "SB 45.90 %, PROC-B 42.73 %, HYBRID 42.95 %",
          "runs.csv bcr (%), fig8 heavy: mean of SB, PROC-B and HYBRID, per seed", bcr_level(("SB", "PROC-B", "HYBRID")),
          target=43.9, tolerance=8.0, tolerance_why=BCR_WHY, link="fig8_bcr_fdr.md"),
    Claim("fig8-spin-idle-cut", "Sect. 5.1, Fig. 8b",
          "Better conflict decisions cut the CPU time wasted spinning and idling for messages.",
          "ordering", "up to 44.6 % less spin + idle time",
          "runs.csv (share_spin + share_idle) x turnaround, fig8 heavy: 100 (1 - PROC / base) per seed, parts "
          "PROC-B vs SB and PROC-S vs PB (the paper does not say which pair reaches 44.6 %, so only the direction "
          "is tested)", spin_idle_cut, link="fig8_profile.png"),
    Claim("fig12-fairness-extremes", "Sect. 5.5, Fig. 12b",
          "Gang scheduling treats the job types most evenly and LOCAL least evenly.",
          "ordering", "GS 0.0456 lowest CV, LOCAL 1.0743 highest",
          "runs.csv fairness_cv (CV of per-type slowdown), fig12 wl5: margin of GS below all others and of LOCAL "
          "above all others, per seed", fairness_extremes, link="fig12_fairness.md"),
    Claim("fig12-fairness-tiers", "Sect. 5.5, Fig. 12b",
          "PROC-B, HYBRID and PROC-S are fairer than PB and SB, which are fairer than DCS.",
          "ordering", "PROC-B 0.0803, HYBRID 0.1105, PROC-S 0.1153 < PB 0.1369, SB 0.1374 < DCS 0.5371",
          "runs.csv fairness_cv, fig12 wl5: smallest of the less fair tier minus largest of the fairer tier, per seed",
          fairness_tiers, link="fig12_fairness.md"),
    _reduction_claim("fig9-wl3-procb-vs-sb", "Sect. 5.2, Fig. 9c",
                     "On the communication-intensive wl3, PROC-B halves the mean response of SB.",
                     "50.4 %", wl3_reduction("SB"), 50.4, "fig9_response.png",
                     f"runs.csv mean_response, fig9 wl3: 100 (1 - PROC-B / SB), {PER_SEED}"),
    _reduction_claim("fig9-wl3-procb-vs-batch", "Sect. 5.2, Fig. 9c",
                     "On wl3, PROC-B cuts the mean response of batch scheduling by almost three quarters.",
                     "72.5 %", wl3_reduction("BATCH"), 72.5, "fig9_response.png",
                     f"runs.csv mean_response, fig9 wl3: 100 (1 - PROC-B / BATCH), {PER_SEED}"),
    Claim("tab3-bcr-rises-with-communication", "Sect. 5.2, Table 3",
          "The more a workload communicates (wl1 < wl2 < wl3), the larger the share of boost conflicts.",
          "trend", "e.g. PB 34.65 -> 70.41 -> 75.82 %, SB 29.26 -> 49.14 -> 52.79 %",
          "runs.csv bcr (%), fig9: per-seed slope against the intensity rank 1, 2, 3 of wl1-wl3; one part per "
          "ICS scheme", bcr_rises_with_communication, link="fig9_bcr_fdr.md"),
    Claim("tab4-bcr-rises-with-mpl", "Sect. 5.3, Table 4",
          "The more processes a node may hold, the larger the share of boost conflicts.",
          "trend", "about 10-15 % at MPL 2, 28-37 % at MPL 3, 43-68 % at MPL 5",
          "runs.csv bcr (%), fig10: per-seed slope against MPL 2, 3, 5; one part per ICS scheme",
          bcr_rises_with_mpl, link="fig10_bcr_fdr.md"),
    Claim("fig10-response-falls-with-mpl", "Sect. 5.3, Fig. 10a",
          "Mean response falls as the multiprogramming level rises, for every scheme.",
          "trend", "decreasing from MPL 2 to 5",
          "runs.csv mean_response, fig10: per-seed slope against MPL; one part per scheme",
          response_falls_with_mpl, side="below", link="fig10_response.png"),
    Claim("fig10-mpl2-gain-small", "Sect. 5.3, Fig. 10a",
          "With only two processes per node PROC gains little: its largest cut in mean response stays below a fifth.",
          "threshold", "up to 18.8 %",
          "runs.csv mean_response at MPL 2: per seed the largest of the reductions (%) PROC-B vs SB, PROC-B vs "
          "HYBRID, PROC-S vs PB", mpl2_gain, side="below", bound=18.8, link="fig10_response.png"),
    Claim("fig11-skew-prolongs", "Sect. 5.4, Fig. 11a",
          "A 60 % task skew lengthens the turnaround of every scheme compared with no skew.",
          "ordering", "longer at v = 60 % for all schemes",
          f"runs.csv turnaround, fig11: v = 60 % minus v = 0 %, {PER_SEED}; one part per scheme",
          skew_prolongs, link="fig11_turnaround.png"),
    Claim("fig11-bcr-with-skew", "Sect. 5.4, Fig. 11c",
          "Skew spreads message arrivals, so blocking schemes see fewer boost conflicts, while spinning schemes "
          "see more.",
          "ordering", "SB 45.98 -> 40.17 %, PROC-B 44.93 -> 38.84 %, HYBRID 44.16 -> 37.86 %; PB 65.98 -> 66.30 %, "
                      "PROC-S 66.89 -> 68.63 %",
          "runs.csv bcr (%), fig11: change from v = 0 % to 60 % per seed, signed so that the paper's direction "
          "(fall for blocking, rise for spinning) is positive; one part per scheme", bcr_with_skew,
          link="fig11_bcr_fdr.md"),
    _reduction_claim("fig13-procb-vs-batch", "Sect. 5.6, Fig. 13a",
                     "On the NPB applications PROC-B finishes the workload up to a quarter sooner than batch.",
                     "up to 25.6 % (PROC-S: up to 13.5 %)", npb_best_vs_batch, 25.6, "fig13_vs_batch.md",
                     "runs.csv turnaround, fig13: per seed the largest over applications of 100 (1 - PROC-B / BATCH)"),
    Claim("fig13-gain-rises-with-intensity", "Sect. 5.6, Fig. 13a",
          "PROC's gain grows with the application's communication intensity (BT < MG < FT < IS < CG).",
          "trend", "minimal for BT, largest for the communication-intensive ones",
          "runs.csv turnaround, fig13: per seed the slope of PROC-B's reduction (%) against SB over the intensity "
          "ranks 1-5", npb_gain_rises_with_intensity, link="fig13_vs_batch.md"),
    Claim("fig13-proc-best-in-family", "Sect. 5.6, Fig. 13a",
          "On every NPB application PROC-B beats the other blocking schemes and PROC-S the other spinning ones.",
          "ordering", "always, for all applications",
          "runs.csv turnaround, fig13: per seed, best other scheme of the family minus the PROC scheme; parts per "
          "application and PROC scheme", npb_proc_best_in_family, link="fig13_turnaround.png"),
    Claim("fig14-response-rises-with-rate", "Sect. 5.6, Fig. 14a",
          "In the NPB mix, mean response grows with the job arrival rate for every scheme.",
          "trend", "near-linear growth with the arrival rate",
          "runs.csv mean_response, fig14: per-seed slope against the arrival rate (1 / mean_interarrival); one part "
          "per scheme", mix_response_rises_with_rate, link="fig14_response.png"),
    Claim("fig14-procb-best", "Sect. 5.6, Fig. 14a",
          "In the NPB mix PROC-B gives the lowest mean response at every arrival rate.",
          "ordering", "PROC-B much lower than the others",
          "runs.csv mean_response, fig14: smallest of the other schemes minus PROC-B per seed; parts per rate",
          mix_procb_best, link="fig14_response.png"),
    Claim("fig5b-measured-costs", "Sect. 4.1, Fig. 5b",
          "The cost parameters (16 KB one-way latency, interrupt, check, upload/download costs) come from "
          "microbenchmarks on a Pentium-4 1.8 GHz Myrinet cluster.",
          "value", "16 KB one-way 229.9 us, interrupt 50 us, check 2 us, upload/download 2/1 us",
          "not measured: we take the paper's values as inputs (parameters.json)", target=229.9, tolerance=0.0,
          tolerance_why="a hardware measurement we do not repeat", link="parameters.json",
          not_attempted="measured on the authors' hardware (Pentium-4 / Myrinet microbenchmarks); a simulation "
                        "can only take these costs as inputs"),
    Claim("tab2-npb-characteristics", "Sect. 4.2, Table 2",
          "The NPB CLASS B applications rank BT < MG < FT < IS < CG in communication intensity, with the stated "
          "message counts and size mixes and sequential times from runs on the authors' cluster.",
          "ordering", "BT low, MG and FT medium, IS and CG high",
          "not measured: message counts and sizes are inputs (parameters.json); computation times are assumed "
          "shares, not measured", link="parameters.json",
          not_attempted="measured by running NPB on the authors' cluster; we have neither the runs nor their "
                        "sequential times, so our NPB-like jobs take Table 2 as input with assumed computation shares"),
)
