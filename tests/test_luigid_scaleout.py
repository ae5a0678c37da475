"""Scale-out on Luigi's central scheduler: luigid plus two worker processes sharing one work directory.

``luigid`` listens on 127.0.0.1; two ``luigi --workers 2`` processes build the same small
FullReport into one shared work directory at the same time.  Neither may fail, each
task must have run in exactly one process (the scheduler hands every task to one
worker), a final run must find everything complete, and the outputs must be
byte-identical to a local-scheduler run.  See
docs/scale-out.md.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

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

    port = free_port()
    state = tmp_path / "luigid"
    state.mkdir()
    # Output to files, not pipes: a pipe nobody reads fills up and blocks the writer.
    with open(state / "luigid.log", "w") as server_log:
        server = subprocess.Popen(
            [*LUIGID, "--address", "127.0.0.1", "--port", str(port), "--state-path", str(state / "state.pickle"),
             "--logdir", str(state)],
            stdout=server_log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        wait_for_port(port, server)
        shared = tmp_path / "shared" / "work"
        options = ("--scheduler-host", "127.0.0.1", "--scheduler-port", str(port), "--workers", "2",
                   "--no-lock", "--worker-keep-alive", "--worker-wait-interval", "0.2", "--log-level", "INFO")  # fmt: skip
        log_files = [tmp_path / f"worker{i}.log" for i in range(2)]
        workers = []
        for log_file in log_files:
            with open(log_file, "w") as log:
                command = luigi_command(*options)
                workers.append(subprocess.Popen(command, cwd=repository, env=environment(shared), stdout=log, stderr=subprocess.STDOUT))
        codes = [worker.wait(timeout=300) for worker in workers]
    finally:
        server.terminate()
        server.wait(timeout=30)
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
