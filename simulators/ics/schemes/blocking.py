"""Blocking-based schemes: SB and HYBRID (Yu, Kim and Maeng, Sect. 2, Table 1, Sect. 4.1).

- SB (spin-block, Dusseau et al.): a receiver spins for a fixed spin time, the
  expected one-way latency of a message (229.9 us), and blocks if the message has not
  come; a later arrival interrupts the CPU and wakes the process with a priority boost.
- HYBRID (Choi et al.): sender and receiver block immediately.  A process entering a
  collective communication phase (all-to-all here) sets a flag; at each context switch
  a flagged process takes precedence, and the flag is cleared (its priority restored)
  when the phase ends.  An arrival for a blocked process interrupts the CPU and wakes
  it at its ordinary TS wake-up level, without a boost to the top.
"""

from __future__ import annotations

from simulators.ics.kernel import BLOCK_WAIT, SPIN_BLOCK_WAIT, highest_priority
from simulators.ics.network import ONE_WAY_16K
from simulators.ics.schemes.base import Scheme
from simulators.ics.state import BLOCKED
from simulators.ics.tstable import SLPRET


class InterruptAndBoost(Scheme):
    """Message handling of DCS, SB and PROC-B: interrupt, then boost the destination."""

    def on_message(self, kernel, node, process, t) -> None:
        kernel.interrupt(node, t)
        kernel.boost(node, process, t)


class SpinBlock(InterruptAndBoost):
    name = "SB"
    wait = SPIN_BLOCK_WAIT
    spin_time = ONE_WAY_16K


class Hybrid(Scheme):
    name = "HYBRID"
    wait = BLOCK_WAIT
    marks_collectives = True

    def on_message(self, kernel, node, process, t) -> None:
        if process.state == BLOCKED:
            kernel.interrupt(node, t)
            kernel.boost(node, process, t, level=SLPRET[process.level])

    def pick(self, kernel, node, t):
        collective = [p for p in node.ready if p.collective]
        return highest_priority(collective or node.ready)
