"""Spinning-based schemes: LOCAL, DCS and PB (Yu, Kim and Maeng, Sect. 2, Table 1).

All three busy-wait for a message at sender and receiver.  They differ in what the
kernel does when a message arrives for a process that is not running:

- LOCAL does nothing: a receiver is coscheduled with its sender only if the message
  happens to arrive while it spins.
- DCS (Sobalvarro et al.) treats the arrival as a hint that the sender runs now: the
  network interface interrupts the CPU and the handler boosts the destination to the
  top level, preempting the current process.
- PB (Nagar et al.) avoids the interrupts: every millisecond a kernel thread checks the
  processes' message queues and boosts ONE process with pending messages, chosen
  round-robin.
"""

from __future__ import annotations

from schedlab.simulators.ics.schemes.base import CHECK_COST, MOVE_COST, Scheme


class Local(Scheme):
    name = "LOCAL"


class DynamicCoscheduling(Scheme):
    name = "DCS"
    message_handling = "an interrupt, then a boost to the top level, whatever the process is doing"

    def on_message(self, kernel, node, process, t) -> None:
        kernel.interrupt(node, t)
        kernel.boost(node, process, t)


class PeriodicBoost(Scheme):
    name = "PB"
    boost_period = 1e-3
    message_handling = "nothing at once (the 1 ms boost thread raises one process with pending messages)"
    boost_first = False
    """The boosted process joins the back of the top level (a TS boost), or its front (PROC-S)."""

    def boost_candidates(self, node):
        return node.waiting_with_messages()

    def on_tick(self, kernel, node, t) -> None:
        kernel.steal(node, t, CHECK_COST * len(node.processes))
        candidates = self.boost_candidates(node)
        if not candidates:
            return
        chosen = self.choose(kernel, node, candidates, t)
        kernel.steal(node, t, MOVE_COST)
        kernel.boost(node, chosen, t, first=self.boost_first)

    def choose(self, kernel, node, candidates, t):
        """Round-robin: the first candidate at or after the cursor in the node's process order."""
        order = node.processes
        count = len(order)
        for step in range(count):
            process = order[(node.boost_cursor + step) % count]
            if process in candidates:
                node.boost_cursor = (node.boost_cursor + step + 1) % count
                return process
        return candidates[0]
