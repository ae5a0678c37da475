"""The multicluster substrate: movable events, atomic allocation, and the run's invariants."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.multicluster.events import EventQueue
from schedlab.simulators.multicluster.invariants import check_multicluster_run, check_multicluster_schedule
from schedlab.simulators.multicluster.requests import FixedRequest, FlexibleRequest, NonFixedRequest, place_fixed
from schedlab.simulators.multicluster.system import (
    ARRIVAL_RANK,
    END_RANK,
    ClusterState,
    MulticlusterJob,
    MulticlusterSimulation,
)
from schedlab.simulators.multicluster.topology import STAR_LINK_MBPS, das3, star_4x100


def test_events_pop_by_time_then_rank_then_push_order():
    queue = EventQueue()
    queue.push(5.0, ARRIVAL_RANK, "arrival", "a")
    queue.push(5.0, END_RANK, "end", "b")
    queue.push(5.0, END_RANK, "end", "c")
    queue.push(1.0, ARRIVAL_RANK, "arrival", "d")
    assert [queue.pop().payload for _ in range(4)] == ["d", "b", "c", "a"]
    assert queue.pop() is None


def test_cancelled_and_moved_events():
    queue = EventQueue()
    first = queue.push(10.0, END_RANK, "end", "x")
    doomed = queue.push(3.0, END_RANK, "end", "y")
    queue.cancel(doomed)
    moved = queue.move(first, 4.0)
    assert len(queue) == 1
    event = queue.pop()
    assert (event.time, event.payload, event is moved) == (4.0, "x", True)
    assert queue.pop() is None
    with pytest.raises(ValueError):
        queue.push(1.0, END_RANK, "end")  # before now (4.0)
    with pytest.raises(ValueError):
        queue.move(doomed, 9.0)


def test_allocation_is_atomic():
    state = ClusterState(np.array([10, 5]))
    with pytest.raises(InvariantError):
        state.allocate(0, ((0, 8), (1, 6)), 0.0)
    assert state.idle.tolist() == [10, 5] and state.log == []
    state.allocate(1, ((0, 8), (1, 5)), 1.0)
    assert state.idle.tolist() == [2, 0] and state.busy == 13
    state.release(1, ((0, 8), (1, 5)), 2.0)
    assert state.idle.tolist() == [10, 5]


def test_fixed_requests_go_where_they_ask_or_wait():
    request = FixedRequest(((1, 4), (0, 2)))
    assert place_fixed(request, np.array([2, 4])) == ((1, 4), (0, 2))
    assert place_fixed(request, np.array([2, 3])) is None
    assert (request.total, NonFixedRequest((3, 4)).total, FlexibleRequest(9).total) == (6, 7, 9)


def test_topologies():
    a, b, star = das3("A"), das3("B"), star_4x100()
    assert (a.total_nodes, b.total_nodes, star.total_nodes) == (204, 240, 400)
    assert "Delft" not in a.names and "Leiden" not in b.names
    latency = b.latency_ms
    inter = latency[~np.eye(4, dtype=bool)]
    assert latency.diagonal().max() < inter.min()
    delft = b.index("Delft")
    others = [c for c in range(4) if c != delft]
    myrinet_pairs = latency[np.ix_(others, others)][~np.eye(3, dtype=bool)]
    assert latency[delft, others].min() > myrinet_pairs.max()
    assert latency[b.index("UvA"), b.index("MultimediaN")] == myrinet_pairs.min()
    assert star.bandwidth_mb_s[0, 1] == STAR_LINK_MBPS / 8
    with pytest.raises(ValueError):
        das3("C")


class MovingScheduler:
    """Starts every job at once on cluster 0 for 10 s; when a job ends, running jobs end 5 s later."""

    def waiting(self):
        return 0

    def on_arrival(self, sim, job, t):
        sim.start(job, ((0, 1),), 10.0)

    def on_end(self, sim, job, t):
        for other, running in sim.running.items():
            sim.move_end(other, running.end_event.time + 5.0)


def test_end_events_move_and_the_result_records_the_moved_ends():
    jobs = [MulticlusterJob(i + 1, float(i), FlexibleRequest(1)) for i in range(3)]
    result = MulticlusterSimulation(star_4x100(), jobs, MovingScheduler()).run()
    # Job 1 ends at 10; jobs 2 and 3 (planned 11 and 12) move to 16 and 17; job 2's end moves job 3 to 22.
    assert result.jobs["end"].tolist() == [10.0, 16.0, 22.0]
    assert result.components["cluster"].tolist() == ["C1"] * 3


def good_run():
    """Job 1: 6 + 2 nodes on clusters 0 and 1 over [0, 5]; job 2: 8 nodes on cluster 0 over [5, 9]."""
    table = pd.DataFrame(
        {"job_id": [1, 2], "submit": [0.0, 0.0], "placed": [0.0, 5.0], "start": [0.0, 5.0], "end": [5.0, 9.0]}
    )
    log = [(0.0, 0, 0, 6), (0.0, 0, 1, 2), (5.0, 0, 0, -6), (5.0, 0, 1, -2), (5.0, 1, 0, 8), (9.0, 1, 0, -8)]
    return table, log


def check(table, log, totals=(8, 8), capacities=(8, 4)):
    check_multicluster_run(capacities=np.array(capacities), totals=np.array(totals), jobs=table, log=log)


def test_invariants_accept_a_valid_run():
    check(*good_run())


def test_invariants_catch_components_that_do_not_start_together():
    table, log = good_run()
    log[1] = (1.0, 0, 1, 2)
    with pytest.raises(InvariantError, match="not allocated at one instant"):
        check(table, log)


def test_invariants_catch_an_over_committed_cluster():
    table, log = good_run()
    log[4] = (4.0, 1, 0, 8)  # job 2 takes cluster 0's 8 nodes before job 1 gives back 6
    table.loc[1, ["placed", "start"]] = 4.0
    with pytest.raises(InvariantError, match="nodes in use"):
        check(table, log)


def test_invariants_name_the_over_committed_cluster_and_its_peak():
    table, log = good_run()
    log[1], log[3] = (0.0, 0, 1, 5), (5.0, 0, 1, -5)  # job 1 takes 5 of cluster 1's 4 nodes
    with pytest.raises(InvariantError, match=r"cluster 1: 5 nodes in use at t=0.0 on 4 nodes"):
        check(table, log, totals=(11, 8))


def test_invariants_catch_a_release_at_a_time_other_than_the_end():
    table, log = good_run()
    log[5] = (8.0, 1, 0, -8)
    with pytest.raises(InvariantError, match="released at a time other than the job's record: job\\(s\\) 2"):
        check(table, log)


def test_invariants_catch_a_job_short_of_nodes():
    table, log = good_run()
    with pytest.raises(InvariantError, match="differ from the request"):
        check(table, log, totals=(8, 9))


def test_invariants_catch_a_job_that_never_ran():
    table, log = good_run()
    table.loc[1, "end"] = np.nan
    with pytest.raises(InvariantError, match="never"):
        check(table, log)


def test_invariants_catch_nodes_given_back_to_another_cluster():
    table, log = good_run()
    log[2], log[3] = (5.0, 0, 0, -2), (5.0, 0, 1, -6)  # job 1 took 6 + 2, gives back 2 + 6
    with pytest.raises(InvariantError, match="released nodes differ from allocated nodes: job\\(s\\) 1"):
        check(table, log)


def held(table):
    """``good_run``'s allocation: the nodes each job holds per cluster from placement to end."""
    return table, np.array([[6, 2], [8, 0]], dtype=np.int16)


def check_schedule(table, allocation, totals=(8, 8), capacities=(8, 4)):
    check_multicluster_schedule(capacities=np.array(capacities), totals=np.array(totals), jobs=table,
                                allocation=allocation)


def test_a_schedule_of_held_nodes_passes_with_a_release_and_a_take_at_one_instant():
    # job 2 takes cluster 0's 8 nodes at t=5, when job 1 gives back 6 of them: releases count first
    check_schedule(*held(good_run()[0]))


def test_a_schedule_of_held_nodes_catches_an_over_committed_cluster():
    table, allocation = held(good_run()[0])
    table.loc[1, ["placed", "start"]] = 4.999
    with pytest.raises(InvariantError, match=r"cluster 0: 14 nodes in use at t=4.999 on 8 nodes"):
        check_schedule(table, allocation)


def test_a_schedule_of_held_nodes_catches_a_job_short_of_nodes_and_a_bad_time():
    table, allocation = held(good_run()[0])
    with pytest.raises(InvariantError, match="differ from the request: job\\(s\\) 2"):
        check_schedule(table, allocation, totals=(8, 9))
    table.loc[0, "end"] = -1.0
    with pytest.raises(InvariantError, match="ended before start: job\\(s\\) 1"):
        check_schedule(table, allocation)
