"""The event heap of the compiled loops (numba), and how their helpers compile.

A binary min-heap kept in four parallel arrays: three keys compared in turn (a time; then what breaks a tie
at that time, such as an event's rank or a terminating job's start; then a sequence number, unique, so the
order is total and a run deterministic) and the job each event is about.  A loop owns the arrays, keeps the
size and passes it in; ``push`` returns the new size, ``pop`` the least event's job and the new size.  The
node replay (``simulators/nodes/compiled.py``), COSY's loop and koala's share it, so that every compiled loop
orders equal-time events by one piece of code.

numba's cache keys a compiled loop on its own file only: after an edit here, clear the callers' caches
(``__pycache__``), as a new install does; the compiled-against-reference tests would show a stale one.
"""

from __future__ import annotations

from numba import njit

helper = njit(cache=True, _nrt=False)
"""How the loops' helpers compile: without numba's reference counts on arrays, which they only borrow (they
allocate nothing, and slice nothing); counted, those atomic updates took most of the loop's time, as they did
in the bandwidth kernel (``simulators/bandwidth/jit.py``)."""


@helper
def before(first, second, third, a, b):
    """Whether event ``a`` comes before event ``b``: by the first key, then the second, then the third."""
    if first[a] != first[b]:
        return first[a] < first[b]
    if second[a] != second[b]:
        return second[a] < second[b]
    return third[a] < third[b]


@helper
def _swap(first, second, third, jobs, a, b):
    first[a], first[b] = first[b], first[a]
    second[a], second[b] = second[b], second[a]
    third[a], third[b] = third[b], third[a]
    jobs[a], jobs[b] = jobs[b], jobs[a]


@helper
def push(first, second, third, jobs, size, key1, key2, key3, job):
    """Add an event to a heap of ``size`` events; returns the new size."""
    i = size
    first[i], second[i], third[i], jobs[i] = key1, key2, key3, job
    while i > 0:
        parent = (i - 1) // 2
        if not before(first, second, third, i, parent):
            break
        _swap(first, second, third, jobs, i, parent)
        i = parent
    return size + 1


@helper
def pop(first, second, third, jobs, size):
    """Remove the least event of a heap of ``size`` events; returns its job and the new size."""
    job = jobs[0]
    size -= 1
    first[0], second[0], third[0], jobs[0] = first[size], second[size], third[size], jobs[size]
    i = 0
    while True:
        left, right, least = 2 * i + 1, 2 * i + 2, i
        if left < size and before(first, second, third, left, least):
            least = left
        if right < size and before(first, second, third, right, least):
            least = right
        if least == i:
            return job, size
        _swap(first, second, third, jobs, i, least)
        i = least
