"""A user's own ``reports/``, ``parsers/``, ``simulators/`` or ``workloads/`` beside their script
cannot shadow schedlab's: ours are imported as ``schedlab.reports`` and so on.

Each folder made here refuses to be imported by anything but the user's script, so a run
that picked one up fails; everything runs from that directory (``python script.py`` puts it
first on ``sys.path``, ``python -m`` puts the working directory there).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"

USERS_PACKAGE = """
import inspect

importer = next(frame.filename for frame in inspect.stack()[1:] if not frame.filename.startswith("<frozen"))
if not importer.endswith("script.py"):
    raise ImportError(f"{importer} imported the user's own {__name__}/")
"""

USERS_SCRIPT = """
import luigi
import reports, parsers, simulators, workloads  # the user's own, beside this script
from pipeline.full_report import FullReport

assert luigi.build([FullReport(stages=[], synthetic_jobs=60)], local_scheduler=True, log_level="WARNING")
"""


def run_in(here: Path, *command: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCHEDLAB_WORK_DIR": str(here / "work"), "SCHEDLAB_TRACE_DIRS": str(here / "no-traces")}
    return subprocess.run([sys.executable, *command], cwd=here, env=env, capture_output=True, text=True, timeout=600)


def users_directory(tmp_path: Path) -> Path:
    for name in ("reports", "parsers", "simulators", "workloads"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(USERS_PACKAGE)
    (tmp_path / "no-traces").mkdir()
    (tmp_path / "script.py").write_text(USERS_SCRIPT)
    return tmp_path


def test_a_users_own_packages_beside_their_script_change_nothing(tmp_path):
    here = users_directory(tmp_path)
    done = run_in(here, "script.py")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert (here / "work" / "FullReport" / "latest" / "index.html").is_file()
    # The same folders imported from anywhere else refuse: the check above could fail.
    refused = run_in(here, "-c", "import reports")
    assert refused.returncode != 0 and "imported the user's own reports/" in refused.stderr


def test_the_command_line_from_such_a_directory_replays_and_builds(tmp_path):
    here = users_directory(tmp_path)
    replay = run_in(here, "-m", "schedlab.cli", "replay", str(DATA / "small_header.swf"), "--policy", "easy",
                    "--out", "schedule.csv")
    assert replay.returncode == 0, replay.stderr[-3000:]
    assert (here / "schedule.csv").stat().st_size > 0
    build = run_in(here, "-m", "luigi", "--module", "pipeline", "FullReport", "--local-scheduler", "--stages", "[]",
                   "--synthetic-jobs", "60")
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-3000:]
    assert (here / "work" / "FullReport" / "latest" / "index.html").is_file()
