"""Speed of the bandwidth stage at the paper's size: 4 clusters x 400,000 jobs, one strategy.

Usage: python bench/bench_bandwidth.py [--jobs-per-cluster N] [--strategy S ...] [--workload W]

Prints, per strategy, the time to build the workload, to run the compiled event loop with
the substrate's invariant checks, and jobs/s over the whole.  Target (issue 7): one
strategy at 4 x 400,000 jobs in under 2 minutes on this machine.  The first call compiles
(numba cache): it is run once on a small workload before timing.
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

from schedlab.simulators.bandwidth.placement import STRATEGIES  # noqa: E402
from schedlab.simulators.bandwidth.simulate import run_workload, summarise  # noqa: E402
from schedlab.simulators.bandwidth.workload import WORKLOADS, make_workload  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs-per-cluster", type=int, default=400_000)
    parser.add_argument("--strategy", nargs="+", choices=sorted(STRATEGIES), default=["ics"])
    parser.add_argument("--workload", choices=WORKLOADS, default="synthetic")
    parser.add_argument("--ppbw", type=float, default=None, help="Mb/s per processor; default U[0, 300]")
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}")
    warm = make_workload(args.workload, 200, seed=1, ppbw=args.ppbw)
    for strategy in args.strategy:
        run_workload(warm, strategy)
    started = time.perf_counter()
    workload = make_workload(args.workload, args.jobs_per_cluster, seed=1, ppbw=args.ppbw)
    built = time.perf_counter() - started
    print(f"workload {args.workload}: {len(workload):,} jobs built in {built:.1f} s")
    for strategy in args.strategy:
        started = time.perf_counter()
        run = run_workload(workload, strategy)
        elapsed = time.perf_counter() - started
        metrics = summarise(run)
        print(f"{strategy:>15}: {elapsed:6.1f} s simulate+check, {len(workload) / elapsed:10,.0f} jobs/s, "
              f"{len(workload) / (elapsed + built):10,.0f} jobs/s with workload, "
              f"mean turnaround {metrics['mean_turnaround']:.0f} s, saturated: {metrics['saturated']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
