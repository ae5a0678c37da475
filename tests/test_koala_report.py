"""The koala report end to end on a tiny profile, and one Luigi point."""

from __future__ import annotations

import dataclasses

import luigi
import numpy as np
import pandas as pd
import pytest

from pipeline import settings
from pipeline.base import read_json
from pipeline.koala import KoalaRuns, report_parameters
from schedlab.reports import koala as report
from schedlab.reports.koala import write_report
from schedlab.reports.koala_claims import CLAIMS
from schedlab.reports.ledger import VERDICTS
from schedlab.reports.tables import latex_table
from schedlab.simulators.koala.experiments import PROFILES, Profile, batches, points, sensitivity_profiles
from schedlab.simulators.koala.metrics import cluster_use
from schedlab.simulators.koala.simulate import Point, simulate
from tests.conftest import layout_faults

TINY = Profile(
    coallocation_utilizations=(0.3, 0.9),
    policies_utilizations=(0.3, 0.7),
    ccrs=(0.1, 4.0),
    seeds=(1,),
    hours=2.0,
)


def _joined_sizes(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(sizes=frame["sizes"].map(lambda sizes: "/".join(map(str, sizes))))


@pytest.fixture(scope="module")
def tiny_results():
    rows, use = [], []
    for point in points(TINY):
        result, summary = simulate(point)
        rows.append({**dataclasses.asdict(point), **summary})
        use += [{**dataclasses.asdict(point), "clusters": name, "jobs": jobs}
                for name, jobs in cluster_use(result.jobs).items()]
    return _joined_sizes(pd.DataFrame(rows)), _joined_sizes(pd.DataFrame(use))


@pytest.fixture(scope="module")
def tiny_runs(tiny_results):
    return tiny_results[0]


def test_report_has_every_figure_table_and_the_ledger(tmp_path, tiny_results):
    tiny_runs, use = tiny_results
    claims = write_report(tmp_path, {"runs": tiny_runs, "cluster_use": use}, report_parameters("tiny", TINY))
    for stem in ("fig7a_coallocation", "fig7b_observed_utilization", "fig8_ccr", "fig10_policies"):
        assert (tmp_path / f"{stem}.png").stat().st_size > 0 and (tmp_path / f"{stem}.svg").exists()
    for stem in ("fig7_coallocation", "fig8_ccr", "fig10_policies", "table4_saturation", "execution_model", "claims"):
        for suffix in ("csv", "md", "tex"):
            assert (tmp_path / f"{stem}.{suffix}").exists()
    assert (tmp_path / "runs.csv").exists() and (tmp_path / "parameters.json").exists()
    index = (tmp_path / "index.md").read_text()
    assert "Table 4" in index and "Claims ledger" in index and "Model and defaults" in index
    # the unknowns the runs used, read from them: the scan rule and Delft's latency share
    assert "scanned from head to tail, every job that fits placed, at every arrival and every end" in index
    assert "Delft's latencies in config B: share 1 of the DEFAULT" in index
    assert (tmp_path / "index.html").read_text().startswith("<!DOCTYPE html>")
    assert len(claims) == len(CLAIMS) and set(claims["verdict"]) <= set(VERDICTS)
    # One seed decides nothing: every claim on the runs stays undecided or unmeasured; only the calibration
    # rows, read off the execution model (one value each), are decided.
    results = claims[claims["basis"] == "result"]
    assert set(results["verdict"]) <= {"inconclusive", "not_attempted"}
    assert set(claims.loc[claims["basis"] == "calibration", "verdict"]) <= {"reproduced", "not_reproduced",
                                                                           "not_attempted"}
    table4 = pd.read_csv(tmp_path / "table4_saturation.csv")
    assert set(table4["policy"]) == {"WF", "FCM", "FCM<=2", "CA"}


def test_cluster_use_counts_every_job_once_and_respects_the_two_cluster_limit(tmp_path, tiny_results):
    tiny_runs, use = tiny_results
    write_report(tmp_path, {"runs": tiny_runs, "cluster_use": use}, report_parameters("tiny", TINY))
    table = pd.read_csv(tmp_path / "cluster_use.csv")
    assert (tmp_path / "cluster_use.png").exists() and "Clusters per job" in (tmp_path / "index.md").read_text()
    assert "WF" not in set(table["policy"])  # WF never splits a job: nothing to show
    shares = table[[f"on_{k}_clusters_percent" for k in (1, 2, 3, 4)]].sum(axis=1)
    assert np.allclose(shares, 100.0)
    jobs = tiny_runs[tiny_runs.policy != "WF"].groupby(["app", "config", "sizes", "policy"])["jobs"].sum()
    for row in table.itertuples():
        app, sizes, config = row.workload.replace(",", "").replace("config ", "").split()
        policy = {"FCM<=2": "FCM2"}.get(row.policy, row.policy)
        assert row.jobs == jobs[(app, config, sizes, policy)]
    limited = table[table.policy == "FCM<=2"].iloc[0]
    assert limited.on_3_clusters_percent == limited.on_4_clusters_percent == 0.0


def test_report_is_byte_identical_from_one_run_to_the_next(tmp_path, tiny_runs):
    first, second = tmp_path / "first", tmp_path / "second"
    for directory in (first, second):
        directory.mkdir()
        write_report(directory, {"runs": tiny_runs}, report_parameters("tiny", TINY))
    files = sorted(p.name for p in first.iterdir())
    assert files == sorted(p.name for p in second.iterdir())
    for name in files:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_latex_table_escapes_and_aligns():
    text = latex_table(pd.DataFrame({"policy": ["FCM<=2"], "change_%": [12.5]}))
    assert text.splitlines()[0] == r"\begin{tabular}{lr}"
    assert r"FCM$<$=2 & 12.5 \\" in text and r"change\_\% \\" in text


def test_koala_runs_task_writes_schedules_components_and_summaries(tmp_path):
    task = KoalaRuns(app="wave", policy="CA", net_utilizations=(0.4, 0.6), seeds=(3, 4), config="B", sizes=(32, 48, 64),
                     hours=1.0)
    with settings.overridden(work_dir=str(tmp_path / "work")):
        assert luigi.build([task], local_scheduler=True, workers=1, log_level="WARNING")
        summaries = read_json(task.output_file("summaries.json"))
        schedule = pd.read_parquet(task.output_file("schedule.parquet"))
        components = pd.read_parquet(task.output_file("components.parquet"))
    runs = [(seed, load) for seed in (3, 4) for load in (0.4, 0.6)]
    assert len(summaries) == len(runs)
    for summary, (seed, load) in zip(summaries, runs):
        expected = dataclasses.asdict(Point("wave", "CA", load, seed, "B", (32, 48, 64), 1.0))
        assert summary["point"] == {**expected, "sizes": [32, 48, 64]}  # JSON has no tuples
        mine = (schedule["seed"] == seed) & (schedule["net_utilization"] == load)
        assert summary["metrics"]["jobs"] == int(mine.sum()) > 0
    assert set(schedule["procs"]) <= {32, 48, 64}
    # The components of every job add up to its size, on the clusters its schedule row names.
    run_job = ["seed", "net_utilization", "job_id"]
    nodes = components.groupby(run_job)["nodes"].sum()
    assert (nodes == schedule.set_index(run_job)["procs"].reindex(nodes.index)).all()
    assert len(nodes) == len(schedule)


def test_every_figure_keeps_its_legend_clear_and_its_title_whole(tmp_path, tiny_results, monkeypatch):
    drawn = {}
    monkeypatch.setattr(report, "save_figure", lambda figure, directory, stem: drawn.setdefault(stem, figure))
    tiny_runs, use = tiny_results
    write_report(tmp_path, {"runs": tiny_runs, "cluster_use": use}, report_parameters("tiny", TINY))
    assert len(drawn) >= 3
    assert {stem: faults for stem, figure in drawn.items() if (faults := layout_faults(figure))} == {}


def test_a_saturated_load_is_marked_in_the_strip_never_drawn_as_a_value():
    # One line: -5 % at 40 %, +300 % at 60 %, saturated at 80 % (no % change).
    table = pd.DataFrame({"net_utilization": [0.4, 0.6, 0.8], "change_percent": [-5.0, 300.0, np.nan],
                          "change_low": [-6.0, 250.0, np.nan], "change_high": [-4.0, 350.0, np.nan]})
    figure = report.percent_change_figure({"Wave": table}, [{"label": "Wave"}], "Fig. 7a")
    strip, axes = figure.axes[:2]
    # Points drawn: those with a finite value (a NaN is not drawn), on every line of the value axes.
    drawn = {float(x) for line in axes.get_lines()
             for x, y in zip(np.atleast_1d(line.get_xdata()), np.atleast_1d(line.get_ydata())) if np.isfinite(y)}
    assert 80.0 not in drawn and {40.0, 60.0} <= drawn
    assert [list(line.get_xdata()) for line in strip.get_lines()] == [[80.0]]
    # The symlog axis labels its ticks: 0, +-10, 20, 50, 100, 200 ... within 1.5 x the data's range.
    labels = [tick.get_text() for tick in axes.get_yticklabels()]
    assert {"-10", "0", "10", "100", "200"} <= set(labels) and len(labels) >= 6


def test_koala_runs_cover_each_batch_once_and_seeds_share_a_task():
    every = [batch for profile in sensitivity_profiles(PROFILES["quick"]) for batch in batches(profile)]
    tasks = KoalaRuns.covering(every)
    assert set(tasks) == set(every)
    for batch, task in tasks.items():
        assert batch.template.seed in task.seeds and tuple(task.net_utilizations) == batch.net_utilizations
        assert dataclasses.replace(batch.template, net_utilization=0.0) in {
            dataclasses.replace(point, net_utilization=0.0) for point in task.points()}
    # Five seeds a task: a fifth as many tasks as batches.
    assert len(set(tasks.values())) * len(PROFILES["quick"].seeds) == len(set(every))
