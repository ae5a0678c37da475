"""Node-bound reservations (schedlab.simulators.cosy.node_bound): the diagnostic's own rules and invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.simulators.batch.conventions import default_inputs
from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.cosy.node_bound import check_nodes_never_shared, simulate_node_bound
from schedlab.simulators.cosy.notice import FixedNotice, NoNotice
from schedlab.simulators.cosy.scheduler import ReservationRequest
from schedlab.simulators.cosy.run import simulate_cosy
from tests.conftest import make_jobs
from schedlab.workloads.lublin import lublin_feitelson_jobs


def batch(rows, capacity):
    return default_inputs(make_jobs(rows), capacity, "requested")


def test_without_reservations_it_is_the_counting_engine_job_for_job():
    # Exact estimates: node-bound runs need jobs that run exactly their requested time, as the COSY workloads do.
    jobs = default_inputs(lublin_feitelson_jobs(300, 32, seed=3, target_utilization=1.2, exact_estimates=True), 32, "requested")
    node_level = simulate_node_bound(jobs, 32).schedule["start"].to_numpy()
    counting = simulate_cosy(jobs, 32).schedule["start"].to_numpy()
    assert np.array_equal(node_level, counting)


def test_a_reservation_keeps_the_nodes_it_was_booked_on():
    # 4 nodes. Jobs 0 and 1 take 2 nodes each; reservation 2 books 2 nodes over [50, 150) at time 0,
    # which are nodes 0-1, where job 0 runs until 10.  Job 3 (2 nodes, 200 s) arrives at 5.  Counting
    # processors, it starts at 10: from 40 on job 1's nodes are free for the reservation.  Bound to
    # nodes, the free nodes at 10 belong to the reservation, so job 3 waits for job 1's nodes at 40.
    rows = [(0, 2, 10, 10), (0, 2, 40, 40), (0, 2, 100, 100), (5, 2, 200, 200)]
    reservations = {2: ReservationRequest("start", 50)}
    counting = simulate_cosy(batch(rows, 4), 4, reservations=reservations, notice=NoNotice()).schedule
    node_bound = simulate_node_bound(batch(rows, 4), 4, reservations=reservations, notice=NoNotice()).schedule
    assert counting["start"].tolist() == [0, 0, 50, 10]
    assert node_bound["start"].tolist() == [0, 0, 50, 40]
    assert node_bound["nodes"].tolist() == ["0 1", "2 3", "0 1", "2 3"]


def test_the_notice_rule_and_conflicts_refuse_requests():
    # W = 0 until a queue job has started, so the first request with n = 2 asks for "now" and fits;
    # the second asks for the same nodes at the same time and is refused.
    rows = [(0, 4, 100, 100), (0, 4, 100, 100)]
    schedule = simulate_node_bound(
        batch(rows, 4), 4, reservations={0: ReservationRequest(), 1: ReservationRequest()}, notice=FixedNotice(2.0)
    ).schedule
    assert schedule["outcome"].tolist() == ["ran", "rejected"]
    assert schedule["start"][0] == 0


def test_jobs_ending_before_their_request_are_refused():
    with pytest.raises(ValueError, match="exactly their requested time"):
        simulate_node_bound(batch([(0, 1, 100, 50)], 4), 4)


def test_a_node_running_two_jobs_at_once_is_caught():
    with pytest.raises(InvariantError, match="node 1 runs jobs 1 and 2"):
        check_nodes_never_shared(np.array([0.0, 5.0]), np.array([10.0, 15.0]), [(0, 1), (1,)], np.array([1, 2]))
    check_nodes_never_shared(np.array([0.0, 10.0]), np.array([10.0, 15.0]), [(0, 1), (1,)], np.array([1, 2]))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 500), st.integers(1, 8), st.integers(1, 200), st.booleans(), st.integers(0, 400)),
        min_size=1, max_size=25,
    )
)
def test_reservations_start_on_time_on_their_own_nodes(jobs):
    jobs = sorted(jobs)
    rows = [(submit, procs, length, length) for submit, procs, length, _, _ in jobs]
    reservations = {i: ReservationRequest("start", job[0] + job[4]) for i, job in enumerate(jobs) if job[3]}
    schedule = simulate_node_bound(batch(rows, 8), 8, reservations=reservations, notice=NoNotice()).schedule
    ran = schedule[schedule["outcome"] == "ran"]
    held = ran[ran["kind"] == "reservation"]
    assert np.array_equal(held["start"].to_numpy(), np.array([jobs[i][0] + jobs[i][4] for i in held.index], float))
    # Independently of the simulator's own check: every job has its size in nodes, none shared at once.
    spans = {}
    for _, job in ran.iterrows():
        nodes = [int(i) for i in job["nodes"].split()]
        assert len(set(nodes)) == job["procs"]
        for i in nodes:
            spans.setdefault(i, []).append((job["start"], job["end"]))
    for node_spans in spans.values():
        node_spans.sort()
        assert all(b[0] >= a[1] for a, b in zip(node_spans, node_spans[1:]))
