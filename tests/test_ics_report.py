"""The ICS report: every file written, deterministic bytes, ranking checks stated."""

from __future__ import annotations

import pytest

from pipeline.ics import IcsPoint, IcsReport, write_ics_report
from reports import ics as report
from simulators.ics.experiments import PROFILES, Profile, figure_points

TINY = Profile(
    name="tiny", n_jobs=4, compression=80000.0, npb_jobs=2, npb_compression=2048.0, npb_rates=(0.1,),
    compression_factors=(80000.0,), figures=("fig8", "fig12", "fig13"),
)


@pytest.fixture(scope="module")
def frames():
    built = {}
    for figure in TINY.figures:
        rows = []
        for (group, scheme), point in figure_points(TINY, figure).items():
            rows.append({"group": group, **point.run().summary, "scheme": scheme})
        built[figure] = report.figure_table(rows)
    return built


def test_report_files_are_complete_and_deterministic(frames, tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    for directory in (first, second):
        directory.mkdir()
        write_ics_report(directory, TINY, frames, events=1)
    names = sorted(p.name for p in first.iterdir())
    for stem in ("fig8_response", "fig8_profile", "fig12_slowdown", "fig13_turnaround"):
        assert f"{stem}.png" in names and f"{stem}.svg" in names
    for stem in ("fig8_results", "fig12_fairness", "fig13_vs_batch", "paper_reductions"):
        assert {f"{stem}.csv", f"{stem}.md", f"{stem}.tex"} <= set(names)
    assert "index.md" in names and "index.html" in names
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    index = (first / "index.md").read_text()
    assert "Ranking checks" in index and "PROC-S < PB" in index


def test_ranking_check_detects_a_violation():
    rows = [
        {"group": "heavy", "scheme": s, "mean_response": r}
        for s, r in (("PROC-B", 3.0), ("HYBRID", 2.0), ("SB", 4.0), ("PROC-S", 5.0), ("PB", 6.0))
    ]
    checks = {name: holds for name, holds, _ in report.ranking_checks(report.figure_table(rows), "heavy")}
    assert checks == {"PROC-B < HYBRID < SB": False, "PROC-S < PB": True}


def test_report_task_requires_each_point_once():
    task = IcsReport(profile="paper")
    required = task.requires()
    assert len({t.task_id for t in required}) == len(required)
    assert all(isinstance(t, IcsPoint) for t in required)
    point = next(iter(figure_points(PROFILES["paper"], "fig13").values()))
    assert IcsPoint.of(point).point() == point
