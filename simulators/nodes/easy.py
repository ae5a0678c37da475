"""EASY backfilling on nodes (Lifka 1995; Mu'alem & Feitelson, IEEE TPDS 12(6), 2001, section 2), with
Slurm's backfill scheduler as the reference where nodes make a choice.

At every pass:

1. queue heads start while their partition has the nodes they ask for (first come, first served);
2. the job now at the head is promised the earliest time it would fit if every running job ended at
   its estimate, on the nodes it would then get (``NodeMachine.reservation``);
3. every later job, in arrival order, starts now if it fits now and either ends by the head's promised
   time (it then takes the head's nodes first, leaving the others to jobs that run longer) or stays
   off the head's nodes, so the promise holds whatever it does.

The queue is in arrival order unless an ``order`` says otherwise (a fair-share policy orders it by
usage: ``docs/policies.md``).  A job requeued by a failure goes back in its place by submit time; if
a job goes ahead of the protected head, the head loses its promise (the job before it now has the
reservation).

With one node type of one core a node this is EASY over a pool of processors, start for start: the
head's nodes are taken from those that free up, and the nodes free now that it does not need are the
extra processors a long job may take (``tests/test_node_replay.py`` compares the two).
"""

from __future__ import annotations

import math

import numpy as np

from schedlab.simulators.nodes.fcfs import arrival, start_fitting_heads


class NodeEasyBackfilling:
    def __init__(self, order=arrival):
        self.order = order  # order(machine, t) -> the waiting jobs, the one to protect first
        self._protected_head = None

    def keep_off(self, machine, job: int):
        """Nodes ``job`` must not take (none): a policy's own rule overrides it (docs/policies.md)."""
        return None

    def schedule(self, machine, t: float, submitted, ended) -> None:
        ordered = self.order(machine, t)
        previous = self._protected_head
        if ordered and previous is not None and previous != ordered[0] and math.isnan(machine.start_time[previous]):
            # another job went ahead of it (requeued, or first in the order now): it is no longer protected,
            # and loses its promise before anything starts in this pass
            machine.promised[previous] = math.inf
        waiting = start_fitting_heads(machine, t, ordered, self.keep_off)
        if not waiting:
            return
        head = waiting[0]
        self._protected_head = head
        shadow, head_nodes = machine.reservation(head, t, excluded=self.keep_off(machine, head))
        machine.promised[head] = min(machine.promised[head], shadow)
        unplaced = set()  # demands that found no nodes in this pass: starts only take room, so none will
        room = machine.free_cores()
        cores_asked, partition = machine.jobs.total_cores, machine.jobs.partition
        for job in list(waiting[1:]):
            if cores_asked[job] > room[partition[job]]:
                continue
            kept_off = self.keep_off(machine, job)
            ends_in_time = t + machine.estimate[job] <= shadow
            demand = None if kept_off is not None else (ends_in_time, *machine.demand_key(job))
            if demand in unplaced:
                continue
            if ends_in_time:
                nodes = machine.fitting_nodes(job, t, excluded=kept_off, preferred=head_nodes)
            else:
                nodes = machine.fitting_nodes(job, t, excluded=_together(head_nodes, kept_off))
            if nodes is not None:
                machine.start(job, t, nodes)
                room = machine.free_cores()
            elif demand is not None:
                unplaced.add(demand)


def _together(nodes, more) -> np.ndarray:
    return nodes if more is None else np.union1d(nodes, more)
