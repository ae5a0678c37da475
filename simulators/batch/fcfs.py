"""First come, first served without backfilling.

At every scheduling pass the job at the head of the queue starts if it fits now, and
so on down the queue; the first job that does not fit stops everything behind it.
"""

from __future__ import annotations


def start_fitting_heads(machine, queue: list[int], t: float) -> list[int]:
    """Start queue heads while they fit at ``t``; return the jobs still waiting, in order."""
    fits, estimate, procs = machine.profile.fits, machine.estimate, machine.procs
    started = 0
    for job in queue:
        if not fits(t, estimate[job], procs[job]):
            break
        machine.start(job, t)
        started += 1
    return queue[started:]


class FirstComeFirstServed:
    def __init__(self, order):
        self.order = order

    def schedule(self, machine, t: float, submitted, ended) -> None:
        start_fitting_heads(machine, self.order(machine, t), t)
