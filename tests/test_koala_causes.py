"""The koala claims' measured causes on constructed result tables whose sentences are worked out by hand."""

from __future__ import annotations

import pandas as pd

from schedlab.reports.koala_causes import CAUSES, causes_frame, model_ccrs, split_sets
from schedlab.reports.koala_claims import CLAIMS, CLUSTER_USE, RUNS
from schedlab.reports.ledger import ledger

SEEDS = (1, 2, 3, 4, 5)
LOADS = (0.3, 0.45, 0.6, 0.75, 0.9)


def run(app, policy, load, seed, *, wait, execution, coallocated=0.0, saturated=False, observed=None,
        config="A", sizes="8/16/32"):
    return {
        "app": app, "policy": policy, "net_utilization": load, "seed": seed, "config": config, "sizes": sizes,
        "mean_response_time": wait + execution, "mean_wait_time": wait, "mean_run_time": execution,
        "coallocated_fraction": coallocated, "saturated": saturated, "queue_growth": 0.0,
        "observed_utilization": load if observed is None else observed, "net_utilization_realized": load,
    }


def poisson_runs(fcm_execution: float = 215.0) -> pd.DataFrame:
    # WF waits 10 s, runs 200 s; FCM waits 4 s but coallocates 20 % of its jobs, which run 215 s on average:
    # 9 s slower, so the claimed gain up to 75 % is not reproduced.  At 90 % FCM saturates on seeds 4 and 5.
    rows = []
    for load in LOADS:
        for seed in SEEDS:
            rows.append(run("poisson", "WF", load, seed, wait=10.0 + seed / 10, execution=200.0))
            rows.append(run("poisson", "FCM", load, seed, wait=4.0 + seed / 10, execution=fcm_execution,
                            coallocated=0.2, saturated=load == 0.9 and seed >= 4, observed=1.1 * load))
    return pd.DataFrame(rows)


def cause_of(claim_id: str, runs: pd.DataFrame) -> tuple[str, str]:
    claims = ledger("koala", CLAIMS, {RUNS: runs}, "quick")
    frame = causes_frame(claims, {RUNS: runs}, {})
    row = frame[frame["claim"] == claim_id].iloc[0]
    return row["verdict"], row["measured cause"]


def test_every_cause_explains_a_claim_of_the_ledger():
    assert set(CAUSES) <= {claim.claim_id for claim in CLAIMS}


def test_a_response_change_is_split_into_wait_and_execution():
    verdict, cause = cause_of("fig7a-poisson-fcm-turns-at-75", poisson_runs())
    assert verdict == "not reproduced"
    # The loads above 40 % up to 75 %, first and last: 45 % and 75 %; 90 % (saturated, beyond 75 %) is not shown.
    assert cause.startswith("poisson 45 %: FCM 219 s against WF 210 s, wait -6.0 s and execution +15.0 s (20 % of its "
                            "jobs coallocated); poisson 75 %: FCM 219 s against WF 210 s, wait -6.0 s and execution "
                            "+15.0 s (20 % of its jobs coallocated).")


def test_a_saturation_cause_names_the_first_saturated_load_per_seed_and_the_last_stable_one():
    # FCM's jobs run as long as WF's (200 s) and wait 6 s less: faster up to 75 %, as the paper has it; at 90 %, the
    # grid's only load beyond 75 %, FCM is 3 % faster on three seeds and saturated on two, so no side is decided there.
    verdict, cause = cause_of("fig7a-poisson-fcm-turns-at-75", poisson_runs(fcm_execution=200.0))
    assert verdict == "partial"
    assert "poisson: WF first saturates at >90, >90, >90, >90, >90 % (per seed); at 90 % net" in cause
    # FCM saturated at 90 % on two seeds: its last stable load is 75 %, where it keeps 1.1 x 75 % busy.
    assert ("poisson: FCM first saturates at >90, >90, >90, 90, 90 % (per seed); at 75 % net, the last load no "
            "seed saturated, it keeps 82 % of the nodes busy, its jobs running 200 s on average (20 % "
            "coallocated).") in cause
    assert "Parts with no value to judge" not in cause


def test_the_low_load_cause_uses_the_grid_s_highest_load_up_to_40_percent():
    # The grid has no 40 % point: the split is shown at 30 %, where FCM's coallocated jobs run 60 s longer
    # for Poisson; Prime and Wave (FCM and FCM<=2 as WF) hold.
    runs = poisson_runs()
    same = [run(app, policy, 0.3, seed, wait=10.0, execution=200.0)
            for app, policies in (("prime", ("WF", "FCM")), ("wave", ("WF", "FCM", "FCM2")))
            for policy in policies for seed in SEEDS]
    runs = pd.concat([runs, pd.DataFrame(same)], ignore_index=True)
    low = runs["net_utilization"] == 0.3
    fcm = (runs["policy"] == "FCM") & (runs["app"] == "poisson")
    runs.loc[low & fcm, "mean_run_time"] = 260.0
    runs.loc[low & fcm, "mean_response_time"] = runs.loc[low & fcm, "mean_wait_time"] + 260.0
    verdict, cause = cause_of("fig7a-no-difference-up-to-40", runs)
    assert verdict == "not reproduced"  # Poisson 25.7 % slower at 30 %, outside the band of no difference
    assert ("poisson 30 %: FCM 264 s against WF 210 s, wait -6.0 s and execution +60.0 s (20 % of its jobs "
            "coallocated)") in cause
    assert "wave 30 %: FCM 210 s against WF 210 s, wait +0.0 s and execution +0.0 s" in cause


def test_the_cluster_sets_each_policy_coallocated_on_are_named_with_their_shares():
    # Config A: CA puts 3 of its 4 split jobs on MultimediaN+UvA; FCM 2 each on UvA+VU and Leiden+VU.
    # Config B: CA 1 on Delft+VU; FCM 3 on Delft+VU, 1 on UvA+VU.  Single-cluster jobs are not counted; equal
    # shares keep the sets' name order.
    sets = {("A", "CA"): {"MultimediaN+UvA": 3, "UvA+VU": 1, "VU": 6}, ("A", "FCM"): {"UvA+VU": 2, "Leiden+VU": 2},
            ("B", "CA"): {"Delft+VU": 1}, ("B", "FCM"): {"Delft+VU": 3, "UvA+VU": 1}}
    use = pd.DataFrame([{"app": "wave", "sizes": "32/48/64", "config": config, "policy": policy, "seed": 1,
                         "net_utilization": 0.4, "clusters": name, "jobs": jobs}
                        for (config, policy), counts in sets.items() for name, jobs in counts.items()])
    assert split_sets({CLUSTER_USE: use}, {}) == (
        "config A, CA: MultimediaN+UvA 75 %, UvA+VU 25 % of its coallocated jobs; config A, FCM: Leiden+VU 50 %, "
        "UvA+VU 50 % of its coallocated jobs; config B, CA: Delft+VU 100 % of its coallocated jobs; config B, "
        "FCM: Delft+VU 75 %, UvA+VU 25 % of its coallocated jobs.")


def test_the_model_s_ccrs_stand_beside_the_ones_the_paper_matches():
    parameters = {"applications": {"prime": {"name": "Prime", "ccr": 0.0},
                                   "poisson": {"name": "Poisson", "ccr": 0.1667},
                                   "wave": {"name": "Wave", "ccr": 4.0}}}
    assert model_ccrs({}, parameters) == (
        "The model's CCRs: Prime 0 (the paper matches it with CCR 0.1); Poisson 0.167 (the paper matches it with "
        "CCR 0.25); Wave 4 (the paper matches it with CCR 4).")
