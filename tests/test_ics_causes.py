"""Measured causes of the ICS claims that do not reproduce, on constructed result tables."""

from __future__ import annotations

import pandas as pd

from schedlab.reports.causes import measured_causes
from schedlab.reports.ics_causes import CAUSES, NUMBER_CAUSES
from schedlab.reports.ics_claims import CLAIMS
from schedlab.reports.ledger import judge

SEEDS = (1, 2, 3, 4, 5)
SCHEMES = pd.DataFrame({"scheme": ["PROC-B", "SB"], "waiting": ["blocking", "blocking"]})


def fig8(procb_response: list[float]) -> pd.DataFrame:
    """SB answers in 1.0 s (0.4 s wait) on every seed; PROC-B as given, with 0.25 s of wait (no compression)."""
    rows = []
    for scheme, responses, wait in (("SB", [1.0] * 5, 0.4), ("PROC-B", procb_response, 0.25)):
        for seed, response in zip(SEEDS, responses):
            rows.append({"figure": "fig8", "group": "heavy", "scheme": scheme, "seed": seed, "mean_response": response,
                         "mean_wait": wait, "mean_execution": response - wait, "share_spin": 0.0,
                         "processes_per_node": 3.0, "compression": 1.0})
    return pd.DataFrame(rows)


PROCB_VS_SB = next(cell for c in CLAIMS for cell in c.cells if cell.claim_id == "fig8-procb-vs-sb")
"""A number of the Fig. 8 sentence's row, judged and explained alone here."""


def ledger(results) -> pd.DataFrame:
    return pd.DataFrame([{"claim_id": PROCB_VS_SB.claim_id, "verdict": judge(PROCB_VS_SB, results).verdict}])


def number_causes(claims, results):
    return measured_causes(claims, [PROCB_VS_SB], NUMBER_CAUSES, results, {})


def test_a_reduction_outside_the_band_is_explained_by_wait_and_execution():
    # PROC-B 0.95 s against SB 1.0 s: a 5 % cut, below the paper's 42.3 % band (partial)
    results = {"runs": fig8([0.95, 0.95, 0.95, 0.95, 0.95]), "schemes": SCHEMES}
    claims = ledger(results)
    assert claims["verdict"].item() == "partial"
    cause = number_causes(claims, results)["measured cause"].item()
    assert cause == ("fig8 heavy: PROC-B 0.95 s = wait 0.25 + execution 0.7 (spinning 0 % of CPU, 3.00 processes per "
                     "node); SB 1 s = wait 0.4 + execution 0.6 (spinning 0 % of CPU, 3.00 processes per node).")


def test_an_undecided_claim_leads_with_its_seeds_spread():
    results = {"runs": fig8([0.2, 1.6, 0.4, 1.3, 0.6]), "schemes": SCHEMES}
    claims = ledger(results)
    assert claims["verdict"].item() == "inconclusive"
    cause = number_causes(claims, results)["measured cause"].item()
    assert cause.startswith("The seeds disagree: over 5 seeds")
    assert "fig8 heavy: PROC-B 0.82 s = wait 0.25" in cause


def test_a_reproduced_claim_needs_no_cause():
    # cuts 43, 42.5, 42, 41.5, 41 %: [41.0, 43.0], inside the paper's 42.3 % +- 10 % of it (38.07-46.53)
    results = {"runs": fig8([0.57, 0.575, 0.58, 0.585, 0.59]), "schemes": SCHEMES}
    claims = ledger(results)
    assert claims["verdict"].item() == "reproduced"
    assert number_causes(claims, results).empty


def test_the_fairness_cause_splits_slowdown_at_one_gang_quantum():
    rows = []
    for scheme, short, long, cv in (("GS", 15.5, 5.84, 0.18), ("PROC-B", 8.6, 4.14, 0.303)):
        for seed in SEEDS:
            rows.append({"figure": "fig12", "group": "wl5", "scheme": scheme, "seed": seed, "compression": 8000.0,
                         "fairness_cv": 0.3, "slowdown_J1": 4.0, "slowdown_J3": 6.0, "short_job_fraction": 0.67,
                         "lengthened_job_fraction": 0.47, "short_job_slowdown": short, "long_job_slowdown": long,
                         "long_job_fairness_cv": cv})
    parameters = {"model": {"costs_s": {"gang quantum": 0.1}, "synthetic": {"min_iterations": 2}}}
    cause = CAUSES["fig12-gs-fairest"]({"runs": pd.DataFrame(rows), "schemes": SCHEMES}, parameters)
    assert cause == (
        "fig12 wl5, CV of the per-type mean slowdowns (J1, J3): GS CV 0.300 (J1 4.00, J3 6.00); PROC-B CV 0.300 "
        "(J1 4.00, J3 6.00). At compression 8000, 67 % of the measured jobs run shorter than one gang quantum (0.1 s) "
        "on a dedicated machine (47 % lengthened to the 2-iteration floor); mean slowdown of those jobs against the "
        "longer ones: GS 15.5 against 5.84, CV 0.180 over the longer jobs; PROC-B 8.6 against 4.14, CV 0.303 over "
        "the longer jobs."
    )


def test_the_fairness_cause_says_when_no_job_is_a_quantum_long():
    rows = [{"figure": "fig12", "group": "wl5", "scheme": "SB", "seed": seed, "compression": 30000.0,
             "fairness_cv": 0.3, "slowdown_J1": 4.0, "short_job_fraction": 1.0, "lengthened_job_fraction": 0.5,
             "short_job_slowdown": 9.0, "long_job_slowdown": float("nan"), "long_job_fairness_cv": float("nan")}
            for seed in SEEDS]
    parameters = {"model": {"costs_s": {"gang quantum": 0.1}, "synthetic": {"min_iterations": 2}}}
    cause = CAUSES["fig12-fairness-tiers"]({"runs": pd.DataFrame(rows), "schemes": SCHEMES}, parameters)
    assert cause.endswith("longer ones: SB 9.0, no job a quantum long.") and "nan" not in cause


def test_the_reduction_cause_adds_the_compression_check_per_factor():
    rows = fig8([0.95] * 5).to_dict("records")
    for factor, procb in (("8000", 0.95), ("2000", [0.7, 0.8, 0.9, 1.0, 1.1])):
        responses = procb if isinstance(procb, list) else [procb] * 5
        for seed, response in zip(SEEDS, responses):
            rows.append({"figure": "compression", "group": f"heavy arrivals, factor {factor}", "scheme": "PROC-B",
                         "seed": seed, "mean_response": response, "compression": float(factor)})
            rows.append({"figure": "compression", "group": f"heavy arrivals, factor {factor}", "scheme": "SB",
                         "seed": seed, "mean_response": 1.0, "compression": float(factor)})
    results = {"runs": pd.DataFrame(rows), "schemes": SCHEMES}
    cause = NUMBER_CAUSES["fig8-procb-vs-sb"](results, {})
    # at 2000 the cuts are 30, 20, 10, 0, -10 %: mean 10, t(4) 2.776 x 15.81 / sqrt 5 = 19.6
    assert cause.endswith("Compression check on Fig. 8's heavy arrivals, paired per seed: PROC-B cuts SB's mean "
                          "response by 5.0 [5.0, 5.0] % at factor 8000, 10.0 [-9.6, 29.6] % at factor 2000.")
    assert cause.startswith("fig8 heavy: PROC-B 0.95 s")


def test_every_cause_belongs_to_a_claim_and_every_judged_claim_has_one():
    ids = {claim.claim_id for claim in CLAIMS}
    assert set(CAUSES) <= ids
    assert ids - set(CAUSES) == {claim.claim_id for claim in CLAIMS if claim.not_attempted}


def test_a_cause_gives_times_at_full_length():
    # 1.0 compressed s at a compression of 8000 reads 8000 s, as the ledger gives it
    results = {"runs": fig8([0.95] * 5).assign(compression=8000.0), "schemes": SCHEMES}
    cause = NUMBER_CAUSES["fig8-procb-vs-sb"](results, {})
    assert cause.startswith("fig8 heavy: PROC-B 7,600 s = wait 2,000 + execution 5,600")
    assert "SB 8,000 s = wait 3,200 + execution 4,800" in cause


def test_a_calibration_cause_lists_each_workloads_measured_mean():
    rows = [{"figure": "fig8", "group": "heavy", "seed": seed, "family": "synthetic", "workload": "wl4",
             "load": "heavy", "mean_gap_s": gap} for seed, gap in zip(SEEDS, (786.0, 900.0, 1000.0, 1100.0, 1328.0))]
    cause = CAUSES["cal-heavy-mean-gap"]({"runs": fig8([0.95] * 5), "workloads": pd.DataFrame(rows)}, {})
    # mean of 786, 900, 1000, 1100, 1328 = 5114 / 5 = 1022.8
    assert cause == ("Mean gap between arrivals of the sampled synthetic workloads (workloads.csv): wl4 heavy 1,023 "
                     "[786-1,328] s over 5 seeds.")
