"""The koala report end to end on a tiny profile, and one Luigi point."""

from __future__ import annotations

import dataclasses

import luigi
import pandas as pd
import pytest

from pipeline import settings
from pipeline.base import read_json
from pipeline.koala import KoalaPoint, report_parameters
from reports.koala import write_koala_report
from reports.koala_claims import CLAIMS
from reports.ledger import VERDICTS
from reports.tables import latex_table
from simulators.koala.experiments import Profile, points
from simulators.koala.simulate import Point, simulate

TINY = Profile(
    coallocation_utilizations=(0.3, 0.9),
    policies_utilizations=(0.3, 0.7),
    ccrs=(0.1, 4.0),
    seeds=(1,),
    hours=2.0,
)


@pytest.fixture(scope="module")
def tiny_runs():
    rows = [{**dataclasses.asdict(point), **simulate(point)[1]} for point in points(TINY)]
    runs = pd.DataFrame(rows)
    return runs.assign(sizes=runs["sizes"].map(lambda sizes: "/".join(map(str, sizes))))


def test_report_has_every_figure_table_and_the_ledger(tmp_path, tiny_runs):
    claims = write_koala_report(tmp_path, tiny_runs, report_parameters("tiny", TINY))
    for stem in ("fig7a_coallocation", "fig7b_observed_utilization", "fig8_ccr", "fig10_policies"):
        assert (tmp_path / f"{stem}.png").stat().st_size > 0 and (tmp_path / f"{stem}.svg").exists()
    for stem in ("fig7_coallocation", "fig8_ccr", "fig10_policies", "table4_saturation", "execution_model", "claims"):
        for suffix in ("csv", "md", "tex"):
            assert (tmp_path / f"{stem}.{suffix}").exists()
    assert (tmp_path / "runs.csv").exists() and (tmp_path / "parameters.json").exists()
    index = (tmp_path / "index.md").read_text()
    assert "Table 4" in index and "Claims ledger" in index and "Model and defaults" in index
    assert (tmp_path / "index.html").read_text().startswith("<!DOCTYPE html>")
    assert len(claims) == len(CLAIMS) and set(claims["verdict"]) <= set(VERDICTS)
    # One seed decides nothing: every simulated claim stays undecided or unmeasured.
    assert set(claims["verdict"]) <= {"inconclusive", "not_attempted"}
    table4 = pd.read_csv(tmp_path / "table4_saturation.csv")
    assert set(table4["policy"]) == {"WF", "FCM", "FCM<=2", "CA"}


def test_report_is_byte_identical_from_one_run_to_the_next(tmp_path, tiny_runs):
    first, second = tmp_path / "first", tmp_path / "second"
    for directory in (first, second):
        directory.mkdir()
        write_koala_report(directory, tiny_runs, report_parameters("tiny", TINY))
    files = sorted(p.name for p in first.iterdir())
    assert files == sorted(p.name for p in second.iterdir())
    for name in files:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_latex_table_escapes_and_aligns():
    text = latex_table(pd.DataFrame({"policy": ["FCM<=2"], "change_%": [12.5]}))
    assert text.splitlines()[0] == r"\begin{tabular}{lr}"
    assert r"FCM$<$=2 & 12.5 \\" in text and r"change\_\% \\" in text


def test_koala_point_task_writes_schedule_and_summary(tmp_path):
    task = KoalaPoint(app="wave", policy="CA", net_utilization=0.4, seed=3, config="B", sizes=(32, 48, 64), hours=1.0)
    with settings.overridden(work_dir=str(tmp_path / "work")):
        assert luigi.build([task], local_scheduler=True, workers=1, log_level="WARNING")
        summary = read_json(task.output_file("summary.json"))
        schedule = pd.read_parquet(task.output_file("schedule.parquet"))
    expected = dataclasses.asdict(Point("wave", "CA", 0.4, 3, "B", (32, 48, 64), 1.0))
    assert summary["point"] == {**expected, "sizes": [32, 48, 64]}  # JSON has no tuples
    assert summary["metrics"]["jobs"] == len(schedule) > 0
    assert set(schedule["procs"]) <= {32, 48, 64}
