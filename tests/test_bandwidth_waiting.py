"""The scan's shortcuts: the waiting queue's min-tree and ICS's pre-test skip only jobs that cannot start."""

from __future__ import annotations

import numpy as np

from schedlab.simulators.bandwidth.demand import cut_edges, piece_demand, rectangular_sizes
from schedlab.simulators.bandwidth.placement import cluster_subsets, ics, ics_may_place, least_piece_demand, new_scratch
from schedlab.simulators.bandwidth.waiting import NOT_WAITING, new_tree, next_candidate, set_size, smallest_waiting


def test_next_candidate_agrees_with_a_walk_of_the_queue():
    rng = np.random.default_rng(7)
    n_jobs, n_clusters = 300, 4
    tree, leaves = new_tree(n_jobs, n_clusters)
    home = rng.integers(0, n_clusters, n_jobs)
    size = np.full(n_jobs, NOT_WAITING)
    for step in range(3000):
        job = int(rng.integers(n_jobs))
        size[job] = int(rng.integers(1, 120)) if size[job] == NOT_WAITING else NOT_WAITING
        set_size(tree, leaves, job, home[job], size[job])
        bound = rng.integers(0, 130, n_clusters)
        first = int(rng.integers(0, n_jobs + 2))
        walked = [j for j in range(first, n_jobs) if size[j] <= bound[home[j]]]
        assert next_candidate(tree, leaves, first, bound) == (walked[0] if walked else -1), step
        for cluster in range(n_clusters):
            waiting = size[home == cluster]
            assert smallest_waiting(tree, cluster) == waiting.min(), step


def test_an_empty_queue_has_no_candidate():
    tree, leaves = new_tree(5, 2)
    assert next_candidate(tree, leaves, 0, np.array([400, 400])) == -1
    set_size(tree, leaves, 4, 1, 30)
    assert next_candidate(tree, leaves, 0, np.array([400, 29])) == -1
    assert next_candidate(tree, leaves, 0, np.array([0, 30])) == 4


def test_ics_pre_test_on_the_hand_worked_split():
    # The 4x4 job of test_bandwidth_model's backtracking case: rho = 1, a piece of s nodes asks
    # PPBW * s (16 - s) / 15.  At PPBW 300 every link takes at most 4 nodes (4 * 12 * 20 = 960),
    # and three clusters of 10, 9, 8 idle nodes cannot hold 16 that way: no search needed.
    idle = np.array([10, 9, 8, 0])
    assert not ics_may_place(16, 4, 300.0, 1.0, idle, np.zeros(4), 1000.0)
    # At PPBW 150 the search finds 9 + 7 on clusters 1 and 2, so the pre-test must let it run.
    assert ics_may_place(16, 4, 150.0, 1.0, idle, np.array([500.0, 0, 0, 0]), 1000.0)


def test_ics_pre_test_never_rejects_a_job_ics_places():
    rng = np.random.default_rng(11)
    subsets, sizes = cluster_subsets(4)
    order, pieces = np.zeros(4, np.int64), np.zeros(4, np.int64)
    placed = skipped = 0
    for _ in range(20000):
        nodes, columns = (int(v[0]) for v in rectangular_sizes(rng.integers(2, 101, 1)))
        idle = rng.integers(0, min(nodes, 101), 4)  # no cluster holds the job whole, as when ICS is tried
        if idle.sum() < nodes:
            continue
        ppbw, rho = float(rng.choice([10.0, 50.0, 200.0, 1000.0])), float(rng.random())
        load = rng.uniform(0, 1000.0, 4) * rng.integers(0, 2, 4)
        may = ics_may_place(nodes, columns, ppbw, rho, idle, load, 1000.0)
        placed_here = ics(nodes, columns, ppbw, rho, idle, load, 1000.0, subsets, sizes, new_scratch(4), order, pieces) > 0
        assert may or not placed_here, (nodes, ppbw, rho, idle, load)
        placed += placed_here
        skipped += not may
    assert placed > 500 and skipped > 500  # both sides of the test were exercised


def test_the_least_piece_demand_bounds_every_piece_of_every_grid():
    rng = np.random.default_rng(5)
    for requested in range(2, 401):
        nodes, columns = (int(v[0]) for v in rectangular_sizes(np.array([requested])))
        for first, size in {(int(f), int(s)) for f, s in zip(rng.integers(0, nodes, 40), rng.integers(1, nodes, 40))
                            if f + s <= nodes} | {(0, 1), (0, nodes - 1), (1, nodes - 1)}:
            assert cut_edges(nodes, columns, first, first + size) >= min(size, nodes - size, columns), (nodes, first)
            rho = float(rng.random())
            least = least_piece_demand(nodes, columns, 1000.0, rho, min(size, nodes - size))
            assert least <= piece_demand(nodes, columns, 1000.0, rho, first, size) + 1e-9
