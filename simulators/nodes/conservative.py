"""Conservative backfilling on nodes (Mu'alem & Feitelson, IEEE TPDS 12(6), 2001, section 2), with Slurm's
backfill scheduler as the reference where nodes make a choice.

Every waiting job holds a reservation, so no job is ever delayed by one that came after it:

- a job without one (just submitted, or requeued by a failure) is given, in queue order, the earliest
  time from which its partition has, for its whole requested time, the nodes it asks for with its
  per-node demand free of every running job (until its estimated end), every other reservation and
  every announced maintenance window; its nodes are the first such in node order (Slurm plans a
  pending job on a set of nodes, as here, not on a count of processors);
- when a job ends (early, since requested times are upper bounds), each waiting job in queue order
  gives up its reservation and takes the earliest one now free, which is never later than the one it
  had: its old nodes are still free then ("compression");
- a job starts when its reserved time comes, on its reserved nodes.

A drained or failed node is out of every plan, for as long as the scheduler cannot know; a reservation
on such a node is void, and its job (its promise void too) is planned again, as a new one.

On one-core nodes this is not one-pool conservative backfilling start for start: a pool lets a job's
processors be any that are free at each moment, while a reservation holds the same nodes throughout.
"""

from __future__ import annotations

import math

import numpy as np

from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.nodes.fcfs import arrival
from schedlab.simulators.nodes.machine import RESOURCES


class NodeBookings:
    """What holds each node from ``t`` on: the running jobs until their estimated ends, the reservations and
    the announced maintenance windows.  ``earliest`` finds where a job fits among them.

    It keeps, per node and resource, what the bookings take from each of a set of times to the next
    (``usage[time, node, resource]``; the last row lasts for ever).  Those times include every time a
    booking begins or ends from ``t`` on, and may include a few more where one was cancelled: a job can
    begin only at ``t`` or when some booking ends (before, what it would meet only grows), so a time
    where nothing ends is never the earliest that fits, and the answer does not depend on them."""

    def __init__(self, machine, t: float, demand: np.ndarray, plans: dict[int, tuple[float, np.ndarray]]):
        self.machine = machine
        self.t = t
        self.demand = demand  # per job, what it takes of each of its nodes: cores, GPUs, MiB
        self.capacity = np.stack([machine.capacity[name] for name in RESOURCES], axis=1).astype(float)
        self.planned = {job: (start, start + machine.estimate[job], nodes) for job, (start, nodes) in plans.items()}
        held = list(machine.held.items())
        windows = [(start, end, np.asarray(nodes, dtype=np.int64)) for start, end, nodes in machine.windows if end > t]
        estimate, start_time = np.asarray(machine.estimate), np.asarray(machine.start_time)
        running = np.array([job for job, _ in held], dtype=np.int64)
        waiting = np.array(list(self.planned), dtype=np.int64)
        starts = np.concatenate([start_time[running], [start for start, _, _ in self.planned.values()],
                                 [start for start, _, _ in windows]])
        ends = np.concatenate([start_time[running] + estimate[running], [end for _, end, _ in self.planned.values()],
                               [end for _, end, _ in windows]])
        node_lists = [nodes for _, nodes in held] + [nodes for _, _, nodes in self.planned.values()] + \
            [nodes for _, _, nodes in windows]
        counts = np.array([len(nodes) for nodes in node_lists], dtype=np.int64)
        nodes = np.concatenate(node_lists).astype(np.int64) if node_lists else np.zeros(0, dtype=np.int64)
        jobs = np.repeat(np.concatenate([running, waiting, np.full(len(windows), -1)]), counts)
        whole = machine.exclusive | (jobs < 0)  # a window takes its nodes whole
        taken = np.where(whole[:, None], self.capacity[nodes], demand[np.maximum(jobs, 0)])
        starts = np.maximum(starts, t)
        self.times = np.unique(np.concatenate([[t], starts, ends]))
        steps = np.zeros((len(self.times) + 1, len(machine.node_type), len(RESOURCES)))
        np.add.at(steps, (np.repeat(np.searchsorted(self.times, starts), counts), nodes), taken)
        np.add.at(steps, (np.repeat(np.searchsorted(self.times, ends), counts), nodes), -taken)
        self.usage = np.cumsum(steps, axis=0)[:-1]

    def _taken(self, job: int, nodes: np.ndarray) -> np.ndarray:
        """What ``job`` takes of each of its ``nodes``: its demand, or the whole node if allocation is exclusive."""
        if self.machine.exclusive:
            return self.capacity[nodes]
        return np.broadcast_to(self.demand[job], (len(nodes), len(RESOURCES)))

    def _row(self, time: float) -> int:
        """The row of ``time``, made if it had none (a copy of the row it splits)."""
        row = int(np.searchsorted(self.times, time))
        if row == len(self.times) or self.times[row] != time:
            self.times = np.insert(self.times, row, time)
            self.usage = np.insert(self.usage, row, self.usage[row - 1] if row else 0.0, axis=0)
        return row

    def _add(self, job: int, start: float, end: float, nodes: np.ndarray, sign: int) -> None:
        first, last = self._row(max(start, self.t)), self._row(end)
        self.usage[first:last, nodes] += sign * self._taken(job, nodes)

    def book(self, job: int, start: float, nodes: np.ndarray) -> None:
        """``job`` is reserved ``nodes`` from ``start`` for its requested time."""
        end = start + self.machine.estimate[job]
        self.planned[job] = (start, end, nodes)
        self._add(job, start, end, nodes, 1)

    def cancel(self, job: int) -> None:
        self._add(job, *self.planned.pop(job), -1)

    def earliest(self, job: int, excluded: np.ndarray | None = None, latest: float = math.inf) -> tuple[float, np.ndarray]:
        """The earliest time from ``t`` (and at most ``latest``) at which ``job`` fits for its requested time, and
        its nodes there (the first that hold it, in node order); infinity and no nodes if it fits at no such
        time, which only down nodes (or ``latest``) can cause."""
        machine = self.machine
        usable = machine.partition_masks[machine.jobs.partition[job]] & (machine.outages == 0)
        if excluded is not None and len(excluded):
            usable[excluded] = False
        need = self.demand[job]
        if machine.exclusive:
            usable &= (self.capacity >= need).all(axis=1)
        nodes = np.flatnonzero(usable)
        starts = int(np.searchsorted(self.times, latest, side="right"))  # the rows a start may take
        until = np.searchsorted(self.times, self.times[:starts] + machine.estimate[job], side="left")
        rows = int(until.max()) if starts else 0
        usage = self.usage[:rows, nodes]
        if machine.exclusive:
            room = (usage == 0).all(axis=2)  # [time, node]
        else:
            room = ((need <= 0) | (self.capacity[nodes] - usage >= need)).all(axis=2)
        # a node holds the job from time i if it has room at every time from i to the job's estimated end
        short = np.zeros((rows + 1, len(nodes)), dtype=np.int64)
        np.cumsum(~room, axis=0, out=short[1:])
        holds = short[until] == short[:starts]
        enough = np.flatnonzero(holds.sum(axis=1) >= machine.jobs.nodes[job])
        if len(enough):
            first = enough[0]
            return float(self.times[first]), nodes[holds[first]][:machine.jobs.nodes[job]]
        if machine.outages.any() or latest < math.inf:
            return math.inf, np.empty(0, dtype=np.int64)
        raise InvariantError(f"{machine.name}: job {machine.jobs.job_id[job]} fits nowhere even on an empty machine")


class NodeConservativeBackfilling:
    def __init__(self, order=arrival):
        self.order = order  # order(machine, t) -> the waiting jobs, in the order they are planned
        self.plans: dict[int, tuple[float, np.ndarray]] = {}  # waiting job -> its reserved start and nodes
        self._outages = None  # the nodes out of service at the last pass
        self._demand = None  # per job, what it takes of a node

    def keep_off(self, machine, job: int):
        """Nodes ``job`` must not take (none): a policy's own rule overrides it (docs/policies.md)."""
        return None

    def schedule(self, machine, t: float, submitted, ended) -> None:
        for job, (_, nodes) in list(self.plans.items()):
            if machine.outages[nodes].any():
                del self.plans[job]  # a node of its plan went out of service: the plan and its promise are void
                machine.promised[job] = math.inf
        if self._demand is None:
            self._demand = np.stack([machine.demand[name] for name in RESOURCES], axis=1).astype(float)
        bookings = NodeBookings(machine, t, self._demand, self.plans)
        waiting = self.order(machine, t)
        early = any(machine.start_time[job] + machine.estimate[job] > t for job in ended)
        if early or not np.array_equal(machine.outages, self._outages):
            # Room came free before it was booked to, or nodes came back: reservations may move earlier.  A job
            # ending at its estimated end frees nothing its booking had not given back already.
            self._compress(machine, bookings, waiting)
        self._outages = machine.outages.copy()
        for job in waiting:
            if job not in self.plans:
                self._plan(machine, bookings, job, *bookings.earliest(job, self.keep_off(machine, job)))
        for job in waiting:
            start, nodes = self.plans.get(job, (math.inf, None))
            if start <= t:
                del self.plans[job]
                machine.start(job, t, nodes)

    def _plan(self, machine, bookings: NodeBookings, job: int, start: float, nodes: np.ndarray) -> None:
        """Reserve ``nodes`` from ``start`` for ``job``; an infinite start (down nodes in the way) is no plan: the
        job is planned again at the next pass."""
        if not math.isfinite(start):
            return
        self.plans[job] = (start, nodes)
        machine.promised[job] = min(machine.promised[job], start)
        bookings.book(job, start, nodes)
        if start > bookings.t:
            machine.engine.schedule_pass(machine, start)

    def _compress(self, machine, bookings: NodeBookings, waiting: list[int]) -> None:
        for job in waiting:
            plan = self.plans.get(job)
            if plan is None:
                continue
            bookings.cancel(job)
            start, nodes = bookings.earliest(job, self.keep_off(machine, job), latest=plan[0])
            if start > plan[0]:  # its old nodes were still free then: a broken rule
                raise InvariantError(f"{machine.name}: conservative: job {machine.jobs.job_id[job]} moved from "
                                     f"{plan[0]:g} to {start:g}")
            self._plan(machine, bookings, job, start, nodes)
