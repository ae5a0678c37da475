"""Measured causes of the ICS claims that do not reproduce, on constructed result tables."""

from __future__ import annotations

import pandas as pd

from reports.ics_causes import causes_frame
from reports.ics_claims import CLAIMS
from reports.ledger import judge

SEEDS = (1, 2, 3, 4, 5)
SCHEMES = pd.DataFrame({"scheme": ["PROC-B", "SB"], "waiting": ["blocking", "blocking"]})


def fig8(procb_response: list[float]) -> pd.DataFrame:
    """SB answers in 1.0 s (0.4 s wait) on every seed; PROC-B as given, with 0.25 s of wait."""
    rows = []
    for scheme, responses, wait in (("SB", [1.0] * 5, 0.4), ("PROC-B", procb_response, 0.25)):
        for seed, response in zip(SEEDS, responses):
            rows.append({"figure": "fig8", "group": "heavy", "scheme": scheme, "seed": seed, "mean_response": response,
                         "mean_wait": wait, "mean_execution": response - wait, "share_spin": 0.0,
                         "processes_per_node": 3.0})
    return pd.DataFrame(rows)


def ledger(results) -> pd.DataFrame:
    claim = next(c for c in CLAIMS if c.claim_id == "fig8-procb-vs-sb")
    result = judge(claim, results)
    return pd.DataFrame([{"claim_id": claim.claim_id, "verdict": result.verdict}])


def test_a_reduction_outside_the_band_is_explained_by_wait_and_execution():
    # PROC-B 0.95 s against SB 1.0 s: a 5 % cut, below the paper's 42.3 % band (partial)
    results = {"runs": fig8([0.95, 0.95, 0.95, 0.95, 0.95]), "schemes": SCHEMES}
    claims = ledger(results)
    assert claims["verdict"].item() == "partial"
    cause = causes_frame(claims, results, {})["measured cause"].item()
    assert cause == ("fig8 heavy: PROC-B 0.95 s = wait 0.25 + execution 0.7 (spinning 0 % of CPU, 3.00 processes per "
                     "node); SB 1 s = wait 0.4 + execution 0.6 (spinning 0 % of CPU, 3.00 processes per node).")


def test_an_undecided_claim_leads_with_its_seeds_spread():
    results = {"runs": fig8([0.2, 1.6, 0.4, 1.3, 0.6]), "schemes": SCHEMES}
    claims = ledger(results)
    assert claims["verdict"].item() == "inconclusive"
    cause = causes_frame(claims, results, {})["measured cause"].item()
    assert cause.startswith("The seeds disagree: over 5 seeds")
    assert "fig8 heavy: PROC-B 0.82 s = wait 0.25" in cause


def test_a_reproduced_claim_needs_no_cause():
    results = {"runs": fig8([0.58, 0.59, 0.60, 0.61, 0.62]), "schemes": SCHEMES}
    claims = ledger(results)
    assert claims["verdict"].item() == "reproduced"
    assert causes_frame(claims, results, {}).empty
