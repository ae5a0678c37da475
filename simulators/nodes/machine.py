"""A machine of nodes during a replay: what each node has free of its cores, GPUs and memory, and which
nodes each running job holds (issue 65, item 3).

It plays the part ``simulators.core.machine.Machine`` plays for one pool of processors, under the
same event loop (``simulators.core.engine``): the policy decides, the machine places and books.
Placement follows Slurm's node selection in its simplest form: a job's nodes are the first of its
partition's nodes, in the machine file's order (Slurm's node order when weights are equal), that
each have the job's per-node demand free; with ``allocation = "exclusive"`` only nodes with nothing
running qualify, and the job holds them whole.  A node that is drained or down takes no job, and
one under an announced maintenance window takes none whose requested time would reach into it
(``parsers.events``); ``kill`` ends a run when its node fails.  ``start`` and ``finish`` check that
no node ever gives more than it has and that a job runs only on its partition's nodes: a broken
rule raises ``InvariantError`` at once, naming the job and the node.  ``runs`` keeps every run,
killed ones too, for the checker.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from schedlab.parsers.machine import Machine
from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.nodes.demand import NodeJobs

RESOURCES = ("cores", "gpus", "memory_mb")


@dataclass(frozen=True)
class Runs:
    """Runs as columns: run ``r`` is job ``job[r]`` from ``start[r]`` to ``end[r]`` on the nodes
    ``nodes[offset[r]:offset[r + 1]]``."""

    job: np.ndarray
    start: np.ndarray
    end: np.ndarray
    offset: np.ndarray
    nodes: np.ndarray

    @classmethod
    def of(cls, runs: list[tuple[int, float, float, np.ndarray]]) -> Runs:
        counts = np.array([len(nodes) for _, _, _, nodes in runs], dtype=np.int64)
        return cls(np.array([job for job, _, _, _ in runs], dtype=np.int64),
                   np.array([begin for _, begin, _, _ in runs], dtype=float),
                   np.array([finish for _, _, finish, _ in runs], dtype=float),
                   np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
                   np.concatenate([nodes for _, _, _, nodes in runs]).astype(np.int64) if runs
                   else np.zeros(0, dtype=np.int64))

    def __len__(self) -> int:
        return len(self.job)

    @property
    def counts(self) -> np.ndarray:
        return np.diff(self.offset)

    @property
    def run_of_node(self) -> np.ndarray:
        """For each entry of ``nodes``, its run."""
        return np.repeat(np.arange(len(self)), self.counts)

    def nodes_of(self, run: int) -> np.ndarray:
        return self.nodes[self.offset[run]:self.offset[run + 1]]

    def last_of_each(self, jobs: int) -> Runs:
        """The last run of each of ``jobs`` jobs (every job ran), in job order: a run a failure killed is
        followed by its job's next run, or is its last."""
        if np.array_equal(self.job, np.arange(jobs)):
            return self  # one run per job, in job order (the compiled loop's)
        # runs are kept in the order they ended: a job's last is its last entry
        found, from_the_end = np.unique(self.job[::-1], return_index=True)
        if len(found) != jobs:
            raise ValueError(f"runs of {len(found)} jobs, not {jobs}")
        last = len(self) - 1 - from_the_end
        counts = self.counts[last]
        return Runs(self.job[last], self.start[last], self.end[last], np.concatenate([[0], np.cumsum(counts)]),
                    np.concatenate([self.nodes_of(run) for run in last]) if jobs else self.nodes[:0])


class NodeMachine:
    def __init__(self, name: str, machine: Machine, jobs: NodeJobs, policy, windows=()):
        self.name = name
        self.description = machine
        self.policy = policy
        self.exclusive = machine.allocation == "exclusive"
        type_names = [node.name for node in machine.node_types]
        counts = [node.count for node in machine.node_types]
        self.node_type = np.repeat(np.arange(len(machine.node_types)), counts)
        self.capacity = {
            "cores": np.repeat([node.cores for node in machine.node_types], counts),
            "gpus": np.repeat([node.gpus for node in machine.node_types], counts),
            "memory_mb": np.repeat([node.memory_mb for node in machine.node_types], counts).astype(float),
        }
        self.free = {name: values.copy() for name, values in self.capacity.items()}
        self.partition_masks = [np.isin(self.node_type, [type_names.index(t) for t in members])
                                for members in machine.partitions.values()]
        self.partition_nodes = [np.flatnonzero(mask) for mask in self.partition_masks]
        self.outages = np.zeros(len(self.node_type), dtype=np.int64)  # drains and failures in force, per node
        self.windows = list(windows)  # announced maintenance: (start, end, nodes)
        self.jobs = jobs
        self.demand = {"cores": jobs.cores, "gpus": jobs.gpus, "memory_mb": jobs.memory_mb}
        self._demand_keys = list(zip(jobs.partition.tolist(), jobs.nodes.tolist(), jobs.cores.tolist(),
                                     jobs.gpus.tolist(), jobs.memory_mb.tolist()))
        self.queue: list[int] = []
        self.submit = jobs.submit.tolist()
        self.estimate = jobs.estimate.tolist()
        self.actual = jobs.actual.tolist()
        n = len(jobs)
        self.start_time = [math.nan] * n
        self.end_time = [math.nan] * n
        self.promised = [math.inf] * n
        self.kills = [0] * n
        self.held: dict[int, np.ndarray] = {}  # running job -> its nodes
        self.runs: list[tuple[int, float, float, np.ndarray]] = []  # (job, start, end, nodes), killed runs too
        self.busy = 0  # cores in use, as the engine's series records a machine's busy processors
        self.engine = None
        # The engine tidies each machine's availability profile at every new time; a node machine keeps
        # its running jobs instead and has nothing to tidy, so it stands as its own profile.
        self.profile = self

    def tidy(self, t: float) -> None:
        return None

    def fitting_nodes(self, job: int, at: float, free: dict[str, np.ndarray] | None = None,
                      excluded: np.ndarray | None = None, preferred: np.ndarray | None = None) -> np.ndarray | None:
        """The nodes ``job`` would get starting at ``at`` from ``free`` (what is free now, by default), first in
        node order; None if too few of its partition's nodes can hold it.  ``excluded`` nodes are no
        candidates; ``preferred`` ones come first."""
        usable = self.usable_nodes(job, at, free, excluded)
        wanted = self.jobs.nodes[job]
        if len(usable) < wanted:
            return None
        if preferred is not None and len(preferred):
            first = np.zeros(len(self.node_type), dtype=bool)
            first[preferred] = True
            usable = usable[np.argsort(~first[usable], kind="stable")]
        return np.sort(usable[:wanted])

    def demand_key(self, job: int) -> tuple:
        """What decides where ``job`` fits: two jobs of one key fit on the same nodes at the same time."""
        return (*self._demand_keys[job], self.estimate[job]) if self.windows else self._demand_keys[job]

    def free_cores(self) -> list[int]:
        """Per partition, the cores free now on its nodes that are in service: a job asking for more cannot
        start, whatever its other needs."""
        in_service = np.where(self.outages == 0, self.free["cores"], 0)
        return [int(in_service[mask].sum()) for mask in self.partition_masks]

    def usable_nodes(self, job: int, at: float, free: dict[str, np.ndarray] | None = None,
                     excluded: np.ndarray | None = None) -> np.ndarray:
        """Every node of ``job``'s partition that could hold it from ``at`` given ``free``, in node order: not
        drained or down, not under a maintenance window its requested time would reach, not ``excluded``."""
        free = self.free if free is None else free
        holds = self.partition_masks[self.jobs.partition[job]] & (self.outages == 0)
        for start, end, nodes in self.windows:
            if start < at + self.estimate[job] and end > at:
                holds[nodes] = False
        if excluded is not None and len(excluded):
            holds[excluded] = False
        for name in RESOURCES:
            need = self.demand[name][job]
            if self.exclusive:
                holds &= (free[name] == self.capacity[name]) & (self.capacity[name] >= need)
            elif need > 0:
                holds &= free[name] >= need
        return np.flatnonzero(holds)

    def start(self, job: int, t: float, nodes: np.ndarray) -> None:
        """Run ``job`` on ``nodes`` from ``t``, checking each node can give it what it takes."""
        nodes = np.asarray(nodes, dtype=np.int64)
        inside = len(nodes) and nodes.min() >= 0 and nodes.max() < len(self.node_type)
        if not inside or not self.partition_masks[self.jobs.partition[job]][nodes].all():
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
        self.start_time[job] = t
        self.busy += int(self.demand["cores"][job]) * len(nodes)
        self.engine.schedule_termination(self, job, t)

    def finish(self, job: int, t: float) -> None:
        if job not in self.held or t != self.start_time[job] + self.actual[job]:
            return  # the end of a run a failure killed: the job was requeued or is over
        self._release(job, t)
        self.end_time[job] = t

    def kill(self, job: int, t: float, requeue: bool) -> None:
        """End ``job``'s run at ``t`` (its node failed): back to the queue in arrival order, or over."""
        self._release(job, t)
        self.kills[job] += 1
        if not requeue:
            self.end_time[job] = t
            return
        self.start_time[job] = math.nan
        self.promised[job] = math.inf
        position = next((i for i, other in enumerate(self.queue) if self.submit[other] > self.submit[job]), None)
        self.queue.insert(len(self.queue) if position is None else position, job)

    def _release(self, job: int, t: float) -> None:
        nodes = self.held.pop(job)
        self.runs.append((job, self.start_time[job], t, nodes))
        for name in RESOURCES:
            self.free[name][nodes] += self.capacity[name][nodes] if self.exclusive else self.demand[name][job]
            if (self.free[name][nodes] > self.capacity[name][nodes]).any():
                raise InvariantError(f"{self.name}: a node has more {name} free than it holds after job "
                                     f"{self.jobs.job_id[job]} ended")
        self.busy -= int(self.demand["cores"][job]) * len(nodes)

    def reservation(self, job: int, t: float, excluded: np.ndarray | None = None) -> tuple[float, np.ndarray]:
        """When and where ``job`` could start at the earliest, if every running job ended at its estimate and
        no drained or failed node came back (the scheduler is not told when): at each time a running job
        ends or a maintenance window closes, in order, until it fits.  Among the nodes that would then hold
        it, those still busy now are taken first, so that the nodes free now stay free for backfilling as
        long as they can (in one pool of processors, this is EASY's count of extra processors).  Infinity,
        and no nodes, while down nodes keep it from fitting at all.  ``excluded`` nodes are not for it."""
        fits_now = self.fitting_nodes(job, t, excluded=excluded)
        if fits_now is not None:
            return t, fits_now
        free = {name: values.copy() for name, values in self.free.items()}
        ending = sorted(self.held, key=lambda running: (self.start_time[running] + self.estimate[running], running))
        ends = [self.start_time[running] + self.estimate[running] for running in ending]
        times = sorted({end for end in ends if end > t} | {end for _, end, _ in self.windows if end > t})
        released = 0
        for at in times:
            while released < len(ending) and ends[released] <= at:
                nodes = self.held[ending[released]]
                for name in RESOURCES:
                    free[name][nodes] += (self.capacity[name][nodes] if self.exclusive
                                          else self.demand[name][ending[released]])
                released += 1
            if self.fitting_nodes(job, at, free, excluded) is not None:
                return at, self._reserved_nodes(job, at, free, excluded)
        if self.outages.any():
            return math.inf, np.empty(0, dtype=np.int64)
        raise InvariantError(f"{self.name}: job {self.jobs.job_id[job]} fits nowhere even on an empty machine")

    def _reserved_nodes(self, job: int, at: float, free: dict[str, np.ndarray], excluded) -> np.ndarray:
        then = self.usable_nodes(job, at, free, excluded)
        free_now = np.isin(then, self.usable_nodes(job, at, excluded=excluded))
        return np.sort(then[np.argsort(free_now, kind="stable")][: self.jobs.nodes[job]])
