"""What the benchmark scripts share: the best of repeated timings of one action."""

from __future__ import annotations

import time


def best_of(repeat: int, action) -> float:
    """The shortest of ``repeat`` wall times of ``action()``, in seconds: the run least disturbed."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return min(times)
