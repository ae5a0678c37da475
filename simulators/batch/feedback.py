"""Closed-loop replay: a dependent session arrives its think time after its predecessors end, in the simulation.

Open-loop replay keeps every submit time of the log.  Closed-loop replay keeps the log's
users instead (Zakay and Feitelson, MASCOTS 2014; sessions from ``schedlab.workloads.sessions``):
an independent session's jobs arrive at their logged times; a dependent session's first
job arrives its think time after the last of its predecessor sessions ended *in this
simulation*, and its later jobs keep their offsets from it.  A scheduler that finishes
jobs sooner brings users back sooner, and one that delays them pushes their next work
later, as the log's users would have.

``SessionArrivals`` holds the bookkeeping (which jobs wait for which sessions; when a
session has ended), ``FeedbackEngine`` and ``FeedbackMachine`` hook it into the reference
event loop without changing it: the engine holds the dependent jobs' submissions back and
the machine reports each end.  The compiled event loop reads every submit time up front
from one sorted array, so closed-loop replays run on the interpreted reference engine
(which gives the same schedules in open loop).

With sessions marked by ``schedlab.workloads.sessions.keeping_time_of_day`` (an option, off by
default), a dependent session never starts earlier in its day than the log's did: an arrival
that would come earlier in the day waits for the logged time of day.

Sessions none of whose jobs is in the replay (all cleaned away) count as having ended at
their logged end.  A policy sees a released job as any other submission: policies,
orders, invariants and exports work unchanged, and the schedule's ``submit`` column holds
the simulated arrival.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict

import numpy as np

from schedlab.simulators.core.engine import _SUBMIT, Engine
from schedlab.simulators.core.machine import Machine

DAY = 86_400.0


class SessionArrivals:
    """The dependent sessions of one replay, in the indices of its batch (``BatchJobs``)."""

    def __init__(self, sessions, job_ids: np.ndarray):
        index_of = {int(job_id): i for i, job_id in enumerate(np.asarray(job_ids).tolist())}
        table = sessions.sessions.set_index("session_id")
        self.think = table["think_time"].to_dict()
        logged_end = table["end"].to_dict()
        self.jobs_of: dict[int, list[tuple[int, float]]] = defaultdict(list)
        self.session_of: dict[int, int] = {}
        for job_id, session, offset in sessions.jobs[["job_id", "session_id", "offset"]].itertuples(index=False):
            index = index_of.get(int(job_id))
            if index is not None:
                self.jobs_of[int(session)].append((index, float(offset)))
                self.session_of[index] = int(session)
        self.running = {session: len(jobs) for session, jobs in self.jobs_of.items()}
        self.ended_at = {session: -math.inf for session in self.jobs_of}
        self.waiting_for: dict[int, int] = defaultdict(int)
        self.predecessors_end: dict[int, float] = defaultdict(lambda: -math.inf)
        self.dependents: dict[int, list[int]] = defaultdict(list)
        for session, predecessor in sessions.predecessors.itertuples(index=False):
            session, predecessor = int(session), int(predecessor)
            if session not in self.jobs_of:
                continue
            if predecessor in self.jobs_of:
                self.waiting_for[session] += 1
                self.dependents[predecessor].append(session)
            else:
                self.predecessors_end[session] = max(self.predecessors_end[session], float(logged_end[predecessor]))
        self.held = {session for session in self.jobs_of if not math.isnan(self.think[session])}
        self.day_clock = sessions.day_clock
        self.time_of_day = ({} if self.day_clock is None else
                            {session: (first + self.day_clock) % DAY for session, first in table["first_submit"].items()})

    def first_arrival(self, session: int, ready: float) -> float:
        """``ready`` (predecessors' end plus think time), moved on to the session's logged time of day that
        day when the sessions keep their time of day and ``ready`` comes earlier in the day."""
        if self.day_clock is None:
            return ready
        clock = (ready + self.day_clock) % DAY
        return ready + max(self.time_of_day[session] - clock, 0.0)

    def held_jobs(self) -> set[int]:
        """Batch indices whose submission waits for the simulation."""
        return {index for session in self.held for index, _ in self.jobs_of[session]}

    def ready_at_start(self) -> list[tuple[int, float]]:
        """Dependent sessions all of whose predecessors are outside the replay: (session, arrival)."""
        return [(session, self.first_arrival(session, self.predecessors_end[session] + self.think[session]))
                for session in sorted(self.held) if self.waiting_for[session] == 0]

    def job_ended(self, index: int, t: float) -> list[tuple[int, float]]:
        """Record the end of a job; the sessions this releases, with their first arrival."""
        session = self.session_of.get(index)
        if session is None:
            return []
        self.ended_at[session] = max(self.ended_at[session], t)
        self.running[session] -= 1
        if self.running[session]:
            return []
        released = []
        for dependent in self.dependents[session]:
            self.predecessors_end[dependent] = max(self.predecessors_end[dependent], self.ended_at[session])
            self.waiting_for[dependent] -= 1
            if self.waiting_for[dependent] == 0:
                released.append((dependent, self.first_arrival(
                    dependent, self.predecessors_end[dependent] + self.think[dependent])))
        return released


class FeedbackMachine(Machine):
    """A machine that tells its engine when each job ends (the engine may then release sessions)."""

    def finish(self, job: int, t: float) -> None:
        super().finish(job, t)
        self.engine.job_ended(self, job, t)


class FeedbackEngine(Engine):
    """The reference event loop with the dependent sessions' submissions held until released."""

    def __init__(self, machine: FeedbackMachine, order, arrivals: SessionArrivals):
        super().__init__([machine], order)
        self.arrivals = arrivals
        held = arrivals.held_jobs()
        self._heap = [event for event in self._heap if not (event[4] == _SUBMIT and event[6] in held)]
        heapq.heapify(self._heap)
        for session, arrival in arrivals.ready_at_start():
            self.release(machine, session, arrival)

    def release(self, machine: Machine, session: int, first_arrival: float) -> None:
        """Submit the session's jobs: the first at ``first_arrival``, the others at their offsets from it."""
        for index, offset in self.arrivals.jobs_of[session]:
            arrival = max(first_arrival + offset, self.now)
            machine.submit[index] = arrival
            heapq.heappush(self._heap, (arrival, self._rank[_SUBMIT], 0.0, self.next_sequence(), _SUBMIT,
                                        machine.index, index))

    def job_ended(self, machine: Machine, job: int, t: float) -> None:
        for session, arrival in self.arrivals.job_ended(job, t):
            self.release(machine, session, arrival)
