"""What a build prints (``pipeline.console``): its task count, a line per page and per tenth done, the
result's path last; counted right when the tasks run in forked worker processes."""

from __future__ import annotations

import re
from pathlib import Path

import luigi

from pipeline import ArchiveBundle, FullReport, settings

from tests.conftest import no_traces

TINY = {"synthetic_machine_procs": [16], "synthetic_jobs": 120, "synthetic_seed": 3, "stages": []}
COUNT = re.compile(r"\[ *(\d+)/(\d+) tasks\] ")


def test_two_workers_count_every_task_once_and_the_archive_comes_last_then_a_rerun_names_the_report(tmp_path, capfd):
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[no_traces(tmp_path)]):
        assert luigi.build([ArchiveBundle(**TINY)], local_scheduler=True, workers=2, log_level="WARNING")
        lines = capfd.readouterr().out.splitlines()
        # a synthetic workload, its three replays, its page, the report, the bundle
        assert lines[0].startswith("Running 7 tasks (0 already complete)")
        counts = [(int(done), int(total)) for done, total in (COUNT.match(line).groups() for line in lines if COUNT.match(line))]
        assert [total for _, total in counts] == [7] * len(counts)
        assert [done for done, _ in counts] == sorted({done for done, _ in counts}) and counts[-1][0] == 7
        assert sum("page written: TraceReport(" in line for line in lines) == 1
        assert re.fullmatch(r"\[7/7 tasks\] the bundle is written \(\d+\.\d MB\):", lines[-2])
        assert Path(lines[-1]).name == "schedlab-bundle.tar.gz" and Path(lines[-1]).is_file()

        assert luigi.build([FullReport(**TINY)], local_scheduler=True, workers=1, log_level="WARNING")
        again = capfd.readouterr().out.splitlines()
        assert again[0] == "The report is already complete:" and len(again) == 2
        assert Path(again[1]).samefile(tmp_path / "work" / "FullReport" / "latest" / "index.html")


def test_verbose_brings_back_luigis_log_and_changes_no_key(tmp_path):
    import os
    import subprocess
    import sys

    command = [sys.executable, "-m", "luigi", "--module", "pipeline", "FullReport", "--local-scheduler",
               "--synthetic-machine-procs", "[16]", "--synthetic-jobs", "120", "--stages", "[]"]
    env = {**os.environ, "SCHEDLAB_WORK_DIR": str(tmp_path / "work"), "SCHEDLAB_TRACE_DIRS": no_traces(tmp_path)}
    root = Path(__file__).resolve().parents[1]
    quiet = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    verbose = subprocess.run([*command, "--verbose"], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert quiet.returncode == verbose.returncode == 0, verbose.stderr
    assert "INFO: " not in quiet.stdout + quiet.stderr
    assert "INFO: Informed scheduler that task" in verbose.stderr
    assert FullReport(verbose=True, **TINY).task_key() == FullReport(**TINY).task_key()


def test_a_long_task_says_it_is_still_running(tmp_path, capfd, monkeypatch):
    import time

    from pipeline import console
    from pipeline.base import SchedlabTask

    class Quick(SchedlabTask):
        def run(self):
            with self.writing_output():
                pass

    class Slow(SchedlabTask):  # with a requirement, as in a build: a lone task is not counted
        def requires(self):
            return Quick()

        def run(self):
            time.sleep(0.5)
            with self.writing_output():
                pass

    monkeypatch.setattr(console, "HEARTBEAT_SECONDS", 0.1)
    with settings.overridden(work_dir=str(tmp_path / "work")):
        assert luigi.build([Slow()], local_scheduler=True, workers=1, log_level="WARNING")
    lines = capfd.readouterr().out.splitlines()
    beats = [line for line in lines if "still running after" in line]
    assert all(re.fullmatch(r"\[[01]/2 tasks\] still running after \d+ min: (Quick|Slow)\(\)", line) for line in beats)
    assert "[1/2 tasks] still running after 0 min: Slow()" in beats
    time.sleep(0.3)
    assert "still running" not in capfd.readouterr().out  # the heartbeat stopped with the task


def test_a_heartbeat_names_a_task_with_a_long_list_parameter_in_one_short_line():
    from pipeline.console import TASK_NAME_CHARACTERS, _shortened

    name = "BandwidthRuns(runs=[" + ", ".join(['["lslt", 10.0, 1.0, "whole_first"]'] * 30) + "])"
    assert len(_shortened(name)) == TASK_NAME_CHARACTERS and _shortened(name).endswith("...")
    assert _shortened("Quick()") == "Quick()"
