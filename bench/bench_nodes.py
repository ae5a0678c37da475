"""Speed of the replay on nodes: EASY over cores, GPUs and memory on the shipped GPU cluster.

Issue 65's target is 500,000 jobs/s in-process for the common case, on a compiled loop; this measures
the interpreted engine (``simulators/nodes``), on the synthetic GPU-cluster workload
(``workloads/gpu_cluster.py``, load 0.8, half GPU jobs), and the one-pool engine on the same jobs
for comparison.  Prints the machine, the command, and per size the best wall time of --repeat.

    python bench/bench_nodes.py [--jobs 2000 20000] [--repeat 3]
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

from schedlab.parsers.machine import read_machine  # noqa: E402
from schedlab.simulators.nodes.replay import cpu_only, replay_on_nodes  # noqa: E402
from schedlab.workloads.gpu_cluster import gpu_cluster_jobs  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}")
    machine = read_machine("builtin:gpu-cluster")
    print(f"{'jobs':>8} {'nodes EASY s':>13} {'jobs/s':>10} {'one-pool EASY s':>16} {'jobs/s':>10}")
    for count in args.jobs:
        jobs = gpu_cluster_jobs(machine, count, seed=1)
        best_nodes = best_pool = float("inf")
        for _ in range(args.repeat):
            began = time.perf_counter()
            replay = replay_on_nodes(jobs, machine, "easy")
            best_nodes = min(best_nodes, time.perf_counter() - began)
            began = time.perf_counter()
            cpu_only(replay)
            best_pool = min(best_pool, time.perf_counter() - began)
        print(f"{count:>8,} {best_nodes:>13.2f} {count / best_nodes:>10,.0f} {best_pool:>16.2f} {count / best_pool:>10,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
