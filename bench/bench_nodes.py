"""Speed of the replay on nodes: EASY over cores, GPUs and memory on the shipped GPU cluster.

Issue 65's target is 500,000 jobs/s in-process for the common case.  This measures, on the synthetic
GPU-cluster workload (``workloads/gpu_cluster.py``, offered load 0.8 unless --load says):

- the compiled loop's decisions alone (``simulators/nodes/compiled.py``, numba, its compilation
  excluded: cached after the first run), the figure the target is about;
- the whole replay on it (``replay_on_nodes``: reading the jobs' demands, the loop, the schedule's
  own check, the schedule table and the usage series);
- the interpreted reference engine, and the interpreted one-pool EASY on the same jobs, for comparison.

Two workloads: ``balanced``, where GPU jobs are as many as make each partition carry the offered load
(``balanced_gpu_share``), and ``gpu-bound``, half GPU jobs, where the GPU partition is offered about
twice what it has and the queue grows without end (the loop then pays for every waiting job at every
pass).  Prints the machine, the command, and per workload and size the best wall time of --repeat.

    python bench/bench_nodes.py [--jobs 20000 200000] [--repeat 3] [--reference-jobs 2000] [--load 0.8]
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
from schedlab.simulators.nodes import compiled  # noqa: E402
from schedlab.simulators.nodes.replay import cpu_only, replay_on_nodes  # noqa: E402
from schedlab.workloads.gpu_cluster import balanced_gpu_share, gpu_cluster_jobs  # noqa: E402

ENGINES = ("loop", "compiled", "reference", "pool")


class LoopTimer:
    """Times each call of the compiled loop inside a whole replay."""

    def __init__(self):
        self.loop = compiled.run_nodes
        self.seconds = 0.0

    def __call__(self, *arguments):
        began = time.perf_counter()
        result = self.loop(*arguments)
        self.seconds = time.perf_counter() - began
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[20000, 200000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reference-jobs", type=int, default=2000, help="largest size the reference also runs")
    parser.add_argument("--load", type=float, default=0.8, help="offered load of the synthetic workload")
    args = parser.parse_args()
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}; "
          f"offered load {args.load:g}")
    machine = read_machine("builtin:gpu-cluster")
    timer = LoopTimer()
    compiled.run_nodes = timer
    replay_on_nodes(gpu_cluster_jobs(machine, 100, seed=1), machine, "easy", engine="compiled")  # compile or load
    workloads = {"balanced": balanced_gpu_share(machine), "gpu-bound": 0.5}
    print(f"{'workload':<10} {'jobs':>8} {'mean wait h':>11}" + "".join(f" {e + ' s':>12} {'jobs/s':>10}" for e in ENGINES))
    for workload, share in workloads.items():
        for count in args.jobs:
            jobs = gpu_cluster_jobs(machine, count, seed=1, load=args.load, gpu_share=share)
            times = dict.fromkeys(ENGINES, float("inf"))
            for _ in range(args.repeat):
                for engine in ("compiled", "reference"):
                    if engine == "reference" and count > args.reference_jobs:
                        continue
                    began = time.perf_counter()
                    replay = replay_on_nodes(jobs, machine, "easy", engine=engine)
                    times[engine] = min(times[engine], time.perf_counter() - began)
                    if engine == "compiled":
                        times["loop"] = min(times["loop"], timer.seconds)
                        waits = replay.schedule["wait"].to_numpy()
                began = time.perf_counter()
                cpu_only(replay)
                times["pool"] = min(times["pool"], time.perf_counter() - began)
            cells = "".join(f" {times[e]:>12.3f} {count / times[e]:>10,.0f}" if np.isfinite(times[e])
                            else f" {'-':>12} {'-':>10}" for e in ENGINES)
            print(f"{workload:<10} {count:>8,} {waits.mean() / 3600:>11.2f}{cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
