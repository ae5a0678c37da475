"""Blocking-based schemes: SB and HYBRID (Yu, Kim and Maeng, Sect. 2, Table 1, Sect. 4.1).

- SB (spin-block, Dusseau et al.): a receiver spins for a fixed spin time, the
  expected one-way latency of a message (229.9 us), and blocks if the message has not
  come; a later arrival interrupts the CPU and wakes the process with a priority boost
  ("to wake up the process and give a priority boost to the awakened process", Sect. 2).
  Only a blocked process asked to be woken: one that is ready (preempted while it
  computed or spun) is not interrupted for and finds the message when it next runs;
  interrupting and boosting whatever does not run is DCS's rule, not SB's.
- HYBRID (Choi et al.): sender and receiver block immediately.  A process entering a
  collective communication phase (all-to-all here) sets a flag; at each context switch
  a flagged process takes precedence, and the flag is cleared (its priority restored)
  when the phase ends.  An arrival for a blocked process interrupts the CPU and wakes
  it at its ordinary TS wake-up level, without a boost to the top.
"""

from __future__ import annotations

from schedlab.simulators.ics.kernel import BLOCK_WAIT, SPIN_BLOCK_WAIT, highest_priority
from schedlab.simulators.ics.network import ONE_WAY_16K
from schedlab.simulators.ics.schemes.base import Scheme
from schedlab.simulators.ics.state import BLOCKED
from schedlab.simulators.ics.tstable import SLPRET, TOP_LEVEL


class WakeAndBoost(Scheme):
    """Message handling of SB, HYBRID and PROC-B: an arrival for a blocked process
    interrupts the CPU and wakes the process at its ``wake_level`` (the top for SB and PROC-B)."""

    message_handling = "if the process is blocked, an interrupt wakes it with a boost to the top level, else nothing"

    def on_message(self, kernel, node, process, t) -> None:
        if process.state == BLOCKED:
            kernel.interrupt(node, t)
            kernel.boost(node, process, t, level=self.wake_level(process))

    def wake_level(self, process) -> int:
        return TOP_LEVEL


class SpinBlock(WakeAndBoost):
    name = "SB"
    wait = SPIN_BLOCK_WAIT
    spin_time = ONE_WAY_16K


class Hybrid(WakeAndBoost):
    name = "HYBRID"
    wait = BLOCK_WAIT
    marks_collectives = True
    message_handling = "if the process is blocked, an interrupt wakes it at its TS wake-up level, else nothing"

    def wake_level(self, process) -> int:
        return SLPRET[process.level]

    def pick(self, kernel, node, t):
        collective = [p for p in node.ready if p.collective]
        return highest_priority(collective or node.ready)
