"""Result bundles: one archive that holds a report, how to remake it, and proof it is intact.

A bundle is a gzip'd tar whose single top directory ``schedlab-bundle/`` holds

- ``work/``: the report's output directory and the output directory of every task it
  depends on, laid out as in the work directory (``<TaskFamily>/<label>-<key>/``), so
  that each carries its ``task.json`` (parameters, seeds, code versions, input checksums);
  files that only re-encode another file of the same directory (a replay's schedule as SWF
  and as Batsim CSV beside its ``schedule.parquet``) are left out, and listed in the recipe;
- ``source/``: the project's source packages, ``pyproject.toml``, ``luigi.cfg`` and the
  published paper-profile ledger (an input of the front page), so that the recipe can
  run elsewhere with exactly the code and inputs that made the outputs;
- ``recipe.json``: the root task, its parameters, the ``[schedlab]`` settings it ran
  with and the report's path inside ``work/``;
- ``inputs.json``: every external input the tasks read (trace checksums), one per task;
- ``code.json``: the git commit (and whether the tree had uncommitted changes) and the
  SHA-256 of the source snapshot;
- ``environment.json``: Python version, platform and every installed distribution's version;
- ``run-times.csv``: the work directory's log of task run times, if any (not reproducible,
  so not compared when verifying);
- ``MANIFEST.sha256``: the SHA-256 of every other file, ``sha256sum`` format.

The archive itself is deterministic (sorted members, zero times and owners), so the
same outputs give the same bytes; a file with the same bytes as an earlier one is stored
as a hard link to it.  Verifying a bundle checks the manifest first, then
reruns the recipe with the bundled source in a fresh work directory and compares every
output byte for byte (``verify_bundle``); the Luigi side lives in ``pipeline.bundle``.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import io
import json
import shutil
import os
import platform
import shlex
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from schedlab import DOMAIN_FOLDERS
from schedlab.errors import SchedlabError, require_regular_file
from schedlab.atomic import atomic_path
from schedlab.output_digests import (
    DIGEST_DIFFERS, RECORD_FILE, damage, output_directories, recorded_outputs, sha256_of,
)
from schedlab.versions import dependency_versions, distribution_key

BUNDLE_ROOT = "schedlab-bundle"
MANIFEST = "MANIFEST.sha256"
SOURCE_SUFFIXES = (".py", ".c", ".cfg", ".csv", ".json")
"""Code (the C: the replay's event loop, hashed into cache keys) and the packages' data files (Luigi's
defaults, the trace manifest, the shipped workload model): whatever a rerun from ``source/`` reads."""
SOURCE_PACKAGES = (*DOMAIN_FOLDERS, "pipeline", "schedlab")
"""The folders of a source snapshot: the domain folders (``schedlab.DOMAIN_FOLDERS``) and the two top-level packages."""
SOURCE_FILES = ("pyproject.toml", "setup.py", "luigi.cfg", "docs/results/paper-ledger.csv")  # the last: shown by FullReport
RUN_TIMES = "run-times.csv"
"""The work directory's log of task run times, carried along but not compared on verify."""


def source_files(project_root: Path) -> list[Path]:
    """The project's Python and C sources and configuration, relative to ``project_root``, sorted."""
    found = [Path(name) for name in SOURCE_FILES if (project_root / name).is_file()]
    for package in SOURCE_PACKAGES:
        found += [
            path.relative_to(project_root)
            for path in (project_root / package).rglob("*")
            if path.is_file() and _is_source_name(path.relative_to(project_root).as_posix())
        ]
    return sorted(found)


def source_hash(project_root: Path) -> str:
    """SHA-256 over the sorted (path, content hash) pairs of the source snapshot."""
    lines = "".join(f"{path.as_posix()}  {sha256_of(project_root / path)}\n" for path in source_files(project_root))
    return hashlib.sha256(lines.encode()).hexdigest()


def _git(repository: Path, *args: str, given: bytes | None = None) -> bytes | None:
    """What ``git args`` prints in ``repository`` (``given`` on its input); None when git, the repository
    or the object is not there."""
    try:
        return subprocess.run(["git", *args], cwd=repository, input=given, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None


def git_state(project_root: Path) -> dict:
    """The checked-out commit and whether tracked files differ from it; ``None`` outside git."""
    commit, changes = (None if out is None else out.decode().strip() for out in (
        _git(project_root, "rev-parse", "HEAD"), _git(project_root, "status", "--porcelain", "--untracked-files=no")))
    return {"commit": commit, "uncommitted_changes": bool(changes) if changes is not None else None}


def environment() -> dict:
    distributions = {
        dist.metadata["Name"]: dist.version
        for dist in importlib.metadata.distributions()
        if dist.metadata["Name"]
    }
    return {
        "python": sys.version,
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "packages": dict(sorted(distributions.items(), key=lambda item: item[0].lower())),
    }


def _json_bytes(data) -> bytes:
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode()


@dataclass(frozen=True)
class BundleContents:
    """What goes into a bundle; ``output_dirs`` and ``left_out`` (files of theirs not packed:
    exports the rerun rebuilds, named in the recipe) are relative to ``work_dir``."""

    work_dir: Path
    output_dirs: tuple[Path, ...]
    recipe: Mapping
    inputs: Mapping
    project_root: Path
    left_out: frozenset[Path] = frozenset()


def misshapen_outputs(contents: BundleContents) -> list[str]:
    """Each output directory to pack with a file missing, of another size than its task recorded, or not
    written by its task, with what is wrong (digests are checked as the files are packed)."""
    found = []
    for directory in contents.output_dirs:
        problems = damage(contents.work_dir / directory, recorded_outputs(contents.work_dir / directory),
                          digests=False)
        if problems:
            found.append(f"{directory.as_posix()}: {'; '.join(problems)}")
    return found


def recorded_digests(contents: BundleContents) -> dict[str, str]:
    """Archive path of each output file to pack -> the SHA-256 its task recorded."""
    return {f"work/{directory.as_posix()}/{name}": entry["sha256"]
            for directory in contents.output_dirs
            for name, entry in (recorded_outputs(contents.work_dir / directory) or {}).items()}


def _refusal(damaged: list[str]) -> SchedlabError:
    return SchedlabError(f"not packing {len(damaged)} damaged cached output(s), first {damaged[0]} "
                         "('schedlab verify-cache --remove-damaged', then build again)")


def _members(contents: BundleContents) -> dict[str, Callable[[], bytes] | Path]:
    """Archive path (below the top directory) -> file to copy, or the bytes to write."""
    root = contents.project_root
    members: dict[str, Callable[[], bytes] | Path] = {
        "recipe.json": lambda: _json_bytes(contents.recipe),
        "inputs.json": lambda: _json_bytes(contents.inputs),
        "code.json": lambda: _json_bytes({**git_state(root), "source_sha256": source_hash(root)}),
        "environment.json": lambda: _json_bytes(environment()),
    }
    for path in source_files(root):
        members[f"source/{path.as_posix()}"] = root / path
    if (contents.work_dir / RUN_TIMES).is_file():
        members[RUN_TIMES] = contents.work_dir / RUN_TIMES
    for directory in contents.output_dirs:
        for path in sorted((contents.work_dir / directory).rglob("*")):
            if path.is_file() and path.relative_to(contents.work_dir) not in contents.left_out:
                members[f"work/{path.relative_to(contents.work_dir).as_posix()}"] = path
    return members


def _add(archive: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(f"{BUNDLE_ROOT}/{name}")
    info.size, info.mode, info.mtime = len(data), 0o644, 0
    archive.addfile(info, io.BytesIO(data))


def _add_link(archive: tarfile.TarFile, name: str, target: str) -> None:
    """``name`` as a hard link to the member ``target`` (same bytes): stored once, unpacked as two names."""
    info = tarfile.TarInfo(f"{BUNDLE_ROOT}/{name}")
    info.type, info.linkname, info.mode, info.mtime = tarfile.LNKTYPE, f"{BUNDLE_ROOT}/{target}", 0o644, 0
    archive.addfile(info)


def create_bundle(archive_path: Path, contents: BundleContents) -> None:
    """Write the bundle of ``contents`` to ``archive_path`` (a ``.tar.gz``); refuse, in one line, when
    an output to pack is not what its task wrote (``schedlab.output_digests``).

    A file whose bytes an earlier member already holds (runs that differ only in a parameter
    without effect on them, say) is stored as a hard link to it: every name is kept, and
    compared on verify, but the payload is stored once."""
    damaged = misshapen_outputs(contents)
    if damaged:
        raise _refusal(damaged)
    expected = recorded_digests(contents)
    manifest = []
    first_with: dict[str, str] = {}
    with (
        atomic_path(archive_path) as temporary,
        open(temporary, "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as packed,
        tarfile.open(fileobj=packed, mode="w", format=tarfile.PAX_FORMAT) as archive,
    ):
        for name, member in sorted(_members(contents).items()):
            data = member.read_bytes() if isinstance(member, Path) else member()
            digest = hashlib.sha256(data).hexdigest()
            if expected.get(name, digest) != digest:  # each file is read once: checked as it is packed
                raise _refusal([f"{name.removeprefix('work/')}: {DIGEST_DIFFERS}"])
            manifest.append(f"{digest}  {name}\n")
            if digest in first_with:
                _add_link(archive, name, first_with[digest])
            else:
                first_with[digest] = name
                _add(archive, name, data)
        _add(archive, MANIFEST, "".join(manifest).encode())


def extract_bundle(archive_path: Path, destination: Path) -> Path:
    """Unpack a bundle below ``destination``; return its top directory."""
    try:
        with tarfile.open(archive_path, "r:gz") as archive:
            archive.extractall(destination, filter="data")
    except (OSError, tarfile.TarError) as error:
        raise SchedlabError(f"{archive_path}: not a readable bundle ({error})") from error
    root = destination / BUNDLE_ROOT
    if not (root / MANIFEST).is_file():
        raise SchedlabError(f"{archive_path}: no {BUNDLE_ROOT}/{MANIFEST}: not a schedlab bundle")
    return root


def manifest_problems(root: Path) -> list[str]:
    """Files of an unpacked bundle that are missing, changed or not in its manifest."""
    expected = {}
    for line in (root / MANIFEST).read_text(encoding="utf-8").splitlines():
        digest, _, name = line.partition("  ")
        expected[name] = digest
    present = {path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file()} - {MANIFEST}
    problems = [f"{name}: listed in the manifest but missing" for name in sorted(expected.keys() - present)]
    problems += [f"{name}: not in the manifest" for name in sorted(present - expected.keys())]
    problems += [
        f"{name}: SHA-256 differs from the manifest (file changed)"
        for name in sorted(present & expected.keys())
        if sha256_of(root / name) != expected[name]
    ]
    return problems


DOCUMENTS = ("recipe.json", "inputs.json", "code.json", "environment.json")
"""The JSON documents every bundle holds beside its work, source and manifest (``_members``)."""


def document_problems(root: Path) -> list[str]:
    """Each of ``DOCUMENTS`` an unpacked bundle lacks, or holds as something other than a JSON object:
    a bundle made otherwise than by ``create_bundle`` is refused, naming the document, before it is read."""
    problems = []
    for name in DOCUMENTS:
        try:
            document = json.loads((root / name).read_text(encoding="utf-8"))
        except FileNotFoundError:
            problems.append(f"{name}: missing (every bundle holds one)")
            continue
        except (OSError, ValueError) as error:
            problems.append(f"{name}: not a JSON document ({str(error).splitlines()[0]})")
            continue
        if not isinstance(document, dict):
            problems.append(f"{name}: not a JSON object")
    if not problems:
        recipe = json.loads((root / "recipe.json").read_text(encoding="utf-8"))
        shapes = {"task": str, "report": str, "parameters": dict, "settings": dict}
        problems += [f"recipe.json: no {field!r} ({kind.__name__})" for field, kind in shapes.items()
                     if not isinstance(recipe.get(field), kind)]
    return problems


def completeness_problems(root: Path) -> list[str]:
    """What an unpacked bundle lacks of the recipe's closure: the report's directory, a directory a
    packed task needs (its ``task.json`` names each requirement's key, which ends that directory's
    name), or a file a packed task wrote (its ``task.json`` records each; the exports the recipe
    lists as left out apart).  A deletion of files together with their manifest lines is caught here."""
    recipe = json.loads((root / "recipe.json").read_text(encoding="utf-8"))
    work = root / "work"
    problems = [] if (root / recipe["report"]).is_dir() else [f"{recipe['report']}: the report is not in the bundle"]
    left_out = set(recipe.get("left_out", []))
    directories = output_directories(work) if work.is_dir() else []
    keys = {directory.name.rpartition("-")[2] for directory in directories}
    for directory in directories:
        name = f"work/{directory.relative_to(work).as_posix()}"
        try:
            record = json.loads((directory / RECORD_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            problems.append(f"{name}: no readable {RECORD_FILE}")
            continue
        if not directory.name.endswith(f"-{record.get('key')}") and directory.name != record.get("key"):
            problems.append(f"{name}: its {RECORD_FILE} is of another task (key {record.get('key')})")
        problems += [f"{name}: a task it needs (key {key}) is not in the bundle"
                     for key in record.get("requirements", []) if key not in keys]
        outputs = {file: entry for file, entry in (record.get("outputs") or {}).items()
                   if f"{name}/{file}" not in left_out}
        problems += [f"{name}/{problem}" for problem in damage(directory, outputs)]
        if "outputs" not in record:
            problems.append(f"{name}: its {RECORD_FILE} records no output digests")
    return problems


def unproven_commit(root: Path, repository: Path | None) -> str | None:
    """Why the commit ``code.json`` names cannot vouch for the bundled ``source/``, or None when it can
    be checked here: a commit no checkout here holds, or a tree that had uncommitted changes."""
    code = json.loads((root / "code.json").read_text(encoding="utf-8"))
    commit = code.get("commit")
    if not commit:
        return "code.json names no commit"
    if code.get("uncommitted_changes") is not False:
        return f"commit {str(commit)[:12]} had uncommitted changes when the bundle was made: it cannot vouch for source/"
    if repository is None or commit_source_hash(repository, commit) is None:
        return f"commit {str(commit)[:12]} is in no checkout here (--repo names one)"
    return None


def record_problems(root: Path) -> list[str]:
    """Where ``inputs.json`` or ``environment.json`` disagree with the bundled tasks' own records: each
    task's input checksum must be the one ``inputs.json`` lists for it, and the libraries ``environment.json``
    names must be at the versions the tasks recorded running under."""
    inputs = json.loads((root / "inputs.json").read_text(encoding="utf-8"))
    bundled = json.loads((root / "environment.json").read_text(encoding="utf-8"))
    packages = {distribution_key(name): version for name, version in bundled.get("packages", {}).items()}
    python = str(bundled.get("python", "")).split(" ")[0]
    problems: list[str] = []
    for path in sorted((root / "work").glob("*/*/task.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        name = f"{path.parent.parent.name}/{path.parent.name}"
        listed, recorded = inputs.get(name), record.get("input_fingerprint")  # a task reading no outside input: none
        if listed != recorded:
            problems.append(f"inputs.json: {name}'s input checksum {listed!r} is not the one its task recorded "
                            f"({recorded!r})")
        for library, version in (record.get("environment") or {}).items():
            claimed = python if library == "python" else packages.get(library)
            if claimed != version:
                problems.append(f"environment.json: {library} {claimed or 'absent'}, where {name} recorded "
                                f"running under {version}")
                break
    return list(dict.fromkeys(problems))


def provenance_problems(root: Path, repository: Path | None = None, log=None) -> list[str]:
    """Whether ``code.json`` tells the truth about ``source/``: its ``source_sha256`` must be the hash of
    the shipped source; and when ``repository`` (a git checkout) holds its commit, and the bundle was
    made from a clean tree, that commit's sources must be the shipped ones."""
    code = json.loads((root / "code.json").read_text(encoding="utf-8"))
    shipped = source_hash(root / "source")
    problems = []
    if code.get("source_sha256") != shipped:
        problems.append(f"code.json: source_sha256 {str(code.get('source_sha256'))[:12]} is not the hash of the "
                        f"bundled source/ ({shipped[:12]})")
    commit = code.get("commit")
    at_commit = None
    if repository is not None and commit and code.get("uncommitted_changes") is False:
        at_commit = commit_source_hash(repository, commit)
        if at_commit is not None and at_commit != shipped:
            problems.append(f"code.json: commit {commit[:12]} of {repository} holds other sources than the "
                            "bundled source/")
    if log is not None:
        log(f"commit {str(commit)[:12]}: " + (f"its sources checked in {repository}" if at_commit is not None else
            "not checked (made from a tree with uncommitted changes, or no checkout here holds it: --repo)"))
    return problems


def commit_source_hash(repository: Path, commit: str) -> str | None:
    """``source_hash`` of the source snapshot as it is in ``commit`` of the git ``repository``; None when
    git or the commit is not there.  One ``git cat-file --batch`` reads every file."""
    listing = _git(repository, "ls-tree", "-r", "-z", commit)
    if listing is None:
        return None
    blobs = sorted((name, meta.split()[2]) for meta, _, name in
                   (entry.decode().partition("\t") for entry in listing.split(b"\0") if entry) if _is_source_name(name))
    contents = _git(repository, "cat-file", "--batch", given="".join(f"{blob}\n" for _, blob in blobs).encode())
    if contents is None:
        return None
    lines, offset = [], 0
    for name, _ in blobs:
        header_end = contents.index(b"\n", offset)
        size = int(contents[offset:header_end].split()[2])
        data = contents[header_end + 1: header_end + 1 + size]
        offset = header_end + 1 + size + 1  # the blob, then a newline
        lines.append(f"{name}  {hashlib.sha256(data).hexdigest()}\n")
    return hashlib.sha256("".join(lines).encode()).hexdigest()


def _is_source_name(name: str) -> bool:
    """Whether a path relative to the project root is part of the source snapshot (``source_files``)."""
    path = Path(name)
    return name in SOURCE_FILES or (
        path.parts[0] in SOURCE_PACKAGES and path.suffix in SOURCE_SUFFIXES and "__pycache__" not in path.parts)


def compare_trees(expected: Path, actual: Path, names: Iterable[str]) -> list[str]:
    """Files (relative paths) of ``expected`` that ``actual`` lacks or holds with other bytes."""
    problems = []
    for name in names:
        if not (actual / name).is_file():
            problems.append(f"{name}: not produced by the rerun")
        elif (actual / name).read_bytes() != (expected / name).read_bytes():
            problems.append(f"{name}: the rerun produced different bytes")
    return problems


def recipe_command(recipe: Mapping) -> list[str]:
    """The ``luigi`` command line that reruns the recipe's root task with a local scheduler."""
    command = [sys.executable, "-m", "luigi", "--module", "pipeline", recipe["task"], "--local-scheduler"]
    for name, value in sorted(recipe["parameters"].items()):
        command += [f"--{name.replace('_', '-')}", value]
    return command


def rerun_settings(root: Path, work_dir: Path, trace_dirs: list[str] | None = None) -> dict[str, str]:
    """The environment variables a rerun of the unpacked bundle at ``root`` sets: its own source
    and configuration, the work directory, and the recipe's traces (found in ``trace_dirs``,
    by default the directories the recipe recorded).  Only directories that exist are passed (an
    explicit missing one is refused); with none, the rerun searches the default, as the recipe did."""
    settings = json.loads((root / "recipe.json").read_text(encoding="utf-8"))["settings"]
    existing = [d for d in (trace_dirs if trace_dirs is not None else settings["trace_dirs"]) if Path(d).is_dir()]
    return {
        "PYTHONPATH": str(root / "source"),
        "LUIGI_CONFIG_PATH": str(root / "source" / "luigi.cfg"),
        "SCHEDLAB_WORK_DIR": str(work_dir),
        **({"SCHEDLAB_TRACE_DIRS": os.pathsep.join(existing)} if existing else {}),
        "SCHEDLAB_TRACES": ",".join(settings["traces"]),
    }


def shell_command(command: list[str], variables: Mapping[str, str], cwd: Path) -> str:
    """``command`` run in ``cwd`` with ``variables`` set, as one line a POSIX shell parses back
    into exactly these words (JSON list parameters hold spaces, quotes and brackets)."""
    assignments = [f"{name}={shlex.quote(value)}" for name, value in variables.items()]
    return f"cd {shlex.quote(str(cwd))} && {' '.join(assignments)} {shlex.join(command)}"


def version_differences(root: Path) -> list[str]:
    """Python and schedlab's libraries as the bundle recorded them (``environment.json``) against this
    machine's, one line per difference: the first thing to suspect when bytes differ."""
    bundled = json.loads((root / "environment.json").read_text(encoding="utf-8"))
    packages = {distribution_key(name): version for name, version in bundled["packages"].items()}
    here = dependency_versions()
    differences = []
    bundled_python = bundled["python"].split()[0]
    if bundled_python != here["python"]:
        differences.append(f"Python {bundled_python} in the bundle, {here['python']} here")
    for name, version in here.items():
        if name != "python" and packages.get(name) != version:
            differences.append(f"{name} {packages.get(name, 'absent')} in the bundle, {version} here")
    return differences


def _task_records(work: Path) -> dict[tuple[str, str], dict]:
    """``(family, label)`` -> ``task.json`` of every output directory below ``work`` (``<Family>/<label>-<key>``)."""
    records = {}
    for record in work.glob("*/*/task.json"):
        label = record.parent.name.rpartition("-")[0]
        records[(record.parent.parent.name, label)] = json.loads(record.read_text(encoding="utf-8"))
    return records


def _what_changed(bundled: dict, rerun: dict | None) -> str:
    if rerun is None:
        return "the rerun made no task of this name (its parameters changed?)"
    causes = []
    old_code, new_code = bundled.get("code_versions", {}), rerun.get("code_versions", {})
    changed = sorted(name for name in old_code.keys() | new_code.keys() if old_code.get(name) != new_code.get(name))
    if changed:
        causes.append("code changed in " + ", ".join(
            f"{name} ({old_code.get(name, 'absent')[:12]} -> {new_code.get(name, 'absent')[:12]})" for name in changed))
    if bundled.get("input_fingerprint") != rerun.get("input_fingerprint"):
        causes.append(f"input checksum {bundled.get('input_fingerprint')} -> {rerun.get('input_fingerprint')}")
    if bundled.get("parameters") != rerun.get("parameters"):
        causes.append("parameters changed")
    if not causes and bundled.get("requirements") != rerun.get("requirements"):
        causes.append("a task it needs changed (see that task's line)")
    return "; ".join(causes) or "same code, inputs and parameters: the outputs differ all the same (nondeterminism)"


def explain_differences(expected: Path, actual: Path, problems: list[str]) -> list[str]:
    """Per output directory with a problem of ``compare_trees``, its cause read from the two ``task.json``."""
    directories = sorted({"/".join(problem.split(":", 1)[0].split("/")[:2]) for problem in problems})
    rerun = _task_records(actual)
    lines = []
    for directory in directories:
        record = expected / directory / "task.json"
        if not record.is_file():
            continue
        family, name = directory.split("/")
        label = name.rpartition("-")[0]
        bundled = json.loads(record.read_text(encoding="utf-8"))
        lines.append(f"{directory}: {_what_changed(bundled, rerun.get((family, label)))}")
    return lines


@dataclass(frozen=True)
class Verification:
    manifest_problems: list[str]
    rerun_problems: list[str]
    files_compared: int
    causes: tuple[str, ...] = ()
    version_differences: tuple[str, ...] = ()
    content_problems: tuple[str, ...] = ()
    """What the bundle lacks of its recipe's closure, or where ``code.json`` disagrees with ``source/``."""
    unproven: tuple[str, ...] = ()
    """What the bundle states that cannot be checked here (its commit, say): a verification with any is
    never called OK."""

    @property
    def ok(self) -> bool:
        return not self.manifest_problems and not self.content_problems and not self.rerun_problems


def verify_bundle(archive_path: Path, scratch: Path, trace_dirs: list[str] | None = None, log=print,
                  find_traces: Callable[[list[Path]], Mapping[str, Path]] | None = None,
                  repository: Path | None = None) -> Verification:
    """Check a bundle's manifest, that it holds its recipe's whole closure and that ``code.json``
    describes its ``source/`` (``completeness_problems``, ``provenance_problems``, the commit checked in
    ``repository`` when it holds it); then rerun its recipe from its own source in ``scratch`` and
    compare, both ways: every bundled file with the rerun's, and every file of the rerun's outputs
    must be in the bundle (the exports the recipe lists as left out apart).

    ``trace_dirs`` are where to find the real traces the recipe names (their checksums are
    part of the task keys, so a different file is caught); by default the directories
    recorded in the recipe.  The rerun is skipped when a check before it fails.  ``log``
    hears each step, and the rerun's own progress lines as they come.
    """
    require_regular_file(archive_path, "a bundle archive")
    log(f"unpacking {archive_path} ({archive_path.stat().st_size / 1e6:,.1f} MB)")
    root = extract_bundle(archive_path, scratch / "bundle")
    log("checking the SHA-256 of every file against the manifest")
    problems = manifest_problems(root) or document_problems(root)
    if problems:
        return Verification(problems, [], 0)
    log("checking that the bundle holds every output its tasks recorded and that code.json describes source/")
    content = (*completeness_problems(root), *provenance_problems(root, repository, log), *record_problems(root))
    if content:
        return Verification([], [], 0, content_problems=content)
    unproven = tuple(reason for reason in [unproven_commit(root, repository)] if reason)
    recipe = json.loads((root / "recipe.json").read_text(encoding="utf-8"))
    versions = tuple(version_differences(root))
    for line in versions:
        log(f"version differs: {line}")
    log(compiled_loop_for_rerun(root))
    rerun_dir = scratch / "rerun"
    rerun_dir.mkdir()
    variables = rerun_settings(root, rerun_dir / "work", trace_dirs)
    if find_traces is not None:
        _check_traces_present(recipe, variables.get("SCHEDLAB_TRACE_DIRS", "").split(os.pathsep), find_traces)
    command = recipe_command(recipe)
    log(f"manifest intact; rerunning the recipe:\n  {shell_command(command, variables, rerun_dir)}")
    returncode, errors = _run_logging_output(command, rerun_dir, {**_clean_environment(), **variables}, log)
    if returncode != 0:
        return Verification([], [f"the rerun failed (exit status {returncode}):\n{errors}"], 0, (), versions,
                            unproven=unproven)
    bundled = sorted(path.relative_to(root / "work").as_posix() for path in (root / "work").rglob("*") if path.is_file())
    log(f"comparing the {len(bundled):,} bundled files with the rerun's, byte for byte")
    problems = compare_trees(root / "work", rerun_dir / "work", bundled)
    left_out = {name.removeprefix("work/") for name in recipe.get("left_out", [])}
    made = {path.relative_to(rerun_dir / "work").as_posix()
            for directory in output_directories(rerun_dir / "work") for path in directory.rglob("*") if path.is_file()}
    problems += [f"{name}: made by the rerun but not in the bundle" for name in sorted(made - set(bundled) - left_out)]
    causes = tuple(explain_differences(root / "work", rerun_dir / "work", problems))
    return Verification([], problems, len(bundled), causes, versions, unproven=unproven)


def compiled_loop_for_rerun(root: Path) -> str:
    """Give the unpacked bundle's source the compiled event loop built here, when it was built from the
    bundle's own ``_event_loop.c`` byte for byte (a bundle ships sources, not binaries); say which engine
    the rerun uses: without it, the rerun replays on the interpreted engine, the same schedules, slower."""
    from schedlab.simulators.batch import compiled

    source = root / "source" / "simulators" / "batch" / "_event_loop.c"
    if not source.is_file():
        return "the bundle ships no compiled event loop source: the rerun replays on the interpreted engine"
    if not compiled.available():
        return ("no compiled event loop was built here (no C compiler at install): the rerun replays on the "
                "interpreted engine, the same schedules, slower")
    if sha256_of(source) != compiled.loaded_source_sha256():
        return ("the bundle's _event_loop.c is not the one built here: the rerun replays on the interpreted "
                "engine, the same schedules, slower")
    built = compiled.extension_path()
    shutil.copy2(built, source.with_name(built.name))
    return "the rerun replays on the compiled event loop built here from the bundle's own _event_loop.c"


def _check_traces_present(recipe: Mapping, trace_dirs: list[str], find_traces) -> None:
    """One line, before anything runs, when a trace the recipe names is in none of ``trace_dirs``."""
    found = find_traces([Path(d) for d in trace_dirs if d])
    missing = [name for name in recipe["settings"]["traces"] if name not in found]
    if missing:
        raise SchedlabError(f"the recipe's trace(s) {', '.join(missing)} are in none of {', '.join(trace_dirs)}: "
                            "pass --trace-dir DIR where they are")


def _run_logging_output(command: list[str], cwd: Path, env: dict[str, str], log) -> tuple[int, str]:
    """Run ``command``, passing each line of its stdout (the build's progress) to ``log`` as it
    comes; its exit status and the last 30 lines of its output, its stderr (Luigi's log) last.

    Stderr goes to a file meanwhile: two pipes read one after the other could fill and block."""
    output: list[str] = []
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errors:
        with subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=errors, text=True) as process:
            for line in process.stdout:
                output.append(line.rstrip("\n"))
                log(f"  {output[-1]}")
        errors.seek(0)
        tail = "\n".join([*output, *errors.read().splitlines()][-30:])
    return process.returncode, tail


def _clean_environment() -> dict[str, str]:
    """This process's environment without the schedlab and Luigi settings the recipe sets itself."""
    return {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("SCHEDLAB_") and key not in ("PYTHONPATH", "LUIGI_CONFIG_PATH")
    }
