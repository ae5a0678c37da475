"""The koala stage's compiled loop (schedlab.simulators.koala.compiled) gives the reference's run bit for bit.

Each point is simulated twice, on the compiled loop and on the reference (``MulticlusterSimulation`` with
``KoalaScheduler``); the jobs, components and series frames must be equal to the last bit (values, dtypes,
column and row order) and the summaries equal.  The grid crosses every policy, configurations A and B,
the four kinds of application and loads from light to saturated on two seeds, over a few simulated
hours; every unknown the sensitivity study varies, the options, hand-made requests the stage's
workloads never make, and the cases that fall back to the reference come after.  The paper's own
24-hour points are a slow test.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from pandas.testing import assert_frame_equal

from schedlab.simulators.koala import compiled
from schedlab.simulators.koala.execution import NODE_SHARES, CommunicationModel, ExecutionModel, application
from schedlab.simulators.koala.experiments import PROFILES, batches, sensitivity_profiles
from schedlab.simulators.koala.scheduler import KoalaScheduler
from schedlab.simulators.koala.simulate import POLICIES, Point, simulate
from schedlab.simulators.koala.workload import poisson_workload
from schedlab.simulators.koala.worst_fit import WorstFit
from schedlab.simulators.multicluster.requests import FixedRequest, FlexibleRequest, NonFixedRequest
from schedlab.simulators.multicluster.system import MulticlusterSimulation
from schedlab.simulators.multicluster.topology import Topology, das3

SIZES = {"A": (8, 16, 32), "B": (32, 48, 64)}
"""Config B with the large jobs, as the policies experiment runs it."""


def assert_same_result(ran, reference) -> None:
    for frame in ("jobs", "components", "series"):
        assert_frame_equal(getattr(ran, frame), getattr(reference, frame), check_exact=True)


def assert_same_run(point: Point) -> None:
    ran, summary = simulate(point, engine="compiled")
    reference, reference_summary = simulate(point, engine="reference")
    assert_same_result(ran, reference)
    assert summary == reference_summary


@pytest.mark.parametrize("seed", (1, 2))
@pytest.mark.parametrize("load", (0.2, 0.6, 0.95))
@pytest.mark.parametrize("app", ("prime", "poisson", "wave", "ccr-1"))
@pytest.mark.parametrize("config", ("A", "B"))
@pytest.mark.parametrize("policy", tuple(POLICIES))
def test_every_policy_configuration_application_and_load(policy, config, app, load, seed):
    assert_same_run(Point(app, policy, load, seed, config, SIZES[config], hours=1.5))


VARIANTS = {
    "scan every 30 s": dict(scan_period=30.0),
    "scan every 60 s": dict(scan_period=60.0),
    "scan every 7.3 s": dict(scan_period=7.3),  # ticks that are not whole seconds
    "no Delft latency": dict(delft_latency_share=0.0),
    "half Delft latency": dict(delft_latency_share=0.5),
    "no penalty below four clusters": dict(two_cluster_weight=0.0, three_cluster_weight=0.0),
    "w2 0.5, w3 0": dict(two_cluster_weight=0.5, three_cluster_weight=0.0),
    "w2 0, w3 0.5": dict(two_cluster_weight=0.0, three_cluster_weight=0.5),
    "node shares (reference)": dict(split_rule=NODE_SHARES),
    "slowest processor": dict(slowest_processor=True),
    "start-up overhead": dict(startup_overhead=10.0),
    "all options, periodic scans": dict(slowest_processor=True, startup_overhead=10.0, scan_period=60.0,
                                        two_cluster_weight=0.5),
}


@pytest.mark.parametrize("load", (0.5, 0.9))
@pytest.mark.parametrize("config", ("A", "B"))
@pytest.mark.parametrize("policy", tuple(POLICIES))
@pytest.mark.parametrize("variant", tuple(VARIANTS))
def test_every_sensitivity_variant_and_option(variant, policy, config, load):
    assert_same_run(Point("wave", policy, load, 3, config, SIZES[config], hours=1.5, **VARIANTS[variant]))


def _scheduler(policy: str, topology, **model):
    return KoalaScheduler(POLICIES[policy][0](topology), ExecutionModel(topology, **model))


def _both(topology, jobs, policy: str, **model):
    assert compiled.supports(_scheduler(policy, topology, **model), jobs)
    return (compiled.run(topology, jobs, _scheduler(policy, topology, **model)),
            MulticlusterSimulation(topology, jobs, _scheduler(policy, topology, **model)).run())


def _workload(config: str, request_kind: str, seed: int = 4, load: float = 0.9):
    topology = das3(config)
    jobs = poisson_workload(application("wave"), sizes=(8, 16, 32), net_utilization=load,
                            total_nodes=topology.total_nodes, duration=2 * 3600.0, seed=seed,
                            request_kind=request_kind)
    return topology, jobs


@pytest.mark.parametrize("config", ("A", "B"))
def test_worst_fit_places_several_components(config):
    """Non-fixed requests of several components (largest first, possibly two on one cluster), equal requests
    that are different objects, and two applications in one workload."""
    topology, jobs = _workload(config, "single")
    asks = [NonFixedRequest((16, 8, 8)), NonFixedRequest((8, 32)), NonFixedRequest((16, 8, 8)), NonFixedRequest((40,))]
    apps = [application("wave"), application("prime")]
    jobs = [dataclasses.replace(job, request=asks[i % len(asks)], attributes=apps[0] if i % 3 else apps[1])
            for i, job in enumerate(jobs)]
    assert_same_result(*_both(topology, jobs, "WF", slowest_processor=True))


@pytest.mark.parametrize("policy", ("FCM", "FCM2", "CA"))
@pytest.mark.parametrize("config", ("A", "B"))
def test_flexible_requests_with_a_minimum_and_a_most_components(policy, config):
    topology, jobs = _workload(config, "flexible")
    asks = [FlexibleRequest(40, min_component=8), FlexibleRequest(24, max_components=2),
            FlexibleRequest(64, min_component=4, max_components=3), FlexibleRequest(12), FlexibleRequest(90)]
    jobs = [dataclasses.replace(job, request=asks[i % len(asks)]) for i, job in enumerate(jobs)]
    assert_same_result(*_both(topology, jobs, policy))


@pytest.mark.parametrize("policy", tuple(POLICIES))
def test_ties_go_to_the_cluster_listed_first(policy):
    """Clusters of equal size, so that idle nodes are often equal on several clusters."""
    base = das3("A")
    topology = Topology("A, 40 nodes each", tuple(dataclasses.replace(c, nodes=40) for c in base.clusters),
                        base.latency_ms, base.bandwidth_mb_s)
    jobs = poisson_workload(application("wave"), sizes=(8, 16, 24), net_utilization=0.9,
                            total_nodes=topology.total_nodes, duration=2 * 3600.0, seed=5,
                            request_kind=POLICIES[policy][1])
    if policy == "WF":
        jobs = [dataclasses.replace(job, request=NonFixedRequest((8, 8))) if i % 4 == 0 else job
                for i, job in enumerate(jobs)]
    assert_same_result(*_both(topology, jobs, policy))


@pytest.mark.parametrize("policy, request_kind, size", (("WF", "single", 86), ("FCM", "flexible", 273),
                                                        ("CA", "flexible", 273)))
def test_a_request_that_can_never_fit_fails_as_in_the_reference(policy, request_kind, size):
    topology, jobs = _workload("A", request_kind, load=0.3)
    ask = NonFixedRequest((size,)) if request_kind == "single" else FlexibleRequest(size)
    jobs[5] = dataclasses.replace(jobs[5], request=ask)
    messages = []
    for run in (lambda: compiled.run(topology, jobs, _scheduler(policy, topology)),
                lambda: MulticlusterSimulation(topology, jobs, _scheduler(policy, topology)).run()):
        with pytest.raises(ValueError, match="can never fit") as raised:
            run()
        messages.append(str(raised.value))
    assert messages[0] == messages[1]


def test_every_compiled_run_is_checked(monkeypatch):
    checked = []
    check = compiled.check_multicluster_run
    monkeypatch.setattr(compiled, "check_multicluster_run", lambda **run: checked.append(run) or check(**run))
    simulate(Point("wave", "FCM", 0.9, 1, hours=1.0))
    assert len(checked) == 1 and len(checked[0]["log"]["time"]) > 0


def test_what_the_loop_cannot_mirror_runs_on_the_reference(monkeypatch):
    topology, jobs = _workload("A", "flexible")
    assert not compiled.supports(_scheduler("FCM", topology, communication=CommunicationModel(NODE_SHARES)), jobs)
    assert not compiled.supports(_scheduler("FCM", topology), [])
    fixed = [dataclasses.replace(jobs[0], request=FixedRequest(((0, 8), (1, 8))))] + jobs[1:]
    assert not compiled.supports(_scheduler("FCM", topology), fixed)

    class Mine(WorstFit):
        pass

    assert not compiled.supports(KoalaScheduler(Mine(), ExecutionModel(topology)), jobs)
    monkeypatch.setattr(compiled, "run", lambda *args: pytest.fail("node-shares ran on the compiled loop"))
    simulate(Point("wave", "FCM", 0.5, 1, hours=0.5, split_rule=NODE_SHARES))


def test_an_unknown_engine_is_refused():
    with pytest.raises(ValueError, match="unknown engine"):
        simulate(Point("wave", "FCM", 0.5, 1, hours=0.5), engine="fast")


def _paper_batches() -> dict:
    """Every 12th batch of the paper profile, and per kind of sensitivity variant the first FCM or CA batch
    that the paper profile does not run."""
    paper = PROFILES["paper"]
    chosen = {f"paper {i}": batch for i, batch in enumerate(batches(paper)) if i % 12 == 0}
    own = set(batches(paper))
    for profile in sensitivity_profiles(paper):
        kind = ("scan period" if profile.scan_period != paper.scan_period else
                "Delft latency" if profile.delft_latency_share != paper.delft_latency_share else "weights")
        new = [batch for batch in batches(profile) if batch not in own and batch.template.policy in ("FCM", "CA")]
        if new:  # the weights (1, 1) are the paper's own
            chosen.setdefault(kind, new[0])
    return chosen


@pytest.mark.slow
def test_paper_profile_points():
    chosen = _paper_batches()
    assert {"scan period", "Delft latency", "weights"} <= set(chosen)
    for batch in chosen.values():
        for load in batch.net_utilizations:
            assert_same_run(dataclasses.replace(batch.template, net_utilization=load))


def test_the_variant_grid_covers_every_kind_the_sensitivity_study_varies():
    paper = PROFILES["paper"]
    varied = set()
    for profile in sensitivity_profiles(paper):
        for field in ("scan_period", "delft_latency_share"):
            if getattr(profile, field) != getattr(paper, field):
                varied.add(field)
        for field in ("two_cluster_weight", "three_cluster_weight"):
            if getattr(profile.communication, field) != getattr(paper.communication, field):
                varied.add(field)
    covered = set(itertools.chain.from_iterable(VARIANTS.values()))
    assert varied <= covered
