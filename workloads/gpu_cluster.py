"""A synthetic workload for a GPU cluster's machine file, for tests and benchmarks (issue 65, item 7).

No public log is drawn from here: the distributions are ours, chosen to give a GPU partition that
GPUs bound and a CPU partition that cores bound, and stated so that nobody takes them for a fitted
model.  Each job goes to the GPU partition with probability ``gpu_share``; a GPU job asks for 1, 2, 4
or 8 GPUs (probabilities 0.4, 0.3, 0.2, 0.1), on as many nodes as its GPUs fill, with 8 cores and
32 GiB per GPU; a CPU job asks for 2**k cores (k uniform from 0 to 7), on as many of the CPU
partition's nodes as its cores fill, and 2 GiB a core.  Run times
are log-uniform from 1 minute to 24 hours; each job requests its run time times a factor uniform
from 1 to 4 (users overestimate).  Arrivals are Poisson, their rate set so that the jobs' core-
seconds, over the machine's cores, give the ``load`` asked for.  The same arguments always give the
same table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from schedlab.parsers.machine import Machine
from schedlab.parsers.resources import RESOURCE_UNKNOWN
from schedlab.parsers.schema import as_job_table

GPU_COUNTS = (1, 2, 4, 8)
GPU_COUNT_WEIGHTS = (0.4, 0.3, 0.2, 0.1)
CORES_PER_GPU = 8
MEMORY_PER_GPU_MB = 32 * 1024.0
MEMORY_PER_CORE_MB = 2 * 1024.0
CPU_CORE_POWERS = 8  # a CPU job asks for 2**k cores, k uniform from 0 to 7


def gpu_cluster_jobs(machine: Machine, jobs: int, seed: int, load: float = 0.8, gpu_share: float = 0.5,
                     gpu_partition: str = "gpu", cpu_partition: str = "cpu") -> pd.DataFrame:
    """``jobs`` jobs for ``machine`` (which needs the two partitions named), as a job table with resources."""
    rng = np.random.default_rng(seed)
    gpu_node = max((machine.node_type(name) for name in machine.partitions[gpu_partition]), key=lambda n: n.gpus)
    cpu_node = max((machine.node_type(name) for name in machine.partitions[cpu_partition]), key=lambda n: n.cores)
    on_gpus = rng.random(jobs) < gpu_share
    gpus = np.where(on_gpus, rng.choice(GPU_COUNTS, size=jobs, p=GPU_COUNT_WEIGHTS), 0)
    cores = np.where(on_gpus, gpus * CORES_PER_GPU, 2 ** rng.integers(0, CPU_CORE_POWERS, size=jobs))
    nodes = np.where(on_gpus, np.maximum(1, -(-gpus // gpu_node.gpus)), np.maximum(1, -(-cores // cpu_node.cores)))
    run = np.exp(rng.uniform(np.log(60.0), np.log(86_400.0), size=jobs)).round()
    requested = (run * rng.uniform(1.0, 4.0, size=jobs)).round()
    mean_gap = float((cores * run).mean()) / (load * machine.cores)
    submit = np.cumsum(rng.exponential(mean_gap, size=jobs)).round()
    submit -= submit[0]
    table = as_job_table({
        "job_id": np.arange(1, jobs + 1), "submit_time": submit, "wait_time": np.full(jobs, -1.0),
        "run_time": run, "allocated_procs": cores, "requested_procs": cores, "requested_time": requested,
        "status": np.ones(jobs),
    })
    for name, unknown in RESOURCE_UNKNOWN.items():
        table[name] = unknown
    table["nodes"] = nodes
    table["gpus"] = gpus
    table["memory_per_node_mb"] = np.where(on_gpus, gpus * MEMORY_PER_GPU_MB / nodes, -1.0)
    table["memory_per_core_mb"] = np.where(on_gpus, -1.0, MEMORY_PER_CORE_MB)
    table["partition"] = np.where(on_gpus, gpu_partition, cpu_partition).astype(object)
    table["user"] = np.char.add("user", rng.integers(1, 40, size=jobs).astype(str)).astype(object)
    return table


def balanced_gpu_share(machine: Machine, gpu_partition: str = "gpu", cpu_partition: str = "cpu") -> float:
    """The ``gpu_share`` at which each partition's jobs, on average, ask as many core-seconds of its cores as
    the other's do of theirs, so that both carry the offered load (with the default share of one half the GPU
    partition of ``builtin:gpu-cluster`` is offered about twice what it has, and its queue grows without end)."""
    def cores_of(partition: str) -> int:
        return sum(machine.node_type(name).count * machine.node_type(name).cores
                   for name in machine.partitions[partition])

    gpu_job_cores = CORES_PER_GPU * float(np.dot(GPU_COUNTS, GPU_COUNT_WEIGHTS))
    cpu_job_cores = (2 ** CPU_CORE_POWERS - 1) / CPU_CORE_POWERS
    gpu_weight, cpu_weight = gpu_job_cores / cores_of(gpu_partition), cpu_job_cores / cores_of(cpu_partition)
    return cpu_weight / (gpu_weight + cpu_weight)
