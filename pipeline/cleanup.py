"""Work directory hygiene: the ``latest`` report link, and removing outputs nothing needs.

Every code or parameter change gives tasks new keys, hence new output directories; the
old ones stay (they are still valid for the old code).  ``unneeded_outputs`` finds the
output directories that none of the given roots needs, following the requirement keys
each output's ``task.json`` records, so it reads the work directory alone and never
has to rebuild the tasks that made it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pipeline.base import LOCKS_DIRECTORY, dead_writer, read_json
from schedlab.output_digests import LATEST

STAGING_GRACE_SECONDS = 3_600
"""A staging directory (a task's write in progress) younger than this may belong to a running build,
unless its name shows its writer has ended (``pipeline.base.dead_writer``)."""


def point_latest(output_dir: Path) -> None:
    """Make ``<family dir>/latest`` a relative link to ``output_dir``, replacing any older one atomically."""
    link = output_dir.parent / LATEST
    temporary = output_dir.parent / f".{LATEST}.{os.getpid()}.tmp"
    temporary.unlink(missing_ok=True)
    temporary.symlink_to(output_dir.name, target_is_directory=True)
    os.replace(temporary, link)


def task_outputs(work_dir: Path) -> dict[str, Path]:
    """Every complete output directory of the work directory, by task key."""
    outputs = {}
    for record in sorted(work_dir.glob("*/*/task.json")):
        directory = record.parent
        if directory.is_symlink() or directory.name.startswith("."):
            continue
        outputs[read_json(record)["key"]] = directory
    return outputs


def needed_outputs(roots: Iterable[Path], outputs: dict[str, Path]) -> set[Path]:
    """The roots and every output they require, directly or not (missing ones are skipped)."""
    needed: set[Path] = set()
    pending = [root.resolve() for root in roots if root.exists()]
    while pending:
        directory = pending.pop()
        if directory in needed:
            continue
        needed.add(directory)
        record = directory / "task.json"
        if record.exists():
            pending.extend(outputs[key].resolve() for key in read_json(record)["requirements"] if key in outputs)
    return needed


@dataclass(frozen=True)
class Removal:
    path: Path
    bytes: int
    why: str


def directory_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def unneeded_outputs(work_dir: Path, roots: Iterable[Path], now: float | None = None) -> list[Removal]:
    """What may go: outputs no root needs, stale staging directories and dangling links."""
    now = time.time() if now is None else now
    outputs = task_outputs(work_dir)
    needed = needed_outputs(roots, outputs)
    removals = [
        Removal(directory, directory_size(directory), "needed by no current report, bundle or kept task")
        for directory in outputs.values()
        if directory.resolve() not in needed
    ]
    removed = {removal.path.resolve() for removal in removals}
    removals += [Removal(lock, 0, "lock of an output that is gone") for lock in unused_locks(work_dir, removed)]
    for family in sorted(p for p in work_dir.iterdir() if p.is_dir() and not p.is_symlink() and p.name != LOCKS_DIRECTORY):
        for entry in sorted(family.iterdir()):
            if entry.name.startswith(".") and entry.name.endswith(".tmp") and not entry.is_symlink():
                if dead_writer(entry) or now - entry.stat().st_mtime > STAGING_GRACE_SECONDS:
                    removals.append(Removal(entry, directory_size(entry) if entry.is_dir() else 0, "left by a killed write"))
            elif entry.is_symlink() and not entry.exists():
                removals.append(Removal(entry, 0, "link to a removed output"))
    return sorted(removals, key=lambda r: str(r.path))


def unused_locks(work_dir: Path, removed: set[Path]) -> list[Path]:
    """Task locks (``<work_dir>/.locks/<Family>/<name>.lock``) of outputs that are not there or are
    being removed, and that no process holds.  A lock file of a running task is kept: unlinking
    it would let a third build lock a new file while the second waits on the old one."""
    unused = []
    for lock in sorted((work_dir / LOCKS_DIRECTORY).glob("*/*.lock")):
        output = work_dir / lock.parent.name / lock.name.removesuffix(".lock")
        if output.is_dir() and output.resolve() not in removed:
            continue
        with open(lock, "a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            fcntl.flock(handle, fcntl.LOCK_UN)
        unused.append(lock)
    return unused


def remove(removals: Iterable[Removal]) -> None:
    for removal in removals:
        if removal.path.is_symlink() or removal.path.is_file():
            removal.path.unlink()
        else:
            shutil.rmtree(removal.path)
