"""PROC, process-reordering coscheduling (Yu, Kim and Maeng, Sect. 3).

Every node keeps ED (EWMA of the time a process runs between context switches) and
ENP (processes expected to run before the current one runs again); the kernel updates
both at each context switch and every outgoing message carries them (upload cost
2 us per message).  On arrival (download cost 1 us) they go into the Global Table
GT[source] = (ED, ENP, T) and into the receiver's Process Table PT[p][source] = (ENP, T).

At a boost conflict, PROCESS_REORDERING (Algorithm 1) picks, among the processes with
pending messages, the one with a pending message whose source is expected to
reschedule its correspondent soonest.  A PT entry older than the GT entry of its
node is first aged: ENP drops by one process per ED elapsed between the two stamps
and is capped by GT's ENP.  Expected rescheduling latency ERL = ED * ENP minus the
time since the stamp; the smallest wins, the first of equal ones.

- PROC-S spins like PB; its 1 ms kernel thread boosts the process Algorithm 1 picks
  instead of the round-robin one, to the front of the top level: the algorithm's output
  is the process to run next.
- PROC-B blocks immediately at sender and receiver, wakes a blocked receiver with an
  interrupt and a boost on arrival like SB, and applies Algorithm 1 at every context
  switch.

Costs (Fig. 5b): checking a process for pending messages 2 us, updating and comparing
a PT entry 0.5 us, moving a process in the queue 3 us.
"""

from __future__ import annotations

import math

from schedlab.simulators.ics.kernel import BLOCK_WAIT, highest_priority
from schedlab.simulators.ics.schemes.base import CHECK_COST, MOVE_COST
from schedlab.simulators.ics.schemes.blocking import WakeAndBoost
from schedlab.simulators.ics.schemes.spinning import PeriodicBoost

UPLOAD_COST = 2e-6
DOWNLOAD_COST = 1e-6
PT_ENTRY_COST = 0.5e-6


def process_reordering(candidates, global_table, t: float):
    """Algorithm 1: the candidate whose pending message has the minimum ERL.

    ``candidates`` are processes with pending messages, in queue order; each has a
    ``peer_table`` (PT row: source -> [ENP, T]) and ``pending_sources()`` (the source
    node of each pending message).  ``global_table`` is GT: source ->
    [ED, ENP, T].  PT entries are aged in place, as the algorithm does.  Returns the
    chosen process (None without candidates) and the number of PT entries examined.
    """
    chosen = None
    minimum = math.inf
    examined = 0
    for process in candidates:
        for source in process.pending_sources():
            examined += 1
            entry = process.peer_table[source]
            execution_duration, node_enp, stamp = global_table[source]
            if entry[1] < stamp:
                if execution_duration > 0.0:  # ED(0) = 0 until the source's first context switch
                    entry[0] -= (stamp - entry[1]) / execution_duration
                if entry[0] > node_enp:
                    entry[0] = node_enp
                entry[1] = stamp
            erl = execution_duration * entry[0] - (t - entry[1])
            if erl < minimum:
                minimum = erl
                chosen = process
    return chosen, examined


class Piggyback:
    """The rescheduling-latency bookkeeping shared by PROC-S and PROC-B."""

    def note_arrival(self, kernel, node, process, source, execution_duration, enp, t) -> None:
        node.global_table[source] = [execution_duration, enp, t]
        process.peer_table[source] = [enp, t]
        kernel.steal(node, t, DOWNLOAD_COST)

    def send_overhead(self, messages: int) -> float:
        return UPLOAD_COST * messages

    def reorder(self, kernel, node, candidates, t):
        """Run Algorithm 1 and charge its PT updates."""
        chosen, examined = process_reordering(candidates, node.global_table, t)
        kernel.steal(node, t, PT_ENTRY_COST * examined)
        return chosen


class ProcSpinning(Piggyback, PeriodicBoost):
    name = "PROC-S"
    boost_first = True
    """Algorithm 1 returns the process to run next: the boost puts it at the front of the top level."""

    def choose(self, kernel, node, candidates, t):
        """The boost thread's choice (it already pays the pending-message check and the move)."""
        return self.reorder(kernel, node, candidates, t)


class ProcBlocking(Piggyback, WakeAndBoost):
    name = "PROC-B"
    wait = BLOCK_WAIT

    def pick(self, kernel, node, t):
        """At every context switch: check each process for messages; reorder on a conflict."""
        default = highest_priority(node.ready)
        kernel.steal(node, t, CHECK_COST * len(node.processes))
        candidates = node.waiting_with_messages()
        if len(candidates) < 2:
            return default
        chosen = self.reorder(kernel, node, candidates, t)
        if chosen is not default:
            kernel.steal(node, t, MOVE_COST)
        return chosen
