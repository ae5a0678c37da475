"""Conservative backfilling (Mu'alem & Feitelson, IEEE TPDS 12(6), 2001, section 2).

Every waiting job holds a reservation, so no job can be delayed by a later one:

- a newly submitted job is given the earliest slot where its estimate fits in the
  profile of running jobs and of every reservation already made (holes before other
  reservations may be used);
- when a job ends (early, since estimates are upper bounds), each waiting job in queue
  order gives up its slot and takes the earliest one now available, which is never
  later than the one it had ("compression").

A planned start becomes a start event; an event left behind by a compression is stale
and ignored.
"""

from __future__ import annotations

from schedlab.simulators.core.invariants import InvariantError


class ConservativeBackfilling:
    def __init__(self, order):
        self.order = order
        self._planned: dict[int, tuple[float, int]] = {}

    def schedule(self, machine, t: float, submitted, ended) -> None:
        if ended:
            self._compress(machine, t)
        for job in submitted:
            self._place(machine, job, t)

    def planned_start(self, machine, job: int, t: float, sequence: int) -> None:
        if self._planned.get(job) != (t, sequence):
            return
        del self._planned[job]
        machine.start(job, t, booked=True, sequence=sequence)

    def _place(self, machine, job: int, t: float) -> None:
        self._book(machine, job, machine.profile.earliest_start(t, machine.estimate[job], machine.procs[job]))

    def _book(self, machine, job: int, start: float) -> None:
        machine.profile.book(start, start + machine.estimate[job], machine.procs[job])
        sequence = machine.engine.next_sequence()
        self._planned[job] = (start, sequence)
        machine.engine.schedule_start(machine, job, start, sequence)
        machine.promised[job] = min(machine.promised[job], start)

    def _compress(self, machine, t: float) -> None:
        profile = machine.profile
        for job in self.order(machine, t):
            plan = self._planned.get(job)
            if plan is None or plan[0] <= t:
                continue  # not placed yet, or starting now
            old_start = plan[0]
            estimate, procs = machine.estimate[job], machine.procs[job]
            profile.release(old_start, old_start + estimate, procs)
            new_start = profile.earliest_start(t, estimate, procs)
            if new_start > old_start:
                raise InvariantError(
                    f"conservative: job {job} on {machine.name} moved from {old_start} to {new_start}"
                )
            if new_start == old_start:
                profile.book(old_start, old_start + estimate, procs)
            else:
                self._book(machine, job, new_start)
