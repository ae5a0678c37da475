"""The work directory: ``FullReport/latest`` and ``schedlab gc``."""

from __future__ import annotations

import fcntl
import json
import os
import socket
import subprocess
import time
from pathlib import Path

import luigi

from pipeline import FullReport, SyntheticWorkload, settings
from pipeline.cleanup import task_outputs
from pipeline.full_report import dependency_closure
from schedlab.cli import main

from tests.conftest import no_traces

TINY = {"synthetic_machine_procs": [16], "synthetic_jobs": 120, "synthetic_seed": 3, "stages": []}


def build(task) -> None:
    assert luigi.build([task], local_scheduler=True, workers=1, log_level="WARNING")


def output_dirs(work: Path) -> set[Path]:
    return set(task_outputs(work).values())


def test_latest_follows_the_newest_report_and_gc_removes_only_what_nothing_needs(tmp_path, capsys):
    work = tmp_path / "work"
    first, second = FullReport(**TINY), FullReport(**{**TINY, "synthetic_seed": 4})
    with settings.overridden(work_dir=str(work), trace_dirs=[no_traces(tmp_path)]):
        build(first)
        assert (work / "FullReport" / "latest").resolve() == first.output_dir().resolve()
        build(second)
        assert (work / "FullReport" / "latest").resolve() == second.output_dir().resolve()
        needed_by_second = {t.output_dir() for t in dependency_closure(second)}
        only_first = {t.output_dir() for t in dependency_closure(first)} - needed_by_second
        assert only_first  # the seed-3 workload, its replays and pages, the first index

        (work / "FullReport" / ".crashed-write.tmp").mkdir()  # recent: may be a running build's
        old_staging = work / "ReplayTrace" / ".killed-write.tmp"
        old_staging.mkdir()
        (old_staging / "part.parquet").write_bytes(b"x" * 1000)
        two_hours_ago = time.time() - 7200
        os.utime(old_staging, (two_hours_ago, two_hours_ago))

        before = output_dirs(work)
        assert main(["gc", "--dry-run"]) == 0
        assert output_dirs(work) == before and old_staging.exists()
        printed = capsys.readouterr().out
        assert "would free" in printed and "killed write" in printed

        held = work / ".locks" / "ReplayTrace" / "running-elsewhere-0123456789abcdef.lock"
        with open(held, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # the lock of a task another build runs now
            assert main(["gc"]) == 0
        assert output_dirs(work) == before - only_first
        assert not old_staging.exists() and (work / "FullReport" / ".crashed-write.tmp").exists()
        locks = {lock.parent.name + "/" + lock.name.removesuffix(".lock") for lock in (work / ".locks").glob("*/*.lock")
                 if lock.parent.name != "builds"}  # this process's code lock (pipeline.build_identity) is held
        assert locks == {f"{d.parent.name}/{d.name}" for d in output_dirs(work)} | {"ReplayTrace/running-elsewhere-0123456789abcdef"}
        assert second.complete() and not first.complete()
        assert "freed" in capsys.readouterr().out

        build(first)  # a bundle of the first report keeps it, and all it needs, from now on
        bundle = work / "ArchiveBundle" / "bundle-0123456789abcdef"
        bundle.mkdir(parents=True)
        (bundle / "task.json").write_text(json.dumps({"key": "0123456789abcdef", "requirements": [first.task_key()]}))
        build(second)
        assert main(["gc"]) == 0
        assert first.complete() and all(t.complete() for t in dependency_closure(first))
        assert main(["gc", "--keep", "NoSuchFamily"]) == 1


def ended_process_id() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def test_the_next_write_removes_staging_directories_of_ended_writers_only(tmp_path):
    family = tmp_path / "work" / "SyntheticWorkload"
    family.mkdir(parents=True)
    host, ended = socket.gethostname(), ended_process_id()
    killed = family / f".out-1.@{host}@{ended}.abc123_x.tmp"
    running = family / f".out-2.@{host}@{os.getpid()}.def456_y.tmp"
    elsewhere = family / f".out-3.@another-host@{ended}.ghi789_z.tmp"
    unnamed = family / ".out-4.jkl012_w.tmp"  # named before writers were: ``schedlab gc`` removes it once old
    for staging in (killed, running, elsewhere, unnamed):
        staging.mkdir()
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[no_traces(tmp_path)]):
        build(SyntheticWorkload(machine_procs=16, n_jobs=50, seed=3))
    left = sorted(path.name for path in family.iterdir() if path.name.startswith("."))
    assert left == sorted([running.name, elsewhere.name, unnamed.name])
