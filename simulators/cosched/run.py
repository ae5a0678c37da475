"""Simulate two coupled machines in one event loop, with or without coscheduling.

Both machines run WFP priority with EASY backfilling (``schedlab.simulators.batch``), the
default conventions (a job runs min(run time, request), terminations before
submissions at one instant, one pass per instant).  With ``settings=None`` the pairs
are ignored: the baseline "without coscheduling".  The result holds one schedule per
machine, the metrics of spec 000 per machine, and the deadlock verdict; the
invariants of ``schedlab.simulators.cosched.invariants`` are checked before it is returned.
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
from schedlab.simulators.cosched.coscheduler import Coscheduler, CoscheduledPolicy, CoschedSettings, Deadlock
from schedlab.simulators.cosched.invariants import check_machine, check_pairs
from schedlab.workloads.cycle import SECONDS_PER_HOUR

MACHINE_NAMES = ("A", "B")


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


def baseline_metrics(jobs: pd.DataFrame, procs: int, tau: float = BOUNDED_SLOWDOWN_TAU) -> dict[str, float]:
    """One machine alone under WFP + EASY: what it would show in a no-coscheduling run.

    Without coscheduling the two machines never interact, so this is the baseline's
    machine as ``cosimulate`` would run it, at half the cost; calibrations iterate on it.
    """
    conventions = CONVENTIONS["default"]
    batch = conventions.prepare(jobs, procs, "requested")
    machine = Machine("baseline", int(procs), batch, EasyBackfilling(wfp))
    Engine([machine], conventions.event_order).run()
    start = np.array(machine.start_time, dtype=np.float64)
    no_holds = np.zeros((0, 3))
    check_machine("baseline", machine.capacity, batch, start, no_holds, False)
    unpaired = np.full(len(batch), -1)
    return _machine_metrics(batch, machine.capacity, start, unpaired, np.full(len(batch), np.nan), no_holds, tau)


def cosimulate(
    jobs_a: pd.DataFrame,
    procs_a: int,
    jobs_b: pd.DataFrame,
    procs_b: int,
    pairs: pd.DataFrame | None,
    settings: CoschedSettings | None,
    tau: float = BOUNDED_SLOWDOWN_TAU,
    progress=None,
) -> CoschedResult:
    """Run machine A (``jobs_a`` on ``procs_a``) and B together; ``pairs`` as made by
    ``schedlab.workloads.pairing`` (columns ``job_id_a``, ``job_id_b``).  ``progress(jobs ended on
    both machines, jobs)``, if given, is called now and then during the run."""
    conventions = CONVENTIONS["default"]
    capacities = (int(procs_a), int(procs_b))
    batches = [conventions.prepare(jobs, procs, "requested") for jobs, procs in zip((jobs_a, jobs_b), capacities)]
    machines = [
        Machine(name, procs, batch, EasyBackfilling(wfp))
        for name, procs, batch in zip(MACHINE_NAMES, capacities, batches)
    ]
    engine = Engine(machines, conventions.event_order)
    mates = _mate_indices(batches, pairs if settings is not None else None)
    coscheduler = None
    if settings is not None:
        coscheduler = Coscheduler(machines, mates, settings, wfp)
        for machine in machines:
            machine.policy = CoscheduledPolicy(coscheduler, EasyBackfilling(coscheduler.queue_order))
    verdict = {"deadlock": False, "kind": None, "time": None, "stuck": []}
    try:
        jobs = sum(len(batch) for batch in batches)
        engine.run(None if progress is None else lambda ended: progress(ended, jobs))
    except Deadlock as deadlock:
        verdict.update(
            deadlock=True,
            kind=deadlock.kind,
            time=deadlock.t,
            stuck=[[MACHINE_NAMES[side], int(batches[side].job_id[job])] for side, job in deadlock.stuck],
        )
    starts = [np.array(machine.start_time, dtype=np.float64) for machine in machines]
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
    stop = verdict["time"] if verdict["kind"] in ("circular wait", "livelock") else engine.now  # raised mid-run
    for side, (name, machine, batch, start) in enumerate(zip(MACHINE_NAMES, machines, batches, starts)):
        state = coscheduler.states[side] if coscheduler else None
        episodes = list(state.holds) if state else []
        episodes += [(job, hold.since, stop) for job, hold in (state.held.items() if state else [])]
        holds = np.array(episodes, dtype=np.float64).reshape(-1, 3)
        # Unstarted jobs are legitimate only in a reported deadlock, or as the starvation a
        # run without the release may end in; anywhere else they are a bug.
        check_machine(name, machine.capacity, batch, start, holds, verdict["deadlock"] or (release_off and name in verdict["starved"]))
        first_ready = np.full(len(batch), np.nan)
        if state:
            ready_jobs = np.fromiter(state.first_ready.keys(), dtype=np.int64, count=len(state.first_ready))
            first_ready[ready_jobs] = np.fromiter(state.first_ready.values(), dtype=np.float64, count=len(ready_jobs))
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
        metrics[name] = _machine_metrics(batch, machine.capacity, start, mates[side], first_ready, holds, tau)
        metrics[name]["holds"] = float(len(holds))
        metrics[name]["yields"] = float(sum(state.yields.values())) if state else 0.0
        metrics[name]["releases"] = float(state.releases) if state else 0.0
    if settings is not None:
        paired_a = np.flatnonzero(mates[0] >= 0)
        check_pairs(starts[0], starts[1], paired_a, mates[0][paired_a], (batches[0].job_id, batches[1].job_id))
    return CoschedResult(schedules, metrics, verdict)
