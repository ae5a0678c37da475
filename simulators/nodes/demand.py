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
    names = np.array([name or partitions[0] for name in jobs["partition"].to_numpy(object)], dtype=object)
    allocated, requested = jobs["allocated_procs"].to_numpy(), jobs["requested_procs"].to_numpy()
    cores = np.where(allocated > 0, allocated, requested).astype(np.int64)
    gpus = np.maximum(jobs["gpus"].to_numpy(), 0).astype(np.int64)
    per_node_memory = jobs["memory_per_node_mb"].to_numpy(float)
    per_core_memory = jobs["memory_per_core_mb"].to_numpy(float)
    nodes = jobs["nodes"].to_numpy().astype(np.int64)
    runnable = (np.asarray(actual) > 0) & (cores > 0)
    reason = np.where(runnable, "", "no run time or no processors in the log").astype(object)
    partition = np.full(len(jobs), -1, dtype=np.int64)
    codes: dict = {}  # each partition name the log gives -> a number, in order of first appearance
    code = np.array([codes.setdefault(name, len(codes)) for name in names], dtype=np.int64)
    for name, number in codes.items():
        rows = np.flatnonzero(runnable & (code == number))
        if not len(rows):
            continue
        if name not in machine.partitions:
            reason[rows] = f"partition {name!r}, which the machine does not have"
            continue
        partition[rows] = partitions.index(name)
        types = [machine.node_type(node_type) for node_type in machine.partitions[name]]
        nodes[rows] = _node_counts(cores[rows], gpus[rows], per_core_memory[rows], nodes[rows], types)
    cores_per_node = -(-cores // np.maximum(nodes, 1))
    gpus_per_node = -(-gpus // np.maximum(nodes, 1))
    memory = np.where(per_node_memory > 0, per_node_memory, np.maximum(per_core_memory, 0.0) * cores_per_node)
    for number, name in enumerate(partitions):
        rows = np.flatnonzero(partition == number)
        types = [machine.node_type(node_type) for node_type in machine.partitions[name]]
        problem = _unplaceable(nodes[rows], cores_per_node[rows], gpus_per_node[rows], memory[rows], types)
        reason[rows[problem == TOO_LARGE]] = f"more cores, GPUs or memory per node than partition {name!r}'s nodes have"
        reason[rows[problem == TOO_MANY]] = f"more nodes than partition {name!r} has of a type that holds them"
    kept = reason == ""
    rows = np.flatnonzero(kept)
    return NodeJobs(
        job_id=jobs["job_id"].to_numpy()[rows], submit=jobs["submit_time"].to_numpy(float)[rows],
        estimate=np.asarray(estimate, float)[rows], actual=np.asarray(actual, float)[rows],
        nodes=nodes[rows], cores=cores_per_node[rows], gpus=gpus_per_node[rows], memory_mb=memory[rows].astype(float),
        partition=partition[rows], row=rows.astype(np.int64),
        user=jobs["user"].to_numpy(object)[rows], group=jobs["group"].to_numpy(object)[rows],
        qos=jobs["qos"].to_numpy(object)[rows], left_out=Counter(reason[~kept]),
    )


def _node_counts(cores: np.ndarray, gpus: np.ndarray, per_core_memory: np.ndarray, nodes: np.ndarray,
                 types) -> np.ndarray:
    """Each job's node count: the log's, else the fewest the partition's largest node type allows."""
    largest = max(types, key=lambda node: (node.cores, node.gpus, node.memory_mb))
    fewest = np.maximum(-(-cores // largest.cores), 1)
    if largest.gpus:
        fewest = np.maximum(fewest, np.where(gpus > 0, -(-gpus // largest.gpus), 1))
    by_memory = np.ceil(per_core_memory * cores / largest.memory_mb)
    fewest = np.where(per_core_memory > 0, np.maximum(fewest, by_memory), fewest).astype(np.int64)
    return np.where(nodes > 0, nodes, fewest)


TOO_LARGE, TOO_MANY = 1, 2


def _unplaceable(nodes, cores, gpus, memory, types) -> np.ndarray:
    """Per job, whether its partition's node ``types`` can run it: 0, or TOO_LARGE (no type holds one of its
    nodes' share), or TOO_MANY (too few nodes of the types that do)."""
    holding = np.zeros(len(nodes), dtype=np.int64)  # nodes of the types that hold one of its nodes' share
    for node in types:
        holding += np.where((node.cores >= cores) & (node.gpus >= gpus) & (node.memory_mb >= memory), node.count, 0)
    return np.where(holding == 0, TOO_LARGE, np.where(nodes > holding, TOO_MANY, 0))
