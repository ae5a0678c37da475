"""Speed of the COSY stage: one simulation, workload tuning, and the quick profile's runs.

Usage: python bench/bench_cosy.py [--repeat N] [--skip-profile]

Prints the machine, the command and, per measurement, the best wall time of --repeat
(the whole quick profile is timed once).  Target (issue 4): the quick profile runs in CI
in a couple of minutes at most, the Luigi overhead included.
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

from schedlab.simulators.batch.conventions import default_inputs  # noqa: E402
from timing import best_of  # noqa: E402  (bench/ is the script's directory)
from schedlab.simulators.cosy.experiments import PROFILES, run_point, select_workloads  # noqa: E402
from schedlab.simulators.cosy.simulate import simulate_profile  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-profile", action="store_true", help="do not time the whole quick profile")
    args = parser.parse_args()
    print(f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cpus, Python {platform.python_version()}")
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")

    for jobs in (100, 1000):
        began = time.perf_counter()
        (workload,), tried = select_workloads(1, jobs)
        print(f"select 1 tuned {jobs}-job workload ({tried} seeds tried): {time.perf_counter() - began:.2f} s")
        default_inputs(workload.jobs, 32, "requested")
        seconds = best_of(args.repeat, lambda: run_point(workload, 32, 0.20, "fixed", 2.0))
        print(f"one {jobs}-job run, p = 20 %, n = 2: {1000 * seconds:.1f} ms ({jobs / seconds:,.0f} jobs/s)")

    if not args.skip_profile:
        began = time.perf_counter()
        runs = simulate_profile(PROFILES["quick"])
        print(f"quick profile without Luigi: {len(runs)} runs in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
