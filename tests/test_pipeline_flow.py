"""The whole pipeline, end to end, on tiny workloads in a temporary work directory.

The incremental-rebuild tests count, through Luigi's success events, which tasks a
build runs, after changing one parameter, one module's code version (faked by
patching ``pipeline.base.module_code_version``) or one input file.  Run with ``-s``
to see the counts.
"""

import hashlib
import re
from collections import Counter
from pathlib import Path

import luigi
import numpy as np
import pytest

from schedlab.parsers.header import SwfHeader
from schedlab.parsers.schema import as_job_table
from schedlab.parsers.swf import write_swf
from pipeline import FullReport, base, settings
from pipeline.base import SchedlabTask
from pipeline.full_report import RUN_TIMES_FILE
from pipeline.replay_tasks import workload_task
from pipeline.synthetic_tasks import SyntheticWorkload
from pipeline.trace_tasks import CleanTrace, find_traces, locate_trace, trace_name
from schedlab.errors import SchedlabError

from tests.conftest import no_traces

TINY = {"synthetic_machine_procs": [16, 32], "synthetic_jobs": 150, "synthetic_seed": 3, "stages": []}


def build(task) -> None:
    assert luigi.build([task], local_scheduler=True, workers=1, log_level="WARNING")


def files_below(root: Path) -> dict[str, bytes]:
    """Every output file; not the log of run times, which differ from run to run by nature."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.name != RUN_TIMES_FILE
    }


def linked_files(page: Path) -> list[Path]:
    """The files a page links to (an anchor within the page, ``#...``, is no file; a fragment is dropped)."""
    targets = re.findall(r'(?:href|src)="([^"]+)"', page.read_text())
    return [(page.parent / target.split("#")[0]).resolve() for target in targets if not target.startswith("#")]


def test_trace_files_are_found_by_name_first_directory_first(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (first / "X.swf").write_text("")
    (second / "X.swf.gz").write_text("")
    (second / "Y.swf.gz").write_text("")
    (second / "README.md").write_text("")
    assert trace_name(Path("Y.swf.gz")) == "Y" and trace_name(Path(".swf")) is None
    assert find_traces([first, second, tmp_path / "missing"]) == {"X": first / "X.swf", "Y": second / "Y.swf.gz"}
    assert locate_trace("Y.swf.gz", [first, second]) == second / "Y.swf.gz"
    with pytest.raises(SchedlabError, match=r"trace 'Z' not found in .*\(traces there: X, Y\)"):
        locate_trace("Z", [first, second])


def test_workload_names_choose_synthetic_or_trace_tasks():
    synthetic = SyntheticWorkload(machine_procs=64, n_jobs=10, seed=7)
    assert synthetic.name == "lublin-feitelson-64p-10j-seed7"
    assert workload_task(synthetic.name) == synthetic
    assert workload_task("lublin_256") == CleanTrace(trace="lublin_256")
    assert SyntheticWorkload.from_name("lublin-feitelson-64p-10j-seed7x") is None


def test_full_report_on_the_synthetic_default_is_complete_and_byte_identical_when_rerun(tmp_path):
    trees = []
    for run in ("first", "second"):
        work_dir = tmp_path / run
        with settings.overridden(work_dir=str(work_dir), trace_dirs=[no_traces(tmp_path)]):
            report = FullReport(**TINY)
            build(report)
            index = report.output_file("index.html")
            markdown_index = report.output_file("index.md")
        trees.append(files_below(work_dir))
        text = index.read_text()
        assert "embedded synthetic default" in text and "no-traces" in text
        assert "lublin-feitelson-16p-150j-seed3" in text and "lublin-feitelson-32p-150j-seed3" in text
        links = linked_files(index)
        assert len([link for link in links if link.name == "report.html"]) == 4  # inputs table + list
        for page in links:
            assert page.is_file(), page
            if page.name == "report.html":
                assert {p.name for p in linked_files(page)} >= {"wait_cdf.svg", "wait_cdf.png", "metrics.csv"}
                assert all(p.is_file() for p in linked_files(page))
        markdown_links = [href.split("#")[0] for href in re.findall(r"\]\(([^)]+)\)", markdown_index.read_text())
                          if not href.startswith("#")]
        assert markdown_links and all((index.parent / href).is_file() for href in markdown_links)
    assert trees[0] == trees[1]
    print(f"\n{len(trees[0])} output files, byte-identical across two runs")


def write_tiny_trace(path: Path) -> None:
    """40 jobs on 8 processors, the first with run time 0 (cleaned away); the header miscounts."""
    rng = np.random.default_rng(0)
    n = 40
    jobs = as_job_table(
        {
            "job_id": np.arange(1, n + 1),
            "submit_time": np.arange(n) * 60.0,
            "run_time": np.r_[0, rng.integers(10, 600, n - 1)],
            "allocated_procs": rng.integers(1, 9, n),
            "requested_time": np.full(n, 900.0),
            "status": np.ones(n),
        }
    )
    write_swf(path, jobs, SwfHeader(version="2.2", computer="Tiny", max_procs=8, max_records=41))


def test_full_report_names_real_traces_by_checksum(tmp_path):
    traces = tmp_path / "traces"
    traces.mkdir()
    write_tiny_trace(traces / "tiny.swf")
    checksum = hashlib.sha256((traces / "tiny.swf").read_bytes()).hexdigest()
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[str(traces)]):
        report = FullReport(policies=["fcfs", "easy"], **TINY)
        build(report)
        index = report.output_file("index.md").read_text()
        page = report.requires()[0].output_file("report.md").read_text()
    assert "Real traces (1)" in index and checksum in index and "synthetic" not in index
    assert "40 jobs in, 39 jobs out" in page
    assert "| drop_nonpositive_runtime | " in page and " | 1 |" in page
    assert "`header MaxRecords is 41 but the file has 40 job lines" in page


@pytest.fixture
def ran():
    """Task family -> how many tasks of it the last ``build_counting`` ran."""
    counter = Counter()

    def count(task):
        counter[task.get_task_family()] += 1

    SchedlabTask.event_handler(luigi.Event.SUCCESS)(count)
    yield counter
    SchedlabTask.remove_event_handler(luigi.Event.SUCCESS, count)


def build_counting(task, ran: Counter, change: str) -> dict[str, int]:
    ran.clear()
    build(task)
    counts = dict(sorted(ran.items()))
    print(f"{change:<48} -> {sum(counts.values()):2} tasks ran: {counts}")
    return counts


def fake_code_change(monkeypatch, module_name: str) -> None:
    original = base.module_code_version
    monkeypatch.setattr(
        base, "module_code_version", lambda name: original(name) + ("+edited" if name == module_name else "")
    )


def test_only_tasks_depending_on_a_change_rerun_synthetic(tmp_path, ran, monkeypatch):
    print()
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[no_traces(tmp_path)]):
        every_task = {"FullReport": 1, "ReplayTrace": 6, "SyntheticWorkload": 2, "TraceReport": 2}
        assert build_counting(FullReport(**TINY), ran, "first build") == every_task
        assert build_counting(FullReport(**TINY), ran, "nothing changed") == {}

        # One parameter: the second machine size. The 16-processor branch is reused.
        other_size = {**TINY, "synthetic_machine_procs": [16, 48]}
        assert build_counting(FullReport(**other_size), ran, "synthetic_machine_procs [16, 32] -> [16, 48]") == {
            "FullReport": 1,
            "ReplayTrace": 3,
            "SyntheticWorkload": 1,
            "TraceReport": 1,
        }
        # One parameter: fewer policies. Every replay is reused; only the reports redo.
        fewer = {**TINY, "policies": ["fcfs", "easy"]}
        assert build_counting(FullReport(**fewer), ran, "policies without conservative") == {
            "FullReport": 1,
            "TraceReport": 2,
        }

        with monkeypatch.context() as patch:
            fake_code_change(patch, "schedlab.reports.figures")
            assert build_counting(FullReport(**TINY), ran, "code of schedlab.reports.figures") == {
                "FullReport": 1,
                "TraceReport": 2,
            }
        with monkeypatch.context() as patch:
            fake_code_change(patch, "schedlab.simulators.core.engine")  # imported by schedlab.simulators.batch
            assert build_counting(FullReport(**TINY), ran, "code of schedlab.simulators.core.engine") == {
                "FullReport": 1,
                "ReplayTrace": 6,
                "TraceReport": 2,
            }
        with monkeypatch.context() as patch:
            fake_code_change(patch, "schedlab.workloads.sizes")  # imported by schedlab.workloads.lublin
            assert build_counting(FullReport(**TINY), ran, "code of schedlab.workloads.sizes") == every_task
        assert build_counting(FullReport(**TINY), ran, "all changes undone") == {}


def test_only_tasks_depending_on_a_change_rerun_real_trace(tmp_path, ran, monkeypatch):
    print()
    traces = tmp_path / "traces"
    traces.mkdir()
    write_tiny_trace(traces / "tiny.swf")
    report = FullReport(policies=["fcfs", "easy"], **TINY)
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[str(traces)]):
        every_task = {
            "CleanTrace": 1,
            "FullReport": 1,
            "LocateTrace": 1,
            "ParseTrace": 1,
            "ReplayTrace": 2,
            "ResampledReplays": 1,
            "TraceReport": 1,
        }
        assert build_counting(report, ran, "first build") == every_task
        with monkeypatch.context() as patch:
            fake_code_change(patch, "schedlab.parsers.cleaning")
            assert build_counting(report, ran, "code of schedlab.parsers.cleaning") == {
                "CleanTrace": 1,
                "FullReport": 1,
                "ReplayTrace": 2,
                "ResampledReplays": 1,
                "TraceReport": 1,
            }
        with monkeypatch.context() as patch:
            fake_code_change(patch, "schedlab.parsers.header")  # imported by schedlab.parsers.swf
            assert build_counting(report, ran, "code of schedlab.parsers.header") == {
                "CleanTrace": 1,
                "FullReport": 1,
                "ParseTrace": 1,
                "ReplayTrace": 2,
                "ResampledReplays": 1,
                "TraceReport": 1,
            }

    moved = tmp_path / "moved"
    moved.mkdir()
    (traces / "tiny.swf").rename(moved / "tiny.swf")
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[str(moved)]):
        assert build_counting(report, ran, "trace file moved, same content") == {}
        with (moved / "tiny.swf").open("a") as handle:
            handle.write("41 3000 -1 100 2 -1 -1 2 900 -1 1 -1 -1 -1 -1 -1 -1 -1\n")
        assert build_counting(report, ran, "trace file content changed") == every_task
