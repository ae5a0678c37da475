"""The COSY scheduling policy: queues with EASY backfilling, and advance reservations.

(Cao and Zimmermann, IPDPS 2004, sections 3 and 4.)  At every pass:

1. Each newly submitted job passes the admission checks of its queue (user ``deny``,
   walltime and node limits: ``schedlab.simulators.cosy.queues``); a refused job is rejected.
2. An advance-reservation request leaves the queue at once.  Its start comes from the
   request (exact start, latest end minus the requested time, or "as early as the notice
   rule allows": now + n x W).  It is rejected if the share rule refuses reservations
   now (adaptive policy), if its notice is shorter than n x W (``schedlab.simulators.cosy.notice``),
   or if the processors are not free then given running jobs and accepted reservations
   (``schedlab.simulators.core.reservations``).  An accepted reservation takes precedence over the
   queue, so the head reservations promised to waiting queue jobs are void.
   Optionally (``requeue_refused``, a diagnostic the paper does not use: its refused
   reservations are simply rejected) a refused reservation joins its queue instead, in
   submission order, as the user falling back to the queue would.
3. The queues are served in strict priority order with FCFS and aggressive (EASY)
   backfilling inside one queue; a lower queue is reached only when no job waits in
   the ones above.  The profile holds the accepted reservations, so no queue job ever
   delays one.

``W`` is, by default, the mean wait of the queue jobs started so far, updated after every
pass (the paper's "current average waiting time", section 4.3).  Given ``mean_wait``, it is
that constant instead: the fixed-point reading of ``schedlab.simulators.cosy.fixed_point``.
"""

from __future__ import annotations

import math
import bisect
from dataclasses import dataclass

from schedlab.simulators.batch.easy import EasyBackfilling
from schedlab.simulators.core.reservations import DEFAULT_CONFIRM_TIMEOUT, ReservationBook
from schedlab.simulators.cosy.notice import notice_is_long_enough

EARLIEST, EXACT_START, LATEST_END = "earliest", "start", "end"
REQUEST_KINDS = (EARLIEST, EXACT_START, LATEST_END)


@dataclass(frozen=True)
class ReservationRequest:
    """How a reservation asks for its start.

    ``kind``: ``earliest`` (now + the shortest notice the policy allows: the paper's
    experiment), ``start`` (``time`` is the exact start) or ``end`` (``time`` is the
    latest end).  ``confirm_after``: see ``ReservationBook.request`` (0: confirmed at once).
    """

    kind: str = EARLIEST
    time: float = math.nan
    confirm_after: float | None = 0.0

    def __post_init__(self):
        if self.kind not in REQUEST_KINDS:
            raise ValueError(f"unknown reservation kind {self.kind!r}; choose one of {REQUEST_KINDS}")
        if self.kind != EARLIEST and not math.isfinite(self.time):
            raise ValueError(f"a {self.kind!r} reservation needs a time")

    def start(self, now: float, minimum_notice: float, estimate: float) -> float:
        if self.kind == EARLIEST:
            return now + minimum_notice
        if self.kind == EXACT_START:
            return self.time
        return self.time - estimate


@dataclass
class Decision:
    """What happened to one submitted job at its submission."""

    reservation: bool
    rejected_because: str = ""
    requeued: bool = False  # refused, then run as a queue job (``requeue_refused``)
    requested_start: float = math.nan
    mean_wait: float = math.nan  # W when the request came
    required_notice: float = math.nan


class CosyScheduler:
    def __init__(
        self, queues, notice, reservations: dict, confirm_timeout: float = DEFAULT_CONFIRM_TIMEOUT,
        requeue_refused: bool = False, mean_wait: float | None = None,
    ):
        self.queues = queues
        self.fixed_mean_wait = mean_wait
        self.requeue_refused = requeue_refused
        self.notice = notice
        self.requests = reservations  # job index -> ReservationRequest
        self.confirm_timeout = confirm_timeout
        self.decisions: dict[int, Decision] = {}
        self.book: ReservationBook | None = None
        self._easy = {q.name: EasyBackfilling(self._order_of(q.name)) for q in queues.by_priority}
        self._received = 0
        self._accepted = 0
        self._started_queue_jobs = 0
        self._queue_wait_sum = 0.0

    def _order_of(self, name: str):
        return lambda machine, t: self.queues.waiting(machine, name)

    def mean_queue_wait(self) -> float:
        if self.fixed_mean_wait is not None:
            return self.fixed_mean_wait
        return self._queue_wait_sum / self._started_queue_jobs if self._started_queue_jobs else 0.0

    def schedule(self, machine, t: float, submitted, ended) -> None:
        if self.book is None:
            self.book = ReservationBook(machine, self.confirm_timeout)
        for job in submitted:
            self._admit(machine, job, t)
        self._serve_queues(machine, t)

    def planned_start(self, machine, job: int, t: float, sequence: int) -> None:
        if self.book.on_event(job, t, sequence):
            self._serve_queues(machine, t)

    def _admit(self, machine, job: int, t: float) -> None:
        self._received += 1
        reservation = job in self.requests
        decision = self.decisions[job] = Decision(reservation)
        refusal = self.queues.refusal(machine, job)
        if reservation or refusal:
            machine.queue.remove(job)
        if refusal:
            decision.rejected_because = refusal
        elif reservation:
            self._reserve(machine, job, t, decision)
            if decision.rejected_because and self.requeue_refused:
                decision.requeued = True
                bisect.insort(machine.queue, job)

    def _reserve(self, machine, job: int, t: float, decision: Decision) -> None:
        factor = self.notice.required_factor(self._accepted / self._received)
        if factor is None:
            decision.rejected_because = "reservation share above the limit"
            return
        request = self.requests[job]
        decision.mean_wait = self.mean_queue_wait()
        decision.required_notice = factor * decision.mean_wait
        start = request.start(t, decision.required_notice, machine.estimate[job])
        decision.requested_start = start
        if not notice_is_long_enough(start, t, decision.required_notice):
            decision.rejected_because = "notice too short"
        elif not self.book.request(job, t, start, request.confirm_after):
            decision.rejected_because = "processors not free"
        else:
            self._accepted += 1
            for waiting in machine.queue:
                machine.promised[waiting] = math.inf

    def _serve_queues(self, machine, t: float) -> None:
        waiting_before = list(machine.queue)
        for position, queue in enumerate(self.queues.by_priority):
            self._easy[queue.name].schedule(machine, t, (), ())
            if self.queues.waiting(machine, queue.name):
                # Lower queues wait: the head reservations they were promised are void.
                for lower in self.queues.by_priority[position + 1 :]:
                    for job in self.queues.waiting(machine, lower.name):
                        machine.promised[job] = math.inf
                break
        for job in waiting_before:
            started = machine.start_time[job]
            if not math.isnan(started):
                self._started_queue_jobs += 1
                self._queue_wait_sum += started - machine.submit[job]
