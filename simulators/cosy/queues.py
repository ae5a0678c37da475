"""COSY's queues (Cao and Zimmermann, IPDPS 2004, section 3.1).

- Several queues, each with a priority.  Queues are served in strict priority order:
  a job of a lower-priority queue starts only while no job waits in any higher-priority
  queue, and backfilling happens inside one queue, never across queues.  (The paper:
  "only after all jobs submitted to day are finished can jobs at night be executed";
  DEFAULT: "finished" read as "no longer waiting", i.e. the higher queue may still have
  jobs running.)
- Users have a priority level per queue: ``prefer``, ``allow``, ``defer`` or ``deny``.
  Inside a queue jobs are ordered by level, then by arrival; a ``deny`` user's job is
  rejected at submission (the access control list).
- Each queue may limit the walltime (requested time) and the nodes of one job; a job
  over a limit is rejected at submission, with the reason.

Advance reservations name a queue too and pass the same admission checks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

USER_LEVELS = ("prefer", "allow", "defer", "deny")
_RANK = {level: rank for rank, level in enumerate(USER_LEVELS)}


@dataclass(frozen=True)
class QueueConfig:
    name: str
    priority: int = 0  # higher is served first
    max_walltime: float = math.inf
    max_nodes: int | None = None
    user_levels: dict = field(default_factory=dict)  # user id -> level
    default_level: str = "allow"

    def __post_init__(self):
        for level in (self.default_level, *self.user_levels.values()):
            if level not in _RANK:
                raise ValueError(f"queue {self.name}: unknown user level {level!r}; use one of {USER_LEVELS}")

    def level(self, user) -> str:
        return self.user_levels.get(user, self.default_level)

    def refusal(self, user, walltime: float, nodes: int) -> str | None:
        """Why a job is rejected at submission to this queue, or None if it is admitted."""
        if self.level(user) == "deny":
            return f"user {user} denied in queue {self.name}"
        if walltime > self.max_walltime:
            return f"walltime {walltime:g} s over the limit {self.max_walltime:g} s of queue {self.name}"
        if self.max_nodes is not None and nodes > self.max_nodes:
            return f"{nodes} nodes over the limit {self.max_nodes} of queue {self.name}"
        return None


class Queues:
    """The queues of one COSY scheduler and which queue and user each job belongs to."""

    def __init__(self, configs, job_queue, job_user):
        configs = list(configs)
        names = [c.name for c in configs]
        if not configs or len(set(names)) != len(names):
            raise ValueError(f"COSY needs at least one queue and distinct queue names, got {names}")
        self.by_priority = sorted(configs, key=lambda c: -c.priority)  # stable: ties keep the given order
        self._by_name = {c.name: c for c in configs}
        unknown = set(job_queue) - set(self._by_name)
        if unknown:
            raise ValueError(f"jobs submitted to unknown queue(s) {sorted(unknown)}")
        self.job_queue = list(job_queue)
        self.job_user = list(job_user)
        # Queue and user of a job never change: rank each job once, not at every pass.
        self._job_rank = [_RANK[self._by_name[q].level(u)] for q, u in zip(self.job_queue, self.job_user)]

    @classmethod
    def single(cls, n_jobs: int) -> Queues:
        """One queue, every user allowed, no limits: the paper's experiments."""
        return cls([QueueConfig("default")], ["default"] * n_jobs, [None] * n_jobs)

    def refusal(self, machine, job: int) -> str | None:
        queue = self._by_name[self.job_queue[job]]
        return queue.refusal(self.job_user[job], machine.estimate[job], machine.procs[job])

    def waiting(self, machine, name: str) -> list[int]:
        """Waiting jobs of queue ``name`` in service order: user level, then arrival."""
        job_queue = self.job_queue
        jobs = [j for j in machine.queue if job_queue[j] == name]
        return sorted(jobs, key=self._job_rank.__getitem__)
