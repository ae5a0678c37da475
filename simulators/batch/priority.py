"""A policy of your own as a priority: a built-in policy over the queue sorted by a key fixed per job.

Many policies of the literature are one of the classic schemes (FCFS, EASY or conservative
backfilling) over a queue ordered by a priority that each job gets when it arrives:
shortest requested time first, largest or smallest first, shortest area first (Feitelson et
al., "Parallel job scheduling: a status report", JSSPP 2004, section 3).  Written as

    from schedlab.simulators.batch.priority import prioritized

    def widest_first(jobs):
        return -jobs.procs

    LargestFirstEasy = prioritized("easy", widest_first)

such a policy runs on the compiled event loop, as fast as the built-in one: the key is
computed once per run and the loop sorts the waiting jobs by it as it sorts them for ``sjf``.

``key(jobs)`` gets the run's jobs in submission order, as numpy arrays ``jobs.submit``
(the log's arrival), ``jobs.estimate`` (what the scheduler believes), ``jobs.procs`` and
``jobs.job_id``, and returns one number per job; the lowest goes first and ties keep the
run's queue order (arrival by default).  On the reference engine the class is the built-in
policy over that sorted queue, so both engines give the same schedule; under the ``wfp`` or
``sjf`` queue orders (the key's ties then follow them) it runs there only.
"""

from __future__ import annotations

from collections.abc import Callable
import numpy as np

from schedlab.errors import SchedlabError
from schedlab.simulators.batch.policies import BUILT_IN_POLICIES, load_policy


def prioritized(policy: str, key: Callable) -> type:
    """The built-in ``policy`` (``fcfs``, ``easy`` or ``conservative``) over the queue sorted by ``key``."""
    if policy not in BUILT_IN_POLICIES:
        raise SchedlabError(f"prioritized: {policy!r} is not a built-in policy ({', '.join(BUILT_IN_POLICIES)})")
    scheme = load_policy(policy)

    class Prioritized(scheme):
        built_in = policy
        priority = staticmethod(key)

        def __init__(self, order, keys):
            ranks = list(keys)  # one per job, as ``priority_keys`` gives them

            def by_priority(machine, t: float) -> list[int]:
                return sorted(order(machine, t), key=ranks.__getitem__)

            super().__init__(by_priority)

    Prioritized.__name__ = Prioritized.__qualname__ = f"{policy}_by_{getattr(key, '__name__', 'key')}"
    return Prioritized


def is_prioritized(policy_class: type) -> bool:
    return hasattr(policy_class, "priority") and getattr(policy_class, "built_in", None) in BUILT_IN_POLICIES


def priority_keys(policy_class: type, jobs) -> np.ndarray:
    """The key of every job, checked: one finite-or-infinite number per job."""
    name = f"priority key {policy_class.__name__}"
    try:
        keys = np.asarray(policy_class.priority(jobs), dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise SchedlabError(f"{name}: not one number per job ({error})") from error
    if keys.shape != (len(jobs.procs),):
        raise SchedlabError(f"{name}: returned shape {keys.shape} for {len(jobs.procs)} jobs; one number per job")
    missing = np.flatnonzero(np.isnan(keys))
    if missing.size:
        raise SchedlabError(f"{name}: NaN for {missing.size} job(s), the first job {jobs.job_id[missing[0]]}; "
                            "every job needs a comparable number")
    return keys
