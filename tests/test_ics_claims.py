"""The ICS claims ledger on constructed result tables whose verdicts are known by hand."""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd
import pytest

from pipeline.ics import run_row, write_results
from reports import ics as report
from reports.ics_claims import CLAIMS
from reports.ledger import judge
from simulators.ics.experiments import Profile, profile_points

SEEDS = (1, 2, 3, 4, 5)
ALL_FIGURES = ("fig7", "fig8", "fig9", "fig10", "fig11", "fig12", "fig13", "fig14", "compression")
LAYOUT = Profile(
    name="constructed", n_jobs=4, compression=80000.0, npb_jobs=2, npb_mix_jobs=3, npb_share=1 / 2048, npb_gaps=(0.4, 0.1),
    compression_factors=(80000.0, 160000.0), figures=ALL_FIGURES, seeds=SEEDS,
)
"""Only the figures' coordinates are used: no point of it is simulated."""

RESPONSE = {"PROC-B": 1.0, "HYBRID": 1.2, "SB": 1.4, "PROC-S": 1.6, "PB": 1.8, "GS": 2.0, "DCS": 2.3, "LOCAL": 2.4,
            "BATCH": 2.6}
"""Mean response per scheme on light load, in the paper's order."""


def constructed_metrics(figure: str, group: str, scheme: str, seed: int, heavy_factor: float) -> dict:
    response = RESPONSE[scheme] * (1.0 + 0.01 * seed) * (heavy_factor if group == "heavy" else 1.0)
    return {
        "jobs": 4, "measured_jobs": 4, "processes_per_node": 1.0 + 0.5 * seed / len(SEEDS),
        "mean_response": response, "mean_wait": 0.4 * response, "mean_execution": 0.6 * response,
        "turnaround": 2.0 * response, "utilization": 0.5, "mean_slowdown": 1.5,
        "fairness_cv": 0.1 * RESPONSE[scheme], "context_switches": 100, "boost_conflicts": 40,
        "false_decisions": 10 if scheme.startswith("PROC") else 20,
        "decisions": 100, "bcr": 0.4, "fdr": 0.25 if scheme.startswith("PROC") else 0.5,
        "bcr_pooled": 0.4, "fdr_pooled": 0.25 if scheme.startswith("PROC") else 0.5, "fdr_chance": 0.45,
        "share_compute": 0.5, "share_spin": 0.1, "share_idle": 0.1, "share_real_idle": 0.1, "share_switch": 0.1,
        "share_overhead": 0.1, "slowdown_J1": 1.2, "slowdown_J3": 1.4, "events": 1000, "messages": 10,
        "lengthened_job_fraction": 0.25, "short_job_fraction": 0.5, "short_job_slowdown": 3.0,
        "long_job_slowdown": 1.2, "long_job_fairness_cv": 0.05,
        "offered_load": None if figure in ("fig11", "fig13", "compression") else 0.9,
    }


def constructed_runs(heavy_factor: float = 1.5, figures: tuple[str, ...] = ALL_FIGURES) -> pd.DataFrame:
    """The figures' coordinates on five seeds; heavy load answers ``heavy_factor`` times slower than light."""
    rows = []
    for figure, points in profile_points(replace(LAYOUT, figures=figures)).items():
        for (group, scheme, seed), point in points.items():
            summary = {"point": point.parameters(),
                       "metrics": constructed_metrics(figure, group, scheme, seed, heavy_factor)}
            rows.append(run_row(figure, (group, scheme, seed), summary))
    return pd.DataFrame(rows)


def rows(figure: str, group: str, values: dict[str, list[float]], metric: str, **columns) -> list[dict]:
    return [{"figure": figure, "group": group, "scheme": scheme, "seed": seed, metric: value, **columns}
            for scheme, per_seed in values.items() for seed, value in zip(SEEDS, per_seed)]


SCHEMES = pd.DataFrame({"scheme": list(RESPONSE), "waiting": ["blocking", "blocking", "blocking", "spinning",
                                                              "spinning", "gang", "spinning", "spinning",
                                                              "space sharing"]})


def verdict(claim_id: str, runs: pd.DataFrame):
    claim = next(c for c in CLAIMS if c.claim_id == claim_id)
    return judge(claim, {"runs": runs, "schemes": SCHEMES})


# --- (a) claim computations on small constructed tables ---------------------------------

def test_reduction_is_computed_per_seed_and_judged_against_the_papers_band():
    # SB answers in 1.0 s on every seed, PROC-B in 0.58..0.62 s: reductions 42, 41, 40, 39, 38 %.
    runs = pd.DataFrame(rows("fig8", "heavy", {"SB": [1.0] * 5, "PROC-B": [0.58, 0.59, 0.60, 0.61, 0.62]},
                             "mean_response"))
    result = verdict("fig8-procb-vs-sb", runs)
    assert result.ours == pytest.approx(40.0)
    assert result.seeds == 5
    assert result.verdict == "reproduced"  # 40 % [38.0, 42.0] lies inside 42.3 +- 21.15


def test_paired_ranking_with_one_broken_link_is_partial():
    # PROC-B < HYBRID < SB < PROC-S hold on every seed; PB is faster than PROC-S by 0.1 s on every seed.
    base = [0.0, 0.01, 0.02, 0.03, 0.04]
    values = {s: [level + b for b in base] for s, level in
              (("PROC-B", 1.0), ("HYBRID", 1.2), ("SB", 1.4), ("PROC-S", 1.6), ("PB", 1.5))}
    values["PB"] = [v + 0.002 * i for i, v in enumerate(values["PB"])]  # the paired differences vary a little
    result = verdict("fig8-ranking", pd.DataFrame(rows("fig8", "heavy", values, "mean_response")))
    assert result.verdict == "partial"
    assert "PB - PROC-S: not_reproduced" in result.reason


def test_bcr_trend_over_mpl_is_a_per_seed_slope():
    # BCR = 0.1 x MPL (+ a per-seed offset): a slope of 10 percentage points per MPL step of one.
    runs = []
    for mpl in (2, 3, 5):
        values = {s: [0.1 * mpl + 0.001 * seed for seed in SEEDS] for s in ("PB", "PROC-S", "SB", "PROC-B", "HYBRID")}
        runs += rows("fig10", f"MPL {mpl}", values, "bcr", mpl=mpl)
    runs = pd.DataFrame(runs)
    claim = next(c for c in CLAIMS if c.claim_id == "tab4-bcr-rises-with-mpl")
    measurement = claim.compute({"runs": runs, "schemes": SCHEMES})
    assert [p.label for p in measurement.parts] == ["PB", "PROC-S", "SB", "PROC-B", "HYBRID"]
    assert all(v == pytest.approx(10.0) for p in measurement.parts for v in p.values)
    # a constant slope has no spread: its interval is the point itself, so the trend is reproduced
    assert verdict("tab4-bcr-rises-with-mpl", runs).verdict == "reproduced"


def test_bcr_level_far_below_the_paper_but_positive_is_partial():
    values = {s: [0.19, 0.20, 0.21, 0.20, 0.20] for s in ("SB", "PROC-B", "HYBRID")}
    result = verdict("fig8-bcr-blocking", pd.DataFrame(rows("fig8", "heavy", values, "bcr")))
    assert result.ours == pytest.approx(20.0)
    assert result.verdict == "partial"  # 20 % lies below 43.9 +- 8 with the paper's sign


def test_a_figure_not_run_is_not_attempted_and_few_seeds_are_inconclusive():
    runs = pd.DataFrame(rows("fig8", "heavy", {"SB": [1.0] * 5, "PROC-B": [0.6] * 5}, "mean_response"))
    missing = verdict("fig9-wl3-procb-vs-sb", runs)
    assert missing.verdict == "not_attempted" and "fig9" in missing.reason
    three = runs[runs["seed"] <= 3]
    assert verdict("fig8-procb-vs-sb", three).verdict == "inconclusive"


def test_fdr_reduction_without_boost_conflicts_is_not_a_number():
    values = {"SB": [0.0] * 5, "PROC-B": [0.0] * 5, "PB": [0.5] * 5, "PROC-S": [0.25] * 5}
    result = verdict("fig8-fdr-halved", pd.DataFrame(rows("fig8", "heavy", values, "fdr")))
    assert result.verdict == "inconclusive"
    assert "no finite value" in result.reason


# --- (b) a broken trend is marked on the page; (c) every link names a written file ---------

def build_page(tmp_path, runs: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    write_results(tmp_path, LAYOUT, runs)
    report.write_report(tmp_path)
    return pd.read_csv(tmp_path / "claims.csv", keep_default_na=False), (tmp_path / "index.md").read_text()


def claim_row(page: str, claim_id: str) -> str:
    return next(line for line in page.splitlines() if line.startswith("|") and f"[{claim_id}]" in line)


def test_page_marks_a_broken_load_trend_not_reproduced(tmp_path):
    holding, broken = tmp_path / "holding", tmp_path / "broken"
    holding.mkdir()
    broken.mkdir()
    _, page = build_page(holding, constructed_runs(heavy_factor=1.5, figures=("fig7", "fig8")))
    assert "| reproduced |" in claim_row(page, "fig7-8-load-raises-response")
    # heavy load now answers twice as fast as light load for every scheme and seed
    claims, page = build_page(broken, constructed_runs(heavy_factor=0.5, figures=("fig7", "fig8")))
    row = claim_row(page, "fig7-8-load-raises-response")
    assert "| not reproduced |" in row
    assert claims.set_index("claim_id").loc["fig7-8-load-raises-response", "verdict"] == "not_reproduced"


@pytest.fixture(scope="module")
def full_report(tmp_path_factory):
    """The report of constructed results covering every figure of the paper profile."""
    directory = tmp_path_factory.mktemp("ics_full")
    claims, page = build_page(directory, constructed_runs())
    return directory, claims, page


def test_every_claim_links_a_file_the_report_writes(full_report):
    directory, claims, _ = full_report
    assert len(claims) == len(CLAIMS) >= 18
    for claim in CLAIMS:
        assert claim.link, claim.claim_id
        assert (directory / claim.link).is_file(), f"{claim.claim_id} links {claim.link}, which the report did not write"
    assert (claims["link"] != "").all()


def test_setup_section_states_offered_load_and_estimates(full_report):
    directory, _, page = full_report
    assert "Run-time estimates: none" in page
    assert "closed batch" in page  # Fig. 11 and Fig. 13 submit every job at time 0
    assert "0.90 [0.90-0.90]" in page  # the constructed measured offered load
    assert ("lengthened 25 % of their measured jobs to that floor, and 50 % run shorter than one gang quantum "
            "(0.1 s)") in page
    assert not math.isnan(float(pd.read_csv(directory / "runs.csv")["offered_load"].max()))
