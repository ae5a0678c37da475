"""Replay one trace on one machine under one batch policy."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from schedlab.errors import SchedlabError
from simulators.batch.conventions import CONVENTIONS, ESTIMATES
from simulators.batch.policies import BUILT_IN_ORDERS, BUILT_IN_POLICIES, canonical_name, load_order, load_policy
from simulators.core.engine import Engine, EventOrder
from simulators.core.invariants import check_batch_schedule
from simulators.core.machine import Machine
from simulators.core.metrics import schedule_metrics

@dataclass
class ReplayResult:
    schedule: pd.DataFrame
    metrics: dict[str, float]
    series: pd.DataFrame
    parameters: dict = field(default_factory=dict)

    def settings(self) -> str:
        """The parameters on one line, ``name=value, ...``: how a written schedule says what made it."""
        return ", ".join(f"{name}={value}" for name, value in self.parameters.items())


def _choice(name: str, value: str, allowed) -> str:
    if value not in allowed:
        raise SchedlabError(f"unknown {name} {value!r}; choose one of {', '.join(allowed)}")
    return value


def replay(
    jobs: pd.DataFrame,
    machine_procs: int,
    *,
    policy: str = "easy",
    order: str = "fcfs",
    estimates: str = "requested",
    conventions: str = "default",
    same_time: str | None = None,
    passes: str | None = None,
) -> ReplayResult:
    """Simulate ``jobs`` (a canonical job table) on ``machine_procs`` processors.

    ``policy`` and ``order`` are built-in names or references to your own code
    (``path/to/file.py:Name``, ``package.module:Name``; see ``simulators.batch.policies``).

    ``same_time`` and ``passes`` override the convention profile's tie-breaking
    (see ``simulators.core.engine``).  The schedule is checked against the invariants
    before it is returned; times are float64 seconds.
    """
    policy_class, order_function = load_policy(policy), load_order(order)
    _choice("estimate source", estimates, ESTIMATES)
    profile = CONVENTIONS[_choice("convention profile", conventions, CONVENTIONS)]
    if machine_procs is None or machine_procs <= 0:
        raise SchedlabError(f"the machine needs a positive processor count, got {machine_procs}")
    event_order = EventOrder(
        same_time or profile.event_order.same_time, passes or profile.event_order.passes
    )
    batch = profile.prepare(jobs, int(machine_procs), estimates)
    machine = Machine("machine", machine_procs, batch, policy_class(order_function))
    engine = Engine([machine], event_order)
    engine.run()

    start = np.array(machine.start_time, dtype=np.float64)
    end = start + batch.actual
    check_batch_schedule(
        machine=machine.name,
        capacity=machine.capacity,
        job_id=batch.job_id,
        submit=batch.submit,
        start=start,
        end=end,
        actual=batch.actual,
        procs=batch.procs,
        promised=np.array(machine.promised, dtype=np.float64),
    )
    schedule = pd.DataFrame(
        {
            "job_id": batch.job_id,
            "submit_time": batch.submit,
            "start_time": start,
            "end_time": end,
            "procs": batch.procs,
            "requested_time": batch.estimate,
            "run_time": batch.actual,
        }
    )
    series = pd.DataFrame(engine.trace[machine.name], columns=["time", "queue_length", "busy_procs"])
    max_queue = int(series["queue_length"].max()) if len(series) else 0
    metrics = schedule_metrics(batch.submit, start, end, batch.procs, machine.capacity, max_queue)
    parameters = {
        "machine_procs": int(machine_procs),
        "policy": canonical_name(policy, BUILT_IN_POLICIES, "policy"),
        "order": canonical_name(order, BUILT_IN_ORDERS, "queue order"),
        "estimates": estimates,
        "conventions": conventions,
        "same_time": event_order.same_time,
        "passes": event_order.passes,
    }
    return ReplayResult(schedule=schedule, metrics=metrics, series=series, parameters=parameters)
