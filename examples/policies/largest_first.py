"""Largest job first, with EASY backfilling: an example of a researcher's own policy.

The rule: at every scheduling pass, look at the waiting jobs widest first (jobs of equal
width keep the order of the run's queue order, arrival by default), then apply EASY
backfilling to that queue: start jobs from its head while they fit, give the first one
that does not fit a reservation, and let later jobs start now only if they do not delay
that reservation.  Favouring wide jobs is one of the classic answers to their
starvation under FCFS-based backfilling (see e.g. Feitelson et al., "Parallel job
scheduling: a status report", JSSPP 2004, section 3).

Run it with

    schedlab replay TRACE --policy examples/policies/largest_first.py:LargestFirstEasy

Everything EASY does (the reservation, the backfilling test, the invariants the engine
checks) is reused; the policy only changes which job comes first.
"""

from schedlab.simulators.batch.easy import EasyBackfilling


class LargestFirstEasy(EasyBackfilling):
    def __init__(self, order):
        def widest_first(machine, t):
            # sorted() is stable: equally wide jobs stay in the run's queue order.
            return sorted(order(machine, t), key=lambda job: -machine.procs[job])

        super().__init__(widest_first)
