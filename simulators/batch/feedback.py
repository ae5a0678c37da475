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
the machine reports each end.  Both read the flat ``SessionTables``, which the compiled
event loop follows too; the tests compare both loops job for job.

With sessions marked by ``schedlab.workloads.sessions.keeping_time_of_day`` (an option, off by
default), a dependent session never starts earlier in its day than the log's did: an arrival
that would come earlier in the day waits for the logged time of day.

Sessions none of whose jobs is in the replay (all cleaned away) count as having ended at
their logged end.  A policy sees a released job as any other submission: policies,
orders, invariants and exports work unchanged, and the schedule's ``submit`` column holds
the simulated arrival.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from schedlab.simulators.core.engine import Engine
from schedlab.simulators.core.machine import Machine
from schedlab.workloads.cycle import SECONDS_PER_DAY


@dataclass(frozen=True)
class SessionTables:
    """The sessions of one replay as flat arrays, in the indices of its batch (``BatchJobs``).

    Sessions are numbered by id among those with a job in the replay.  Each session's jobs
    (batch indices, in submit order, with their offsets from its first submission) are the
    slice ``member_start[k]:member_start[k + 1]`` of ``members``/``member_offsets``, the
    sessions waiting for it that of ``dependents``.  ``think`` is NaN for an independent
    session; ``ready`` is the latest logged end among its predecessors outside the replay
    (-inf if none), ``waiting`` how many of its predecessors are in it.  This is what both
    event loops read: ``SessionArrivals`` below, and ``_event_loop.c``'s ``Sessions``.
    """

    job_session: np.ndarray
    held: np.ndarray
    member_start: np.ndarray
    members: np.ndarray
    member_offsets: np.ndarray
    dependent_start: np.ndarray
    dependents: np.ndarray
    think: np.ndarray
    time_of_day: np.ndarray
    running: np.ndarray
    waiting: np.ndarray
    ready: np.ndarray
    day_clock: float  # NaN unless sessions keep their time of day

    @classmethod
    def of(cls, sessions, job_ids: np.ndarray) -> SessionTables:
        job_ids = np.asarray(job_ids)
        index = pd.Index(job_ids).get_indexer(sessions.jobs["job_id"].to_numpy())
        inside = index >= 0
        index = index[inside]
        session_of_row = sessions.jobs["session_id"].to_numpy()[inside]
        offsets = sessions.jobs["offset"].to_numpy(dtype=np.float64)[inside]
        ids = np.unique(session_of_row)
        number = np.searchsorted(ids, session_of_row)
        by_session = np.argsort(number, kind="stable")  # each session's jobs in the table's order
        running = np.bincount(number, minlength=len(ids)).astype(np.int64)

        table = sessions.sessions  # sorted by session id
        table_ids = table["session_id"].to_numpy()
        row = np.searchsorted(table_ids, ids)
        think = table["think_time"].to_numpy(dtype=np.float64)[row]
        logged_end = table["end"].to_numpy(dtype=np.float64)

        follower = sessions.predecessors["session_id"].to_numpy()
        leader = sessions.predecessors["predecessor_id"].to_numpy()
        follower_number, leader_number = np.searchsorted(ids, follower), np.searchsorted(ids, leader)
        follows_inside, leads_inside = np.isin(follower, ids), np.isin(leader, ids)
        linked = follows_inside & leads_inside
        waiting = np.bincount(follower_number[linked], minlength=len(ids)).astype(np.int64)
        by_leader = np.argsort(leader_number[linked], kind="stable")
        ready = np.full(len(ids), -math.inf)
        outside = follows_inside & ~leads_inside  # a predecessor all of whose jobs were cleaned away: its logged end
        np.maximum.at(ready, follower_number[outside], logged_end[np.searchsorted(table_ids, leader[outside])])

        job_session = np.full(len(job_ids), -1, dtype=np.int64)
        job_session[index] = number
        held = np.zeros(len(job_ids), dtype=np.int64)
        held[index] = ~np.isnan(think[number])
        day_clock = math.nan if sessions.day_clock is None else float(sessions.day_clock)
        first = table["first_submit"].to_numpy(dtype=np.float64)[row]
        return cls(job_session=job_session, held=held, member_start=_starts(running),
                   members=index[by_session].astype(np.int64), member_offsets=offsets[by_session],
                   dependent_start=_starts(np.bincount(leader_number[linked], minlength=len(ids))),
                   dependents=follower_number[linked][by_leader].astype(np.int64), think=think,
                   time_of_day=np.mod(first + day_clock, SECONDS_PER_DAY), running=running, waiting=waiting, ready=ready,
                   day_clock=day_clock)

    def for_compiled_loop(self) -> tuple:
        """The arguments of ``_event_loop.run``'s ``sessions``: fresh copies of the counters it updates."""
        return (self.job_session, self.held, self.member_start, self.members, self.member_offsets,
                self.dependent_start, self.dependents, self.think, self.time_of_day, self.running.copy(),
                self.waiting.copy(), self.ready.copy(), np.full(len(self.think), -math.inf), self.day_clock)


def _starts(counts: np.ndarray) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


class SessionArrivals:
    """The closed loop's bookkeeping for the reference engine: which sessions wait, and when one ends."""

    def __init__(self, tables: SessionTables):
        self.tables = tables
        self.session_of = tables.job_session.tolist()
        self.think = tables.think.tolist()
        self.running = tables.running.tolist()
        self.waiting_for = tables.waiting.tolist()
        self.predecessors_end = tables.ready.tolist()
        self.ended_at = [-math.inf] * len(self.think)
        members, offsets = tables.members.tolist(), tables.member_offsets.tolist()
        bounds = tables.member_start.tolist()
        self.jobs_of = [list(zip(members[a:b], offsets[a:b])) for a, b in zip(bounds, bounds[1:])]
        dependents, bounds = tables.dependents.tolist(), tables.dependent_start.tolist()
        self.dependents = [dependents[a:b] for a, b in zip(bounds, bounds[1:])]
        self.time_of_day = tables.time_of_day.tolist()

    def first_arrival(self, session: int, ready: float) -> float:
        """``ready`` (predecessors' end plus think time), moved on to the session's logged time of day that
        day when the sessions keep their time of day and ``ready`` comes earlier in the day."""
        if math.isnan(self.tables.day_clock):
            return ready
        clock = (ready + self.tables.day_clock) % SECONDS_PER_DAY
        return ready + max(self.time_of_day[session] - clock, 0.0)

    def held_jobs(self) -> set[int]:
        """Batch indices whose submission waits for the simulation."""
        return set(np.flatnonzero(self.tables.held).tolist())

    def ready_at_start(self) -> list[tuple[int, float]]:
        """Dependent sessions all of whose predecessors are outside the replay: (session, arrival)."""
        return [(session, self.first_arrival(session, self.predecessors_end[session] + think))
                for session, think in enumerate(self.think)
                if not math.isnan(think) and self.waiting_for[session] == 0]

    def job_ended(self, index: int, t: float) -> list[tuple[int, float]]:
        """Record the end of a job; the sessions this releases, with their first arrival."""
        session = self.session_of[index]
        if session < 0:
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
        self.withhold_submissions(machine, arrivals.held_jobs())
        for session, arrival in arrivals.ready_at_start():
            self.release(machine, session, arrival)

    def release(self, machine: Machine, session: int, first_arrival: float) -> None:
        """Submit the session's jobs: the first at ``first_arrival``, the others at their offsets from it."""
        for index, offset in self.arrivals.jobs_of[session]:
            self.submit_at(machine, index, first_arrival + offset)

    def job_ended(self, machine: Machine, job: int, t: float) -> None:
        for session, arrival in self.arrivals.job_ended(job, t):
            self.release(machine, session, arrival)
