"""Scale-out on Luigi's central scheduler: luigid plus two worker processes sharing one work directory.

``luigid`` listens on 127.0.0.1; two ``luigi --workers 2`` processes build the same small
FullReport into one shared work directory at the same time.  Neither may fail, each
task must have run in exactly one process (the scheduler hands every task to one
worker), a final run must find everything complete, and the outputs must be
byte-identical to a local-scheduler run.  See
docs/scale-out.md.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from pipeline.build_identity import scheduled_task_ids
from pipeline.full_report import RUN_TIMES_FILE

from tests.conftest import no_traces

SMALL_REPORT = [
    "FullReport", "--stages", "[]", "--synthetic-jobs", "150",
    "--synthetic-machine-procs", "[16, 32, 48]", "--synthetic-seed", "3",
]  # fmt: skip
SHARE_ONLY_CODES = {0, 10, 25}
"""luigi.cfg's return codes when nothing failed: success, already_running, not_run."""
LUIGID = [sys.executable, "-c", "import sys; from luigi.cmdline import luigid; luigid(sys.argv[1:])"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, server: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert server.poll() is None, f"luigid exited: {server.communicate()}"
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"luigid did not listen on 127.0.0.1:{port} within {timeout} s")


def environment(work: Path) -> dict[str, str]:
    env = {**os.environ, "SCHEDLAB_WORK_DIR": str(work), "SCHEDLAB_TRACE_DIRS": no_traces(work.parent.parent)}
    env.pop("SCHEDLAB_TRACES", None)
    return env


def luigi_command(*options: str) -> list[str]:
    return [sys.executable, "-m", "luigi", "--module", "pipeline", *SMALL_REPORT, *options]


def worker_options(port: int, workers: int = 2) -> tuple[str, ...]:
    return ("--scheduler-host", "127.0.0.1", "--scheduler-port", str(port), "--workers", str(workers),
            "--no-lock", "--worker-keep-alive", "--worker-wait-interval", "0.2", "--log-level", "INFO")  # fmt: skip


@contextlib.contextmanager
def luigid(state: Path) -> Iterator[int]:
    """A central scheduler on 127.0.0.1 for the block; yields its port."""
    port = free_port()
    state.mkdir(parents=True)
    # Output to files, not pipes: a pipe nobody reads fills up and blocks the writer.
    with open(state / "luigid.log", "w") as server_log:
        server = subprocess.Popen(
            [*LUIGID, "--address", "127.0.0.1", "--port", str(port), "--state-path", str(state / "state.pickle"),
             "--logdir", str(state)],
            stdout=server_log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        wait_for_port(port, server)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


def files_below(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.name != RUN_TIMES_FILE
    }


def test_two_worker_processes_on_luigid_produce_the_local_outputs(tmp_path):
    repository = Path(__file__).resolve().parents[1]
    local = subprocess.run(
        luigi_command("--local-scheduler"), cwd=repository, env=environment(tmp_path / "local" / "work"),
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert local.returncode == 0, local.stderr[-3000:]

    with luigid(tmp_path / "luigid") as port:
        shared = tmp_path / "shared" / "work"
        log_files = [tmp_path / f"worker{i}.log" for i in range(2)]
        workers = []
        for log_file in log_files:
            with open(log_file, "w") as log:
                command = luigi_command(*worker_options(port))
                workers.append(subprocess.Popen(command, cwd=repository, env=environment(shared), stdout=log, stderr=subprocess.STDOUT))
        codes = [worker.wait(timeout=300) for worker in workers]
    logs = [log_file.read_text() for log_file in log_files]
    for code, log in zip(codes, logs, strict=True):
        # Each process's summary covers its own share: tasks the other ran count as "run
        # by another worker" (10) or "not granted run permission" (25); not failures.
        assert code in SHARE_ONLY_CODES, log[-3000:]
    confirm = subprocess.run(  # at INFO, for Luigi's summary of what it found complete
        luigi_command("--local-scheduler", "--log-level", "INFO"), cwd=repository, env=environment(shared),
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert confirm.returncode == 0 and "complete ones were encountered" in confirm.stderr, confirm.stderr[-3000:]
    assert "ran successfully" not in confirm.stderr

    done = Counter(task for log in logs for task in re.findall(r"Worker\(.*?\) done\s+(\S+\(.*?\))$", log, re.MULTILINE))
    per_process = [len(re.findall(r"Worker\(.*?\) done\s+", log)) for log in logs]
    print(f"\ntasks run per worker process: {per_process}; tasks run twice: {[t for t, n in done.items() if n > 1]}")
    assert sum(done.values()) == 1 + 3 * 3 + 3 + 3, done  # FullReport, replays, workload pages, workloads
    assert max(done.values()) == 1, "a task ran in both processes"
    assert files_below(shared) == files_below(tmp_path / "local" / "work")


def confirm_complete(source: Path, work: Path) -> None:
    """A local-scheduler run of the same command, from ``source``, finds everything built and runs nothing."""
    confirm = subprocess.run(
        luigi_command("--local-scheduler", "--log-level", "INFO"), cwd=source, env=environment(work),
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert confirm.returncode == 0 and "ran successfully" not in confirm.stderr, confirm.stderr[-3000:]


def test_one_luigid_never_lets_two_work_directories_or_two_code_versions_share_a_task(tmp_path):
    """Worker A builds work directory X and is paused (SIGSTOP) while luigid holds its tasks
    pending.  Meanwhile a worker with A's code builds work directory Y: Luigi's ids alone would
    be the same, so it would take A's tasks or be told they were done elsewhere; it must build all
    of Y.  A worker whose code differs in one line of reports/pages.py, pointed at X, must refuse
    to join in one line.  A then resumes and builds all of X."""
    repository = Path(__file__).resolve().parents[1]
    other_code = tmp_path / "other-code"
    for package in ("parsers", "workloads", "simulators", "pipeline", "reports", "schedlab"):
        shutil.copytree(repository / package, other_code / package, ignore=shutil.ignore_patterns("__pycache__"))
    pages = other_code / "reports" / "pages.py"
    pages.write_text(pages.read_text() + "\nEDITED_ON_ANOTHER_HOST = True\n")
    x, y = tmp_path / "x" / "work", tmp_path / "y" / "work"

    with luigid(tmp_path / "luigid") as port:
        url = f"http://127.0.0.1:{port}/"
        with open(tmp_path / "a.log", "w") as log:
            a = subprocess.Popen(luigi_command(*worker_options(port, workers=1)), cwd=repository, env=environment(x),
                                 stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
        try:
            deadline = time.monotonic() + 120
            while not scheduled_task_ids(url) and a.poll() is None and time.monotonic() < deadline:
                time.sleep(0.1)
            a.send_signal(signal.SIGSTOP)
            assert a.poll() is None, (tmp_path / "a.log").read_text()[-3000:]
            assert scheduled_task_ids(url), "worker A scheduled nothing in 120 s"

            same_code_elsewhere = subprocess.run(
                luigi_command(*worker_options(port)), cwd=repository, env=environment(y),
                capture_output=True, text=True, timeout=300, check=False,
            )  # fmt: skip
            assert same_code_elsewhere.returncode == 0, same_code_elsewhere.stderr[-3000:]

            joining = subprocess.run(
                luigi_command(*worker_options(port)), cwd=other_code, env=environment(x),
                capture_output=True, text=True, timeout=300, check=False,
            )  # fmt: skip
            print(f"\nthe worker with other code said: {joining.stderr.strip()}")
            assert joining.returncode == 2, joining.stderr[-3000:]
            assert joining.stderr.count("\n") == 1 and "is building" in joining.stderr and "other code" in joining.stderr
        finally:
            a.send_signal(signal.SIGCONT)
        assert a.wait(timeout=300) == 0, (tmp_path / "a.log").read_text()[-3000:]
    confirm_complete(repository, x)
    confirm_complete(repository, y)
