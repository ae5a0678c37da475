"""The claims ledger of the koala stage: Sonmez, Mohamed and Epema, "On the Benefit of Processor
Coallocation in Multicluster Grid Systems", IEEE TPDS 21(6), 2010 (DAS-3, KOALA, DGSim).

Every checkable claim of the paper's evaluation is one ``Claim``.  The simulated ones
(Sec. 6.3 and 7.2: Figs. 7a, 7b, 8, 10 and Table 4) are computed from the stage's per-run
table ``runs`` (one row per app, policy, net utilization, seed, configuration and job
sizes, as ``pipeline.koala`` gathers it); those the paper measured on DAS-3 itself
(Sec. 5, 6.2, 7.1) stay ``not_attempted``.

How the statistics are built, for every claim alike:

- A change in mean response time is paired per seed: every policy ran the same seeds'
  workloads (common random numbers), so the statistic is, per seed,
  ``100 x (R_treatment / R_baseline - 1)`` at one net utilization.
- Saturation is judged per seed with the simulator's rule (``saturated`` column): a run
  whose placement queue keeps growing.  At a load where any seed of either policy
  saturated no % change is computed (a change between runs whose queues grow without bound
  depends on how long they ran, not on the policies).  A claim about which policy is
  slower is judged there on the per-seed paired growth of the placement queue over the
  window (jobs, ``queue_growth``): the policy whose backlog grows faster is the slower one
  however long the run, and where both are stable the difference is noise around 0, so a
  load where only some seeds saturated stays undecided unless every seed agrees.  Any
  other claim leaves such a load undecided: its part carries no value and never counts as
  holding.
- A saturation point is, per seed, the first load of our grid at which the run saturated.
  A seed that never saturates on the grid is censored: for an ordering it counts as one
  grid step past the grid's end (a lower bound, which keeps the ordering's sign sound);
  for a value whose band reaches past the grid's end it cannot be placed and the part is
  left undecided.
- "Above 40 %" is where the paper says coallocation starts to matter (below it jobs fit
  in single clusters): loads of our grid strictly above 0.40.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from reports.ledger import Claim, Measurement, NotMeasured, Part, least_squares_slope, paired, part, per_seed

RUNS = "runs"
"""The result table the claims read: one row per run."""

SMALL_JOBS = {"config": "A", "sizes": "8/16/32"}
"""Sec. 6.3: config A (Delft excluded), job sizes uniform on 8, 16, 32 nodes."""
LARGE_JOBS = {"app": "wave", "sizes": "32/48/64"}
"""Sec. 7.2: Wave, job sizes uniform on 32, 48, 64 nodes (config A or B)."""
COALLOCATION_MATTERS = 0.40
NO_DIFFERENCE_POINTS = 10.0

FIG7A, FIG7B, FIG8, FIG10 = ("fig7a_coallocation.png", "fig7b_observed_utilization.png", "fig8_ccr.png",
                             "fig10_policies.png")
TABLE4, MODEL = "table4_saturation.md", "execution_model.md"


# --- selecting and pairing runs --------------------------------------------------------------


def _runs(results) -> pd.DataFrame:
    if RUNS not in results:
        raise NotMeasured("no per-run result table")
    return results[RUNS]


def rows_where(runs: pd.DataFrame, where: dict) -> pd.DataFrame:
    mask = pd.Series(True, index=runs.index)
    for column, value in where.items():
        mask &= runs[column] == value
    return runs[mask]


def run_loads(runs: pd.DataFrame, where: dict) -> list[float]:
    loads = sorted(rows_where(runs, where)["net_utilization"].unique())
    if not loads:
        raise NotMeasured(f"no run with {where}")
    return [float(load) for load in loads]


def load_percent(load: float) -> str:
    return f"{100 * load:.0f} %"


def _saturated_runs(runs: pd.DataFrame, where: dict, policies, load: float) -> dict[str, int]:
    """Per policy, how many seeds saturated at ``load``."""
    return {
        policy: int(rows_where(runs, {**where, "policy": policy, "net_utilization": load})["saturated"].astype(bool).sum())
        for policy in policies
    }


def unsaturated_loads(runs: pd.DataFrame, where: dict, policies, above: float = -math.inf) -> list[float]:
    return [load for load in run_loads(runs, {**where, "policy": policies[0]})
            if load > above + 1e-9 and not any(_saturated_runs(runs, where, policies, load).values())]


def _undecided(label: str, seeds) -> Part:
    """A part that is reported but never decided (no value per seed)."""
    return Part(label, (math.nan,) * len(seeds), tuple(int(s) for s in seeds))


def _paired_part(runs, where, treatment, baseline, load, column, how, label, scale=1.0, ordering=False) -> Part:
    """Per-seed paired statistic of ``column`` at ``load``.  Where a seed of either policy saturated the
    statistic is meaningless (it grows with the run's length): the part is undecided, or, for an
    ``ordering`` (which policy is slower), measured instead by the per-seed paired growth of the
    placement queue over the window (jobs), whose sign says which policy falls behind faster."""
    treated = per_seed(runs, column, {**where, "policy": treatment, "net_utilization": load})
    base = per_seed(runs, column, {**where, "policy": baseline, "net_utilization": load})
    saturated = _saturated_runs(runs, where, (treatment, baseline), load)
    if any(saturated.values()):
        counts = ", ".join(f"{policy} {count}/{len(base)}" for policy, count in saturated.items())
        if not ordering:
            return _undecided(f"{label}: saturated ({counts} seeds), not compared", base.index)
        growth = {policy: per_seed(runs, "queue_growth", {**where, "policy": policy, "net_utilization": load})
                  for policy in (treatment, baseline)}
        return part(f"{label}: saturated ({counts} seeds), queue growth {treatment} - {baseline} (jobs)",
                    paired(growth[treatment], growth[baseline]))
    return part(label, scale * paired(treated, base, how))


def _change_parts(runs, where, treatment, baseline, loads, label="", ordering=True) -> Measurement:
    """% change in mean response time of ``treatment`` against ``baseline``, one part per load; at a
    saturated load an ``ordering`` is decided by queue growth (``_paired_part``), anything else is not."""
    if not loads:
        raise NotMeasured(f"no load of the grid in the claimed range for {where}")
    return Measurement(tuple(
        _paired_part(runs, where, treatment, baseline, load, "mean_response_time", "relative",
                     f"{label}{load_percent(load)}".strip(), 100.0, ordering)
        for load in loads
    ))


def _changes_above(app, treatment="FCM", baseline="WF", low=COALLOCATION_MATTERS, high=math.inf):
    def compute(results):
        runs = _runs(results)
        where = {**SMALL_JOBS, "app": app}
        loads = [load for load in run_loads(runs, where) if low + 1e-9 < load <= high + 1e-9]
        return _change_parts(runs, where, treatment, baseline, loads)
    return compute


def _slope_part(runs, where, loads, statistic, label) -> Part:
    """Per seed, the least-squares slope of ``statistic(load)`` (a per-seed series) against load."""
    if len(loads) < 2:
        seeds = sorted(rows_where(runs, where)["seed"].unique())
        return _undecided(f"{label}: fewer than two unsaturated loads, no trend", seeds)
    table = pd.DataFrame({load: statistic(load) for load in loads})
    x = np.asarray(loads, dtype=float)
    values = table.apply(lambda row: least_squares_slope(x, row.to_numpy(dtype=float)), axis=1)
    return part(f"{label} ({', '.join(load_percent(load) for load in loads)})".strip(), values)


def _change(runs, where, treatment, baseline):
    def statistic(load):
        treated = per_seed(runs, "mean_response_time", {**where, "policy": treatment, "net_utilization": load})
        base = per_seed(runs, "mean_response_time", {**where, "policy": baseline, "net_utilization": load})
        return 100.0 * paired(treated, base, "relative")
    return statistic


def first_saturated_load(runs: pd.DataFrame, where: dict) -> tuple[pd.Series, float, float]:
    """Per seed, the lowest load of the grid at which the run saturated (NaN if none); the grid's last
    load and its step."""
    rows = rows_where(runs, where)
    if rows.empty:
        raise NotMeasured(f"no run with {where}")
    loads = np.sort(rows["net_utilization"].unique())
    step = float(np.min(np.diff(loads))) if len(loads) > 1 else math.nan
    hit = rows[rows["saturated"].astype(bool)].groupby("seed")["net_utilization"].min()
    first = hit.reindex(sorted(rows["seed"].unique())).astype(float)
    return first, float(loads[-1]), step


def _saturation_lower_bound(runs, where) -> pd.Series:
    """First saturated load per seed, a censored seed counting one grid step past the grid's end."""
    first, last, step = first_saturated_load(runs, where)
    return first.fillna(last + step)


def _saturation_part(runs, where, low, high, label) -> Part:
    """First saturated load minus the middle of the paper's interval (low, high], per seed."""
    first, last, step = first_saturated_load(runs, where)
    censored = first.isna()
    # A seed not saturated by the grid's end saturates beyond it: undecided only where the interval reaches
    # past that end; ending on it, the seed lies outside.
    if censored.any() and high > last + 1e-9:
        return _undecided(f"{label}: {int(censored.sum())} seed(s) not saturated by {load_percent(last)}, "
                          "the grid's end, so the interval cannot be placed", first.index)
    # Rounded so that a grid load on the interval's edge is not pushed out of it by float error.
    return part(label, (first.fillna(last + step) - (low + high) / 2).round(9))


def _saturation_value(groups):
    """``groups``: (label, run selector, low, high of the paper's interval), one part each."""
    def compute(results):
        runs = _runs(results)
        return Measurement(tuple(_saturation_part(runs, where, low, high, label) for label, where, low, high in groups))
    return compute


# --- the claims' computations ----------------------------------------------------------------


def no_difference_at_low_load(results) -> Measurement:
    runs = _runs(results)
    parts = []
    for app in ("prime", "poisson", "wave"):
        where = {**SMALL_JOBS, "app": app}
        loads = [load for load in run_loads(runs, where) if load <= COALLOCATION_MATTERS + 1e-9]
        parts += _change_parts(runs, where, "FCM", "WF", loads, f"{app} ", ordering=False).parts
    return Measurement(tuple(parts))


def prime_benefit_grows(results) -> Measurement:
    runs = _runs(results)
    where = {**SMALL_JOBS, "app": "prime"}
    loads = unsaturated_loads(runs, where, ("FCM", "WF"))
    return Measurement((_slope_part(runs, where, loads, _change(runs, where, "FCM", "WF"), "prime"),))


def prime_fcm_saturates_later(results) -> Measurement:
    runs = _runs(results)
    where = {**SMALL_JOBS, "app": "prime"}
    fcm = _saturation_lower_bound(runs, {**where, "policy": "FCM"})
    wf = _saturation_lower_bound(runs, {**where, "policy": "WF"})
    return Measurement((part("FCM - WF", paired(fcm, wf)),))


def wave_fcm_saturates_early(results) -> Measurement:
    runs = _runs(results)
    where = {**SMALL_JOBS, "app": "wave"}
    fcm = _saturation_lower_bound(runs, {**where, "policy": "FCM"})
    wf = _saturation_lower_bound(runs, {**where, "policy": "WF"})
    return Measurement((part("WF - FCM", paired(wf, fcm)),))


def wave_limit_share(results) -> Measurement:
    """Share of FCM's extra response time (over WF) that limiting FCM to two clusters removes."""
    runs = _runs(results)
    where = {**SMALL_JOBS, "app": "wave"}
    parts = []
    for load in [load for load in run_loads(runs, where) if load > COALLOCATION_MATTERS + 1e-9]:
        saturated = _saturated_runs(runs, where, ("FCM", "FCM2", "WF"), load)
        response = {policy: per_seed(runs, "mean_response_time", {**where, "policy": policy, "net_utilization": load})
                    for policy in ("FCM", "FCM2", "WF")}
        if any(saturated.values()):
            counts = ", ".join(f"{policy} {count}/{len(response['WF'])}" for policy, count in saturated.items())
            parts.append(_undecided(f"{load_percent(load)}: saturated ({counts} seeds), not compared", response["WF"].index))
            continue
        removed = paired(response["FCM"], response["FCM2"])
        added = paired(response["FCM"], response["WF"])
        parts.append(part(load_percent(load), removed / added))
    if not parts:
        raise NotMeasured("no load above 40 % in the grid")
    return Measurement(tuple(parts))


def wave_observed_above_net(results) -> Measurement:
    runs = _runs(results)
    where = {**SMALL_JOBS, "app": "wave", "policy": "FCM"}
    parts = []
    for load in [load for load in run_loads(runs, where) if load > COALLOCATION_MATTERS + 1e-9]:
        observed = per_seed(runs, "observed_utilization", {**where, "net_utilization": load})
        net = per_seed(runs, "net_utilization_realized", {**where, "net_utilization": load})
        saturated = int(rows_where(runs, {**where, "net_utilization": load})["saturated"].astype(bool).sum())
        if saturated:
            parts.append(_undecided(f"{load_percent(load)}: FCM saturated ({saturated}/{len(net)} seeds)", net.index))
        else:
            parts.append(part(load_percent(load), 100.0 * paired(observed, net)))
    if not parts:
        raise NotMeasured("no load above 40 % in the grid")
    return Measurement(tuple(parts))


def _ccr_apps(runs, keep) -> list[tuple[str, float]]:
    apps = sorted({app for app in runs["app"].unique() if str(app).startswith("ccr-")},
                  key=lambda app: float(app.removeprefix("ccr-")))
    chosen = [(app, float(app.removeprefix("ccr-"))) for app in apps if keep(float(app.removeprefix("ccr-")))]
    if not chosen:
        raise NotMeasured("no synthetic application with the claimed CCR in this profile")
    return chosen


def _ccr_changes(keep, pick_loads):
    def compute(results):
        runs = _runs(results)
        parts = []
        for app, ccr in _ccr_apps(runs, keep):
            where = {**SMALL_JOBS, "app": app}
            loads = pick_loads(run_loads(runs, where))
            parts += _change_parts(runs, where, "FCM", "WF", loads, f"CCR {ccr:g} ").parts
        return Measurement(tuple(parts))
    return compute


def _above_40(loads):
    return [load for load in loads if load > COALLOCATION_MATTERS + 1e-9]


def ccr_mid_benefit_shrinks(results) -> Measurement:
    runs = _runs(results)
    parts = []
    for app, ccr in _ccr_apps(runs, lambda ccr: 0.25 <= ccr <= 0.5):
        where = {**SMALL_JOBS, "app": app}
        loads = unsaturated_loads(runs, where, ("FCM", "WF"), above=COALLOCATION_MATTERS - 1e-6)
        parts.append(_slope_part(runs, where, loads, _change(runs, where, "FCM", "WF"), f"CCR {ccr:g}"))
    return Measurement(tuple(parts))


def ca_faster(results) -> Measurement:
    runs = _runs(results)
    parts = []
    for config in ("A", "B"):
        where = {**LARGE_JOBS, "config": config}
        parts += _change_parts(runs, where, "CA", "FCM", run_loads(runs, where), f"config {config} ").parts
    return Measurement(tuple(parts))


def _gap(runs, where):
    """Per seed, FCM's minus CA's mean response time (s) at one load: CA's lead."""
    def statistic(load):
        fcm = per_seed(runs, "mean_response_time", {**where, "policy": "FCM", "net_utilization": load})
        ca = per_seed(runs, "mean_response_time", {**where, "policy": "CA", "net_utilization": load})
        return paired(fcm, ca)
    return statistic


def gap_widens(results) -> Measurement:
    runs = _runs(results)
    parts = []
    for config in ("A", "B"):
        where = {**LARGE_JOBS, "config": config}
        loads = unsaturated_loads(runs, where, ("FCM", "CA"))
        parts.append(_slope_part(runs, where, loads, _gap(runs, where), f"config {config}"))
    return Measurement(tuple(parts))


def gap_larger_with_delft(results) -> Measurement:
    """CA's lead must be positive in each configuration AND larger in B: a negative lead in A cannot
    make the comparison pass."""
    runs = _runs(results)
    wheres = {config: {**LARGE_JOBS, "config": config} for config in ("A", "B")}
    loads = sorted(set(unsaturated_loads(runs, wheres["A"], ("FCM", "CA")))
                   & set(unsaturated_loads(runs, wheres["B"], ("FCM", "CA"))))
    if not loads:
        raise NotMeasured("no load at which neither policy saturated in either configuration")
    lead = {config: pd.concat([_gap(runs, where)(load) for load in loads], axis=1).mean(axis=1)
            for config, where in wheres.items()}
    span = ", ".join(load_percent(load) for load in loads)
    return Measurement((
        part(f"CA's lead in config A ({span})", lead["A"]),
        part(f"CA's lead in config B ({span})", lead["B"]),
        part(f"lead B - lead A ({span})", paired(lead["B"], lead["A"])),
    ))


# --- the ledger ------------------------------------------------------------------------------

HARDWARE = "measured on the DAS-3 testbed itself; this stage simulates the system and has no such measurement"

CLAIMS = (
    # Sec. 5 and 6.2 / 7.1: measurements on DAS-3.
    Claim(
        "fig3-coallocation-slows-execution", "Sec. 5.1, Fig. 3, Table 2",
        "An all-gather MPI program runs longer the more clusters it is spread over, and far longer when the "
        "wide-area links are 1 Gb Ethernet (with Delft) than with Myri-10G.",
        "ordering",
        "time grows with the number of clusters; much more over GbE (figure values lost)",
        "Not computed: our f(S) is a model input (see the execution model table), not an output.",
        not_attempted=HARDWARE + "; our communication factor f(S) is an input calibrated on Fig. 4, not a result",
        link=MODEL,
    ),
    Claim(
        "table3-processor-heterogeneity", "Sec. 5.2, Table 3",
        "Pairing the fastest cluster (Leiden) with any other stretches a compute-only program by a small amount.",
        "value", "7-17 % longer",
        "Not computed: the slowest-processor stretch is a model option, off in every run.",
        target=12.0, tolerance=5.0, tolerance_why="the paper's range 7-17 %",
        not_attempted=HARDWARE,
        link=MODEL,
    ),
    Claim(
        "fig6-real-runs-at-40", "Sec. 6.2.2, Fig. 6",
        "On the real system at about 40 % load plus 10-30 % background load, coallocation (FCM) lowers the mean "
        "response time of Prime and Poisson and raises Wave's; few jobs are coallocated.",
        "ordering", "Prime, Poisson: FCM lower; Wave: FCM higher (figure values lost)",
        "Not computed: real runs with background load; Fig. 7a is the simulated counterpart.",
        not_attempted=HARDWARE + " (4-hour runs with 10-30 % background load of other users)",
        link=FIG7A,
    ),
    Claim(
        "fig9-real-ca-lead", "Sec. 7.1.2, Fig. 9",
        "On the real system, CA's mean response time beats FCM's for 64-node Wave jobs, by a moderate margin "
        "without Delft and a large one with Delft.",
        "ordering", "CA ahead by 50 s (without Delft) and 230 s (with Delft)",
        "Not computed: real runs; Fig. 10 is the simulated counterpart.",
        not_attempted=HARDWARE,
        link=FIG10,
    ),
    # Sec. 6.3: coallocation (FCM) versus none (WF), simulated.
    Claim(
        "fig7a-no-difference-up-to-40", "Sec. 6.3.2, Fig. 7a",
        "Up to 40 % net utilization jobs fit in single clusters, so FCM and WF give the same mean response time "
        "for all three applications.",
        "value", "no difference up to 40 %",
        "runs: per seed, 100 x (R_FCM / R_WF - 1) of mean_response_time, sizes 8/16/32, config A; one part per "
        "application and grid load <= 40 %.",
        compute=no_difference_at_low_load, target=0.0, tolerance=NO_DIFFERENCE_POINTS,
        tolerance_why="read off Fig. 7a, whose axis spans hundreds of percent: a change within 10 points shows "
                      "as none",
        link=FIG7A,
    ),
    Claim(
        "fig7a-prime-benefit-grows", "Sec. 6.3.2, Fig. 7a",
        "For the compute-bound Prime, what FCM saves over WF grows as the load rises.",
        "trend", "benefit increases with contention",
        "runs: per seed, the least-squares slope of Prime's % change (FCM vs WF) against net utilization over "
        "the grid loads where no seed of either policy saturated; claimed below 0.",
        compute=prime_benefit_grows, side="below", bound=0.0,
        link=FIG7A,
    ),
    Claim(
        "fig7a-prime-fcm-faster", "Sec. 6.3.2, Fig. 7a",
        "Above 40 % load FCM gives Prime a lower mean response time than WF.",
        "ordering", "FCM better (negative change) once jobs need coallocation",
        "runs: per seed, Prime's % change FCM vs WF at each grid load above 40 %; claimed below 0; "
        "at a load where a seed saturated, the paired queue growth (jobs) instead.",
        compute=_changes_above("prime"), side="below", bound=0.0,
        link=FIG7A,
    ),
    Claim(
        "table4-prime-saturation", "Sec. 6.3.2, Table 4",
        "Prime saturates the system between 85 and 90 % net utilization under WF, and only between 90 and 95 % "
        "under FCM.",
        "value", "WF 85-90 %, FCM 90-95 %",
        "runs: per seed, the first grid load at which the run saturated (the simulator's queue-growth rule), "
        "minus the middle of the paper's interval (0.875 for WF, 0.925 for FCM); one part per policy.",
        compute=_saturation_value((
            ("WF (85-90 %)", {**SMALL_JOBS, "app": "prime", "policy": "WF"}, 0.85, 0.90),
            ("FCM (90-95 %)", {**SMALL_JOBS, "app": "prime", "policy": "FCM"}, 0.90, 0.95),
        )),
        target=0.0, tolerance=0.025,
        tolerance_why="half the paper's 5-point interval: the first saturated load must fall inside it",
        link=TABLE4,
    ),
    Claim(
        "table4-prime-fcm-saturates-later", "Sec. 6.3.2, Table 4",
        "Without coallocation Prime saturates the system at a lower load than with FCM.",
        "ordering", "WF 85-90 % < FCM 90-95 %",
        "runs: per seed, Prime's first saturated grid load under FCM minus under WF (a seed never saturated "
        "counts one grid step past the grid's end); claimed above 0.",
        compute=prime_fcm_saturates_later, side="above", bound=0.0,
        link=TABLE4,
    ),
    Claim(
        "fig7a-poisson-fcm-faster-to-75", "Sec. 6.3.2, Fig. 7a",
        "For Poisson, FCM beats WF on mean response time up to 75 % net utilization.",
        "ordering", "coallocation advantageous up to 75 %",
        "runs: per seed, Poisson's % change FCM vs WF at each grid load above 40 % and up to 75 %; claimed "
        "below 0; at a load where a seed saturated, the paired queue growth (jobs) instead.",
        compute=_changes_above("poisson", high=0.75), side="below", bound=0.0,
        link=FIG7A,
    ),
    Claim(
        "fig7a-poisson-fcm-slower-beyond-75", "Sec. 6.3.2, Fig. 7a",
        "Beyond 75 % net utilization FCM makes Poisson's mean response time worse than WF.",
        "ordering", "coallocation disadvantageous above 75 %",
        "runs: per seed, Poisson's % change FCM vs WF at each grid load above 75 %; claimed above 0; at a "
        "load where a seed saturated, the paired queue growth (jobs) instead.",
        compute=_changes_above("poisson", low=0.75), side="above", bound=0.0,
        link=FIG7A,
    ),
    Claim(
        "fig7a-wave-fcm-slower", "Sec. 6.3.2, Fig. 7a",
        "For the communication-heavy Wave, FCM gives a higher mean response time than WF once jobs get "
        "coallocated.",
        "ordering", "coallocation disadvantageous",
        "runs: per seed, Wave's % change FCM vs WF at each grid load above 40 %; claimed above 0; at a load "
        "where a seed saturated, the paired queue growth (jobs) instead.",
        compute=_changes_above("wave"), side="above", bound=0.0,
        link=FIG7A,
    ),
    Claim(
        "table4-wave-fcm-saturates-early", "Sec. 6.3.2, Table 4, Fig. 7b",
        "Under FCM the Wave workload saturates the system at a lower load than under WF.",
        "ordering", "early saturation with FCM (Table 4 values lost)",
        "runs: per seed, Wave's first saturated grid load under WF minus under FCM (a seed never saturated "
        "counts one grid step past the grid's end); claimed above 0.",
        compute=wave_fcm_saturates_early, side="above", bound=0.0,
        link=TABLE4,
    ),
    Claim(
        "fig7a-wave-two-cluster-limit", "Sec. 6.3.2, Fig. 7a",
        "Letting FCM combine at most two clusters improves Wave's mean response time over unlimited FCM, but "
        "only a little.",
        "ordering", "better than no limit; the benefit is minor",
        "runs: per seed, (R_FCM - R_FCM<=2) / (R_FCM - R_WF), the share of FCM's extra response time the limit "
        "removes, at each grid load above 40 %; claimed above 0 (helps) and within 0-0.5 (minor); a load where "
        "a seed of any of the three saturated is not compared.",
        compute=wave_limit_share, side="above", bound=0.0, target=0.25, tolerance=0.25,
        tolerance_why="'minor' read as removing some but less than half of what coallocation adds; the figure's "
                      "values are lost",
        link=FIG7A,
    ),
    Claim(
        "fig7b-wave-observed-above-net", "Sec. 6.3.2, Fig. 7b",
        "Under FCM, Wave's stretched coallocated jobs make the observed utilization exceed the net utilization.",
        "ordering", "observed > net for Wave",
        "runs: per seed, 100 x (observed_utilization - net_utilization_realized) of Wave under FCM, in points, "
        "at each grid load above 40 %; claimed above 0; a load where a seed saturated is not compared.",
        compute=wave_observed_above_net, side="above", bound=0.0,
        link=FIG7B,
    ),
    Claim(
        "fig8-mpi-apps-match-ccr", "Sec. 6.3.2, Fig. 8",
        "The MPI workloads behave like synthetic ones: Prime like CCR 0.10, Poisson like CCR 0.25, Wave like "
        "CCR 4.",
        "ordering", "Prime ~ CCR 0.1, Poisson ~ CCR 0.25, Wave ~ CCR 4",
        "Not computed: the match would be circular here.",
        not_attempted="circular in this model: the MPI applications ARE modelled as CCR applications (Prime "
                      "CCR 0, Wave CCR 4 by calibration, Poisson's CCR from a DEFAULT four-cluster time), so a "
                      "match would test the model's inputs, not the paper's finding",
        link=MODEL,
    ),
    Claim(
        "fig8-ccr-010-benefits", "Sec. 6.3.2, Fig. 8",
        "A synthetic application with CCR 0.10 always gains from coallocation.",
        "ordering", "CCR 0.10 always benefits",
        "runs: per seed, the CCR 0.1 workload's % change FCM vs WF at each grid load above 40 % (below it jobs "
        "fit in one cluster and nothing changes); claimed below 0; at a load where a seed saturated, the paired "
        "queue growth (jobs) instead.",
        compute=_ccr_changes(lambda ccr: ccr <= 0.1, _above_40), side="below", bound=0.0,
        link=FIG8,
    ),
    Claim(
        "fig8-ccr-025-050-benefit-at-moderate-load", "Sec. 6.3.2, Fig. 8",
        "With CCR 0.25 to 0.50, coallocation still pays off at moderate load.",
        "ordering", "beneficial to a certain extent",
        "runs: per seed, % change FCM vs WF for CCR 0.25 and 0.5 at the lowest grid load above 40 %; claimed "
        "below 0.",
        compute=_ccr_changes(lambda ccr: 0.25 <= ccr <= 0.5, lambda loads: _above_40(loads)[:1]),
        side="below", bound=0.0,
        link=FIG8,
    ),
    Claim(
        "fig8-ccr-025-050-benefit-shrinks", "Sec. 6.3.2, Fig. 8",
        "With CCR 0.25 to 0.50, coallocation's effect on the response time worsens as the load rises (its gain "
        "shrinks, then turns into a loss); whether there is a gain at all is the moderate-load claim.",
        "trend", "benefit decreases with contention",
        "runs: per seed, the slope of the % change FCM vs WF against net utilization over the grid loads from "
        "40 % up where no seed of either policy saturated, per CCR; claimed above 0.",
        compute=ccr_mid_benefit_shrinks, side="above", bound=0.0,
        link=FIG8,
    ),
    Claim(
        "fig8-ccr-025-050-loss-at-high-load", "Sec. 6.3.2, Fig. 8",
        "With CCR 0.25 to 0.50, coallocation ends up costing response time at high load.",
        "ordering", "after some point disadvantageous",
        "runs: per seed, % change FCM vs WF for CCR 0.25 and 0.5 at the grid's highest load; claimed above 0; "
        "if a seed saturated there, the paired queue growth (jobs) instead.",
        compute=_ccr_changes(lambda ccr: 0.25 <= ccr <= 0.5, lambda loads: loads[-1:]), side="above", bound=0.0,
        link=FIG8,
    ),
    Claim(
        "fig8-ccr-above-050-loses", "Sec. 6.3.2, Fig. 8",
        "Above CCR 0.50 coallocation always raises the mean response time, and by a lot.",
        "ordering", "CCR > 0.50 always disadvantageous, severely",
        "runs: per seed, % change FCM vs WF for every CCR above 0.5 at each grid load above 40 %; claimed "
        "above 0 (the severity is not sized: the figure's values are lost); at a load where a seed saturated, the "
        "paired queue growth (jobs) instead.",
        compute=_ccr_changes(lambda ccr: ccr > 0.5, _above_40), side="above", bound=0.0,
        link=FIG8,
    ),
    # Sec. 7.2: FCM versus CA, simulated.
    Claim(
        "fig10-ca-faster", "Sec. 7.2.2, Fig. 10",
        "CA gives a lower mean response time than FCM at almost every load, with and without Delft.",
        "ordering", "CA better at almost all loads (20-80 %)",
        "runs: per seed, 100 x (R_CA / R_FCM - 1), Wave with 32/48/64 nodes, at each grid load, configs A and "
        "B; claimed below 0; at a load where a seed saturated, the paired queue growth (jobs) instead.",
        compute=ca_faster, side="below", bound=0.0,
        link=FIG10,
    ),
    Claim(
        "fig10-gap-widens", "Sec. 7.2.2, Fig. 10",
        "The distance between FCM and CA grows as the load rises.",
        "trend", "the gap widens with utilization",
        "runs: per seed, the slope of R_FCM - R_CA (s) against net utilization over the grid loads where no "
        "seed of either policy saturated, per configuration; claimed above 0.",
        compute=gap_widens, side="above", bound=0.0,
        link=FIG10,
    ),
    Claim(
        "fig10-saturation-without-delft", "Sec. 7.2.2, Fig. 10a",
        "Without Delft the system saturates between 75 and 80 % net utilization.",
        "value", "75-80 %",
        "runs: per seed, the first grid load at which the run saturated, minus 0.775, Wave 32/48/64 in config "
        "A; one part per policy.",
        compute=_saturation_value(tuple((policy, {**LARGE_JOBS, "config": "A", "policy": policy}, 0.75, 0.80)
                                        for policy in ("FCM", "CA"))),
        target=0.0, tolerance=0.025,
        tolerance_why="half the paper's 5-point interval: the first saturated load must fall inside it",
        link=TABLE4,
    ),
    Claim(
        "fig10-saturation-with-delft", "Sec. 7.2.2, Fig. 10b",
        "With Delft (slow 1 Gb links) the system saturates much earlier, between 60 and 70 % net utilization.",
        "value", "60-70 %",
        "runs: per seed, the first grid load at which the run saturated, minus 0.65, Wave 32/48/64 in config "
        "B; one part per policy.",
        compute=_saturation_value(tuple((policy, {**LARGE_JOBS, "config": "B", "policy": policy}, 0.60, 0.70)
                                        for policy in ("FCM", "CA"))),
        target=0.0, tolerance=0.05,
        tolerance_why="half the paper's 10-point interval: the first saturated load must fall inside it",
        link=TABLE4,
    ),
    Claim(
        "fig10-lead-larger-with-delft", "Sec. 7.2.2, Fig. 10 (and 7.1.2)",
        "CA's advantage over FCM is much larger when Delft is part of the system than when it is not.",
        "ordering", "difference much larger with Delft (real runs: 50 s vs 230 s)",
        "runs: per seed, CA's lead R_FCM - R_CA (s) averaged over the grid loads where no seed of either policy "
        "saturated in either configuration; three parts, all claimed above 0: the lead in A, the lead in B, "
        "and lead B - lead A (so a lead that is negative in A cannot pass).",
        compute=gap_larger_with_delft, side="above", bound=0.0,
        link=FIG10,
    ),
)
