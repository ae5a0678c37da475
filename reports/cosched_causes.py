"""Measured causes of the coscheduling claims our runs do not reproduce.

A claim judged anything but reproduced gets one sentence saying what in our runs makes
it come out as it does, every number measured: means over the replication seeds of the
per-run diagnostics (``schedlab.simulators.cosched.experiments.job_diagnostics``, columns of
``runs.csv``), the parameters the runs used, and, where a claim rests on the paper's
own figures, arithmetic on those.  A cause decomposes the claim's statistic into the
parts it is made of (an extra wait into what the paired jobs and everyone else paid, a
lost capacity into held jobs x nodes x hours, a mean slowdown into its shortest tenth
and the rest) or sets it beside a run that changes one thing (hold-hold without release
with more pairs).  An undecided claim's cause is its seeds' spread.  A claim with no
decomposition here says so: it is not given a guessed one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from schedlab.reports.causes import Cause, measured_causes, row_causes
from schedlab.reports.cosched_claims import (
    CALIBRATION_LOAD,
    CLAIMS,
    HIGH_RATIOS,
    LOADS,
    LOW_RATIOS,
    MINUTE,
    PAPER_B_BASE_SLOWDOWN,
    PAPER_PAIRED_SHARE,
    SCHEMES,
    combination,
    local_hold,
    metric,
    point,
    release_off,
    x_text,
    xs,
)
from schedlab.reports.ledger import Results, interval, paired

PAPER_A_JOBS = 9219
"""Jobs in the paper's Intrepid month (Sec. V-A)."""
PAPER_B_LOSS = ((25_000, 0.035), (35_000, 0.049))
"""Fig. 6(b)'s ends: node-hours lost on Eureka and the share of capacity the paper gives for each."""
B_NODES = 100
HOURS_PER_DAY = 24.0


def _mean(results: Results, name: str, series: str, x: float, scheme: str, machine: str, release: bool = True) -> float:
    return float(metric(results, name, series, x, scheme, machine, release=release).mean())


def _pairs(results: Results, series: str, x: float, machine: str = "A", release: bool = True) -> float:
    """Mean number of jobs of ``machine`` in a pair at one point (a hold-hold run's)."""
    return _mean(results, "paired_share", series, x, "HH", machine, release) * _mean(
        results, "jobs", series, x, "HH", machine, release)


# --- decompositions --------------------------------------------------------------------------------

def slowdown_split(results: Results, machine: str, series: str, x: float, scheme: str = "base") -> str:
    share = _mean(results, "shortest_tenth_slowdown_share", series, x, scheme, machine)
    return (f"the shortest tenth of {machine}'s jobs (run times up to "
            f"{_mean(results, 'shortest_tenth_max_run_time', series, x, scheme, machine):.0f} s) make "
            f"{100 * share:.0f} % of its mean slowdown {_mean(results, 'mean_slowdown', series, x, scheme, machine):.1f} "
            f"{'' if scheme == 'base' else f'under {scheme} '}at {point(series, x)}; the other nine tenths average "
            f"{_mean(results, 'slowdown_other_nine_tenths', series, x, scheme, machine):.1f}")


def extra_wait_split(results: Results, series: str, x: float, scheme: str, machine: str = "A") -> str:
    """A machine's extra mean wait under ``scheme`` = paired jobs' extra x their share + the others' extra x theirs."""
    def mean(name: str, of: str = scheme) -> float:
        return _mean(results, name, series, x, of, machine)

    share = mean("paired_share")
    paired_extra = mean("wait_paired") - mean("wait_paired", "base")
    others = mean("wait_unpaired") - mean("wait_unpaired", "base")
    total = mean("mean_wait") - mean("mean_wait", "base")
    return (f"{scheme} at {point(series, x)}: of {machine}'s {total / MINUTE:.1f} min extra mean wait, the "
            f"{100 * share:.1f} % paired jobs, each {paired_extra / MINUTE:.0f} min later, make "
            f"{share * paired_extra / MINUTE:.1f} min; the unpaired jobs' mean wait changes by {others / MINUTE:+.1f} min")


def loss_split(results: Results, machine: str, series: str, x: float, scheme: str) -> str:
    """Lost node-hours = held jobs x their mean nodes x their mean hours held."""
    held = _mean(results, "held_jobs", series, x, scheme, machine)
    return (f"{scheme} {point(series, x)}: {held:.0f} held jobs x {_mean(results, 'held_mean_procs', series, x, scheme, machine):.0f}"
            f" nodes x {_mean(results, 'held_mean_hours', series, x, scheme, machine):.2f} h = "
            f"{_mean(results, 'su_loss_hours', series, x, scheme, machine):,.0f} node-hours, "
            f"{100 * _mean(results, 'su_loss_share', series, x, scheme, machine):.2f} % of capacity")


def _machine_a_facts(parameters: dict) -> str:
    a, days = parameters["machine_a"], parameters["profile"]["days"]
    return (f"A's month ({a['source']}) has {a['jobs']:,} jobs, {a['jobs'] / days:.0f} a day, where the paper's Intrepid "
            f"month had {PAPER_A_JOBS:,} ({PAPER_A_JOBS / days:.0f} a day)")


# --- one cause per claim -------------------------------------------------------------------------

def b_base_slowdown(x: float) -> Cause:
    def cause(results: Results, parameters: dict) -> str:
        calibration = (f"the cut chosen to reach the paper's slowdown at load {CALIBRATION_LOAD:g}"
                       if x != CALIBRATION_LOAD else "this row's calibration")
        return (f"B's baseline slowdown is a mean over jobs whose shortest are at least "
                f"{parameters['machine_b']['min_runtime']:g} s ({calibration}): {slowdown_split(results, 'B', 'load', x)}.")
    return cause


def a_base_slowdown(results: Results, parameters: dict) -> str:
    return f"Without coscheduling, {slowdown_split(results, 'A', 'load', LOADS[0])}."


def extra_wait_of(series: str, x: float, schemes, machine: str = "A") -> Cause:
    def cause(results: Results, parameters: dict) -> str:
        return "; ".join(extra_wait_split(results, series, x, scheme, machine) for scheme in schemes) + "."
    return cause


def a_slowdown_low_shares(results: Results, parameters: dict) -> str:
    return (f"Without coscheduling (the baseline of the ratio series), "
            f"{slowdown_split(results, 'A', 'ratio', LOW_RATIOS[0])}.")


def paired_share(results: Results, parameters: dict) -> str:
    per_load = "; ".join(
        f"B load {x:g}: {_pairs(results, 'load', x):.0f} pairs of {_mean(results, 'jobs', 'load', x, 'HH', 'B'):,.0f} "
        f"B jobs ({100 * _mean(results, 'paired_share', 'load', x, 'HH', 'A'):.1f} % of A, "
        f"{100 * _mean(results, 'paired_share', 'load', x, 'HH', 'B'):.1f} % of B)"
        for x in LOADS
    )
    return f"{_machine_a_facts(parameters)}; the 2-minute window makes {per_load}."


def a_extra_wait_at(series: str, x: float) -> Cause:
    def cause(results: Results, parameters: dict) -> str:
        splits = "; ".join(extra_wait_split(results, series, x, scheme) for scheme in SCHEMES)
        return f"{splits}. A's offered load after calibration is {_mean(results, 'offered_load', series, x, 'base', 'A'):.2f}."
    return cause


def b_extra_wait(results: Results, parameters: dict) -> str:
    """At each B load, the scheme that adds most to B's mean wait, split into its pairs' part and the rest."""
    def extra(x: float, scheme: str) -> float:
        return _mean(results, "mean_wait", "load", x, scheme, "B") - _mean(results, "mean_wait", "load", x, "base", "B")

    worst = [(x, max(SCHEMES, key=lambda scheme: extra(x, scheme))) for x in xs(results, "load")]
    return "Worst scheme per load: " + "; ".join(extra_wait_split(results, "load", x, scheme, "B")
                                                  for x, scheme in worst) + "."


def losses(machine: str, series: str) -> Cause:
    def cause(results: Results, parameters: dict) -> str:
        splits = "; ".join(loss_split(results, machine, series, x, scheme)
                           for scheme in local_hold(machine)[:1] for x in xs(results, series))
        return f"Per run on {machine}, {splits}."
    return cause


def b_loss_by_load(results: Results, parameters: dict) -> str:
    capacities = [hours / share for hours, share in PAPER_B_LOSS]
    month = B_NODES * parameters["profile"]["days"] * HOURS_PER_DAY
    return (f"{losses('B', 'load')(results, parameters)} The paper's own ends (25,000 node-hours = 3.5 %, 35,000 = 4.9 %) "
            f"imply a capacity of {capacities[0]:,.0f} node-hours, {capacities[0] / month:.1f} times {B_NODES} nodes "
            f"over {parameters['profile']['days']:g} days.")


def held_sync(results: Results, holder: str, series: str, x_values, schemes) -> str:
    """A held job synchronizes when its mate is picked on the other machine: the holder's sync
    time beside the wait the same mates have there without coscheduling."""
    other = "B" if holder == "A" else "A"
    parts = "; ".join(
        f"{scheme} {point(series, x)}: {holder}'s pairs wait "
        f"{_mean(results, 'mean_sync', series, x, scheme, holder) / MINUTE:.0f} min to synchronize, for mates that "
        f"wait {_mean(results, 'wait_paired', series, x, 'base', other) / MINUTE:.0f} min on {other} without "
        "coscheduling"
        for scheme in schemes for x in x_values
    )
    return f"A held pair's sync time on {holder} is the time {other} takes to pick its mate: {parts}."


def a_sync_low_load(results: Results, parameters: dict) -> str:
    x = LOADS[0]
    return (f"{held_sync(results, 'A', 'load', (x,), local_hold('A'))} Without coscheduling B at load {x:g} waits "
            f"{_mean(results, 'mean_wait', 'load', x, 'base', 'B') / MINUTE:.0f} min on average, mean slowdown "
            f"{_mean(results, 'mean_slowdown', 'load', x, 'base', 'B'):.1f} (the paper's Eureka: "
            f"{PAPER_B_BASE_SLOWDOWN[x]:g}).")


def a_sync_by_share(results: Results, parameters: dict) -> str:
    load = parameters["ratio_series_load"]
    by_load = _mean(results, "mean_wait", "load", load, "base", "B") if load in xs(results, "load") else np.nan
    return (f"{held_sync(results, 'A', 'ratio', xs(results, 'ratio'), ('HY',))} The ratio series' B jobs "
            f"arrive as '{parameters['ratio_series_arrivals']['default']}' reads it: without coscheduling B waits "
            f"{_mean(results, 'mean_wait', 'ratio', xs(results, 'ratio')[0], 'base', 'B') / MINUTE:.0f} min on "
            f"average there, against {by_load / MINUTE:.0f} min at the same load {load:g} in the load series.")


def slowdown_at_high_shares(machine: str, schemes) -> Cause:
    """At 20 and 33 % paired: how much of ``machine``'s mean slowdown its shortest tenth of jobs makes,
    without coscheduling and under each of ``schemes``."""
    def cause(results: Results, parameters: dict) -> str:
        return "; ".join(slowdown_split(results, machine, "ratio", x, scheme)
                         for x in HIGH_RATIOS for scheme in ("base", *schemes)) + "."
    return cause


def held_sync_by_share(holder: str, schemes) -> Cause:
    def cause(results: Results, parameters: dict) -> str:
        return held_sync(results, holder, "ratio", xs(results, "ratio"), schemes)
    return cause


def yield_extra_wait_by_share(results: Results, parameters: dict) -> str:
    splits = "; ".join(extra_wait_split(results, "ratio", x, scheme) for scheme in ("YH", "YY") for x in (0.2, 0.33))
    return f"{splits}."


def hold_yield_sync(machine: str) -> Cause:
    """Where ``machine``'s hold synchronizes slower than its yield (by paired share): the pairs' whole
    wait (submit to start) and the sync part of it under both schemes, and the capacity held."""
    def cause(results: Results, parameters: dict) -> str:
        return _hold_yield_sync(results, machine)
    return cause


def _hold_yield_sync(results: Results, machine: str) -> str:
    def held(x: float, scheme: str) -> str:
        shares = [100 * _mean(results, "su_loss_share", "ratio", x, scheme, side) for side in ("A", "B")]
        return f"{shares[0]:.1f} and {shares[1]:.1f} %"

    parts = []
    for x in xs(results, "ratio"):
        for remote in "HY":
            hold, yield_ = combination(machine, "H", remote), combination(machine, "Y", remote)
            _, low, _ = interval(paired(metric(results, "mean_sync", "ratio", x, hold, machine),
                                        metric(results, "mean_sync", "ratio", x, yield_, machine)))
            if not low > 0:
                continue
            parts.append(
                f"{machine} {x_text('ratio', x)}, {hold} against {yield_}: the pairs wait "
                f"{_mean(results, 'wait_paired', 'ratio', x, hold, machine) / MINUTE:.0f} against "
                f"{_mean(results, 'wait_paired', 'ratio', x, yield_, machine) / MINUTE:.0f} min from submit to "
                f"start, of which {_mean(results, 'mean_sync', 'ratio', x, hold, machine) / MINUTE:.0f} against "
                f"{_mean(results, 'mean_sync', 'ratio', x, yield_, machine) / MINUTE:.0f} min synchronizing; "
                f"A and B hold {held(x, hold)} of their capacity under {hold}, {held(x, yield_)} under {yield_}")
    if not parts:
        return f"No group on {machine} has hold synchronizing wholly slower than yield; the others are undecided."
    return "Where hold synchronizes slower than yield: " + "; ".join(parts) + "."


def hold_yield_slowdown(results: Results, parameters: dict) -> str:
    def split(x: float, scheme: str) -> tuple[float, float]:
        total = _mean(results, "mean_slowdown", "ratio", x, scheme, "A")
        short = _mean(results, "shortest_tenth_slowdown_share", "ratio", x, scheme, "A")
        return short * total, (1 - short) * total

    parts = []
    for x in (0.10, 0.2):
        hold, yield_ = split(x, "HH"), split(x, "YH")
        parts.append(f"{point('ratio', x)} (remote H): hold minus yield on A's mean slowdown is "
                     f"{hold[0] - yield_[0]:+.2f} from the shortest tenth of jobs and {hold[1] - yield_[1]:+.2f} "
                     "from the rest")
    return "; ".join(parts) + "."


def deadlock(results: Results, parameters: dict) -> str:
    parts = []
    for series in ("load", "ratio"):
        off = release_off(results, series)
        for x in xs(results, series):
            at = off[np.isclose(off["x"], x)]
            pairs = float((at["paired_share"] * at["jobs"]).mean())
            parts.append(f"{point(series, x)}, {pairs:.0f} pairs: {int(at['deadlock'].sum())} of {len(at)}")
    low, high = PAPER_PAIRED_SHARE
    return (f"Hold-hold runs without release that deadlocked, by point (mean pairs per run): {'; '.join(parts)}. "
            f"{_machine_a_facts(parameters)}: at the paper's {100 * low:g}-{100 * high:g} % paired that month had "
            f"{low * PAPER_A_JOBS:.0f}-{high * PAPER_A_JOBS:.0f} pairs.")


NUMBER_CAUSES: dict[str, Cause] = {
    "fig4-A-base-slowdown": a_base_slowdown,
    **{f"fig4-B-base-slowdown-{round(100 * x):03d}": b_base_slowdown(x) for x in LOADS},
    "sec5d-paired-share": paired_share,
    "fig3-A-extra-075": a_extra_wait_at("load", 0.75),
    "fig3-B-extra-yy-050": extra_wait_of("load", 0.5, ("YY",), "B"),
    "fig3-B-extra-hh-075": extra_wait_of("load", 0.75, ("HH",), "B"),
    "fig3-B-extra-others": b_extra_wait,
    "fig6-A-loss-025": losses("A", "load"),
    "fig6-A-loss-075": losses("A", "load"),
    "fig6-B-loss": b_loss_by_load,
    "fig6-B-loss-least-at-high": losses("B", "load"),
    "fig7-A-rel-increase-le10": a_extra_wait_at("ratio", LOW_RATIOS[0]),
    "fig7-A-extra-20": a_extra_wait_at("ratio", 0.2),
    "fig7-A-hold-33": extra_wait_of("ratio", 0.33, local_hold("A")),
    "fig7-A-yield-33-like-20": yield_extra_wait_by_share,
    "fig8-hold-worse-slowdown": hold_yield_slowdown,
    "fig8-A-slowdown-le10": a_slowdown_low_shares,
    "fig8-A-slowdown-20-33": slowdown_at_high_shares("A", ("HY", "YH", "YY")),
    "fig8-B-extra-20-33": slowdown_at_high_shares("B", ("HH",)),
    "fig9-A-sync-hh": held_sync_by_share("A", ("HH",)),
    "fig9-B-sync-rises": held_sync_by_share("B", local_hold("B")),
    "fig5-A-sync-025": a_sync_low_load,
    "fig9-A-hold-less-sync": hold_yield_sync("A"),
    "fig9-B-hold-less-sync": hold_yield_sync("B"),
    "fig9-A-sync-hold": a_sync_by_share,
    "fig9-B-sync-hold": held_sync_by_share("B", ("HH",)),
    **{f"fig10-{machine}-loss-{end}": losses(machine, "ratio")
       for machine in ("A", "B") for end in ("low", "high")},
    "sec5b-no-release-deadlocks": deadlock,
}
"""The numbers a decomposition explains, by id (every one a claim of ``NUMBERS``)."""

CAUSES = row_causes(CLAIMS, NUMBER_CAUSES)
"""The ledger's rows a decomposition explains, by id: a sentence of several numbers gives its numbers' causes."""


def causes_frame(claims: pd.DataFrame, results: Results, parameters: dict) -> pd.DataFrame:
    """One row per claim not reproduced (nor left unattempted): its verdict and measured cause."""
    return measured_causes(claims, CLAIMS, CAUSES, results, parameters)
