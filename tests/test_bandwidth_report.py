"""The bandwidth report end to end on a tiny profile, and one Luigi point."""

from __future__ import annotations

import dataclasses
import math

import luigi
import numpy as np
import pandas as pd
import pytest

from pipeline import settings
from pipeline.base import read_json
from pipeline.bandwidth import BandwidthRuns, report_parameters, result_tables
from schedlab.reports import bandwidth as report
from schedlab.reports.bandwidth import write_report
from schedlab.reports.bandwidth_claims import CLAIMS
from schedlab.simulators.bandwidth.experiments import PROFILES, WORKLOADS, Profile, points
from schedlab.simulators.bandwidth.simulate import Point, simulate, simulate_workload
from schedlab.simulators.bandwidth.workload import make_workload
from tests.conftest import layout_faults
from tests.test_bandwidth_claims import AGREEING, SEEDS, constructed, reversed_tables

TINY = Profile(jobs_per_cluster=300, ppbws=(20.0, 300.0), information=(0.0, 0.5, 1.0), seeds=(1, 2), loads=(0.5,),
               convergence=(150,))


@pytest.fixture(scope="module")
def tiny():
    outputs = [simulate_workload(task.points()) for task in BandwidthRuns.covering(points(TINY))]
    return result_tables(outputs, TINY.jobs_per_cluster), report_parameters("tiny", TINY)


def write(directory, tiny):
    tables, parameters = tiny
    write_report(directory, tables, parameters)


def test_report_has_every_figure_and_table(tmp_path, tiny):
    write(tmp_path, tiny)
    for number in range(5, 14):
        stems = [p.stem for p in tmp_path.glob(f"fig{number:02d}_*.png")]
        assert len(stems) == 1 and (tmp_path / f"{stems[0]}.svg").exists(), number
    for stem in ("table1_improvement", "table2_workloads", "headline", "pass_order", "workloads", "ppbw_sweeps",
                 "runs", "pass_order_runs", "queue_depth", "claims"):
        for suffix in ("csv", "md", "tex"):
            assert (tmp_path / f"{stem}.{suffix}").exists()
    index = (tmp_path / "index.md").read_text()
    assert "Table 1" in index and "Table 2" in index and "## Claims ledger" in index
    table1 = pd.read_csv(tmp_path / "table1_improvement.csv")
    assert table1.loc[table1.strategy == "LSLT+CS", "S paper"].item() == "22 %"
    assert " [" in table1.loc[table1.strategy == "ICS", "S ours"].item()
    sweeps = pd.read_csv(tmp_path / "ppbw_sweeps.csv")
    assert (sweeps.seeds == 2).all() and len(sweeps[(sweeps.strategy == "ICS")]) == (len(WORKLOADS) - 2) * len(TINY.ppbws)  # not C-load, D-load
    assert "each point on 2 seed(s) (1, 2)" in index
    # sensitivity, three statistics on both seeds: R, A and D at their default load and at 0.5; R and S at
    # 150 and 300 jobs per cluster
    swept = pd.read_csv(tmp_path / "sensitivity_runs.csv")
    assert (swept.seeds == 2).all() and len(swept) == 3 * (3 * 2 + 2 * 2)
    assert list(dict.fromkeys(swept[swept.swept == "load"].workload)) == ["R", "A", "D"]
    by_load = swept[(swept.swept == "load") & (swept.improvement == "ICS's gain over Migration Only")
                    & (swept.workload == "R")]
    by_load = by_load.set_index("requested load")
    assert by_load.loc["0.5", "offered load"] < by_load.loc["default", "offered load"]
    assert set(swept.improvement) == {"room for improvement", "ICS's gain over Migration Only",
                                      "Migration Only's gain over No Share"}
    assert (tmp_path / "load_sensitivity.png").exists() and (tmp_path / "convergence.png").exists()
    assert "Sensitivity: offered load and run length" in index
    # both pass orders for every strategy they place differently on R and S, the paper's text named as
    # such, with each reading's verdict of the Table 1 cells (inconclusive on two seeds)
    orders = pd.read_csv(tmp_path / "pass_order.csv", keep_default_na=False)
    assert len(orders) == 2 * 3 and "as_stated (paper's text)" in orders.columns
    assert set(orders.strategy) == {"First-Fit", "LSLT only", "LSLT+CS"}
    judged = orders[orders["verdict, variant"] != ""]
    assert judged.strategy.tolist() == ["LSLT+CS"] and set(judged["verdict, variant"]) == {"inconclusive"}
    assert "Pass order 'as_stated'" in index and "'whole_first'" in index
    # two seeds decide nothing: every claim is inconclusive (or not attempted), never a verdict from means
    claims = pd.read_csv(tmp_path / "claims.csv")
    assert set(claims.verdict) <= {"inconclusive", "not_attempted"} and (claims.seeds <= 2).all()


CONSTRUCTED = Profile(jobs_per_cluster=1000, ppbws=(10.0, 100.0, 1000.0), information=(0.0, 0.1, 0.2, 0.3, 0.5, 1.0),
                      seeds=SEEDS, loads=(0.8, 0.9), pass_order_variant=False)
DEFAULT_LOADS = {"realistic": 0.639, "synthetic": 0.75, "A": 0.64, "B": 0.75, "C": 0.52, "D": 0.52, "C_load": 0.64,
                 "D_load": 0.64}


def report_tables(tables: dict) -> dict:
    """Constructed runs and queues (``tests.test_bandwidth_claims``) with the other tables a report reads: the
    realistic stream's limits and ICS rerun at requested loads 0.8 and 0.9 (offered 0.78 and 0.87, far from its
    default 0.639), and every workload's offered load per seed."""
    runs = tables["runs"]
    swept = runs[(runs.workload == "realistic") & runs.ppbw_mixed & (runs.information == 1.0)
                 & runs.strategy.isin(["zero_comm", "migration_only", "no_share", "ics"])]
    loads = [{"workload": w, "jobs_per_cluster": 1000, "load": math.nan, "seed": s, "offered_load": DEFAULT_LOADS[w]}
             for w in DEFAULT_LOADS for s in SEEDS]
    loads += [{"workload": "realistic", "jobs_per_cluster": 1000, "load": load, "seed": s, "offered_load": offered}
              for load, offered in ((0.8, 0.78), (0.9, 0.87)) for s in SEEDS]
    return {**tables, "pass_order_runs": runs.iloc[:0], "convergence_runs": runs.iloc[:0],
            "load_runs": pd.concat([swept.assign(load=load) for load in (0.8, 0.9)], ignore_index=True),
            "offered_load": pd.DataFrame(loads)}


@pytest.fixture(scope="module")
def agreeing_page(tmp_path_factory):
    directory = tmp_path_factory.mktemp("agreeing")
    write_report(directory, report_tables(constructed(AGREEING)),
                           report_parameters("constructed", CONSTRUCTED))
    return directory


def claim_row(page: str, claim_id: str) -> list[str]:
    row = next(line for line in page.splitlines() if line.startswith(f"| [{claim_id}]("))
    return [cell.strip() for cell in row.strip("|").split("|")]


def test_the_page_shows_each_claims_verdict_from_the_data(tmp_path, agreeing_page):
    write_report(tmp_path, report_tables(reversed_tables()), report_parameters("constructed", CONSTRUCTED))
    verdict_column = 6
    assert claim_row((agreeing_page / "index.md").read_text(), "sec51-ics-reverts")[verdict_column] == "reproduced"
    assert claim_row((tmp_path / "index.md").read_text(), "sec51-ics-reverts")[verdict_column] == "not reproduced"
    assert "20 claims: 20 reproduced." in (agreeing_page / "index.md").read_text()
    assert "20 claims: 20 not reproduced." in (tmp_path / "index.md").read_text()


def test_every_claim_links_to_a_file_the_report_writes(agreeing_page):
    for claim in CLAIMS:
        assert claim.link and (agreeing_page / claim.link).is_file(), claim.claim_id


def test_the_setup_measures_each_workloads_load_on_the_inputs_of_its_claimed_runs(agreeing_page):
    # R's default runs offer 0.639; its load-swept reruns (0.78, 0.87) are other inputs and stay out of it
    workloads = pd.read_csv(agreeing_page / "workloads.csv").set_index("workload")
    assert workloads.loc["R", "offered load (mean over seeds)"] == 0.639
    assert workloads.loc["R", "range over seeds"] == "0.639-0.639"
    assert workloads.loc["C", "offered load (mean over seeds)"] == 0.52 and (workloads.seeds == 5).all()
    index = (agreeing_page / "index.md").read_text()
    # 6 x 5 limits and ICS at two loads besides 380 claimed runs (R and S 120 each, A-D 35 each)
    assert ("Profile 'constructed': 420 runs (380 at each workload's own load; 40 at other offered loads)."
            in index)
    assert "own load simulate 1,000 jobs per cluster (the paper ran 400,000), each point on 5 seed(s) (1, 2, 3, 4, 5)" in index


def test_the_experiments_run_are_listed_in_words(agreeing_page):
    experiments = pd.read_csv(agreeing_page / "experiments.csv", keep_default_na=False)
    realistic = experiments[(experiments.runs == "at each workload's own load") & (experiments.workload == "R")].iloc[0]
    assert realistic["PPBW"] == "10, 100, 1,000 Mb/s; U[0, 300] per job"
    assert realistic["jobs exposing PPBW and rho (%)"] == "0, 10, 20, 30, 50, 100"
    # 5 seeds x (4 co-allocating strategies x (3 PPBWs + mixed) + 3 limits + 5 exposure shares below 100 %)
    assert realistic["count"] == 5 * (4 * (3 + 1) + 3 + 5)
    swept = experiments[experiments.runs == "at other offered loads"].iloc[0]
    assert swept["requested load"] == "0.8, 0.9" and swept["count"] == 40
    assert "[[" not in (agreeing_page / "index.md").read_text()  # no parameter list dumped as JSON


def test_report_is_byte_identical_from_one_run_to_the_next(tmp_path, tiny):
    first, second = tmp_path / "first", tmp_path / "second"
    for directory in (first, second):
        directory.mkdir()
        write(directory, tiny)
    files = sorted(p.name for p in first.iterdir())
    for name in files:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_one_task_runs_every_point_of_a_workload_and_seed_as_separate_runs_would(tmp_path):
    chosen = [Point("synthetic", "ics", None, 0.5, 200, 2), Point("synthetic", "zero_comm", None, 1.0, 200, 2),
              Point("synthetic", "first_fit", 100.0, 1.0, 200, 2, "per_job"), Point("realistic", "ics", None, 1.0, 200, 2)]
    tasks = BandwidthRuns.covering(chosen)
    assert [(t.workload, len(t.runs)) for t in tasks] == [("realistic", 1), ("synthetic", 3)]
    with settings.overridden(work_dir=str(tmp_path / "work")):
        assert luigi.build(tasks, local_scheduler=True, workers=1, log_level="WARNING")
        output = read_json(tasks[1].output_file("summaries.json"))
        assert sorted(p.name for p in tasks[1].output_file("summaries.json").parent.iterdir()
                      if p.name != "task.json") == ["summaries.json"]  # no per-job data
    for summary, point in zip(output["runs"], chosen[:3], strict=True):
        run, metrics = simulate(point)  # its own generation of the jobs
        assert summary["point"] == dataclasses.asdict(point) and summary["metrics"] == metrics
        assert np.isclose(metrics["mean_turnaround"], (run.schedule.end - run.schedule.submit).mean())
        assert summary["queue_by_hour"] == run.queue_by_hour.tolist()
    jobs = make_workload("synthetic", 200, 2)
    by_hand = float((jobs.nodes * jobs.base_time).sum()) / (400 * (jobs.submit.max() - jobs.submit.min()))
    assert output["offered_load"] == pytest.approx(by_hand, rel=1e-12)


def test_command_line_prints_the_summary(capsys):
    from schedlab.cli import main

    assert main(["bandwidth", "--strategy", "migration_only", "--jobs-per-cluster", "100"]) == 0
    out = capsys.readouterr().out
    assert "mean_turnaround" in out and "migration_only" in out


def test_command_line_sets_the_realistic_load_and_refuses_it_elsewhere(capsys):
    from schedlab.cli import main

    assert main(["bandwidth", "--workload", "realistic", "--load", "0.5", "--jobs-per-cluster", "100"]) == 0
    assert "load 0.5" in capsys.readouterr().out
    assert main(["bandwidth", "--workload", "synthetic", "--load", "0.5", "--jobs-per-cluster", "100"]) == 1
    assert "can be chosen for the workloads" in capsys.readouterr().err


def test_both_profiles_run_the_pass_order_variant_where_it_places_otherwise():
    paper, quick = (points(PROFILES[name]) for name in ("paper", "quick"))
    for chosen in (paper, quick):
        assert {p.pass_order for p in chosen} == {"as_stated", "whole_first"}
        variant = {(p.workload, p.strategy) for p in chosen if p.pass_order == "whole_first"}
        assert variant == {(w, s) for w in ("realistic", "synthetic") for s in ("first_fit", "lslt", "lslt_cs")}
    # both sweep the load of R, A and D with the limits and ICS, on every seed
    for chosen, profile in ((paper, PROFILES["paper"]), (quick, PROFILES["quick"])):
        swept = {(p.workload, p.load, p.strategy, p.seed) for p in chosen if p.load is not None}
        assert len(swept) == 3 * len(profile.loads) * 4 * len(profile.seeds)


def test_every_figure_keeps_its_legend_clear_and_its_title_whole(tmp_path, tiny, monkeypatch):
    drawn = {}
    monkeypatch.setattr(report, "save_figure", lambda figure, directory, stem: drawn.setdefault(stem, figure))
    write(tmp_path, tiny)
    assert "fig07_information_realistic" in drawn and "load_sensitivity" in drawn
    assert {stem: faults for stem, figure in drawn.items() if (faults := layout_faults(figure))} == {}
