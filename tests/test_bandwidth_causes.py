"""Measured causes of the bandwidth claims that do not reproduce, on constructed result tables."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from schedlab.reports.bandwidth_causes import CAUSES, causes_frame
from schedlab.reports.bandwidth_claims import CLAIMS
from schedlab.reports.ledger import judge

SEEDS = (1, 2, 3, 4, 5)
JOBS = 1000
LABELS = {"zero_comm": "Zero Comm.", "migration_only": "Migration Only", "lslt_cs": "LSLT+CS", "ics": "ICS",
          "no_share": "No Share"}
PARAMETERS = {"strategies": {"labels": LABELS, "chunk_share": 0.85}}


def runs_at(workload: str, room: float, load: float | None = None, **extra) -> list[dict]:
    """Limits and ICS on every seed: Migration Only 1000 s (times a per-seed factor pairing cancels),
    Zero Comm. ``room`` below it, ICS half way, No Share twice Migration Only's."""
    rows = []
    for seed in SEEDS:
        migration = 1000.0 * (1 + 0.1 * seed)
        for strategy, turnaround in (("migration_only", migration), ("zero_comm", (1 - room) * migration),
                                     ("ics", (1 - room / 2) * migration), ("no_share", 2 * migration)):
            rows.append({"workload": workload, "strategy": strategy, "ppbw": float("nan"), "ppbw_mixed": True,
                         "information": 1.0, "seed": seed, "jobs_per_cluster": JOBS, "load": load,
                         "mean_turnaround": turnaround, **extra})
    return rows


def offered(workload: str, value: float, load: float | None = None) -> list[dict]:
    return [{"workload": workload, "jobs_per_cluster": JOBS, "load": load, "seed": seed, "offered_load": value}
            for seed in SEEDS]


def verdicts(results, claim_id) -> pd.DataFrame:
    claim = next(c for c in CLAIMS if c.claim_id == claim_id)
    return pd.DataFrame([{"claim_id": claim_id, "verdict": judge(claim, results).verdict}])


def results_for_a(default_room: float, swept: dict[float, tuple[float, float]]) -> dict:
    """Workload A at its default load (offered 0.66) and at requested loads: {load: (offered, room)}."""
    load_runs = [row for load, (_, room) in swept.items() for row in runs_at("A", room, load)]
    loads = [row for load, (value, _) in swept.items() for row in offered("A", value, load)]
    return {"runs": pd.DataFrame(runs_at("A", default_room)).drop(columns="load"),
            "load_runs": pd.DataFrame(load_runs, columns=list(runs_at("A", 0.0)[0])),
            "offered_load": pd.DataFrame(offered("A", 0.66) + loads)}


def test_a_room_below_the_paper_is_read_against_the_loads_run():
    # A's room 7.5 % at 0.66 against the paper's 28 %: 0.76 gives 12 %, 0.86 gives 36 %, so the
    # paper's value is met between them: 0.76 + (28 - 12) / (36 - 12) * 0.10 = 0.8267
    results = results_for_a(0.075, {0.8: (0.76, 0.12), 0.9: (0.86, 0.36)})
    claims = verdicts(results, "tab2-A-room")
    assert claims.verdict.item() == "not_reproduced"  # 7.5 % below the paper's roughly 28 % (21-35 %)
    cause = causes_frame(claims, results, PARAMETERS)["measured cause"].item()
    assert cause == ("A offers a load of 0.660 in our runs, with room for improvement 7.5 %. Over the loads "
                     "run: 7.5 % at 0.660, 12.0 % at 0.760, 36.0 % at 0.860; the paper's 28 % is met at an offered "
                     "load of about 0.83.")


def test_a_curve_that_never_reaches_the_paper_says_so():
    results = results_for_a(0.075, {0.5: (0.48, 0.03), 0.9: (0.86, 0.19)})
    cause = causes_frame(verdicts(results, "tab2-A-room"), results, PARAMETERS)["measured cause"].item()
    assert cause.endswith("the paper's 28 % lies above the whole curve (offered loads 0.480 to 0.860).")


def test_a_range_of_the_paper_is_read_at_its_middle():
    # R's room: the paper gives 9 % and 8 %; 6 % at 0.64, 10 % at 0.74: 8.5 % is met at 0.64 + 2.5 / 4 * 0.10
    load_runs = runs_at("realistic", 0.10, 0.8)
    results = {"runs": pd.DataFrame(runs_at("realistic", 0.06)).drop(columns="load"),
               "load_runs": pd.DataFrame(load_runs),
               "offered_load": pd.DataFrame(offered("realistic", 0.64) + offered("realistic", 0.74, 0.8))}
    claims = verdicts(results, "tab1-R-room")
    assert claims.verdict.item() == "not_reproduced"  # 6 % below 7.1-9.9 %
    cause = causes_frame(claims, results, PARAMETERS)["measured cause"].item()
    assert cause.endswith("the paper's 8.5 % (the middle of its 8-9 %) is met at an offered load of about 0.70.")


def test_without_load_runs_the_cause_says_none_were_run():
    results = results_for_a(0.075, {})
    cause = causes_frame(verdicts(results, "tab2-A-room"), results, PARAMETERS)["measured cause"].item()
    assert cause == ("A offers a load of 0.660 in our runs, with room for improvement 7.5 %; the profile "
                     "ran it at no other load.")


def test_a_strategy_gain_is_read_against_what_it_coallocated():
    rows = runs_at("synthetic", 0.30, coallocated_share=0.0, coallocated_slowdown=1.0)
    for seed in SEEDS:  # LSLT+CS: 10 % faster than Migration Only, 4 % of jobs co-allocated, stretched 1.5 times
        rows.append({**rows[0], "strategy": "lslt_cs", "seed": seed, "mean_turnaround": 900.0 * (1 + 0.1 * seed),
                     "coallocated_share": 0.04, "coallocated_slowdown": 1.5})
    for row in rows:
        if row["strategy"] in ("ics", "zero_comm"):
            row.update(coallocated_share=0.2, coallocated_slowdown=1.0)
    results = {"runs": pd.DataFrame(rows).drop(columns="load")}
    claims = verdicts(results, "tab1-S")
    assert claims.verdict.item() == "not_reproduced"  # LSLT+CS's 10 % below 19.8-24.2 %
    cause = causes_frame(claims, results, PARAMETERS)["measured cause"].item()
    assert cause == ("22 %: S, PPBW ~ U[0, 300]: LSLT+CS co-allocates 4.0 % of jobs, stretched x1.50, gain 10.0 %; ICS "
                     "co-allocates 20.0 % of jobs, stretched x1.00, gain 15.0 %; Zero Comm. co-allocates 20.0 % of "
                     "jobs, stretched x1.00, gain 30.0 %. LSLT+CS splits a job only if one piece holds 85 % of it.")


def test_a_missing_metric_is_reported_not_guessed():
    rows = runs_at("synthetic", 0.30)
    rows += [{**row, "strategy": "lslt_cs", "mean_turnaround": 0.9 * row["mean_turnaround"]}
             for row in rows if row["strategy"] == "migration_only"]
    results = {"runs": pd.DataFrame(rows).drop(columns="load")}
    cause = causes_frame(verdicts(results, "tab1-S"), results, PARAMETERS)["measured cause"].item()
    assert cause == "Not measured: no coallocated_share in the runs table."


@pytest.mark.parametrize("room", [0.30, 0.32])
def test_a_reproduced_claim_needs_no_cause(room):
    results = results_for_a(room, {0.9: (0.86, 0.36)})
    assert causes_frame(verdicts(results, "tab2-A-room"), results, PARAMETERS).empty


def test_lslts_degradation_is_read_at_both_ends_of_the_sweep():
    labels = {**LABELS, "lslt": "LSLT"}
    rows = []
    for workload in ("realistic", "synthetic"):
        base = runs_at(workload, 0.30, coallocated_share=0.0, coallocated_slowdown=1.0)
        rows += base
        for row in (r for r in base if r["strategy"] == "migration_only"):
            for strategy, ppbw, factor in (("lslt", 10.0, 0.9), ("lslt_cs", 10.0, 0.9),  # 10 % faster
                                           ("lslt", 1000.0, 1.25),  # 25 % slower
                                           ("lslt_cs", 1000.0, 0.95)):  # 5 % faster
                turnaround = math.inf if (workload, strategy, ppbw) == ("synthetic", "lslt", 1000.0) else (
                    factor * row["mean_turnaround"])
                rows.append({**row, "strategy": strategy, "ppbw": ppbw, "ppbw_mixed": False,
                             "mean_turnaround": turnaround, "coallocated_share": 0.1})
    results = {"runs": pd.DataFrame(rows).drop(columns="load")}
    claims = verdicts(results, "fig5-6-lslt-degrades")
    assert claims.verdict.item() == "not_reproduced"  # LSLT+CS faster than Migration Only at 1000 Mb/s
    cause = causes_frame(claims, results, {"strategies": {"labels": labels}})["measured cause"].item()
    assert cause.startswith(
        "R at 10 Mb/s: LSLT co-allocates 10.0 % of jobs, stretched x1.00, faster than Migration Only by 10.0 %; "
        "R at 1000 Mb/s: LSLT co-allocates 10.0 % of jobs, stretched x1.00, slower than Migration Only by 25.0 %; "
        "R at 10 Mb/s: LSLT+CS co-allocates 10.0 % of jobs, stretched x1.00, faster than Migration Only by 10.0 %; "
        "R at 1000 Mb/s: LSLT+CS co-allocates 10.0 % of jobs, stretched x1.00, faster than Migration Only by 5.0 %;")
    assert ("S at 1000 Mb/s: LSLT co-allocates 10.0 % of jobs, stretched x1.00, unstable (5 of 5 seeds saturated)"
            in cause)


def test_every_cause_belongs_to_a_claim():
    assert set(CAUSES) <= {claim.claim_id for claim in CLAIMS}
