"""Benchmark read_swf on every trace in ../shared/traces: jobs per second and wall time.

The parser's budget is the full CEA Curie log (~312k jobs, gzip) in well under a second
on the project's 2-core machine, so that ``schedlab info`` on it takes about a second
whole process; this prints the numbers that check it, with the machine and command so
that a result can be compared with another run.  Each trace is timed as read_swf reads
it ("path": fast for a well-formed file, line-by-line otherwise) and with the
line-by-line path forced, for comparison.

    python bench/bench_parse.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TRACES = REPO.parent / "shared" / "traces"
sys.path.insert(0, str(REPO))  # run from a checkout without installing

from unittest import mock  # noqa: E402

import schedlab.parsers.swf as swf  # noqa: E402  (after the path set-up above)
from schedlab.parsers.swf import read_swf  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="parses per trace; the best is reported")
    args = parser.parse_args(argv)
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}")
    print(f"python:  {platform.python_implementation()} {platform.python_version()}")
    if not TRACES.is_dir():
        print(f"skipped: no traces at {TRACES}")
        return 0
    print(f"{'trace':<40} {'jobs':>8} {'best s':>8} {'jobs/s':>10} {'path':>12} {'line-by-line s':>15}")
    for path in sorted(TRACES.iterdir()):
        if not path.is_file():
            continue
        best, trace = best_read(path, args.repeat)
        fast = swf._parse_well_formed(swf._read_decompressed(path), path, True) is not None
        with mock.patch.object(swf, "_parse_well_formed", lambda *_: None):
            slow, _ = best_read(path, args.repeat)
        jobs = len(trace.jobs)
        kind = "fast" if fast else "line-by-line"
        print(f"{path.name:<40} {jobs:>8} {best:>8.3f} {jobs / best:>10,.0f} {kind:>12} {slow:>15.3f}")
    return 0


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
