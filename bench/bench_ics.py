"""Speed of the ICS discrete-event kernel: simulated events per second, per scheme.

Usage: python bench/bench_ics.py [--jobs N] [--compression F] [--schemes A,B,...]

Runs wl4 under heavy load (MPL 5, v = 10 %, 32 nodes, seed 1) once per scheme and prints
events, wall time and events/s (job generation excluded).  The paper profile's wall
time (855 points: every point on each of its 5 seeds) is measured by timing
``luigi --module pipeline.ics IcsReport --profile paper --workers 2``.

Why a pure-Python heap loop and not numba: per event the kernel does a handful of
attribute updates on one node's few processes and pushes one or two heap entries;
the work is branchy object manipulation (nine schemes' hooks, PROC's tables), which
numba's jitclass handles poorly and would freeze into one monolithic kernel.  The
measured rate (about 2e5 events/s) lets the paper profile fit its budget once job
lengths are time-compressed (see simulators/ics/workload.py), so the compression
factor, not the kernel, is the knob.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from simulators.ics.experiments import ALL_SCHEMES, Point
from simulators.ics.run import simulate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=16)
    parser.add_argument("--compression", type=float, default=10000.0)
    parser.add_argument("--schemes", default=",".join(ALL_SCHEMES))
    args = parser.parse_args()
    print(f"machine: {platform.node()} {platform.machine()} {platform.processor() or ''} "
          f"{os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"command: {' '.join([sys.executable, *sys.argv])}")
    print(f"workload: wl4 heavy, {args.jobs} jobs, compression {args.compression:g}, MPL 5, 32 nodes, seed 1")
    print(f"{'scheme':8s} {'events':>10s} {'wall s':>8s} {'events/s':>10s}")
    total_events, total_wall = 0, 0.0
    for scheme in args.schemes.split(","):
        point = Point(scheme=scheme, n_jobs=args.jobs, compression=args.compression)
        jobs = point.jobs()
        started = time.perf_counter()
        result = simulate(jobs, scheme, point.nodes, point.mpl)
        wall = time.perf_counter() - started
        total_events += result.events
        total_wall += wall
        print(f"{scheme:8s} {result.events:10d} {wall:8.2f} {result.events / wall:10.0f}", flush=True)
    print(f"{'all':8s} {total_events:10d} {total_wall:8.2f} {total_events / total_wall:10.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
