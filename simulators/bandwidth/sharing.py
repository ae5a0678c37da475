"""Sharing the inter-cluster links among running co-allocated jobs (progressive filling).

Jones et al., ICPADS 2006, Sec. 3: when links are oversubscribed, every co-allocated job
gets the same fraction ``f`` of its demand, raised together until some link is full; the
jobs crossing that (most saturated) link keep that fraction, the others keep rising
until the next link fills or they reach their whole demand (``f = 1``).  This is max-min
fairness on the *fraction* of demand, so a job's rate is set by its most saturated link.

A job's execution is ``T_P + T_C`` with ``T_P = 0.7 T_E0`` untouched and ``T_C = 0.3 T_E0``
stretched to ``T_C / f``; with ``w`` the share of its work still to do, its end is
``now + w (T_P + T_C / f)``.  ``replan`` advances ``w`` under the old fraction and moves
the end under the new one; that is why end events move.
"""

from __future__ import annotations

import numpy as np

from schedlab.simulators.bandwidth.jit import uncounted

PROCESSING_SHARE = 0.7
"""T_P / T_E0 (spec): the rest, 0.3, is communication, the only part links slow down."""


@uncounted
def progressive_filling(demand: np.ndarray, capacity: np.ndarray, count: int, fraction: np.ndarray,
                        frozen: np.ndarray, used: np.ndarray) -> None:
    """Max-min fair fractions ``fraction[:count]`` of demands ``demand[:count, link]``; ``frozen`` (bool, one
    per job) and ``used`` (float, one per link) are work arrays."""
    links = capacity.shape[0]
    frozen[:count] = False
    used[:] = 0.0
    left = count
    while left > 0:
        level, bottleneck = 1.0, -1
        for link in range(links):
            rising = 0.0
            for job in range(count):
                if not frozen[job]:
                    rising += demand[job, link]
            if rising > 0.0:
                link_level = (capacity[link] - used[link]) / rising
                if link_level < level:
                    level, bottleneck = link_level, link
        for job in range(count):
            if not frozen[job] and (bottleneck < 0 or demand[job, bottleneck] > 0.0):
                frozen[job] = True
                fraction[job] = level
                left -= 1
                for link in range(links):
                    used[link] += level * demand[job, link]


@uncounted
def duration(base_time: float, fraction: float) -> float:
    """Whole-job duration at a constant fraction of its bandwidth demand."""
    return base_time * (PROCESSING_SHARE + (1.0 - PROCESSING_SHARE) / fraction)


def reference_fractions(demand, capacity) -> np.ndarray:
    """Python entry for tests: fractions of every job of ``demand`` (jobs x links)."""
    demand = np.asarray(demand, dtype=np.float64)
    fraction = np.zeros(len(demand))
    capacity = np.asarray(capacity, dtype=np.float64)
    progressive_filling(demand, capacity, len(demand), fraction, np.zeros(len(demand), dtype=np.bool_),
                        np.zeros(len(capacity)))
    return fraction
