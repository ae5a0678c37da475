"""Fair share with decay over EASY on nodes, in the spirit of Slurm's fair-share factor
(priority/multifactor; Slurm's documentation, "Multifactor Priority Plugin").

Each user's usage is the core-seconds of their jobs that have ended, halving every half-life
(Slurm's PriorityDecayHalfLife, 7 days by default).  The waiting job whose user has used least
goes first; users with equal usage keep arrival order.  The job first in that order is EASY's
protected head; the others backfill around it.  (Slurm weighs this factor with others, age and
size among them, and scales usage by each account's shares; this keeps only the factor's order.)

    schedlab replay JOBS --machine FILE --policy examples/policies/fair_share.py:FairShareEasy
"""

from __future__ import annotations

from schedlab.simulators.nodes.easy import NodeEasyBackfilling

HALF_LIFE_SECONDS = 7 * 86_400.0


class FairShareEasy(NodeEasyBackfilling):
    def __init__(self):
        super().__init__(order=self.least_used_first)
        self.usage: dict[str, tuple[float, float]] = {}  # user -> (core-seconds, when that was their usage)

    def schedule(self, machine, t, submitted, ended):
        for job in ended:
            if machine.end_time[job] == t:  # the end of a run a failure killed charges nothing
                cores = machine.jobs.total_cores[job]
                self.charge(machine.jobs.user[job], cores * (t - machine.start_time[job]), t)
        super().schedule(machine, t, submitted, ended)

    def decayed_usage(self, user: str, t: float) -> float:
        used, when = self.usage.get(user, (0.0, t))
        return used * 0.5 ** ((t - when) / HALF_LIFE_SECONDS)

    def charge(self, user: str, core_seconds: float, t: float) -> None:
        self.usage[user] = (self.decayed_usage(user, t) + core_seconds, t)

    def least_used_first(self, machine, t):
        return sorted(machine.queue, key=lambda job: self.decayed_usage(machine.jobs.user[job], t))
