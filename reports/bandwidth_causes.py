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
  split across clusters and their stretch (run time over T_E0), beside ICS and Zero Comm.;
- the workload-direction claim lists every workload's room beside its offered load, and B
  its queue: Migration Only's mean waiting jobs and their daily swing beside the synthetic
  workload's.

An undecided claim's cause starts with its seeds' spread (``reports.causes.measured_causes``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from reports.bandwidth_claims import (
    CLAIMS, REALISTIC, SENSITIVITY_STATISTICS, SHORT, SYNTHETIC, daily_swing, improvement, information_curve,
    loss, offered_load_of, room, run_metric, swept_ppbws,
)
from reports.causes import Cause, measured_causes
from reports.ledger import NotMeasured, Results

CLAIMS_BY_ID = {claim.claim_id: claim for claim in CLAIMS}
def _table(results: Results, name: str) -> pd.DataFrame:
    if name not in results:
        raise NotMeasured(f"no {name} table")
    return results[name]


def _scale(results: Results) -> int:
    return int(_table(results, "runs").jobs_per_cluster.iloc[0])


def _offered(results: Results, workload: str, load: float | None = None) -> float:
    return offered_load_of(_table(results, "offered_load"), workload, _scale(results), load)


def _percent(values: pd.Series) -> str:
    mean = float(values.mean())
    return f"{100 * mean:.1f} %" if math.isfinite(mean) else "unstable (a run saturated)"


def _against_migration(loss: pd.Series) -> str:
    """A mean ``loss`` (share slower than Migration Only) in words, faster when negative."""
    mean = float(loss.mean())
    if not math.isfinite(mean):
        return "unstable (a run saturated)"
    return f"{'slower' if mean >= 0 else 'faster'} than Migration Only by {100 * abs(mean):.1f} %"


def _meeting(curve: list[tuple[float, float]], target: float, paper: str) -> str:
    """Where a curve of (offered load, mean) points, sorted by load, meets ``target``."""
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
        text = (f"{SHORT[workload]} offers a load of {_offered(results, workload):.3f} in our runs, where its {label} "
                f"is {_percent(own)}")
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
        meeting = _meeting(finite, claim.target, claim.paper_value) if finite else "no run was stable"
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


def lslt_at_highest_ppbw(results: Results, parameters: dict) -> str:
    runs, labels = _table(results, "runs"), parameters["strategies"]["labels"]
    parts = []
    for workload in (REALISTIC, SYNTHETIC):
        for strategy in ("lslt", "lslt_cs"):
            ppbw = max(swept_ppbws(runs, workload, strategy))
            parts.append(f"{SHORT[workload]} at {ppbw:g} Mb/s: {_coallocation(runs, workload, strategy, ppbw, labels)}, "
                         f"{_against_migration(loss(runs, workload, strategy, ppbw))}")
    return "; ".join(parts) + "."


def rooms_by_load(results: Results, parameters: dict) -> str:
    runs = _table(results, "runs")
    parts = [f"{SHORT[w]} {_percent(room(runs, w))} at {_offered(results, w):.3f}"
             for w in (REALISTIC, SYNTHETIC, "A", "B", "C", "D")]
    return "Room for improvement at each workload's offered load: " + ", ".join(parts) + "."


def queue_of_b(results: Results, parameters: dict) -> str:
    depth = _table(results, "queue_depth")

    def described(workload: str) -> str:
        mean = depth[depth.workload == workload].groupby("seed").waiting_jobs.mean().mean()
        return (f"{SHORT[workload]} offers {_offered(results, workload):.3f}, Migration Only keeps {mean:.0f} jobs "
                f"waiting on average, swinging {daily_swing(results, workload).mean():.2f} x its mean over the day")
    runs = _table(results, "runs")
    return (f"{described('B')}, room {_percent(room(runs, 'B'))}; {described(SYNTHETIC)}, room "
            f"{_percent(room(runs, SYNTHETIC))}.")


def information_gains(results: Results, parameters: dict) -> str:
    curve = information_curve(_table(results, "runs"), REALISTIC)
    return ("R: ICS's gain over Migration Only by exposed share: "
            + ", ".join(f"{100 * share:g} % -> {_percent(curve[share])}" for share in curve.columns) + ".")


CAUSES: dict[str, Cause] = {
    "tab1-S-lsltcs": coallocation(SYNTHETIC, ("lslt_cs", "ics", "zero_comm")),
    "tab1-R-room": load_curve("tab1-R-room", "room", REALISTIC),
    "sec51-noshare-R": load_curve("sec51-noshare-R", "no_share", REALISTIC),
    "fig5-6-lslt-high-loses": lslt_at_highest_ppbw,
    "fig7-R-half-gain": information_gains,
    "tab2-A-room": load_curve("tab2-A-room", "room", "A"),
    "tab2-B-room": queue_of_b,
    "tab2-C-room": load_kept_variant("C", "C_load"),
    "tab2-D-room": load_curve("tab2-D-room", "room", "D", variant="D_load"),
    "tab2-D-ics": load_curve("tab2-D-ics", "ics", "D"),
    "sec53-directions": rooms_by_load,
}
"""The claims a decomposition explains, by id (every one is a claim of ``CLAIMS``)."""


def causes_frame(claims: pd.DataFrame, results: Results, parameters: dict) -> pd.DataFrame:
    """One row per claim not reproduced (nor left unattempted): its verdict and measured cause."""
    header, rows = measured_causes(claims, CLAIMS, CAUSES, results, parameters)
    return pd.DataFrame(rows, columns=header)
