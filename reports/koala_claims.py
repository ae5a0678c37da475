"""The claims ledger of the koala stage: Sonmez, Mohamed and Epema, "On the Benefit of Processor
Coallocation in Multicluster Grid Systems", IEEE TPDS 21(6), 2010 (DAS-3, KOALA, DGSim).

One ``Claim`` per checkable statement of the paper's evaluation (Sec. 5-7): a sentence, a
figure panel or a table cell.  The simulated ones (Sec. 6.3 and 7.2: Figs. 7a, 7b, 8, 10,
Table 4) are computed from the stage's per-run table ``runs`` (one row per application,
policy, net utilization, seed, configuration and job sizes, as ``pipeline.koala`` gathers
it) and, for which clusters the policies combine, ``cluster_use`` (one row per run and
cluster set).  Those the paper measured on DAS-3 itself (Sec. 5, 6.2, 7.1, Table 5) are
``not_attempted`` with the reason.  The model constants chosen on a statement of the paper
(Wave's 750 s on four clusters, the applications' communication shares, the latency order
of Table 2) are ``calibration`` rows, computed from the execution model the runs used
(``execution_model``, ``applications``): shown and judged, not counted.

How the statistics are built, for every claim alike:

- Every policy ran the same seeds' workloads (common random numbers), so a comparison is
  paired per seed: ``100 x (R_treatment / R_baseline - 1)`` (% change in mean response
  time) or ``R_treatment - R_baseline`` (s) at one net utilization.
- A run whose placement queue keeps growing (``saturated``, the simulator's rule) has no
  finite mean response time: it grows with the run's length.  Such a seed is an ordered
  outcome: the saturated policy is the slower one (``+inf`` when the treatment saturated
  and the baseline did not, ``-inf`` the other way round); when both saturated, the one
  whose backlog grew faster over the window (``queue_growth``) is the slower one.  A
  load where any seed of either policy saturated is judged by the sign test on those
  sides (``Part(ordered=True)``), never left undecided.
- A saturation point is, per seed, the load at which saturation sets in: between the last
  grid load below the first saturated one and that one (the midpoint stands for it).  A
  seed never saturated on the grid saturates beyond its end (``+inf``), one saturated at
  its lowest load below it (``-inf``).  A seed whose grid interval straddles an edge of
  the paper's interval cannot be placed: the claim is not measured on that grid.
- The paper's grid is 10-90 % for Sec. 6.3 and 20-80 % for Sec. 7.2; a claim's parts are
  every load of it the statement covers.  Ours reaches 95 % for Sec. 6.3 so that Table 4's
  90-95 % can be placed; only that cell uses the 95 % runs.  "Above 40 %" is where the
  paper says coallocation starts to matter (up to 40 % it sees no difference).
"""

from __future__ import annotations

from collections.abc import Sequence

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from schedlab.reports.ledger import (
    TEXT_NUMBER_TOLERANCE,
    TEXT_NUMBER_WHY,
    Claim,
    Measurement,
    NotMeasured,
    Part,
    gathered,
)

RUNS = "runs"
"""The result table of the runs: one row per run."""
CLUSTER_USE = "cluster_use"
"""One row per run and cluster set: the point's fields, ``clusters`` ("UvA+MultimediaN") and ``jobs``."""
EXECUTION_MODEL = "execution_model"
"""One row per configuration and cluster set: ``communication_factor`` f(S) and ``wave_run_time_s``."""
APPLICATIONS = "applications"
"""One row per application of the runs (``key``): ``computation_s``, ``communication_s``."""

SMALL_JOBS = {"config": "A", "sizes": "8/16/32"}
"""Sec. 6.3: config A (Delft excluded), job sizes uniform on 8, 16, 32 nodes."""
LARGE_JOBS = {"app": "wave", "sizes": "32/48/64"}
"""Sec. 7.2: Wave, job sizes uniform on 32, 48, 64 nodes (config A or B)."""
COALLOCATION_MATTERS = 0.40
"""Sec. 6.3.2: up to 40 % net utilization jobs fit in single clusters and the paper sees no difference."""
SEC63_GRID_END = 0.90
"""The paper's Sec. 6.3 grid ends at 90 % (ours goes on to 95 % for Table 4's 90-95 % cell only)."""
POISSON_TURN = 0.75
"""Sec. 6.3.2: Poisson gains from coallocation up to 75 % net utilization and loses beyond."""
CONFIGS = ("A", "B")
DELFT_CONTEXT = {"A": " without Delft", "B": " with Delft"}
FAST_PAIR = frozenset({"UvA", "MultimediaN"})
"""Sec. 5.1 / 7.1.2: Amsterdam (UvA) and MultimediaN share a building and have the best inter-cluster link."""
SLOW_CLUSTER = "Delft"
NO_DIFFERENCE_POINTS = 10.0
"""Percentage points of change in mean response time that Fig. 7a's axis (hundreds of %) shows as none."""
MINOR_SHARE = 50.0
"""'The benefit is minor': our reading, the limit removes under half of what coallocation adds (in %)."""
CA_EXCEPTIONS = 2
"""'For almost all utilization levels in both sets': at most one level of the 13 in each configuration."""
PAPER_CCR_MATCH = {"prime": 0.1, "poisson": 0.25, "wave": 4.0}
"""Sec. 6.3.2: the synthetic CCR each MPI application's workload matches."""
WAVE_STRETCH_PERCENT = 100.0 * (750.0 / 200.0 - 1.0)
"""Fig. 4: Wave's 200 s on one cluster become 750 s on four, 275 % longer."""
EPSILON = 1e-9
POLICY_NAMES = {"FCM2": "FCM<=2"}
"""How the ledger names a policy whose key is not the paper's name."""

FIG7A, FIG7B, FIG8, FIG10 = ("fig7a_coallocation.png", "fig7b_observed_utilization.png", "fig8_ccr.png",
                             "fig10_policies.png")
TABLE4, MODEL, CLUSTER_USE_TABLE = "table4_saturation.md", "execution_model.md", "cluster_use.md"

CHANGE = "% change"
POINTS_OF_CHANGE = "points of % change"
SECONDS = "s"
LOAD = "% net utilization"


# --- selecting runs ---------------------------------------------------------------------------


def _table(results, name: str) -> pd.DataFrame:
    if name not in results:
        raise NotMeasured(f"no {name} table")
    return results[name]


class RunTable:
    """The runs table with its selections grouped once: a claim selects hundreds of (workload, policy, load)
    slices, and masking the whole table for each one costs minutes at the paper profile."""

    def __init__(self, frame: pd.DataFrame):
        self.frame = frame
        self._groups: dict[tuple[str, ...], dict] = {}
        self.outcomes: dict[tuple, object] = {}
        """Comparisons already made (``compare``), by their arguments."""

    def __getitem__(self, column):
        return self.frame[column]

    def rows(self, where: dict) -> pd.DataFrame:
        columns = tuple(sorted(where))
        if not columns:
            return self.frame
        if columns not in self._groups:
            self._groups[columns] = {key if isinstance(key, tuple) else (key,): group
                                     for key, group in self.frame.groupby(list(columns), sort=False)}
        return self._groups[columns].get(tuple(where[column] for column in columns), self.frame.iloc[0:0])


def _runs(results) -> RunTable:
    return RunTable(_table(results, RUNS))


def rows_where(runs: pd.DataFrame | RunTable, where: dict) -> pd.DataFrame:
    if isinstance(runs, RunTable):
        return runs.rows(where)
    mask = pd.Series(True, index=runs.index)
    for column, value in where.items():
        mask &= runs[column] == value
    return runs[mask]


def run_loads(runs: pd.DataFrame, where: dict, low: float = -math.inf, high: float = math.inf) -> list[float]:
    """The grid loads of the runs matching ``where`` in (``low``, ``high``]."""
    loads = sorted(float(load) for load in rows_where(runs, where)["net_utilization"].unique())
    if not loads:
        raise NotMeasured(f"no run with {where}")
    chosen = [load for load in loads if low + EPSILON < load <= high + EPSILON]
    if not chosen:
        raise NotMeasured(f"no grid load in the claimed range for {where}")
    return chosen


def reference_load(runs: pd.DataFrame, where: dict) -> float:
    """The highest grid load up to 40 %: where, by the paper, coallocation has made no difference yet."""
    return run_loads(runs, where, high=COALLOCATION_MATTERS)[-1]


def percent(load: float) -> str:
    return f"{100 * load:.0f} %"


def _by_seed(runs: pd.DataFrame | RunTable, where: dict) -> pd.DataFrame:
    """The runs matching ``where``, one per seed, indexed by seed."""
    chosen = rows_where(runs, where)
    if chosen.empty:
        raise NotMeasured(f"no run with {where}")
    if chosen["seed"].duplicated().any():
        raise ValueError(f"several runs per seed for {where}")
    return chosen.set_index("seed").sort_index()


def _per_seed(runs: pd.DataFrame | RunTable, where: dict, column: str) -> pd.Series:
    return _by_seed(runs, where)[column]


# --- ordered outcomes: a comparison in which a seed may have saturated ----------------------------


@dataclass(frozen=True)
class Outcome:
    """A per-seed statistic (index: seeds) where ``+inf``/``-inf`` stand for a seed that saturation decided;
    ``ordered`` when any seed of a run compared saturated (its side then counts, not its size).  ``backlog``:
    per seed, the treatment's queue growth minus the baseline's (jobs over the window), which orders two
    unbounded outcomes of the same sign (which comparison falls behind faster)."""

    values: pd.Series
    ordered: bool = False
    note: str = ""
    backlog: pd.Series | None = None

    def part(self, label: str) -> Part:
        return Part(f"{label}{self.note}", tuple(float(v) for v in self.values),
                    tuple(int(s) for s in self.values.index), ordered=self.ordered)

    def minus(self, other: Outcome) -> Outcome:
        """Per seed ``self - other``; two unbounded values of the same sign are ordered by their backlogs
        (0, no side, where either has none or they are equal)."""
        if set(self.values.index) != set(other.values.index):
            raise ValueError("a paired statistic needs the same seeds on both sides")
        mine, theirs = self.values, other.values.reindex(self.values.index)
        with np.errstate(invalid="ignore"):
            difference = mine - theirs
        tied = difference.isna()
        if tied.any() and self.backlog is not None and other.backlog is not None:
            behind = np.sign(self.backlog - other.backlog.reindex(self.backlog.index)) * math.inf
            difference = difference.mask(tied, behind.reindex(difference.index))
        backlog = None if self.backlog is None or other.backlog is None else self.backlog - other.backlog
        notes = "".join(dict.fromkeys(note for note in (self.note, other.note) if note))  # once if both alike
        return Outcome(difference.fillna(0.0), self.ordered or other.ordered, notes, backlog)

    def negated(self) -> Outcome:
        return Outcome(-self.values, self.ordered, self.note, None if self.backlog is None else -self.backlog)


def _saturated(runs, where: dict, policy: str, load: float) -> pd.Series:
    return _per_seed(runs, {**where, "policy": policy, "net_utilization": load}, "saturated").astype(bool)


def saturation_note(counts: dict[str, pd.Series], context: str = "") -> str:
    if not any(flags.any() for flags in counts.values()):
        return ""
    return f" (saturated{context}: " + ", ".join(f"{POLICY_NAMES.get(policy, policy)} {int(flags.sum())} of "
                                                 f"{len(flags)} seeds" for policy, flags in counts.items()) + ")"


def compare(runs, where: dict, treatment: str, baseline: str, load: float, how: str = "change",
            context: str = "") -> Outcome:
    """``treatment`` against ``baseline`` at ``load``, per seed: the % change in mean response time
    (``change``) or the difference in seconds (``difference``) where neither run saturated; a saturated
    seed by which policy falls behind (the module docstring).  ``context`` names the comparison in the
    saturation note (" at 40 %")."""
    if isinstance(runs, RunTable):
        key = (tuple(sorted(where.items())), treatment, baseline, load, how, context)
        if key not in runs.outcomes:
            runs.outcomes[key] = _compare(runs, where, treatment, baseline, load, how, context)
        return runs.outcomes[key]
    return _compare(runs, where, treatment, baseline, load, how, context)


def _compare(runs, where, treatment, baseline, load, how, context) -> Outcome:
    treated, base = (_by_seed(runs, {**where, "policy": policy, "net_utilization": load})
                     for policy in (treatment, baseline))
    base = base.reindex(treated.index)
    r_t, r_b = treated["mean_response_time"].astype(float), base["mean_response_time"].astype(float)
    values = 100.0 * (r_t / r_b - 1.0) if how == "change" else r_t - r_b
    hit_t, hit_b = treated["saturated"].astype(bool), base["saturated"].astype(bool)
    backlog = treated["queue_growth"].astype(float) - base["queue_growth"].astype(float)
    ordered = bool(hit_t.any() or hit_b.any())
    if ordered:
        values = values.mask(hit_t & ~hit_b, math.inf).mask(hit_b & ~hit_t, -math.inf)
        values = values.mask(hit_t & hit_b, (np.sign(backlog) * math.inf).fillna(0.0))
    return Outcome(values, ordered, saturation_note({treatment: hit_t, baseline: hit_b}, context), backlog)


def _change_parts(runs, where, treatment, baseline, loads, label, negate=False) -> list[Part]:
    parts = []
    for load in loads:
        outcome = compare(runs, where, treatment, baseline, load)
        parts.append((outcome.negated() if negate else outcome).part(f"{label} at {percent(load)}"))
    return parts


def _app_changes(app: str, low: float, high: float, treatment: str = "FCM", baseline: str = "WF"):
    """% change of ``treatment`` against ``baseline`` for ``app`` (Sec. 6.3 jobs), one part per grid load in
    (``low``, ``high``]."""
    def compute(results) -> Measurement:
        runs = _runs(results)
        where = {**SMALL_JOBS, "app": app}
        return Measurement(tuple(_change_parts(runs, where, treatment, baseline, run_loads(runs, where, low, high),
                                               app_name(app))))
    return compute


def _turn(app: str, turn: float, treatment: str = "FCM", baseline: str = "WF"):
    """``treatment``'s % change against ``baseline`` for ``app`` (Sec. 6.3 jobs) in the direction the paper gives at
    each grid load above 40 %: its saving (the change negated) up to ``turn``, its extra time beyond, up to 90 %;
    both sides of the turn must be run."""
    def compute(results) -> Measurement:
        runs = _runs(results)
        where = {**SMALL_JOBS, "app": app}
        name = app_name(app)
        return Measurement((
            *_change_parts(runs, where, treatment, baseline, run_loads(runs, where, COALLOCATION_MATTERS, turn),
                           f"{name}, {treatment}'s saving,", negate=True),
            *_change_parts(runs, where, treatment, baseline, run_loads(runs, where, turn, SEC63_GRID_END),
                           f"{name}, {treatment}'s extra time,")))
    return compute


def app_name(app: str) -> str:
    return f"CCR {app.removeprefix('ccr-')}" if app.startswith("ccr-") else app.capitalize()


def _ccr_apps(runs: pd.DataFrame, keep) -> list[str]:
    apps = sorted((app for app in runs["app"].unique() if str(app).startswith("ccr-")),
                  key=lambda app: float(app.removeprefix("ccr-")))
    chosen = [app for app in apps if keep(float(app.removeprefix("ccr-")))]
    if not chosen:
        raise NotMeasured("no synthetic application with the claimed CCR in these runs")
    return chosen


# --- saturation points --------------------------------------------------------------------------


def first_saturated_load(runs: pd.DataFrame, where: dict) -> tuple[pd.Series, list[float]]:
    """Per seed, the lowest grid load at which the run saturated (NaN if none), and the grid's loads."""
    rows = rows_where(runs, where)
    if rows.empty:
        raise NotMeasured(f"no run with {where}")
    grid = sorted(float(load) for load in rows["net_utilization"].unique())
    hit = rows[rows["saturated"].astype(bool)].groupby("seed")["net_utilization"].min()
    return hit.reindex(sorted(rows["seed"].unique())).astype(float), grid


def per_seed_text(first: pd.Series, grid: list[float]) -> str:
    """``90, 95, >95, ...`` (%): each seed's first saturated load, ``>`` the grid's end where it never did."""
    return ", ".join(f">{100 * grid[-1]:.0f}" if pd.isna(load) else f"{100 * load:.0f}" for load in first)


def _cell(first: float, grid: list[float]) -> tuple[float, float]:
    """The grid interval (% net utilization) in which saturation set in: (last load below, first saturated]."""
    if math.isnan(first):
        return 100 * grid[-1], math.inf
    below = [load for load in grid if load < first - EPSILON]
    return (100 * below[-1] if below else -math.inf), 100 * first


def saturation_points(runs: pd.DataFrame, where: dict, band: tuple[float, float]) -> pd.Series:
    """Per seed, where saturation sets in (% net utilization): the middle of its grid interval, +inf beyond
    the grid's end, -inf below its lowest load.  A seed whose interval straddles an edge of the paper's
    ``band`` cannot be placed on this grid: NotMeasured."""
    first, grid = first_saturated_load(runs, where)
    points = {}
    for seed, load in first.items():
        low, high = (round(edge, 6) for edge in _cell(load, grid))
        if not (band[0] <= low and high <= band[1]) and not (high <= band[0] or low >= band[1]):
            reach = (f"beyond {low:g} %" if math.isinf(high) else f"below {high:g} %" if math.isinf(low)
                     else f"between {low:g} and {high:g} %")
            raise NotMeasured(f"seed {seed} saturates {reach}, across an edge of the paper's "
                              f"{band[0]:g}-{band[1]:g} %: the grid cannot place it")
        points[int(seed)] = (low + high) / 2 if math.isfinite(low) and math.isfinite(high) else (
            math.inf if math.isinf(high) else -math.inf)
    return pd.Series(points, dtype=float)


def _saturation_interval(policies, where: dict, band: tuple[float, float]):
    """Where saturation sets in for each policy's runs of ``where``, against the paper's interval."""
    def compute(results) -> Measurement:
        runs = _runs(results)
        parts = []
        for policy in policies:
            selector = {**where, "policy": policy}
            first, grid = first_saturated_load(runs, selector)
            points = saturation_points(runs, selector, band)
            parts.append(Part(f"{policy} (first saturated at {per_seed_text(first, grid)} % per seed)",
                              tuple(points.to_numpy()), tuple(int(s) for s in points.index), ordered=True))
        return Measurement(tuple(parts))
    return compute


# --- the claims' computations ----------------------------------------------------------------------


def no_difference_at_low_load(results) -> Measurement:
    runs = _runs(results)
    parts = []
    for app, treatment, label in (("prime", "FCM", "Prime"), ("poisson", "FCM", "Poisson"), ("wave", "FCM", "Wave"),
                                  ("wave", "FCM2", "Wave (FCM<=2)")):
        where = {**SMALL_JOBS, "app": app}
        parts += _change_parts(runs, where, treatment, "WF", run_loads(runs, where, high=COALLOCATION_MATTERS), label)
    return Measurement(tuple(parts))


def _growth_parts(runs, where, treatment, baseline, reference, loads, label, saving: bool) -> list[Part]:
    """Per load, the change against the change at ``reference``: the saving's growth (``saving``: reference minus
    load) or the change's growth (load minus reference), saturated seeds by their sides."""
    base = compare(runs, where, treatment, baseline, reference, context=f" at {percent(reference)}")
    parts = []
    for load in loads:
        here = compare(runs, where, treatment, baseline, load)
        grown = base.minus(here) if saving else here.minus(base)
        what = "saving" if saving else "change"
        parts.append(grown.part(f"{label}: {what} at {percent(load)} minus at {percent(reference)}"))
    return parts


def prime_benefit_grows(results) -> Measurement:
    runs = _runs(results)
    where = {**SMALL_JOBS, "app": "prime"}
    reference = reference_load(runs, where)
    loads = run_loads(runs, where, COALLOCATION_MATTERS, SEC63_GRID_END)
    return Measurement(tuple(_growth_parts(runs, where, "FCM", "WF", reference, loads, "Prime", saving=True)))


def wave_fcm_saturates_early(results) -> Measurement:
    runs = _runs(results)
    where = {**SMALL_JOBS, "app": "wave"}
    first_fcm, grid = first_saturated_load(runs, {**where, "policy": "FCM"})
    first_wf, _ = first_saturated_load(runs, {**where, "policy": "WF"})
    # The first saturated load per seed, +inf where the run never saturated on the grid (beyond its end).
    fcm, wf = (Outcome(100 * first.fillna(math.inf), ordered=True) for first in (first_fcm, first_wf))
    label = (f"Wave, WF's saturation load minus FCM's (first saturated: WF {per_seed_text(first_wf, grid)} %, "
             f"FCM {per_seed_text(first_fcm, grid)} %)")
    return Measurement((wf.minus(fcm).part(label),))


def wave_limit_share(results) -> Measurement:
    """Per load and seed, the share (%) of FCM's extra cost over WF that limiting FCM to two clusters removes:
    of the response time where no run saturated, of the backlog's growth where FCM and FCM<=2 both did;
    +inf (-inf) where only FCM (FCM<=2) saturated."""
    runs = _runs(results)
    where = {**SMALL_JOBS, "app": "wave"}
    parts = []
    for load in run_loads(runs, where, COALLOCATION_MATTERS, SEC63_GRID_END):
        at = {**where, "net_utilization": load}
        by_policy = {policy: _by_seed(runs, {**at, "policy": policy}) for policy in ("FCM", "FCM2", "WF")}
        seeds = by_policy["FCM"].index
        column = {name: {policy: frame[name].reindex(seeds).astype(float) for policy, frame in by_policy.items()}
                  for name in ("mean_response_time", "queue_growth", "saturated")}
        hit = {policy: flags.astype(bool) for policy, flags in column["saturated"].items()}
        response, growth = column["mean_response_time"], column["queue_growth"]
        # |FCM - WF|: the size of what coallocation changes; the numerator's sign says whether the limit helps.
        share = 100.0 * (response["FCM"] - response["FCM2"]) / (response["FCM"] - response["WF"]).abs()
        backlog_share = 100.0 * (growth["FCM"] - growth["FCM2"]) / (growth["FCM"] - growth["WF"]).abs()
        stable = ~(hit["FCM"] | hit["FCM2"] | hit["WF"])
        share = share.where(stable, backlog_share.where(hit["FCM"] & hit["FCM2"]))
        share = share.mask(hit["FCM"] & ~hit["FCM2"], math.inf).mask(hit["FCM2"] & ~hit["FCM"], -math.inf)
        ordered = not bool(stable.all())
        note = saturation_note(hit) if ordered else ""
        parts.append(Outcome(share.fillna(0.0) if ordered else share, ordered, note).part(f"Wave at {percent(load)}"))
    return Measurement(tuple(parts))


def wave_observed_above_net(results) -> Measurement:
    runs = _runs(results)
    where = {**SMALL_JOBS, "app": "wave", "policy": "FCM"}
    parts = []
    for load in run_loads(runs, where, COALLOCATION_MATTERS, SEC63_GRID_END):
        at = {**where, "net_utilization": load}
        gap = 100.0 * (_per_seed(runs, at, "observed_utilization") - _per_seed(runs, at, "net_utilization_realized"))
        saturated = _saturated(runs, {**SMALL_JOBS, "app": "wave"}, "FCM", load)
        # A saturated run's observed utilization in the window is capped by the backlog: only its side counts.
        parts.append(Outcome(gap.astype(float), bool(saturated.any()),
                             saturation_note({"FCM": saturated})).part(f"Wave at {percent(load)}"))
    return Measurement(tuple(parts))


def mpi_apps_match_ccr(apps: Sequence[str]):
    """Per application of ``apps`` and every other CCR of the runs: the application's mean distance (points of %
    change, FCM vs WF, over the loads above 40 % where none of the three workloads saturated on any seed) to the
    CCR the paper names, minus its distance to the other CCR (< 0: the named one matches better)."""
    return lambda results: _mpi_apps_match_ccr(results, apps)


def _mpi_apps_match_ccr(results, apps: Sequence[str]) -> Measurement:
    runs = _runs(results)
    ccrs = _ccr_apps(runs, lambda ccr: True)
    parts = []
    for app in apps:
        named = PAPER_CCR_MATCH[app]
        named_app = f"ccr-{named:g}"
        if named_app not in ccrs or app not in set(runs["app"]):
            raise NotMeasured(f"no runs of {app} or of CCR {named:g}")
        for other in (ccr for ccr in ccrs if ccr != named_app):
            workloads = (app, named_app, other)
            loads = [load for load in run_loads(runs, {**SMALL_JOBS, "app": app}, COALLOCATION_MATTERS, SEC63_GRID_END)
                     if not any(compare(runs, {**SMALL_JOBS, "app": w}, "FCM", "WF", load).ordered for w in workloads)]
            if not loads:
                raise NotMeasured(f"no load above 40 % at which {app}, {app_name(named_app)} and "
                                  f"{app_name(other)} all stayed stable")
            change = {w: pd.concat([compare(runs, {**SMALL_JOBS, "app": w}, "FCM", "WF", load).values
                                    for load in loads], axis=1) for w in workloads}
            distance = {w: (change[app] - change[w]).abs().mean(axis=1) for w in (named_app, other)}
            parts.append(Outcome(distance[named_app] - distance[other]).part(
                f"{app_name(app)}: distance to {app_name(named_app)} minus to {app_name(other)} "
                f"({', '.join(percent(load) for load in loads)})"))
    return Measurement(tuple(parts))


def ccr_mid_benefit_then_loss(results) -> Measurement:
    """Per CCR 0.25-0.5: FCM's saving at the first load above 40 %, its change's growth from there at every
    higher load, and its cost at the grid's end (90 %), all claimed above 0."""
    runs = _runs(results)
    parts = []
    for app in _ccr_apps(runs, lambda ccr: 0.25 <= ccr <= 0.5):
        where = {**SMALL_JOBS, "app": app}
        loads = run_loads(runs, where, COALLOCATION_MATTERS, SEC63_GRID_END)
        first, last, name = loads[0], loads[-1], app_name(app)
        parts.append(compare(runs, where, "FCM", "WF", first).negated().part(f"{name}: saving at {percent(first)}"))
        parts += _growth_parts(runs, where, "FCM", "WF", first, loads[1:], name, saving=False)
        parts.append(compare(runs, where, "FCM", "WF", last).part(f"{name}: cost (% change) at {percent(last)}"))
    return Measurement(tuple(parts))


def _ccr_changes(keep):
    def compute(results) -> Measurement:
        runs = _runs(results)
        parts = []
        for app in _ccr_apps(runs, keep):
            where = {**SMALL_JOBS, "app": app}
            loads = run_loads(runs, where, COALLOCATION_MATTERS, SEC63_GRID_END)
            parts += _change_parts(runs, where, "FCM", "WF", loads, app_name(app))
        return Measurement(tuple(parts))
    return compute


def ca_faster(results) -> Measurement:
    runs = _runs(results)
    parts = []
    for config in CONFIGS:
        where = {**LARGE_JOBS, "config": config}
        parts += _change_parts(runs, where, "CA", "FCM", run_loads(runs, where), f"Wave, config {config},")
    return Measurement(tuple(parts))


def gap_widens(results) -> Measurement:
    """Per configuration and load above the grid's lowest: CA's lead (R_FCM - R_CA, s) there minus at the
    lowest load."""
    runs = _runs(results)
    parts = []
    for config in CONFIGS:
        where = {**LARGE_JOBS, "config": config}
        loads = run_loads(runs, where)
        lowest = compare(runs, where, "FCM", "CA", loads[0], "difference", context=f" at {percent(loads[0])}")
        for load in loads[1:]:
            lead = compare(runs, where, "FCM", "CA", load, "difference")
            parts.append(lead.minus(lowest).part(
                f"config {config}: CA's lead at {percent(load)} minus at {percent(loads[0])}"))
    return Measurement(tuple(parts))


def lead_larger_with_delft(results) -> Measurement:
    """Per load: CA's lead over FCM (R_FCM - R_CA, s) with Delft (config B) minus without (config A)."""
    runs = _runs(results)
    wheres = {config: {**LARGE_JOBS, "config": config} for config in CONFIGS}
    loads = sorted(set(run_loads(runs, wheres["A"])) & set(run_loads(runs, wheres["B"])))
    if not loads:
        raise NotMeasured("no load run in both configurations")
    parts = []
    for load in loads:
        lead = {config: compare(runs, where, "FCM", "CA", load, "difference", context=DELFT_CONTEXT[config])
                for config, where in wheres.items()}
        parts.append(lead["B"].minus(lead["A"]).part(f"at {percent(load)}, lead with Delft minus without"))
    return Measurement(tuple(parts))


def split_jobs_share(use: pd.DataFrame, where: dict, policy: str, chosen) -> pd.Series:
    """Per seed, pooled over the loads: the share (%) of ``policy``'s coallocated jobs whose cluster set
    ``chosen(set)`` picks (NaN for a seed that coallocated nothing)."""
    rows = rows_where(use, {**where, "policy": policy})
    if rows.empty:
        raise NotMeasured(f"no cluster use of {policy} with {where}")
    sets = rows["clusters"].map(lambda name: frozenset(str(name).split("+")))
    split = rows[sets.map(len) > 1]
    picked = split[sets[sets.map(len) > 1].map(chosen)]
    seeds = sorted(rows["seed"].unique())
    total = split.groupby("seed")["jobs"].sum().reindex(seeds, fill_value=0)
    share = 100.0 * picked.groupby("seed")["jobs"].sum().reindex(seeds, fill_value=0) / total.replace(0, np.nan)
    return share.astype(float)


def with_fast_pair(clusters: frozenset) -> bool:
    return FAST_PAIR <= clusters


def with_delft(clusters: frozenset) -> bool:
    return SLOW_CLUSTER in clusters


def ca_picks_fast_pairs(results) -> Measurement:
    use = _table(results, CLUSTER_USE)
    parts = []
    for config in CONFIGS:
        where = {**LARGE_JOBS, "config": config}
        share = {policy: split_jobs_share(use, where, policy, with_fast_pair) for policy in ("CA", "FCM")}
        parts.append(Outcome(share["CA"] - share["FCM"]).part(
            f"config {config}: coallocated on UvA and MultimediaN together, CA minus FCM"))
    where = {**LARGE_JOBS, "config": "B"}
    share = {policy: split_jobs_share(use, where, policy, with_delft) for policy in ("FCM", "CA")}
    parts.append(Outcome(share["FCM"] - share["CA"]).part("config B: coallocated using Delft, FCM minus CA"))
    return Measurement(tuple(parts))


def _four_cluster_row(results, config: str) -> pd.Series:
    model = _table(results, EXECUTION_MODEL)
    rows = model[(model["config"] == config)]
    rows = rows[rows["n_clusters"] == rows["n_clusters"].max()]
    if len(rows) != 1:
        raise NotMeasured(f"no single widest cluster set of config {config} in the execution model")
    return rows.iloc[0]


def wave_four_cluster_time(results) -> Measurement:
    row = _four_cluster_row(results, "A")
    return Measurement((Part(f"Wave, 32 nodes split evenly over {row['clusters']} (config A)",
                             (float(row["wave_run_time_s"]),)),), stochastic=False)


def less_affected_than_wave(results) -> Measurement:
    """Prime's and Poisson's stretch (%) on config A's four clusters over their one-cluster time."""
    factor = float(_four_cluster_row(results, "A")["communication_factor"])
    apps = _table(results, APPLICATIONS).set_index("key")
    parts = []
    for app in ("poisson", "prime"):
        if app not in apps.index:
            raise NotMeasured(f"no {app} in the applications table")
        computation, communication = float(apps.loc[app, "computation_s"]), float(apps.loc[app, "communication_s"])
        stretch = 100.0 * (computation + factor * communication) / (computation + communication) - 100.0
        parts.append(Part(f"{app_name(app)} on config A's four clusters", (stretch,)))
    return Measurement(tuple(parts), stochastic=False)


def latency_order(results) -> Measurement:
    """From f(S) of every two-cluster set (f - 1 is proportional to the pair's latency)."""
    model = _table(results, EXECUTION_MODEL)
    pairs = model[model["n_clusters"] == 2].assign(
        members=lambda frame: frame["clusters"].map(lambda name: frozenset(str(name).split("+"))))
    parts = []
    for config in CONFIGS:
        mine = pairs[pairs["config"] == config]
        fast = mine[mine["members"] == FAST_PAIR]["communication_factor"]
        others = mine[mine["members"] != FAST_PAIR]["communication_factor"]
        if fast.empty or others.empty:
            raise NotMeasured(f"config {config} lacks the UvA+MultimediaN pair or any other pair")
        parts.append(Part(f"config {config}: cheapest other pair's f minus UvA+MultimediaN's",
                          (float(others.min() - fast.iloc[0]),)))
    mine = pairs[pairs["config"] == "B"]
    delft = mine["members"].map(lambda members: SLOW_CLUSTER in members)
    if not delft.any() or delft.all():
        raise NotMeasured("config B has no pair with and without Delft")
    factor = mine["communication_factor"]
    parts.append(Part("config B: cheapest Delft (GbE) pair's f minus the dearest Myri-10G pair's",
                      (float(factor[delft].min() - factor[~delft].max()),)))
    return Measurement(tuple(parts), stochastic=False)


# --- the ledger ------------------------------------------------------------------------------

HARDWARE = "measured on the DAS-3 testbed itself; this stage simulates the system and has no such measurement"
CHANGE_RANGE = (-100.0, math.inf)
"""A % change in mean response time: a policy can at most remove the whole response time."""
SHARE_RANGE = (-100.0, 100.0)
"""A difference of two shares in %."""
LOAD_RANGE = (0.0, 100.0)

NUMBERS = (
    # Sec. 5: the testbed's properties, measured on DAS-3.
    Claim(
        "table2-latency-order", "Sec. 5.1, Table 2",
        "Myri-10G links have a lower latency than the 1 Gb Ethernet used with Delft, and Amsterdam (UvA) and "
        "MultimediaN, in one building, have the best inter-cluster link.",
        "ordering", "UvA-MultimediaN best pair; every GbE (Delft) pair worse than any Myri-10G pair (values lost)",
        "execution model: f(S) of every two-cluster set (f - 1 grows with the pair's latency): the cheapest other "
        "pair's f minus UvA+MultimediaN's in each configuration, and the cheapest Delft pair's minus the dearest "
        "pair without Delft in config B; claimed above 0.",
        compute=latency_order, unit="in f(S)", side="above", bound=0.0,
        basis="calibration",
        basis_why="the latency matrix is DEFAULT data chosen to follow this order of Table 2, whose values are lost",
        link=MODEL,
    ),
    Claim(
        "fig3-coallocation-slows-execution", "Sec. 5.1, Fig. 3",
        "An all-gather MPI program runs longer the more clusters it is spread over, and far longer when the "
        "wide-area links are 1 Gb Ethernet (with Delft) than with Myri-10G.",
        "ordering", "time grows with the number of clusters; much more over GbE (figure values lost)",
        "Not computed: our f(S) is a model input (see the execution model table), not an output.",
        unit="s",
        not_attempted=HARDWARE + "; the communication factor f(S) that stands for it is a model input, not a result",
        link=MODEL,
    ),
    Claim(
        "table3-processor-heterogeneity", "Sec. 5.2, Table 3",
        "Pairing the fastest cluster (Leiden) with any other stretches a compute-only program by a little.",
        "value", "7-17 % longer",
        "Not computed: the slowest-processor stretch is a model option, off in every run.",
        unit="% longer", band=(7.0, 17.0), possible=(0.0, math.inf),
        not_attempted=HARDWARE + "; the slowest-processor stretch is a model option, off in every run as in the "
                      "paper's simulations",
        link=MODEL,
    ),
    # Sec. 6.1: the applications' execution times on DAS-3 (Fig. 4).
    Claim(
        "fig4-wave-four-clusters", "Sec. 6.1, Fig. 4",
        "Concurrent Wave, a 32-node job, takes 200 s on one cluster and 750 s spread evenly over four.",
        "value", "750 s on four clusters (200 s on one)",
        "execution model: Wave's run time with 32 nodes split 8/8/8/8 over config A's four clusters (its 200 s "
        "on one cluster is its input T1).",
        compute=wave_four_cluster_time, unit="s", target=750.0, relative_tolerance=TEXT_NUMBER_TOLERANCE,
        tolerance_why=TEXT_NUMBER_WHY, possible=(0.0, math.inf),
        basis="calibration", basis_why="kappa of f(S) is solved so that Wave takes exactly this time",
        link=MODEL,
    ),
    Claim(
        "fig4-poisson-prime-less-affected", "Sec. 6.1, Fig. 4",
        "Poisson suffers much less than Wave from being spread over clusters, and Prime not at all.",
        "ordering", "Poisson much less than Wave's 200 -> 750 s; Prime unaffected (figure values lost)",
        "execution model: each application's run time on config A's four clusters over its one-cluster time, "
        "as % longer; claimed below Wave's 275 % (200 -> 750 s).",
        compute=less_affected_than_wave, unit="% longer", side="below", bound=WAVE_STRETCH_PERCENT,
        possible=(0.0, math.inf),
        basis="calibration",
        basis_why="Prime's CCR of 0 is set from 'not affected at all'; Poisson's CCR from a DEFAULT 300 s on four "
                  "clusters chosen to suffer 'much less'",
        link=MODEL,
    ),
    # Sec. 6.2: coallocation versus none on DAS-3.
    Claim(
        "sec622-startup-overhead", "Sec. 6.2.2",
        "On DAS-3 a job's start-up overhead is 10 s on average whatever the number of clusters it combines, so its "
        "wait is mostly queue time; DRMAA-SGE with Open-MPI starts jobs 5 times faster than Globus DUROC with "
        "MPICH-G2.",
        "value", "10 s on average; 5 times lower than DUROC",
        "Not computed: the simulations have no start-up overhead (0 s, as the paper's).",
        unit="s", target=10.0, relative_tolerance=TEXT_NUMBER_TOLERANCE, tolerance_why=TEXT_NUMBER_WHY,
        possible=(0.0, math.inf),
        not_attempted=HARDWARE + "; the simulator's start-up overhead is an input, 0 s in every run",
        link=MODEL,
    ),
    Claim(
        "fig6a-real-runs-at-40", "Sec. 6.2.2, Fig. 6a",
        "On the real system at about 40 % load plus 10-30 % background load, coallocation (FCM) lowers the mean "
        "response time of Prime and Poisson and raises Wave's.",
        "ordering", "Prime, Poisson: FCM lower; Wave: FCM higher (figure values lost)",
        "Not computed: real runs with background load; Fig. 7a is the simulated counterpart.",
        unit=CHANGE,
        not_attempted=HARDWARE + " (4-hour runs with 10-30 % background load of other users)",
        link=FIG7A,
    ),
    Claim(
        "fig6b-real-few-coallocated", "Sec. 6.2.2, Fig. 6b",
        "On the real system a relatively small share of coallocated jobs makes those differences.",
        "value", "a relatively small share of jobs coallocated (read: under half; figure values lost)",
        "Not computed: real runs with background load.",
        unit="% of jobs",
        band=(0.0, 50.0), possible=(0.0, 100.0),
        not_attempted=HARDWARE + " (4-hour runs with 10-30 % background load of other users)",
        link=FIG7A,
    ),
    # Sec. 6.3: coallocation (FCM) versus none (WF), simulated.
    Claim(
        "fig7a-no-difference-up-to-40", "Sec. 6.3.2, Fig. 7a",
        "Up to 40 % net utilization jobs fit in single clusters, so coallocation (FCM, and FCM limited to two "
        "clusters for Wave) gives the same mean response time as WF for every application.",
        "value", "no difference up to 40 %",
        "runs: per seed, 100 x (R_FCM / R_WF - 1), sizes 8/16/32, config A; one part per line of Fig. 7a "
        "(Prime, Poisson, Wave, Wave FCM<=2) and grid load up to 40 %; a saturated seed lies outside.",
        compute=no_difference_at_low_load, unit=CHANGE, target=0.0, tolerance=NO_DIFFERENCE_POINTS,
        tolerance_why="the paper's 0 read off Fig. 7a, whose axis spans hundreds of % (Wave): a change within "
                      "10 percentage points shows as none",
        possible=CHANGE_RANGE,
        link=FIG7A,
    ),
    Claim(
        "fig7a-prime-benefit-grows", "Sec. 6.3.2, Fig. 7a",
        "For the compute-bound Prime, what coallocation (FCM) saves over WF grows as the load rises.",
        "trend", "benefit increases with contention",
        "runs: per seed, Prime's saving (-100 x (R_FCM / R_WF - 1)) at each grid load above 40 % up to 90 % minus "
        "its saving at the highest load up to 40 % (where the paper sees no difference); claimed above 0; a "
        "saturated seed counts by which policy falls behind.",
        compute=prime_benefit_grows, unit=POINTS_OF_CHANGE, side="above", bound=0.0,
        link=FIG7A,
    ),
    Claim(
        "table4-prime-wf-saturation", "Sec. 6.3.2, Table 4",
        "Without coallocation (WF) Prime saturates the system between 85 and 90 % net utilization.",
        "value", "85-90 %",
        "runs: per seed, where saturation sets in (the middle of the grid interval from the last stable load to "
        "the first saturated one; beyond the grid's 95 %: above), Prime under WF, sizes 8/16/32, config A.",
        compute=_saturation_interval(("WF",), {**SMALL_JOBS, "app": "prime"}, (85.0, 90.0)),
        unit=LOAD, band=(85.0, 90.0), possible=LOAD_RANGE,
        link=TABLE4,
    ),
    Claim(
        "table4-prime-fcm-saturation", "Sec. 6.3.2, Table 4",
        "With coallocation (FCM) Prime saturates the system only between 90 and 95 % net utilization.",
        "value", "90-95 %",
        "runs: per seed, where saturation sets in (as for WF), Prime under FCM; our grid ends at 95 %, so a seed "
        "stable there saturates above the paper's interval.",
        compute=_saturation_interval(("FCM",), {**SMALL_JOBS, "app": "prime"}, (90.0, 95.0)),
        unit=LOAD, band=(90.0, 95.0), possible=LOAD_RANGE,
        link=TABLE4,
    ),
    Claim(
        "fig7a-poisson-fcm-turns-at-75", "Sec. 6.3.2, Fig. 7a",
        "For Poisson, coallocation (FCM) beats WF on mean response time up to 75 % net utilization, and is worse "
        "beyond.",
        "ordering", "coallocation advantageous up to 75 %, disadvantageous above",
        "runs: per seed, at each grid load above 40 % up to 75 %, Poisson's FCM saving 100 x (1 - R_FCM / R_WF), "
        "and above 75 % up to 90 %, its extra time 100 x (R_FCM / R_WF - 1); claimed above 0 on both sides of the "
        "turn; a saturated seed counts by which policy falls behind.",
        compute=_turn("poisson", POISSON_TURN), unit="% of WF's response", side="above", bound=0.0,
        link=FIG7A,
    ),
    Claim(
        "fig7a-wave-fcm-slower", "Sec. 6.3.2, Fig. 7a (and Sec. 10)",
        "For the communication-heavy Wave, coallocation (FCM) gives a higher mean response time than WF once jobs "
        "get coallocated.",
        "ordering", "coallocation disadvantageous",
        "runs: per seed, Wave's 100 x (R_FCM / R_WF - 1) at each grid load above 40 % up to 90 %; claimed above 0; "
        "a saturated seed counts by which policy falls behind.",
        compute=_app_changes("wave", COALLOCATION_MATTERS, SEC63_GRID_END), unit=CHANGE, side="above", bound=0.0,
        possible=CHANGE_RANGE,
        link=FIG7A,
    ),
    Claim(
        "table4-wave-fcm-saturates-early", "Sec. 6.3.2, Table 4",
        "Coallocation (FCM) makes the Wave workload saturate the system at a lower load than WF.",
        "ordering", "early saturation with coallocation (Table 4 values lost)",
        "runs: per seed, Wave's first saturated grid load under WF minus under FCM (+inf where WF never saturated "
        "on the grid, 0 where neither did); claimed above 0 by the sign test.",
        compute=wave_fcm_saturates_early, unit="points of net utilization", side="above", bound=0.0,
        link=TABLE4,
    ),
    Claim(
        "fig7a-wave-two-cluster-limit", "Sec. 6.3.2, Fig. 7a",
        "Letting FCM combine at most two clusters improves Wave's mean response time over unlimited FCM, but only "
        "a little.",
        "ordering", "better than no limit; the benefit is minor (read: under half of what coallocation adds)",
        "runs: per seed, 100 x (R_FCM - R_FCM<=2) / |R_FCM - R_WF|, the share of FCM's extra response time the "
        "limit removes, at each grid load above 40 % up to 90 %; claimed above 0 and within 0-50 % ('minor'). "
        "Where FCM and FCM<=2 both saturated, the same share of FCM's extra backlog growth (queue_growth); where "
        "only one did, +inf (the limit avoids saturation: no minor gain) or -inf.",
        compute=wave_limit_share, unit="% of FCM's extra cost", side="above", bound=0.0,
        band=(0.0, MINOR_SHARE),
        link=FIG7A,
    ),
    Claim(
        "fig7b-wave-observed-above-net", "Sec. 6.3.2, Fig. 7b",
        "Under FCM, Wave's stretched coallocated jobs make the observed utilization exceed the net utilization.",
        "ordering", "observed > net for Wave",
        "runs: per seed, 100 x (observed_utilization - net_utilization_realized) of Wave under FCM at each grid "
        "load above 40 % up to 90 %; claimed above 0; at a load where a seed saturated (the window's observed "
        "utilization is then capped by the backlog) only the sides count.",
        compute=wave_observed_above_net, unit="points of utilization", side="above", bound=0.0,
        possible=(-100.0, 100.0),
        link=FIG7B,
    ),
    Claim(
        "table5-real-vs-simulated-load", "Sec. 6.3.2, Table 5",
        "Where the real and simulated changes in mean response time match, the real runs' net utilization is lower "
        "than the simulated one (the background load differs from the MPI workloads).",
        "ordering", "real net utilization lower (table values lost)",
        "Not computed: needs the real runs of Fig. 6.",
        unit="points of net utilization",
        not_attempted=HARDWARE + "; the table pairs the real runs of Fig. 6 with simulated ones",
        link=FIG7A,
    ),
    Claim(
        "fig8-mpi-apps-match-ccr", "Sec. 6.3.2, Fig. 8",
        "The MPI workloads behave like synthetic ones: Prime like CCR 0.10, Poisson like CCR 0.25 (and Wave like "
        "CCR 4, its own row: a calibration).",
        "ordering", "Prime ~ CCR 0.1, Poisson ~ CCR 0.25",
        "runs: per seed, the mean distance (points of % change FCM vs WF, over the loads above 40 % up to 90 % where "
        "no compared workload saturated) from Prime and Poisson to the CCR the paper names, minus that to "
        "each other CCR run; claimed below 0.",
        compute=mpi_apps_match_ccr(("prime", "poisson")), unit=POINTS_OF_CHANGE, side="below", bound=0.0,
        link=FIG8,
    ),
    Claim(
        "fig8-wave-matches-ccr4", "Sec. 6.3.2, Fig. 8",
        "Wave behaves like the synthetic application of CCR 4.",
        "ordering", "Wave ~ CCR 4",
        "runs: per seed, the mean distance (points of % change FCM vs WF, over the loads above 40 % up to 90 % where "
        "no compared workload saturated) from Wave to CCR 4, minus that to each other CCR run; claimed below 0.",
        compute=mpi_apps_match_ccr(("wave",)), unit=POINTS_OF_CHANGE, side="below", bound=0.0,
        basis="calibration", basis_why="Wave is modelled as an application of CCR 4, set from this sentence",
        link=FIG8,
    ),
    Claim(
        "fig8-ccr-010-benefits", "Sec. 6.3.2, Fig. 8",
        "A synthetic application with CCR 0.10 always gains from coallocation.",
        "ordering", "CCR 0.10 always benefits",
        "runs: per seed, the CCR 0.1 workload's 100 x (R_FCM / R_WF - 1) at each grid load above 40 % up to 90 % "
        "(below it jobs fit in one cluster); claimed below 0; a saturated seed counts by which policy falls behind.",
        compute=_ccr_changes(lambda ccr: ccr <= 0.1), unit=CHANGE, side="below", bound=0.0, possible=CHANGE_RANGE,
        link=FIG8,
    ),
    Claim(
        "fig8-ccr-025-050-benefit-then-loss", "Sec. 6.3.2, Fig. 8",
        "With CCR 0.25 to 0.50 coallocation pays off to a certain extent: its benefit shrinks as the load rises "
        "and after some point it costs response time.",
        "ordering", "beneficial at first, benefit decreasing with contention, then disadvantageous",
        "runs: per CCR 0.25 and 0.5 and seed: FCM's saving -100 x (R_FCM / R_WF - 1) at the first grid load above "
        "40 %; its % change at each higher load up to 90 % minus at that first load (the benefit shrinking); its "
        "% change at 90 % (the loss); every part claimed above 0; a saturated seed counts by which policy falls "
        "behind.",
        compute=ccr_mid_benefit_then_loss, unit=POINTS_OF_CHANGE, side="above", bound=0.0,
        link=FIG8,
    ),
    Claim(
        "fig8-ccr-above-050-loses", "Sec. 6.3.2, Fig. 8",
        "Above CCR 0.50 coallocation always raises the mean response time, and by a lot.",
        "ordering", "CCR > 0.50 always disadvantageous, severely",
        "runs: per seed, 100 x (R_FCM / R_WF - 1) for every CCR above 0.5 at each grid load above 40 % up to 90 %; "
        "claimed above 0 (the severity is not sized: the figure's values are lost); a saturated seed counts by "
        "which policy falls behind.",
        compute=_ccr_changes(lambda ccr: ccr > 0.5), unit=CHANGE, side="above", bound=0.0, possible=CHANGE_RANGE,
        link=FIG8,
    ),
    # Sec. 7: FCM versus CA.
    Claim(
        "fig9-real-ca-lead", "Sec. 7.1.2, Fig. 9",
        "On the real system, CA's mean response time beats FCM's for 64-node Wave jobs, by a moderate margin "
        "without Delft and a large one with Delft.",
        "ordering", "CA ahead by 50 s (without Delft) and 230 s (with Delft)",
        "Not computed: real runs; Fig. 10 is the simulated counterpart.",
        unit="s",
        not_attempted=HARDWARE,
        link=FIG10,
    ),
    Claim(
        "sec712-ca-picks-fast-pairs", "Sec. 7.1.2 (tested on the Sec. 7.2 runs)",
        "CA combines the clusters with the fastest link between them (Amsterdam's UvA and MultimediaN), while FCM, "
        "blind to the network, also combines slow ones: with Delft in the system, it is in many of FCM's "
        "coallocations.",
        "ordering", "CA prefers UvA with MultimediaN; Delft in many of FCM's coallocations",
        "cluster_use: per seed, pooled over the grid's loads, the share of each policy's coallocated Wave "
        "32/48/64 jobs whose clusters include both UvA and MultimediaN (CA minus FCM, configs A and B) and "
        "include Delft (FCM minus CA, config B); claimed above 0.",
        compute=ca_picks_fast_pairs, unit="points (% of coallocated jobs)", side="above", bound=0.0,
        possible=SHARE_RANGE,
        link=CLUSTER_USE_TABLE,
    ),
    Claim(
        "fig10-ca-faster", "Sec. 7.2.2, Fig. 10",
        "CA gives a lower mean response time than FCM at almost every load, with and without Delft.",
        "ordering", "CA better at almost all loads (20-80 %)",
        "runs: per seed, 100 x (R_CA / R_FCM - 1), Wave with 32/48/64 nodes, at each grid load, configs A and B; "
        "claimed below 0; a saturated seed counts by which policy falls behind.",
        compute=ca_faster, unit=CHANGE, side="below", bound=0.0, possible=CHANGE_RANGE,
        exceptions=CA_EXCEPTIONS,
        exceptions_why="'for almost all utilization levels in both sets of experiments': at most one of the 13 "
                       "levels per set",
        link=FIG10,
    ),
    Claim(
        "fig10-gap-widens", "Sec. 7.2.2, Fig. 10",
        "The distance between FCM and CA grows as the load rises.",
        "trend", "the gap widens with utilization",
        "runs: per seed and configuration, CA's lead R_FCM - R_CA (s) at each grid load minus at the grid's lowest "
        "(20 %); claimed above 0; a saturated seed counts by which policy falls behind (FCM: the lead grows without "
        "bound).",
        compute=gap_widens, unit=SECONDS, side="above", bound=0.0,
        link=FIG10,
    ),
    Claim(
        "fig10-saturation-without-delft", "Sec. 7.2.2, Fig. 10a",
        "Without Delft the system saturates between 75 and 80 % net utilization.",
        "value", "75-80 %",
        "runs: per seed, where saturation sets in (the middle of the grid interval from the last stable load to "
        "the first saturated one; a seed stable at the grid's 80 % lies above), Wave 32/48/64 in config A; one "
        "part per policy.",
        compute=_saturation_interval(("FCM", "CA"), {**LARGE_JOBS, "config": "A"}, (75.0, 80.0)),
        unit=LOAD, band=(75.0, 80.0), possible=LOAD_RANGE,
        link=TABLE4,
    ),
    Claim(
        "fig10-saturation-with-delft", "Sec. 7.2.2, Fig. 10b",
        "With Delft (slow 1 Gb links) the system saturates much earlier, between 60 and 70 % net utilization.",
        "value", "60-70 %",
        "runs: per seed, where saturation sets in (as without Delft), Wave 32/48/64 in config B; one part per "
        "policy.",
        compute=_saturation_interval(("FCM", "CA"), {**LARGE_JOBS, "config": "B"}, (60.0, 70.0)),
        unit=LOAD, band=(60.0, 70.0), possible=LOAD_RANGE,
        link=TABLE4,
    ),
    Claim(
        "fig10-lead-larger-with-delft", "Sec. 7.2.2, Fig. 10 (and 7.1.2)",
        "CA's advantage over FCM is much larger when Delft is part of the system than when it is not.",
        "ordering", "difference much larger with Delft (real runs: 50 s vs 230 s)",
        "runs: per seed and grid load, CA's lead R_FCM - R_CA (s) in config B (with Delft) minus in config A; "
        "claimed above 0; a saturated seed's lead is +inf (FCM falls behind) or -inf (CA does), and two unbounded "
        "leads of one sign tell no side.",
        compute=lead_larger_with_delft, unit=SECONDS, side="above", bound=0.0,
        link=FIG10,
    ),
)
"""Every number or sentence of the paper judged, before ``SENTENCES`` gathers those one sentence states together."""

SENTENCES = (
    ("table4-prime-saturation", "Sec. 6.3.2, Table 4",
     "Prime saturates the system at a lower load without coallocation than with it: between 85 and 90 % net "
     "utilization under WF, between 90 and 95 % under FCM.", "WF 85-90 %, FCM 90-95 %",
     ("table4-prime-wf-saturation", "table4-prime-fcm-saturation")),
    ("fig10-saturation", "Sec. 7.2.2, Fig. 10",
     "Without Delft the system saturates between 75 and 80 % net utilization; with Delft (slow 1 Gb links) much "
     "earlier, between 60 and 70 %.", "75-80 % without Delft, 60-70 % with it",
     ("fig10-saturation-without-delft", "fig10-saturation-with-delft")),
)
"""Sentences that print several numbers (``schedlab.reports.ledger.gathered``)."""

CLAIMS = gathered(NUMBERS, SENTENCES)
