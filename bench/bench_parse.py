"""Benchmark read_swf on every trace in ../shared/traces: jobs per second and wall time.

The parser's budget is the full CEA Curie log (~312k jobs, gzip) in under 3 s on the
project's 2-core machine; this prints the numbers that check it, with the machine and
command so that a result can be compared with another run.

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

from parsers.swf import read_swf  # after the path set-up above


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
    print(f"{'trace':<40} {'jobs':>8} {'best s':>8} {'jobs/s':>10}")
    for path in sorted(TRACES.iterdir()):
        if not path.is_file():
            continue
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            trace = read_swf(path)
            best = min(best, time.perf_counter() - start)
        jobs = len(trace.jobs)
        print(f"{path.name:<40} {jobs:>8} {best:>8.3f} {jobs / best:>10,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
