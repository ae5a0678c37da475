"""What each job asks of a node machine: so many nodes of its partition, each giving it so many cores,
GPUs and MiB of memory (issue 65, item 3).

Logs say a job's totals (cores, GPUs) and its memory per node or per core (``parsers.resources``).
A job's demand is spread evenly over its nodes, as Slurm does for a job without a task layout of
its own: ``ceil(total / nodes)`` of each resource on every node.  A job whose log gives no node
count takes the fewest nodes its partition's largest node type could hold it on.  Memory asked per
core is per core on each node; a job that asks none takes none (Slurm then gives it a default, the
machine's DefMemPerNode, unknown to a log).  A job that cannot run on its partition at all (more
of a resource per node than any of its node types has, more nodes than the partition holds, a
partition the machine does not have) is left out and counted by reason, as the replay's cleaning
leaves out a job larger than a one-pool machine.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from schedlab.parsers.machine import Machine


@dataclass(frozen=True)
class NodeJobs:
    """Jobs in submit order with their per-node demand; ``row`` is each job's row in the job table."""

    job_id: np.ndarray
    submit: np.ndarray
    estimate: np.ndarray
    actual: np.ndarray
    nodes: np.ndarray
    cores: np.ndarray
    gpus: np.ndarray
    memory_mb: np.ndarray
    partition: np.ndarray  # index into the machine's partitions
    row: np.ndarray
    user: np.ndarray  # names, '' where the log has none
    group: np.ndarray
    qos: np.ndarray
    left_out: Counter = field(default_factory=Counter)

    def __len__(self) -> int:
        return len(self.job_id)

    @property
    def total_cores(self) -> np.ndarray:
        return self.nodes * self.cores


def node_jobs(jobs, machine: Machine, estimate: np.ndarray, actual: np.ndarray) -> NodeJobs:
    """The demand of each job of a job table (SWF's fields and the resource columns) on ``machine``;
    ``estimate`` and ``actual`` are the run times the replay's conventions chose, per row, in submit
    order, 0 or less for a job they left out."""
    partitions = list(machine.partitions)
    default = partitions[0]
    names = jobs["partition"].to_numpy(object)
    cores_total = np.where(jobs["allocated_procs"].to_numpy() > 0, jobs["allocated_procs"].to_numpy(),
                           jobs["requested_procs"].to_numpy())
    gpus_total = np.maximum(jobs["gpus"].to_numpy(), 0)
    per_node_memory = jobs["memory_per_node_mb"].to_numpy(float)
    per_core_memory = jobs["memory_per_core_mb"].to_numpy(float)
    logged_nodes = jobs["nodes"].to_numpy()
    kept: list[tuple] = []
    left_out: Counter = Counter()
    for row in range(len(jobs)):
        if actual[row] <= 0 or cores_total[row] <= 0:
            left_out["no run time or no processors in the log"] += 1
            continue
        partition = names[row] or default
        if partition not in machine.partitions:
            left_out[f"partition {partition!r}, which the machine does not have"] += 1
            continue
        types = [machine.node_type(name) for name in machine.partitions[partition]]
        demand = _spread(int(cores_total[row]), int(gpus_total[row]), float(per_node_memory[row]),
                         float(per_core_memory[row]), int(logged_nodes[row]), types)
        problem = _unplaceable(demand, types, partition)
        if problem:
            left_out[problem] += 1
            continue
        kept.append((row, partitions.index(partition), *demand))
    rows = np.array([k[0] for k in kept], dtype=np.int64)
    column = {name: np.array([k[i] for k in kept]) for i, name in enumerate(
        ("row", "partition", "nodes", "cores", "gpus", "memory_mb"))}
    return NodeJobs(
        job_id=jobs["job_id"].to_numpy()[rows], submit=jobs["submit_time"].to_numpy(float)[rows],
        estimate=np.asarray(estimate, float)[rows], actual=np.asarray(actual, float)[rows],
        nodes=column["nodes"].astype(np.int64), cores=column["cores"].astype(np.int64),
        gpus=column["gpus"].astype(np.int64), memory_mb=column["memory_mb"].astype(float),
        partition=column["partition"].astype(np.int64), row=rows,
        user=jobs["user"].to_numpy(object)[rows], group=jobs["group"].to_numpy(object)[rows],
        qos=jobs["qos"].to_numpy(object)[rows], left_out=left_out,
    )


def _spread(cores: int, gpus: int, per_node_memory: float, per_core_memory: float, nodes: int,
            types) -> tuple[int, int, int, float]:
    """(nodes, cores, GPUs, MiB) a node: the log's node count, else the fewest the largest node type allows."""
    if nodes <= 0:
        largest = max(types, key=lambda node: (node.cores, node.gpus, node.memory_mb))
        nodes = max(-(-cores // largest.cores), -(-gpus // largest.gpus) if gpus and largest.gpus else 1, 1)
        if per_core_memory > 0:
            nodes = max(nodes, int(np.ceil(per_core_memory * cores / largest.memory_mb)))
    per_node_cores = -(-cores // nodes)
    memory = per_node_memory if per_node_memory > 0 else max(per_core_memory, 0.0) * per_node_cores
    return nodes, per_node_cores, -(-gpus // nodes), memory


def _unplaceable(demand: tuple[int, int, int, float], types, partition: str) -> str:
    nodes, cores, gpus, memory = demand
    fitting = [node for node in types if node.cores >= cores and node.gpus >= gpus and node.memory_mb >= memory]
    if not fitting:
        return f"more cores, GPUs or memory per node than partition {partition!r}'s nodes have"
    if nodes > sum(node.count for node in fitting):
        return f"more nodes than partition {partition!r} has of a type that holds them"
    return ""
