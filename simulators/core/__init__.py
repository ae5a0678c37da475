"""The batch-scheduling core every stage builds on.

- ``profile``: free processors of one machine as a step function of time (running jobs,
  reservations); the only place where capacity is booked.
- ``machine``: a machine = its profile, its waiting queue and its running jobs.
- ``engine``: one event loop advancing one or several machines together.
- ``invariants``: checks run after every simulation.
- ``metrics``: wait, response, slowdown, utilization from a schedule.
"""
