"""KOALA's placement queue on small hand-made workloads, and whole runs against a plain scan."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from schedlab.simulators.koala.cluster_minimization import FlexibleClusterMinimization
from schedlab.simulators.koala.execution import Application, ExecutionModel
from schedlab.simulators.koala.scheduler import KoalaScheduler
from schedlab.simulators.koala.simulate import POLICIES, Point, simulate
from schedlab.simulators.koala.worst_fit import WorstFit
from schedlab.simulators.koala.workload import arrival_rate, poisson_workload
from schedlab.simulators.multicluster.requests import FixedRequest, FlexibleRequest, NonFixedRequest
from schedlab.simulators.multicluster.system import MulticlusterJob, MulticlusterSimulation
from schedlab.simulators.multicluster.topology import Cluster, das3, topology_from_pairs

FLAT = Application("flat", 100.0, 0.0)  # 100 s wherever it runs


def two_clusters():
    latency = {frozenset({"P"}): 0.1, frozenset({"Q"}): 0.1, frozenset({"P", "Q"}): 1.0}
    return topology_from_pairs("two", [Cluster("P", 10), Cluster("Q", 10)], latency, dict.fromkeys(latency, 1.0))


def run(jobs, policy=None, topology=None, scan_period=0.0, **model):
    topology = topology or two_clusters()
    scheduler = KoalaScheduler(policy or FlexibleClusterMinimization(), ExecutionModel(topology, **model), scan_period)
    return MulticlusterSimulation(topology, jobs, scheduler).run()


def job(i, submit, request, app=FLAT):
    return MulticlusterJob(i, submit, request, app)


def test_any_queued_job_that_fits_is_placed_not_only_the_head():
    jobs = [
        job(1, 0.0, FlexibleRequest(15)),  # takes 10 + 5
        job(2, 1.0, FlexibleRequest(12)),  # queued: 5 idle
        job(3, 2.0, FlexibleRequest(4)),  # fits in the 5 idle nodes at once
        job(4, 3.0, FlexibleRequest(3)),  # queued behind job 2 (1 idle node)
    ]
    frame = run(jobs).jobs.set_index("job_id")
    assert frame.loc[3, "start"] == 2.0
    # At t=100 job 1 ends: head job 2 (12 nodes) placed, then job 4 (3 nodes) too, same scan.
    assert frame.loc[2, "start"] == 100.0 and frame.loc[4, "start"] == 100.0


def test_a_small_job_overtakes_a_head_job_that_does_not_fit():
    jobs = [job(1, 0.0, FlexibleRequest(18)), job(2, 1.0, FlexibleRequest(5)), job(3, 2.0, FlexibleRequest(2))]
    frame = run(jobs).jobs.set_index("job_id")
    assert frame.loc[3, "start"] == 2.0 and frame.loc[2, "start"] == 100.0


def test_a_periodic_scan_places_queued_jobs_at_the_next_multiple_of_the_period():
    # Period 30 s.  Job 1 (15 nodes) fits on submission at 0 and runs until 100; job 2 (12) arrives at 1
    # and queues; job 3 (4) arrives at 2 and is placed at once (a submission tries its own placement);
    # job 4 (3) arrives at 3 and queues (1 idle node).  Job 3 ends at 102, job 1 at 100: no scan then;
    # the scans at 30, 60 and 90 find nothing to place, the scan at 120 places job 2 and then job 4.
    jobs = [job(1, 0.0, FlexibleRequest(15)), job(2, 1.0, FlexibleRequest(12)), job(3, 2.0, FlexibleRequest(4)),
            job(4, 3.0, FlexibleRequest(3))]
    frame = run(jobs, scan_period=30.0).jobs.set_index("job_id")
    assert frame["start"].to_dict() == {1: 0.0, 2: 120.0, 3: 2.0, 4: 120.0}
    # At every event instead: job 2 and job 4 start when job 1 ends, at 100.
    assert run(jobs).jobs.set_index("job_id")["start"].to_dict() == {1: 0.0, 2: 100.0, 3: 2.0, 4: 100.0}


def test_a_periodic_scan_stops_when_the_queue_is_empty_and_never_scans_before_its_time():
    jobs = [job(1, 0.0, FlexibleRequest(20)), job(2, 5.0, FlexibleRequest(20))]
    topology = two_clusters()
    scheduler = KoalaScheduler(FlexibleClusterMinimization(), ExecutionModel(topology), scan_period=45.0)
    scans = []
    original = scheduler._scan
    scheduler._scan = lambda sim: (scans.append(sim.now), original(sim))
    frame = MulticlusterSimulation(topology, jobs, scheduler).run().jobs.set_index("job_id")
    assert frame.loc[2, "start"] == 135.0  # job 1 ends at 100; the next multiple of 45 is 135
    assert scans == [45.0, 90.0, 135.0]  # nothing is scanned once the queue is empty
    with pytest.raises(ValueError, match="scan_period"):
        KoalaScheduler(FlexibleClusterMinimization(), ExecutionModel(topology), scan_period=-1.0)


def test_placement_is_atomic_no_partial_allocation_while_waiting():
    topology = two_clusters()
    scheduler = KoalaScheduler(FlexibleClusterMinimization(), ExecutionModel(topology))
    jobs = [job(1, 0.0, FlexibleRequest(15)), job(2, 1.0, FlexibleRequest(8))]
    sim = MulticlusterSimulation(topology, jobs, scheduler)
    sim.run()
    log = pd.DataFrame(sim.state.log, columns=["time", "job", "cluster", "delta"])
    assert log[(log.job == 1) & (log.delta > 0)]["time"].unique().tolist() == [100.0]


def test_fixed_request_waits_for_its_own_cluster():
    jobs = [job(1, 0.0, FlexibleRequest(10)), job(2, 1.0, FixedRequest(((0, 3),))), job(3, 2.0, FlexibleRequest(3))]
    frame = run(jobs).jobs.set_index("job_id")
    # FCM put job 1 on P (ties to the first cluster); job 2 wants P, job 3 goes to Q.
    assert frame.loc[2, "start"] == 100.0 and frame.loc[3, "start"] == 2.0
    assert frame.loc[2, "clusters"] == "P" and frame.loc[3, "clusters"] == "Q"


def test_startup_overhead_delays_the_start_not_the_placement():
    frame = run([job(1, 0.0, FlexibleRequest(12))], startup_overhead=10.0).jobs
    assert frame.loc[0, ["placed", "start", "end"]].tolist() == [0.0, 10.0, 110.0]


def test_coallocated_runs_stretch_with_the_communication_factor():
    wave_like = Application("w", 100.0, 1.0)  # 50 s computation, 50 s communication
    frame = run([job(1, 0.0, FlexibleRequest(15), wave_like)], kappa=2.0).jobs
    # Two clusters (10 + 5 nodes; the split does not matter): (2 x 1.0 ms) / 2^2 = 0.5 ms, f = 1 + 2 x 0.5.
    assert frame.loc[0, "end"] == pytest.approx(50.0 + 50.0 * 2.0)
    assert frame.loc[0, "n_clusters"] == 2


def test_a_job_that_can_never_fit_is_refused():
    with pytest.raises(ValueError, match="never fit"):
        run([job(1, 0.0, NonFixedRequest((11,)))], policy=WorstFit())


class PlainScanScheduler(KoalaScheduler):
    """The rule as written: ask the policy for every queued job, head to tail."""

    def _scan(self, sim):
        self.queue = [(j, key) for j, key in self.queue if not self._try_place(sim, j, sim.state.idle.tolist())]


@pytest.mark.parametrize("policy", ["WF", "FCM", "FCM2", "CA"])
def test_scan_shortcuts_decide_exactly_like_the_plain_scan(policy):
    topology = das3("B")
    make_policy, kind = POLICIES[policy]
    wave = Application("Wave", 200.0, 4.0)
    jobs = poisson_workload(wave, sizes=(8, 16, 32), net_utilization=0.85, total_nodes=topology.total_nodes,
                            duration=4 * 3600.0, seed=7, request_kind=kind)
    results = [
        MulticlusterSimulation(topology, jobs, cls(make_policy(topology), ExecutionModel(topology))).run().jobs
        for cls in (KoalaScheduler, PlainScanScheduler)
    ]
    pd.testing.assert_frame_equal(*results)
    assert results[0]["start"].gt(results[0]["submit"]).any()  # the queue was exercised


def test_workload_rate_follows_the_net_utilization_formula():
    wave = Application("Wave", 200.0, 4.0)
    # lambda = U N / (E[size] T1) = 0.5 x 204 / (56/3 x 200).
    assert arrival_rate(0.5, 204, (8, 16, 32), wave) == pytest.approx(0.5 * 204 / (56 / 3 * 200))
    jobs = poisson_workload(wave, sizes=(8, 16, 32), net_utilization=0.5, total_nodes=204, duration=48 * 3600.0,
                            seed=3, request_kind="flexible")
    work = sum(j.request.total for j in jobs) * 200.0 / (204 * 48 * 3600.0)
    assert work == pytest.approx(0.5, rel=0.05)
    single = poisson_workload(wave, sizes=(8, 16, 32), net_utilization=0.5, total_nodes=204,
                              duration=48 * 3600.0, seed=3, request_kind="single")
    assert [j.submit for j in single] == [j.submit for j in jobs]
    assert [j.request.sizes[0] for j in single] == [j.request.total for j in jobs]


def test_same_point_same_result_and_prime_never_loses_with_fcm():
    first = simulate(Point("prime", "FCM", 0.7, seed=2, hours=6.0))
    again = simulate(Point("prime", "FCM", 0.7, seed=2, hours=6.0))
    pd.testing.assert_frame_equal(first[0].jobs, again[0].jobs)
    assert first[1] == again[1]
    baseline = simulate(Point("prime", "WF", 0.7, seed=2, hours=6.0))[1]
    assert first[1]["mean_response_time"] <= baseline["mean_response_time"]
    assert np.isclose(first[1]["mean_run_time"], 200.0)


def test_saturation_is_flagged_when_the_queue_keeps_growing():
    calm = simulate(Point("prime", "FCM", 0.3, seed=1, hours=6.0))[1]
    flooded = simulate(Point("wave", "FCM", 0.95, seed=1, hours=6.0))[1]
    assert not calm["saturated"] and flooded["saturated"]


def test_saturation_rule_on_hand_made_queues():
    from schedlab.simulators.koala.metrics import saturation

    hours = np.arange(0.0, 24 * 3600.0, 600.0)
    steady = pd.DataFrame({"time": hours, "waiting": 20 + 5 * np.sin(hours / 3000.0), "busy": 0})
    growing = pd.DataFrame({"time": hours, "waiting": hours / 3600.0 * 10.0, "busy": 0})  # +10 jobs an hour
    assert not saturation(steady, 24 * 3600.0, jobs=4000)["saturated"]
    result = saturation(growing, 24 * 3600.0, jobs=4000)
    assert result["saturated"] and result["queue_growth"] == pytest.approx(210.0, abs=2.0)
    # The same growth is small beside a much larger workload: 2 % of 20,000 jobs is 400.
    assert not saturation(growing, 24 * 3600.0, jobs=20_000)["saturated"]
