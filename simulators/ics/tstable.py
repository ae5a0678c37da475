"""The Solaris time-sharing (TS) dispatch table that every node's scheduler follows.

Yu, Kim and Maeng (Sect. 4.1) emulate the Solaris scheduler: a 60-level feedback queue
(level 59 highest).  We use the shape of the standard Solaris 2.6 ``ts_dptbl``:

- quantum: 200 ms at levels 0-9, 160 ms at 10-19, 120 ms at 20-29, 80 ms at 30-39,
  40 ms at 40-49 and 20 ms at 50-59;
- ``tqexp`` (level after a used-up quantum): ten levels lower, never below 0;
- ``slpret`` (level after waking from a sleep such as I/O or a blocking receive):
  50 + level // 10 for levels 0-39, 55 for 40-49, 58 for 50-58 and 59 for 59.

The ``maxwait``/``lwait`` starvation update of the real table (once a second) is
left out: with quanta of at most 200 ms and wake-ups to levels >= 50, no process in
these workloads waits long enough for it to matter.  A priority boost (Sect. 2) puts
a process at ``TOP_LEVEL``.
"""

from __future__ import annotations

LEVELS = 60
TOP_LEVEL = LEVELS - 1
START_LEVEL = 29
"""Level of a newly started process (the TS default user priority)."""

QUANTUM = tuple((200e-3, 160e-3, 120e-3, 80e-3, 40e-3, 20e-3)[level // 10] for level in range(LEVELS))
"""Seconds of CPU a process may use at each level before it is moved down."""

TQEXP = tuple(max(0, level - 10) for level in range(LEVELS))


def _sleep_return(level: int) -> int:
    if level < 40:
        return 50 + level // 10
    if level < 50:
        return 55
    return 58 if level < TOP_LEVEL else TOP_LEVEL


SLPRET = tuple(_sleep_return(level) for level in range(LEVELS))
