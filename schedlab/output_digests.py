"""Outputs that prove their bytes: the size and SHA-256 of every file a task wrote.

A pipeline task writes its files into a staging directory; before the directory is renamed
into place, ``record(directory)`` lists every file in it (``task.json`` apart, which holds
the list) with its size and SHA-256.  Later:

- ``task.json`` is sealed (``seal``): it carries the SHA-256 of its own other fields, and the key
  it records must be the one its directory is named by (``<label>-<key>``).  ``read_record``
  gives a record only when both hold, so an edited digit in its parameters, environment or
  digests, or a directory copied or swapped under another task's name, reads as no record:
  the task runs again, and nothing reads the directory meanwhile.
- ``whole(directory, recorded)`` is the check of completeness: every recorded file is there
  with its recorded size and SHA-256, and no other.  A truncated, deleted, changed or added file makes the output
  incomplete, so the build runs its task again and its new output replaces the damaged one,
  whether or not any task reads that file (a page, a figure, an export): a build never leaves
  damage it could see.  Hashing is cheap beside the runs (the quick FullReport's 200 MB of
  outputs hash in well under a second).
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
import os
from pathlib import Path

from schedlab.errors import SchedlabError

RECORD_FILE = "task.json"
"""The file of an output directory that records the others (not itself recorded)."""

SEAL = "record_sha256"
"""The field of ``task.json`` holding the SHA-256 of its other fields (canonical JSON)."""


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


def _seal_of(fields: dict) -> str:
    unsealed = {name: value for name, value in fields.items() if name != SEAL}
    return hashlib.sha256(json.dumps(unsealed, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def seal(fields: dict) -> dict:
    """``fields`` (a task's record, its ``key`` among them) with their seal added."""
    return {**fields, SEAL: _seal_of(fields)}


def record_problem(directory: Path) -> str | None:
    """Why ``directory``'s ``task.json`` is no record of it, in a few words; None when it is one."""
    try:
        fields = json.loads((directory / RECORD_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"no {RECORD_FILE}"
    except (OSError, ValueError):
        return f"{RECORD_FILE} is not readable JSON"
    if not isinstance(fields, dict) or not isinstance(fields.get("outputs"), dict):
        return f"{RECORD_FILE} records no output digests"
    if fields.get(SEAL) != _seal_of(fields):
        return f"{RECORD_FILE} was changed after it was written (its seal differs)"
    key = fields.get("key")
    if not isinstance(key, str) or not (directory.name == key or directory.name.endswith(f"-{key}")):
        return (f"{RECORD_FILE} is the record of another task (key {key}): the directory was copied, "
                "renamed or swapped")
    return None


def read_record(directory: Path) -> dict | None:
    """``directory``'s ``task.json`` when it is sealed and names this directory (``record_problem``), else None."""
    if record_problem(directory) is not None:
        return None
    return json.loads((directory / RECORD_FILE).read_text(encoding="utf-8"))


def recorded_outputs(directory: Path) -> dict[str, dict] | None:
    """The files an output directory's ``task.json`` records (name -> size and SHA-256); None when
    there is no record of this directory (``record_problem``: not written, changed, another task's)."""
    record = read_record(directory)
    return None if record is None else record["outputs"]


def whole(directory: Path, recorded: dict[str, dict] | None) -> bool:
    """Whether ``directory`` holds exactly the recorded files (none added), each with its recorded size
    and SHA-256."""
    if recorded is None:
        return False
    try:
        return ({name for name, _ in _files(directory)} == set(recorded)
                and all((directory / name).stat().st_size == entry["bytes"] for name, entry in recorded.items())
                and all(sha256_of(directory / name) == entry["sha256"] for name, entry in recorded.items()))
    except OSError:
        return False


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
        raise DamagedOutput(f"{path}: {record_problem(directory) or 'no record'} ({directory}); remove the "
                            "directory (or run 'schedlab verify-cache --remove-damaged') and build again")
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
        return [record_problem(directory) or f"no digests recorded in {RECORD_FILE}"]
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


LATEST = "latest"
"""The link in a task family's directory to its newest output (``FullReport/latest``)."""


def misplaced_links(work_dir: Path) -> list[tuple[Path, str]]:
    """Every link where an output directory belongs (in a task family's directory), with what is
    wrong with it: an output is a directory its task wrote, never a link to one (which may be another
    task's, or gone).  A family's ``latest`` may link to one of its outputs, and only to one."""
    found = []
    for family in sorted(work_dir.iterdir()):
        if not family.is_dir() or family.is_symlink() or family.name.startswith("."):
            continue
        for entry in sorted(family.iterdir()):
            if not entry.is_symlink() or entry.name.startswith("."):
                continue
            target = os.readlink(entry)
            sibling = family / target
            if entry.name == LATEST and "/" not in target and sibling.is_dir() and not sibling.is_symlink():
                continue
            what = "dangling" if not entry.exists() else "to another place" if entry.name == LATEST else "an output"
            found.append((entry, f"a link ({what}: {target}) where {'the newest output' if entry.name == LATEST else 'an output directory'} belongs"))
    return found
