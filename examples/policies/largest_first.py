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

A job's width is known when it arrives, so the policy is a priority over the built-in EASY
(``schedlab.simulators.batch.priority``): everything EASY does (the reservation, the
backfilling test, the invariants the engine checks) is reused, and the compiled event loop
runs it as fast as the built-in policies.  A rule that needs more than a fixed order is a
class of its own (docs/policies.md).
"""

from schedlab.simulators.batch.priority import prioritized


def widest_first(jobs):
    """The lowest key goes first: minus the processors asked for."""
    return -jobs.procs


LargestFirstEasy = prioritized("easy", widest_first)
