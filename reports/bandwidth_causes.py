"""Measured causes of the bandwidth claims our runs do not reproduce.

A claim judged anything but reproduced gets one sentence of what the result tables measure
behind its statistic, every number a mean over the seeds:

- a room for improvement or a gain on a workload the paper drew at a load it does not state
  is read against offered load: the workload's offered load in our runs and the same
  statistic at every load the profile swept (``load_runs``), with the offered load at which
  that curve meets the paper's value (linear between measured loads) or the side of it the
  whole curve stays on;
- a workload whose recipe changes its load (C: small jobs removed, arrivals kept) is set
  beside its load-kept variant;
- a co-allocating strategy's gain is read against what it co-allocated: the share of jobs it
  split across clusters and their stretch (run time over T_E0), beside ICS and Zero Comm.
  (Table 1), at both ends of the PPBW sweep (LSLT's degradation), at every swept PPBW above
  the smallest (ICS against LSLT), or with mixed PPBW (First-Fit);
- an exposure share for half of ICS's gain is read against ICS's gain at every share run;
- the workload-direction claim lists every workload's room beside its offered load, the
  correlation claim ICS's gain beside the room per workload, and B its queue: Migration
  Only's mean waiting jobs and their daily swing beside the synthetic workload's.

Every gain and room is in %, as the claims measure them (``schedlab.reports.bandwidth_claims``).

An undecided claim's cause starts with its seeds' spread (``schedlab.reports.causes.measured_causes``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from schedlab.reports.bandwidth_claims import (
    CLAIMS, REALISTIC, SENSITIVITY_STATISTICS, SHORT, SYNTHETIC, TABLE2_WORKLOADS, daily_swing, excess, improvement,
    information_curve, offered_load_of, room, run_metric, swept_ppbws,
)
from schedlab.reports.causes import Cause, measured_causes, row_causes
from schedlab.reports.ledger import NotMeasured, Results, claims_by_id

CLAIMS_BY_ID = claims_by_id(CLAIMS)


def _table(results: Results, name: str) -> pd.DataFrame:
    if name not in results:
        raise NotMeasured(f"no {name} table")
    return results[name]


def _scale(results: Results) -> int:
    return int(_table(results, "runs").jobs_per_cluster.iloc[0])


def _offered(results: Results, workload: str, load: float | None = None) -> float:
    return float(offered_load_of(_table(results, "offered_load"), workload, _scale(results), load).mean())


def _percent(values: pd.Series) -> str:
    """The mean of per-seed percentages; a saturated seed leaves no mean, and the text says how many."""
    saturated = int((~np.isfinite(values.to_numpy())).sum())
    if saturated:
        return f"unstable ({saturated} of {len(values)} seeds saturated)"
    return f"{float(values.mean()):.1f} %"


def _against_migration(excess: pd.Series) -> str:
    """A mean ``excess`` (% slower than Migration Only) in words, faster when negative."""
    mean = float(excess.mean())
    if not math.isfinite(mean):
        return f"unstable ({int((~np.isfinite(excess.to_numpy())).sum())} of {len(excess)} seeds saturated)"
    if round(mean, 1) == 0:
        return "as fast as Migration Only (within 0.05 %)"
    return f"{'slower' if mean > 0 else 'faster'} than Migration Only by {abs(mean):.1f} %"


def _paper_number(claim) -> tuple[float, str]:
    """The paper's number a curve is read against, and how to name it: its value, or the middle of its range."""
    if claim.target is not None:
        return claim.target, f"{claim.target:g} %"
    low, high = claim.band
    return (low + high) / 2, f"{(low + high) / 2:g} % (the middle of its {low:g}-{high:g} %)"


def _meeting(curve: list[tuple[float, float]], target: float, paper: str) -> str:
    """Where a curve of (offered load, mean) points, sorted by load, meets the paper's ``target`` (named ``paper``)."""
    for (load, value), (next_load, next_value) in zip(curve, curve[1:]):
        if (value - target) * (next_value - target) <= 0 and next_value != value:
            at = load + (target - value) * (next_load - load) / (next_value - value)
            return f"the paper's {paper} is met at an offered load of about {at:.2f}"
    side = "above" if all(value < target for _, value in curve) else "below"
    return (f"the paper's {paper} lies {side} the whole curve (offered loads {curve[0][0]:.3f} to "
            f"{curve[-1][0]:.3f})")


def load_curve(claim_id: str, statistic: str, workload: str, variant: str | None = None) -> Cause:
    """The statistic at the workload's own offered load and at every swept load, against the claim's
    target; then, if given, the workload beside its load-kept ``variant`` (``load_kept_variant``)."""
    compute, label = SENSITIVITY_STATISTICS[statistic]
    claim = CLAIMS_BY_ID[claim_id]
    beside = load_kept_variant(workload, variant) if variant else None

    def cause(results: Results, parameters: dict) -> str:
        text = curve(results)
        return f"{text} {beside(results, parameters)}" if beside else text

    def curve(results: Results) -> str:
        own = compute(_table(results, "runs"), workload)
        text = (f"{SHORT[workload]} offers a load of {_offered(results, workload):.3f} in our runs, with {label} "
                f"{_percent(own)}")
        load_runs = _table(results, "load_runs")
        loads = sorted(set(load_runs[load_runs.workload == workload].load))
        if not loads:
            return text + "; the profile ran it at no other load."
        points = [(_offered(results, workload), own)]
        points += [(_offered(results, workload, load), compute(load_runs[load_runs.load == load], workload))
                   for load in loads]
        points.sort(key=lambda point: point[0])
        listed = ", ".join(f"{_percent(values)} at {offered:.3f}" for offered, values in points)
        finite = [(offered, float(values.mean())) for offered, values in points if np.isfinite(values.mean())]
        meeting = _meeting(finite, *_paper_number(claim)) if finite else "no run was stable"
        return f"{text}. Over the loads run: {listed}; {meeting}."
    return cause


def load_kept_variant(workload: str, variant: str) -> Cause:
    """A workload whose recipe lowers its load, beside its variant that keeps the realistic stream's load."""
    def cause(results: Results, parameters: dict) -> str:
        runs = _table(results, "runs")
        return (f"{SHORT[workload]} offers {_offered(results, workload):.3f} (R {_offered(results, REALISTIC):.3f}), "
                f"room {_percent(room(runs, workload))}; its load-kept variant {SHORT[variant]} offers "
                f"{_offered(results, variant):.3f}, room {_percent(room(runs, variant))}.")
    return cause


def _coallocation(runs: pd.DataFrame, workload: str, strategy: str, ppbw: float | None, labels: dict) -> str:
    share = run_metric(runs, "coallocated_share", workload, strategy, ppbw)
    stretch = run_metric(runs, "coallocated_slowdown", workload, strategy, ppbw)
    return (f"{labels.get(strategy, strategy)} co-allocates {100 * share.mean():.1f} % of jobs, stretched "
            f"x{stretch.mean():.2f}")


def coallocation(workload: str, strategies: tuple[str, ...]) -> Cause:
    """Each strategy's gain (PPBW ~ U[0, 300]) beside what it co-allocated and how much that stretched."""
    def cause(results: Results, parameters: dict) -> str:
        runs, labels = _table(results, "runs"), parameters["strategies"]["labels"]
        parts = [f"{_coallocation(runs, workload, s, None, labels)}, gain {_percent(improvement(runs, workload, s))}"
                 for s in strategies]
        return (f"{SHORT[workload]}, PPBW ~ U[0, 300]: " + "; ".join(parts) + ". LSLT+CS splits a job only if one "
                f"piece holds {100 * parameters['strategies']['chunk_share']:g} % of it.")
    return cause


def lslt_at_sweep_ends(results: Results, parameters: dict) -> str:
    """LSLT Only and LSLT+CS at the smallest and the largest swept PPBW: what they co-allocated and their
    gap to Migration Only."""
    runs, labels = _table(results, "runs"), parameters["strategies"]["labels"]
    parts = []
    for workload in (REALISTIC, SYNTHETIC):
        for strategy in ("lslt", "lslt_cs"):
            ppbws = swept_ppbws(runs, workload, strategy)
            for ppbw in (ppbws[0], ppbws[-1]):
                parts.append(f"{SHORT[workload]} at {ppbw:g} Mb/s: "
                             f"{_coallocation(runs, workload, strategy, ppbw, labels)}, "
                             f"{_against_migration(excess(runs, workload, strategy, ppbw))}")
    return "; ".join(parts) + "."


def ics_against_lslt(results: Results, parameters: dict) -> str:
    """At each swept PPBW above the smallest, what ICS, LSLT Only and LSLT+CS co-allocated and their gaps to
    Migration Only."""
    runs, labels = _table(results, "runs"), parameters["strategies"]["labels"]
    parts = []
    for workload in (REALISTIC, SYNTHETIC):
        for ppbw in swept_ppbws(runs, workload, "ics")[1:]:
            strategies = [f"{_coallocation(runs, workload, s, ppbw, labels)}, "
                          f"{_against_migration(excess(runs, workload, s, ppbw))}" for s in ("ics", "lslt", "lslt_cs")]
            parts.append(f"{SHORT[workload]} at {ppbw:g} Mb/s: " + "; ".join(strategies))
    return ". ".join(parts) + "."


def first_fit_coallocation(results: Results, parameters: dict) -> str:
    """First-Fit with PPBW ~ U[0, 300] on R and S: what it co-allocated and its gap to Migration Only."""
    runs, labels = _table(results, "runs"), parameters["strategies"]["labels"]
    return "; ".join(f"{SHORT[w]}, PPBW ~ U[0, 300]: {_coallocation(runs, w, 'first_fit', None, labels)}, "
                     f"{_against_migration(excess(runs, w, 'first_fit'))}" for w in (REALISTIC, SYNTHETIC)) + "."


def rooms_by_load(results: Results, parameters: dict) -> str:
    runs = _table(results, "runs")
    parts = [f"{SHORT[w]} {_percent(room(runs, w))} at {_offered(results, w):.3f}" for w in TABLE2_WORKLOADS]
    return "Room for improvement at each workload's offered load: " + ", ".join(parts) + "."


def queue_of_b(results: Results, parameters: dict) -> str:
    depth = _table(results, "queue_depth")

    def described(workload: str) -> str:
        mean = depth[depth.workload == workload].groupby("seed").waiting_jobs.mean().mean()
        return (f"{SHORT[workload]} offers {_offered(results, workload):.3f}, Migration Only keeps {mean:.0f} jobs "
                f"waiting on average, swinging by {daily_swing(results, workload).mean():.0f} % of that mean over "
                "the day")
    runs = _table(results, "runs")
    return (f"{described('B')}, room {_percent(room(runs, 'B'))}; {described(SYNTHETIC)}, room "
            f"{_percent(room(runs, SYNTHETIC))}.")


def information_gains(workload: str) -> Cause:
    """ICS's gain over Migration Only at every exposed share run."""
    def cause(results: Results, parameters: dict) -> str:
        curve = information_curve(_table(results, "runs"), workload)
        return (f"{SHORT[workload]}: ICS's gain over Migration Only by exposed share: "
                + ", ".join(f"{100 * share:g} % -> {_percent(curve[share])}" for share in curve.columns) + ".")
    return cause


def gains_beside_rooms(results: Results, parameters: dict) -> str:
    runs = _table(results, "runs")
    return ("ICS's gain and the room for improvement per workload: "
            + ", ".join(f"{SHORT[w]} {_percent(improvement(runs, w, 'ics'))} of {_percent(room(runs, w))}"
                        for w in TABLE2_WORKLOADS) + ".")


NUMBER_CAUSES: dict[str, Cause] = {
    "tab1-S-lsltcs": coallocation(SYNTHETIC, ("lslt_cs", "ics", "zero_comm")),
    "tab1-R-room": load_curve("tab1-R-room", "room", REALISTIC),
    "sec51-noshare-R": load_curve("sec51-noshare-R", "no_share", REALISTIC),
    "fig5-6-lslt-degrades": lslt_at_sweep_ends,
    "fig5-6-ics-beats-lslt": ics_against_lslt,
    "sec1-first-fit-poor": first_fit_coallocation,
    "fig8-S-half-gain": information_gains(SYNTHETIC),
    "fig7-R-half-gain": information_gains(REALISTIC),
    "tab2-A-room": load_curve("tab2-A-room", "room", "A"),
    "tab2-B-room": queue_of_b,
    "tab2-C-room": load_kept_variant("C", "C_load"),
    "tab2-D-room": load_curve("tab2-D-room", "room", "D", variant="D_load"),
    "tab2-D-ics": load_curve("tab2-D-ics", "ics", "D"),
    "sec53-directions": rooms_by_load,
    "tab2-ics-follows-room": gains_beside_rooms,
}
"""The numbers a decomposition explains, by id (every one a claim of ``NUMBERS``)."""

CAUSES = row_causes(CLAIMS, NUMBER_CAUSES)
"""The ledger's rows a decomposition explains, by id: a statement of several numbers gives its numbers' causes."""


def causes_frame(claims: pd.DataFrame, results: Results, parameters: dict) -> pd.DataFrame:
    """One row per claim not reproduced (nor left unattempted): its verdict and measured cause."""
    return measured_causes(claims, CLAIMS, CAUSES, results, parameters)
