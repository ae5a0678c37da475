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
