"""One event loop that advances one or several machines together.

Events are kept in a heap ordered by ``(time, rank, tie, sequence)``:

- ``rank`` says which kind of event goes first at one timestamp.  Two orders exist:
  ``terminations_first`` (a job ending at t frees its processors for a job submitted
  at t: schedlab's default) and ``submissions_first`` (pyss's order).  Start events
  (used by policies that plan starts ahead, such as conservative backfilling) always
  come last.
- Terminations at one time are ordered by the start time of their jobs, then by the
  sequence number of the decision that started them, i.e. in the order the jobs were
  started.  ``sequence`` is a global counter, so every tie is broken explicitly and a
  run is deterministic.

A scheduling pass runs either after every submission or termination (``per_event``, as
pyss does) or once per timestamp after all of them (``per_timestamp``).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

SAME_TIME_ORDERS = ("terminations_first", "submissions_first")
PASS_MODES = ("per_event", "per_timestamp")

_SUBMIT, _TERMINATE, _START = 0, 1, 2
_PASS = 3  # a scheduling pass asked for at a time when nothing else may happen
PROGRESS_EVERY = 4096


@dataclass(frozen=True)
class EventOrder:
    same_time: str = "terminations_first"
    passes: str = "per_timestamp"

    def __post_init__(self):
        if self.same_time not in SAME_TIME_ORDERS:
            raise ValueError(f"same_time must be one of {SAME_TIME_ORDERS}, got {self.same_time!r}")
        if self.passes not in PASS_MODES:
            raise ValueError(f"passes must be one of {PASS_MODES}, got {self.passes!r}")


class Engine:
    def __init__(self, machines, order: EventOrder = EventOrder()):
        self.machines = list(machines)
        self.order = order
        if order.same_time == "submissions_first":
            self._rank = {_SUBMIT: 0, _TERMINATE: 1, _START: 2}
        else:
            self._rank = {_TERMINATE: 0, _SUBMIT: 1, _START: 2}
        self._rank[_PASS] = 1.5  # after this time's submissions and terminations, before planned starts
        self._heap: list[tuple] = []
        self._sequence = 0
        self.now = float("-inf")
        self.trace: dict[str, list[tuple[float, int, int]]] = {m.name: [] for m in self.machines}
        for index, machine in enumerate(self.machines):
            machine.engine = self
            machine.index = index
            rank = self._rank[_SUBMIT]
            for job, submit in enumerate(machine.submit):
                self._heap.append((submit, rank, 0.0, self.next_sequence(), _SUBMIT, index, job))
        heapq.heapify(self._heap)

    def next_sequence(self) -> int:
        self._sequence += 1
        return self._sequence

    def schedule_termination(self, machine, job: int, start: float, sequence: int | None = None) -> None:
        """Queue the end of ``job``; ``sequence`` is that of the decision that started it."""
        seq = self.next_sequence() if sequence is None else sequence
        heapq.heappush(
            self._heap,
            (start + machine.actual[job], self._rank[_TERMINATE], start, seq, _TERMINATE, machine.index, job),
        )

    def schedule_start(self, machine, job: int, t: float, sequence: int) -> None:
        heapq.heappush(self._heap, (t, self._rank[_START], 0.0, sequence, _START, machine.index, job))

    def withhold_submissions(self, machine, jobs) -> None:
        """Take these jobs' submissions on ``machine`` out of the run: ``submit_at`` brings each in
        when the run decides (closed-loop arrivals, ``schedlab.simulators.batch.feedback``)."""
        jobs = set(jobs)
        self._heap = [event for event in self._heap
                      if not (event[4] == _SUBMIT and event[5] == machine.index and event[6] in jobs)]
        heapq.heapify(self._heap)

    def submit_at(self, machine, job: int, t: float) -> None:
        """Submit ``job`` on ``machine`` at ``t`` (now, if ``t`` has passed) under a new sequence number."""
        t = max(t, self.now)
        machine.submit[job] = t
        heapq.heappush(self._heap, (t, self._rank[_SUBMIT], 0.0, self.next_sequence(), _SUBMIT, machine.index, job))

    def schedule_pass(self, machine, t: float) -> None:
        """Run a scheduling pass on ``machine`` at ``t`` even if no job arrives or ends then."""
        heapq.heappush(self._heap, (t, self._rank[_PASS], 0.0, self.next_sequence(), _PASS, machine.index, -1))

    def run(self, progress=None) -> None:
        """Process every event; ``progress(jobs ended so far)``, if given, is called every
        few thousand events and once at the end."""
        heap, machines = self._heap, self.machines
        per_event = self.order.passes == "per_event"
        start_rank = self._rank[_START]
        pending: dict[int, tuple[list, list]] = {}
        events = jobs_ended = 0
        while heap:
            t, rank, _, sequence, kind, index, job = heapq.heappop(heap)
            events += 1
            if progress is not None and events % PROGRESS_EVERY == 0:
                progress(jobs_ended)
            if t != self.now:
                self._record(self.now)
                self.now = t
            machine = machines[index]
            if kind == _START:
                machine.policy.planned_start(machine, job, t, sequence)
                continue
            if kind == _SUBMIT:
                machine.queue.append(job)
            elif kind == _TERMINATE:
                machine.finish(job, t)
                jobs_ended += 1
            if per_event:
                submitted, ended = ([job], []) if kind == _SUBMIT else ([], [job] if kind == _TERMINATE else [])
                machine.policy.schedule(machine, t, submitted, ended)
                continue
            lists = pending.setdefault(index, ([], []))
            if kind != _PASS:
                lists[0 if kind == _SUBMIT else 1].append(job)
            if heap and heap[0][0] == t and heap[0][1] < start_rank:
                continue
            for pending_index, (submitted, ended) in sorted(pending.items()):
                machines[pending_index].policy.schedule(machines[pending_index], t, submitted, ended)
            pending.clear()
        self._record(self.now)
        if progress is not None:
            progress(jobs_ended)

    def _record(self, t: float) -> None:
        if t == float("-inf"):
            return
        for machine in self.machines:
            self.trace[machine.name].append((t, len(machine.queue), machine.busy))
            machine.profile.tidy(t)
