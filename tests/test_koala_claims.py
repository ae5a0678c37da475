"""The koala claims on constructed result tables whose answers are worked out by hand: single claims,
a whole results set that follows the paper (every judged row reproduced) and the same set with the
paper's pattern reversed (every judged row not reproduced), and the page built from constructed runs."""

from __future__ import annotations

import dataclasses
import math

import pandas as pd
import pytest

from pipeline.koala import report_parameters
from schedlab.reports.koala import write_report
from schedlab.reports.koala_claims import APPLICATIONS, CLAIMS, CLUSTER_USE, EXECUTION_MODEL, RUNS
from schedlab.reports.ledger import judge, ledger
from schedlab.simulators.koala.execution import CommunicationModel
from schedlab.simulators.koala.experiments import Profile, points

SEEDS = (1, 2, 3, 4, 5)
BY_ID = {claim.claim_id: claim for row in CLAIMS for claim in (row, *row.cells)}
"""Every row, and every number of a sentence's row (its cells)."""


def row(app, policy, load, seed, response, *, config="A", sizes="8/16/32", saturated=False, observed=None,
        queue_growth=0.0):
    return {
        "app": app, "policy": policy, "net_utilization": load, "seed": seed, "config": config, "sizes": sizes,
        "hours": 6.0, "slowest_processor": False, "startup_overhead": 0.0,
        "mean_response_time": response, "mean_wait_time": 0.0, "mean_run_time": response, "saturated": saturated,
        "observed_utilization": load if observed is None else observed, "net_utilization_realized": load,
        "coallocated_fraction": 0.0, "queue_growth": queue_growth,
    }


def verdict(claim_id, rows, **tables):
    return judge(BY_ID[claim_id], {RUNS: pd.DataFrame(rows), **tables})


# --- single claims ----------------------------------------------------------------------------------


def test_a_change_is_the_mean_of_paired_per_seed_changes():
    # WF 100 s everywhere; FCM 90, 89, 91, 90, 90 s: changes -10, -11, -9, -10, -10 %, mean -10 %: a saving of 10 %.
    fcm = dict(zip(SEEDS, (90.0, 89.0, 91.0, 90.0, 90.0)))
    rows = [row("poisson", "WF", load, seed, 100.0) for load in (0.5, 0.7, 0.8) for seed in SEEDS]
    rows += [row("poisson", "FCM", load, seed, fcm[seed]) for load in (0.5, 0.7) for seed in SEEDS]
    rows += [row("poisson", "FCM", 0.8, seed, 220.0 - fcm[seed]) for seed in SEEDS]  # beyond 75 %: 120-131 s
    result = verdict("fig7a-poisson-fcm-turns-at-75", rows)
    assert result.verdict == "reproduced"
    assert result.ours == pytest.approx(10.0) and result.seeds == 5 and result.low > 0
    assert "Poisson, FCM's saving, at 50 %: 10 % of WF's response [" in result.reason
    assert "Poisson, FCM's extra time, at 80 %: 30 % of WF's response [" in result.reason
    # FCM worse on both sides: no turn, not reproduced (one side alone would have passed).
    slower = [r if r["policy"] == "WF" or r["net_utilization"] == 0.8 else {**r, "mean_response_time": 220.0 - fcm[r["seed"]]}
              for r in rows]
    assert verdict("fig7a-poisson-fcm-turns-at-75", slower).verdict == "not_reproduced"


def test_prime_benefit_is_its_saving_at_each_load_against_the_40_percent_load():
    # WF 200 s; FCM = WF x (1 - k x (load - 0.4)) above 40 %, WF's below: the saving at 50 % is 100 k x 0.1
    # points above the one at 40 % (0), with k = 0.18 .. 0.22 per seed: mean 2 points at 50 %, 6 at 70 %.
    k = dict(zip(SEEDS, (0.18, 0.19, 0.20, 0.21, 0.22)))
    grid = (0.3, 0.4, 0.5, 0.7)
    rows = [row("prime", "WF", load, seed, 200.0) for load in grid for seed in SEEDS]
    rows += [row("prime", "FCM", load, seed, 200.0 * (1 - k[seed] * max(load - 0.4, 0.0)))
             for load in grid for seed in SEEDS]
    result = verdict("fig7a-prime-benefit-grows", rows)
    assert result.verdict == "reproduced" and result.ours == pytest.approx(2.0)
    assert "Prime: saving at 70 % minus at 40 %: 6 points of % change [" in result.reason
    # The same saving shrinking from 40 % on: against the claim.
    shrinking = [r | {"mean_response_time": 200.0 * (1 + k[r["seed"]] * max(r["net_utilization"] - 0.4, 0.0))}
                 if r["policy"] == "FCM" else r for r in rows]
    assert verdict("fig7a-prime-benefit-grows", shrinking).verdict == "not_reproduced"


def _wave(fcm_saturated=(), wf_saturated=(), fcm_growth=300.0, wf_growth=0.0):
    """Wave at 50 % (FCM 300 s against WF 100 s) and 90 % with the given seeds saturated there."""
    rows = []
    for load in (0.5, 0.9):
        for seed in SEEDS:
            fcm_hit, wf_hit = load == 0.9 and seed in fcm_saturated, load == 0.9 and seed in wf_saturated
            rows.append(row("wave", "FCM", load, seed, 5000.0 if fcm_hit else 300.0, saturated=fcm_hit,
                            queue_growth=fcm_growth if fcm_hit else 0.0))
            rows.append(row("wave", "WF", load, seed, 5000.0 if wf_hit else 100.0, saturated=wf_hit,
                            queue_growth=wf_growth if wf_hit else 0.0))
    return rows


def test_a_saturated_load_is_an_ordered_outcome_decided_by_the_sign_test():
    # FCM saturated on every seed at 90 %, WF on none: five seeds on the claimed side, +inf each.
    result = verdict("fig7a-wave-fcm-slower", _wave(fcm_saturated=SEEDS))
    assert result.verdict == "reproduced"
    assert ("Wave at 90 % (saturated: FCM 5 of 5 seeds, WF 0 of 5 seeds): 5 of 5 seeds above 0 % change, 0 below"
            in result.reason)
    # Both saturated, WF's backlog growing faster: FCM keeps up better, five seeds against the claim.
    both = _wave(fcm_saturated=SEEDS, wf_saturated=SEEDS, fcm_growth=100.0, wf_growth=400.0)
    result = verdict("fig7a-wave-fcm-slower", both)
    assert result.verdict == "not_reproduced" and "0 of 5 seeds above 0 % change, 5 below" in result.reason
    # One seed saturated, the others 200 % slower anyway: five above.  One seed saturated and the others
    # faster (FCM 90 s): one above, four below, no side decided.
    assert verdict("fig7a-wave-fcm-slower", _wave(fcm_saturated=(1,))).verdict == "reproduced"
    mixed = [r | {"mean_response_time": 90.0} if r["policy"] == "FCM" and not r["saturated"] else r
             for r in _wave(fcm_saturated=(1,))]
    result = verdict("fig7a-wave-fcm-slower", mixed)
    assert result.verdict == "not_reproduced"  # 50 %: FCM 10 % faster on every seed
    assert "Wave at 90 % (saturated: FCM 1 of 5 seeds, WF 0 of 5 seeds): 1 of 5 seeds above 0 % change, 4 below" \
        in result.reason


def _prime_saturating(wf_from, grid=(0.8, 0.85, 0.9, 0.95), policy="WF"):
    """Prime under ``policy`` on ``grid``, saturated from ``wf_from`` on (None: never)."""
    return [row("prime", policy, load, seed, 100.0, saturated=wf_from is not None and load >= wf_from - 1e-9,
                queue_growth=200.0 if wf_from is not None and load >= wf_from - 1e-9 else 0.0)
            for load in grid for seed in SEEDS]


def test_a_saturation_point_is_the_middle_of_its_grid_interval_judged_against_the_papers():
    # Stable at 85 %, saturated at 90 %: saturation sets in between, at 87.5 %, inside 85-90 %.
    result = verdict("table4-prime-wf-saturation", _prime_saturating(0.9))
    assert result.verdict == "reproduced" and result.ours == pytest.approx(87.5)
    assert "WF (first saturated at 90, 90, 90, 90, 90 % per seed): 5 of 5 seeds inside the paper's 85-90 %" \
        in result.reason
    # Saturated from 85 % (between 80 and 85 %): below the paper's interval, though 85 is its edge.
    assert verdict("table4-prime-wf-saturation", _prime_saturating(0.85)).verdict == "not_reproduced"
    # Never saturated on a grid ending at 95 %: beyond it, above 85-90 % (censored, +inf).
    never = verdict("table4-prime-wf-saturation", _prime_saturating(None))
    assert never.verdict == "not_reproduced" and "5 above (5 with no finite value" in never.reason
    # FCM's 90-95 % on a grid ending at 90 %: a seed stable there may saturate inside or above it.
    short = verdict("table4-prime-fcm-saturation", _prime_saturating(None, (0.8, 0.85, 0.9), "FCM"))
    assert short.verdict == "not_attempted" and "across an edge of the paper's 90-95 %" in short.reason


def _policies(lead, saturated=None):
    """Wave 32/48/64: FCM 1000 s, CA 1000 - lead[config][load] (per seed, +-1 s); ``saturated``:
    {(config, load): (FCM's queue growth, CA's)} where both policies saturated on every seed."""
    rows = []
    for (config, load), value in lead.items():
        hit = (saturated or {}).get((config, load))
        for seed in SEEDS:
            rows.append(row("wave", "FCM", load, seed, 1000.0, config=config, sizes="32/48/64",
                            saturated=hit is not None, queue_growth=hit[0] if hit else 0.0))
            rows.append(row("wave", "CA", load, seed, 1000.0 - value + (seed - 3), config=config, sizes="32/48/64",
                            saturated=hit is not None, queue_growth=hit[1] if hit else 0.0))
    return rows


def test_ca_faster_allows_the_exceptions_the_paper_names_and_no_more():
    # CA 100 s ahead (-10 %) at 20 and 40 %; at 60 % 50 s behind (+5 %) in config A only: 1 exception.
    lead = {("A", 0.2): 100.0, ("A", 0.4): 100.0, ("A", 0.6): -50.0,
            ("B", 0.2): 100.0, ("B", 0.4): 100.0, ("B", 0.6): 100.0}
    result = verdict("fig10-ca-faster", _policies(lead))
    assert result.verdict == "partial"
    assert "1 exception(s), which the paper allows ('for almost all utilization levels" in result.reason
    # Three loads behind: more than 'almost all' allows.
    worse = {**lead, ("B", 0.6): -50.0, ("B", 0.4): -50.0}
    assert verdict("fig10-ca-faster", _policies(worse)).verdict == "not_reproduced"


def test_the_gap_widens_is_judged_at_every_load_against_the_lowest():
    # Lead 40 s at 20 %, 80 at 40 %, then CA 30 s behind at 60 %: the gap reverses, against the claim.
    lead = {("A", 0.2): 40.0, ("A", 0.4): 80.0, ("A", 0.6): -30.0,
            ("B", 0.2): 40.0, ("B", 0.4): 80.0, ("B", 0.6): 120.0}
    result = verdict("fig10-gap-widens", _policies(lead))
    assert result.verdict == "not_reproduced"
    assert "config A: CA's lead at 60 % minus at 20 %: -70 s [" in result.reason
    assert "config B: CA's lead at 60 % minus at 20 %: 80 s [" in result.reason
    # Both policies saturated at 60 % with FCM's backlog growing faster: the lead is unbounded, +inf.
    saturated = {("A", 0.6): (300.0, 100.0), ("B", 0.6): (300.0, 100.0)}
    assert verdict("fig10-gap-widens", _policies(lead, saturated)).verdict == "reproduced"


def test_two_unbounded_leads_are_ordered_by_their_backlogs():
    # At 40 % both configurations saturate with FCM behind (leads +inf): FCM's extra backlog is 100 jobs
    # without Delft and 300 with it, so the lead with Delft is the larger.  At 20 %: 100 s against 30 s.
    lead = {("A", 0.2): 30.0, ("A", 0.4): 30.0, ("B", 0.2): 100.0, ("B", 0.4): 100.0}
    larger = verdict("fig10-lead-larger-with-delft", _policies(lead, {("A", 0.4): (200.0, 100.0),
                                                                       ("B", 0.4): (400.0, 100.0)}))
    assert larger.verdict == "reproduced"
    assert "at 20 %, lead with Delft minus without: 70 s [" in larger.reason
    smaller = verdict("fig10-lead-larger-with-delft", _policies(lead, {("A", 0.4): (400.0, 100.0),
                                                                        ("B", 0.4): (200.0, 100.0)}))
    assert smaller.verdict == "not_reproduced"
    assert "(saturated with Delft: FCM 5 of 5 seeds, CA 5 of 5 seeds) (saturated without Delft: FCM 5 of 5 seeds, " \
        "CA 5 of 5 seeds): 0 of 5 seeds above 0 s, 5 below" in smaller.reason


def _limit(fcm2_response, saturated_at_90=None):
    """Wave at 50 %: WF 100 s, FCM 300 s, FCM<=2 as given; at 90 % the same, or (FCM, FCM<=2) queue growths
    with both saturated."""
    rows = []
    for load in (0.5, 0.9):
        hit = load == 0.9 and saturated_at_90 is not None
        for seed in SEEDS:
            rows.append(row("wave", "WF", load, seed, 100.0))
            rows.append(row("wave", "FCM", load, seed, 300.0, saturated=hit,
                            queue_growth=saturated_at_90[0] if hit else 0.0))
            rows.append(row("wave", "FCM2", load, seed, fcm2_response + (seed - 3), saturated=hit,
                            queue_growth=saturated_at_90[1] if hit else 0.0))
    return rows


def test_the_two_cluster_limit_removes_a_minor_share_of_what_coallocation_adds():
    # FCM<=2 at 280 s: 20 of FCM's 200 extra seconds removed, 10 % (+-0.5 %), inside 0-50 %.
    minor = verdict("fig7a-wave-two-cluster-limit", _limit(280.0))
    assert minor.verdict == "reproduced" and minor.ours == pytest.approx(10.0)
    # FCM<=2 at 150 s: 75 % removed, better but not minor.
    assert verdict("fig7a-wave-two-cluster-limit", _limit(150.0)).verdict == "partial"
    # Both saturated at 90 %: FCM's backlog grows 300 jobs, FCM<=2's 270, WF's none: 10 % of the extra backlog.
    saturated = verdict("fig7a-wave-two-cluster-limit", _limit(280.0, (300.0, 270.0)))
    assert saturated.verdict == "reproduced"
    assert "Wave at 90 % (saturated: FCM 5 of 5 seeds, FCM<=2 5 of 5 seeds, WF 0 of 5 seeds): 5 of 5 seeds above" \
        in saturated.reason
    # FCM<=2 slower than FCM: against.
    assert verdict("fig7a-wave-two-cluster-limit", _limit(320.0)).verdict == "not_reproduced"


def test_real_hardware_claims_are_not_attempted_with_a_reason():
    for claim_id in ("fig3-coallocation-slows-execution", "table3-processor-heterogeneity", "sec622-startup-overhead",
                     "fig6a-real-runs-at-40", "fig6b-real-few-coallocated", "table5-real-vs-simulated-load",
                     "fig9-real-ca-lead"):
        result = verdict(claim_id, [])
        assert result.verdict == "not_attempted" and "DAS-3 testbed" in result.reason


def test_every_claim_has_a_unit_a_unique_id_and_says_why_it_is_not_counted():
    ids = [claim.claim_id for claim in CLAIMS]
    assert len(ids) == len(set(ids))
    assert all(claim.unit for claim in CLAIMS)
    assert {claim.claim_id for claim in CLAIMS if claim.basis == "calibration"} == {
        "table2-latency-order", "fig4-wave-four-clusters", "fig4-poisson-prime-less-affected",
        "fig8-wave-matches-ccr4"}
    # The restatements of other rows are gone.
    assert not {"fig7a-prime-fcm-faster", "table4-prime-fcm-saturates-later", "fig8-ccr-025-050-benefit-shrinks",
                "fig8-ccr-025-050-loss-at-high-load", "fig8-ccr-025-050-benefit-at-moderate-load"} & set(ids)


# --- a whole results set: the paper's pattern, and the same reversed --------------------------------

SEC63_GRID = tuple(round(p / 100, 2) for p in range(10, 100, 5))
SEC72_GRID = tuple(round(p / 100, 2) for p in range(20, 85, 5))
APPS = ("prime", "poisson", "wave", "ccr-0.1", "ccr-0.25", "ccr-0.5", "ccr-1", "ccr-2", "ccr-4")


def _change(app: str, load: float, agree: bool) -> float:
    """FCM's % change in mean response time over WF at ``load`` (fraction), by hand: the paper's shapes
    (agree) or their reversal."""
    p = 100 * load
    if p <= 40:
        return 0.0 if agree or app.startswith("ccr-") else 30.0
    if agree:
        shapes = {"prime": -(p - 40), "poisson": 2 * (p - 77.5), "wave": 50.0, "ccr-0.1": -(p - 40),
                  "ccr-0.25": 2 * (p - 77.5), "ccr-0.5": 2 * (p - 70), "ccr-1": 20.0, "ccr-2": 30.0, "ccr-4": 50.0}
    else:
        # CCR 0.1 now runs like Poisson and CCR 0.25 like Prime: each MPI application nearer the other's CCR.
        shapes = {"prime": 30 + (p - 40), "poisson": -2 * (p - 77.5), "wave": -30.0, "ccr-0.1": 1 - 2 * (p - 77.5),
                  "ccr-0.25": 31 + (p - 40), "ccr-0.5": -2 * (p - 70), "ccr-1": -30.0, "ccr-2": -20.0,
                  "ccr-4": -5.0}
    return shapes[app]


def _saturating(agree: bool) -> dict:
    """(app, policy) -> (first saturated load, queue growth when saturated)."""
    if agree:
        return {("prime", "WF"): (0.9, 200.0), ("prime", "FCM"): (0.95, 200.0), ("wave", "FCM"): (0.65, 300.0),
                ("wave", "FCM2"): (0.65, 240.0), ("ccr-1", "FCM"): (0.75, 300.0), ("ccr-2", "FCM"): (0.7, 300.0),
                ("ccr-4", "FCM"): (0.65, 300.0)}
    return {("prime", "FCM"): (0.9, 200.0), ("prime", "WF"): (0.95, 200.0), ("wave", "WF"): (0.65, 300.0),
            ("wave", "FCM2"): (0.65, 240.0), ("ccr-1", "WF"): (0.65, 300.0), ("ccr-2", "WF"): (0.65, 300.0),
            ("ccr-4", "WF"): (0.65, 300.0)}


def _noise(seed: int) -> float:
    return 1 + 0.02 * (seed - 3)


def _small_job_runs(agree: bool) -> list[dict]:
    saturating = _saturating(agree)
    rows = []
    for app in APPS:
        policies = ("WF", "FCM", "FCM2") if app == "wave" else ("WF", "FCM")
        for load in SEC63_GRID:
            for seed in SEEDS:
                change = _change(app, load, agree)
                if app == "wave":
                    # FCM<=2 removes a fifth of what FCM adds (paper); or adds a fifth of its size (reversed).
                    limited = 0.8 * change if agree else change + 0.2 * abs(change)
                responses = {"WF": 200.0, "FCM": 200.0 * (1 + _noise(seed) * change / 100)}
                if app == "wave":
                    responses["FCM2"] = 200.0 * (1 + _noise(seed) * limited / 100)
                for policy in policies:
                    first, growth = saturating.get((app, policy), (math.inf, 0.0))
                    hit = load >= first - 1e-9
                    observed = load
                    if app == "wave" and policy == "FCM" and load > 0.4:
                        observed = load + (0.1 if agree else -0.1)
                    rows.append(row(app, policy, load, seed, 20_000.0 if hit else responses[policy], saturated=hit,
                                    queue_growth=growth if hit else 0.0, observed=observed))
    return rows


def _large_job_runs(agree: bool) -> list[dict]:
    rows = []
    for config in ("A", "B"):
        # CA's lead over FCM (s) and where both saturate, FCM's and CA's queue growth there.
        if agree:
            lead = (lambda p: 10 + 2 * (p - 20)) if config == "A" else (lambda p: 50 + 5 * (p - 20))
            first, growth = (0.8, (300.0, 200.0)) if config == "A" else (0.65, (400.0, 200.0))
        else:
            lead = (lambda p: -(10 + 2 * (p - 20))) if config == "A" else (lambda p: -(50 + 5 * (p - 20)))
            first, growth = (0.4, (200.0, 300.0)) if config == "A" else (0.3, (200.0, 400.0))
        for load in SEC72_GRID:
            hit = load >= first - 1e-9
            for seed in SEEDS:
                fcm = 1000.0 + 1000 * load
                ca = fcm - _noise(seed) * lead(100 * load)
                rows.append(row("wave", "FCM", load, seed, 60_000.0 if hit else fcm, config=config, sizes="32/48/64",
                                saturated=hit, queue_growth=growth[0] if hit else 0.0))
                rows.append(row("wave", "CA", load, seed, 60_000.0 if hit else ca, config=config, sizes="32/48/64",
                                saturated=hit, queue_growth=growth[1] if hit else 0.0))
    return rows


def _cluster_use(agree: bool) -> pd.DataFrame:
    """Jobs per cluster set for each Sec. 7.2 run: (config, policy) -> {set: jobs}."""
    if agree:
        sets = {("A", "CA"): {"MultimediaN+UvA": 8, "UvA+VU": 2, "VU": 10},
                ("A", "FCM"): {"UvA+VU": 5, "Leiden+VU": 5, "VU": 10},
                ("B", "CA"): {"MultimediaN+UvA": 9, "Delft+VU": 1, "VU": 10},
                ("B", "FCM"): {"Delft+VU": 6, "UvA+VU": 4, "VU": 10}}
    else:
        sets = {("A", "CA"): {"MultimediaN+UvA": 1, "UvA+VU": 9, "VU": 10},
                ("A", "FCM"): {"MultimediaN+UvA": 8, "Leiden+VU": 2, "VU": 10},
                ("B", "CA"): {"MultimediaN+UvA": 1, "Delft+VU": 6, "UvA+VU": 3},
                ("B", "FCM"): {"MultimediaN+UvA": 8, "Delft+VU": 1, "UvA+VU": 1}}
    return pd.DataFrame([{"app": "wave", "config": config, "sizes": "32/48/64", "policy": policy,
                          "net_utilization": load, "seed": seed, "clusters": name, "jobs": jobs}
                         for (config, policy), use in sets.items() for load in SEC72_GRID for seed in SEEDS
                         for name, jobs in use.items()])


def _execution_model(agree: bool) -> pd.DataFrame:
    """f(S) of the two-cluster sets and of each configuration's four, Wave's time on config A's four."""
    fast, slow, wave = (1.3, 5.0, 750.0) if agree else (2.5, 1.1, 400.0)
    pairs = {"A": {"UvA+VU": 1.6, "MultimediaN+VU": 1.6, "Leiden+VU": 1.8, "MultimediaN+UvA": fast},
             "B": {"UvA+VU": 1.6, "MultimediaN+VU": 1.6, "MultimediaN+UvA": fast, "Delft+VU": slow,
                   "Delft+UvA": slow + 0.3}}
    rows = [{"config": config, "clusters": name, "n_clusters": 2, "communication_factor": f, "wave_run_time_s": 0.0}
            for config, sets in pairs.items() for name, f in sets.items()]
    rows.append({"config": "A", "clusters": "VU+UvA+MultimediaN+Leiden", "n_clusters": 4,
                 "communication_factor": 4.4375, "wave_run_time_s": wave})
    rows.append({"config": "B", "clusters": "VU+UvA+Delft+MultimediaN", "n_clusters": 4,
                 "communication_factor": 6.0, "wave_run_time_s": 1000.0})
    return pd.DataFrame(rows)


def _applications(agree: bool) -> pd.DataFrame:
    # On four clusters (f = 4.4375): Poisson 170 + 4.4375 x 30 = 303.1 s over 200 s, 51.6 % longer (agree) or
    # 20 + 4.4375 x 180 = 818.75 s, 309.4 % longer (reversed); Prime 0 % (agree) or 171.9 % (reversed).
    poisson, prime = ((170.0, 30.0), (200.0, 0.0)) if agree else ((20.0, 180.0), (100.0, 100.0))
    return pd.DataFrame([{"key": "poisson", "computation_s": poisson[0], "communication_s": poisson[1]},
                         {"key": "prime", "computation_s": prime[0], "communication_s": prime[1]}])


def constructed_results(agree: bool) -> dict:
    return {RUNS: pd.DataFrame(_small_job_runs(agree) + _large_job_runs(agree)), CLUSTER_USE: _cluster_use(agree),
            EXECUTION_MODEL: _execution_model(agree), APPLICATIONS: _applications(agree)}


@pytest.fixture(scope="module")
def judged():
    return {agree: ledger("koala", CLAIMS, constructed_results(agree), "constructed").set_index("claim_id")
            for agree in (True, False)}


def test_results_that_follow_the_paper_reproduce_every_judged_claim(judged):
    frame = judged[True]
    measured = frame[frame["verdict"] != "not_attempted"]
    assert set(measured.index) == {claim.claim_id for claim in CLAIMS if claim.compute is not None or claim.cells}
    assert (measured["verdict"] == "reproduced").all(), measured.loc[measured["verdict"] != "reproduced", "reason"]
    # Worked by hand above: saturation between 85 and 90 %, 60 and 65 %; Wave 750 s on four clusters; Poisson
    # 51.6 % longer on four clusters; CA 80 % of its coallocated jobs on UvA+MultimediaN, FCM none.
    assert frame.loc["table4-prime-saturation", "ours"] == pytest.approx(87.5)  # its first number, WF's
    assert verdict("fig10-saturation-with-delft", constructed_results(True)[RUNS]).ours == pytest.approx(62.5)
    assert frame.loc["fig4-wave-four-clusters", "ours"] == pytest.approx(750.0)
    assert frame.loc["fig4-poisson-prime-less-affected", "ours"] == pytest.approx(51.5625)
    assert frame.loc["sec712-ca-picks-fast-pairs", "ours"] == pytest.approx(80.0)
    assert frame.loc["fig4-wave-four-clusters", "reason"].startswith("calibration (")
    assert frame.loc["fig4-wave-four-clusters", "basis"] == "calibration"


def test_results_that_reverse_the_paper_reproduce_no_claim(judged):
    frame = judged[False]
    measured = frame[frame["verdict"] != "not_attempted"]
    assert set(measured.index) == {claim.claim_id for claim in CLAIMS if claim.compute is not None or claim.cells}
    assert not (frame["verdict"] == "reproduced").any()
    assert (measured["verdict"] == "not_reproduced").all(), measured.loc[measured["verdict"] != "not_reproduced",
                                                                         "reason"]
    assert frame.loc["table4-prime-saturation", "ours"] == pytest.approx(92.5)
    assert frame.loc["fig10-saturation", "ours"] == pytest.approx(37.5)


# --- the page from constructed results ---------------------------------------------------------

TINY = Profile(coallocation_utilizations=(0.1, 0.3, 0.5, 0.7), policies_utilizations=(0.2, 0.4, 0.6),
               ccrs=(0.1, 4.0), seeds=SEEDS, hours=6.0)


def constructed_runs(prime_benefit_grows: bool) -> pd.DataFrame:
    """Every run of TINY with made-up response times: nothing saturates, FCM and CA change the response
    time by a known factor, and Prime's benefit grows with load unless told otherwise."""
    rows = []
    for point in points(TINY):
        base = 100.0 + point.seed
        factor = 1.0
        if point.policy in ("FCM", "FCM2") and point.app == "prime":
            factor = 1 - 0.2 * (point.net_utilization if prime_benefit_grows else 1 - point.net_utilization)
        elif point.policy == "CA":
            factor = 0.9 - 0.1 * point.net_utilization
        record = row(point.app, point.policy, point.net_utilization, point.seed, base * factor,
                     config=point.config, sizes="/".join(map(str, point.sizes)))
        rows.append({**dataclasses.asdict(point), **record})
    return pd.DataFrame(rows)


def constructed_cluster_use() -> pd.DataFrame:
    """Every coallocating run of TINY: half its jobs on one cluster, half on UvA+MultimediaN."""
    return pd.DataFrame([{**dataclasses.asdict(point), "sizes": "/".join(map(str, point.sizes)), "clusters": name,
                          "jobs": 5}
                         for point in points(TINY) for name in ("VU", "MultimediaN+UvA")])


def _ledger_line(page: str, claim_id: str) -> str:
    return next(line for line in page.splitlines() if line.startswith("|") and f"[{claim_id}]" in line)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    written = {}
    for name, grows in (("kept", True), ("broken", False)):
        directory = tmp_path_factory.mktemp(name)
        write_report(directory, {"runs": constructed_runs(grows), "cluster_use": constructed_cluster_use()},
                     report_parameters("tiny", TINY))
        written[name] = directory
    return written


def test_a_broken_trend_shows_as_not_reproduced_on_the_page(pages):
    kept = (pages["kept"] / "index.md").read_text()
    broken = (pages["broken"] / "index.md").read_text()
    assert "| reproduced |" in _ledger_line(kept, "fig7a-prime-benefit-grows")
    assert "| not reproduced |" in _ledger_line(broken, "fig7a-prime-benefit-grows")
    ledger_csv = pd.read_csv(pages["broken"] / "claims.csv").set_index("claim_id")
    assert ledger_csv.loc["fig7a-prime-benefit-grows", "verdict"] == "not_reproduced"


def test_every_claim_links_to_a_file_the_report_writes(pages):
    for claim in CLAIMS:
        assert claim.link and (pages["kept"] / claim.link).is_file(), claim.claim_id


def test_the_calibration_rows_read_the_model_the_runs_used(pages):
    ledger_csv = pd.read_csv(pages["kept"] / "claims.csv").set_index("claim_id")
    # kappa is solved so that Wave takes 750 s on config A's four clusters.
    assert ledger_csv.loc["fig4-wave-four-clusters", "ours"] == pytest.approx(750.0)
    assert ledger_csv.loc["fig4-wave-four-clusters", "verdict"] == "reproduced"
    assert ledger_csv.loc["table2-latency-order", "verdict"] == "reproduced"


def test_model_section_says_what_the_execution_model_does(pages, tmp_path):
    page = (pages["kept"] / "index.md").read_text()
    parameters = report_parameters("tiny", TINY)
    splits = parameters["execution_model"]["factor_by_split"]
    assert len(set(splits.values())) == 1  # today's model: the same factor whatever the split
    assert "does not depend on how the job's nodes are spread" in page and "weighted" not in page
    assert "split rule 'cluster-set'" in page and "w_2 = 1, w_3 = 1" in page
    # Another model: the page follows the parameters.  UvA-MultimediaN (0.20 ms), the cheapest pair, with
    # equal components: f = 1 + kappa x w_2 x 2 x (1/2)(1/2) x 0.20 = 1 + (3.4375 / 0.375) x 0.25 x 0.1 = 1.229.
    shares = dataclasses.replace(TINY, communication=CommunicationModel("node-shares", 0.25, 0.5))
    write_report(tmp_path, {"runs": constructed_runs(True)}, report_parameters("tiny", shares))
    other = (tmp_path / "index.md").read_text()
    assert "it depends on how the job's nodes are spread" in other
    assert "split rule 'node-shares'" in other and "w_2 = 0.25, w_3 = 0.5" in other
    assert "config A: 1 cluster 1-1, 2 clusters 1.23-" in other


def test_the_ledger_reads_only_the_runs_table():
    assert ledger("koala", CLAIMS, {}, "tiny")["verdict"].isin(["not_attempted"]).all()
    assert math.isnan(ledger("koala", CLAIMS, {}, "tiny")["ours"].iloc[0])


def test_ca_s_coallocations_include_the_fast_pair_and_fcm_s_include_delft():
    # Per seed and load, CA: 6 jobs on VU+UvA+MultimediaN (both fast clusters), 4 on Delft+VU; FCM: 2 on
    # MultimediaN+UvA, 8 on Delft+VU; single-cluster jobs do not count.  Fast pair: CA 60 %, FCM 20 %: +40
    # points; Delft: FCM 80 %, CA 40 %: +40 points (config A has no Delft: VU+Leiden stands in for it).
    sets = {"CA": {"VU+UvA+MultimediaN": 6, "Delft+VU": 4, "VU": 20}, "FCM": {"MultimediaN+UvA": 2, "Delft+VU": 8}}
    use = pd.DataFrame([{"app": "wave", "sizes": "32/48/64", "config": config, "policy": policy, "seed": seed,
                         "net_utilization": load, "jobs": jobs,
                         "clusters": name.replace("Delft", "Leiden") if config == "A" else name}
                        for config in ("A", "B") for policy, counts in sets.items() for name, jobs in counts.items()
                        for seed in SEEDS for load in (0.4, 0.6)])
    result = judge(BY_ID["sec712-ca-picks-fast-pairs"], {CLUSTER_USE: use})
    assert result.verdict == "reproduced" and result.ours == pytest.approx(40.0)
    assert "config B: coallocated using Delft, FCM minus CA: 40 points (% of coallocated jobs)" in result.reason
    swapped = use.assign(policy=use["policy"].map({"CA": "FCM", "FCM": "CA"}))
    assert judge(BY_ID["sec712-ca-picks-fast-pairs"], {CLUSTER_USE: swapped}).verdict == "not_reproduced"


def no_effect_results() -> dict:
    """Coallocation that changes nothing: every FCM, FCM<=2 and CA run the same as its baseline's on the same
    load and seed (WF for the small jobs, FCM for the large ones), and CA choosing FCM's cluster sets."""
    runs = pd.DataFrame(_small_job_runs(True) + _large_job_runs(True))
    keys = ["app", "config", "sizes", "net_utilization", "seed"]
    baseline = {"8/16/32": "WF", "32/48/64": "FCM"}
    measured = [c for c in runs.columns if c not in keys + ["policy"]]
    for sizes, policy in baseline.items():
        base = runs[(runs["sizes"] == sizes) & (runs["policy"] == policy)].set_index(keys)[measured]
        treated = (runs["sizes"] == sizes) & (runs["policy"] != policy)
        runs.loc[treated, measured] = base.loc[pd.MultiIndex.from_frame(runs.loc[treated, keys])].to_numpy()
    use = _cluster_use(True)
    fcm = use[use["policy"] == "FCM"]
    use = pd.concat([fcm, fcm.assign(policy="CA")], ignore_index=True)
    return {RUNS: runs, CLUSTER_USE: use, EXECUTION_MODEL: _execution_model(True), APPLICATIONS: _applications(True)}


def test_no_effect_results_reproduce_no_claim_of_an_effect():
    frame = ledger("koala", CLAIMS, no_effect_results(), "constructed").set_index("claim_id")
    exempt = {
        "fig7a-no-difference-up-to-40",  # the paper's own statement of no effect
        # levels of one policy, not effects of coallocation: WF's saturation, CA's with and without Delft
        "fig10-saturation",
    } | {claim.claim_id for claim in CLAIMS if claim.basis != "result"}  # judged on the model, not on the runs
    holding = frame[frame["verdict"].isin(("reproduced", "partial")) & ~frame.index.isin(exempt)]
    assert holding.empty, holding["reason"]
    assert frame.loc["fig7a-no-difference-up-to-40", "verdict"] == "reproduced"
