"""Capacity events during a node replay (``parsers.events``), applied before each scheduling pass.

A drain or failure takes its nodes out when it begins and gives them back when it ends; a failure
also kills the jobs running on them then, each requeued (to run again from the start, in its place
by submit time) or ended, as the event says.  Maintenance windows are announced: the machine knows
them from the start (``NodeMachine.windows``) and starts no job that would reach into one.  What each
event did is counted for the page.
"""

from __future__ import annotations

import traceback
from pathlib import Path

import numpy as np

from schedlab.errors import SchedlabError
from schedlab.parsers.events import CapacityEvent


class WithCapacityEvents:
    """A node policy, with the capacity events due by each pass applied before it decides.  An exception
    raised in a researcher's own policy (``user_file``) becomes one line naming their file and line."""

    def __init__(self, policy, events: list[CapacityEvent], user_file: Path | None = None):
        self.policy = policy
        self.user_file = user_file
        self.events = events
        self._changes = sorted([(event.start, 1, number) for number, event in enumerate(events) if not event.announced]
                               + [(event.end, 0, number) for number, event in enumerate(events) if not event.announced])
        self._next = 0
        self.killed = [0] * len(events)
        self.requeued = [0] * len(events)

    def pass_times(self) -> list[float]:
        """When a pass must run even if no job arrives or ends: every drain's and failure's start and end, and
        every maintenance window's end."""
        return sorted({t for t, _, _ in self._changes} | {event.end for event in self.events if event.announced})

    def schedule(self, machine, t: float, submitted, ended) -> None:
        while self._next < len(self._changes) and self._changes[self._next][0] <= t:
            _, begins, number = self._changes[self._next]
            self._next += 1
            event = self.events[number]
            if not begins:
                machine.outages[event.nodes] -= 1
                continue
            machine.outages[event.nodes] += 1
            if event.kind == "failure":
                for job in [job for job, nodes in machine.held.items() if np.isin(nodes, event.nodes).any()]:
                    machine.kill(job, event.start, event.requeue)
                    self.killed[number] += 1
                    self.requeued[number] += event.requeue
        if self.user_file is None:
            self.policy.schedule(machine, t, submitted, ended)
            return
        try:
            self.policy.schedule(machine, t, submitted, ended)
        except Exception as error:  # the researcher's code: their file and line, not an internal error
            line = next((frame.lineno for frame in reversed(traceback.extract_tb(error.__traceback__))
                         if Path(frame.filename).resolve() == self.user_file), None)
            where = f"{self.user_file}:{line}" if line else str(self.user_file)
            raise SchedlabError(f"{where}: {type(error).__name__} in the policy's schedule at t={t:g}: {error}") from None
