"""Availability profile: free processors of one machine as a step function of time.

Segment ``i`` covers ``[times[i], times[i + 1])`` and has ``free[i]`` processors free; the
last segment runs to infinity.  Running jobs book ``[start, start + estimate)``; the
conservative policy and advance reservations book future intervals the same way, so
"does this fit" and "when is the earliest start" have one answer for every policy.

The arrays are numpy so that booking a long job over thousands of breakpoints (a large
machine such as CEA-Curie keeps thousands of running jobs) is one vectorized subtraction.
"""

from __future__ import annotations

from bisect import bisect_left

import numpy as np


class OverCommitError(RuntimeError):
    """A booking would take more processors than the machine has: a simulator bug."""


class AvailabilityProfile:
    def __init__(self, capacity: int, origin: float = float("-inf")):
        if capacity <= 0:
            raise ValueError(f"machine capacity must be positive, got {capacity}")
        self.capacity = int(capacity)
        self._times = np.array([origin], dtype=np.float64)
        self._free = np.array([self.capacity], dtype=np.int64)

    def copy(self) -> "AvailabilityProfile":
        twin = AvailabilityProfile.__new__(AvailabilityProfile)
        twin.capacity = self.capacity
        twin._times = self._times.copy()
        twin._free = self._free.copy()
        return twin

    def _segment(self, t: float) -> int:
        return int(np.searchsorted(self._times, t, side="right")) - 1

    def _split(self, t: float) -> int:
        """Make ``t`` a breakpoint and return its segment index."""
        k = self._segment(t)
        if self._times[k] == t:
            return k
        self._times = np.insert(self._times, k + 1, t)
        self._free = np.insert(self._free, k + 1, self._free[k])
        return k + 1

    def free_at(self, t: float) -> int:
        return int(self._free[self._segment(t)])

    def min_free(self, start: float, end: float) -> int:
        """Fewest free processors at any instant of ``[start, end)``."""
        i = self._segment(start)
        j = int(np.searchsorted(self._times, end, side="left"))
        return int(self._free[i:max(j, i + 1)].min())

    def fits(self, start: float, duration: float, procs: int) -> bool:
        return self.min_free(start, start + duration) >= procs

    def book(self, start: float, end: float, procs: int) -> None:
        """Take ``procs`` processors over ``[start, end)``; fails loudly on over-commit."""
        if end <= start:
            return
        i = self._split(start)
        j = self._split(end)
        window = self._free[i:j]
        window -= procs
        if procs > 0 and window.min() < 0:
            window += procs
            raise OverCommitError(
                f"booking {procs} processors over [{start}, {end}) exceeds capacity {self.capacity}"
            )

    def release(self, start: float, end: float, procs: int) -> None:
        """Give back ``procs`` processors over ``[start, end)`` (the inverse of ``book``)."""
        if end <= start:
            return
        i = self._split(start)
        j = self._split(end)
        window = self._free[i:j]
        window += procs
        if window.max() > self.capacity:
            window -= procs
            raise OverCommitError(
                f"releasing {procs} processors over [{start}, {end}) that were never booked"
            )

    def earliest_start(self, after: float, duration: float, procs: int) -> float:
        """Earliest ``s >= after`` with ``procs`` processors free throughout ``[s, s + duration)``."""
        if procs > self.capacity:
            raise OverCommitError(f"a {procs}-processor job never fits on {self.capacity} processors")
        k = self._segment(after)
        times, free = self._times, self._free
        while True:
            idx = k + int(np.argmax(free[k:] >= procs))
            start = max(after, float(times[idx]))
            j = int(np.searchsorted(times, start + duration, side="left"))
            short = np.flatnonzero(free[idx:j] < procs)
            if short.size == 0:
                return start
            k = idx + int(short[-1]) + 1

    def forget_before(self, t: float) -> None:
        """Drop history before ``t`` and merge equal neighbours: keeps the arrays short."""
        k = self._segment(t)
        times, free = self._times[k:], self._free[k:]
        keep = np.empty(free.size, dtype=bool)
        keep[0] = True
        np.not_equal(free[1:], free[:-1], out=keep[1:])
        self._times, self._free = times[keep], free[keep]

    def backfill_window(self, now: float, start: float, duration: float, procs: int) -> "BackfillWindow":
        """What stays free from ``now`` on once ``procs`` processors are set aside over
        ``[start, start + duration)``: EASY's protected head reservation."""
        shadow = self.copy()
        shadow.book(start, start + duration, procs)
        k = shadow._segment(now)
        times = shadow._times[k:].copy()
        times[0] = now
        return BackfillWindow(times.tolist(), np.minimum.accumulate(shadow._free[k:]).tolist())

    def steps(self) -> tuple[np.ndarray, np.ndarray]:
        """Breakpoints and free processors, for inspection and tests."""
        return self._times.copy(), self._free.copy()


class BackfillWindow:
    """Running minimum of free processors from ``now``: a job fits over ``[now, end)``
    iff the minimum up to the last segment starting before ``end`` covers it."""

    __slots__ = ("_times", "_running_min")

    def __init__(self, times: list, running_min: list):
        self._times = times
        self._running_min = running_min

    def allows(self, end: float, procs: int) -> bool:
        return self._running_min[bisect_left(self._times, end) - 1] >= procs
