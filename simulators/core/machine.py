"""A machine: its availability profile, its waiting queue and the jobs it runs."""

from __future__ import annotations

import math

from schedlab.simulators.core.jobs import BatchJobs
from schedlab.simulators.core.profile import AvailabilityProfile


class Machine:
    """State of one machine during a simulation.

    The policy decides; the machine books capacity and keeps the record.  ``start`` is
    the single door through which a job begins to run, so every stage that needs to
    intercept a start (coscheduling, reservations) has one place to do it.
    """

    def __init__(self, name: str, capacity: int, jobs: BatchJobs, policy):
        self.name = name
        self.capacity = int(capacity)
        self.policy = policy
        self.profile = AvailabilityProfile(self.capacity)
        self.queue: list[int] = []
        # Plain lists: scalar access in the event loop is several times faster than numpy.
        self.submit = jobs.submit.tolist()
        self.estimate = jobs.estimate.tolist()
        self.actual = jobs.actual.tolist()
        self.procs = jobs.procs.tolist()
        n = len(jobs)
        self.start_time = [math.nan] * n
        # Latest start each job was promised (EASY head reservation, conservative slot);
        # the invariant checker verifies that no job started after its promise.
        self.promised = [math.inf] * n
        self.busy = 0
        self.engine = None
        # Optional ``gate(machine, job, t) -> bool`` asked at every start: False keeps the
        # job from starting now (the gate held or declined it).  Coscheduling uses it.
        self.start_gate = None

    def start(
        self, job: int, t: float, booked: bool = False, sequence: int | None = None, queued: bool = True
    ) -> None:
        """Run ``job`` from ``t`` and take it off the queue.

        ``booked`` when its interval is already in the profile (a planned start);
        ``sequence`` is that of the decision that planned it, which orders equal-time
        terminations (a new one is drawn when the start is decided now); ``queued=False``
        for a job that never waited in the queue (an advance reservation).
        """
        if self.start_gate is not None and not self.start_gate(self, job, t):
            return
        if not booked:
            self.profile.book(t, t + self.estimate[job], self.procs[job])
        if queued:
            self.queue.remove(job)
        self.start_time[job] = t
        self.busy += self.procs[job]
        self.engine.schedule_termination(self, job, t, sequence)

    def finish(self, job: int, t: float) -> None:
        """Free what the job still had booked: the tail of its estimate it did not use."""
        start = self.start_time[job]
        self.profile.release(t, start + self.estimate[job], self.procs[job])
        self.busy -= self.procs[job]
