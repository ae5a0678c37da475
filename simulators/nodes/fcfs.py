"""First come, first served on nodes: the job at the head of the queue starts as soon as its partition
has the nodes it asks for, and nothing behind it starts before it (the rule of ``simulators.batch.fcfs``
with every resource of every node in place of one count of processors)."""

from __future__ import annotations


def start_fitting_heads(machine, t: float) -> list[int]:
    """Start queue heads, in arrival order, while each fits now; return the jobs still waiting."""
    while machine.queue:
        head = machine.queue[0]
        nodes = machine.fitting_nodes(head, t)
        if nodes is None:
            break
        machine.start(head, t, nodes)
    return machine.queue


class NodeFirstComeFirstServed:
    def schedule(self, machine, t: float, submitted, ended) -> None:
        start_fitting_heads(machine, t)
