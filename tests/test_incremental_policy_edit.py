"""A real source edit reruns exactly what depends on it, and a comment reruns nothing.

The project's source packages are copied to a temporary directory and a small
FullReport (two tiny synthetic workloads, three batch policies, no stage) is built there
with ``luigi`` in a subprocess.  Then a policy module is edited and the same command
runs again.  The tasks that reran are the output directories that did not exist before
(every output path is keyed by code version).  Run with ``-s`` to see the counts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from pipeline.cleanup import task_outputs
from tests.conftest import no_traces, shared_path

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


def build(source: Path, work: Path, extra: list[str] = ()) -> None:
    env = {**os.environ, "PYTHONPATH": str(source), "SCHEDLAB_WORK_DIR": str(work), "SCHEDLAB_TRACE_DIRS": no_traces(work.parent)}
    env.pop("SCHEDLAB_TRACES", None)
    command = [sys.executable, "-m", "luigi", "--module", "pipeline", *SMALL_REPORT, *extra]
    done = subprocess.run(command, cwd=source, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def outputs(work: Path) -> set[tuple[str, str]]:
    return {(path.parent.name, path.name) for path in task_outputs(work).values()}


def edit_and_rebuild(source: Path, work: Path, module: str, text: str, extra: list[str] = ()) -> Counter:
    before = outputs(work)
    path = source / module
    path.write_text(path.read_text() + text)
    build(source, work, extra)
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


EXAMPLE = REPOSITORY / "examples" / "policies" / "largest_first.py"


def test_a_researchers_policy_reruns_when_its_code_changes_and_not_for_a_comment(tmp_path):
    source, work, plugins = tmp_path / "source", tmp_path / "work", tmp_path / "plugins"
    copy_source(source)
    plugins.mkdir()
    shutil.copy(EXAMPLE, plugins / "my_policy.py")
    reference = f"{plugins / 'my_policy.py'}:LargestFirstEasy"
    with_plugin = ["--policies", f'["easy", "{reference}"]']
    build(source, work, with_plugin)
    # Pages name the policy by file and class; the absolute path stays in the provenance (task.json).
    pages = [work / "FullReport" / "latest" / "index.md", *work.glob("TraceReport/*/metrics.csv"),
             *work.glob("TraceReport/*/report.md")]
    assert len(pages) == 5
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "my_policy.py:LargestFirstEasy" in text and str(plugins) not in text, page

    counts, _ = edit_and_rebuild(source, work, "../plugins/my_policy.py", "\n# tried another tie-break here\n", with_plugin)
    assert counts == Counter()
    counts, rerun = edit_and_rebuild(source, work, "../plugins/my_policy.py", "\nTIE_BREAK = 'arrival'\n", with_plugin)
    assert counts == {"ReplayTrace": 2, "TraceReport": 2, "FullReport": 1}
    assert all("LargestFirstEasy" in name for family, name in rerun if family == "ReplayTrace")


KEYS_OF_THE_FULL_REPORT = """
import json
from pipeline.full_report import FullReport, dependency_closure
print(json.dumps({task.parameter_id: [task.get_task_family(), task.task_key()] for task in dependency_closure(FullReport())}))
"""


def keys_of_every_task(source: Path) -> dict[str, tuple[str, str]]:
    traces = shared_path("traces")
    env = {
        **os.environ, "PYTHONPATH": str(source), "SCHEDLAB_TRACE_DIRS": f"{traces}:{traces.parent / 'traces-extra'}",
        "SCHEDLAB_TRACES": "KTH-SP2-1996-2.2",
    }  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", KEYS_OF_THE_FULL_REPORT], cwd=source, env=env, capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return {task: tuple(family_key) for task, family_key in json.loads(done.stdout).items()}


def test_the_default_full_report_with_every_stage_reruns_nothing_for_a_comment_and_no_cosy_task_for_conservative(tmp_path):
    """Counted on keys: every output path holds its task's key, so a task reruns exactly
    when its key changes.  The default FullReport (quick profile, every stage) on KTH."""
    source = tmp_path / "source"
    copy_source(source)
    original = keys_of_every_task(source)

    easy = source / "simulators" / "batch" / "easy.py"
    easy.write_text(easy.read_text() + "\n# a comment\n")
    after_comment = keys_of_every_task(source)
    changed = Counter(family for task, (family, key) in after_comment.items() if original[task][1] != key)
    print(f"\nafter a comment in simulators/batch/easy.py: {sum(changed.values())} of {len(original)} tasks rerun")
    assert changed == Counter()

    conservative = source / "simulators" / "batch" / "conservative.py"
    conservative.write_text(conservative.read_text() + "\nEDITED = True\n")
    after_edit = keys_of_every_task(source)
    changed = Counter(family for task, (family, key) in after_edit.items() if original[task][1] != key)
    print(f"after a code change in simulators/batch/conservative.py: {sum(changed.values())} of {len(original)} "
          f"tasks rerun: {dict(sorted(changed.items()))}")  # fmt: skip
    assert not any(family.startswith("Cosy") for family in changed)
    # KTH-SP2 has users: its resampled comparison replays conservative too, and reruns (issue 69 item 1).
    assert changed == {"ReplayTrace": 1, "ResampledReplays": 1, "TraceReport": 1, "FullReport": 1}
