"""A discrete-event queue whose events can be cancelled or moved.

Why not ``schedlab.simulators.core.engine``: that loop belongs to single machines with an
availability profile and per-machine queues, and its end events are fixed at start.
Here one scheduler sees every cluster, and the bandwidth stage re-plans running jobs'
ends whenever link bandwidth is re-shared, so an end event must be movable.

Events are ``(time, rank, sequence)``-ordered: ``rank`` says which kind goes first at
one timestamp (ends before arrivals, so nodes freed at t serve a job arriving at t) and
``sequence`` (the order events were pushed) breaks the remaining ties, so a run is
deterministic.  Cancelling marks the heap entry dead (it is skipped when popped);
moving cancels and pushes a fresh entry, which keeps the heap valid in O(log n).  The heap holds
``(time, rank, sequence, event)`` tuples: the sequence is unique, so the tuples compare in C and never
reach the event.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any


@dataclass(eq=False, slots=True)
class Event:
    time: float
    rank: int
    sequence: int
    kind: str
    payload: Any
    cancelled: bool = False


class EventQueue:
    def __init__(self):
        self._heap: list[tuple[float, int, int, Event]] = []
        self._sequence = 0
        self.now = float("-inf")

    def push(self, time: float, rank: int, kind: str, payload: Any = None) -> Event:
        """Schedule an event; the returned handle can be cancelled or moved."""
        if time < self.now:
            raise ValueError(f"cannot schedule a {kind} event at {time} before now ({self.now})")
        self._sequence += 1
        event = Event(float(time), rank, self._sequence, kind, payload)
        heapq.heappush(self._heap, (event.time, rank, self._sequence, event))
        return event

    def cancel(self, event: Event) -> None:
        event.cancelled = True

    def move(self, event: Event, time: float) -> Event:
        """Cancel ``event`` and schedule the same event at ``time``; returns the new handle."""
        if event.cancelled:
            raise ValueError(f"cannot move a cancelled {event.kind} event")
        self.cancel(event)
        return self.push(time, event.rank, event.kind, event.payload)

    def pop(self) -> Event | None:
        """The next live event (advancing ``now`` to its time), or None when none is left."""
        while self._heap:
            event = heapq.heappop(self._heap)[-1]
            if not event.cancelled:
                self.now = event.time
                return event
        return None

    def __len__(self) -> int:
        return sum(not entry[-1].cancelled for entry in self._heap)
