"""First come, first served on nodes: the job at the head of the queue starts as soon as its partition
has the nodes it asks for, and nothing behind it starts before it (the rule of ``simulators.batch.fcfs``
with every resource of every node in place of one count of processors)."""

from __future__ import annotations


def arrival(machine, t: float) -> list[int]:
    """The waiting jobs in arrival order (a requeued job back in its place by submit time)."""
    return list(machine.queue)


def keep_off_none(machine, job: int) -> None:
    """No node is kept from any job (a policy may name, per job, nodes it must not take)."""
    return None


def start_fitting_heads(machine, t: float, waiting: list[int], keep_off=keep_off_none) -> list[int]:
    """Start the jobs of ``waiting``, in its order, while each fits now (off the nodes ``keep_off(machine, job)``
    names); return those still waiting."""
    started = 0
    for job in waiting:
        nodes = machine.fitting_nodes(job, t, excluded=keep_off(machine, job))
        if nodes is None:
            break
        machine.start(job, t, nodes)
        started += 1
    return waiting[started:]


class NodeFirstComeFirstServed:
    def __init__(self, order=arrival):
        self.order = order

    def keep_off(self, machine, job: int):
        """Nodes ``job`` must not take (none): a policy's own rule overrides it."""
        return None

    def schedule(self, machine, t: float, submitted, ended) -> None:
        start_fitting_heads(machine, t, self.order(machine, t), self.keep_off)
