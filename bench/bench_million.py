"""A million jobs and more: a long trace built from CEA-Curie, replayed whole process under FCFS, EASY and conservative.

    python bench/bench_million.py [--jobs N] [--timeout S] [--keep FILE]

The trace is CEA-Curie's job lines repeated until there are at least ``--jobs`` (default
1,303,631, the size of the Fugaku month a 2026 Rust replayer publishes), each copy shifted
after the one before by the log's span plus a day and given fresh job ids, so the machine
(93,312 processors) sees the log's load for five times as long.  Each policy is replayed by
``schedlab replay FILE --policy P --conventions pyss --quiet`` in a process of its own, timed
from outside (start-up, parsing, simulation, the invariant checks and printing), with the
child's peak resident memory.  A run still going after ``--timeout`` seconds is stopped and
reported as such, with its peak memory until then.

Goals (issue 51): EASY under 10 s and under 2 GB on this machine; if conservative cannot
follow, say what bounds it and by how much.
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CURIE = REPO.parent / "shared" / "traces" / "CEA-Curie-2011-2.1-cln.swf.gz"
FUGAKU_MONTH = 1_303_631
DAY = 86_400


def build_trace(source: Path, jobs: int, out: Path) -> tuple[int, int]:
    """Write ``out``: the source's header, then its job lines repeated and shifted; (copies, jobs written)."""
    header, lines = [], []
    with gzip.open(source, "rt") if source.suffix == ".gz" else open(source) as handle:
        for line in handle:
            (header if line.startswith(";") else lines).append(line)
    rows = [line.split() for line in lines if line.strip()]
    first = min(int(float(row[1])) for row in rows)
    span = max(int(float(row[1])) for row in rows) - first
    copies = -(-jobs // len(rows))
    written = 0
    with open(out, "w") as handle:
        handle.writelines(line for line in header if "MaxJobs" not in line and "MaxRecords" not in line)
        for copy in range(copies):
            shift = copy * (span + DAY)
            for row in rows:
                written += 1
                fields = [str(written), str(int(float(row[1])) + shift), *row[2:]]
                handle.write(" ".join(fields) + "\n")
    return copies, written


def replay_whole_process(trace: Path, policy: str, timeout: float) -> tuple[float | None, float]:
    """Seconds (None when stopped at the timeout) and that child's own peak resident memory in MB."""
    schedlab = Path(sys.executable).with_name("schedlab")
    command = [str(schedlab if schedlab.is_file() else "schedlab"), "replay", str(trace), "--policy", policy,
               "--conventions", "pyss", "--quiet"]
    began = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            seconds = time.perf_counter() - began
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"{shlex.join(command)} failed")
            return seconds, usage.ru_maxrss / 1024
        if time.perf_counter() - began > timeout:
            child.kill()
            _, _, usage = os.wait4(child.pid, 0)
            return None, usage.ru_maxrss / 1024
        time.sleep(0.02)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=FUGAKU_MONTH, help="at least this many jobs (default 1,303,631)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a replay may take (default 600)")
    parser.add_argument("--policies", nargs="+", default=["fcfs", "easy", "conservative"])
    parser.add_argument("--keep", type=Path, help="write the trace here and keep it (default: a temporary file)")
    args = parser.parse_args(argv)
    print(f"command: python bench/bench_million.py {shlex.join(sys.argv[1:] if argv is None else argv)}")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.2f}")
    if not CURIE.is_file():
        print(f"skipped: {CURIE} not found (the shared traces live beside the repository)")
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        trace = args.keep or Path(scratch) / "curie-repeated.swf"
        began = time.perf_counter()
        copies, jobs = build_trace(CURIE, args.jobs, trace)
        print(f"trace: {copies} copies of {CURIE.name}, {jobs:,} jobs, {trace.stat().st_size / 1e6:.0f} MB "
              f"(built in {time.perf_counter() - began:.1f} s)")
        print(f"{'policy':<14} {'whole s':>9} {'jobs/s':>11} {'peak MB':>9}")
        for policy in args.policies:
            seconds, peak = replay_whole_process(trace, policy, args.timeout)
            if seconds is None:
                print(f"{policy:<14} {'> ' + format(args.timeout, '.0f'):>9} {'-':>11} {peak:>9.0f}  "
                  "(stopped at the timeout; peak until then)")
            else:
                print(f"{policy:<14} {seconds:>9.2f} {jobs / seconds:>11,.0f} {peak:>9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
