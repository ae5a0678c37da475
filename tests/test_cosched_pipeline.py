"""The quick profile end to end through Luigi, in the default run so that CI runs it."""

from __future__ import annotations

import luigi
import pandas as pd

from tests.conftest import shared_path


def test_quick_profile_report(tmp_path, monkeypatch):
    traces = shared_path("traces", "KTH-SP2-1996-2.2.swf").parent
    monkeypatch.setenv("SCHEDLAB_WORK_DIR", str(tmp_path))
    monkeypatch.setenv("SCHEDLAB_TRACE_DIRS", str(traces))
    from pipeline.cosched import CoschedReport
    from reports.cosched import FIGURES

    report = CoschedReport(profile="quick")
    assert luigi.build([report], local_scheduler=True, workers=2)
    out = report.output_dir()
    for name in ("index.md", "index.html", "paper_vs_ours.tex", "results.csv", "deadlocks.md"):
        assert (out / name).is_file()
    for spec in FIGURES:
        assert (out / f"{spec.stem}.png").is_file() and (out / f"{spec.stem}.svg").is_file()
    deadlocks = pd.read_csv(out / "deadlocks.csv")
    released = deadlocks[deadlocks["release"] == "on"]
    assert (released["deadlocked runs"] == 0).all()
