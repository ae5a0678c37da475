"""Queue orders: which waiting job a policy considers first.

- ``fcfs``: arrival order.
- ``wfp``: Cobalt's utility, highest first: (wait / estimate)^3 x size, which lets large
  jobs that have waited long relative to their request overtake (Tang et al., Argonne;
  the scheme of spec 000).
- ``sjf``: shortest estimate first.

Ties always fall back to arrival order (the sorts are stable), so an order never
depends on anything but the jobs.
"""

from __future__ import annotations


def fcfs(machine, t: float) -> list[int]:
    return list(machine.queue)


def wfp(machine, t: float) -> list[int]:
    submit, estimate, procs = machine.submit, machine.estimate, machine.procs
    return sorted(machine.queue, key=lambda j: -(((t - submit[j]) / estimate[j]) ** 3) * procs[j])


def sjf(machine, t: float) -> list[int]:
    estimate = machine.estimate
    return sorted(machine.queue, key=lambda j: estimate[j])

