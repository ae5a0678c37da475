"""schedlab's Luigi defaults (exit codes, WARNING log) hold from any working directory, and a
``luigi.cfg`` there still overrides them (pipeline.luigi_defaults)."""

from __future__ import annotations

import os
import subprocess
import sys

FAILING_TASKS = '''
import pipeline  # schedlab's tasks, as `--module pipeline` would load them
from pipeline.base import SchedlabTask


class Failing(SchedlabTask):
    def run(self):
        raise RuntimeError("failing on purpose")
'''


def _failing_build(directory, work):
    (directory / "failing_tasks.py").write_text(FAILING_TASKS)
    environment = {**os.environ, "SCHEDLAB_WORK_DIR": str(work),
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(directory), os.environ.get("PYTHONPATH")]))}
    environment.pop("LUIGI_CONFIG_PATH", None)
    return subprocess.run([sys.executable, "-m", "luigi", "--module", "failing_tasks", "Failing", "--local-scheduler"],
                          cwd=directory, env=environment, capture_output=True, text=True, timeout=120)


def test_a_failed_build_outside_the_repository_exits_non_zero_with_a_short_log(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    done = _failing_build(outside, tmp_path / "work")
    assert done.returncode == 30, done.stderr[-2000:]
    assert " DEBUG: " not in done.stderr and " INFO: " not in done.stderr
    assert len((done.stdout + done.stderr).splitlines()) < 60


def test_a_luigi_cfg_in_the_working_directory_still_overrides_the_defaults(tmp_path):
    (tmp_path / "luigi.cfg").write_text("[retcode]\ntask_failed = 3\n")
    assert _failing_build(tmp_path, tmp_path / "work").returncode == 3


WORKERS = '''
import pipeline, luigi.interface
print(luigi.interface.core().workers)
'''


def _workers(directory, *arguments) -> int:
    environment = {**os.environ}
    environment.pop("LUIGI_CONFIG_PATH", None)
    done = subprocess.run([sys.executable, "-c", WORKERS, *arguments], cwd=directory, env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def test_a_build_runs_as_many_workers_as_it_has_cores_unless_luigi_cfg_says_otherwise(tmp_path):
    # Two cores here: the same number as the default's would not tell the default from Luigi's own 1.
    cores = len(os.sched_getaffinity(0))
    assert _workers(tmp_path) == cores
    (tmp_path / "luigi.cfg").write_text("[core]\nworkers = 7\n")
    assert _workers(tmp_path) == 7


def test_the_command_lines_workers_override_the_default(tmp_path):
    environment = {**os.environ, "SCHEDLAB_WORK_DIR": str(tmp_path / "work")}
    environment.pop("LUIGI_CONFIG_PATH", None)
    done = subprocess.run([sys.executable, "-m", "luigi", "--module", "pipeline", "FullReport", "--workers", "0",
                           "--local-scheduler"], cwd=tmp_path, env=environment, capture_output=True, text=True,
                          timeout=120)
    assert done.stderr == "luigi: --workers 0: must be a whole number >= 1\n"  # the 0 given reached the task
