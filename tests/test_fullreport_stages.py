"""Which stages FullReport includes, and the stage part of its index, without running anything."""

from __future__ import annotations

from pipeline import CoschedReport, FullReport, KoalaReport, settings
from pipeline.koala import KoalaSensitivity
from pipeline.stages import STAGE_NAMES, stage
from pipeline.workload_tasks import BuiltinModel, FitWorkloadModel, trace_model
from schedlab.reports.document import Document, render_markdown
from schedlab.reports.stage_index import (
    input_fingerprints,
    parameter_rows,
    seed_values,
    stages_section,
)


def stage_families(report: FullReport) -> list[str]:
    return [task.get_task_family() for task in report.requires() if task.get_task_family() != "TraceReport"]


def test_default_runs_every_stage_without_traces_and_cosched_b_on_the_shipped_fit(tmp_path):
    with settings.overridden(trace_dirs=[str(tmp_path)]):
        report = FullReport()
        # One report per stage, plus its companion pages (koala's sensitivity study).
        assert len(stage_families(report)) == len(STAGE_NAMES) + 1
        assert "CoschedReport" in stage_families(report) and "KoalaSensitivity" in stage_families(report)
        assert trace_model("KTH-SP2-1996-2.2") == BuiltinModel(model="builtin:kth-sp2-1996")
        (tmp_path / "KTH-SP2-1996-2.2.swf").write_text("")
        assert trace_model("KTH-SP2-1996-2.2") == FitWorkloadModel(trace="KTH-SP2-1996-2.2")
    # A trace with no shipped fit is fitted, and says it is missing when it is.
    assert trace_model("HPC2N-2002-2.2-cln") == FitWorkloadModel(trace="HPC2N-2002-2.2-cln")


def test_explicit_stages_are_taken_as_given(tmp_path):
    with settings.overridden(trace_dirs=[str(tmp_path)]):
        report = FullReport(stages=["koala", "cosched"], stage_profile="paper")
        assert [t for t in report.requires() if t.get_task_family() != "TraceReport"] == [
            KoalaReport(profile="paper"),
            CoschedReport(profile="paper"),
            KoalaSensitivity(profile="paper"),
        ]
        assert stage_families(FullReport(stages=[])) == []


def test_stage_section_summarizes_provenance():
    tasks = [
        {"task": "Point", "parameters": {"seed": "2", "load": "0.5"}, "input_fingerprint": None},
        {"task": "Point", "parameters": {"seed": "10", "load": "0.5"}, "input_fingerprint": {"sha256": "ab"}},
        {"task": "Report", "parameters": {"profile": "quick"}, "input_fingerprint": None},
        {"task": "Point", "parameters": {"seed": "2", "load": ""}, "input_fingerprint": None},  # load left unset
    ]
    assert parameter_rows(tasks) == [
        ("Point", "3", "load", "none, 0.5"),
        ("Point", "3", "seed", "2, 10"),
        ("Report", "1", "profile", "quick"),
    ]
    assert seed_values(tasks) == ["2", "10"]
    # A list parameter (Luigi writes JSON) shows its items, each list's fields joined, never the raw JSON.
    runs = [{"task": "Runs", "parameters": {"runs": '[["ics", null, 1.0], ["lslt", 100.0, 1.0]]'}},
            {"task": "Runs", "parameters": {"runs": '[["ics", null, 1.0]]'}},
            {"task": "Sweep", "parameters": {"loads": "[]"}}]
    assert parameter_rows(runs) == [("Runs", "2", "runs (items)", "ics / none / 1.0, lslt / 100.0 / 1.0"),
                                    ("Sweep", "1", "loads (items)", "none")]
    assert input_fingerprints(tasks) == ['{"sha256": "ab"}']
    entry = {
        "name": "koala", "paper": stage("koala").paper, "profile": "quick", "href": "../../KoalaReport/k",
        "files": ["index.html", "index.md", "task.json", "fig1.png", "fig1.svg", "t1.csv", "t1.md", "t1.tex"],
        "tasks": tasks,
    }  # fmt: skip
    text = render_markdown(Document("t", tuple(stages_section([entry]))))
    assert "[The koala report](../../KoalaReport/k/index.md)" in text
    assert "| `fig1` | [PNG](../../KoalaReport/k/fig1.png) | [SVG](../../KoalaReport/k/fig1.svg) |" in text
    assert "| `t1` | [CSV](../../KoalaReport/k/t1.csv) | [MD](../../KoalaReport/k/t1.md) | [TEX](../../KoalaReport/k/t1.tex) |" in text
    assert "Seeds: 2, 10." in text
