"""The checkable claims of Jones, Ligon and Shrivastava, "The Impact of Information Availability and
Workload Characteristics on the Performance of Job Co-allocation in Multi-clusters" (ICPADS 2006),
as ledger records (``schedlab.reports.ledger``): one row per statement of the paper (a sentence, a figure
panel, a table's column) of its evaluation (Sec. 5, Figs. 5-13, Tables 1-2) and the one result its
introduction states (naive co-allocation performs poorly).  A statement that gives several numbers (Table 1's
synthetic column; Sec. 5.1's "roughly 60 % and 72 % faster") is one row whose cells they are (``SENTENCES``);
the page's Table 1 shows each cell's own verdict beside the paper's number.

Every claim reads the stage's result tables only:

- ``runs``: one row per run and seed: ``workload`` (realistic, synthetic, A-D), ``strategy``,
  ``ppbw`` (Mb/s per processor, empty for the runs where each job draws PPBW ~ U[0, 300]),
  ``ppbw_mixed`` (True for those), ``information`` (share of jobs exposing PPBW and rho to
  ICS), ``seed`` and the run's metrics (``mean_turnaround``: infinite when the run saturated);
- ``queue_depth``: Migration Only's mean number of waiting jobs per ``workload``, ``seed`` and
  ``hour`` of the day (``waiting_jobs``);
- ``offered_load``: each workload's measured offered load per ``seed``, ``jobs_per_cluster`` and
  requested ``load`` (empty: the workload's default), which the measured causes read
  (``schedlab.reports.bandwidth_causes``), as they read ``load_runs``: the runs at those loads.

Every strategy runs on the same seeds (common random numbers), so a comparison between two
strategies is a per-seed paired statistic.  Zero Comm., Migration Only and No Share do not read
PPBW: their runs with mixed PPBW serve every swept PPBW, as the paper draws them as limits.

Every statistic is in the paper's unit, per cent: an improvement over Migration Only is
``100 (T_mig - T_x) / T_mig`` of mean turnaround, as the paper's Tables 1 and 2 give it.  A
saturated run (unstable: its mean turnaround grows without bound) is a censored seed, never a
number: the gap it makes is ``+inf`` or ``-inf`` on its side, and a part with such a seed is an
ordered part, decided by the side of each seed (``schedlab.reports.ledger``).

A value is judged against the paper's number with the project's tolerance for how the paper gives
it (``schedlab.reports.ledger``): a number printed in a table or as a plain number in the text
(``TEXT_NUMBER_TOLERANCE``), or one the paper's words only approximate, "roughly 28 %"
(``APPROXIMATE_WORDS_TOLERANCE``).  The paper gives the realistic workload's room as 9 % (Sec.
5.1, Sec. 5.3 for workload A) and as 8 % (Sec. 5.3 for workload C): its range 8-9 % is the band.

"ICS is never worse than Migration Only" and "Zero Comm. is the best case" are weak inequalities:
a tie (ICS places exactly as Zero Comm. where no link binds) satisfies them, so each holds unless
ours is worse by more than ``NOT_WORSE_MARGIN`` of Migration Only's turnaround, less than the
paper's figures resolve.  A statement the paper makes without a size ("performs much better",
"correlated") is judged on its direction only.

Sizes are judged at the profile that ran (the ledger's ``profile`` column); the paper ran
400,000 jobs per cluster and short runs bias mean turnarounds.

No row is a calibration: no constant of the model was chosen on a number of the paper's results
(LSLT's 70 % and the chunk's 85 % are the paper's own settings, Sec. 4.2; the realistic stream runs
at its trace's load).  No row is an invariant: what the simulator enforces on every run (ICS never
loads a link past its capacity, local and migrated jobs run exactly T_E0) is the paper's method
(Sec. 4), not a statement of its evaluation.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from schedlab.reports.ledger import (
    APPROXIMATE_WORDS_TOLERANCE, APPROXIMATE_WORDS_WHY, TEXT_NUMBER_TOLERANCE, TEXT_NUMBER_WHY, Claim, Measurement,
    NotMeasured, Part, Results, gathered, least_squares_slope, per_seed,
)

REALISTIC, SYNTHETIC = "realistic", "synthetic"
MODIFIED = ("A", "B", "C", "D")
TABLE2_WORKLOADS = (REALISTIC, SYNTHETIC, *MODIFIED)
"""The workloads of the paper's Table 2 (R, S, A-D), in its order."""
SHORT = {REALISTIC: "R", SYNTHETIC: "S", "A": "A", "B": "B", "C": "C", "D": "D", "C_load": "C-load", "D_load": "D-load"}
"""The paper's one-letter workload names (Table 2)."""
STRATEGY_NAMES = {"first_fit": "First-Fit", "lslt": "LSLT Only", "lslt_cs": "LSLT+CS", "ics": "ICS",
                  "zero_comm": "Zero Comm.", "migration_only": "Migration Only", "no_share": "No Share"}
"""The strategies as the paper names them (Sec. 4), for the parts' labels."""
LIMITS = ("zero_comm", "migration_only", "no_share")
"""Strategies that do not read PPBW: their mixed-PPBW runs are the limits at every PPBW."""
COALLOCATING = ("first_fit", "lslt", "lslt_cs", "ics")
"""Strategies that co-allocate with finite inter-cluster bandwidth (Figs. 5-6; Figs. 10-13 draw ICS only)."""

PERCENT = 100.0
GAIN = "%"
"""Unit of an improvement over Migration Only (the paper's Tables 1 and 2)."""
POINTS = "% points"
"""Unit of a difference between two improvements over Migration Only (the same seeds): ``100 (T_x - T_y) / T_mig``."""
AT_MOST_ALL = (-math.inf, 100.0)
"""An improvement ``100 (T_ref - T_x) / T_ref`` is at most 100 % (a turnaround of 0)."""
SHARE = (0.0, 100.0)
NOT_WORSE_MARGIN = 1.0
"""% of Migration Only's turnaround by which a weak inequality may be off and still hold."""
NOT_WORSE_WHY = ("a weak inequality ('never worse', 'best case') that a tie satisfies, read off figures whose axes "
                 f"span thousands of seconds: it holds unless ours is worse by more than {NOT_WORSE_MARGIN:g} % of "
                 "Migration Only's turnaround")


# Per-seed statistics from the result tables.

def run_metric(runs: pd.DataFrame, metric: str, workload: str, strategy: str, ppbw: float | None = None,
               information: float = 1.0) -> pd.Series:
    """``metric`` per seed of one point; ``ppbw`` None: PPBW ~ U[0, 300] per job.

    Zero Comm., Migration Only and No Share ignore PPBW: any ``ppbw`` reads their mixed runs.
    """
    if metric not in runs:
        raise NotMeasured(f"no {metric} in the runs table")
    where = {"workload": workload, "strategy": strategy, "information": information}
    if ppbw is None or strategy in LIMITS:
        where["ppbw_mixed"] = True
    else:
        where["ppbw"] = ppbw
    return per_seed(runs, metric, where)


def turnarounds(runs: pd.DataFrame, workload: str, strategy: str, ppbw: float | None = None,
                information: float = 1.0) -> pd.Series:
    """Mean turnaround per seed of one point (``run_metric``)."""
    return run_metric(runs, "mean_turnaround", workload, strategy, ppbw, information)


def gap(first: pd.Series, second: pd.Series, reference: pd.Series) -> pd.Series:
    """Per seed ``100 (first - second) / reference``: turnarounds of runs on the same seeds.

    A saturated run (infinite turnaround) is censored: the gap is ``+inf`` when ``first`` saturated
    and ``second`` did not, ``-inf`` the other way round (whatever ``reference`` is).  Both
    saturated, or the reference saturated under two finished runs, leaves nothing to measure."""
    if not set(first.index) == set(second.index) == set(reference.index):
        raise ValueError(f"paired statistics need the same seeds: {sorted(first.index)}, {sorted(second.index)}, "
                         f"{sorted(reference.index)}")
    values = {}
    for seed in sorted(first.index):
        ahead, behind, scale = float(first[seed]), float(second[seed]), float(reference[seed])
        if math.isinf(ahead) and math.isinf(behind):
            raise NotMeasured(f"both runs compared saturated on seed {seed}")
        if math.isinf(ahead) or math.isinf(behind):
            values[seed] = math.inf if math.isinf(ahead) else -math.inf
        elif not math.isfinite(scale):
            raise NotMeasured(f"the reference run saturated on seed {seed} under two finished runs")
        else:
            values[seed] = PERCENT * (ahead - behind) / scale
    return pd.Series(values, dtype=float)


def improvement(runs: pd.DataFrame, workload: str, strategy: str, ppbw: float | None = None,
                information: float = 1.0) -> pd.Series:
    """The paper's improvement over Migration Only, ``100 (T_mig - T_x) / T_mig`` (%), per seed;
    ``-inf`` on a seed where the strategy saturated."""
    migration = turnarounds(runs, workload, "migration_only")
    return gap(migration, turnarounds(runs, workload, strategy, ppbw, information), migration)


def excess(runs: pd.DataFrame, workload: str, strategy: str, ppbw: float | None = None) -> pd.Series:
    """How much slower than Migration Only, ``100 (T_x - T_mig) / T_mig`` (%), per seed; ``+inf``
    on a seed where the strategy saturated."""
    migration = turnarounds(runs, workload, "migration_only")
    return gap(turnarounds(runs, workload, strategy, ppbw), migration, migration)


def above_zero_comm(runs: pd.DataFrame, workload: str, strategy: str, ppbw: float | None = None) -> pd.Series:
    """How much slower than Zero Comm., ``100 (T_x - T_zero) / T_mig`` (% of Migration Only's turnaround)."""
    return gap(turnarounds(runs, workload, strategy, ppbw), turnarounds(runs, workload, "zero_comm"),
               turnarounds(runs, workload, "migration_only"))


def room(runs: pd.DataFrame, workload: str) -> pd.Series:
    """Room for improvement: Zero Comm.'s improvement over Migration Only (%)."""
    return improvement(runs, workload, "zero_comm")


def migration_gain(runs: pd.DataFrame, workload: str) -> pd.Series:
    """How much faster Migration Only is than No Share, ``100 (T_noshare - T_mig) / T_noshare`` (%), per seed;
    ``+inf`` on a seed where No Share saturated."""
    no_share = turnarounds(runs, workload, "no_share")
    return gap(no_share, turnarounds(runs, workload, "migration_only"), no_share)


SENSITIVITY_STATISTICS = {
    "room": (room, "room for improvement"),
    "ics": (lambda runs, workload: improvement(runs, workload, "ics"), "ICS's gain over Migration Only"),
    "no_share": (migration_gain, "Migration Only's gain over No Share"),
}
"""What the load and convergence runs measure per seed (%, PPBW ~ U[0, 300]), by key: (per-seed values, label)."""


def offered_load_of(offered_load: pd.DataFrame, workload: str, jobs_per_cluster: int,
                    load: float | None = None) -> pd.Series:
    """A workload's measured offered load per seed, at ``jobs_per_cluster``; ``load`` None: its default run's."""
    chosen = offered_load[(offered_load.workload == workload) & (offered_load.jobs_per_cluster == jobs_per_cluster)]
    chosen = chosen[chosen.load.isna()] if load is None else chosen[chosen.load == load]
    if chosen.empty:
        raise NotMeasured(f"no offered load of {workload} at {jobs_per_cluster} jobs per cluster, load {load}")
    return chosen.set_index("seed").offered_load.sort_index().astype(float)


def swept_ppbws(runs: pd.DataFrame, workload: str, strategy: str) -> list[float]:
    chosen = runs[(runs.workload == workload) & (runs.strategy == strategy) & ~runs.ppbw_mixed.astype(bool)]
    if chosen.empty:
        raise NotMeasured(f"no {strategy} run at a fixed PPBW on the {workload} workload")
    return sorted(float(value) for value in chosen.ppbw.unique())


def gain_slopes(runs: pd.DataFrame, workload: str, strategy: str) -> pd.Series:
    """Per seed, the least-squares slope of the improvement over Migration Only (%) against log10(PPBW)
    over the swept PPBWs: % points per tenfold PPBW (< 0: the gain shrinks as PPBW grows)."""
    ppbws = swept_ppbws(runs, workload, strategy)
    gains = pd.DataFrame({ppbw: improvement(runs, workload, strategy, ppbw) for ppbw in ppbws})
    if not np.isfinite(gains.to_numpy()).all():
        raise NotMeasured(f"{STRATEGY_NAMES[strategy]} saturated at a swept PPBW on {SHORT[workload]}: no slope")
    return pd.Series({seed: least_squares_slope(np.log10(ppbws), row.to_numpy()) for seed, row in gains.iterrows()},
                     dtype=float).sort_index()


def information_shares(runs: pd.DataFrame, workload: str) -> list[float]:
    chosen = runs[(runs.workload == workload) & (runs.strategy == "ics") & runs.ppbw_mixed.astype(bool)]
    shares = sorted(float(value) for value in chosen.information.unique())
    if len(shares) < 2 or shares[-1] != 1.0:
        raise NotMeasured(f"ICS on the {workload} workload ran at information {shares}: need several up to 1")
    return shares


def information_curve(runs: pd.DataFrame, workload: str) -> pd.DataFrame:
    """ICS's improvement over Migration Only (%) per seed (rows) and exposure share (columns, 0..1)."""
    return pd.DataFrame({share: improvement(runs, workload, "ics", information=share)
                         for share in information_shares(runs, workload)})


def half_gain_share(shares, gains) -> float:
    """The smallest exposure share at which ICS reaches half of its full-information gain
    (linear interpolation between measured shares); NaN when there is no gain to halve."""
    shares, gains = np.asarray(shares, dtype=float), np.asarray(gains, dtype=float)
    full = gains[-1]
    if not full > 0 or not np.isfinite(gains).all():
        return float("nan")
    first = int(np.flatnonzero(gains >= full / 2)[0])
    if first == 0:
        return float(shares[0])
    below, above = first - 1, first
    return float(shares[below] + (full / 2 - gains[below]) * (shares[above] - shares[below])
                 / (gains[above] - gains[below]))


def half_gain_shares(runs: pd.DataFrame, workload: str) -> pd.Series:
    """Per seed, the share of jobs (%) that must expose their communication for half of ICS's gain."""
    curve = information_curve(runs, workload)
    return pd.Series({seed: PERCENT * half_gain_share(curve.columns, row.to_numpy()) for seed, row in curve.iterrows()},
                     dtype=float).sort_index()


def daily_swing(results: Results, workload: str) -> pd.Series:
    """Per seed, Migration Only's queue depth swing over the day, (max - min) of the hourly means as a %
    of their mean."""
    if "queue_depth" not in results:
        raise NotMeasured("no queue-depth table")
    depth = results["queue_depth"]
    chosen = depth[depth.workload == workload]
    if chosen.empty:
        raise NotMeasured(f"no queue depth for the {workload} workload")
    by_seed = chosen.groupby("seed").waiting_jobs
    return (PERCENT * (by_seed.max() - by_seed.min()) / by_seed.mean()).sort_index()


def gain_room_correlation(runs: pd.DataFrame) -> pd.Series:
    """Per seed, Pearson's r between ICS's improvement and the room for improvement over Table 2's workloads."""
    gains = pd.DataFrame({w: improvement(runs, w, "ics") for w in TABLE2_WORKLOADS})
    rooms = pd.DataFrame({w: room(runs, w) for w in TABLE2_WORKLOADS}).reindex(gains.index)
    if not (np.isfinite(gains.to_numpy()).all() and np.isfinite(rooms.to_numpy()).all()):
        raise NotMeasured("a run saturated on a Table 2 workload: no correlation over the six")
    return pd.Series({seed: _pearson(gains.loc[seed].to_numpy(float), rooms.loc[seed].to_numpy(float))
                      for seed in gains.index}, dtype=float).sort_index()


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r, 0 where either side does not vary (no association to see: ICS gaining the same everywhere)."""
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return 0.0
    return float(np.corrcoef(x, y)[0, 1])


# Claims' compute functions.

def _runs(results: Results) -> pd.DataFrame:
    if "runs" not in results:
        raise NotMeasured("no runs table")
    return results["runs"]


def measured_part(label: str, values: pd.Series) -> Part:
    """A part from per-seed values; with a censored (infinite) seed, an ordered part, judged by side."""
    return Part(label, tuple(float(v) for v in values.to_numpy()), tuple(int(s) for s in values.index),
                ordered=not np.isfinite(values.to_numpy()).all())


def _measured(*parts: Part) -> Measurement:
    return Measurement(tuple(parts))


def _ppbw_text(ppbw: float | None) -> str:
    return "PPBW ~ U[0, 300]" if ppbw is None else f"{ppbw:g} Mb/s"


def _improvement_of(workload: str, strategy: str):
    def compute(results: Results) -> Measurement:
        label = f"{STRATEGY_NAMES[strategy]} on {SHORT[workload]}, PPBW ~ U[0, 300]"
        return _measured(measured_part(label, improvement(_runs(results), workload, strategy)))
    return compute


def _room_of(workload: str):
    def compute(results: Results) -> Measurement:
        return _measured(measured_part(f"Zero Comm. on {SHORT[workload]}", room(_runs(results), workload)))
    return compute


def _migration_gain_over_no_share(workload: str):
    def compute(results: Results) -> Measurement:
        return _measured(measured_part(f"Migration Only faster than No Share on {SHORT[workload]}",
                                       migration_gain(_runs(results), workload)))
    return compute


def _lslt_degrades(results: Results) -> Measurement:
    """Beats Migration Only at the smallest swept PPBW, falls behind it at the largest."""
    runs = _runs(results)
    parts = []
    for workload in (REALISTIC, SYNTHETIC):
        for strategy in ("lslt", "lslt_cs"):
            ppbws = swept_ppbws(runs, workload, strategy)
            name = STRATEGY_NAMES[strategy]
            parts.append(measured_part(f"{name} faster than Migration Only at {ppbws[0]:g} Mb/s on {SHORT[workload]}",
                                       improvement(runs, workload, strategy, ppbws[0])))
            parts.append(measured_part(f"{name} slower than Migration Only at {ppbws[-1]:g} Mb/s on "
                                       f"{SHORT[workload]}", excess(runs, workload, strategy, ppbws[-1])))
    return Measurement(tuple(parts))


def coallocated_stretch(runs: pd.DataFrame, workload: str, strategy: str, ppbw: float | None) -> pd.Series:
    """Per seed, the mean stretch (run time over T_E0) of the jobs a run co-allocated and finished; NaN on a
    seed where it co-allocated none (the runs table then holds 1.0, which is no measurement)."""
    stretch = run_metric(runs, "coallocated_slowdown", workload, strategy, ppbw)
    share = run_metric(runs, "coallocated_share", workload, strategy, ppbw).reindex(stretch.index)
    return stretch.where(share > 0)


def _lslt_saturates_links(results: Results) -> Measurement:
    """The co-allocated jobs' stretch at the largest swept PPBW minus at the smallest."""
    runs = _runs(results)
    parts = []
    for workload in (REALISTIC, SYNTHETIC):
        for strategy in ("lslt", "lslt_cs"):
            ppbws = swept_ppbws(runs, workload, strategy)
            growth = (coallocated_stretch(runs, workload, strategy, ppbws[-1])
                      - coallocated_stretch(runs, workload, strategy, ppbws[0]))
            parts.append(Part(f"{STRATEGY_NAMES[strategy]}'s co-allocated jobs on {SHORT[workload]}, "
                              f"{ppbws[-1]:g} minus {ppbws[0]:g} Mb/s", tuple(float(v) for v in growth.to_numpy()),
                              tuple(int(seed) for seed in growth.index)))
    return Measurement(tuple(parts))


def _ics_beats_lslt(results: Results) -> Measurement:
    """ICS faster than LSLT Only and LSLT+CS at every swept PPBW above the smallest."""
    runs = _runs(results)
    parts = []
    for workload in (REALISTIC, SYNTHETIC):
        for strategy in ("lslt", "lslt_cs"):
            for ppbw in swept_ppbws(runs, workload, "ics")[1:]:
                ahead = gap(turnarounds(runs, workload, strategy, ppbw), turnarounds(runs, workload, "ics", ppbw),
                            turnarounds(runs, workload, "migration_only"))
                parts.append(measured_part(f"ICS's gain minus {STRATEGY_NAMES[strategy]}'s at {ppbw:g} Mb/s on "
                                           f"{SHORT[workload]}", ahead))
    return Measurement(tuple(parts))


def _ppbw_points(runs: pd.DataFrame, workload: str, strategy: str) -> list[float | None]:
    """Every PPBW a strategy ran at on a workload: the swept ones, then the mixed runs (None)."""
    return [*swept_ppbws(runs, workload, strategy), None]


def _ics_never_worse(results: Results) -> Measurement:
    runs = _runs(results)
    return Measurement(tuple(
        measured_part(f"ICS's gain over Migration Only at {_ppbw_text(ppbw)} on {SHORT[workload]}",
                      improvement(runs, workload, "ics", ppbw))
        for workload in TABLE2_WORKLOADS for ppbw in _ppbw_points(runs, workload, "ics")
    ))


def _zero_comm_best(results: Results) -> Measurement:
    runs = _runs(results)
    parts = []
    for workload in TABLE2_WORKLOADS:
        strategies = COALLOCATING if workload in (REALISTIC, SYNTHETIC) else ("ics",)
        for strategy in strategies:
            parts += [measured_part(f"Zero Comm.'s gain minus {STRATEGY_NAMES[strategy]}'s at {_ppbw_text(ppbw)} "
                                    f"on {SHORT[workload]}", above_zero_comm(runs, workload, strategy, ppbw))
                      for ppbw in _ppbw_points(runs, workload, strategy)]
    return Measurement(tuple(parts))


def _ics_reverts(results: Results) -> Measurement:
    runs = _runs(results)
    return Measurement(tuple(measured_part(f"ICS's gain over Migration Only on {SHORT[w]}", gain_slopes(runs, w, "ics"))
                             for w in TABLE2_WORKLOADS))


def _first_fit_poor(results: Results) -> Measurement:
    runs = _runs(results)
    return Measurement(tuple(measured_part(f"First-Fit slower than Migration Only on {SHORT[w]}, PPBW ~ U[0, 300]",
                                           excess(runs, w, "first_fit")) for w in (REALISTIC, SYNTHETIC)))


def _half_gain(workload: str):
    def compute(results: Results) -> Measurement:
        shares = half_gain_shares(_runs(results), workload)
        # A seed on which ICS has no (finite) gain at full information has no half of one to reach: no exposure
        # share gives it, so it counts as never (+inf), against the claim, and the label says how many did.
        never = int(shares.isna().sum())
        label = f"ICS on {SHORT[workload]}" + (f" ({never} seed(s) with no gain to halve: never)" if never else "")
        return _measured(measured_part(label, shares.fillna(math.inf)))
    return compute


def _daily_cycle(results: Results) -> Measurement:
    swing = daily_swing(results, REALISTIC) - daily_swing(results, SYNTHETIC)
    return _measured(measured_part("R's daily swing minus S's", swing))


ROOM_DIRECTIONS = (("A", REALISTIC), (SYNTHETIC, "B"), ("C", REALISTIC),
                   *(("D", other) for other in (REALISTIC, SYNTHETIC, "A", "B", "C")))
"""(larger, smaller) rooms for improvement as Sec. 5.3 and Table 2 give them: Poisson arrivals raise it
(A > R), realistic arrivals lower it (B < S), removing small jobs raises it (C > R), and D's is the
largest of Table 2."""


def _room_directions(results: Results) -> Measurement:
    runs = _runs(results)
    rooms = {w: room(runs, w) for w in TABLE2_WORKLOADS}
    parts = []
    for larger, smaller in ROOM_DIRECTIONS:
        if not (np.isfinite(rooms[larger]).all() and np.isfinite(rooms[smaller]).all()):
            raise NotMeasured(f"a Migration Only or Zero Comm. run saturated on {SHORT[larger]} or {SHORT[smaller]}")
        parts.append(measured_part(f"{SHORT[larger]}'s room above {SHORT[smaller]}'s", rooms[larger] - rooms[smaller]))
    return Measurement(tuple(parts))


def _ics_follows_room(results: Results) -> Measurement:
    return _measured(measured_part("ICS's gain against the room, over R, S, A, B, C, D",
                                   gain_room_correlation(_runs(results))))


def _value(claim_id, location, statement, paper_value, compute, measure, link, *, target=None, band=None,
           approximate=False, unit=GAIN, possible=AT_MOST_ALL) -> Claim:
    """A value claim judged against the paper's number with the tolerance for how the paper gives it."""
    tolerance, why = ((APPROXIMATE_WORDS_TOLERANCE, APPROXIMATE_WORDS_WHY) if approximate
                      else (TEXT_NUMBER_TOLERANCE, TEXT_NUMBER_WHY))
    return Claim(claim_id, location, statement, "value", paper_value, measure, compute, unit=unit, target=target,
                 band=band, relative_tolerance=tolerance, tolerance_why=why, possible=possible, link=link)


def _direction(claim_id, location, statement, paper_value, compute, measure, link, *, kind="ordering", unit,
               side="above", bound=0.0, possible=(-math.inf, math.inf)) -> Claim:
    """A direction claim (ordering, trend) without a paper size."""
    return Claim(claim_id, location, statement, kind, paper_value, measure, compute, unit=unit, side=side,
                 bound=bound, possible=possible, link=link)


IMPROVEMENT = "per seed 100 (T_mig - T_x) / T_mig of mean turnaround, PPBW ~ U[0, 300], runs.csv"
ROOM = "per seed 100 (T_mig - T_zero) / T_mig of mean turnaround, PPBW ~ U[0, 300], runs.csv"
NO_SHARE = "per seed 100 (T_noshare - T_mig) / T_noshare of mean turnaround, PPBW ~ U[0, 300], runs.csv"

NUMBERS: tuple[Claim, ...] = (
    _value(
        "tab1-S-lsltcs", "Table 1", "On the synthetic workload with mixed PPBW, LSLT+CS cuts mean turnaround by "
        "about a fifth relative to Migration Only.", "22 %", _improvement_of(SYNTHETIC, "lslt_cs"), IMPROVEMENT,
        "table1_improvement.md", target=22.0),
    _value(
        "tab1-S-ics", "Table 1", "With full information, ICS cuts the synthetic workload's mean turnaround by "
        "about three tenths relative to Migration Only.", "31 %", _improvement_of(SYNTHETIC, "ics"), IMPROVEMENT,
        "table1_improvement.md", target=31.0),
    _value(
        "tab1-S-zero", "Table 1; Sec. 5.1", "Free inter-cluster communication (Zero Comm.) would cut the synthetic "
        "workload's mean turnaround by about a third relative to Migration Only: its room for improvement.", "36 %",
        _room_of(SYNTHETIC), ROOM, "table1_improvement.md", target=36.0),
    _value(
        "tab1-R-room", "Sec. 5.1 (Table 1's realistic column); Sec. 5.3", "The realistic workload leaves only a "
        "little room for co-allocation to improve on Migration Only, as its many narrow jobs can simply migrate.",
        "9 % (Sec. 5.1, Sec. 5.3 for A), 8 % (Sec. 5.3 for C)", _room_of(REALISTIC), ROOM, "table1_improvement.md",
        band=(8.0, 9.0)),
    _value(
        "sec51-noshare-R", "Sec. 5.1", "On the realistic workload Migration Only is far faster than No Share "
        "(every job kept on its own cluster).", "roughly 60 % faster", _migration_gain_over_no_share(REALISTIC),
        NO_SHARE, "headline.md", target=60.0, approximate=True),
    _value(
        "sec51-noshare-S", "Sec. 5.1", "On the synthetic workload Migration Only is far faster than No Share.",
        "roughly 72 % faster", _migration_gain_over_no_share(SYNTHETIC), NO_SHARE, "headline.md", target=72.0,
        approximate=True),
    _direction(
        "fig5-6-lslt-degrades", "Sec. 5.1; Figs. 5-6", "LSLT Only and LSLT+CS do fairly well at very small PPBW "
        "(faster than Migration Only) but degrade fast as PPBW grows, until the longer co-allocated run times "
        "outweigh the shorter waits (slower than Migration Only).",
        "below the Migration Only line at very small PPBW, rapidly degrading as PPBW increases",
        _lslt_degrades, "per seed, at the smallest swept PPBW 100 (T_mig - T_x) / T_mig and at the largest "
        "100 (T_x - T_mig) / T_mig (a saturated run: +inf, censored), runs.csv", "ppbw_sweeps.md",
        unit=GAIN),
    _direction(
        "fig5-6-lslt-saturates-links", "Sec. 5.1; Figs. 5-6", "The higher the PPBW, the more LSLT Only and "
        "LSLT+CS over-saturate the inter-cluster links they co-allocate over, so their co-allocated jobs run longer.",
        "as the PPBW increases, the more over-saturated the associated inter-cluster links become",
        _lslt_saturates_links, "per seed, the mean stretch (run time / T_E0) of the co-allocated jobs that "
        "finished at the largest swept PPBW minus at the smallest (no co-allocated job: no value), runs.csv",
        "ppbw_sweeps.md", unit="x T_E0"),
    _direction(
        "fig5-6-ics-beats-lslt", "Sec. 5.1; Figs. 5-6", "Unlike LSLT Only and LSLT+CS, which know nothing of a "
        "job's communication, ICS keeps doing much better as PPBW grows.",
        "ICS performs much better, even as the PPBW increases", _ics_beats_lslt,
        "per seed 100 (T_x - T_ics) / T_mig at each swept PPBW above the smallest (a saturated LSLT run: +inf, "
        "censored), runs.csv", "ppbw_sweeps.md", unit=POINTS),
    _direction(
        "sec51-ics-never-worse", "Sec. 5.1; Figs. 5-6, 10-13", "ICS is never slower than Migration Only, on any "
        "workload at any PPBW.", "its performance will never be worse than that of Migration Only",
        _ics_never_worse, "per seed 100 (T_mig - T_ics) / T_mig, ICS with full information, at each swept PPBW "
        f"and with PPBW ~ U[0, 300], runs.csv; {NOT_WORSE_WHY}", "ppbw_sweeps.md", unit=GAIN,
        bound=-NOT_WORSE_MARGIN, possible=AT_MOST_ALL),
    _direction(
        "sec51-ics-reverts", "Sec. 5.1; Figs. 5-6, 10-13", "As PPBW grows ICS finds ever smaller admissible "
        "splits, so its gain over Migration Only shrinks toward none.",
        "in the limit, the ICS strategy reverts to Migration Only", _ics_reverts,
        "per seed least-squares slope of 100 (T_mig - T_ics) / T_mig against log10 PPBW over the swept PPBWs, "
        "runs.csv", "ppbw_sweeps.md", kind="trend", unit="% points per tenfold PPBW", side="below"),
    _direction(
        "sec43-zero-best-case", "Sec. 4.3; Figs. 5-6, 10-13", "Zero Comm. (co-allocation with no slowdown) is the "
        "best case: no co-allocating strategy is faster, on any workload at any PPBW.",
        "Zero Comm. represents a best case, the figures' lower limit", _zero_comm_best,
        "per seed 100 (T_x - T_zero) / T_mig at each swept PPBW and with PPBW ~ U[0, 300] (a saturated run: +inf, "
        f"censored), runs.csv; {NOT_WORSE_WHY}", "ppbw_sweeps.md", unit=POINTS, bound=-NOT_WORSE_MARGIN),
    _direction(
        "sec1-first-fit-poor", "Sec. 1; Sec. 4.2", "First-Fit, the most naive co-allocator (blind to communication "
        "and to link load), does worse than not co-allocating at all (Migration Only) once jobs contend for the "
        "inter-cluster links.", "schedulers designed to allocate node resources across cluster boundaries can "
        "result in rather poor overall performance over a wide range of workload characterizations", _first_fit_poor,
        "per seed 100 (T_ff - T_mig) / T_mig, PPBW ~ U[0, 300] (a saturated run: +inf, censored), runs.csv",
        "table1_improvement.md", unit=GAIN),
    _value(
        "fig8-S-half-gain", "Sec. 5.2; Fig. 8", "On the synthetic workload, ICS gets half of its full-information "
        "gain when only about one job in ten exposes its communication.", "roughly 10 % of jobs",
        _half_gain(SYNTHETIC), "per seed: smallest exposed share reaching half of ICS's improvement at full "
        "exposure (linear between the shares run), PPBW ~ U[0, 300], runs.csv", "fig08_information_synthetic.png",
        target=10.0, approximate=True, unit="% of jobs", possible=SHARE),
    _value(
        "fig7-R-half-gain", "Sec. 5.2; Fig. 7", "On the realistic workload ICS needs about a quarter of the jobs to "
        "expose their communication to get half of its full-information gain.", "27 % of jobs",
        _half_gain(REALISTIC), "as fig8-S-half-gain, realistic workload, runs.csv", "fig07_information_realistic.png",
        target=27.0, unit="% of jobs", possible=SHARE),
    _direction(
        "fig9-R-daily-cycle", "Sec. 5.3; Fig. 9", "The realistic arrival process makes the queue swell and shrink "
        "over the day, unlike the constant-rate synthetic one.", "queue depth follows the daily cycle",
        _daily_cycle, "per seed 100 (max - min) / mean of Migration Only's hourly mean queue depth, R minus S, "
        "queue_depth.csv", "fig09_queue_depth.png", unit=POINTS),
    _value(
        "tab2-A-room", "Sec. 5.3; Fig. 10; Table 2", "With Poisson arrivals in place of the realistic ones (A), the "
        "room for improvement roughly triples.", "roughly 28 %", _room_of("A"), ROOM, "table2_workloads.md",
        target=28.0, approximate=True),
    _value(
        "tab2-B-room", "Sec. 5.3; Fig. 11; Table 2", "Synthetic jobs arriving like the realistic stream (B) leave "
        "little room for improvement.", "9 %", _room_of("B"), ROOM, "table2_workloads.md", target=9.0),
    _value(
        "tab2-C-room", "Sec. 5.3; Fig. 12; Table 2", "Removing the jobs of under 10 nodes from the realistic "
        "workload (C) raises the room for improvement.", "14 %", _room_of("C"), ROOM, "table2_workloads.md",
        target=14.0),
    _value(
        "tab2-D-room", "Sec. 5.3; Fig. 13; Table 2", "Without small jobs and with Poisson arrivals (D), free "
        "communication would beat Migration Only by almost half.", "a full 45 %", _room_of("D"), ROOM,
        "table2_workloads.md", target=45.0),
    _value(
        "tab2-D-ics", "Table 2", "On workload D, ICS with full information gains about a quarter over Migration "
        "Only.", "27 %", _improvement_of("D", "ics"), IMPROVEMENT, "table2_workloads.md", target=27.0),
    _direction(
        "sec53-directions", "Sec. 5.3; Table 2", "Each workload change moves the room for improvement the paper's "
        "way: Poisson arrivals raise it (A > R), realistic arrivals lower it (B < S), dropping small jobs raises "
        "it (C > R), and doing both (D) gives the largest room of the six workloads.",
        "A 28 > R 9; B 9 < S 36; C 14 > R 8; D 45, the largest of R, S, A, B, C, D", _room_directions,
        "per seed paired differences of rooms for improvement between workloads (same seeds), runs.csv",
        "table2_workloads.md", unit=POINTS),
    _direction(
        "tab2-ics-follows-room", "Sec. 5.3; Table 2", "ICS's gain over Migration Only moves with the workload's "
        "characteristics as the room for improvement does (its size, 'strongly', is not given: the sign is "
        "judged).", "the performance of the ICS strategy is also strongly correlated to the salient workload "
        "characteristics", _ics_follows_room, "per seed Pearson's r between ICS's improvement and Zero Comm.'s "
        "over the six workloads, PPBW ~ U[0, 300], runs.csv", "table2_workloads.md", unit="Pearson's r",
        possible=(-1.0, 1.0)),
)

"""Every number or sentence of the paper judged, before ``SENTENCES`` gathers those one statement gives together."""

SENTENCES = (
    ("tab1-S", "Table 1; Sec. 5.1",
     "On the synthetic workload with mixed PPBW, co-allocation cuts mean turnaround relative to Migration Only by "
     "about a fifth with LSLT+CS, three tenths with ICS given full information, and a third with free inter-cluster "
     "communication (Zero Comm., the room for improvement).", "22 %, 31 %, 36 % (LSLT+CS, ICS, Zero Comm.)",
     ("tab1-S-lsltcs", "tab1-S-ics", "tab1-S-zero")),
    ("sec51-noshare", "Sec. 5.1",
     "Migration Only is far faster than No Share (every job kept on its own cluster): roughly 60 % on the realistic "
     "workload and 72 % on the synthetic one.", "roughly 60 % (R) and 72 % (S) faster",
     ("sec51-noshare-R", "sec51-noshare-S")),
)
"""Statements that give several numbers, a table's column or one sentence (``schedlab.reports.ledger.gathered``)."""

CLAIMS = gathered(NUMBERS, SENTENCES)
"""Every checkable statement of the paper's evaluation, in the paper's order within each section."""

TABLE1_CELLS = {(SYNTHETIC, "lslt_cs"): "tab1-S-lsltcs", (SYNTHETIC, "ics"): "tab1-S-ics",
                (SYNTHETIC, "zero_comm"): "tab1-S-zero", (REALISTIC, "zero_comm"): "tab1-R-room"}
"""Which claim judges each Table 1 cell the paper kept (workload, strategy)."""
TABLE2_CELLS = {**TABLE1_CELLS, ("A", "zero_comm"): "tab2-A-room", ("B", "zero_comm"): "tab2-B-room",
                ("C", "zero_comm"): "tab2-C-room", ("D", "zero_comm"): "tab2-D-room", ("D", "ics"): "tab2-D-ics"}
"""Which claim judges each Table 2 cell the paper kept."""
