"""Replay one trace on one machine under one batch policy."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from schedlab.errors import SchedlabError
from schedlab.simulators.batch import compiled
from schedlab.simulators.batch.conventions import CONVENTIONS, ESTIMATES, JobColumns
from schedlab.simulators.batch.policies import BUILT_IN_ORDERS, BUILT_IN_POLICIES, canonical_name, load_order, load_policy
from schedlab.simulators.batch.priority import is_prioritized, priority_keys
from schedlab.simulators.core.engine import Engine, EventOrder
from schedlab.simulators.core.invariants import InvariantError, check_batch_schedule
from schedlab.simulators.core.metrics import schedule_metrics

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class ReplayResult:
    """A replay's schedule (one row per job), metrics and time series (one row per event time).

    The tables are kept as numpy columns and become DataFrames (``schedule``, ``series``)
    on first use, so that a replay which only prints its metrics never imports pandas.
    """

    schedule_columns: dict[str, np.ndarray]
    metrics: dict[str, float]
    series_columns: dict[str, np.ndarray]
    parameters: dict = field(default_factory=dict)

    @cached_property
    def schedule(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.schedule_columns)

    @cached_property
    def series(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.series_columns)

    def settings(self) -> str:
        """The parameters on one line, ``name=value, ...``: how a written schedule says what made it."""
        return ", ".join(f"{name}={value}" for name, value in self.parameters.items())


def _choice(name: str, value: str, allowed) -> str:
    if value not in allowed:
        raise SchedlabError(f"unknown {name} {value!r}; choose one of {', '.join(allowed)}")
    return value


ENGINES = ("compiled", "reference")


def replay(
    jobs: JobColumns,
    machine_procs: int,
    *,
    policy: str = "easy",
    order: str = "fcfs",
    estimates: str = "requested",
    conventions: str = "default",
    same_time: str | None = None,
    passes: str | None = None,
    engine: str | None = None,
    progress=None,
    sessions=None,
) -> ReplayResult:
    """Simulate ``jobs`` (a canonical job table, or its columns as numpy arrays) on
    ``machine_procs`` processors.

    ``policy`` and ``order`` are built-in names or references to your own code
    (``path/to/file.py:Name``, ``package.module:Name``; see ``schedlab.simulators.batch.policies``).

    ``same_time`` and ``passes`` override the convention profile's tie-breaking
    (see ``schedlab.simulators.core.engine``).  ``engine`` is ``compiled`` (built-in policies
    and orders, and a ``schedlab.simulators.batch.priority`` policy of yours under the fcfs
    order; the default for them) or ``reference`` (the interpreted engine every policy runs
    on; the default for the others); both give the same schedule.
    ``progress(jobs ended, jobs)``, if given, is called now and then during the run.
    ``sessions`` (``schedlab.workloads.sessions.Sessions`` of ``jobs``) replays closed-loop: a
    dependent session arrives its think time after its predecessors end in this run
    (``schedlab.simulators.batch.feedback``), on either engine; without it, open-loop.
    The schedule is checked against the invariants before it is returned; times are
    float64 seconds.
    """
    policy_name = canonical_name(policy, BUILT_IN_POLICIES, "policy")
    order_name = canonical_name(order, BUILT_IN_ORDERS, "queue order")
    built_in = policy_name in BUILT_IN_POLICIES and order_name in BUILT_IN_ORDERS
    policy_class, keyed = _keyed_policy(policy_name, order_name)
    engine = _choice("engine", engine or default_engine(policy_name, order_name), ENGINES)
    if engine == "compiled" and not (built_in or keyed):
        raise SchedlabError("the compiled engine runs the built-in policies and orders, and prioritized policies "
                            "(schedlab.simulators.batch.priority) under the fcfs order; use engine='reference'")
    if engine == "compiled" and not compiled.available():
        raise SchedlabError("the compiled engine was not built at install (no C compiler?); use engine='reference'")
    _choice("estimate source", estimates, ESTIMATES)
    profile = CONVENTIONS[_choice("convention profile", conventions, CONVENTIONS)]
    if machine_procs is None or machine_procs <= 0:
        raise SchedlabError(f"the machine needs a positive processor count, got {machine_procs}")
    event_order = EventOrder(
        same_time or profile.event_order.same_time, passes or profile.event_order.passes
    )
    batch = profile.prepare(jobs, int(machine_procs), estimates)
    if engine == "compiled":
        start, promised, series, submit = _run_compiled(
            batch, int(machine_procs), policy_class.built_in if keyed else policy_name, order_name, event_order,
            progress, sessions, priority_keys(policy_class, batch) if keyed else None)
    else:
        start, promised, series, submit = _run_reference(batch, int(machine_procs), policy, order, event_order,
                                                         progress, sessions)

    end = start + batch.actual
    if not built_in:
        _check_policy_rules(policy_name, batch, submit, start, promised)
    check_batch_schedule(
        machine=MACHINE_NAME,
        capacity=int(machine_procs),
        job_id=batch.job_id,
        submit=submit,
        start=start,
        end=end,
        actual=batch.actual,
        procs=batch.procs,
        promised=promised,
    )
    schedule = {
        "job_id": batch.job_id,
        "submit": submit,
        "start": start,
        "end": end,
        "procs": batch.procs,
        "requested_time": batch.estimate,
        "run_time": batch.actual,
        "recorded_wait": recorded_waits(jobs, batch),
    }
    queue_length = series["queue_length"]
    max_queue = int(queue_length.max()) if len(queue_length) else 0
    metrics = schedule_metrics(submit, start, end, batch.procs, int(machine_procs), max_queue)
    parameters = {
        "machine_procs": int(machine_procs),
        "policy": policy_name,
        "order": order_name,
        "estimates": estimates,
        "conventions": conventions,
        "same_time": event_order.same_time,
        "passes": event_order.passes,
        "arrivals": "open-loop" if sessions is None else
                    f"closed-loop ({sessions.describe()}"
                    + (", never earlier in the day than logged)" if sessions.day_clock is not None else ")"),
    }
    return ReplayResult(schedule_columns=schedule, metrics=metrics, series_columns=series, parameters=parameters)


def default_engine(policy: str, order: str = "fcfs") -> str:
    """The engine ``replay`` runs ``policy`` and ``order`` on unless told: ``compiled`` for the built-in
    policies and orders and for a prioritized policy under the fcfs order, where it was built;
    ``reference`` for the others."""
    policy_name = canonical_name(policy, BUILT_IN_POLICIES, "policy")
    order_name = canonical_name(order, BUILT_IN_ORDERS, "queue order")
    built_in = policy_name in BUILT_IN_POLICIES and order_name in BUILT_IN_ORDERS
    return "compiled" if (built_in or _keyed_policy(policy_name, order_name)[1]) and compiled.available() else "reference"


def _keyed_policy(policy_name: str, order_name: str) -> tuple[type | None, bool]:
    """A policy of one's own (None for a built-in name), and whether the compiled loop runs it by its
    priority keys (``schedlab.simulators.batch.priority``, under the fcfs order only)."""
    if policy_name in BUILT_IN_POLICIES:
        return None, False
    policy_class = load_policy(policy_name)
    return policy_class, is_prioritized(policy_class) and order_name == "fcfs"


def recorded_waits(jobs, batch) -> np.ndarray:
    """The wait the log recorded for each job of ``batch`` (SWF field 3), NaN where it is unknown
    (-1, or a synthetic workload's): the schedule carries it so that a report can set the log's
    waits beside the replay's without reading the job table again."""
    recorded = np.asarray(jobs["wait_time"], dtype=np.float64)[batch.source_row]
    return np.where(recorded >= 0, recorded, np.nan)


class PolicyRuleError(SchedlabError):
    """A researcher's policy broke a rule the engine checks: the user's code, not ours, so one line
    naming the policy, the rule, the first job and time, and the fix (``docs/policies.md``)."""


def _check_policy_rules(policy: str, batch, submit: np.ndarray, start: np.ndarray, promised: np.ndarray) -> None:
    """The rules of ``docs/policies.md`` that a policy can break, checked before the engine's own
    invariants (which would call a broken one an internal error)."""
    never = np.flatnonzero(np.isnan(start))
    if never.size:
        first = never[np.argmin(submit[never])]
        raise PolicyRuleError(
            f"policy {policy} broke the rule 'every job starts': {never.size} job(s) never started, the first "
            f"submitted job {batch.job_id[first]} (submitted at t={submit[first]:g} s); a policy must start "
            "every waiting job eventually (docs/policies.md, 'What the engine checks')")
    late = np.flatnonzero(start > promised)
    if late.size:
        first = late[np.argmin(promised[late])]
        raise PolicyRuleError(
            f"policy {policy} broke the rule 'a promised job starts by its promise': {late.size} job(s) started "
            f"late, the first job {batch.job_id[first]}, promised t={promised[first]:g} s, started t={start[first]:g} s; "
            "withdraw a promise (machine.promised[job] = math.inf) as soon as another job goes ahead of the job "
            "it protects (docs/policies.md, 'Promises')")


MACHINE_NAME = "machine"
SERIES_COLUMNS = ["time", "queue_length", "busy_procs"]


def _run_reference(batch, capacity: int, policy: str, order: str, event_order: EventOrder, progress=None,
                   sessions=None):
    """The interpreted engine: any policy, the readable reference for the compiled one; closed-loop
    with ``sessions``.  Also returns the submit times the run used."""
    from schedlab.simulators.core.machine import Machine  # numba's import is slow: the compiled path does without

    policy_class, order_function = load_policy(policy), load_order(order)
    if is_prioritized(policy_class):
        scheduler = policy_class(order_function, keys=priority_keys(policy_class, batch))
    else:
        scheduler = policy_class(order_function)
    if sessions is None:
        machine = Machine(MACHINE_NAME, capacity, batch, scheduler)
        engine = Engine([machine], event_order)
    else:
        from schedlab.simulators.batch.feedback import FeedbackEngine, FeedbackMachine, SessionArrivals, SessionTables

        machine = FeedbackMachine(MACHINE_NAME, capacity, batch, scheduler)
        engine = FeedbackEngine(machine, event_order, SessionArrivals(SessionTables.of(sessions, batch.job_id)))
    engine.run(None if progress is None else lambda ended: progress(ended, len(batch)))
    series = np.array(engine.trace[machine.name], dtype=compiled.SERIES_DTYPE)
    return (np.array(machine.start_time, dtype=np.float64), np.array(machine.promised, dtype=np.float64),
            _columns(series), np.array(machine.submit, dtype=np.float64))


def _run_compiled(batch, capacity: int, policy: str, order: str, event_order: EventOrder, progress=None,
                  sessions=None, keys=None):
    tables = None
    if sessions is not None:
        from schedlab.simulators.batch.feedback import SessionTables

        tables = SessionTables.of(sessions, batch.job_id)
    status, job, start, promised, series, submit = compiled.run(batch, capacity, policy, order, event_order,
                                                                progress, tables, keys)
    if status != compiled.DONE:
        raise InvariantError(f"{MACHINE_NAME}: {compiled.FAILURES[status]} (job {batch.job_id[job]}, {policy})")
    return start, promised, _columns(series), submit


def _columns(series: np.ndarray) -> dict[str, np.ndarray]:
    """The (time, queue_length, busy_procs) records as one array per column."""
    return {column: series[column] for column in SERIES_COLUMNS}
