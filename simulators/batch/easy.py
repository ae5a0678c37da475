"""EASY backfilling (Lifka 1995; Mu'alem & Feitelson, IEEE TPDS 12(6), 2001, section 2).

Only the first waiting job is protected.  At every pass:

1. start queue heads while they fit now (as FCFS does);
2. the job now at the head gets a reservation: the earliest time its estimate fits in
   the profile of what is running (and any advance reservation);
3. every later job, in queue order, starts now if it fits now and, with the head's
   reservation set aside, still fits for its whole estimate; i.e. it ends by the
   reservation, or uses only processors the head will not need then.

Backfilled jobs are booked as they start, so each later candidate sees them; the
head's reservation cannot move later, and the invariant checker verifies it did not.
"""

from __future__ import annotations

import math

from schedlab.simulators.batch.fcfs import start_fitting_heads


class EasyBackfilling:
    def __init__(self, order):
        self.order = order
        self._protected_head = None

    def schedule(self, machine, t: float, submitted, ended) -> None:
        ordered = self.order(machine, t)
        if ordered:
            self._overtaken_by(machine, ordered[0])
        queue = start_fitting_heads(machine, ordered, t)
        if not queue:
            return
        head = queue[0]
        self._protected_head = head
        profile, estimate, procs = machine.profile, machine.estimate, machine.procs
        free_now = profile.free_at(t)
        reservation = None
        for job in queue[1:]:
            if procs[job] > free_now:
                continue
            if reservation is None:
                # Backfilling never delays the head, so one reservation serves the pass.
                reservation = profile.earliest_start(t, estimate[head], procs[head])
                machine.promised[head] = min(machine.promised[head], reservation)
            if profile.fits_beside(t, estimate[job], procs[job], reservation, estimate[head], procs[head]):
                machine.start(job, t)
                free_now = profile.free_at(t)  # a start gate (coscheduling) may have kept the job back

    def _overtaken_by(self, machine, first: int) -> None:
        """Under a priority order a job may move ahead of the protected head (and even
        start in the head loop before it): the head then loses its reservation."""
        previous = self._protected_head
        if previous is not None and previous != first and math.isnan(machine.start_time[previous]):
            machine.promised[previous] = math.inf
