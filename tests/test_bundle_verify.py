"""``schedlab bundle``: a bundle made in one directory verifies in another, and any change is caught.

The bundle holds a small FullReport (two tiny synthetic workloads, no stage).  ``verify``
reruns its recipe from the bundled source in a fresh work directory and compares every
output byte for byte; a file changed after the fact fails the manifest check, and a file
changed together with its manifest line fails the byte comparison.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from schedlab.output_digests import seal

from schedlab.reports.bundle import BUNDLE_ROOT, MANIFEST, BundleContents, create_bundle, extract_bundle, manifest_problems
from schedlab.cli import main


def schedlab(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", "import sys; from schedlab.cli import main; sys.exit(main())", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    maker = tmp_path_factory.mktemp("maker")
    archive = maker / "report-bundle.tar.gz"
    done = schedlab(
        "bundle", "create", "-o", str(archive), "--work-dir", str(maker / "work"), "--stages", "",
        "--synthetic-jobs", "150", "--synthetic-machine-procs", "16,32", "--synthetic-seed", "3", cwd=maker,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == f"bundle written: {archive} ({archive.stat().st_size / 1e6:,.1f} MB)"
    assert not (maker / "work" / "ArchiveBundle").exists(), "a second copy of the bundle stayed in the work directory"
    return archive


def repack(root: Path, archive: Path) -> None:
    with tarfile.open(archive, "w:gz") as packed:
        packed.add(root, arcname=BUNDLE_ROOT)


def test_bundle_holds_report_recipe_code_environment_and_manifest(bundle, tmp_path):
    root = extract_bundle(bundle, tmp_path)
    assert manifest_problems(root) == []
    names = {path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file()}
    assert {"recipe.json", "inputs.json", "code.json", "environment.json", MANIFEST} <= names
    assert any(name.startswith("work/FullReport/") and name.endswith("/index.html") for name in names)
    assert sum(name.startswith("work/ReplayTrace/") and name.endswith("/schedule.parquet") for name in names) == 6
    # The replay's schedule again as SWF and Batsim CSV: left out, and said so in the recipe.
    assert not [name for name in names if name.endswith(("/schedule.swf", "/batsim_jobs.csv"))]
    left_out = json.loads((root / "recipe.json").read_text())["left_out"]
    assert len(left_out) == 12 and all(name.startswith("work/ReplayTrace/") for name in left_out)
    assert "source/simulators/batch/conservative.py" in names and "source/luigi.cfg" in names
    assert "source/pipeline/luigi-defaults.cfg" in names and "source/workloads/models/kth-sp2-1996-2.2.json" in names
    code = (root / "code.json").read_text()
    assert '"source_sha256"' in code and '"commit"' in code
    assert '"pandas"' in (root / "environment.json").read_text()
    listed = dict(reversed(line.split("  ", 1)) for line in (root / MANIFEST).read_text().splitlines())
    recipe = root / "recipe.json"
    assert listed["recipe.json"] == hashlib.sha256(recipe.read_bytes()).hexdigest()


def test_verify_in_another_directory_reruns_the_recipe_and_matches_byte_for_byte(bundle, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = schedlab("bundle", "verify", str(bundle), cwd=elsewhere)
    print(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    from schedlab import checkout_root
    from schedlab.reports.bundle import unproven_commit

    # OK only where this checkout holds the bundle's clean commit (CI's clone); else it says what is unproven.
    unproven = unproven_commit(extract_bundle(bundle, tmp_path / "unpacked"), checkout_root())
    verdict = "OK: " if unproven is None else f"NOT PROVEN: {unproven}; "
    assert done.stdout.splitlines()[-1].startswith(f"{bundle}: {verdict}") and "byte for byte" in done.stdout
    # It says what it does as it goes, the rerun's progress included.
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"unpacking {bundle}") and "checking the SHA-256" in lines[1]
    assert any(re.fullmatch(r"  \[ *\d+/\d+ tasks\] page written: TraceReport\(.*\)", line) for line in lines), lines
    assert any(line.startswith("comparing the ") for line in lines), lines
    # Issue 69 item 12: the rerun uses the compiled loop built here from the bundle's own source, or says it cannot.
    from schedlab.simulators.batch import compiled

    engine = "the rerun replays on the compiled event loop" if compiled.available() else "interpreted engine"
    assert any(engine in line for line in lines), lines


def test_the_printed_rerun_command_runs_as_pasted_into_a_shell(bundle, tmp_path):
    done = schedlab("bundle", "extract", str(bundle), str(tmp_path / "unpacked"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    command = done.stdout.splitlines()[-1].strip()
    assert "--synthetic-machine-procs '[16, 32]'" in command, command  # a JSON list with a space, quoted
    rerun = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=300, check=False)
    assert rerun.returncode == 0, rerun.stdout[-3000:] + rerun.stderr[-3000:]
    rerun_index = Path(rerun.stdout.splitlines()[-1])
    assert rerun_index.is_relative_to(tmp_path / "unpacked" / "rerun-work" / "FullReport")
    (bundled_index,) = (tmp_path / "unpacked" / BUNDLE_ROOT / "work" / "FullReport").glob("*/index.html")
    assert rerun_index.read_bytes() == bundled_index.read_bytes()


def test_verify_fails_clearly_when_one_file_changed(bundle, tmp_path):
    root = extract_bundle(bundle, tmp_path / "unpacked")
    metrics = next((root / "work" / "FullReport").glob("*/metrics.csv"))
    metrics.write_text(metrics.read_text().replace("fcfs", "FCFS", 1))
    tampered = tmp_path / "tampered.tar.gz"
    repack(root, tampered)
    done = schedlab("bundle", "verify", str(tampered), cwd=tmp_path)
    assert done.returncode == 1
    relative = metrics.relative_to(root).as_posix()
    assert "manifest check FAILED" in done.stderr and f"{relative}: SHA-256 differs" in done.stderr, done.stderr


def test_verify_fails_when_a_changed_file_comes_with_a_matching_manifest(bundle, tmp_path):
    root = extract_bundle(bundle, tmp_path / "unpacked")
    metrics = next((root / "work" / "FullReport").glob("*/metrics.csv"))
    old = hashlib.sha256(metrics.read_bytes()).hexdigest()
    metrics.write_text(metrics.read_text().replace("fcfs", "FCFS", 1))
    manifest = root / MANIFEST
    manifest.write_text(manifest.read_text().replace(old, hashlib.sha256(metrics.read_bytes()).hexdigest()))
    forged = tmp_path / "forged.tar.gz"
    repack(root, forged)
    assert main(["bundle", "verify", str(forged)]) == 1


def test_verify_rejects_a_file_that_is_not_a_bundle(tmp_path, capsys):
    (tmp_path / "x.tar.gz").write_bytes(b"not an archive")
    assert main(["bundle", "verify", str(tmp_path / "x.tar.gz")]) == 1
    assert "not a readable bundle" in capsys.readouterr().err


def test_a_file_with_the_bytes_of_another_is_stored_once_and_unpacked_under_both_names(tmp_path):
    work, project = tmp_path / "work", tmp_path / "project"
    schedule = b"the same schedule " * 1000
    for run in ("Runs/a-1", "Runs/b-2"):
        (work / run).mkdir(parents=True)
        (work / run / "schedule.parquet").write_bytes(schedule)
        outputs = {"schedule.parquet": {"bytes": len(schedule), "sha256": hashlib.sha256(schedule).hexdigest()}}
        (work / run / "task.json").write_text(json.dumps(seal({"key": run[-1], "outputs": outputs})))
    project.mkdir()
    contents = BundleContents(work, (Path("Runs/a-1"), Path("Runs/b-2")), {"task": "T"}, {}, project)
    create_bundle(tmp_path / "b.tar.gz", contents)
    with tarfile.open(tmp_path / "b.tar.gz") as archive:
        members = {member.name.removeprefix(f"{BUNDLE_ROOT}/"): member for member in archive.getmembers()}
    assert members["work/Runs/a-1/schedule.parquet"].isfile()
    assert members["work/Runs/b-2/schedule.parquet"].islnk() and members["work/Runs/b-2/task.json"].isfile()
    root = extract_bundle(tmp_path / "b.tar.gz", tmp_path / "unpacked")
    assert manifest_problems(root) == []
    assert (root / "work/Runs/b-2/schedule.parquet").read_bytes() == b"the same schedule " * 1000


def test_the_recipe_records_a_relative_trace_directory_as_an_absolute_one(tmp_path, monkeypatch):
    from pipeline import FullReport, settings
    from pipeline.bundle import bundle_contents

    (tmp_path / "traces").mkdir()
    monkeypatch.chdir(tmp_path)
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=["traces"]):
        recipe = bundle_contents(FullReport(stages=[], synthetic_jobs=150)).recipe
    assert recipe["settings"]["trace_dirs"] == [str(tmp_path / "traces")]


def _task(directory: Path, code: dict, fingerprint=None, payload=b"x") -> None:
    directory.mkdir(parents=True)
    (directory / "task.json").write_text(json.dumps({"code_versions": code, "input_fingerprint": fingerprint,
                                                     "parameters": {}, "requirements": []}))
    (directory / "out.csv").write_bytes(payload)


def test_a_difference_is_explained_by_the_changed_code_or_input(tmp_path):
    from schedlab.reports.bundle import compare_trees, explain_differences

    expected, actual = tmp_path / "bundled", tmp_path / "rerun"
    _task(expected / "ReplayTrace" / "mine-aaaa", {"my_policy": "1" * 64, "schedlab.simulators.batch": "2" * 64})
    _task(actual / "ReplayTrace" / "mine-bbbb", {"my_policy": "3" * 64, "schedlab.simulators.batch": "2" * 64})
    _task(expected / "ParseTrace" / "kth-cccc", {"schedlab.parsers.swf": "4" * 64}, fingerprint="sha256:old")
    _task(actual / "ParseTrace" / "kth-dddd", {"schedlab.parsers.swf": "4" * 64}, fingerprint="sha256:new")
    names = ["ReplayTrace/mine-aaaa/out.csv", "ParseTrace/kth-cccc/out.csv"]
    problems = compare_trees(expected, actual, names)
    assert len(problems) == 2 and all("not produced by the rerun" in problem for problem in problems)
    causes = explain_differences(expected, actual, problems)
    assert causes == ["ParseTrace/kth-cccc: input checksum sha256:old -> sha256:new",
                      "ReplayTrace/mine-aaaa: code changed in my_policy (111111111111 -> 333333333333)"]


def test_a_version_difference_is_reported(tmp_path):
    from schedlab.reports.bundle import version_differences
    from schedlab.versions import dependency_versions

    here = dependency_versions()
    packages = {name: version for name, version in here.items() if name != "python"}
    (tmp_path / "environment.json").write_text(json.dumps({"python": f"{here['python']} (main)",
                                                           "packages": {**packages, "numpy": "0.0.1"}}))
    assert version_differences(tmp_path) == [f"numpy 0.0.1 in the bundle, {here['numpy']} here"]


def test_a_missing_trace_stops_verify_in_one_line(tmp_path):
    from schedlab.reports.bundle import _check_traces_present
    from schedlab.errors import SchedlabError

    recipe = {"settings": {"traces": ["KTH-SP2-1996-2.2"]}}
    with pytest.raises(SchedlabError, match=r"^the recipe's trace\(s\) KTH-SP2-1996-2.2 are in none of .*--trace-dir"):
        _check_traces_present(recipe, [str(tmp_path)], lambda directories: {})


def forge(root: Path, archive: Path, change) -> None:
    """Apply ``change`` to an unpacked bundle, make its manifest agree with the result, repack."""
    change(root)
    lines = [f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.relative_to(root).as_posix()}\n"
             for path in sorted(root.rglob("*")) if path.is_file() and path.name != MANIFEST]
    (root / MANIFEST).write_text("".join(lines))
    repack(root, archive)


def delete_metrics(metrics: Path) -> tuple[Path, str]:
    metrics.unlink()
    return metrics, "missing"


def add_a_page_beside(metrics: Path) -> tuple[Path, str]:
    page = metrics.with_name("extra-claims.csv")
    page.write_text("claim,verdict\nall,reproduced\n")
    return page, "not written by its task"


@pytest.mark.parametrize("change", [delete_metrics, add_a_page_beside])
def test_a_result_changed_with_its_manifest_line_fails_the_contents_check(bundle, tmp_path, change):
    root = extract_bundle(bundle, tmp_path / "unpacked")
    metrics = next((root / "work" / "FullReport").glob("*/metrics.csv"))
    path, problem = change(metrics)
    forge(root, tmp_path / "forged.tar.gz", lambda _: None)  # the manifest made to agree
    done = schedlab("bundle", "verify", str(tmp_path / "forged.tar.gz"), cwd=tmp_path)
    assert done.returncode == 1
    relative = path.relative_to(root).as_posix()
    assert "contents check FAILED" in done.stderr and f"{relative}: {problem}" in done.stderr, done.stderr


def test_a_whole_output_deleted_with_its_manifest_lines_fails_the_contents_check(bundle, tmp_path):
    root = extract_bundle(bundle, tmp_path / "unpacked")
    replay = next((root / "work" / "ReplayTrace").iterdir())
    key = replay.name.rpartition("-")[2]
    forge(root, tmp_path / "thinned.tar.gz", lambda _: shutil.rmtree(replay))
    done = schedlab("bundle", "verify", str(tmp_path / "thinned.tar.gz"), cwd=tmp_path)
    assert done.returncode == 1
    assert f"a task it needs (key {key}) is not in the bundle" in done.stderr, done.stderr


def test_a_forged_source_hash_fails_the_contents_check(bundle, tmp_path):
    root = extract_bundle(bundle, tmp_path / "unpacked")

    def forge_hash(root):
        code = json.loads((root / "code.json").read_text())
        (root / "code.json").write_text(json.dumps({**code, "source_sha256": "0" * 64}))

    forge(root, tmp_path / "forged.tar.gz", forge_hash)
    done = schedlab("bundle", "verify", str(tmp_path / "forged.tar.gz"), cwd=tmp_path)
    assert done.returncode == 1
    assert "code.json: source_sha256 000000000000 is not the hash of the bundled source/" in done.stderr, done.stderr


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout.strip()


def test_the_commit_code_json_names_must_hold_the_bundled_sources(bundle, tmp_path):
    from schedlab.reports.bundle import provenance_problems

    root = extract_bundle(bundle, tmp_path / "unpacked")
    repository = tmp_path / "repository"
    shutil.copytree(root / "source", repository)
    git("init", "-q", cwd=repository)
    git("add", "-A", cwd=repository)
    git("commit", "-q", "-m", "the bundled sources", cwd=repository)
    true_commit = git("rev-parse", "HEAD", cwd=repository)
    (repository / "schedlab" / "__init__.py").write_text("# another version\n", encoding="utf-8")
    git("commit", "-q", "-am", "other sources", cwd=repository)
    other_commit = git("rev-parse", "HEAD", cwd=repository)
    code = json.loads((root / "code.json").read_text())
    for commit, expected in ((true_commit, []), (other_commit, [
            f"code.json: commit {other_commit[:12]} of {repository} holds other sources than the bundled source/"])):
        (root / "code.json").write_text(json.dumps({**code, "commit": commit, "uncommitted_changes": False}))
        heard = []
        assert provenance_problems(root, repository, heard.append) == expected
        assert heard == [f"commit {commit[:12]}: its sources checked in {repository}"]


def edit_in_place(metrics: Path) -> None:  # same size: found by its digest
    metrics.write_bytes(metrics.read_bytes().replace(b"fcfs", b"FCFS", 1))


def add_a_file_beside(metrics: Path) -> None:
    metrics.with_name("metrics-edited.csv").write_bytes(metrics.read_bytes())


# The build bundle create runs first finds a damaged output incomplete, runs its task again and
# packs the fresh output: the bundle never holds a damaged byte (tests/test_cache_digests.py).
@pytest.mark.parametrize("damage", [edit_in_place, add_a_file_beside])
def test_create_packs_no_damaged_byte_of_its_work_directory(bundle, tmp_path, damage):
    work = bundle.parent / "work"
    metrics = next((work / "FullReport").glob("*/metrics.csv"))
    original = metrics.read_bytes()
    try:
        damage(metrics)
        done = schedlab("bundle", "create", "-o", str(tmp_path / "b.tar.gz"), "--work-dir", str(work),
                        "--stages", "", "--synthetic-jobs", "150", "--synthetic-machine-procs", "16,32",
                        "--synthetic-seed", "3", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert metrics.read_bytes() == original and not metrics.with_name("metrics-edited.csv").exists()
    finally:
        metrics.write_bytes(original)
        metrics.with_name("metrics-edited.csv").unlink(missing_ok=True)
    with tarfile.open(tmp_path / "b.tar.gz") as archive:
        names = archive.getnames()
        packed = next(name for name in names if name.endswith("/metrics.csv") and "/FullReport/" in name)
        assert archive.extractfile(packed).read() == original
        assert not any(name.endswith("metrics-edited.csv") for name in names)


def _archive(path: Path, members: dict[str, bytes]) -> Path:
    import io

    manifest = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(members.items()))
    with tarfile.open(path, "w:gz") as archive:
        for name, data in {**members, MANIFEST: manifest.encode()}.items():
            info = tarfile.TarInfo(f"{BUNDLE_ROOT}/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize("members, problem", [
    ({}, "recipe.json: missing (every bundle holds one)"),
    ({"recipe.json": b"not json", "inputs.json": b"{}", "code.json": b"{}", "environment.json": b"{}"},
     "recipe.json: not a JSON document (Expecting value: line 1 column 1 (char 0))"),
    ({"recipe.json": b"[1]", "inputs.json": b"{}", "code.json": b"{}", "environment.json": b"{}"},
     "recipe.json: not a JSON object"),
    ({"recipe.json": b'{"task": "FullReport"}', "inputs.json": b"{}", "code.json": b"{}", "environment.json": b"{}"},
     "recipe.json: no 'report' (str)"),
], ids=["only the manifest", "recipe not JSON", "recipe a list", "recipe without its report"])
def test_a_bundle_not_made_by_create_is_refused_naming_what_it_lacks(tmp_path, capsys, members, problem):
    """Issue 69 item 11: such archives gave an internal error (exit 70)."""
    archive = _archive(tmp_path / "b.tar.gz", members)
    assert main(["bundle", "verify", str(archive)]) == 1
    assert f"  {problem}" in capsys.readouterr().err.splitlines()


@pytest.mark.parametrize("forgery, problem", [
    (lambda root: _edit_json(root / "environment.json", lambda e: e["packages"].update(pandas="0.0.1")),
     "environment.json: pandas 0.0.1, where "),
    (lambda root: _edit_json(root / "inputs.json", lambda i: i.update({name: {"file_sha256": "f" * 64} for name in i})),
     "inputs.json: "),
], ids=["another pandas", "a made-up input checksum"])
def test_forged_provenance_is_refused_against_the_tasks_records(bundle, tmp_path, forgery, problem):
    """Issue 69 item 6: such a bundle verified OK."""
    root = extract_bundle(bundle, tmp_path / "unpacked")
    forge(root, tmp_path / "forged.tar.gz", forgery)
    done = schedlab("bundle", "verify", "-q", str(tmp_path / "forged.tar.gz"), cwd=tmp_path)
    assert done.returncode == 1 and "contents check FAILED" in done.stderr and problem in done.stderr, done.stderr


def test_a_commit_that_cannot_be_checked_is_never_called_ok(bundle, tmp_path):
    root = extract_bundle(bundle, tmp_path / "unpacked")
    forge(root, tmp_path / "forged.tar.gz", lambda root: _edit_json(
        root / "code.json", lambda code: code.update(commit="0" * 40, uncommitted_changes=False)))
    done = schedlab("bundle", "verify", "-q", str(tmp_path / "forged.tar.gz"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1].startswith(
        f"{tmp_path / 'forged.tar.gz'}: NOT PROVEN: commit 000000000000 is in no checkout here (--repo names one); ")
    assert ": OK:" not in done.stdout


def _edit_json(path: Path, change) -> None:
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document))


def test_create_archives_a_closed_loop_study_with_its_resamples(tmp_path):
    """Issue 69 item 12: bundle create had no way to archive a closed-loop or resampled study."""
    done = schedlab("bundle", "create", "-q", "-o", str(tmp_path / "b.tar.gz"), "--work-dir", str(tmp_path / "work"),
                    "--stages", "", "--synthetic-jobs", "60", "--synthetic-machine-procs", "16", "--feedback",
                    "--resamples", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with tarfile.open(tmp_path / "b.tar.gz") as archive:
        recipe = json.loads(archive.extractfile(f"{BUNDLE_ROOT}/recipe.json").read())
    assert recipe["parameters"]["feedback"] == "True" and recipe["parameters"]["resamples"] == "2"
