"""The claims ledger of the coscheduling stage.

Paper: W. Tang, N. Desai, D. Buettner and Z. Lan (Argonne), "Job Coscheduling on Coupled
High-End Computing Systems" (Intrepid Blue Gene/P coupled with the Eureka analysis
cluster), section V "Evaluations": Sec. V-B (capability validation), V-D (Figs. 3-6, by
Eureka's load) and V-E (Figs. 7-10, by the paired share); digest in spec 000.

Every claim reads one result table, ``runs`` (``runs.csv`` of the stage report): one row per
run and machine, with the point's ``series`` ("load": B's utilization, "ratio": the paired
share), ``x``, ``scheme`` (HH, HY, YH, YY with machine A's scheme first, or ``base``, the
run without coscheduling), ``seed``, ``release`` (periodic release of held nodes on),
``machine`` (A stands for Intrepid, B for Eureka), the length of A's window
(``window_days``) and the run's metrics (waits and sync times in seconds, service-unit
loss as a share of capacity, deadlock flags and day).  Every scheme and the baseline run
on the same seeds, so a scheme's cost is a per-seed paired difference against ``base``.

How the rows are made:

* One row per statement of the paper: a sentence, or a figure cell whose number the text
  prints.  Its parts are every scheme, load or paired share the statement covers, each
  labelled in the paper's terms ("HH at B load 0.25", "A at 20 % paired, remote H").  Where
  one sentence gives several numbers for different cells ("less than 4 minutes and 10
  minutes, respectively") each number is a cell of the sentence's row (``Claim.cells``),
  judged against its own value; the row holds only if its cells do (``SENTENCES``).  A rise
  stated as "from X to Y" is judged at its two ends (the lowest point against X, the highest
  against Y), which is what makes it a rise; a trend or ordering that only restates values
  judged elsewhere has no row of its own.
* ``ours`` is the statement's own quantity in the paper's unit: minutes of wait or sync,
  a mean slowdown, % of capacity lost, % of jobs paired.  A value is judged against the
  paper's range (``band``) or its number with the project's tolerance for how the paper
  gives it (``schedlab.reports.ledger``: a number printed in the text, or words that only
  approximate one), clipped to what the quantity can take.  Where the paper compares
  without a number ("fairly close to the base", "similar to the 20 % case", "not
  significantly impacted") the statistic is the relative change in %, paper value 0, with
  the approximate-words tolerance.
* A threshold ("less than", "above") is judged on the side of the paper's bound; an
  ordering (hold versus yield, one scheme versus the others) on the per-seed paired
  difference, which can take either sign; a trend on per-seed least-squares slopes.
* Without the periodic release, the day of a hold-hold run's first deadlock is an ordered
  outcome: a run that never deadlocked is censored (``+inf``), never filled in with the
  window's length, and the seeds are counted by the side of the bound they lie on.
* Two rows are ``calibration``: their number chose a constant of the model (A's job
  widths were scaled to the 61-min baseline wait; B's shortest run time kept was cut to
  reach 12.5 at load 0.50).  A's baseline slowdown (6.1) chose no constant: it is a result.  They show the value reached and are judged,
  but not counted.  Two rows are ``invariant``: the simulator stops a run that would break
  them, so they can crash a build but never fail.

Statements of Sec. V not made into rows, and why: the setup (one month, 9,219 Intrepid
jobs, the 2-minute pairing window, 20-minute release, the B loads and paired shares asked
for); "when deadlock occurs, the job queues on both machines keep growing, but no job can
start" (what our simulator calls a deadlock, by definition); "under low system load ...
this trend is not observed" (an absence, given no size); "the trend of these results is
similar" and "slowdown has a similar trend" (no statement of their own); the Fig. 3(a), 5(a), 6(a), 7(a), 8(b), 10 rises, Fig. 6(b)'s
"unrelated to the system utilization rate", and the summaries (Sec. V-D's "impact ...
reasonably low", "mostly under 10 minutes", "Eureka requires even less"; Sec. V-E's "will
not impact system performance significantly with 20 %") (restatements of values judged in
their own rows); Fig. 9(b)'s "the slope is not as significant as in
Figure 5(b)" (slopes over different axes, load and paired share, do not compare); the
recommendations (which share is "acceptable", with its "under 3 % on Intrepid and 5 % on Eureka", a judgement
of Fig. 10's losses, which fig10-loss-range judges; disabling coscheduling above a third).  A number
in parentheses that illustrates a comparison (Fig. 7(a)'s "around 100 minutes" for yield at a third paired) is
shown with the comparison's row, not judged apart; twin statements of the two machines take one rule.

The spec notes that absolute values depend on the traces (ours: a month of a real
capability-class log, or a synthetic stand-in, for Intrepid, calibrated to the paper's
baseline wait; a KTH-SP2-fitted model, calibrated to the paper's baseline slowdown at load
0.50, for Eureka).  What makes each claim we do not reproduce come out as it does is
measured in ``schedlab.reports.cosched_causes``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import pandas as pd

from schedlab.reports.ledger import (
    APPROXIMATE_WORDS_TOLERANCE,
    APPROXIMATE_WORDS_WHY,
    EVERYTHING,
    TEXT_NUMBER_TOLERANCE,
    TEXT_NUMBER_WHY,
    Claim,
    Measurement,
    NotMeasured,
    Part,
    Results,
    gathered,
    paired,
    part,
    per_seed,
    slopes,
)

PAPER = "cosched"
MINUTE = 60.0
PERCENT = 0.01
SCHEMES = ("HH", "HY", "YH", "YY")
REMOTE_SCHEMES = ("H", "Y")
LOADS = (0.25, 0.5, 0.75)
CALIBRATION_LOAD = 0.5  # B's baseline slowdown is calibrated here (the stage's parameters.json says so)
PAPER_A_BASE_WAIT = 61.0
"""Intrepid's mean wait without coscheduling, minutes (Fig. 3(a), Sec. V-D)."""
PAPER_A_BASE_SLOWDOWN = 6.1
"""Intrepid's mean slowdown without coscheduling (Fig. 4(a), Sec. V-D)."""
PAPER_B_BASE_SLOWDOWN = {0.25: 1.7, 0.5: 12.5, 0.75: 37.1}
"""Eureka's mean slowdown without coscheduling at each load (Fig. 4(b), Sec. V-D)."""
LOW_RATIOS = (0.025, 0.05, 0.10)
"""The paired shares of "10 % or less" (Sec. V-E)."""
"""The paired shares "under 10 %" (Sec. V-E, on the service-unit loss)."""
HIGH_RATIOS = (0.2, 0.33)
""""The last two relatively high proportions" (Sec. V-E, Fig. 8)."""
PAPER_PAIRED_SHARE = (0.05, 0.10)
"""The share of jobs the paper's 2-minute window paired (Sec. V-D)."""
PAPER_SPAN_DAYS = 30.0
"""Sec. V-D: the paper's runs span one month.  Sec. V-B finds deadlocks (without the release) highly
likely once a run spans more than 10 days: a deadlock counts when it comes within the month."""
PER_TEN_PERCENT_PAIRED = 0.1
"""A slope over the paired share (a fraction) times this is per 10 % of the jobs paired."""

# What each quantity can take: the clip of a band, and the range a direction's bound must lie inside.
NONNEGATIVE = (0.0, math.inf)  # a wait, a sync time, a count, a day
SLOWDOWN_RANGE = (1.0, math.inf)  # response time over run time
SHARE_RANGE = (0.0, 100.0)  # % of jobs, % of capacity
RELATIVE_RANGE = (-100.0, math.inf)  # a relative change in %
SLOWDOWN = ""  # a mean slowdown is a ratio of times: it has no unit

# The project's tolerances, by how the paper gives its number (schedlab.reports.ledger).
TEXT_NUMBER = {"relative_tolerance": TEXT_NUMBER_TOLERANCE, "tolerance_why": TEXT_NUMBER_WHY}
APPROXIMATELY_ZERO_CHANGE = {
    "target": 0.0, "tolerance": 100 * APPROXIMATE_WORDS_TOLERANCE,
    "tolerance_why": f"{APPROXIMATE_WORDS_WHY}; the paper's value is no change, so "
                     f"{100 * APPROXIMATE_WORDS_TOLERANCE:g} % of the reference either way",
}

WAIT_FIGURE_BY_LOAD = "fig03_load_mean_wait.png"
SLOWDOWN_FIGURE_BY_LOAD = "fig04_load_mean_slowdown.png"
SYNC_FIGURE_BY_LOAD = "fig05_load_mean_sync.png"
LOSS_FIGURE_BY_LOAD = "fig06_load_su_loss_hours.png"
WAIT_FIGURE_BY_RATIO = "fig07_ratio_mean_wait.png"
SLOWDOWN_FIGURE_BY_RATIO = "fig08_ratio_mean_slowdown.png"
SYNC_FIGURE_BY_RATIO = "fig09_ratio_mean_sync.png"
LOSS_FIGURE_BY_RATIO = "fig10_ratio_su_loss_hours.png"
DEADLOCK_TABLE = "deadlocks.md"
WORKLOADS_TABLE = "workloads.md"
RUNS_TABLE = "runs.csv"


# --- reading the runs table ----------------------------------------------------------------------

def runs(results: Results) -> pd.DataFrame:
    if "runs" not in results:
        raise NotMeasured("no runs table in the results")
    return results["runs"]


def xs(results: Results, series: str) -> list[float]:
    frame = runs(results)
    return sorted(frame.loc[frame["series"] == series, "x"].unique())


def metric(results: Results, name: str, series: str, x: float, scheme: str, machine: str,
           release: bool = True, scale: float = 1.0) -> pd.Series:
    """``name`` per seed at one point, divided by ``scale`` (e.g. seconds to minutes)."""
    frame = runs(results)
    # One mask, then only the two columns needed: the runs table is wide and this is called a thousand times.
    chosen = frame.loc[(frame["series"] == series) & np.isclose(frame["x"], x) & (frame["release"] == release)
                       & (frame["scheme"] == scheme) & (frame["machine"] == machine), ["seed", name]]
    if chosen.empty:
        raise NotMeasured(f"no {scheme} run on {machine} at {point(series, x)}"
                          + ("" if release else " without the release"))
    return per_seed(chosen, name) / scale


def extra(results: Results, name: str, series: str, x: float, scheme: str, machine: str,
          scale: float = 1.0) -> pd.Series:
    """Per seed, a scheme's ``name`` minus the baseline's without coscheduling on the same seed."""
    return paired(metric(results, name, series, x, scheme, machine, scale=scale),
                  metric(results, name, series, x, "base", machine, scale=scale))


def percent_change(first: pd.Series, second: pd.Series) -> pd.Series:
    """Per seed, ``first`` relative to ``second`` in %: 100 x (first / second - 1), paired by seed."""
    return 100 * paired(first, second, "relative")


def relative_extra(results: Results, name: str, series: str, x: float, scheme: str, machine: str) -> pd.Series:
    """Per seed, a scheme's ``name`` relative to the baseline's on the same seed, in %."""
    return percent_change(metric(results, name, series, x, scheme, machine),
                          metric(results, name, series, x, "base", machine))


def measured(parts: Iterable[Part], stochastic: bool = True) -> Measurement:
    return Measurement(tuple(parts), stochastic)


def trend(label: str, series_by_x: dict[float, pd.Series], per: float = 1.0) -> Part:
    """Per seed, the slope of a statistic over the swept parameter, times ``per`` (the unit's step)."""
    frame = pd.concat(
        [values.rename("value").rename_axis("seed").reset_index().assign(x=x) for x, values in series_by_x.items()],
        ignore_index=True,
    )
    return part(label, per * slopes(frame, "x", "value"))


def combination(machine: str, local: str, remote: str) -> str:
    """The scheme pair (machine A first) where ``machine`` runs ``local`` and the other ``remote``."""
    return local + remote if machine == "A" else remote + local


def local_hold(machine: str) -> tuple[str, ...]:
    """The two combinations in which ``machine`` holds (remote H, then remote Y)."""
    return tuple(combination(machine, "H", remote) for remote in REMOTE_SCHEMES)


def local_yield(machine: str) -> tuple[str, ...]:
    """The two combinations in which ``machine`` yields (remote H, then remote Y)."""
    return tuple(combination(machine, "Y", remote) for remote in REMOTE_SCHEMES)


def x_text(series: str, x: float) -> str:
    return f"load {x:g}" if series == "load" else f"{100 * x:g} % paired"


def point(series: str, x: float) -> str:
    """A point as the paper names it: Eureka's load, or the share of jobs paired."""
    return f"B load {x:g}" if series == "load" else x_text(series, x)


def per_point_parts(results: Results, series: str, x_values, schemes,
                    statistic: Callable[[float, str], pd.Series]) -> list[Part]:
    """One part per (scheme, point), labelled "HH at B load 0.25"; ``statistic(x, scheme)`` per seed."""
    return [part(f"{scheme} at {point(series, x)}", statistic(x, scheme)) for scheme in schemes for x in x_values]


def level_parts(results: Results, name: str, series: str, x_values, schemes, machine: str,
                scale: float = 1.0) -> list[Part]:
    """``per_point_parts`` of a level the paper gives under coscheduling (``name`` itself, not its extra), each
    with the same seed's baseline as its no-effect value: what the level would be had coscheduling changed nothing."""
    return [part(f"{scheme} at {point(series, x)}", metric(results, name, series, x, scheme, machine, scale=scale),
                 metric(results, name, series, x, "base", machine, scale=scale))
            for scheme in schemes for x in x_values]


def yield_33_like_20(machine: str) -> Callable[[Results], Measurement]:
    """Per seed, ``machine``'s mean wait at 33 % paired relative to at 20 % (%), for each scheme yielding on it:
    the one rule of Fig. 7(a)'s and 7(b)'s "yield at a third paired as at a fifth"."""
    return lambda r: measured(part(f"{s} at 33 % against 20 % paired",
                                   percent_change(metric(r, "mean_wait", "ratio", 0.33, s, machine),
                                                  metric(r, "mean_wait", "ratio", 0.2, s, machine)))
                              for s in local_yield(machine))


def sync_range_narrower_by_share(results: Results, machine: str) -> list[Part]:
    """Per hold scheme on ``machine``, per seed: the spread (largest minus smallest) of its mean sync time over
    the paired shares minus its spread over the loads (min; below 0: narrower by paired share)."""
    def spread(series: str, scheme: str) -> pd.Series:
        values = pd.concat([metric(results, "mean_sync", series, x, scheme, machine, scale=MINUTE)
                            for x in xs(results, series)], axis=1)
        return values.max(axis=1) - values.min(axis=1)
    return [part(f"{scheme}: spread over paired shares minus over loads", paired(spread("ratio", scheme),
                                                                                  spread("load", scheme)))
            for scheme in local_hold(machine)]


def largest_per_seed(series: Sequence[pd.Series]) -> pd.Series:
    """Per seed, the largest of several per-seed statistics (the paper's "up to", the tallest bar)."""
    return pd.concat(series, axis=1).max(axis=1)


# --- the statistics behind the claims -------------------------------------------------------------

def hold_minus_yield(results: Results, name: str, machine: str, series: str, x_values, scale: float = 1.0,
                     skip: Sequence[tuple[float, str]] = ()) -> list[Part]:
    """Per (x, remote scheme): ``machine``'s local hold's ``name`` minus its local yield's, paired by
    seed, except the (x, remote) groups in ``skip`` (a group the paper itself sets apart)."""
    parts = []
    for x in x_values:
        for remote, hold, yield_ in zip(REMOTE_SCHEMES, local_hold(machine), local_yield(machine)):
            if any(np.isclose(x, skipped) and remote == skipped_remote for skipped, skipped_remote in skip):
                continue
            parts.append(part(
                f"{machine} at {point(series, x)}, remote {remote} ({hold} - {yield_})",
                paired(metric(results, name, series, x, hold, machine, scale=scale),
                       metric(results, name, series, x, yield_, machine, scale=scale))))
    return parts


def hold_excess_over_yield(results: Results, machines=("A", "B"), loads=(0.5, 0.75)) -> list[Part]:
    """Per (machine, load, remote scheme): how much worse local hold is than local yield, in %, as
    the mean of its relative excess in mean wait and in mean slowdown ("worse waiting time or
    slowdown": either counts, neither picked per seed)."""
    parts = []
    for machine in machines:
        for x in loads:
            for remote, hold, yield_ in zip(REMOTE_SCHEMES, local_hold(machine), local_yield(machine)):
                excess = [percent_change(metric(results, name, "load", x, hold, machine),
                                         metric(results, name, "load", x, yield_, machine))
                          for name in ("mean_wait", "mean_slowdown")]
                parts.append(part(f"{machine} at B load {x:g}, remote {remote} ({hold} vs {yield_})",
                                  (excess[0] + excess[1]) / 2))
    return parts


def a_baseline(results: Results, name: str, scale: float = 1.0) -> Measurement:
    """A's ``name`` without coscheduling, per seed: A runs the same jobs whatever B's load, so its
    baseline is one number per seed (the mean over the load series' baselines)."""
    frame = runs(results)
    base = frame[(frame["series"] == "load") & (frame["scheme"] == "base") & (frame["machine"] == "A")
                 & frame["release"]]
    if base.empty:
        raise NotMeasured("no baseline run of the load series")
    return measured([part("A without coscheduling", base.groupby("seed")[name].mean().sort_index() / scale)])


def b_baseline_slowdown(x: float) -> Callable[[Results], Measurement]:
    def compute(results: Results) -> Measurement:
        return measured([part(f"B without coscheduling at load {x:g}",
                              metric(results, "mean_slowdown", "load", x, "base", "B"))])
    return compute


def coscheduled_runs(results: Results, release: bool | None = None) -> pd.DataFrame:
    """Machine A's rows of the coscheduled runs (one row per run), with the release on or off (None: both)."""
    frame = runs(results)
    chosen = frame[(frame["scheme"] != "base") & (frame["machine"] == "A")]
    if release is not None:
        chosen = chosen[chosen["release"] == release]
    if chosen.empty:
        raise NotMeasured("no coscheduled run" + ("" if release is None else f" with release={release}"))
    return chosen


RUN_KEYS = ["series", "x", "scheme", "seed", "release"]


def released_run_outcomes(results: Results) -> pd.DataFrame:
    """One row per coscheduled run with the release: its scheme, whether it reported a deadlock, and
    whether it left a job unstarted on either machine without one (starvation)."""
    frame = runs(results)
    released = frame[(frame["scheme"] != "base") & frame["release"].astype(bool)]
    if released.empty:
        raise NotMeasured("no coscheduled run with the release")
    deadlocked = released["deadlock"].astype(bool)
    outcomes = pd.DataFrame({"deadlocked": deadlocked, "starved": (released["unstarted"] > 0) & ~deadlocked})
    return outcomes.groupby([released[key] for key in RUN_KEYS]).any().reset_index()


def count_per_scheme(outcomes: pd.DataFrame, column: str) -> Measurement:
    """Per scheme, how many runs ``column`` marks (one number each: a count over every run, not a sample)."""
    return measured((Part(f"{scheme} ({len(group)} runs with the release)", (float(group[column].sum()),))
                     for scheme, group in outcomes.groupby("scheme", sort=True)), stochastic=False)


def pairs_start_together(results: Results) -> Measurement:
    """Per scheme, the largest start gap of a pair (s) over every coscheduled run, release on or off."""
    frame = runs(results)
    chosen = frame[frame["scheme"] != "base"].drop_duplicates(RUN_KEYS)
    if chosen.empty:
        raise NotMeasured("no coscheduled run")
    return measured((Part(f"{scheme} ({len(group)} runs)", (float(group["max_pair_start_gap"].max()),))
                     for scheme, group in chosen.groupby("scheme", sort=True)), stochastic=False)


def deadlocked_with_release(results: Results) -> Measurement:
    return count_per_scheme(released_run_outcomes(results), "deadlocked")


def starved_with_release(results: Results) -> Measurement:
    return count_per_scheme(released_run_outcomes(results), "starved")


def release_off(results: Results, series: str = "load") -> pd.DataFrame:
    """Machine A's rows of the hold-hold runs without release in ``series``."""
    chosen = coscheduled_runs(results, release=False)
    chosen = chosen[(chosen["scheme"] == "HH") & (chosen["series"] == series)]
    if chosen.empty:
        raise NotMeasured(f"no hold-hold run without the release in the {series} series")
    return chosen


def deadlock_days(results: Results) -> Measurement:
    """Per point of both series, per seed: the day of the first deadlock of hold-hold without
    release, counted from the start of A's window; ``+inf`` for a run that never deadlocked
    (censored: it may have, in a longer run).  The claim counts a deadlock within the paper's
    one-month span (past the 10 days after which the paper finds deadlock highly likely); one
    found after the window, while the queues drain, came later than that.  A window shorter
    than the paper's month cannot tell a seed that deadlocks within it from one that never does."""
    parts = []
    for series in ("load", "ratio"):
        try:
            chosen = release_off(results, series)
        except NotMeasured:
            continue
        window = float(chosen["window_days"].max())
        if window < PAPER_SPAN_DAYS:
            raise NotMeasured(f"A's window is {window:g} days, shorter than the paper's {PAPER_SPAN_DAYS:g}-day "
                              "span in which its deadlocks came")
        for x, at_x in chosen.groupby("x", sort=True):
            deadlocked = at_x["deadlock"].astype(bool)
            if at_x.loc[deadlocked, "deadlock_day"].isna().any():
                raise ValueError(f"a deadlocked run at {point(series, x)} has no deadlock day")
            day = at_x["deadlock_day"].where(deadlocked, math.inf)
            day.index = at_x["seed"]
            parts.append(Part(f"HH without release at {point(series, x)} (first deadlock's day; never: inf)",
                              tuple(float(v) for v in day.sort_index()), tuple(int(s) for s in day.sort_index().index),
                              ordered=True))
    if not parts:
        raise NotMeasured("no hold-hold run without the release")
    return measured(parts)


# --- the claims ---------------------------------------------------------------------------------

def _value(claim_id, location, statement, paper_value, measure, compute, unit, possible, link, **size) -> Claim:
    return Claim(claim_id, location, statement, "value", paper_value, measure, compute, unit=unit,
                 possible=possible, link=link, **size)


def _direction(claim_id, location, statement, kind, paper_value, measure, compute, unit, possible, side, bound,
               link, **more) -> Claim:
    return Claim(claim_id, location, statement, kind, paper_value, measure, compute, unit=unit, possible=possible,
                 side=side, bound=bound, link=link, **more)


def hold_worse_at_33(machine: str, figure: str, words: str, paper_value: str) -> Claim:
    """Fig. 7's "with a third paired, hold is worse than yield" on ``machine``: the one rule of both twins."""
    return _direction(
        f"fig7-{machine}-hold-worse-33", f"{figure}, Sec. V-E", f"With a third of the jobs paired, {words}.",
        "ordering", paper_value,
        f"runs: {machine}'s mean_wait (min), local hold minus local yield per seed, each remote scheme at 33 % paired",
        lambda r: measured(hold_minus_yield(r, "mean_wait", machine, "ratio", (0.33,), MINUTE)),
        "min", EVERYTHING, "above", 0.0, WAIT_FIGURE_BY_RATIO,
    )


NUMBERS = (
    # --- Sec. V-B: capability validation ----------------------------------------------------------
    _value(
        "sec5b-pairs-together", "Sec. V-B",
        "Whatever the schemes, every paired job starts at the same instant as its mate.",
        "all pairs start at the same time", "runs: max_pair_start_gap (s), the largest over every coscheduled "
        "run of each scheme, release on and off (one number each)",
        pairs_start_together, "s", NONNEGATIVE, RUNS_TABLE, target=0.0, tolerance=1e-6,
        tolerance_why="the same instant of the simulated clock; a microsecond covers floating-point round-off",
        basis="invariant",
        basis_why="the simulator stops a run whose mates start apart (simulators/cosched/invariants.check_pairs, "
                  "on every run): this row can crash the build, never fail",
    ),
    _value(
        "sec5b-release-no-deadlock", "Sec. V-B",
        "With the periodic release of held nodes, no run deadlocks, whatever the schemes.",
        "never happens", "runs: per scheme, the coscheduled runs with the release that report a deadlock "
        "(circular wait, livelock or stall; one count each)",
        deadlocked_with_release, "runs deadlocked", NONNEGATIVE, DEADLOCK_TABLE, target=0.0, tolerance=0.0,
        tolerance_why="the paper saw none in all its runs: a single deadlocked run is against it",
    ),
    _value(
        "sec5b-no-starvation", "Sec. V-B",
        "With no cap on yields and the whole machine open to holding, no job starves: every run with the "
        "release starts all its jobs.",
        "no starvation observed", "runs: per scheme, the coscheduled runs with the release that left a job "
        "unstarted on either machine without a deadlock (one count each)",
        starved_with_release, "runs starved", NONNEGATIVE, DEADLOCK_TABLE, target=0.0, tolerance=0.0,
        tolerance_why="the paper saw none: a single starved run is against it",
        basis="invariant",
        basis_why="with the release on, the simulator stops a run that leaves a job unstarted without reporting a "
                  "deadlock (simulators/cosched/invariants.check_machine): this row can crash the build, never fail; "
                  "the paper's finer point, that paired jobs on a yielding machine start before the cool-down, is "
                  "not in the runs table",
    ),
    _direction(
        "sec5b-no-release-deadlocks", "Sec. V-B, Fig. 2",
        "Without the release, hold on both machines is highly likely to deadlock once a run spans more than ten "
        "days: a month-long run (the paper's span) very likely deadlocks within it.", "threshold",
        "deadlock highly likely in runs over 10 days",
        "runs: per seed, deadlock_day of HH without release (days from the start of A's window; a run that never "
        "deadlocked is censored: inf), within the paper's one-month span or not; at each B load and paired share",
        deadlock_days, "days", NONNEGATIVE, "below", PAPER_SPAN_DAYS, DEADLOCK_TABLE,
    ),
    # --- Sec. V-D: by Eureka's load ---------------------------------------------------------------
    _value(
        "sec5d-paired-share", "Sec. V-D",
        "Pairing jobs submitted within two minutes of each other pairs between a twentieth and a tenth of the jobs.",
        "5-10 % of jobs paired", "runs: paired_share (%) of HH on A and on B at each B load",
        lambda r: measured(part(f"{machine} at B load {x:g}", metric(r, "paired_share", "load", x, "HH", machine,
                                                                     scale=PERCENT))
                           for machine in ("A", "B") for x in LOADS),
        "% of jobs", SHARE_RANGE, WORKLOADS_TABLE, band=tuple(100 * share for share in PAPER_PAIRED_SHARE),
    ),
    _value(
        "fig3-A-base-wait", "Fig. 3(a), Sec. V-D",
        "Without coscheduling, jobs on the compute machine wait about an hour on average.",
        f"{PAPER_A_BASE_WAIT:g} min", "runs: mean_wait of base on A (min), per seed",
        lambda r: a_baseline(r, "mean_wait", MINUTE), "min", NONNEGATIVE, WAIT_FIGURE_BY_LOAD,
        target=PAPER_A_BASE_WAIT, **TEXT_NUMBER, basis="calibration",
        basis_why="machine A's job widths are scaled by the one factor whose baseline mean wait is this number; "
                  "widths move in whole partitions, so the wait reached is near, not on, it",
    ),
    _value(
        "fig3-A-extra-025", "Fig. 3(a), Sec. V-D",
        "At low B load every scheme pair makes the compute machine's jobs wait longer than without coscheduling, "
        "but by less than four minutes.", "above the base by < 4 min at load 0.25",
        "runs: mean_wait on A (min), scheme minus base per seed, each scheme at B load 0.25",
        lambda r: measured(per_point_parts(r, "load", (0.25,), SCHEMES,
                                           lambda x, s: extra(r, "mean_wait", "load", x, s, "A", MINUTE))),
        "min", EVERYTHING, WAIT_FIGURE_BY_LOAD, band=(0.0, 4.0),
    ),
    _value(
        "fig3-A-extra-050", "Fig. 3(a), Sec. V-D",
        "At medium B load every scheme pair makes the compute machine's jobs wait longer, by less than ten minutes.",
        "above the base by < 10 min at load 0.50",
        "runs: mean_wait on A (min), scheme minus base per seed, each scheme at B load 0.50",
        lambda r: measured(per_point_parts(r, "load", (0.5,), SCHEMES,
                                           lambda x, s: extra(r, "mean_wait", "load", x, s, "A", MINUTE))),
        "min", EVERYTHING, WAIT_FIGURE_BY_LOAD, band=(0.0, 10.0),
    ),
    _value(
        "fig3-A-extra-075", "Fig. 3(a), Sec. V-D",
        "At high B load the compute machine's added mean wait grows to about forty minutes for the worst scheme pair.",
        "42 min at load 0.75", "runs: mean_wait on A (min), per seed the largest over the four schemes of scheme "
        "minus base, B load 0.75",
        lambda r: measured([part("worst of HH, HY, YH, YY at B load 0.75", largest_per_seed(
            [extra(r, "mean_wait", "load", 0.75, s, "A", MINUTE) for s in SCHEMES]))]),
        "min", EVERYTHING, WAIT_FIGURE_BY_LOAD, target=42.0, **TEXT_NUMBER,
    ),
    _value(
        "fig3-A-extra-075-no-hold", "Sec. V-D (Figs. 3-4)",
        "At high B load, not holding on the compute machine keeps its added mean wait under twenty-five minutes.",
        "above the base by < 25 min with YH, YY at load 0.75",
        "runs: mean_wait on A (min), scheme minus base per seed, YH and YY at B load 0.75",
        lambda r: measured(per_point_parts(r, "load", (0.75,), local_yield("A"),
                                           lambda x, s: extra(r, "mean_wait", "load", x, s, "A", MINUTE))),
        "min", EVERYTHING, WAIT_FIGURE_BY_LOAD, band=(0.0, 25.0),
    ),
    _value(
        "fig3-B-extra-yy-050", "Fig. 3(b), Sec. V-D",
        "On the analysis cluster, yield-yield at medium load adds about seven minutes of mean wait.",
        "7 min (YY, load 0.50)", "runs: mean_wait on B (min), YY minus base per seed at B load 0.50",
        lambda r: measured(per_point_parts(r, "load", (0.5,), ("YY",),
                                           lambda x, s: extra(r, "mean_wait", "load", x, s, "B", MINUTE))),
        "min", EVERYTHING, WAIT_FIGURE_BY_LOAD, target=7.0, **TEXT_NUMBER,
    ),
    _value(
        "fig3-B-extra-hh-075", "Fig. 3(b), Sec. V-D",
        "On the analysis cluster, hold-hold at high load adds about eight minutes of mean wait, the most of any case.",
        "8 min (HH, load 0.75)", "runs: mean_wait on B (min), HH minus base per seed at B load 0.75",
        lambda r: measured(per_point_parts(r, "load", (0.75,), ("HH",),
                                           lambda x, s: extra(r, "mean_wait", "load", x, s, "B", MINUTE))),
        "min", EVERYTHING, WAIT_FIGURE_BY_LOAD, target=8.0, **TEXT_NUMBER,
    ),
    _direction(
        "fig3-B-extra-others", "Fig. 3(b), Sec. V-D",
        "On the analysis cluster every other scheme pair and load adds less than five minutes of mean wait.",
        "threshold", "< 5 min (all but YY at 0.50 and HH at 0.75)",
        "runs: mean_wait on B (min), scheme minus base per seed, each scheme and B load but those two",
        lambda r: measured(part(f"{s} at B load {x:g}", extra(r, "mean_wait", "load", x, s, "B", MINUTE))
                           for s in SCHEMES for x in LOADS if (s, x) not in (("YY", 0.5), ("HH", 0.75))),
        "min", EVERYTHING, "below", 5.0, WAIT_FIGURE_BY_LOAD,
    ),
    _value(
        "fig4-A-base-slowdown", "Fig. 4(a), Sec. V-D",
        "Without coscheduling, the compute machine's mean slowdown is about six.",
        f"{PAPER_A_BASE_SLOWDOWN:g}", "runs: mean_slowdown of base on A, per seed",
        lambda r: a_baseline(r, "mean_slowdown"), SLOWDOWN, SLOWDOWN_RANGE, SLOWDOWN_FIGURE_BY_LOAD,
        target=PAPER_A_BASE_SLOWDOWN, **TEXT_NUMBER,
    ),
    _value(
        "fig4-B-base-slowdown-025", "Fig. 4(b), Sec. V-D",
        "Without coscheduling, the analysis cluster at low load has a mean slowdown under two.",
        "1.7 at load 0.25", "runs: mean_slowdown of base on B at load 0.25, per seed",
        b_baseline_slowdown(0.25), SLOWDOWN, SLOWDOWN_RANGE, SLOWDOWN_FIGURE_BY_LOAD, target=1.7, **TEXT_NUMBER,
    ),
    _value(
        "fig4-B-base-slowdown-050", "Fig. 4(b), Sec. V-D",
        "Without coscheduling, the analysis cluster at medium load has a mean slowdown of twelve and a half.",
        "12.5 at load 0.50", "runs: mean_slowdown of base on B at load 0.50, per seed",
        b_baseline_slowdown(CALIBRATION_LOAD), SLOWDOWN, SLOWDOWN_RANGE, SLOWDOWN_FIGURE_BY_LOAD, target=12.5,
        **TEXT_NUMBER, basis="calibration",
        basis_why="B's jobs shorter than a cut are left out, the cut whose baseline mean slowdown at load 0.50 "
                  "over the calibration seeds is this number",
    ),
    _value(
        "fig4-B-base-slowdown-075", "Fig. 4(b), Sec. V-D",
        "Without coscheduling, the analysis cluster at high load has a mean slowdown near forty.",
        "37.1 at load 0.75", "runs: mean_slowdown of base on B at load 0.75, per seed",
        b_baseline_slowdown(0.75), SLOWDOWN, SLOWDOWN_RANGE, SLOWDOWN_FIGURE_BY_LOAD, target=37.1, **TEXT_NUMBER,
    ),
    *(
        _direction(
            f"fig4-A-extra-{round(100 * x):03d}", "Fig. 4(a), Sec. V-D",
            f"At B load {x:.2f} coscheduling raises the compute machine's mean slowdown by less than {bound:g}.",
            "threshold", f"< {bound:g} at load {x:.2f}",
            f"runs: mean_slowdown on A, scheme minus base per seed, each scheme at B load {x:.2f}",
            lambda r, x=x: measured(per_point_parts(r, "load", (x,), SCHEMES,
                                                    lambda x, s: extra(r, "mean_slowdown", "load", x, s, "A"))),
            SLOWDOWN, EVERYTHING, "below", bound, SLOWDOWN_FIGURE_BY_LOAD,
        )
        for x, bound in ((0.25, 0.6), (0.5, 1.5), (0.75, 6.3))
    ),
    _direction(
        "fig4-A-slowdown-max", "Fig. 4(a), Sec. V-D",
        "Whatever the schemes and B's load, the compute machine's mean slowdown stays under 12.4.",
        "threshold", "all under 12.4", "runs: mean_slowdown on A, each scheme at each B load",
        lambda r: measured(per_point_parts(r, "load", LOADS, SCHEMES,
                                           lambda x, s: metric(r, "mean_slowdown", "load", x, s, "A"))),
        SLOWDOWN, SLOWDOWN_RANGE, "below", 12.4, SLOWDOWN_FIGURE_BY_LOAD,
    ),
    _value(
        "fig4-B-close-to-base", "Fig. 4(b), Sec. V-D",
        "On the analysis cluster the mean slowdown with coscheduling is fairly close to the one without.",
        "fairly close to the base", "runs: mean_slowdown on B, scheme relative to base per seed (%), each scheme "
        "at each B load",
        lambda r: measured(per_point_parts(r, "load", LOADS, SCHEMES,
                                           lambda x, s: relative_extra(r, "mean_slowdown", "load", x, s, "B"))),
        "% of the base", RELATIVE_RANGE, SLOWDOWN_FIGURE_BY_LOAD, **APPROXIMATELY_ZERO_CHANGE,
    ),
    _direction(
        "fig34-hold-worse-than-yield", "Sec. V-D (Figs. 3-4)",
        "At medium and high B load, holding locally gives a machine worse waiting time or slowdown than yielding, "
        "with the same load and remote scheme.", "ordering", "hold worse than yield at loads 0.50 and 0.75",
        "runs: local hold relative to local yield per seed (%), the mean of its excess in mean_wait and in "
        "mean_slowdown; each machine, load and remote scheme",
        lambda r: measured(hold_excess_over_yield(r)),
        "%", RELATIVE_RANGE, "above", 0.0, WAIT_FIGURE_BY_LOAD,
    ),
    _direction(
        "fig5-A-sync-025", "Fig. 5(a), Sec. V-D",
        "At low B load a holding compute machine's paired jobs wait under ten minutes to synchronize.",
        "threshold", "< 10 min at load 0.25", "runs: mean_sync on A (min), HH and HY at B load 0.25",
        lambda r: measured(per_point_parts(r, "load", (0.25,), local_hold("A"),
                                           lambda x, s: metric(r, "mean_sync", "load", x, s, "A", scale=MINUTE))),
        "min", NONNEGATIVE, "below", 10.0, SYNC_FIGURE_BY_LOAD,
    ),
    _value(
        "fig5-A-sync-050", "Fig. 5(a), Sec. V-D",
        "At medium B load a holding compute machine's paired jobs wait nearly fifty minutes to synchronize.",
        "nearly 50 min at load 0.50", "runs: mean_sync on A (min), HH and HY at B load 0.50",
        lambda r: measured(per_point_parts(r, "load", (0.5,), local_hold("A"),
                                           lambda x, s: metric(r, "mean_sync", "load", x, s, "A", scale=MINUTE))),
        "min", NONNEGATIVE, SYNC_FIGURE_BY_LOAD, target=50.0, relative_tolerance=APPROXIMATE_WORDS_TOLERANCE,
        tolerance_why=APPROXIMATE_WORDS_WHY,
    ),
    _direction(
        "fig5-A-sync-075", "Fig. 5(a), Sec. V-D",
        "At high B load a holding compute machine's paired jobs wait over two and a half hours to synchronize.",
        "threshold", "> 150 min at load 0.75", "runs: mean_sync on A (min), HH and HY at B load 0.75",
        lambda r: measured(per_point_parts(r, "load", (0.75,), local_hold("A"),
                                           lambda x, s: metric(r, "mean_sync", "load", x, s, "A", scale=MINUTE))),
        "min", NONNEGATIVE, "above", 150.0, SYNC_FIGURE_BY_LOAD,
    ),
    _direction(
        "fig5-A-hold-less-sync", "Fig. 5(a), Sec. V-D",
        "On the compute machine, holding locally gives paired jobs a shorter sync time than yielding, at the same "
        "load and remote scheme.", "ordering", "hold < yield in every group",
        "runs: mean_sync on A (min), local hold minus local yield per seed, each B load and remote scheme",
        lambda r: measured(hold_minus_yield(r, "mean_sync", "A", "load", LOADS, MINUTE)),
        "min", EVERYTHING, "below", 0.0, SYNC_FIGURE_BY_LOAD,
    ),
    _value(
        "fig5-B-sync-hold", "Fig. 5(b), Sec. V-D",
        "When the analysis cluster holds, its pairs' mean sync time lies between about half an hour and two hours.",
        "35-111 min", "runs: mean_sync on B (min), HH and YH at each B load",
        lambda r: measured(per_point_parts(r, "load", LOADS, local_hold("B"),
                                           lambda x, s: metric(r, "mean_sync", "load", x, s, "B", scale=MINUTE))),
        "min", NONNEGATIVE, SYNC_FIGURE_BY_LOAD, band=(35.0, 111.0),
    ),
    _value(
        "fig5-B-sync-yield", "Fig. 5(b), Sec. V-D",
        "When the analysis cluster yields, its pairs' mean sync time lies between about an hour and two and a "
        "quarter hours.", "52-137 min", "runs: mean_sync on B (min), HY and YY at each B load",
        lambda r: measured(per_point_parts(r, "load", LOADS, local_yield("B"),
                                           lambda x, s: metric(r, "mean_sync", "load", x, s, "B", scale=MINUTE))),
        "min", NONNEGATIVE, SYNC_FIGURE_BY_LOAD, band=(52.0, 137.0),
    ),
    _direction(
        "fig5-B-hold-less-sync", "Fig. 5(b), Sec. V-D",
        "On the analysis cluster, holding locally gives paired jobs a shorter sync time than yielding in each "
        "group but load 0.75 with remote hold, where the two are about the same.", "ordering",
        "hold < yield in every group but 0.75/H",
        "runs: mean_sync on B (min), local hold minus local yield per seed, each B load and remote scheme but "
        "0.75/H (the paper sets it apart: 'except for the 0.75/H group, in which the two bars are almost the same')",
        lambda r: measured(hold_minus_yield(r, "mean_sync", "B", "load", LOADS, MINUTE, skip=((0.75, "H"),))),
        "min", EVERYTHING, "below", 0.0, SYNC_FIGURE_BY_LOAD,
    ),
    _value(
        "fig6-A-loss-025", "Fig. 6(a), Sec. V-D",
        "At low B load, holding on the compute machine idles about half a percent of its capacity (the low end of "
        "a loss that grows with B's load).", "0.46 % (135,000 node-hours) at load 0.25",
        "runs: su_loss_share on A (%), HH and HY at B load 0.25",
        lambda r: measured(per_point_parts(r, "load", (0.25,), local_hold("A"),
                                           lambda x, s: metric(r, "su_loss_share", "load", x, s, "A", scale=PERCENT))),
        "% of capacity", SHARE_RANGE, LOSS_FIGURE_BY_LOAD, target=0.46, **TEXT_NUMBER,
    ),
    _value(
        "fig6-A-loss-075", "Fig. 6(a), Sec. V-D",
        "At high B load, holding on the compute machine idles a few percent of its capacity (the high end of a "
        "loss that grows with B's load).", "4.6 % (1.2 M node-hours) at load 0.75",
        "runs: su_loss_share on A (%), HH and HY at B load 0.75",
        lambda r: measured(per_point_parts(r, "load", (0.75,), local_hold("A"),
                                           lambda x, s: metric(r, "su_loss_share", "load", x, s, "A", scale=PERCENT))),
        "% of capacity", SHARE_RANGE, LOSS_FIGURE_BY_LOAD, target=4.6, **TEXT_NUMBER,
    ),
    _value(
        "fig6-B-loss", "Fig. 6(b), Sec. V-D",
        "Holding on the analysis cluster idles a few percent of its capacity at any load.",
        "3.5-4.9 % (25,000-35,000 node-hours)", "runs: su_loss_share on B (%), HH and YH at each B load",
        lambda r: measured(per_point_parts(r, "load", LOADS, local_hold("B"),
                                           lambda x, s: metric(r, "su_loss_share", "load", x, s, "B", scale=PERCENT))),
        "% of capacity", SHARE_RANGE, LOSS_FIGURE_BY_LOAD, band=(3.5, 4.9),
    ),
    _direction(
        "fig6-B-loss-least-at-high", "Fig. 6(b), Sec. V-D",
        "The analysis cluster loses the least capacity to holding at its highest load.", "ordering",
        "the 0.75 groups are the lowest",
        "runs: su_loss_share on B (%), per seed the value at load 0.75 minus the smaller of 0.25 and 0.50; HH and YH",
        lambda r: measured(part(f"{s} at B load 0.75, against the lower of 0.25 and 0.5",
                                metric(r, "su_loss_share", "load", 0.75, s, "B", scale=PERCENT)
                                - pd.concat([metric(r, "su_loss_share", "load", x, s, "B", scale=PERCENT)
                                             for x in (0.25, 0.5)], axis=1).min(axis=1))
                           for s in local_hold("B")),
        "% of capacity", EVERYTHING, "below", 0.0, LOSS_FIGURE_BY_LOAD,
    ),
    # --- Sec. V-E: by the share of jobs paired ----------------------------------------------------
    _value(
        "fig7-A-rel-increase-le10", "Fig. 7(a), Sec. V-E",
        "With at most a tenth of the jobs paired, the compute machine's mean wait rises by a twentieth to a fifth.",
        "+5-22 % (3-14 min) at 2.5-10 % paired",
        "runs: A's mean_wait relative to base per seed (%), each scheme at 2.5, 5 and 10 % paired",
        lambda r: measured(per_point_parts(r, "ratio", LOW_RATIOS, SCHEMES,
                                           lambda x, s: relative_extra(r, "mean_wait", "ratio", x, s, "A"))),
        "% of the base", RELATIVE_RANGE, WAIT_FIGURE_BY_RATIO, band=(5.0, 22.0),
    ),
    _value(
        "fig7-A-extra-20", "Fig. 7(a), Sec. V-E",
        "With a fifth of the jobs paired, the compute machine's jobs wait about half an hour longer than without "
        "coscheduling.", "+26-38 min (90-100 min) at 20 % paired",
        "runs: A's mean_wait minus base per seed (min), each scheme at 20 % paired",
        lambda r: measured(per_point_parts(r, "ratio", (0.2,), SCHEMES,
                                           lambda x, s: extra(r, "mean_wait", "ratio", x, s, "A", MINUTE))),
        "min", EVERYTHING, WAIT_FIGURE_BY_RATIO, band=(26.0, 38.0),
    ),
    _value(
        "fig7-A-hold-33", "Fig. 7(a), Sec. V-E",
        "With a third of the jobs paired and the compute machine holding, its mean wait climbs to about three hours.",
        "up to 187 min at 33 % paired", "runs: A's mean_wait (min), per seed the larger of HH and HY at 33 % paired",
        lambda r: measured([part("larger of HH, HY at 33 % paired", largest_per_seed(
            [metric(r, "mean_wait", "ratio", 0.33, s, "A", scale=MINUTE) for s in local_hold("A")]),
            metric(r, "mean_wait", "ratio", 0.33, "base", "A", scale=MINUTE))]),
        "min", NONNEGATIVE, WAIT_FIGURE_BY_RATIO, target=187.0, **TEXT_NUMBER,
    ),
    hold_worse_at_33(
        "A", "Fig. 7(a)", "holding on the compute machine makes its mean wait considerably worse than yielding",
        "considerably worse with hold at 33 % paired (up to 187 min; yield around 100)",
    ),
    _value(
        "fig7-A-yield-33-like-20", "Fig. 7(a), Sec. V-E",
        "If the compute machine yields, pairing a third of the jobs costs it about the same mean wait as pairing a "
        "fifth (around a hundred minutes).", "YH, YY at 33 % comparable to 20 % paired (around 100 min)",
        "runs: A's mean_wait at 33 % paired relative to at 20 % per seed (%), YH and YY",
        yield_33_like_20("A"), "% of the 20 % case", RELATIVE_RANGE, WAIT_FIGURE_BY_RATIO,
        **APPROXIMATELY_ZERO_CHANGE,
    ),
    _direction(
        "fig7-B-rel-rises", "Fig. 7(b), Sec. V-E",
        "On the analysis cluster too, the more jobs are paired, the larger the relative wait increase.",
        "trend", "rises with the paired share",
        "runs: per seed, the slope over the paired share of B's mean_wait relative to base (% per 10 % paired), "
        "each scheme",
        lambda r: measured(trend(s, {x: relative_extra(r, "mean_wait", "ratio", x, s, "B") for x in xs(r, "ratio")},
                                 PER_TEN_PERCENT_PAIRED) for s in SCHEMES),
        "% of the base per 10 % paired", EVERYTHING, "above", 0.0, WAIT_FIGURE_BY_RATIO,
    ),
    _value(
        "fig7-B-below-20-small", "Fig. 7(b), Sec. V-E",
        "With under a fifth of the jobs paired, the analysis cluster's mean wait is not much affected, whatever "
        "the schemes.", "not significantly impacted under 20 % paired",
        "runs: B's mean_wait relative to base per seed (%), each scheme at 2.5, 5 and 10 % paired",
        lambda r: measured(per_point_parts(r, "ratio", LOW_RATIOS, SCHEMES,
                                           lambda x, s: relative_extra(r, "mean_wait", "ratio", x, s, "B"))),
        "% of the base", RELATIVE_RANGE, WAIT_FIGURE_BY_RATIO, **APPROXIMATELY_ZERO_CHANGE,
    ),
    hold_worse_at_33(
        "B", "Fig. 7(b)", "holding on the analysis cluster degrades its mean wait noticeably more than yielding",
        "HH, YH noticeably worse than HY, YY at 33 % paired",
    ),
    _value(
        "fig7-B-yield-33-like-20", "Fig. 7(b), Sec. V-E",
        "If the analysis cluster yields, pairing a third of the jobs costs it about the same mean wait as pairing "
        "a fifth.", "HY, YY at 33 % similar to 20 % paired",
        "runs: B's mean_wait at 33 % paired relative to at 20 % per seed (%), HY and YY",
        yield_33_like_20("B"), "% of the 20 % case", RELATIVE_RANGE, WAIT_FIGURE_BY_RATIO, **APPROXIMATELY_ZERO_CHANGE,
    ),
    _direction(
        "fig8-A-slowdown-le10", "Fig. 8(a), Sec. V-E",
        "With at most a tenth of the jobs paired, the compute machine's mean slowdown stays under 7.5.",
        "threshold", "< 7.5 at 2.5-10 % paired", "runs: mean_slowdown on A, each scheme at 2.5, 5 and 10 % paired",
        lambda r: measured(per_point_parts(r, "ratio", LOW_RATIOS, SCHEMES,
                                           lambda x, s: metric(r, "mean_slowdown", "ratio", x, s, "A"))),
        SLOWDOWN, SLOWDOWN_RANGE, "below", 7.5, SLOWDOWN_FIGURE_BY_RATIO,
    ),
    _value(
        "fig8-A-slowdown-20-33", "Fig. 8(a), Sec. V-E",
        "With a fifth or a third of the jobs paired, the compute machine's mean slowdown lies between about eight "
        "and thirteen, hold-hold excepted.", "7.9-12.9 at 20 and 33 % paired (except HH)",
        "runs: mean_slowdown on A, HY, YH and YY at 20 and 33 % paired",
        lambda r: measured(level_parts(r, "mean_slowdown", "ratio", HIGH_RATIOS, ("HY", "YH", "YY"), "A")),
        SLOWDOWN, SLOWDOWN_RANGE, SLOWDOWN_FIGURE_BY_RATIO, band=(7.9, 12.9),
    ),
    _direction(
        "fig8-B-extra-le10", "Fig. 8(b), Sec. V-E",
        "With at most a tenth of the jobs paired, coscheduling changes the analysis cluster's mean slowdown by "
        "single digits only.", "threshold", "single-digit difference at 2.5-10 % paired",
        "runs: mean_slowdown on B, scheme minus base per seed, each scheme at 2.5, 5 and 10 % paired",
        lambda r: measured(per_point_parts(r, "ratio", LOW_RATIOS, SCHEMES,
                                           lambda x, s: extra(r, "mean_slowdown", "ratio", x, s, "B"))),
        SLOWDOWN, EVERYTHING, "below", 10.0, SLOWDOWN_FIGURE_BY_RATIO,
    ),
    _value(
        "fig8-B-extra-20-33", "Fig. 8(b), Sec. V-E",
        "With a fifth or a third of the jobs paired, coscheduling raises the analysis cluster's mean slowdown by "
        "double digits.", "double-digit increase at 20 and 33 % paired",
        "runs: mean_slowdown on B, scheme minus base per seed, each scheme at 20 and 33 % paired",
        lambda r: measured(per_point_parts(r, "ratio", HIGH_RATIOS, SCHEMES,
                                           lambda x, s: extra(r, "mean_slowdown", "ratio", x, s, "B"))),
        SLOWDOWN, EVERYTHING, SLOWDOWN_FIGURE_BY_RATIO, band=(10.0, 100.0),
    ),
    _direction(
        "fig8-B-hh-worst", "Fig. 8(b), Sec. V-E",
        "With many jobs paired, hold-hold gives the analysis cluster the worst mean slowdown of the four scheme "
        "pairs.", "ordering", "HH the worst case (20 and 33 % paired)",
        "runs: mean_slowdown on B, HH minus each other scheme per seed, at 20 and 33 % paired",
        lambda r: measured(part(f"HH - {s} at {point('ratio', x)}",
                                paired(metric(r, "mean_slowdown", "ratio", x, "HH", "B"),
                                       metric(r, "mean_slowdown", "ratio", x, s, "B")))
                           for x in HIGH_RATIOS for s in SCHEMES[1:]),
        SLOWDOWN, EVERYTHING, "above", 0.0, SLOWDOWN_FIGURE_BY_RATIO,
    ),
    _direction(
        "fig8-hold-worse-slowdown", "Fig. 8, Sec. V-E",
        "From a tenth of the jobs paired on, holding locally raises a machine's mean slowdown more than yielding.",
        "ordering", "hold worse than yield at >= 10 % paired",
        "runs: mean_slowdown, local hold minus local yield per seed, each machine and remote scheme at 10, 20, 33 %",
        lambda r: measured([*hold_minus_yield(r, "mean_slowdown", "A", "ratio", (0.10, 0.2, 0.33)),
                            *hold_minus_yield(r, "mean_slowdown", "B", "ratio", (0.10, 0.2, 0.33))]),
        SLOWDOWN, EVERYTHING, "above", 0.0, SLOWDOWN_FIGURE_BY_RATIO,
    ),
    _value(
        "fig9-A-sync-hold", "Fig. 9(a), Sec. V-E",
        "A holding compute machine synchronizes pairs in a bit over an hour at any paired share (hold-hold "
        "excepted).", "75-88 min (HH excepted)", "runs: mean_sync on A (min), HY at each paired share",
        lambda r: measured(per_point_parts(r, "ratio", xs(r, "ratio"), ("HY",),
                                           lambda x, s: metric(r, "mean_sync", "ratio", x, s, "A", scale=MINUTE))),
        "min", NONNEGATIVE, SYNC_FIGURE_BY_RATIO, band=(75.0, 88.0),
    ),
    _value(
        "fig9-A-sync-hh", "Fig. 9(a), Sec. V-E",
        "Under hold-hold the compute machine's pairs take up to about two hours to synchronize.",
        "HH with 124 min", "runs: mean_sync on A (min) of HH, per seed the largest over the paired shares",
        lambda r: measured([part("HH, largest over the paired shares", largest_per_seed(
            [metric(r, "mean_sync", "ratio", x, "HH", "A", scale=MINUTE) for x in xs(r, "ratio")]))]),
        "min", NONNEGATIVE, SYNC_FIGURE_BY_RATIO, target=124.0, **TEXT_NUMBER,
    ),
    _direction(
        "fig9-A-sync-narrower-than-fig5", "Fig. 9(a), Sec. V-E",
        "A holding compute machine's sync time spreads less over the paired shares than over B's loads (Fig. 5(a)): "
        "it is more sensitive to the load than to the share of pairs.", "ordering",
        "the range is narrower than in Fig. 5(a)",
        "runs: mean_sync on A (min), per hold scheme and seed, its spread (largest minus smallest) over the paired "
        "shares minus its spread over the B loads",
        lambda r: measured(sync_range_narrower_by_share(r, "A")), "min", EVERYTHING, "below", 0.0,
        SYNC_FIGURE_BY_RATIO,
    ),
    _direction(
        "fig9-A-hold-less-sync", "Fig. 9(a), Sec. V-E",
        "Whatever the paired share, holding on the compute machine synchronizes pairs faster than yielding.",
        "ordering", "hold < yield in every group",
        "runs: mean_sync on A (min), local hold minus local yield per seed, each paired share and remote scheme",
        lambda r: measured(hold_minus_yield(r, "mean_sync", "A", "ratio", xs(r, "ratio"), MINUTE)),
        "min", EVERYTHING, "below", 0.0, SYNC_FIGURE_BY_RATIO,
    ),
    _value(
        "fig9-B-sync-hold", "Fig. 9(b), Sec. V-E",
        "A holding analysis cluster synchronizes pairs in one to two hours at any paired share.", "60-122 min",
        "runs: mean_sync on B (min), HH and YH at each paired share",
        lambda r: measured(per_point_parts(r, "ratio", xs(r, "ratio"), local_hold("B"),
                                           lambda x, s: metric(r, "mean_sync", "ratio", x, s, "B", scale=MINUTE))),
        "min", NONNEGATIVE, SYNC_FIGURE_BY_RATIO, band=(60.0, 122.0),
    ),
    _direction(
        "fig9-B-sync-rises", "Fig. 9(b), Sec. V-E",
        "A holding analysis cluster's sync time rises slightly with the paired share.", "trend", "a slight rise",
        "runs: per seed, the slope over the paired share of B's mean_sync (min per 10 % paired), HH and YH",
        lambda r: measured(trend(s, {x: metric(r, "mean_sync", "ratio", x, s, "B", scale=MINUTE)
                                     for x in xs(r, "ratio")}, PER_TEN_PERCENT_PAIRED) for s in local_hold("B")),
        "min per 10 % paired", EVERYTHING, "above", 0.0, SYNC_FIGURE_BY_RATIO,
    ),
    _direction(
        "fig9-B-hold-less-sync", "Fig. 9(b), Sec. V-E",
        "Whatever the paired share, holding on the analysis cluster synchronizes pairs faster than yielding.",
        "ordering", "all hold cases better than yield",
        "runs: mean_sync on B (min), local hold minus local yield per seed, each paired share and remote scheme",
        lambda r: measured(hold_minus_yield(r, "mean_sync", "B", "ratio", xs(r, "ratio"), MINUTE)),
        "min", EVERYTHING, "below", 0.0, SYNC_FIGURE_BY_RATIO,
    ),
    *(
        _value(
            f"fig10-{machine}-loss-{end}", "Fig. 10, Sec. V-E",
            f"With {'the fewest' if end == 'low' else 'the most'} jobs paired, holding on the "
            f"{'compute machine' if machine == 'A' else 'analysis cluster'} idles about {target:g} % of its capacity "
            f"(the {end} end of a loss that grows with the paired share).",
            f"{target:g} % ({node_hours} node-hours) at {100 * x:g} % paired",
            f"runs: su_loss_share on {machine} (%), {' and '.join(local_hold(machine))} at {100 * x:g} % paired",
            lambda r, machine=machine, x=x: measured(per_point_parts(
                r, "ratio", (x,), local_hold(machine),
                lambda x, s: metric(r, "su_loss_share", "ratio", x, s, machine, scale=PERCENT))),
            "% of capacity", SHARE_RANGE, LOSS_FIGURE_BY_RATIO, target=target, **TEXT_NUMBER,
        )
        for machine, end, x, target, node_hours in (
            ("A", "low", 0.025, 0.7, "200,000"), ("A", "high", 0.33, 9.3, "2.7 M"),
            ("B", "low", 0.025, 1.0, "800"), ("B", "high", 0.33, 21.0, "15,000"),
        )
    ),
)

"""Every number or sentence of the paper judged, before ``SENTENCES`` gathers those one sentence states together."""

SENTENCES = (
    ("fig3-A-extra-low-medium", "Fig. 3(a), Sec. V-D",
     "At low and medium B load every scheme pair makes the compute machine's jobs wait longer than without "
     "coscheduling, by less than four and less than ten minutes.", "< 4 and < 10 min at loads 0.25 and 0.50",
     ("fig3-A-extra-025", "fig3-A-extra-050")),
    ("fig3-B-extra", "Fig. 3(b), Sec. V-D",
     "On the analysis cluster coscheduling adds little mean wait: about seven minutes under yield-yield at medium "
     "load, about eight under hold-hold at high load, under five in every other case.",
     "7 min (YY, 0.50), 8 min (HH, 0.75), others < 5 min",
     ("fig3-B-extra-yy-050", "fig3-B-extra-hh-075", "fig3-B-extra-others")),
    ("fig4-B-base-slowdown", "Fig. 4(b), Sec. V-D",
     "Without coscheduling the analysis cluster's mean slowdown is under two at low load and near forty at high load "
     "(its 12.5 at medium load chose a constant: a calibration row).", "1.7 and 37.1 at loads 0.25 and 0.75",
     ("fig4-B-base-slowdown-025", "fig4-B-base-slowdown-075")),
    ("fig4-A-extra", "Fig. 4(a), Sec. V-D",
     "At B load 0.25, 0.50 and 0.75 coscheduling raises the compute machine's mean slowdown by less than 0.6, 1.5 "
     "and 6.3.", "< 0.6, < 1.5, < 6.3 at loads 0.25, 0.50, 0.75",
     ("fig4-A-extra-025", "fig4-A-extra-050", "fig4-A-extra-075")),
    ("fig5-A-sync-by-load", "Fig. 5(a), Sec. V-D",
     "As B's load rises, a holding compute machine's paired jobs wait longer to synchronize: under ten minutes, "
     "nearly fifty, then over two and a half hours.", "< 10, ~50, > 150 min at loads 0.25, 0.50, 0.75",
     ("fig5-A-sync-025", "fig5-A-sync-050", "fig5-A-sync-075")),
    ("fig6-A-loss", "Fig. 6(a), Sec. V-D",
     "As B's load rises, holding on the compute machine idles from about half a percent of its capacity to a few "
     "percent (135,000 to 1.2 million node-hours a month).", "0.46 % to 4.6 % at loads 0.25 to 0.75",
     ("fig6-A-loss-025", "fig6-A-loss-075")),
    ("fig7-A-hold-33-worse", "Fig. 7(a), Sec. V-E",
     "With a third of the jobs paired, holding makes the compute machine's mean wait considerably worse than "
     "yielding, up to about three hours.", "considerably worse with hold at 33 % paired (up to 187 min)",
     ("fig7-A-hold-worse-33", "fig7-A-hold-33")),
    ("fig7-B-33", "Fig. 7(b), Sec. V-E",
     "With a third of the jobs paired, holding on the analysis cluster degrades its mean wait noticeably, while "
     "yielding keeps it about as with a fifth paired.", "hold noticeably worse; yield similar to 20 % paired",
     ("fig7-B-hold-worse-33", "fig7-B-yield-33-like-20")),
    ("fig9-A-sync-levels", "Fig. 9(a), Sec. V-E",
     "A holding compute machine synchronizes pairs in a bit over an hour at any paired share, except under "
     "hold-hold, where it takes up to about two hours.", "75-88 min, except HH with 124 min",
     ("fig9-A-sync-hold", "fig9-A-sync-hh")),
    ("fig10-loss-range", "Fig. 10, Sec. V-E",
     "The more jobs are paired, the more capacity holding idles: from about 0.7 % to 9.3 % of the compute "
     "machine's (200,000 to 2.7 million node-hours a month) and from about 1 % to 21 % of the analysis cluster's "
     "(800 to 15,000).", "0.7-9.3 % on A, 1-21 % on B, from 2.5 to 33 % paired",
     ("fig10-A-loss-low", "fig10-A-loss-high", "fig10-B-loss-low", "fig10-B-loss-high")),
)
"""Sentences that print several numbers (``schedlab.reports.ledger.gathered``)."""


CLAIMS = gathered(NUMBERS, SENTENCES)
