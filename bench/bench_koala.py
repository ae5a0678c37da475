"""Speed of the koala stage: single points and whole profiles without Luigi.

Usage: python bench/bench_koala.py [--profile quick|paper|none] [--repeat N]

Prints wall time and jobs/s for representative 24-hour points (a stable one, a
saturated one with a queue of hundreds of jobs, CA on config B) on each engine (the
compiled loop and the interpreted reference, ``simulate(point, engine=...)``), then the
wall time of every point of the chosen profile run back to back in this process on the
compiled loop (no Luigi, no files).  Targets: the quick profile, Luigi included, in a
couple of minutes in CI (issue 6); the paper profile's share of the 30-minute publish
(issue 64).
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

from schedlab.simulators.koala.experiments import PROFILES, points  # noqa: E402
from schedlab.simulators.koala.simulate import ENGINES, Point, simulate  # noqa: E402

POINTS = [
    Point("prime", "WF", 0.5, seed=1),
    Point("wave", "FCM", 0.5, seed=1),
    Point("wave", "FCM", 0.9, seed=1),  # saturated: the placement queue holds hundreds of jobs
    Point("wave", "CA", 0.6, seed=1, config="B", sizes=(32, 48, 64)),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=(*PROFILES, "none"), default="quick")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}")
    for point in POINTS:
        for engine in ENGINES:
            timings, summary = [], None
            for _ in range(args.repeat):
                began = time.perf_counter()
                _, summary = simulate(point, engine)
                timings.append(time.perf_counter() - began)
            best = min(timings)
            print(f"{point.app:6s} {point.policy:4s} config {point.config} U={point.net_utilization:.2f} {engine:9s} "
                  f"{summary['jobs']:>6,} jobs  best {best:6.3f} s  {summary['jobs'] / best:>9,.0f} jobs/s  "
                  f"saturated={summary['saturated']}")
    if args.profile != "none":
        profile = points(PROFILES[args.profile])
        began = time.perf_counter()
        jobs = sum(simulate(point)[1]["jobs"] for point in profile)
        elapsed = time.perf_counter() - began
        print(f"profile {args.profile}: {len(profile)} points, {jobs:,} jobs in {elapsed:.1f} s "
              f"({elapsed / len(profile):.3f} s per point)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
