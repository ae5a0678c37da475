"""COSY (Cao and Zimmermann, IPDPS 2004): queue scheduling with advance reservations.

- ``notice``: when a reservation has given enough notice (fixed multiple of the mean
  queue wait, or the adaptive rule of the paper's Fig. 3).
- ``queues``: COSY's queues, strict priority between them, user priority levels and
  per-queue limits.
- ``scheduler``: the policy gluing them to EASY backfilling and the reservation book
  of ``schedlab.simulators.core.reservations``.
- ``run``: one run, its invariants and its metrics.
- ``compiled``: the experiment's runs on a numba loop, decision for decision those of the reference engine.
- ``simulate``: one experiment point over a set of workloads, one row per workload (the stage's ``simulate(point)``).
- ``experiments``: the paper's experiment (workloads, reservation subsets, sweeps).
"""
