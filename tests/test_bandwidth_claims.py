"""The bandwidth stage's claims ledger on constructed result tables whose answers are known by hand."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from pipeline.bandwidth import BandwidthRuns, report_parameters, result_tables
from reports.bandwidth import write_bandwidth_report
from reports.bandwidth_claims import CLAIMS, half_gain_share
from reports.ledger import judge
from simulators.bandwidth.experiments import Profile, points
from simulators.bandwidth.workload import generate_jobs, offered_load

SEEDS = (1, 2, 3, 4, 5)
CONSTRUCTED = Profile(jobs_per_cluster=100, ppbws=(10.0, 100.0, 1000.0), information=(0.0, 0.1, 0.5, 1.0),
                      seeds=SEEDS)
BY_ID = {claim.claim_id: claim for claim in CLAIMS}


def turnaround(point, broken_ics_trend: bool = False) -> float:
    """A made-up mean turnaround: each seed scales the workload (pairing cancels it out);
    Zero Comm. 0.7 of Migration Only, ICS between them, drifting to Migration Only as PPBW grows
    (or, with ``broken_ics_trend``, the other way round)."""
    migration = 1000.0 * (1 + 0.1 * point.seed)
    zero = 0.7 * migration
    fixed = {"no_share": 3.0 * migration, "migration_only": migration, "zero_comm": zero}
    if point.strategy in fixed:
        return fixed[point.strategy]
    if point.ppbw is None:  # mixed PPBW: the more jobs expose their needs, the closer ICS gets to Zero Comm.
        return migration - (migration - zero) * point.information * 0.9 if point.strategy == "ics" else 0.8 * migration
    towards_migration = (math.log10(point.ppbw) - 1) / 2  # 0 at 10 Mb/s, 1 at 1000 Mb/s
    if point.strategy == "ics":
        share = 1 - towards_migration if broken_ics_trend else towards_migration
        return zero + (migration - zero) * share
    return migration * (0.8 + point.ppbw / 500)  # First-Fit, LSLT, LSLT+CS: lose to Migration Only above 100 Mb/s


def outputs(broken_ics_trend: bool = False):
    """``BandwidthRuns`` outputs with made-up runs and the offered load of the workloads' real jobs."""
    for task in BandwidthRuns.covering(points(CONSTRUCTED)):
        peak = 5.0 if task.workload == "realistic" else 1.0  # the realistic queue swells in the afternoon
        jobs = generate_jobs(task.workload, task.jobs_per_cluster, task.seed)
        yield {"offered_load": offered_load(jobs.submit, jobs.nodes, jobs.base_time, 400),
               "runs": [{"point": dataclasses.asdict(point),
                         "metrics": {"mean_turnaround": turnaround(point, broken_ics_trend), "saturated": False},
                         "queue_by_hour": [10.0 + (peak if 12 <= hour < 18 else 0.0) for hour in range(24)]}
                        for point in task.points()]}


@pytest.fixture(scope="module")
def parameters():
    return report_parameters("constructed", CONSTRUCTED)


def results(broken_ics_trend: bool = False) -> dict:
    return result_tables(outputs(broken_ics_trend), CONSTRUCTED.jobs_per_cluster)


def test_an_improvement_claim_reads_the_paired_gain_over_migration_only():
    # ICS with full information: migration - 0.9 * 0.3 * migration, an improvement of 27 % on every seed
    verdict = judge(BY_ID["tab1-S-ics"], results())
    assert verdict.ours == pytest.approx(0.27) and verdict.seeds == 5
    assert verdict.verdict == "reproduced"  # 27 % within 31 % +- 5


def test_a_paired_ordering_between_strategies():
    # gains with mixed PPBW on every seed: LSLT+CS 20 %, ICS 27 %, Zero Comm. 30 %
    verdict = judge(BY_ID["tab1-S-order"], results())
    assert verdict.verdict == "reproduced"
    assert verdict.ours == pytest.approx(0.07)  # the first part shown: ICS - LSLT+CS
    assert "Zero Comm. above ICS: reproduced (0.03 " in verdict.reason


def test_a_trend_claim_is_a_per_seed_slope_against_log_ppbw():
    # ICS's (T_ics - T_mig) / T_ics at 10, 100, 1000 Mb/s on seed s (migration m, zero 0.7 m):
    # (0.7 - 1) / 0.7, (0.85 - 1) / 0.85, 0: slope of the least-squares line against 1, 2, 3
    losses = np.array([-0.3 / 0.7, -0.15 / 0.85, 0.0])
    slope = np.polyfit([1.0, 2.0, 3.0], losses, 1)[0]
    verdict = judge(BY_ID["fig5-6-ics-reverts"], results())
    assert verdict.verdict == "reproduced" and verdict.ours == pytest.approx(slope)
    assert judge(BY_ID["fig5-6-ics-reverts"], results(broken_ics_trend=True)).verdict == "not_reproduced"


def test_room_orderings_between_workloads_are_paired_by_seed():
    # every workload has the same room (30 %): no direction can be shown, the differences are exactly 0
    verdict = judge(BY_ID["sec53-directions"], results())
    assert verdict.verdict == "inconclusive" and verdict.ours == 0.0


def test_half_gain_share_interpolates_between_measured_shares():
    # full gain 0.3, half 0.15, reached between 0.1 (gain 0.1) and 0.25 (gain 0.2): 0.1 + 0.05 / 0.1 * 0.15
    assert half_gain_share([0.0, 0.1, 0.25, 0.5, 1.0], [0.0, 0.1, 0.2, 0.25, 0.3]) == pytest.approx(0.175)
    assert math.isnan(half_gain_share([0.0, 1.0], [0.0, -0.1]))
    # constructed ICS gains grow linearly with the share: half of the full gain at half exposure
    assert judge(BY_ID["fig8-S-half-gain"], results()).ours == pytest.approx(0.5)


def test_a_saturated_run_counts_as_losing_to_migration_only():
    tables = results()
    runs = tables["runs"]
    worst = (runs.strategy == "lslt") & (runs.ppbw == 1000.0)
    runs.loc[worst, "mean_turnaround"] = math.inf
    verdict = judge(BY_ID["fig5-6-lslt-high-loses"], tables)
    assert verdict.verdict == "reproduced" and "R lslt: reproduced (1 [1, 1]" in verdict.reason


def test_the_daily_queue_cycle_compares_swings_per_seed():
    # realistic: 10 or 15 waiting jobs, swing 5 / 11.25; synthetic 1 / 10.25
    verdict = judge(BY_ID["fig9-R-daily-cycle"], results())
    assert verdict.ours == pytest.approx(5 / 11.25 - 1 / 10.25) and verdict.verdict == "reproduced"


def claim_row(page: str, claim_id: str) -> list[str]:
    row = next(line for line in page.splitlines() if line.startswith(f"| [{claim_id}]("))
    return [cell.strip() for cell in row.strip("|").split("|")]


def test_the_page_marks_a_broken_trend_not_reproduced(tmp_path, parameters):
    sound, broken = tmp_path / "sound", tmp_path / "broken"
    for directory, tables in ((sound, results()), (broken, results(broken_ics_trend=True))):
        directory.mkdir()
        write_bandwidth_report(directory, tables, parameters)
    verdict_column = 6
    assert claim_row((sound / "index.md").read_text(), "fig5-6-ics-reverts")[verdict_column] == "reproduced"
    assert claim_row((broken / "index.md").read_text(), "fig5-6-ics-reverts")[verdict_column] == "not reproduced"
    ledger = pd.read_csv(broken / "claims.csv").set_index("claim_id")
    assert ledger.verdict["fig5-6-ics-reverts"] == "not_reproduced" and len(ledger) == len(CLAIMS)


@pytest.fixture(scope="module")
def written(tmp_path_factory, parameters):
    directory = tmp_path_factory.mktemp("report")
    write_bandwidth_report(directory, results(), parameters)
    return directory


def test_every_claim_links_to_a_file_the_report_writes(written):
    for claim in CLAIMS:
        assert claim.link and (written / claim.link).is_file(), claim.claim_id


def test_the_page_states_each_workloads_measured_offered_load(written):
    workloads = pd.read_csv(written / "workloads.csv").set_index("workload")
    # C keeps the realistic arrival times after dropping its small jobs: it offers less load than R
    assert workloads.loc["C", "offered load (mean over seeds)"] < workloads.loc["R", "offered load (mean over seeds)"]
    assert "arrivals kept" in workloads.loc["C", "how it is built"]
    page = (written / "index.md").read_text()
    assert f"{workloads.loc['C', 'offered load (mean over seeds)']:.3g}" in page


def test_claims_are_many_distinct_and_read_no_simulator():
    assert len(CLAIMS) >= 18 and len({claim.claim_id for claim in CLAIMS}) == len(CLAIMS)
    for module in ("reports/bandwidth.py", "reports/bandwidth_claims.py"):
        source = open(module, encoding="utf-8").read()
        assert "from simulators" not in source and "import simulators" not in source, module
