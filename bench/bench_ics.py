"""Speed of the ICS kernels: events per second per scheme, and the paper profile's expected wall time.

Usage: python bench/bench_ics.py [--jobs N] [--compression F] [--schemes A,B,...] [--python]

Runs wl4 under heavy load (MPL 5, v = 10 %, 32 nodes, seed 1) once per scheme on the
compiled kernel (and, with --python, on the pure-Python reference too, checking that
both give the same outcome) and prints events, wall time and events/s; the first
compiled call (numba compilation or cache load) is timed apart.

The paper-profile estimate: a run's cost is its message count (known from its jobs
before simulating) times the events per message and over the events per second that
its scheme showed here; summed over every point of the paper profile (each on its figure's
seeds: ten synthetic, five NPB) and divided by 2 workers.  Measure the real thing with
``luigi --module pipeline.ics IcsReport --profile paper --workers 2 --local-scheduler``.
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

from schedlab.simulators.ics.experiments import ALL_SCHEMES, PROFILES, Point, profile_points
from schedlab.simulators.ics.run import run_kernel

WORKERS = 2


def message_count(jobs) -> int:
    return sum(job.size * sum(len(job.peers(0, k)) for k in range(job.iterations)) for job in jobs)


def timed(point: Point, engine: str):
    jobs = point.jobs()
    started = time.perf_counter()
    outcome = run_kernel(jobs, point.scheme, point.nodes, point.mpl, engine=engine)
    return outcome, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=80)
    parser.add_argument("--compression", type=float, default=8000.0)
    parser.add_argument("--schemes", default=",".join(ALL_SCHEMES))
    parser.add_argument("--python", action="store_true", help="also time the pure-Python reference kernel")
    args = parser.parse_args()
    print(f"machine: {platform.node()} {platform.machine()} {platform.processor() or ''} "
          f"{os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"command: {' '.join([sys.executable, *sys.argv])}")
    print(f"workload: wl4 heavy, {args.jobs} jobs, compression {args.compression:g}, MPL 5, 32 nodes, seed 1")
    schemes = args.schemes.split(",")
    _, first_call = timed(Point(scheme="SB", n_jobs=2, compression=args.compression), "compiled")
    print(f"first compiled call (compilation or cache load included): {first_call:.2f} s")
    print(f"{'scheme':8s} {'events':>11s} {'messages':>10s} {'wall s':>8s} {'events/s':>11s}"
          + (f" {'python s':>9s} {'speed-up':>8s}" if args.python else ""))
    rates = {}
    for scheme in schemes:
        point = Point(scheme=scheme, n_jobs=args.jobs, compression=args.compression)
        outcome, wall = timed(point, "compiled")
        rates[scheme] = (outcome.events / outcome.messages, outcome.events / wall)
        line = f"{scheme:8s} {outcome.events:11d} {outcome.messages:10d} {wall:8.2f} {outcome.events / wall:11.0f}"
        if args.python:
            reference, python_wall = timed(point, "python")
            if not reference.equals(outcome):
                raise SystemExit(f"{scheme}: the compiled kernel's outcome differs from the reference")
            line += f" {python_wall:9.2f} {python_wall / wall:8.1f}"
        print(line, flush=True)
    if set(schemes) == set(ALL_SCHEMES):
        points = {point for points in profile_points(PROFILES["paper"]).values() for point in points.values()}
        seconds = 0.0
        for point in points:
            events_per_message, events_per_second = rates[point.scheme]
            seconds += message_count(point.jobs()) * events_per_message / events_per_second
        print(f"paper profile: {len(points)} runs; expected simulation time {seconds / 60:.1f} min on one core, "
              f"{seconds / 60 / WORKERS:.1f} min on {WORKERS} workers (task overhead not included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
