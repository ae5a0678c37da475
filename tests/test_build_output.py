"""What a build prints (``pipeline.console``): its task count, a line per page and per tenth done, the
result's path last; counted right when the tasks run in forked worker processes."""

from __future__ import annotations

import re
from pathlib import Path

import luigi

from pipeline import ArchiveBundle, FullReport, settings

TINY = {"synthetic_machine_procs": [16], "synthetic_jobs": 120, "synthetic_seed": 3, "stages": []}
COUNT = re.compile(r"\[ *(\d+)/(\d+) tasks\] ")


def test_two_workers_count_every_task_once_and_the_archive_comes_last_then_a_rerun_names_the_report(tmp_path, capfd):
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[str(tmp_path / "no-traces")]):
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
