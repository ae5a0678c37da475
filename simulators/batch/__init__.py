"""Batch scheduling of one machine: FCFS, EASY and conservative backfilling.

``replay(jobs, machine_procs, policy=..., order=..., estimates=..., conventions=...)``
runs one trace and returns the schedule, its metrics and a time series.
"""

from simulators.batch.replay import POLICIES, ReplayResult, replay

__all__ = ["POLICIES", "ReplayResult", "replay"]
