"""Periodic arrival cycles as a time warp.

Job arrivals follow the clock: many jobs arrive at 14:00 on a Tuesday, few at 04:00 on a
Sunday.  Both the Lublin-Feitelson model (Lublin and Feitelson, "The workload on parallel
supercomputers: modeling the characteristics of rigid jobs", JPDC 63(11), 2003) and the
models fitted here describe this with *slot weights*: the period (a day or a week) is cut
into equal slots and each slot gets a weight proportional to how busy it is, normalised
so that the weights average 1.

The weights define a warped clock that runs ``weight`` times faster than the wall clock
inside each slot.  Arrivals are a stationary process on the warped clock; mapping them
back to wall-clock time (``unwarp``) crowds them into busy slots and thins them out in
quiet ones.  Because the weights average 1, one period lasts exactly one period on both
clocks, so a long warped span and its wall-clock span have the same length.  Every
weight must be strictly positive, otherwise the warp could not be inverted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SECONDS_PER_HOUR = 3600
SECONDS_PER_DAY = 24 * SECONDS_PER_HOUR
SECONDS_PER_WEEK = 7 * SECONDS_PER_DAY


@dataclass(frozen=True)
class ArrivalCycle:
    """A periodic arrival profile: ``len(weights)`` slots of ``slot_seconds`` each.

    Time 0 is the start of slot 0 (midnight, or Monday midnight for weekly cycles).
    ``weights`` are stored normalised to mean 1.
    """

    slot_seconds: float
    weights: np.ndarray

    def __post_init__(self):
        weights = np.asarray(self.weights, dtype=float)
        if weights.ndim != 1 or weights.size == 0:
            raise ValueError("an arrival cycle needs a non-empty list of slot weights")
        if not np.all(np.isfinite(weights)) or np.any(weights <= 0):
            raise ValueError("arrival cycle weights must be finite and > 0")
        if not self.slot_seconds > 0:
            raise ValueError("arrival cycle slots must last > 0 seconds")
        object.__setattr__(self, "weights", weights / weights.mean())
        # Warped time elapsed at the start of each slot within one period.
        object.__setattr__(
            self, "_slot_starts_warped", np.concatenate(([0.0], np.cumsum(self.weights)[:-1])) * self.slot_seconds
        )

    @property
    def period_seconds(self) -> float:
        return self.slot_seconds * self.weights.size

    def warp(self, seconds) -> np.ndarray:
        """Map wall-clock seconds (since the start of slot 0) to warped seconds."""
        seconds = np.asarray(seconds, dtype=float)
        periods = np.floor(seconds / self.period_seconds)
        within_period = seconds - periods * self.period_seconds
        slot = np.minimum((within_period // self.slot_seconds).astype(np.int64), self.weights.size - 1)
        into_slot = within_period - slot * self.slot_seconds
        return (
            periods * self.period_seconds
            + self._slot_starts_warped[slot]
            + self.weights[slot] * into_slot
        )

    def unwarp(self, warped) -> np.ndarray:
        """Inverse of :meth:`warp`: warped seconds back to wall-clock seconds."""
        warped = np.asarray(warped, dtype=float)
        periods = np.floor(warped / self.period_seconds)
        within_period = warped - periods * self.period_seconds
        slot = np.searchsorted(self._slot_starts_warped, within_period, side="right") - 1
        slot = np.clip(slot, 0, self.weights.size - 1)
        into_slot = (within_period - self._slot_starts_warped[slot]) / self.weights[slot]
        return periods * self.period_seconds + slot * self.slot_seconds + into_slot


def weekly_cycle(hour_of_day_weights, day_of_week_weights) -> ArrivalCycle:
    """A one-week cycle of hourly slots whose weight is hour weight x day weight.

    Slot 0 is Monday 00:00-01:00.  Treating the two profiles as independent factors is
    what lets a model store 24 + 7 numbers instead of 168.
    """
    hours = np.asarray(hour_of_day_weights, dtype=float)
    days = np.asarray(day_of_week_weights, dtype=float)
    if hours.size != 24 or days.size != 7:
        raise ValueError("a weekly cycle needs 24 hour-of-day and 7 day-of-week weights")
    return ArrivalCycle(SECONDS_PER_HOUR, np.outer(days, hours).ravel())
