"""Outputs that prove their bytes: the size and SHA-256 of every file a task wrote.

A pipeline task writes its files into a staging directory; before the directory is renamed
into place, ``record(directory)`` lists every file in it (``task.json`` apart, which holds
the list) with its size and SHA-256.  Later:

- ``whole(directory, recorded)`` is the cheap check of completeness: every recorded file is
  there with its recorded size (a stat per file).  A truncated or deleted file makes the
  output incomplete, so the build runs its task again.
- ``check_file(directory, name, recorded)`` is the full check, made when a file is read: its
  SHA-256 must be the recorded one.  A flipped bit or an edited digit is refused with the
  file named, never read into a result.
- ``damage(directory, recorded)`` checks every file, for ``schedlab verify-cache``;
  ``schedlab bundle create`` checks presence and sizes first (``digests=False``) and each
  digest as it packs the file, reading every byte once.

Nothing is remembered between checks: bytes that rot on disk keep their size and time.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from schedlab.errors import SchedlabError

RECORD_FILE = "task.json"
"""The file of an output directory that records the others (not itself recorded)."""

class DamagedOutput(SchedlabError):
    """A cached output whose bytes are not those its task wrote."""


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file, read in blocks."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def record(directory: Path) -> dict[str, dict]:
    """``{relative posix path: {"bytes": size, "sha256": digest}}`` for every file under
    ``directory`` but its ``task.json``, sorted by path."""
    return {name: {"bytes": path.stat().st_size, "sha256": sha256_of(path)} for name, path in _files(directory)}


def _files(directory: Path) -> list[tuple[str, Path]]:
    """(relative posix path, path) of every file under ``directory`` but its ``task.json``, sorted."""
    files = ((path.relative_to(directory).as_posix(), path) for path in directory.rglob("*") if path.is_file())
    return sorted((name, path) for name, path in files if name != RECORD_FILE)


def recorded_outputs(directory: Path) -> dict[str, dict] | None:
    """The files an output directory's ``task.json`` records (name -> size and SHA-256); None when
    there is no readable record (not written, damaged, or from a schedlab that recorded none)."""
    try:
        outputs = json.loads((directory / RECORD_FILE).read_text(encoding="utf-8")).get("outputs")
    except (OSError, ValueError, AttributeError):
        return None
    return outputs if isinstance(outputs, dict) else None


def whole(directory: Path, recorded: dict[str, dict] | None) -> bool:
    """Whether every recorded file is in ``directory`` with its recorded size (no digest is computed)."""
    if recorded is None:
        return False
    for name, entry in recorded.items():
        try:
            if (directory / name).stat().st_size != entry["bytes"]:
                return False
        except OSError:
            return False
    return True


DIGEST_DIFFERS = "its SHA-256 differs from the one recorded when it was written (same size: changed in place)"


def _problem(directory: Path, name: str, entry: dict, digests: bool = True) -> str | None:
    path = directory / name
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return "missing"
    if size != entry["bytes"]:
        return f"{size:,} bytes where {entry['bytes']:,} were written"
    if digests and sha256_of(path) != entry["sha256"]:
        return DIGEST_DIFFERS
    return None


def check_file(directory: Path, name: str, recorded: dict[str, dict] | None) -> None:
    """Raise :class:`DamagedOutput`, naming the file, unless ``directory/name`` is the file its task wrote."""
    path = directory / name
    if recorded is None:
        raise DamagedOutput(f"{path}: its output directory records no digests ({directory / RECORD_FILE} is "
                            "missing or from a schedlab that wrote none); remove the directory and build again")
    if name not in recorded:
        raise DamagedOutput(f"{path}: not a file its task wrote (not in {directory / RECORD_FILE})")
    problem = _problem(directory, name, recorded[name])
    if problem is not None:
        raise DamagedOutput(f"{path}: damaged cached output: {problem}; remove {directory} (or run "
                            "'schedlab verify-cache --remove-damaged') and build again")


def damage(directory: Path, recorded: dict[str, dict] | None, digests: bool = True) -> list[str]:
    """What is wrong with an output directory, one line per problem; empty when every byte is as written
    (with ``digests=False``: when every file is there at its size, and no other file is)."""
    if recorded is None:
        return [f"no digests recorded in {RECORD_FILE}"]
    problems = [f"{name}: {problem}" for name, entry in recorded.items()
                if (problem := _problem(directory, name, entry, digests)) is not None]
    present = {name for name, _ in _files(directory)}
    problems += [f"{name}: not written by its task" for name in sorted(present - set(recorded))]
    return problems


def output_directories(work_dir: Path) -> list[Path]:
    """Every task output directory of a work directory (``<Family>/<label>-<key>``), sorted; staging
    directories (hidden) and links (``FullReport/latest``) are not outputs."""
    return sorted(directory for family in work_dir.iterdir() if family.is_dir() and not family.name.startswith(".")
                  for directory in family.iterdir()
                  if directory.is_dir() and not directory.is_symlink() and not directory.name.startswith("."))
