"""The ICS kernel: TS boosts and preemption, spin-then-block timing, conservation laws."""

from __future__ import annotations

import math

import pytest

from schedlab.simulators.ics.kernel import Kernel, highest_priority
from schedlab.simulators.ics.schemes import SCHEMES, make_scheme
from schedlab.simulators.ics.state import CAT_COMPUTE, CAT_SPIN, READY, RECEIVE, RUNNING, SPIN, Job
from schedlab.simulators.ics.tstable import QUANTUM, SLPRET, START_LEVEL, TOP_LEVEL, TQEXP
from schedlab.simulators.ics.workload import SyntheticSpec, synthetic_jobs

SWITCH = 100e-6


def single_process_job(index: int, compute: float) -> Job:
    return Job(index, index + 1, "J1-NN", 0.0, [[compute]], [[0.0]], [16384.0], [False], compute)


def test_ts_table_shape():
    assert QUANTUM[0] == 0.2 and QUANTUM[58] == 0.04 and QUANTUM[TOP_LEVEL] == 0.02
    assert TQEXP[TOP_LEVEL] == 49 and TQEXP[5] == 0
    assert all(SLPRET[level] >= 50 for level in range(60))


def two_processes_on_one_node():
    """A DCS node running one long process, a second one queued behind it at the same level."""
    jobs = [single_process_job(0, 1.0), single_process_job(1, 1.0)]
    kernel = Kernel(jobs, 1, 5, make_scheme("DCS"))
    kernel.start_job(jobs[0], [0], 0.0)
    kernel.start_job(jobs[1], [0], 0.0)
    return kernel, kernel.nodes[0], jobs[0].processes[0], jobs[1].processes[0]


def test_boost_preempts_a_lower_priority_runner():
    kernel, node, first, second = two_processes_on_one_node()
    assert node.running is first and second.state == READY and second.level == START_LEVEL
    kernel.boost(node, second, 0.001)
    assert node.running is second and second.state == RUNNING and second.level == TOP_LEVEL
    assert first.state == READY and first in node.ready
    assert node.resume_at == pytest.approx(0.001 + SWITCH)
    assert node.switches == 2
    # the first process ran from the end of the first switch until the boost
    assert first.cpu_time == pytest.approx(0.001 - SWITCH)


def test_boost_to_an_equal_level_does_not_preempt_a_computing_runner():
    kernel, node, first, second = two_processes_on_one_node()
    first.level = TOP_LEVEL  # as after an earlier boost
    kernel.boost(node, second, 0.001)
    assert node.running is first and second.level == TOP_LEVEL and second.state == READY


def spinning_runner(boost_preempts_spinner: bool):
    """The two-process node, its runner at the top level busy-waiting for a message (as after an earlier
    boost, its compute done)."""
    jobs = [single_process_job(0, 1.0), single_process_job(1, 1.0)]
    kernel = Kernel(jobs, 1, 5, make_scheme("DCS", boost_preempts_spinner=boost_preempts_spinner))
    kernel.start_job(jobs[0], [0], 0.0)
    kernel.start_job(jobs[1], [0], 0.0)
    node, first, second = kernel.nodes[0], jobs[0].processes[0], jobs[1].processes[0]
    kernel.settle(node, 0.001)
    first.level = TOP_LEVEL
    first.quantum_left = QUANTUM[TOP_LEVEL]
    first.activity = SPIN
    first.spin_left = math.inf
    kernel.plan_segment(node)
    return kernel, node, first, second


def test_boost_to_an_equal_level_preempts_a_spinning_runner():
    kernel, node, first, second = spinning_runner(boost_preempts_spinner=True)
    kernel.boost(node, second, 0.002)
    assert node.running is second and second.state == RUNNING
    # the spinner yields its turn: behind the boosted process, it checks its messages when it runs again
    assert first.state == READY and first.activity == RECEIVE and first.queued_at > second.queued_at > 0
    assert node.accounts[CAT_SPIN] == pytest.approx(0.001)
    assert node.resume_at == pytest.approx(0.002 + SWITCH)


def test_under_the_plain_ts_rule_a_spinning_runner_keeps_the_cpu():
    kernel, node, first, second = spinning_runner(boost_preempts_spinner=False)
    kernel.boost(node, second, 0.002)
    assert node.running is first and first.activity == SPIN
    assert second.state == READY and second.level == TOP_LEVEL
    # it spins on to the end of its 20 ms top-level quantum
    assert node.segment_end_at == pytest.approx(0.001 + QUANTUM[TOP_LEVEL])


@pytest.mark.parametrize("first", [False, True])
def test_a_boost_joins_the_back_of_the_top_level_or_with_first_its_front(first):
    """PB's boost queues behind the processes already at the top; PROC-S's (``first``) runs next."""
    jobs = [single_process_job(index, 1.0) for index in range(3)]
    kernel = Kernel(jobs, 1, 5, make_scheme("PROC-S"))
    for job in jobs:
        kernel.start_job(job, [0], 0.0)
    node = kernel.nodes[0]
    runner, earlier, boosted = (job.processes[0] for job in jobs)
    runner.level = TOP_LEVEL  # computing at the top: neither boost preempts it
    kernel.boost(node, earlier, 0.001)
    kernel.boost(node, boosted, 0.002, first=first)
    assert node.running is runner
    assert highest_priority(node.ready) is (boosted if first else earlier)


@pytest.mark.parametrize("scheme, boosted", [("DCS", True), ("SB", False), ("PROC-B", False)])
def test_a_message_for_a_ready_process_is_boosted_by_dcs_only(scheme, boosted):
    """DCS interrupts and boosts any destination that does not run; SB and PROC-B wake a blocked receiver
    only (Sect. 2: the interrupt wakes "the awakened process"): a ready one finds its message when it next runs."""
    jobs = [single_process_job(0, 1.0), single_process_job(1, 1.0)]
    kernel = Kernel(jobs, 1, 5, make_scheme(scheme))
    kernel.start_job(jobs[0], [0], 0.0)
    kernel.start_job(jobs[1], [0], 0.0)
    node, first, second = kernel.nodes[0], jobs[0].processes[0], jobs[1].processes[0]
    assert node.running is first and second.state == READY
    kernel.deliver(second, (0, 0, 0.0, 0.0), 0.001)
    if boosted:
        assert node.running is second and second.level == TOP_LEVEL
        assert node.resume_at == pytest.approx(0.001 + 50e-6 + SWITCH)  # the interrupt, then the switch
    else:
        assert node.running is first and second.state == READY and second.level == START_LEVEL


def test_spin_block_spins_one_latency_then_blocks():
    """SB: rank 0 waits 9 ms for rank 1; it spins 229.9 us, blocks, and is woken by an interrupt."""
    job = Job(0, 1, "J2-NN", 0.0, [[1e-3], [10e-3]], [[0.0], [0.0]], [16384.0], [False], 10e-3)
    kernel = Kernel([job], 2, 5, make_scheme("SB"))
    kernel.run()
    spin = kernel.nodes[0].accounts[CAT_SPIN]
    assert spin == pytest.approx(229.9e-6, abs=1e-12)
    assert kernel.nodes[1].accounts[CAT_SPIN] == 0.0
    # rank 1: switch 100 us + compute 10 ms, send 229.9 us, then interrupt 50 us + switch 100 us on node 0
    assert job.end == pytest.approx(100e-6 + 10e-3 + 229.9e-6 + 50e-6 + 100e-6, abs=1e-12)


def expected_messages(jobs) -> int:
    total = 0
    for job in jobs:
        for iteration in range(job.iterations):
            aa = bool(job.all_to_all[iteration])
            total += sum(len(set(range(job.size)) - {r}) if aa else len({(r - 1) % job.size, (r + 1) % job.size} - {r})
                         for r in range(job.size))
    return total


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_messages_and_cpu_time_are_conserved(scheme):
    spec = SyntheticSpec(workload="wl5", n_jobs=8, compression=40000.0, seed=7)
    jobs = synthetic_jobs(spec)
    demand = sum(float(job.compute.sum()) for job in jobs)
    messages = expected_messages(jobs)
    kernel = Kernel(jobs, 32, 3, make_scheme(scheme))
    end = kernel.run()
    assert kernel.messages_sent == messages
    assert kernel.messages_arrived == messages
    assert kernel.messages_consumed == messages
    computed = sum(node.accounts[CAT_COMPUTE] for node in kernel.nodes)
    assert computed == pytest.approx(demand, rel=1e-9)
    for node in kernel.nodes:
        assert sum(node.accounts) == pytest.approx(max(end, node.resume_at), rel=1e-12)
    assert all(job.end > job.start >= job.submit for job in jobs)


def test_same_seed_same_result():
    def run():
        jobs = synthetic_jobs(SyntheticSpec(n_jobs=6, compression=40000.0, seed=3))
        kernel = Kernel(jobs, 32, 5, make_scheme("PROC-B"))
        kernel.run()
        return [(job.start, job.end) for job in jobs], kernel.events

    assert run() == run()


def test_skew_changes_per_iteration_compute_within_bounds():
    jobs = synthetic_jobs(SyntheticSpec(workload="wl1", n_jobs=4, skew=0.6, compression=20000.0, seed=2))
    for job in jobs:
        base = job.dedicated_time / job.iterations * 0.85  # J1: 85 % of a dedicated iteration computes
        assert job.compute.min() >= 0.4 * base * (1 - 1e-9) and job.compute.max() <= 1.6 * base * (1 + 1e-9)
        assert job.compute.max() > 1.3 * base and job.compute.min() < 0.7 * base


def test_npb_mix_with_pattern_changes_conserves_messages():
    """MG alternates ring and all-to-all phases: distant ranks may run several iterations ahead."""
    from schedlab.simulators.ics.workload import NpbSpec, npb_jobs

    jobs = npb_jobs(NpbSpec(apps=("MG", "FT"), n_jobs=3, iteration_share=1 / 256, seed=4))
    messages = expected_messages(jobs)
    kernel = Kernel(jobs, 64, 5, make_scheme("PROC-B"))
    kernel.run()
    assert kernel.messages_consumed == messages


def test_starvation_update_raises_a_process_that_waited_a_second():
    """Solaris ts_update: a process queued at level 29 behind a top-level spinner is raised to lwait 52 at
    t = 1 s and, outranking nothing at 59, waits on; at level 49 it would be raised to 59 and share the top."""
    spinner = Job(0, 1, "J2-NN", 0.0, [[1e-3], [5.0]], [[0.0], [0.0]], [16384.0], [False], 5.0)
    waiter = single_process_job(1, 1.0)
    kernel = Kernel([spinner, waiter], 2, 5, make_scheme("LOCAL"))
    kernel.start_job(spinner, [0, 1], 0.0)
    kernel.start_job(waiter, [0], 0.0)
    node = kernel.nodes[0]
    queued = waiter.processes[0]
    node.running.level = TOP_LEVEL
    assert queued.level == START_LEVEL and queued.state == READY
    kernel.starvation_update(1.0)
    assert queued.level == 52 and queued.quantum_left == QUANTUM[52] and queued.dispwait == 0
    queued.level = 49
    kernel.starvation_update(2.0)
    assert queued.level == TOP_LEVEL and queued.state == READY  # equal to the runner: no preemption
    node.running.level = 40
    queued.level = 49
    kernel.starvation_update(3.0)
    assert node.running is queued  # raised above the runner: it preempts
