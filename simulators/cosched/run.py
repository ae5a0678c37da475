"""Simulate two coupled machines in one event loop, with or without coscheduling.

Both machines run WFP priority with EASY backfilling (``schedlab.simulators.batch``), the
default conventions (a job runs min(run time, request), terminations before
submissions at one instant, one pass per instant).  With ``settings=None`` the pairs
are ignored: the baseline "without coscheduling".  The result holds one schedule per
machine, the metrics of spec 000 per machine, and the deadlock verdict; the
invariants of ``schedlab.simulators.cosched.invariants`` are checked before it is returned.

The run itself is the compiled loop of ``schedlab.simulators.cosched.compiled`` unless
``engine="reference"`` asks for the interpreted engine it mirrors (``Engine``,
``EasyBackfilling``, ``Coscheduler``), the readable reference: the same result either way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from schedlab.simulators.batch.conventions import CONVENTIONS
from schedlab.simulators.batch.easy import EasyBackfilling
from schedlab.simulators.batch.order import wfp
from schedlab.simulators.core.engine import Engine
from schedlab.simulators.core.machine import Machine
from schedlab.simulators.core.metrics import BOUNDED_SLOWDOWN_TAU
from schedlab.simulators.cosched.compiled import RunOutcome, run_compiled
from schedlab.simulators.cosched.coscheduler import Coscheduler, CoscheduledPolicy, CoschedSettings, Deadlock
from schedlab.simulators.cosched.invariants import check_machine, check_pairs
from schedlab.workloads.cycle import SECONDS_PER_HOUR

MACHINE_NAMES = ("A", "B")
ENGINES = ("compiled", "reference")


@dataclass
class CoschedResult:
    """``deadlock`` holds: ``deadlock`` (bool), ``kind`` ("circular wait", "livelock", "stall" or
    None), ``time``, ``stuck`` (held jobs of a circular wait or livelock), ``unstarted`` and ``last_start`` per
    machine, and ``starved``: the machines left with unstarted jobs outside a deadlock."""

    schedules: dict[str, pd.DataFrame]  # per machine, one row per job
    metrics: dict[str, dict[str, float]]  # per machine
    deadlock: dict


def _mate_indices(batches, pairs: pd.DataFrame | None) -> list[np.ndarray]:
    """Per machine, the index of each job's mate on the other machine, or -1."""
    mates = [np.full(len(batch), -1, dtype=np.int64) for batch in batches]
    if pairs is None or len(pairs) == 0:
        return mates
    positions = [pd.Series(np.arange(len(batch)), index=batch.job_id) for batch in batches]
    index_a = positions[0].loc[pairs["job_id_a"].to_numpy()].to_numpy()
    index_b = positions[1].loc[pairs["job_id_b"].to_numpy()].to_numpy()
    mates[0][index_a] = index_b
    mates[1][index_b] = index_a
    return mates


def _machine_metrics(batch, capacity: int, start, mates, first_ready, holds, tau: float) -> dict[str, float]:
    started = ~np.isnan(start)
    submit, actual = batch.submit[started], batch.actual[started]
    wait = start[started] - submit
    response = wait + actual
    paired = mates >= 0
    paired_started = paired & started
    sync = start[paired_started] - first_ready[paired_started]
    held_seconds = (holds[:, 2] - holds[:, 1]) * batch.procs[holds[:, 0].astype(np.int64)] if len(holds) else np.zeros(0)
    ends = start[started] + actual
    span = float(ends.max() - batch.submit.min()) if started.any() else 0.0
    loss = float(held_seconds.sum())
    return {
        "jobs": float(len(batch)),
        "started": float(started.sum()),
        "mean_wait": float(wait.mean()) if wait.size else math.nan,
        "mean_slowdown": float((response / actual).mean()) if wait.size else math.nan,
        "mean_bsld": float(np.maximum(1.0, response / np.maximum(actual, tau)).mean()) if wait.size else math.nan,
        "paired_jobs": float(paired.sum()),
        "paired_share": float(paired.mean()) if len(batch) else 0.0,
        "mean_sync": float(sync.mean()) if sync.size else math.nan,
        "su_loss_hours": loss / SECONDS_PER_HOUR,
        "su_loss_share": loss / (capacity * span) if span > 0 else 0.0,
        "span": span,
        "utilization": float((actual * batch.procs[started]).sum() / (capacity * span)) if span > 0 else 0.0,
    }


def baseline_metrics(jobs: pd.DataFrame, procs: int, tau: float = BOUNDED_SLOWDOWN_TAU,
                     engine: str = "compiled") -> dict[str, float]:
    """One machine alone under WFP + EASY: what it would show in a no-coscheduling run.

    Without coscheduling the two machines never interact, so this is the baseline's
    machine as ``cosimulate`` would run it, at half the cost; calibrations iterate on it.
    """
    batch = CONVENTIONS["default"].prepare(jobs, procs, "requested")
    unpaired = np.full(len(batch), -1, dtype=np.int64)
    outcome = _run(engine, [batch], (int(procs),), [unpaired], None)
    start, no_holds = outcome.start[0], np.zeros((0, 3))
    check_machine("baseline", int(procs), batch, start, no_holds, False)
    return _machine_metrics(batch, int(procs), start, unpaired, np.full(len(batch), np.nan), no_holds, tau)


def _run_reference(batches, capacities, mates, settings, progress=None) -> RunOutcome:
    """The interpreted engine, the readable reference the compiled loop mirrors."""
    conventions = CONVENTIONS["default"]
    machines = [
        Machine(name, procs, batch, EasyBackfilling(wfp))
        for name, procs, batch in zip(MACHINE_NAMES, capacities, batches)
    ]
    engine = Engine(machines, conventions.event_order)
    coscheduler = None
    if settings is not None:
        coscheduler = Coscheduler(machines, mates, settings, wfp)
        for machine in machines:
            machine.policy = CoscheduledPolicy(coscheduler, EasyBackfilling(coscheduler.queue_order))
    kind, time, stuck = None, None, []
    try:
        engine.run(progress)
    except Deadlock as deadlock:
        kind, time, stuck = deadlock.kind, deadlock.t, deadlock.stuck
    starts = [np.array(machine.start_time, dtype=np.float64) for machine in machines]
    states = coscheduler.states if coscheduler else [None] * len(machines)
    stop = time if kind else engine.now  # raised mid-run
    holds, first_ready, yields = [], [], []
    for batch, state in zip(batches, states):
        episodes = list(state.holds) if state else []
        episodes += [(job, hold.since, stop) for job, hold in (state.held.items() if state else [])]
        holds.append(np.array(episodes, dtype=np.float64).reshape(-1, 3))
        ready = np.full(len(batch), np.nan)
        yielded = np.zeros(len(batch), dtype=np.int64)
        if state:
            ready[list(state.first_ready)] = list(state.first_ready.values())
            yielded[list(state.yields)] = list(state.yields.values())
        first_ready.append(ready)
        yields.append(yielded)
    return RunOutcome(
        start=starts,
        promised=[np.array(machine.promised, dtype=np.float64) for machine in machines],
        holds=holds,
        first_ready=first_ready,
        yields=yields,
        releases=[state.releases if state else 0 for state in states],
        kind=kind,
        time=time,
        stuck=list(stuck),
        now=engine.now,
        ended=int(sum((start + batch.actual <= engine.now).sum() for start, batch in zip(starts, batches))),
    )


def _run(engine: str, batches, capacities, mates, settings, progress=None) -> RunOutcome:
    if engine == "reference":
        return _run_reference(batches, capacities, mates, settings, progress)
    if engine != "compiled":
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    outcome = run_compiled(batches, capacities, mates, settings)
    if progress is not None:
        progress(outcome.ended)
    return outcome


def cosimulate(
    jobs_a: pd.DataFrame,
    procs_a: int,
    jobs_b: pd.DataFrame,
    procs_b: int,
    pairs: pd.DataFrame | None,
    settings: CoschedSettings | None,
    tau: float = BOUNDED_SLOWDOWN_TAU,
    progress=None,
    engine: str = "compiled",
) -> CoschedResult:
    """Run machine A (``jobs_a`` on ``procs_a``) and B together; ``pairs`` as made by
    ``schedlab.workloads.pairing`` (columns ``job_id_a``, ``job_id_b``).  ``progress(jobs ended on
    both machines, jobs)``, if given, is called now and then during the run (the compiled engine:
    once, at the end).  ``engine``: "compiled" (``schedlab.simulators.cosched.compiled``) or
    "reference" (the interpreted engine it mirrors); both give the same result."""
    conventions = CONVENTIONS["default"]
    capacities = (int(procs_a), int(procs_b))
    batches = [conventions.prepare(jobs, procs, "requested") for jobs, procs in zip((jobs_a, jobs_b), capacities)]
    mates = _mate_indices(batches, pairs if settings is not None else None)
    jobs = sum(len(batch) for batch in batches)
    outcome = _run(engine, batches, capacities, mates, settings,
                   None if progress is None else lambda ended: progress(ended, jobs))
    verdict = {"deadlock": False, "kind": None, "time": None, "stuck": []}
    if outcome.kind is not None:
        verdict.update(
            deadlock=True,
            kind=outcome.kind,
            time=outcome.time,
            stuck=[[MACHINE_NAMES[side], int(batches[side].job_id[job])] for side, job in outcome.stuck],
        )
    starts = outcome.start
    unstarted = {name: int(np.isnan(start).sum()) for name, start in zip(MACHINE_NAMES, starts)}
    verdict["last_start"] = {name: float(np.nanmax(start, initial=-np.inf)) for name, start in zip(MACHINE_NAMES, starts)}
    if not verdict["deadlock"] and all(unstarted.values()):
        # Release off: holds starved both queues (a head that never fits beside them blocks
        # the mates) until the events ran out.  Both queues then only grow, the paper's
        # picture of a deadlock; it dates from the last start on either machine, after
        # which nothing ran anywhere.  One machine left with unstarted jobs while the
        # other kept starting is starvation, reported per machine, not a deadlock.
        verdict.update(deadlock=True, kind="stall", time=max(verdict["last_start"].values()))
    verdict["starved"] = [name for name in MACHINE_NAMES if unstarted[name] and not verdict["deadlock"]]
    release_off = settings is not None and settings.release_period is None
    verdict["unstarted"] = unstarted

    schedules, metrics = {}, {}
    for side, (name, capacity, batch, start) in enumerate(zip(MACHINE_NAMES, capacities, batches, starts)):
        holds = outcome.holds[side]
        # Unstarted jobs are legitimate only in a reported deadlock, or as the starvation a
        # run without the release may end in; anywhere else they are a bug.
        check_machine(name, capacity, batch, start, holds, verdict["deadlock"] or (release_off and name in verdict["starved"]))
        first_ready = outcome.first_ready[side]
        held_seconds = np.zeros(len(batch))
        if len(holds):
            np.add.at(held_seconds, holds[:, 0].astype(np.int64), holds[:, 2] - holds[:, 1])
        mate_ids = np.where(mates[side] >= 0, batches[1 - side].job_id[np.maximum(mates[side], 0)], -1)
        schedules[name] = pd.DataFrame(
            {
                "job_id": batch.job_id,
                "submit": batch.submit,
                "start": start,
                "end": start + batch.actual,
                "procs": batch.procs,
                "requested_time": batch.estimate,
                "run_time": batch.actual,
                "mate_job_id": mate_ids,
                "first_ready": first_ready,
                "held_seconds": held_seconds,
            }
        )
        metrics[name] = _machine_metrics(batch, capacity, start, mates[side], first_ready, holds, tau)
        metrics[name]["holds"] = float(len(holds))
        metrics[name]["yields"] = float(outcome.yields[side].sum())
        metrics[name]["releases"] = float(outcome.releases[side])
    if settings is not None:
        paired_a = np.flatnonzero(mates[0] >= 0)
        check_pairs(starts[0], starts[1], paired_a, mates[0][paired_a], (batches[0].job_id, batches[1].job_id))
    return CoschedResult(schedules, metrics, verdict)
