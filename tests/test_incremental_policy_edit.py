"""A real source edit reruns exactly what depends on it, and a comment reruns nothing.

The project's source packages are copied to a temporary directory and a small
FullReport (two tiny synthetic workloads, three batch policies, no stage) is built there
with ``luigi`` in a subprocess.  Then a policy module is edited and the same command
runs again.  The tasks that reran are the output directories that did not exist before
(every output path is keyed by code version).  Run with ``-s`` to see the counts.
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


def edit_and_rebuild(source: Path, work: Path, module: str, text: str) -> Counter:
    before = outputs(work)
    path = source / module
    path.write_text(path.read_text() + text)
    build(source, work)
    rerun = outputs(work) - before
    counts = Counter(family for family, _ in rerun)
    print(f"\nafter {text.strip()!r} in {module}: {len(rerun)} of {len(before)} tasks reran: {dict(sorted(counts.items()))}")
    return counts, rerun


def test_a_comment_reruns_nothing_and_a_policy_edit_reruns_its_replays_and_the_reports_above(tmp_path):
    source, work = tmp_path / "source", tmp_path / "work"
    copy_source(source)
    build(source, work)

    counts, _ = edit_and_rebuild(source, work, "simulators/batch/easy.py", "\n# a comment changes no behaviour\n")
    assert counts == Counter()

    counts, rerun = edit_and_rebuild(source, work, "simulators/batch/conservative.py", "\nEDITED = True\n")
    assert counts == {"ReplayTrace": 2, "TraceReport": 2, "FullReport": 1}
    assert sorted(name.split("_")[1] for family, name in rerun if family == "ReplayTrace") == ["conservative", "conservative"]
