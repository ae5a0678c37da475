"""``python -m pipeline.publish_ledger``: one timed FullReport build publishes the ledger and the times.

The flow runs end to end on 2 workers (so tasks run in forked worker processes, whose
Luigi events reach the times only through the event log), on koala with its quick
profile shrunk to a few short runs, one tiny trace for the workload pages, and the
results written to a temporary directory instead of ``docs/results``.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

from pipeline.base import SchedlabTask
from pipeline.run_timing import SHARED, TIME_COLUMNS, WORKLOAD_PAGES, group_times

DATA = Path(__file__).parent / "data"


@pytest.fixture
def tiny_koala(tmp_path, monkeypatch):
    from schedlab.simulators.koala import experiments

    traces = tmp_path / "traces"
    traces.mkdir()
    shutil.copy(DATA / "small_header.swf", traces / "small_header.swf")
    monkeypatch.setenv("SCHEDLAB_WORK_DIR", str(tmp_path / "work"))
    monkeypatch.setenv("SCHEDLAB_TRACE_DIRS", str(traces))
    monkeypatch.delenv("SCHEDLAB_TRACES", raising=False)
    tiny = dataclasses.replace(experiments.PROFILES["quick"], coallocation_utilizations=(0.3, 0.7),
                               policies_utilizations=(0.4, 0.6), ccrs=(0.5,), seeds=(1, 2), hours=0.5,
                               sensitivity_weights=(1.0,))
    monkeypatch.setitem(experiments.PROFILES, "quick", tiny)
    return tmp_path


def test_one_timed_full_report_publishes_the_ledger_and_the_times(tiny_koala):
    from pipeline.publish_ledger import EVENTS_FILE, TIMES_STEM, publish_run

    results = tiny_koala / "results"
    run = publish_run(["koala"], workers=2, command="python -m pipeline.publish_ledger --stages koala",
                      profile="quick", results=results)

    times = pd.read_csv(results / f"{TIMES_STEM}.csv")
    assert list(times["group"]) == ["koala", WORKLOAD_PAGES]
    assert (times["tasks"] > 0).all() and (times["task_seconds"] > 0).all() and (times["span_seconds"] > 0).all()
    assert (times["run_wall_seconds"] >= times["span_seconds"]).all()
    assert (times["workers"] == 2).all() and (times["profile"] == "quick").all()
    assert (times["cpus"] > 0).all() and times["commit"].notna().all() and times["run_date"].notna().all()
    assert (times["load_at_start"] >= 0).all() and run.wall_seconds == pytest.approx(times["run_wall_seconds"][0], abs=0.1)

    events = [json.loads(line) for line in (tiny_koala / "work" / EVENTS_FILE).read_text().splitlines()]
    assert {e["pid"] for e in events} - {os.getpid()}, "with 2 workers the tasks run in child processes"
    assert {e["event"] for e in events} == {"start", "processing_time", "success"}
    assert sum(e["event"] == "success" for e in events) == times["tasks"].sum()

    ledger = pd.read_csv(results / "paper-ledger.csv")
    assert set(ledger["paper"]) == {"koala"}
    koala_span = float(times.loc[times["group"] == "koala", "span_seconds"].iloc[0])
    assert ledger["wall_seconds"].iloc[0] == pytest.approx(koala_span, abs=0.1)
    assert ledger["wall_seconds"].iloc[0] == pytest.approx(run.span("koala"), abs=0.1)
    page = (results / "paper-ledger.md").read_text()
    assert f"]({TIMES_STEM}.md)" in page
    times_page = (results / f"{TIMES_STEM}.md").read_text()
    assert "python -m pipeline.publish_ledger --stages koala" in times_page
    assert "| koala |" in times_page and f"| {WORKLOAD_PAGES} |" in times_page
    assert (results / "koala-sensitivity" / "index.md").is_file()


def test_group_times_sum_run_times_and_span_start_to_end():
    times = pd.DataFrame({
        "task_id": ["a1", "a2", "b1", "x"],
        "family": ["A", "A", "B", "X"],
        "start": [100.0, 101.0, 103.0, 104.0],
        "end": [102.0, 105.0, 104.0, 104.5],
        "seconds": [2.0, 4.0, 1.0, 0.5],
    })
    groups = group_times(times, {"a1": "a", "a2": "a", "b1": "b"}, ["a", "b", "c"], started=99.0)
    rows = groups.set_index("group")
    assert list(groups["group"]) == ["a", "b", "c", SHARED]
    assert rows.loc["a", "task_seconds"] == 6.0 and rows.loc["a", "span_seconds"] == 5.0
    assert rows.loc["a", "first_start_seconds"] == 1.0 and rows.loc["a", "last_end_seconds"] == 6.0
    assert rows.loc["c", "tasks"] == 0 and rows.loc[SHARED, "tasks"] == 1
    assert rows.loc["a", "tasks_reused"] == 0


def test_tasks_a_build_found_complete_are_counted_as_reused():
    times = pd.DataFrame({"task_id": ["a1"], "family": ["A"], "start": [100.0], "end": [102.0], "seconds": [2.0]})
    groups = group_times(times, {"a1": "a", "a2": "a", "a3": "a", "b1": "b"}, ["a", "b"], started=99.0)
    assert groups.set_index("group")["tasks_reused"].to_dict() == {"a": 2, "b": 1}



class _PublishedPage(SchedlabTask):
    """A companion page's files, for the publication tests."""

    def run(self):
        with self.writing_output() as directory:
            (directory / "runs.csv").write_text("a,b\n" + "1,2\n" * 50)
            (directory / "index.md").write_text("Files: [runs.csv](runs.csv), [small](small.csv).\n")
            (directory / "index.html").write_text('<a href="runs.csv">runs</a> <a href="small.csv">small</a>')
            (directory / "small.csv").write_text("a\n1\n")
            (directory / "figures").mkdir()
            (directory / "figures" / "inner.txt").write_text("below the top: not published")


def test_a_published_file_over_the_size_limit_is_compressed_and_the_pages_link_to_it(tmp_path, monkeypatch):
    import gzip

    from pipeline import publish_ledger, settings

    monkeypatch.setattr(publish_ledger, "MAX_PUBLISHED_BYTES", 100)
    with settings.overridden(work_dir=str(tmp_path / "work")):
        task = _PublishedPage()
        task.run()
        for target in (tmp_path / "one", tmp_path / "two"):
            publish_ledger.publish_directory(task, target)
        source = task.output_dir()
        target = tmp_path / "one"
        assert sorted(p.name for p in target.iterdir()) == ["index.html", "index.md", "runs.csv.gz", "small.csv"]
        assert gzip.decompress((target / "runs.csv.gz").read_bytes()) == (source / "runs.csv").read_bytes()
        assert (target / "runs.csv.gz").read_bytes() == (tmp_path / "two" / "runs.csv.gz").read_bytes()
        assert (target / "index.md").read_text() == "Files: [runs.csv](runs.csv.gz), [small](small.csv).\n"
        assert (target / "index.html").read_text() == '<a href="runs.csv.gz">runs</a> <a href="small.csv">small</a>'


def test_a_damaged_output_is_never_published(tmp_path):
    """Issue 69 item 3: publication copies files through their digests."""
    from pipeline import publish_ledger, settings
    from schedlab.output_digests import DamagedOutput

    with settings.overridden(work_dir=str(tmp_path / "work")):
        task = _PublishedPage()
        task.run()
        small = task.output_dir() / "small.csv"
        small.write_text("a\n7\n")
        with pytest.raises(DamagedOutput, match=r"small\.csv: damaged cached output"):
            publish_ledger.publish_directory(task, tmp_path / "published")
        assert list(tmp_path.glob("*published*")) == []


def test_the_times_page_says_what_bounds_the_build_and_renders_again_from_its_csv():
    from schedlab.reports.document import render_markdown
    from pipeline.publish_ledger import TimedRun, times_page, what_bounds

    groups = pd.DataFrame([("koala", 10, 400.0, 250.0, 0.0, 250.0, 0), ("ics", 20, 300.0, 160.0, 240.0, 400.0, 0),
                           ("cosy", 5, 100.0, 60.0, 390.0, 450.0, 0), ("shared", 0, 0.0, 0.0, 0.0, 0.0, 0)],
                          columns=list(TIME_COLUMNS))
    run = TimedRun("2026-11-28", "abc", 2, "a machine", 2, "paper", 460.0, "python -m pipeline.publish_ledger",
                   groups, 0.1, "Python 3.11")
    # 800 task-seconds on 2 workers: at least 400 s; koala 50 %, ics 38 % (300 / 800 = 37.5), cosy 12 %.
    assert what_bounds(run) == (
        "What bounds the build: its tasks ran 800 task-seconds, so on 2 worker(s) it cannot take less than 400 s "
        "(6.7 min) however they are packed; the wall time was 460 s. The three stages with the most task-seconds: "
        "koala 400 (50 %, 10 tasks of 40.00 s on average); ics 300 (38 %, 20 tasks of 15.00 s on average); "
        "cosy 100 (12 %, 5 tasks of 20.00 s on average).")
    again = TimedRun.from_frame(pd.read_csv(io.StringIO(run.frame().to_csv(index=False))))
    assert render_markdown(times_page(again)) == render_markdown(times_page(run))
    assert "under the 30-minute goal of issue 51" in render_markdown(times_page(run))
