"""A real source edit reruns only what depends on it.

The project's source packages are copied to a temporary directory and a small
FullReport (two tiny synthetic workloads, three batch policies, no stage) is built there
with ``luigi`` in a subprocess.  Then one policy module, conservative backfilling, gets
a comment line, and the same command runs again.  The tasks that reran are the output
directories that did not exist before (every output path is keyed by code version):
exactly the two conservative replays, the two workload pages above them and the index.
Run with ``-s`` to see the count.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

SOURCE_PACKAGES = ("parsers", "workloads", "simulators", "pipeline", "reports", "schedlab")
REPOSITORY = Path(__file__).resolve().parents[1]
SMALL_REPORT = [
    "FullReport", "--local-scheduler", "--stages", "[]", "--synthetic-jobs", "150",
    "--synthetic-machine-procs", "[16, 32]", "--synthetic-seed", "3",
]  # fmt: skip


def copy_source(destination: Path) -> None:
    for package in SOURCE_PACKAGES:
        shutil.copytree(REPOSITORY / package, destination / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPOSITORY / "luigi.cfg", destination / "luigi.cfg")


def build(source: Path, work: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(source), "SCHEDLAB_WORK_DIR": str(work), "SCHEDLAB_TRACE_DIRS": str(work / "none")}
    env.pop("SCHEDLAB_TRACES", None)
    command = [sys.executable, "-m", "luigi", "--module", "pipeline", *SMALL_REPORT]
    done = subprocess.run(command, cwd=source, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def outputs(work: Path) -> set[tuple[str, str]]:
    return {(path.parent.name, path.name) for path in work.glob("*/*") if path.is_dir() and not path.name.startswith(".")}


def test_editing_one_policy_reruns_its_replays_and_the_reports_above_them(tmp_path):
    source, work = tmp_path / "source", tmp_path / "work"
    copy_source(source)
    build(source, work)
    before = outputs(work)

    policy = source / "simulators" / "batch" / "conservative.py"
    policy.write_text(policy.read_text() + "\n# an edit that changes the module's code version\n")
    build(source, work)
    rerun = outputs(work) - before
    counts = Counter(family for family, _ in rerun)
    print(f"\nafter editing simulators/batch/conservative.py: {len(rerun)} of {len(before)} tasks reran: {dict(sorted(counts.items()))}")
    assert counts == {"ReplayTrace": 2, "TraceReport": 2, "FullReport": 1}
    assert sorted(name.split("_")[1] for family, name in rerun if family == "ReplayTrace") == ["conservative", "conservative"]
