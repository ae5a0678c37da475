"""The ICS regime: decision counting, NPB iteration counts, the workload model and steady-state metrics."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from schedlab.simulators.ics.kernel import Kernel
from schedlab.simulators.ics.metrics import job_length_metrics, measured_jobs, per_node_ratio, processes_per_node
from schedlab.simulators.ics.outcome import KernelOutcome
from schedlab.simulators.ics.schemes import make_scheme
from schedlab.simulators.ics.state import Job
from schedlab.simulators.ics.workload import (
    MEAN_INTERARRIVAL,
    MEAN_READINGS,
    MEAN_RUNTIME,
    MIN_ITERATIONS,
    NPB_APPS,
    NpbSpec,
    SyntheticSpec,
    job_attributes,
    model_means,
    npb_job,
    scaled_to_mean,
    synthetic_jobs,
)
from schedlab.workloads.jobs import independent_streams


def lone_process_job(index: int) -> Job:
    return Job(index, index + 1, "J1-NN", 0.0, [[1.0]], [[0.0]], [16384.0], [False], 1.0)


def test_a_conflict_counts_when_proc_keeps_the_runner():
    """PROC-B at a quantum expiry: both ready processes have messages, Algorithm 1 keeps the runner.

    The runner's correspondent (node 1) has no contention (ENP 0), the other's (node 2) four
    processes ahead, so the runner stays.  No context switch happens, but the decision had a
    boost conflict, and BCR must see it as SB's switch-away would be seen.
    """
    jobs = [lone_process_job(0), lone_process_job(1)]
    kernel = Kernel(jobs, 3, 5, make_scheme("PROC-B"))
    kernel.start_job(jobs[0], [0], 0.0)
    kernel.start_job(jobs[1], [0], 0.0)
    node = kernel.nodes[0]
    runner, other = jobs[0].processes[0], jobs[1].processes[0]
    assert node.running is runner
    node.global_table = {1: [1e-3, 0.0, 0.0], 2: [1e-3, 4.0, 0.0]}
    runner.pending_now, runner.peer_table = [1], {1: [0.0, 0.0]}
    other.pending_now, other.peer_table = [2], {2: [4.0, 0.0]}
    switches, decisions = node.switches, node.decisions
    t = 0.01
    kernel.settle(node, t)
    kernel.enqueue(node, runner)  # quantum used up: back to the queue, behind ``other``
    node.running = None
    kernel.dispatch(node, t, runner)
    assert node.running is runner
    assert node.switches == switches
    assert node.decisions == decisions + 1
    assert node.conflicts == 1 and node.false_decisions == 0
    # the oracle reads live state, where both senders' nodes are empty: a tie, so no pick could be false
    assert node.chance_false == 0.0


def test_chance_level_counts_the_conflicting_processes_a_pick_would_get_wrong():
    """SB picks the first of three processes with messages; only the third's sender (node 3) is idle.

    Besides its runner, node 1 holds two waiting processes with messages and node 2 one (ENP 2 and 1
    at an ED of 1 ms), node 3 none, so the oracle's least contended source is node 3: the pick is
    false, and so would two of the three conflicting processes be, so chance counts 2/3.
    """
    jobs = [lone_process_job(index) for index in range(3)]
    kernel = Kernel(jobs, 4, 5, make_scheme("SB"))
    node = kernel.nodes[0]
    for job in jobs:
        kernel.start_job(job, [0], 0.0)
    first, second, third = (job.processes[0] for job in jobs)
    for index, residents in ((1, 3), (2, 2)):
        source = kernel.nodes[index]
        source.execution_duration = 1e-3
        for job in [lone_process_job(10 * index + k) for k in range(residents)]:
            kernel.start_job(job, [index], 0.0)
            job.processes[0].pending_now = [0]
    first.pending_now, second.pending_now, third.pending_now = [1], [2], [3]
    kernel.settle(node, 0.0)
    kernel.enqueue(node, node.running)
    node.running = None
    kernel.count_decision(node, first, 0.0)
    assert node.conflicts == 1 and node.false_decisions == 1
    assert node.chance_false == pytest.approx(2 / 3)


# Table 2 of the paper: messages per process; nearest neighbour sends 2 per iteration, all-to-all 63 on 64
# nodes; MG sends 9 ring iterations then 1 all-to-all (81 messages per 10 iterations): 70 periods are 5,670
# messages, 32 more take 9 ring iterations (18) and the all-to-all (63).
APPLICATION_ITERATIONS = {"BT": 19200 // 2, "MG": 700 + 10, "FT": 10080 // 63, "IS": 7560 // 63, "CG": 37950 // 2}


@pytest.mark.parametrize("app", sorted(APPLICATION_ITERATIONS))
def test_npb_jobs_run_the_applications_iteration_counts(app):
    job = npb_job(0, app, 0.0, NpbSpec(apps=(app,)), np.random.default_rng(1))
    assert job.iterations == APPLICATION_ITERATIONS[app]
    sent = sum(len(job.peers(0, k)) for k in range(job.iterations))
    assert sent >= NPB_APPS[app].messages_per_process
    assert sent - NPB_APPS[app].messages_per_process < (63 if app in ("MG", "FT", "IS") else 2)


def test_reduced_npb_keeps_mg_s_all_to_all():
    job = npb_job(0, "MG", 0.0, NpbSpec(apps=("MG",), iteration_share=1 / 512), np.random.default_rng(1))
    assert job.iterations == 10 and job.all_to_all.sum() == 1


def test_scaling_to_a_mean_multiplies_by_one_constant():
    assert scaled_to_mean(np.array([1.0, 2.0, 6.0]), 6.0).tolist() == [2.0, 4.0, 12.0]


def test_each_sample_realises_the_stated_means_by_default_and_the_expected_reading_does_not():
    # seed 1's heavy wl4 workload of the paper profile: 160 jobs
    by_reading = {means: job_attributes(160, "heavy", *independent_streams(1, 3), means=means)
                  for means in MEAN_READINGS}
    sizes, runtimes, gaps = by_reading["per_sample"]
    assert gaps.mean() == pytest.approx(1554.42, rel=1e-12) and runtimes.mean() == pytest.approx(3228.05, rel=1e-12)
    expected_sizes, expected_runtimes, expected_gaps = by_reading["expected"]
    assert (expected_sizes == sizes).all()
    # one constant apart: the same draws, scaled otherwise
    assert np.ptp(runtimes / expected_runtimes) < 1e-9 and np.ptp(gaps / expected_gaps) < 1e-9
    assert abs(expected_gaps.mean() - 1554.42) > 100.0
    with pytest.raises(ValueError, match="stated means"):
        job_attributes(10, "heavy", *independent_streams(1, 3), means="typo")


def test_a_synthetic_workload_arrives_and_runs_at_the_stated_means():
    jobs = synthetic_jobs(SyntheticSpec(n_jobs=160, compression=8000.0, seed=3))
    assert jobs[-1].submit * 8000.0 / len(jobs) == pytest.approx(1554.42, rel=1e-9)
    # whole iterations round each job's length a little, and the shortest are lengthened to two
    assert np.mean([job.dedicated_time for job in jobs]) * 8000.0 == pytest.approx(3228.05, rel=0.02)


def test_the_models_expectations_meet_the_papers_means():
    size_rng, runtime_rng, gap_rng = independent_streams(11, 3)
    sizes, runtimes, gaps = job_attributes(40000, "heavy", size_rng, runtime_rng, gap_rng, means="expected")
    assert sizes.min() == 2 and sizes.max() == 32
    assert abs(sizes.mean() - 17.0) < 0.2
    assert runtimes.mean() == pytest.approx(MEAN_RUNTIME, rel=0.05)
    assert gaps.mean() == pytest.approx(MEAN_INTERARRIVAL["heavy"], rel=0.03)
    # bigger jobs run longer in the Lublin-Feitelson model
    assert np.median(runtimes[sizes >= 24]) > 2 * np.median(runtimes[sizes <= 8])
    # offered load of the sample vs the model's expectation
    sample_load = float(np.mean(sizes * runtimes)) / (32 * MEAN_INTERARRIVAL["heavy"])
    assert sample_load == pytest.approx(model_means()["offered_load"]["heavy"], rel=0.08)


def test_synthetic_jobs_compress_lengths_and_gaps_alike():
    slow = synthetic_jobs(SyntheticSpec(n_jobs=20, compression=1000.0, seed=5))
    fast = synthetic_jobs(SyntheticSpec(n_jobs=20, compression=4000.0, seed=5))
    assert [job.size for job in slow] == [job.size for job in fast]
    assert fast[-1].submit == pytest.approx(slow[-1].submit / 4)


def test_jobs_shorter_than_the_iteration_floor_are_lengthened_and_marked():
    # compressed a billion-fold, every model run time asks for no iteration at all
    tiny = synthetic_jobs(SyntheticSpec(n_jobs=20, compression=1e9, seed=5))
    assert all(job.iterations == MIN_ITERATIONS and job.lengthened for job in tiny)
    # uncompressed, a job above the floor runs what its model time asks and is not marked
    full = synthetic_jobs(SyntheticSpec(n_jobs=20, compression=1.0, seed=5))
    above = [job for job in full if job.iterations > MIN_ITERATIONS]
    assert above and not any(job.lengthened for job in above)


def test_job_length_metrics_split_at_one_gang_quantum():
    # gang quantum 0.1 s: jobs 1 and 3 are shorter; job 1 was lengthened to the floor
    jobs = pd.DataFrame({"type": ["J1", "J1", "J3", "J3"], "dedicated": [0.05, 0.2, 0.05, 0.4],
                         "slowdown": [10.0, 2.0, 30.0, 4.0], "lengthened": [True, False, False, False]})
    metrics = job_length_metrics(jobs)
    assert metrics["lengthened_job_fraction"] == 0.25 and metrics["short_job_fraction"] == 0.5
    assert metrics["short_job_slowdown"] == 20.0 and metrics["long_job_slowdown"] == 3.0
    # long jobs only: J1 2, J3 4 -> mean 3, population std 1
    assert metrics["long_job_fairness_cv"] == pytest.approx(1 / 3)
    none_long = job_length_metrics(jobs[jobs["dedicated"] < 0.1])
    assert none_long["long_job_slowdown"] is None and none_long["long_job_fairness_cv"] is None


def test_steady_state_skips_the_first_and_last_fifth_in_arrival_order():
    submits = np.array([5.0, 0.0, 1.0, 9.0, 2.0, 3.0, 4.0, 6.0, 7.0, 8.0])
    measured = measured_jobs(submits)
    assert sorted(submits[measured]) == [2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    assert measured_jobs(np.zeros(4)).all()


def test_processes_per_node_is_the_time_average_within_the_window():
    # two nodes; job 1 (2 processes) from 0 to 10, one rank finishing at 6; job 2 (1 process) from 4 to 8
    jobs = pd.DataFrame({"procs": [2, 1]})
    outcome = KernelOutcome(
        end=10.0, events=0, messages=0, mpl=5, job_start=np.array([0.0, 4.0]), job_end=np.array([10.0, 8.0]),
        process_finish=[np.array([10.0, 6.0]), np.array([8.0])], accounts=np.zeros((2, 6)),
        switches=np.zeros(2, dtype=np.int64), decisions=np.zeros(2, dtype=np.int64),
        conflicts=np.zeros(2, dtype=np.int64), false_decisions=np.zeros(2, dtype=np.int64), chance_false=np.zeros(2),
    )
    # within [2, 8]: rank 0 6 s, rank 1 4 s, job 2 4 s = 14 process-seconds over 2 nodes x 6 s
    assert processes_per_node(jobs, outcome, 2, (2.0, 8.0)) == pytest.approx(14 / 12)


def test_per_node_ratios_leave_out_nodes_without_a_denominator():
    assert per_node_ratio(np.array([1, 0, 3]), np.array([2, 0, 4])) == pytest.approx((0.5 + 0.75) / 2)
    assert per_node_ratio(np.array([0]), np.array([0])) == 0.0
