"""Availability profile: free processors of one machine as a step function of time.

Segment ``i`` covers ``[times[i], times[i + 1])`` and has ``free[i]`` processors free; the
last segment runs to infinity.  Running jobs book ``[start, start + estimate)``; the
conservative policy and advance reservations book future intervals the same way, so
"does this fit" and "when is the earliest start" have one answer for every policy.

The segments live in preallocated numpy buffers walked by small numba-compiled
kernels: a scheduling pass asks the profile a handful of questions, each touching up
to thousands of segments on a large machine (CEA-Curie keeps thousands of jobs
running), and interpreted Python or per-call numpy overhead would dominate the run.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_OK, _NEGATIVE, _ABOVE_CAPACITY = 0, 1, 2


class OverCommitError(RuntimeError):
    """A booking would take more processors than the machine has: a simulator bug."""


@njit(cache=True)
def _segment(times, n, t):
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) // 2
        if times[mid] <= t:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


@njit(cache=True)
def _split(times, free, n, t):
    """Make ``t`` a breakpoint; return its segment index and the new length."""
    k = _segment(times, n, t)
    if times[k] == t:
        return k, n
    for m in range(n, k + 1, -1):  # shift the tail right in place: no temporary array
        times[m] = times[m - 1]
        free[m] = free[m - 1]
    times[k + 1] = t
    free[k + 1] = free[k]
    return k + 1, n + 1


@njit(cache=True)
def _add(times, free, n, start, end, delta, capacity):
    """Add ``delta`` free processors over ``[start, end)``; undo and report if it breaks bounds."""
    i, n = _split(times, free, n, start)
    j, n = _split(times, free, n, end)
    status = _OK
    for k in range(i, j):
        free[k] += delta
        if free[k] < 0:
            status = _NEGATIVE
        elif free[k] > capacity:
            status = _ABOVE_CAPACITY
    if status != _OK:
        for k in range(i, j):
            free[k] -= delta
    return n, status


@njit(cache=True)
def _min_free(times, free, n, start, end):
    k = _segment(times, n, start)
    low = free[k]
    k += 1
    while k < n and times[k] < end:
        if free[k] < low:
            low = free[k]
        k += 1
    return low


@njit(cache=True)
def _earliest_start(times, free, n, after, duration, procs):
    k = _segment(times, n, after)
    while True:
        while free[k] < procs:
            k += 1
        start = max(after, times[k])
        end = start + duration
        j = k + 1
        while j < n and times[j] < end and free[j] >= procs:
            j += 1
        if j == n or times[j] >= end:
            return start
        k = j


@njit(cache=True)
def _fits_beside(times, free, n, start, end, procs, held_start, held_end, held_procs):
    """Does ``procs`` fit over ``[start, end)`` once ``held_procs`` are set aside over
    ``[held_start, held_end)``?"""
    k = _segment(times, n, start)
    while k < n and times[k] < end:
        segment_start = max(times[k], start)
        segment_end = times[k + 1] if k + 1 < n else np.inf
        segment_end = min(segment_end, end)
        available = free[k]
        if segment_start < held_end and held_start < segment_end:
            available -= held_procs
        if available < procs:
            return False
        k += 1
    return True


@njit(cache=True)
def _forget_before(times, free, n, t):
    """Drop segments that end before ``t`` and merge equal neighbours; return the new length."""
    first = _segment(times, n, t)
    m = 0
    for k in range(first, n):
        if m > 0 and free[k] == free[m - 1]:
            continue
        times[m] = times[k]
        free[m] = free[k]
        m += 1
    return m


class AvailabilityProfile:
    def __init__(self, capacity: int, origin: float = float("-inf")):
        if capacity <= 0:
            raise ValueError(f"machine capacity must be positive, got {capacity}")
        self.capacity = int(capacity)
        self._times = np.empty(64, dtype=np.float64)
        self._free = np.empty(64, dtype=np.int64)
        self._times[0] = origin
        self._free[0] = self.capacity
        self._n = 1
        self._compact_at = 64

    def free_at(self, t: float) -> int:
        return int(self._free[_segment(self._times, self._n, t)])

    def min_free(self, start: float, end: float) -> int:
        """Fewest free processors at any instant of ``[start, end)``."""
        return int(_min_free(self._times, self._free, self._n, start, end))

    def fits(self, start: float, duration: float, procs: int) -> bool:
        return _min_free(self._times, self._free, self._n, start, start + duration) >= procs

    def fits_beside(self, start: float, duration: float, procs: int, held_start: float, held_duration: float, held_procs: int) -> bool:
        """Would ``procs`` fit over ``[start, start + duration)`` if ``held_procs`` more
        were set aside from ``held_start`` on: a backfill candidate beside EASY's head."""
        return _fits_beside(
            self._times, self._free, self._n, start, start + duration, procs,
            held_start, held_start + held_duration, held_procs,
        )

    def book(self, start: float, end: float, procs: int) -> None:
        """Take ``procs`` processors over ``[start, end)``; fails loudly on over-commit."""
        self._add(start, end, -procs)

    def release(self, start: float, end: float, procs: int) -> None:
        """Give back ``procs`` processors over ``[start, end)`` (the inverse of ``book``)."""
        self._add(start, end, procs)

    def _add(self, start: float, end: float, delta: int) -> None:
        if end <= start:
            return
        if self._n + 2 > self._times.size:
            self._times = np.concatenate([self._times, np.empty_like(self._times)])
            self._free = np.concatenate([self._free, np.empty_like(self._free)])
        self._n, status = _add(self._times, self._free, self._n, start, end, delta, self.capacity)
        if status == _NEGATIVE:
            raise OverCommitError(
                f"booking {-delta} processors over [{start}, {end}) exceeds capacity {self.capacity}"
            )
        if status == _ABOVE_CAPACITY:
            raise OverCommitError(f"releasing {delta} processors over [{start}, {end}) that were never booked")

    def earliest_start(self, after: float, duration: float, procs: int) -> float:
        """Earliest ``s >= after`` with ``procs`` processors free throughout ``[s, s + duration)``."""
        if procs > self.capacity:
            raise OverCommitError(f"a {procs}-processor job never fits on {self.capacity} processors")
        return float(_earliest_start(self._times, self._free, self._n, after, duration, procs))

    def forget_before(self, t: float) -> None:
        """Drop history before ``t`` and merge equal neighbours."""
        self._n = _forget_before(self._times, self._free, self._n, t)
        self._compact_at = max(64, 2 * self._n)

    def tidy(self, t: float) -> None:
        """``forget_before(t)``, but only once the profile has doubled since the last time:
        keeps it about as short as what is still booked at a cost amortized over many events."""
        if self._n >= self._compact_at:
            self.forget_before(t)

    def steps(self) -> tuple[np.ndarray, np.ndarray]:
        """Breakpoints and free processors, for inspection and tests."""
        return self._times[: self._n].copy(), self._free[: self._n].copy()
