"""The compiled COSY loop (schedlab.simulators.cosy.compiled) against the interpreted reference engine.

Every comparison is exact: each job's start and promise, every decision, the metrics and the schedule
DataFrame, on random small cases (workload models and integer-time jobs full of ties, reservation shares
0 to 0.5, each notice policy, requeueing on and off, W fixed or running, exact-start and latest-end
requests) and on runs of the quick profile's experiment; and what the loop does not run goes to the
reference, checked the same way.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np
import pandas as pd
import pytest

from schedlab.simulators.core.engine import EventOrder
from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.batch.conventions import default_inputs
from schedlab.simulators.cosy import compiled, experiments
from schedlab.simulators.cosy import run as cosy_run
from schedlab.simulators.cosy.experiments import PROFILES, generate_workload, reservation_jobs, run_point, select_workloads
from schedlab.simulators.cosy.notice import AdaptiveNotice, FixedNotice, NoNotice
from schedlab.simulators.cosy.queues import QueueConfig, Queues
from schedlab.simulators.cosy.scheduler import EARLIEST, EXACT_START, LATEST_END, ReservationRequest
from tests.conftest import random_jobs

MODELS = ("cirne-berman", "cirne-berman-run-times", "lublin-feitelson", "log-uniform", "log-uniform-wide")
NOTICES = (NoNotice(), FixedNotice(0.5), FixedNotice(1.0), FixedNotice(4.0), AdaptiveNotice())


def same(a, b) -> bool:
    """Equal, NaN equal to NaN (the metrics hold NaN where a mean has no values)."""
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


@pytest.fixture
def outcomes(monkeypatch):
    """The ``Outcome`` and reservation book of every run, in run order, as ``checked_result`` receives them."""
    seen = []
    original = cosy_run.checked_result

    def recording(jobs, capacity, outcome, book):
        seen.append((outcome, book))
        return original(jobs, capacity, outcome, book)

    monkeypatch.setattr(cosy_run, "checked_result", recording)
    return seen


def assert_same_runs(outcomes, batch, capacity, **options):
    """One run on each engine, compared decision for decision; returns the compiled run."""
    compiled_run = cosy_run.simulate_cosy(batch, capacity, **options)
    reference_run = cosy_run.simulate_cosy(batch, capacity, engine="reference", **options)
    (fast, fast_book), (slow, slow_book) = outcomes[-2:]
    for field in (f.name for f in dataclasses.fields(fast)):
        assert np.array_equal(getattr(fast, field), getattr(slow, field),
                              equal_nan=getattr(slow, field).dtype.kind == "f"), field
    if slow_book is not None:
        assert {j: (r.start, r.procs, r.end, r.state) for j, r in fast_book.reservations.items()} == {
            j: (r.start, r.procs, r.end, r.state) for j, r in slow_book.reservations.items()}
    assert compiled_run.metrics.keys() == reference_run.metrics.keys()
    assert all(same(compiled_run.metrics[k], reference_run.metrics[k]) for k in reference_run.metrics)
    pd.testing.assert_frame_equal(compiled_run.schedule, reference_run.schedule, check_exact=True)
    return compiled_run


def random_case(rng):
    """A small workload: one of the experiment's models, or integer times (many equal-time events)."""
    if rng.random() < 0.5:
        model = MODELS[rng.integers(len(MODELS))]
        jobs = generate_workload(model, int(rng.integers(10, 60)), 32, float(rng.uniform(0.5, 3.0)),
                                 int(rng.integers(1000)))
        return default_inputs(jobs, 32, "requested"), 32
    capacity = int(rng.integers(4, 17))
    jobs = random_jobs(rng, int(rng.integers(5, 50)), 400, capacity, (1, 60), 30)
    return default_inputs(jobs, capacity, "requested"), capacity


def random_requests(rng, batch, kind: str) -> dict:
    chosen = reservation_jobs(len(batch), float(rng.uniform(0.0, 0.5)), int(rng.integers(1000)))
    if kind == EARLIEST:
        return {int(j): ReservationRequest() for j in chosen}
    # around the submission, sometimes before it: too little notice, or a start already past
    offsets = rng.uniform(-50.0, 2000.0, len(chosen)) * rng.choice([0.01, 1.0], len(chosen))
    times = batch.submit[chosen] + offsets + (batch.estimate[chosen] if kind == LATEST_END else 0.0)
    return {int(j): ReservationRequest(kind, float(t)) for j, t in zip(chosen, times)}


@pytest.mark.parametrize("seed", range(12))
def test_random_cases_run_the_same_on_both_engines(outcomes, seed):
    rng = np.random.default_rng([seed, 2004])
    for _ in range(25):
        batch, capacity = random_case(rng)
        kind = (EARLIEST, EARLIEST, EXACT_START, LATEST_END)[rng.integers(4)]
        reservations = random_requests(rng, batch, kind)
        notice = NOTICES[rng.integers(len(NOTICES))]
        mean_wait = None if rng.random() < 0.5 else float(rng.choice([0.0, 0.4, 30.0, 3000.0]))
        for requeue_refused in (False, True):
            assert_same_runs(outcomes, batch, capacity, reservations=reservations, notice=notice,
                             requeue_refused=requeue_refused, mean_wait=mean_wait)


def test_a_reservation_for_now_and_zero_notice_start_after_the_pass(outcomes):
    # n = 0: every reservation asks for its submission time; integer times put ends, arrivals and
    # reservation starts at one timestamp
    rng = np.random.default_rng(7)
    for _ in range(20):
        batch, capacity = random_case(rng)
        reservations = {int(j): ReservationRequest() for j in reservation_jobs(len(batch), 0.5, int(rng.integers(99)))}
        result = assert_same_runs(outcomes, batch, capacity, reservations=reservations, notice=NoNotice(),
                                  requeue_refused=bool(rng.integers(2)))
        assert result.metrics["jobs"] == len(batch)


def quick_workloads(workload: str, count: int):
    return select_workloads(count, 100, experiments.MACHINE_NODES, workload=workload)[0]


def not_here(*args):
    raise AssertionError("the compiled loop ran where it must not")


def reference_engine(monkeypatch):
    monkeypatch.setattr(experiments, "simulate_cosy", functools.partial(cosy_run.simulate_cosy, engine="reference"))
    monkeypatch.setattr(compiled, "run_cosy", not_here)


def assert_same_points(monkeypatch, workloads, points):
    compiled_rows = [run_point(w, experiments.MACHINE_NODES, **p._asdict()) for p in points for w in workloads]
    with monkeypatch.context() as patch:
        reference_engine(patch)
        reference_rows = [run_point(w, experiments.MACHINE_NODES, **p._asdict()) for p in points for w in workloads]
    for fast, slow in zip(compiled_rows, reference_rows):
        assert fast.keys() == slow.keys()
        assert all(same(fast[k], slow[k]) for k in slow), [k for k in slow if not same(fast[k], slow[k])]


def assert_same_tuning(monkeypatch, workload: str, count: int):
    compiled_workloads = quick_workloads(workload, count)
    with monkeypatch.context() as patch:
        reference_engine(patch)
        reference_workloads = quick_workloads(workload, count)
    for fast, slow in zip(compiled_workloads, reference_workloads, strict=True):
        assert (fast.seed, fast.offered_load) == (slow.seed, slow.offered_load)
        assert all(same(fast.baseline[k], slow.baseline[k]) for k in slow.baseline)
        pd.testing.assert_frame_equal(fast.jobs, slow.jobs, check_exact=True)
    return compiled_workloads


def test_quick_profile_runs_are_the_same_on_both_engines(monkeypatch):
    """The ledger's workload: its tuning, and every point but the node-bound one (its own simulator)."""
    workloads = assert_same_tuning(monkeypatch, "cirne-berman", 2)
    points = [p for p in PROFILES["quick"].points() if p.policy != experiments.NODE_BOUND]
    assert_same_points(monkeypatch, workloads, points)


@pytest.mark.slow
@pytest.mark.parametrize("workload", [g[0] for g in PROFILES["quick"].grids()])
def test_every_quick_workload_runs_the_same_on_both_engines(monkeypatch, workload):
    """The whole quick profile but its node-bound runs: every workload's tuning and every point's runs."""
    _, _, count, points = {g[0]: g for g in PROFILES["quick"].grids()}[workload]
    workloads = assert_same_tuning(monkeypatch, workload, count)
    assert_same_points(monkeypatch, workloads, [p for p in points if p.policy != experiments.NODE_BOUND])


def one_case():
    batch, capacity = random_case(np.random.default_rng(0))  # three reservations accepted, two refused
    return batch, capacity, {int(j): ReservationRequest() for j in reservation_jobs(len(batch), 0.3, 3)}


@dataclasses.dataclass(frozen=True)
class LaterNotice(FixedNotice):
    """A policy the loop does not know (a subclass may change the rule): it must go to the reference."""


@pytest.mark.parametrize("options, reason", [
    ({"queues": "single"}, "queues given"),
    ({"event_order": EventOrder(same_time="submissions_first")}, "event order"),
    ({"event_order": EventOrder(passes="per_event")}, "event order"),
    ({"notice": LaterNotice(1.0)}, "notice policy LaterNotice"),
    ({"confirm_after": 10.0}, "two-phase reservations"),
    ({"confirm_after": None}, "two-phase reservations"),
])
def test_what_the_loop_does_not_run_goes_to_the_reference(outcomes, monkeypatch, options, reason):
    batch, capacity, reservations = one_case()
    options = dict(options)
    if options.get("queues") == "single":
        options["queues"] = Queues([QueueConfig("default")], ["default"] * len(batch), [None] * len(batch))
    if "confirm_after" in options:
        confirm_after = options.pop("confirm_after")
        reservations = {j: ReservationRequest(confirm_after=confirm_after) for j in reservations}
    assert compiled.supported(batch, capacity, reservations, options.get("notice", NoNotice()),
                              options.get("queues"), 300.0, options.get("event_order", EventOrder())).startswith(reason)
    monkeypatch.setattr(compiled, "run_cosy", not_here)
    assert_same_runs(outcomes, batch, capacity, reservations=reservations, **options)


def test_the_loop_supports_the_experiments_configurations():
    batch, capacity, reservations = one_case()
    exact = {j: ReservationRequest(EXACT_START, 5.0) for j in reservations}
    for notice in NOTICES:
        for requests in (reservations, exact, {}):
            assert compiled.supported(batch, capacity, requests, notice, None, 300.0, EventOrder()) is None


def test_an_over_commit_in_the_loop_is_rerun_on_the_reference(outcomes, monkeypatch):
    batch, capacity, reservations = one_case()
    failing = compiled.run_cosy

    def over_committed(*args):
        return (compiled.OK + 1, *failing(*args)[1:])

    monkeypatch.setattr(compiled, "run_cosy", over_committed)
    result = cosy_run.simulate_cosy(batch, capacity, reservations=reservations)
    assert len(outcomes) == 1  # only the reference's run reached the checks
    reference = cosy_run.simulate_cosy(batch, capacity, reservations=reservations, engine="reference")
    pd.testing.assert_frame_equal(result.schedule, reference.schedule, check_exact=True)


def test_unknown_engine_is_refused():
    batch, capacity, _ = one_case()
    with pytest.raises(ValueError, match="unknown engine"):
        cosy_run.simulate_cosy(batch, capacity, engine="fast")


@pytest.mark.parametrize("corrupt, message", [
    ("late reservation", "not started on time"),
    ("early start", "started before submission"),
])
def test_the_invariants_check_the_loops_output(monkeypatch, corrupt, message):
    batch, capacity, reservations = one_case()
    running = compiled.run_cosy

    def corrupted(*args):
        status, start, promised, refusal, requeued, requested_start, wait, notice, started = running(*args)
        if corrupt == "late reservation":
            accepted = np.flatnonzero((args[5] != compiled.QUEUE_JOB) & (refusal == 0))
            start[accepted[0]] += 1.0
        else:
            queue_job = np.flatnonzero(args[5] == compiled.QUEUE_JOB)[-1]
            start[queue_job] = args[0][queue_job] - 1.0
        return status, start, promised, refusal, requeued, requested_start, wait, notice, started

    monkeypatch.setattr(compiled, "run_cosy", corrupted)
    with pytest.raises(InvariantError, match=message):
        cosy_run.simulate_cosy(batch, capacity, reservations=reservations)
