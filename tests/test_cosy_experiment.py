"""The COSY experiment: workloads, reservation subsets, report, pipeline, and the paper's trends."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pipeline.base import read_json
from schedlab.errors import SchedlabError
from schedlab.simulators.batch.replay import replay
from schedlab.simulators.batch.conventions import default_inputs
from schedlab.simulators.cosy.experiments import (
    PROFILES,
    TARGET_BASELINE_UTILIZATION,
    UTILIZATION_TOLERANCE,
    Point,
    Profile,
    reservation_jobs,
    select_workloads,
)
from schedlab.simulators.cosy.run import simulate_cosy
from schedlab.simulators.cosy.simulate import simulate, simulate_profile
from schedlab.workloads.lublin import lublin_feitelson_jobs


def test_cosy_without_reservations_is_easy_job_for_job():
    jobs = lublin_feitelson_jobs(300, 32, seed=3, target_utilization=1.2)
    cosy = simulate_cosy(default_inputs(jobs, 32, "requested"), 32).schedule
    easy = replay(jobs, 32, policy="easy").schedule
    assert np.array_equal(cosy["start"].to_numpy(), easy["start"].to_numpy())


def test_reservation_subsets_are_nested_across_shares_and_seeded():
    five, ten = reservation_jobs(100, 0.05, 7), reservation_jobs(100, 0.10, 7)
    assert len(five) == 5 and len(ten) == 10
    assert set(five) <= set(ten)
    assert np.array_equal(five, reservation_jobs(100, 0.05, 7))
    assert not np.array_equal(ten, reservation_jobs(100, 0.10, 8))


def test_selected_workloads_reach_the_baseline_utilization():
    workloads, tried = select_workloads(3, 100)
    assert tried >= 3
    for workload in workloads:
        # Utilization recomputed from an EASY replay: processor-seconds over 32 x (last end - first submit).
        schedule = replay(workload.jobs, 32, policy="easy").schedule
        window = schedule["end"].max() - schedule["submit"].min()
        utilization = (schedule["run_time"] * schedule["procs"]).sum() / (32 * window)
        assert abs(utilization - TARGET_BASELINE_UTILIZATION) <= UTILIZATION_TOLERANCE
        assert len(workload.jobs) == 100
        # Each job's wait in that run is kept for q_matched: the EASY replay's waits, job by job.
        waits = (schedule["start"] - schedule["submit"]).set_axis(schedule["job_id"])
        assert np.allclose(workload.jobs["baseline_wait"], waits.loc[workload.jobs["job_id"]])


TINY = Profile("tiny", ((100, 3),), (0.1, 0.2), (1.0, 4.0), oracle_factors=(1.0,), regime_variants=(("log-uniform", 100, 3),))


def _tiny_inputs():
    """The runs of TINY, and the baselines and selections of its workloads, as CosyReport reads them."""
    baselines, selections = [], []
    for workload in ("cirne-berman", "log-uniform"):
        workloads, tried = select_workloads(3, 100, workload=workload)
        baselines.append(_baselines(workloads, workload))
        selections.append({"jobs": 100, "workloads": 3, "seeds_tried": tried, "workload": workload})
    return simulate_profile(TINY), pd.concat(baselines, ignore_index=True), selections


def _baselines(workloads, name: str) -> pd.DataFrame:
    rows = [{"seed": w.seed, "offered_load": w.offered_load, **w.baseline} for w in workloads]
    return pd.DataFrame(rows).assign(jobs_per_workload=100, workload=name)


def test_report_is_complete_and_byte_identical_across_runs(tmp_path):
    from pipeline.cosy import report_parameters
    from schedlab.reports.cosy import write_report

    runs, baselines, selections = _tiny_inputs()
    contents = []
    for name in ("first", "second"):
        directory = tmp_path / name
        directory.mkdir()
        write_report(directory, {"runs": runs, "baselines": baselines}, report_parameters(TINY, selections))
        contents.append({path.name: path.read_bytes() for path in sorted(directory.iterdir())})
    assert contents[0] == contents[1]
    names = set(contents[0])
    for stem in ("fig2_q", "fig3_chosen_n", "fig4_u", "fig5_r", "starvation", "regime_q", "fig2_q_running_mean"):
        assert {f"{stem}.png", f"{stem}.svg"} <= names
    for stem in ("table1", "single_workload", "adaptive", "oracle", "requeue", "node_bound", "workloads", "workload_regime",
                 "readings", "sensitivity"):
        assert {f"{stem}.csv", f"{stem}.md", f"{stem}.tex"} <= names
    index = contents[0]["index.md"].decode()
    assert "| 20 | 5.59 | 0.93 | 37 | 1 |" in index  # the paper's row beside ours
    assert "Claims ledger" in index and "Setup (generated from the parameters the runs used)" in index
    assert {"claims.csv", "claims.md", "claims.tex", "parameters.json", "baselines.csv"} <= names
    assert "refused reservations join the queue" in index
    assert "One workload at a time" in index
    assert "reservations bound to nodes when accepted" in index
    assert "Diagnostic: other workloads" in index
    assert set(pd.read_csv(tmp_path / "first" / "runs.csv")["workload"]) == {"cirne-berman", "log-uniform"}
    assert "Sensitivity: which workload and W reading move which claim" in index
    sensitivity = pd.read_csv(tmp_path / "first" / "sensitivity.csv")
    assert len(sensitivity.columns) == 1 + 2 * 2  # the claim, then each workload under each reading


def test_single_workload_pattern_counts_each_workload_on_its_own():
    from schedlab.reports.cosy import single_workload_patterns

    q_by_seed = {1: (1.1, 1.3, 1.6), 2: (1.2, 1.1, 1.4), 3: (0.9, 1.2, 1.5), 4: (0.8, 0.9, 0.7)}
    rows = [
        {"seed": seed, "share": share, "policy": "fixed", "factor": 1.0, "q": q, "jobs_per_workload": 100}
        for seed, qs in q_by_seed.items()
        for share, q in zip((0.05, 0.10, 0.20), qs)
    ]
    other = [dict(row, factor=4.0, q=5.0) for row in rows] + [dict(row, policy="oracle", q=5.0) for row in rows]
    table = single_workload_patterns(pd.DataFrame(rows + other), 100, 1.0)
    assert table["p %"].tolist() == [5, 10, 20, "all, rising"]
    # p = 5 %: seeds 1, 2; 10 %: 1, 2, 3; 20 %: 1, 2, 3; all three and rising: seed 1 only.
    assert table["workloads with q > 1 (%)"].tolist() == ["50", "75", "75", "25"]


def test_pipeline_point_runs_through_luigi(tmp_path, monkeypatch):
    import luigi

    from pipeline.cosy import CosyRuns

    monkeypatch.setenv("SCHEDLAB_WORK_DIR", str(tmp_path))
    task = CosyRuns(jobs=100, workloads=2, policy="fixed", settings=[[0.1, 2.0], [0.2, 1.0]])
    assert luigi.build([task], local_scheduler=True, workers=1, log_level="WARNING")
    runs = pd.read_csv(task.output_file("runs.csv"))
    assert len(runs) == 4 and list(runs["share"]) == [0.1, 0.1, 0.2, 0.2] and list(runs["setting"]) == [0, 0, 1, 1]
    assert list(runs["factor"]) == [2.0, 2.0, 1.0, 1.0]


def test_the_report_takes_every_point_of_its_grids_once_in_the_grids_order():
    from pipeline.cosy import CosyReport
    from schedlab.simulators.cosy.experiments import PROFILES

    report = CosyReport(profile="quick")
    grids = PROFILES["quick"].grids()
    placed = report.point_runs()
    expected = [(point, workload) for workload, _, _, points in grids for point in points]
    assert len(placed) == len(expected) == len(set(placed))
    for (task, index), (point, workload) in zip(placed, expected):
        share, factor = task.settings[index]
        assert (share, task.policy, factor, task.reading, task.workload) == (*point, workload)
    assert len(report.requires()["points"]) < len(expected) / 5  # a task per policy, not per point


@pytest.fixture(scope="module")
def quick_summary():
    """The quick profile's paper-size variant (100 jobs, 30 workloads), summarized per point, under
    the running-mean reading of W (the trends below were established on it; the default
    fixed-point reading is judged by the ledger)."""
    from schedlab.reports.cosy import summarize

    quick = PROFILES["quick"]
    paper_size = Profile("quick-100", quick.variants[:1], quick.shares, quick.factors, oracle_factors=(), requeue_factors=(),
                         node_bound_factors=(), readings=("running-mean",))
    return summarize(simulate_profile(paper_size))


def _q(summary, share, factor):
    row = summary[(summary["policy"] == "fixed") & np.isclose(summary["share"], share) & (summary["factor"] == factor)]
    return float(row["q"].iloc[0])


@pytest.mark.xfail(
    strict=True,
    reason="not reproduced: with the Cirne-Berman workloads (as with the Lublin-Feitelson ones) and refused "
    "reservations dropped, q < 1 at n ~ 1 for every p (quick profile, running-mean W: 0.93, 0.94, 0.91, 0.80 at "
    "p = 5-20 %; see the COSY report, and the steady-workload test below)",
)
def test_paper_trend_queue_wait_grows_at_n_one_and_with_p(quick_summary):
    shares = PROFILES["quick"].shares
    qs = [_q(quick_summary, share, 1.0) for share in shares]
    assert all(q > 1 for q in qs)
    assert all(a < b for a, b in zip(qs, qs[1:]))


def test_steady_log_uniform_workloads_slow_the_queue_when_refusals_are_requeued():
    """The paper's first trend in the one setting where our model shows it (the report's diagnostic)."""
    from schedlab.reports.cosy import summarize
    quick = PROFILES["quick"]
    jobs, count = next((jobs, count) for model, jobs, count in quick.regime_variants if model == "log-uniform")
    workloads, _ = select_workloads(count, jobs, workload="log-uniform")
    runs = pd.concat([simulate(Point(share, "requeue", 1.0), workloads) for share in quick.shares])
    qs = summarize(runs).sort_values("share")["q"].tolist()
    assert all(q > 1 for q in qs)
    assert all(a < b for a, b in zip(qs, qs[1:]))


@pytest.mark.xfail(
    strict=True,
    reason="not reproduced: with the Cirne-Berman workloads, refused reservations dropped and W the running mean, "
    "q rises with n toward 1 (quick profile, p = 5 %: 0.93 at n = 1, 1.00 at n = 6) "
    "while r falls from 1.6 to 0.4 % of all jobs",
)
def test_paper_trend_queue_wait_falls_with_notice(quick_summary):
    factors = PROFILES["quick"].factors
    for share in PROFILES["quick"].shares:
        assert _q(quick_summary, share, factors[-1]) < _q(quick_summary, share, 1.0)


def test_paper_trend_rejections_rise_with_p_and_fall_with_n(quick_summary):
    fixed = quick_summary[quick_summary["policy"] == "fixed"]
    at_one = fixed[fixed["factor"] == 1.0].sort_values("share")["rejection_rate"].to_numpy()
    assert np.all(np.diff(at_one) > 0)
    at_most = fixed[fixed["factor"] == PROFILES["quick"].factors[-1]].sort_values("share")["rejection_rate"].to_numpy()
    assert np.all(at_most < at_one)


def test_cli_runs_one_point_of_either_workload_model(capsys):
    from schedlab.cli import main

    assert main(["cosy", "--model", "log-uniform", "--share", "0.2", "--policy", "requeue", "-n", "2"]) == 0
    out = capsys.readouterr().out
    assert "share=0.2, policy=requeue, n=2" in out and "reservations_requested  20\n" in out  # a count, printed as one
    assert main(["cosy", "--policy", "node_bound", "-n", "1"]) == 0
    assert "policy=node_bound" in capsys.readouterr().out


def test_trace_slices_run_each_job_for_its_requested_time():
    from schedlab.simulators.cosy.experiments import TraceSlices

    jobs = pd.DataFrame({"job_id": [1, 2, 3], "submit_time": [0, 5, 9], "run_time": [50.0, 70.0, 30.0],
                         "requested_time": [100.0, -1.0, 30.0]})
    slices = TraceSlices.of_trace("toy", jobs, 64)
    assert slices.jobs["run_time"].tolist() == [100.0, 70.0, 30.0]
    assert jobs["run_time"].tolist() == [50.0, 70.0, 30.0]


def test_regime_slices_keep_only_the_slices_queueing_as_in_the_paper():
    from schedlab.simulators.cosy.experiments import TraceSlices, check_workload_name, slices_wait_share
    from schedlab.workloads.log_uniform import log_uniform_jobs

    jobs = log_uniform_jobs(1_200, 64, seed=5, target_utilization=0.8)
    every, tried = select_workloads(12, 100, workload=TraceSlices.of_trace("toy", jobs, 64), fewer_ok=True)
    shares = {}
    for workload in every:  # each slice's wait share, from an independent EASY replay of its baseline
        schedule = replay(workload.jobs, 32, policy="easy").schedule
        waits = schedule["start"] - schedule["submit"]
        shares[workload.seed] = waits.mean() / (schedule["end"].max() - schedule["submit"].min())
    low, high = sorted(shares.values())[len(shares) // 2 - 1], max(shares.values())
    kept, kept_tried = select_workloads(12, 100, workload=TraceSlices.of_trace("toy", jobs, 64, (low, high)), fewer_ok=True)
    assert kept_tried == tried
    assert [w.seed for w in kept] == [seed for seed, share in shares.items() if low <= share <= high]
    assert 2 <= len(kept) < len(every)
    check_workload_name("regime-slices:toy")
    assert slices_wait_share("regime-slices:toy") == (0.20, 0.28) and slices_wait_share("slices:toy") is None


def test_the_paper_profile_runs_in_regime_slices_of_the_traces_it_finds(tmp_path):
    from pipeline import settings
    from pipeline.cosy import CosyReport

    wanted = PROFILES["paper"].regime_traces
    assert wanted
    with settings.overridden(trace_dirs=[str(tmp_path)]):
        assert CosyReport(profile="paper").regime_traces() == ([], list(wanted))
        workloads = {task.workload for task in CosyReport(profile="paper").requires()["workloads"]}
    assert not any(name.startswith("regime-slices:") for name in workloads)
    for trace in wanted:
        (tmp_path / f"{trace}.swf").write_text("")
    with settings.overridden(trace_dirs=[str(tmp_path)]):
        workloads = {task.workload for task in CosyReport(profile="paper").requires()["workloads"]}
    assert {f"regime-slices:{trace}" for trace in wanted} <= workloads


def test_slices_of_a_real_trace_tune_to_the_baseline():
    from tests.conftest import shared_path
    from schedlab.parsers.cleaning import clean
    from schedlab.parsers.swf import read_swf
    from schedlab.simulators.cosy.experiments import TraceSlices

    trace = read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf"))
    jobs, _ = clean(trace.jobs, trace.machine_procs)
    slices = TraceSlices.of_trace("KTH-SP2", jobs, trace.machine_procs)
    workloads, tried = select_workloads(3, 100, workload=slices)
    seen = set()
    for workload in workloads:
        schedule = replay(workload.jobs, 32, policy="easy").schedule
        window = schedule["end"].max() - schedule["submit"].min()
        utilization = (schedule["run_time"] * schedule["procs"]).sum() / (32 * window)
        assert abs(utilization - TARGET_BASELINE_UTILIZATION) <= UTILIZATION_TOLERANCE
        original = jobs.set_index("job_id").loc[workload.jobs["job_id"]]
        assert np.array_equal(workload.jobs["run_time"], original["requested_time"])
        assert not seen & set(workload.jobs["job_id"])
        seen |= set(workload.jobs["job_id"])
    assert tried >= 3


def test_cli_runs_the_diagnostic_grid_on_slices_of_a_trace(tmp_path, capsys):
    from schedlab.parsers.swf import write_swf
    from schedlab.cli import main
    from schedlab.simulators.cosy.experiments import PROFILES
    from schedlab.workloads.log_uniform import log_uniform_jobs

    path = tmp_path / "steady.swf"
    write_swf(path, log_uniform_jobs(1_000, 64, seed=2, target_utilization=0.8))
    assert main(["cosy", "--trace", str(path), "--trace-procs", "64", "--regime", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 workloads (")
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["fixed"], ["requeue"], ["oracle"])]
    assert len(rows) == len(PROFILES["quick"].regime_points())
    with pytest.raises(SystemExit) as stop:
        main(["cosy", "--trace", str(path), "--trace-procs", "64", "--regime", "1"])
    assert stop.value.code == 2
    assert "argument --regime: must be a whole number >= 2, got '1'" in capsys.readouterr().err


def test_report_adds_the_slices_of_a_configured_trace(tmp_path, monkeypatch):
    import luigi

    from schedlab.parsers.header import SwfHeader
    from schedlab.parsers.swf import write_swf
    from pipeline import settings
    from pipeline.cosy import CosyWorkloads, report_parameters
    from schedlab.reports.cosy import write_report
    from schedlab.workloads.log_uniform import log_uniform_jobs

    traces = tmp_path / "traces"
    traces.mkdir()
    write_swf(traces / "toy.swf", log_uniform_jobs(600, 64, seed=2, target_utilization=0.8), SwfHeader(max_procs=64))
    monkeypatch.setenv("SCHEDLAB_WORK_DIR", str(tmp_path / "work"))
    with settings.overridden(trace_dirs=[str(traces)]):
        workloads = CosyWorkloads(jobs=100, workloads=10, workload="slices:toy")
        assert luigi.build([workloads], local_scheduler=True, workers=1, log_level="WARNING")
        selection = read_json(workloads.output_file("selection.json"))
        chosen = workloads.load()
    assert selection["seeds_tried"] == 6 and 2 <= selection["workloads"] <= 6  # the trace holds 6 slices
    assert len(chosen) == selection["workloads"]

    runs, baselines, selections = _tiny_inputs()
    slice_runs = pd.concat(
        [simulate(point, chosen) for point in TINY.regime_points()],
        ignore_index=True,
    ).assign(jobs_per_workload=100, workload="slices:toy")
    baselines = pd.concat([baselines, _baselines(chosen, "slices:toy")], ignore_index=True)
    selections = [*selections, selection]
    (tmp_path / "report").mkdir()
    write_report(tmp_path / "report", {"runs": pd.concat([runs, slice_runs], ignore_index=True), "baselines": baselines},
                 report_parameters(TINY, selections, ["Gone-2020"]))
    index = (tmp_path / "report" / "index.md").read_text()
    assert "Not found in the trace directories, so not run: Gone-2020." in index
    assert f"slices:toy: {selection['workloads']} of the 6 slices tried reach the baseline" in index
    regime = pd.read_csv(tmp_path / "report" / "regime_summary.csv")
    assert set(regime["workload"]) == {"log-uniform", "slices:toy"}
    judged = [p for p in TINY.regime_points() if p[1] != "fixed" or p[3] == TINY.readings[0]]  # other readings: readings.csv
    assert len(regime[regime["workload"] == "slices:toy"]) == len(judged)


def test_unknown_workload_names_are_refused():
    from schedlab.simulators.cosy.experiments import check_workload_name

    check_workload_name("slices:KTH-SP2-1996-2.2")
    with pytest.raises(SchedlabError, match="unknown workload 'lublin'"):
        check_workload_name("lublin")
