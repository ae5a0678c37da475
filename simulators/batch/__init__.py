"""Batch scheduling of one machine: FCFS, EASY and conservative backfilling, or your own policy.

``schedlab.simulators.batch.replay.replay(jobs, machine_procs, policy=..., order=..., ...)`` runs
one trace and returns the schedule, its metrics and a time series; the policies are
one module each, named in ``schedlab.simulators.batch.policies`` (see ``docs/policies.md``).
"""
