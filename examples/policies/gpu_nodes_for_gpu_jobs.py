"""EASY on nodes, with GPU nodes kept for GPU jobs: a job that asks no GPU never takes a node that has any.

Many sites keep their GPU nodes for the jobs that need GPUs (with a partition, a node feature or a
QOS limit): a CPU job that lands on a GPU node can hold its cores while its GPUs sit idle and a GPU
job waits.  Here the rule is a policy over the built-in EASY on nodes, by naming the nodes a job must
keep off (``keep_off``), which every placement of EASY then honours: the queue heads, the head's
reservation and every backfill.

    schedlab replay JOBS --machine builtin:gpu-cluster --policy examples/policies/gpu_nodes_for_gpu_jobs.py:GpuNodesForGpuJobs
"""

from __future__ import annotations

import numpy as np

from schedlab.simulators.nodes.easy import NodeEasyBackfilling


class GpuNodesForGpuJobs(NodeEasyBackfilling):
    def keep_off(self, machine, job: int):
        if machine.demand["gpus"][job] > 0:
            return None
        return np.flatnonzero(machine.capacity["gpus"] > 0)
