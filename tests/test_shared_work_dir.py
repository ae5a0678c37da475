"""Two builds on one work directory share its work: every task runs once, whichever process runs it.

Each process builds the same chain of tasks with its own local scheduler (Luigi's command-line
lock is off by default, ``pipeline/luigi-defaults.cfg``); each task records that it ran in a file
both processes append to, then takes a moment, so that the two meet on the same task.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

TASKS = textwrap.dedent('''
    import os, sys, time
    import luigi
    from pipeline.base import SchedlabTask

    class Step(SchedlabTask):
        number = luigi.IntParameter()

        def requires(self):
            return [Step(number=self.number - 1)] if self.number else []

        def run(self):
            with open(os.environ["RAN_LOG"], "a") as log:
                log.write(f"{self.number}\\n")
            time.sleep(0.5)
            with self.writing_output() as directory:
                (directory / "value.txt").write_text(str(self.number))

    def main():
        ok = luigi.build([Step(number=int(sys.argv[1]))], local_scheduler=True, workers=1, log_level="WARNING")
        sys.exit(0 if ok else 1)
''')


def test_two_builds_on_one_work_directory_run_each_task_once(tmp_path):
    (tmp_path / "steps.py").write_text(TASKS)
    ran = tmp_path / "ran.log"
    environment = {**os.environ, "SCHEDLAB_WORK_DIR": str(tmp_path / "work"), "RAN_LOG": str(ran),
                   "PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path(__file__).resolve().parents[1])])}
    builds = [subprocess.Popen([sys.executable, "-c", "import steps; steps.main()", "5"], env=environment,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for _ in range(2)]
    for build in builds:
        output, _ = build.communicate(timeout=300)
        assert build.returncode == 0, output
    assert sorted(ran.read_text().split()) == [str(n) for n in range(6)]
    assert len([path for path in (tmp_path / "work" / "Step").iterdir() if path.is_dir()]) == 6


def test_two_identical_command_lines_on_two_work_directories_both_build(tmp_path):
    (tmp_path / "steps.py").write_text(TASKS)
    command = [sys.executable, "-m", "luigi", "--module", "steps", "Step", "--number", "3", "--local-scheduler"]
    builds = []
    for name in ("one", "two"):
        environment = {**os.environ, "SCHEDLAB_WORK_DIR": str(tmp_path / name), "RAN_LOG": str(tmp_path / f"{name}.log"),
                       "PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path(__file__).resolve().parents[1])])}
        builds.append(subprocess.Popen(command, env=environment, cwd=tmp_path, stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, text=True))
    for build in builds:
        output, _ = build.communicate(timeout=300)
        assert build.returncode == 0, output
    for name in ("one", "two"):
        assert sorted((tmp_path / f"{name}.log").read_text().split()) == ["0", "1", "2", "3"]
