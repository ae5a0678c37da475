"""EASY backfilling on nodes (Lifka 1995; Mu'alem & Feitelson, IEEE TPDS 12(6), 2001, section 2), with
Slurm's backfill scheduler as the reference where nodes make a choice.

At every pass:

1. queue heads start while their partition has the nodes they ask for (first come, first served);
2. the job now at the head is promised the earliest time it would fit if every running job ended at
   its estimate, on the nodes it would then get (``NodeMachine.reservation``);
3. every later job, in arrival order, starts now if it fits now and either ends by the head's promised
   time (it then takes the head's nodes first, leaving the others to jobs that run longer) or stays
   off the head's nodes, so the promise holds whatever it does.

A job requeued by a failure goes back in its place by submit time; if that is ahead of the protected
head, the head loses its promise (the job before it now has the reservation).

With one node type of one core a node this is EASY over a pool of processors, start for start: the
head's nodes are taken from those that free up, and the nodes free now that it does not need are the
extra processors a long job may take (``tests/test_node_replay.py`` compares the two).
"""

from __future__ import annotations

import math

from schedlab.simulators.nodes.fcfs import start_fitting_heads


class NodeEasyBackfilling:
    def __init__(self):
        self._protected_head = None

    def schedule(self, machine, t: float, submitted, ended) -> None:
        waiting = start_fitting_heads(machine, t)
        if not waiting:
            return
        head = waiting[0]
        previous = self._protected_head
        if previous is not None and previous != head and math.isnan(machine.start_time[previous]):
            machine.promised[previous] = math.inf  # a requeued job went ahead of it: it is no longer protected
        self._protected_head = head
        shadow, head_nodes = machine.reservation(head, t)
        machine.promised[head] = min(machine.promised[head], shadow)
        for job in list(waiting[1:]):
            if t + machine.estimate[job] <= shadow:
                nodes = machine.fitting_nodes(job, t, preferred=head_nodes)
            else:
                nodes = machine.fitting_nodes(job, t, excluded=head_nodes)
            if nodes is not None:
                machine.start(job, t, nodes)
