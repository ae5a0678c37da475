"""Benchmark read_swf on every trace in ../shared/traces: jobs per second and wall time.

The parser's budget is the full CEA Curie log (~312k jobs, gzip) in well under a second
on the project's 2-core machine, so that ``schedlab info`` on it takes about a second
whole process; this prints the numbers that check it, with the machine and command so
that a result can be compared with another run.  Each trace is timed as read_swf reads
it ("path": fast for a well-formed file, line-by-line otherwise) and with the
line-by-line path forced, for comparison.

With ``--adversarial``, it reads instead each of ``adversarial_traces.py``'s inputs at 1,000 MB
decompressed (gzip files of 0.2-3 MB) in a fresh process, and prints what it gave, its time and
its peak resident memory.

    python bench/bench_parse.py [--repeat N] [--adversarial]
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TRACES = REPO.parent / "shared" / "traces"
sys.path.insert(0, str(REPO))  # run from a checkout without installing

from unittest import mock  # noqa: E402

import schedlab.parsers.swf as swf  # noqa: E402  (after the path set-up above)
from bench.adversarial_traces import ADVERSARIAL_TRACES, MIB, read_in_a_fresh_process  # noqa: E402
from schedlab.parsers.swf import read_swf  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="parses per trace; the best is reported")
    parser.add_argument("--adversarial", action="store_true", help="time the adversarial inputs instead")
    args = parser.parse_args(argv)
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}")
    print(f"python:  {platform.python_implementation()} {platform.python_version()}")
    if args.adversarial:
        return time_adversarial_traces()
    if not TRACES.is_dir():
        print(f"skipped: no traces at {TRACES}")
        return 0
    print(f"{'trace':<40} {'jobs':>8} {'best s':>8} {'jobs/s':>10} {'path':>12} {'line-by-line s':>15}")
    for path in sorted(TRACES.iterdir()):
        if not path.is_file():
            continue
        best, trace = best_read(path, args.repeat)
        fast = took_fast_path(path)
        with mock.patch.object(swf, "_parse_well_formed", lambda *_: None):
            slow, _ = best_read(path, args.repeat)
        jobs = len(trace.jobs)
        kind = "fast" if fast else "line-by-line"
        print(f"{path.name:<40} {jobs:>8} {best:>8.3f} {jobs / best:>10,.0f} {kind:>12} {slow:>15.3f}")
    return 0


def time_adversarial_traces(size: int = 1000 * MIB) -> int:
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'input (1,000 MB decompressed)':<34} {'gzip MB':>8} {'s':>7} {'peak MiB':>9}  outcome")
    with tempfile.TemporaryDirectory() as scratch:
        for trace in ADVERSARIAL_TRACES:
            path = trace.write(Path(scratch) / "input.swf.gz", size)
            result, seconds, peak = read_in_a_fresh_process(path, trace.strict)
            outcome = result.removeprefix(f"{path}")
            print(f"{trace.name:<34} {path.stat().st_size / 1e6:>8.1f} {seconds:>7.2f} {peak:>9}  {outcome[:70]}")
    return 0


def took_fast_path(path: Path) -> bool:
    """Whether every chunk of the trace's job lines took the fast path."""
    taken = []
    real = swf._parse_well_formed

    def spy(*args):
        result = real(*args)
        taken.append(result is not None)
        return result

    with mock.patch.object(swf, "_parse_well_formed", spy):
        read_swf(path)
    return bool(taken) and all(taken)


def best_read(path: Path, repeat: int):
    """The best wall time of ``repeat`` parses, and the trace parsed."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        trace = read_swf(path)
        best = min(best, time.perf_counter() - start)
    return best, trace


if __name__ == "__main__":
    sys.exit(main())
