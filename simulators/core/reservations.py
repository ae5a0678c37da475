"""Advance reservations on one machine: accepted or rejected at once, started exactly on time.

The rule, as COSY states it (Cao and Zimmermann, "Queue scheduling and advance
reservations with COSY", IPDPS 2004, section 3.2), and as any stage may use it:

- A request asks for ``procs`` processors over ``[start, start + estimate)`` (the job's
  requested time is its binding length).  A "latest end" request is the same with
  ``start = end - estimate``.
- It is accepted if and only if those processors are free in the machine's availability
  profile, which holds running jobs (booked to their binding end, start + requested
  time) and the reservations accepted so far.  Waiting queue jobs are not in the
  profile, so they never block a reservation.  Otherwise it is rejected at once: a
  reservation is never moved.
- An accepted reservation is booked in the profile.  Every queue decision asks the same
  profile (EASY's head reservation through ``earliest_start``, a backfill through
  ``fits_beside``, a start through ``fits``), so no queue job can take those processors;
  a start event at ``start`` runs the job then, outside the waiting queue.
- Two-phase commitment: a request may be only booked; unless confirmed within
  ``confirm_timeout`` seconds (COSY: 5 minutes) the booking is released and the job
  never runs.  A booking still unconfirmed when its start comes is released too.

Timed actions (start, confirmation, expiry) travel through the engine as start events
(``engine.schedule_start``); the owning policy hands every such event to
``ReservationBook.on_event``.  ``check_started_on_time`` is the invariant: every
reservation that was accepted and confirmed ran from exactly its start time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from schedlab.simulators.core.invariants import InvariantError

DEFAULT_CONFIRM_TIMEOUT = 300.0

BOOKED, CONFIRMED, STARTED, EXPIRED = "booked", "confirmed", "started", "expired"
_START, _CONFIRM, _EXPIRE = "start", "confirm", "expire"


@dataclass
class Reservation:
    job: int
    start: float
    procs: int
    end: float  # binding end: start + requested time
    state: str


class ReservationBook:
    """The reservations of one machine; see the module docstring for the rules."""

    def __init__(self, machine, confirm_timeout: float = DEFAULT_CONFIRM_TIMEOUT):
        if not confirm_timeout > 0:
            raise ValueError(f"confirm_timeout must be positive, got {confirm_timeout}")
        self.machine = machine
        self.confirm_timeout = float(confirm_timeout)
        self.reservations: dict[int, Reservation] = {}
        self._events: dict[int, tuple[str, int]] = {}

    def request(self, job: int, t: float, start: float, confirm_after: float | None = 0.0) -> bool:
        """Try to reserve ``job``'s processors from ``start`` on, asked at ``t``; True if accepted.

        ``confirm_after``: 0 books and confirms at once (COSY's default mode); a positive
        delay is a two-phase request confirmed that long after booking (too late if above
        the timeout); ``None`` a two-phase request never confirmed.
        """
        machine = self.machine
        estimate, procs = machine.estimate[job], machine.procs[job]
        if start < t or not machine.profile.fits(start, estimate, procs):
            return False
        machine.profile.book(start, start + estimate, procs)
        machine.promised[job] = start
        confirmed = confirm_after == 0.0
        self.reservations[job] = Reservation(job, start, procs, start + estimate, CONFIRMED if confirmed else BOOKED)
        self._at(start, _START, job)
        if not confirmed:
            if confirm_after is not None:
                # Scheduled before the expiry, so a confirmation exactly at the deadline counts.
                self._at(t + confirm_after, _CONFIRM, job)
            self._at(t + self.confirm_timeout, _EXPIRE, job)
        return True

    def on_event(self, job: int, t: float, sequence: int) -> bool:
        """Carry out one timed action; True if it freed capacity (the queue may now move)."""
        action, _ = self._events.pop(sequence)
        reservation = self.reservations[job]
        if action == _CONFIRM and reservation.state == BOOKED:
            reservation.state = CONFIRMED
        elif action == _EXPIRE and reservation.state == BOOKED:
            self._release(reservation)
            return True
        elif action == _START:
            if reservation.state == BOOKED:
                self._release(reservation)
                return True
            if reservation.state == CONFIRMED:
                reservation.state = STARTED
                self.machine.start(job, t, booked=True, sequence=sequence, queued=False)
        return False

    def _release(self, reservation: Reservation) -> None:
        self.machine.profile.release(reservation.start, reservation.end, reservation.procs)
        self.machine.promised[reservation.job] = math.inf
        reservation.state = EXPIRED

    def _at(self, t: float, action: str, job: int) -> None:
        engine = self.machine.engine
        sequence = engine.next_sequence()
        self._events[sequence] = (action, job)
        engine.schedule_start(self.machine, job, t, sequence)

    def check_started_on_time(self) -> None:
        """Invariant: every confirmed reservation started, and exactly at its start time."""
        start_time = self.machine.start_time
        wrong = [
            r.job
            for r in self.reservations.values()
            if r.state != EXPIRED and (r.state != STARTED or start_time[r.job] != r.start)
        ]
        if wrong:
            shown = ", ".join(f"{j} (reserved {self.reservations[j].start}, started {start_time[j]})" for j in wrong[:10])
            raise InvariantError(f"{self.machine.name}: reservation(s) not started on time: {shown}")
