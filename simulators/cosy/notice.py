"""Shortest notice time for advance reservations (Cao and Zimmermann, IPDPS 2004, sections 4.3-4.4).

A reservation asked at ``now`` for ``start`` is accepted only if

    start - now >= n x W

where ``W`` is the current mean wait of the queue jobs that have started (0 before any
has), so that a reservation never starts earlier than the same job would have through
the queue.  ``n`` comes from one of these policies:

- ``FixedNotice(n)``: the same ``n`` always (the paper's experiments, Table 1).
- ``AdaptiveNotice``: the rule the paper proposes from its results (Fig. 3 and
  Solution II) without simulating it: with ``p`` the current share of reservations,
  ``n = 1`` at ``p = 0`` and rises linearly to 4 at ``p = 15 %``; above 15 % the notice
  is unlimited, i.e. reservations are refused until the share falls again.
  DEFAULT (the paper does not define the share): accepted reservations over all
  requests received so far, the current one included.
- ``NoNotice``: every reservation that fits is accepted (``n = 0``).

``required_factor(share)`` returns ``n``, or ``None`` when reservations are refused.
The comparison allows ``NOTICE_TOLERANCE`` seconds, because the experiment's
reservations ask for exactly the shortest notice and must not fall to rounding.
"""

from __future__ import annotations

from dataclasses import dataclass

NOTICE_TOLERANCE = 1e-6


def notice_is_long_enough(start: float, now: float, minimum_notice: float) -> bool:
    return start - now >= minimum_notice - NOTICE_TOLERANCE


@dataclass(frozen=True)
class NoNotice:
    name: str = "none"

    def required_factor(self, share: float) -> float:
        return 0.0


@dataclass(frozen=True)
class FixedNotice:
    factor: float
    name: str = "fixed"

    def __post_init__(self):
        if not self.factor >= 0:
            raise ValueError(f"the notice factor must be >= 0, got {self.factor}")

    def required_factor(self, share: float) -> float:
        return self.factor


@dataclass(frozen=True)
class AdaptiveNotice:
    max_share: float = 0.15
    lowest_factor: float = 1.0
    highest_factor: float = 4.0
    name: str = "adaptive"

    def required_factor(self, share: float) -> float | None:
        if share > self.max_share:
            return None
        return self.lowest_factor + (self.highest_factor - self.lowest_factor) * share / self.max_share


NOTICE_POLICIES = ("none", "fixed", "adaptive")


def notice_policy(name: str, factor: float | None = None):
    """A notice policy by name; ``factor`` is the ``n`` of the fixed policy."""
    if name == "fixed":
        if factor is None:
            raise ValueError("the fixed notice policy needs a factor n")
        return FixedNotice(float(factor))
    if name == "adaptive":
        return AdaptiveNotice()
    if name == "none":
        return NoNotice()
    raise ValueError(f"unknown notice policy {name!r}; choose one of {', '.join(NOTICE_POLICIES)}")
