"""A generated damage campaign: no damaged byte reaches a report with exit 0 (issue 69).

A small FullReport (two synthetic workloads, no stage) is built once.  Each case copies its work
directory, damages it one random way (a byte changed in place, a file truncated, deleted or added,
two outputs of one family swapped, one copied over another, an output replaced by a link to
another, its record edited or deleted, a whole output deleted), then builds the same report
again.  Every case must end as the pristine build: the build succeeds and every output of the
report's closure holds exactly the pristine bytes (healed), or it fails (refused).  The campaign's
seed is fixed, so a failing case is replayed by its number.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import luigi
import pytest

from pipeline import FullReport, settings
from pipeline.full_report import dependency_closure
from schedlab.output_digests import RECORD_FILE
from tests.conftest import no_traces

CASES = 60
REPORT = {"stages": [], "synthetic_jobs": 120, "synthetic_machine_procs": [16, 32], "resamples": 0}


def build(work: Path, traces: str) -> tuple[bool, FullReport]:
    with settings.overridden(work_dir=str(work), trace_dirs=[traces]):
        report = FullReport(**REPORT)
        return luigi.build([report], local_scheduler=True, workers=1, log_level="CRITICAL"), report


def snapshot(work: Path, traces: str) -> dict[str, bytes]:
    """Every file of every output of the report's closure, by its path in the work directory."""
    with settings.overridden(work_dir=str(work), trace_dirs=[traces]):
        directories = [task.output_dir() for task in dependency_closure(FullReport(**REPORT))]
    return {path.relative_to(work).as_posix(): path.read_bytes()
            for directory in directories for path in sorted(directory.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, str, dict[str, bytes]]:
    """The pristine build, and the one empty trace directory every build searches (the report's key names it)."""
    root = tmp_path_factory.mktemp("pristine")
    work, traces = root / "work", no_traces(root)
    built, _ = build(work, traces)
    assert built
    return work, traces, snapshot(work, traces)


def outputs_of(work: Path) -> list[Path]:
    return sorted(directory for family in work.iterdir() if family.is_dir() and not family.name.startswith(".")
                  for directory in family.iterdir() if directory.is_dir() and not directory.name.startswith(".")
                  and not directory.is_symlink())


def change_a_byte(directory: Path, pick: random.Random) -> str:
    path = pick.choice([p for p in directory.rglob("*") if p.is_file() and p.stat().st_size])
    data = bytearray(path.read_bytes())
    at = pick.randrange(len(data))
    data[at] = (data[at] + pick.randrange(1, 256)) % 256
    path.write_bytes(bytes(data))
    return f"a byte of {path.name} changed in place"


def truncate(directory: Path, pick: random.Random) -> str:
    path = pick.choice([p for p in directory.rglob("*") if p.is_file() and p.stat().st_size])
    path.write_bytes(path.read_bytes()[: pick.randrange(path.stat().st_size)])
    return f"{path.name} truncated"


def delete_a_file(directory: Path, pick: random.Random) -> str:
    path = pick.choice([p for p in directory.rglob("*") if p.is_file()])
    path.unlink()
    return f"{path.name} deleted"


def add_a_file(directory: Path, pick: random.Random) -> str:
    (directory / "planted.csv").write_text("a,b\n1,2\n")
    return "a file added"


def edit_the_record(directory: Path, pick: random.Random) -> str:
    path = directory / RECORD_FILE
    record = json.loads(path.read_text())
    field = pick.choice(["parameters", "environment", "key"])
    if field == "key":
        record["key"] = "0" * 16
    elif record[field]:
        name = pick.choice(sorted(record[field]))
        record[field][name] = f"{record[field][name]}1"
    else:
        record[field]["planted"] = "1"
    path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    return f"task.json's {field} edited"


def delete_the_output(directory: Path, pick: random.Random) -> str:
    shutil.rmtree(directory)
    return "the output deleted"


def _sibling(directory: Path, pick: random.Random) -> Path | None:
    others = [d for d in directory.parent.iterdir() if d != directory and d.is_dir() and not d.is_symlink()
              and not d.name.startswith(".")]
    return pick.choice(sorted(others)) if others else None


def swap(directory: Path, pick: random.Random) -> str:
    other = _sibling(directory, pick)
    if other is None:
        return delete_the_output(directory, pick)
    held = directory.with_name(".swap")
    directory.rename(held), other.rename(directory), held.rename(other)
    return f"swapped with {other.name}"


def copy_over(directory: Path, pick: random.Random) -> str:
    other = _sibling(directory, pick)
    if other is None:
        return add_a_file(directory, pick)
    shutil.rmtree(directory)
    shutil.copytree(other, directory)
    return f"replaced by a copy of {other.name}"


def link_elsewhere(directory: Path, pick: random.Random) -> str:
    other = _sibling(directory, pick)
    shutil.rmtree(directory)
    directory.symlink_to(other.name if other is not None else "gone", target_is_directory=True)
    return f"replaced by a link to {other.name if other is not None else 'nothing'}"


DAMAGES = (change_a_byte, truncate, delete_a_file, add_a_file, edit_the_record, delete_the_output, swap, copy_over,
           link_elsewhere)


def test_no_damaged_byte_reaches_a_report_with_exit_0(pristine, tmp_path):
    source, traces, expected = pristine
    pick = random.Random(69)
    outcomes = []
    for case in range(CASES):
        work = tmp_path / f"case-{case}" / "work"
        shutil.copytree(source, work, symlinks=True)
        damage = DAMAGES[case % len(DAMAGES)]
        victim = pick.choice(outputs_of(work))
        what = f"case {case}: {victim.parent.name}/{victim.name}: {damage(victim, pick)}"
        built, _ = build(work, traces)
        if built:
            rebuilt = snapshot(work, traces)
            differing = sorted(name for name in rebuilt.keys() | expected.keys() if rebuilt.get(name) != expected.get(name))
            assert not differing, f"{what}: the rebuilt report differs from the pristine one in {differing[:5]}"
            assert not (work / victim.parent.name / victim.name).is_symlink(), what
        outcomes.append((what, built))
        shutil.rmtree(work.parent)
    refused = [what for what, built in outcomes if not built]
    assert len(outcomes) >= 50 and not refused, refused  # every damage healed: none needed refusing
