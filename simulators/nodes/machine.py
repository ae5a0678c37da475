"""A machine of nodes during a replay: what each node has free of its cores, GPUs and memory, and which
nodes each running job holds (issue 65, item 3).

It plays the part ``simulators.core.machine.Machine`` plays for one pool of processors, under the
same event loop (``simulators.core.engine``): the policy decides, the machine places and books.
Placement follows Slurm's node selection in its simplest form: a job's nodes are the first of its
partition's nodes, in the machine file's order (Slurm's node order when weights are equal), that
each have the job's per-node demand free; with ``allocation = "exclusive"`` only nodes with nothing
running qualify, and the job holds them whole.  ``start`` and ``finish`` check that no node ever
gives more than it has and that a job runs only on its partition's nodes: a broken rule raises
``InvariantError`` at once, naming the job and the node.
"""

from __future__ import annotations

import math

import numpy as np

from schedlab.parsers.machine import Machine
from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.nodes.demand import NodeJobs

RESOURCES = ("cores", "gpus", "memory_mb")


class NodeMachine:
    def __init__(self, name: str, machine: Machine, jobs: NodeJobs, policy):
        self.name = name
        self.description = machine
        self.policy = policy
        self.exclusive = machine.allocation == "exclusive"
        type_names = [node.name for node in machine.node_types]
        self.node_type = np.repeat(np.arange(len(machine.node_types)), [node.count for node in machine.node_types])
        self.capacity = {
            "cores": np.repeat([node.cores for node in machine.node_types], [n.count for n in machine.node_types]),
            "gpus": np.repeat([node.gpus for node in machine.node_types], [n.count for n in machine.node_types]),
            "memory_mb": np.repeat([node.memory_mb for node in machine.node_types],
                                   [n.count for n in machine.node_types]).astype(float),
        }
        self.free = {name: values.copy() for name, values in self.capacity.items()}
        self.partition_nodes = [np.flatnonzero(np.isin(self.node_type, [type_names.index(t) for t in members]))
                                for members in machine.partitions.values()]
        self.jobs = jobs
        self.demand = {"cores": jobs.cores, "gpus": jobs.gpus, "memory_mb": jobs.memory_mb}
        self.queue: list[int] = []
        self.submit = jobs.submit.tolist()
        self.estimate = jobs.estimate.tolist()
        self.actual = jobs.actual.tolist()
        n = len(jobs)
        self.start_time = [math.nan] * n
        self.promised = [math.inf] * n
        self.held: dict[int, np.ndarray] = {}  # running job -> its nodes
        self.placement: list[np.ndarray | None] = [None] * n
        self.busy = 0  # cores in use, as the engine's series records a machine's busy processors
        self.engine = None
        # The engine tidies each machine's availability profile at every new time; a node machine keeps
        # its running jobs instead and has nothing to tidy, so it stands as its own profile.
        self.profile = self

    def tidy(self, t: float) -> None:
        return None

    def fitting_nodes(self, job: int, free: dict[str, np.ndarray] | None = None,
                      excluded: np.ndarray | None = None, preferred: np.ndarray | None = None) -> np.ndarray | None:
        """The nodes ``job`` would get from ``free`` (what is free now, by default), first in node order;
        None if too few of its partition's nodes can hold it.  ``excluded`` nodes are not candidates;
        ``preferred`` ones come first."""
        free = self.free if free is None else free
        candidates = self.partition_nodes[self.jobs.partition[job]]
        if excluded is not None and len(excluded):
            candidates = candidates[~np.isin(candidates, excluded)]
        if preferred is not None and len(preferred):
            candidates = candidates[np.argsort(~np.isin(candidates, preferred), kind="stable")]
        usable = np.ones(len(candidates), dtype=bool)
        for name in RESOURCES:
            need = self.demand[name][job]
            if self.exclusive:
                usable &= (free[name][candidates] == self.capacity[name][candidates]) & (
                    self.capacity[name][candidates] >= need)
            else:
                usable &= free[name][candidates] >= need
        chosen = candidates[usable][: self.jobs.nodes[job]]
        return np.sort(chosen) if len(chosen) == self.jobs.nodes[job] else None

    def start(self, job: int, t: float, nodes: np.ndarray) -> None:
        """Run ``job`` on ``nodes`` from ``t``, checking each node can give it what it takes."""
        if not np.isin(nodes, self.partition_nodes[self.jobs.partition[job]]).all():
            raise InvariantError(f"{self.name}: job {self.jobs.job_id[job]} placed on a node its partition excludes")
        for name in RESOURCES:
            take = self.capacity[name][nodes] if self.exclusive else self.demand[name][job]
            self.free[name][nodes] -= take
            if (self.free[name][nodes] < 0).any():
                node = int(nodes[np.flatnonzero(self.free[name][nodes] < 0)[0]])
                raise InvariantError(f"{self.name}: node {node} gives more {name} than it has, to job "
                                     f"{self.jobs.job_id[job]} at t={t:g}")
        self.queue.remove(job)
        self.held[job] = nodes
        self.placement[job] = nodes
        self.start_time[job] = t
        self.busy += int(self.demand["cores"][job]) * len(nodes)
        self.engine.schedule_termination(self, job, t)

    def finish(self, job: int, t: float) -> None:
        nodes = self.held.pop(job)
        for name in RESOURCES:
            self.free[name][nodes] += self.capacity[name][nodes] if self.exclusive else self.demand[name][job]
            if (self.free[name][nodes] > self.capacity[name][nodes]).any():
                raise InvariantError(f"{self.name}: a node has more {name} free than it holds after job "
                                     f"{self.jobs.job_id[job]} ended")
        self.busy -= int(self.demand["cores"][job]) * len(nodes)

    def reservation(self, job: int, t: float) -> tuple[float, np.ndarray]:
        """When and where ``job`` could start at the earliest, if every running job ended at its estimate:
        running jobs are released in the order of their estimated ends until it fits.  Among the nodes that
        would then hold it, those still busy now are taken first, so that the nodes free now stay free for
        backfilling as long as they can (in one pool of processors, this is EASY's count of extra
        processors)."""
        fits_now = self.fitting_nodes(job)
        if fits_now is not None:
            return t, fits_now
        free = {name: values.copy() for name, values in self.free.items()}
        ending = sorted(self.held, key=lambda running: (self.start_time[running] + self.estimate[running], running))
        ends = [self.start_time[running] + self.estimate[running] for running in ending]
        for position, running in enumerate(ending):
            nodes = self.held[running]
            for name in RESOURCES:
                free[name][nodes] += self.capacity[name][nodes] if self.exclusive else self.demand[name][running]
            last_at_this_time = position + 1 == len(ending) or ends[position + 1] > ends[position]
            if last_at_this_time and self.fitting_nodes(job, free) is not None:
                # every job ending at that time is released before the head's nodes are chosen
                return max(t, ends[position]), self._reserved_nodes(job, free)
        raise InvariantError(f"{self.name}: job {self.jobs.job_id[job]} fits nowhere even on an empty machine")

    def _reserved_nodes(self, job: int, free: dict[str, np.ndarray]) -> np.ndarray:
        candidates = self.partition_nodes[self.jobs.partition[job]]
        holds_then = np.ones(len(candidates), dtype=bool)
        holds_now = np.ones(len(candidates), dtype=bool)
        for name in RESOURCES:
            need = self.demand[name][job]
            if self.exclusive:
                large_enough = self.capacity[name][candidates] >= need
                holds_then &= (free[name][candidates] == self.capacity[name][candidates]) & large_enough
                holds_now &= self.free[name][candidates] == self.capacity[name][candidates]
            else:
                holds_then &= free[name][candidates] >= need
                holds_now &= self.free[name][candidates] >= need
        usable = candidates[holds_then]
        busy_first = np.argsort(holds_now[holds_then], kind="stable")
        return np.sort(usable[busy_first][: self.jobs.nodes[job]])
