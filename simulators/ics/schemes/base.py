"""What every scheme shares: TS choice, FCFS least-loaded placement, no extra costs.

A scheme is the pair (message-waiting action, message-handling action) of Table 1 of
Yu, Kim and Maeng, plus, for PROC-B, HYBRID and GS, its own choice of the next process
(PROC-S reorders in its periodic boost thread instead), for GS its own placement (a row
of the matrix), and for BATCH an MPL of one.  The kernel calls these hooks; the defaults
here are plain Solaris TS scheduling with nothing done on a message arrival (LOCAL).
"""

from __future__ import annotations

import math

from schedlab.simulators.ics.kernel import SPIN_WAIT, TICK, highest_priority

ICS_SWITCH_COST = 100e-6
MOVE_COST = 3e-6
"""Moving a process within the scheduling queue (a boost or a reordering), Fig. 5b."""
CHECK_COST = 2e-6
"""Checking one process for pending messages, Fig. 5b."""


class Scheme:
    name = "LOCAL"
    wait = SPIN_WAIT
    spin_time = math.inf
    switch_cost = ICS_SWITCH_COST
    boost_period: float | None = None
    mpl: int | None = None
    marks_collectives = False
    message_handling = "nothing (the process finds the message when it next runs)"
    """What the kernel does when a message arrives for a process that is not running (Table 1)."""
    time_sharing = True
    """Nodes follow the TS table, its starvation update included (GS replaces TS with its own matrix)."""
    boost_preempts_spinner = True
    """A boost (DCS's and SB's interrupt handler, PB's kernel thread) takes the CPU from a runner of the
    same TS level that is busy-waiting, not only from a lower one.  The paper does not state the rule;
    it says the boost is there to coschedule the destination with its sender (Sect. 2), which a spinner
    left on the CPU for the rest of its 20 ms quantum defeats.  ``False`` is the plain TS rule: only a
    strictly higher level preempts."""

    def start(self, kernel) -> None:
        """Called once before the first event."""

    def allocate(self, kernel, job):
        return kernel.least_loaded_nodes(job.size)

    def pick(self, kernel, node, t):
        return highest_priority(node.ready)

    def on_message(self, kernel, node, process, t) -> None:
        """A message arrived for ``process``, which is not running."""

    def note_arrival(self, kernel, node, process, source, execution_duration, enp, t) -> None:
        """Every message arrival, with the sender's piggybacked ED and ENP."""

    def send_overhead(self, messages: int) -> float:
        return 0.0

    def on_process_start(self, kernel, node, t) -> None:
        if self.boost_period is not None and not node.ticking:
            node.ticking = True
            kernel.push(t + self.boost_period, TICK, node)

    def on_tick(self, kernel, node, t) -> None:
        """The periodic boost thread (PB, PROC-S)."""

    def on_timer(self, kernel, t, payload) -> None:
        """A scheme-wide timer (the gang scheduler's global switch)."""

    def on_job_end(self, kernel, job) -> None:
        """The last process of ``job`` has finished."""
