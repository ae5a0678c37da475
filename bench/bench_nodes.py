"""Speed of the replay on nodes: EASY over cores, GPUs and memory on the shipped GPU cluster.

Issue 65's target is 500,000 jobs/s in-process for the common case.  This measures the compiled loop
(``simulators/nodes/compiled.py``, numba, its compilation excluded: cached after the first run) and the
interpreted reference on the synthetic GPU-cluster workload (``workloads/gpu_cluster.py``, load 0.8
unless --load says, half GPU jobs), and the interpreted one-pool EASY on the same jobs for comparison.  Prints the
machine, the command, and per size the best wall time of --repeat.

    python bench/bench_nodes.py [--jobs 2000 20000 200000] [--repeat 3] [--reference-jobs 20000] [--load 0.8]
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
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from schedlab.parsers.machine import read_machine  # noqa: E402
from schedlab.simulators.nodes.replay import cpu_only, replay_on_nodes  # noqa: E402
from schedlab.workloads.gpu_cluster import gpu_cluster_jobs  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[2000, 20000, 200000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reference-jobs", type=int, default=20000, help="largest size the reference also runs")
    parser.add_argument("--load", type=float, default=0.8, help="offered load of the synthetic workload")
    args = parser.parse_args()
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}; "
          f"offered load {args.load:g}")
    machine = read_machine("builtin:gpu-cluster")
    print(f"{'jobs':>8} {'compiled s':>11} {'jobs/s':>10} {'reference s':>12} {'jobs/s':>8} {'one-pool s':>11} {'jobs/s':>9}")
    replay_on_nodes(gpu_cluster_jobs(machine, 100, seed=1), machine, "easy", engine="compiled")  # compile or load
    for count in args.jobs:
        jobs = gpu_cluster_jobs(machine, count, seed=1, load=args.load)
        times = {"compiled": float("inf"), "reference": float("inf"), "pool": float("inf")}
        for _ in range(args.repeat):
            for engine in ("compiled", "reference"):
                if engine == "reference" and count > args.reference_jobs:
                    continue
                began = time.perf_counter()
                replay = replay_on_nodes(jobs, machine, "easy", engine=engine)
                times[engine] = min(times[engine], time.perf_counter() - began)
            began = time.perf_counter()
            cpu_only(replay)
            times["pool"] = min(times["pool"], time.perf_counter() - began)
        cells = [f"{times[e]:.2f}, {count / times[e]:,.0f}" if np.isfinite(times[e]) else "-, -" for e in times]
        widths = ((11, 10), (12, 8), (11, 9))
        row = "".join(f" {c.split(', ')[0]:>{w[0]}} {c.split(', ')[1]:>{w[1]}}" for c, w in zip(cells, widths))
        print(f"{count:>8,}{row}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
