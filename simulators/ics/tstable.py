"""The Solaris time-sharing (TS) dispatch table that every node's scheduler follows.

Yu, Kim and Maeng (Sect. 4.1) emulate the Solaris scheduler: a 60-level feedback queue
(level 59 highest).  We use the default ``ts_dptbl`` that Solaris ships (as printed by
``dispadmin -c TS -g``):

- quantum: 200 ms at levels 0-9, 160 ms at 10-19, 120 ms at 20-29, 80 ms at 30-39,
  40 ms at 40-58 and 20 ms at 59;
- ``tqexp`` (level after a used-up quantum): 0 up to level 10, ten levels lower above;
- ``slpret`` (level after waking from a sleep such as I/O or a blocking receive):
  50 at 0-9, 51 at 10-19, 52 at 20-29, 53 at 30-34, 54 at 35-39, 55 at 40-44, 56 at 45,
  57 at 46, 58 at 47-58 and 59 at 59;
- the starvation update: once a second every process waiting in a dispatch queue
  counts a second of ``dispwait``; above ``maxwait`` (0 s at levels 0-58, 32000 s at
  59) it is raised to ``lwait`` (equal to ``slpret``, except 59 at levels 49-58).

The starvation update matters under heavy load with spinning schemes: without it,
boosted spinners kept every CPU at levels 49-59 and processes of newly started jobs
(level 29) never ran, so their peers spun on (PROC-S on 160 heavy-load jobs had not
finished after 1.5e9 events).  A priority boost (Sect. 2) puts a process at ``TOP_LEVEL``.
"""

from __future__ import annotations

LEVELS = 60
TOP_LEVEL = LEVELS - 1
START_LEVEL = 29
"""Level of a newly started process (the TS default user priority)."""

QUANTUM = tuple(
    0.02 if level == TOP_LEVEL else (200e-3, 160e-3, 120e-3, 80e-3, 40e-3, 40e-3)[level // 10] for level in range(LEVELS)
)
"""Seconds of CPU a process may use at each level before it is moved down."""

TQEXP = tuple(max(0, level - 10) for level in range(LEVELS))


def _sleep_return(level: int) -> int:
    if level < 30:
        return 50 + level // 10
    if level < 40:
        return 53 if level < 35 else 54
    if level < 45:
        return 55
    if level < 47:
        return level + 11
    return 58 if level < TOP_LEVEL else TOP_LEVEL


SLPRET = tuple(_sleep_return(level) for level in range(LEVELS))
UPDATE_PERIOD = 1.0
"""Seconds between two starvation updates (``ts_update``)."""
MAXWAIT = tuple(32000 if level == TOP_LEVEL else 0 for level in range(LEVELS))
"""Seconds of ``dispwait`` a queued process may count before it is raised to ``LWAIT``."""
LWAIT = tuple(TOP_LEVEL if level >= 49 else SLPRET[level] for level in range(LEVELS))
