"""Network model of the bandwidth stage: shapes, demands, progressive filling, moving ends, ICS."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from schedlab.simulators.bandwidth.demand import cut_edges, grid_shape, link_demands, rectangular_sizes
from schedlab.simulators.bandwidth.placement import STRATEGIES, cluster_subsets, ics, new_scratch, places_whole_jobs_first
from schedlab.simulators.bandwidth.sharing import reference_fractions
from schedlab.simulators.bandwidth.simulate import check_run, run_workload
from schedlab.simulators.bandwidth.workload import Workload, make_workload
from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.multicluster.topology import Cluster, Topology


@pytest.mark.parametrize(("requested", "nodes"), [(1, 1), (3, 2), (4, 4), (5, 6), (7, 6), (10, 12), (50, 56), (100, 100)])
def test_rectangular_sizes_follow_the_paper(requested, nodes):
    rows, columns = grid_shape(requested)
    assert rows * columns == nodes
    vector_nodes, vector_columns = rectangular_sizes(np.array([requested]))
    assert (vector_nodes[0], vector_columns[0]) == (nodes, columns)


def test_vectorised_rectangularisation_agrees_with_integer_square_roots():
    requested = np.arange(1, 20001)
    nodes, columns = rectangular_sizes(requested)
    expected = [grid_shape(int(r)) for r in requested]
    assert nodes.tolist() == [r * c for r, c in expected]
    assert columns.tolist() == [c for _, c in expected]


def demands(nodes, columns, ppbw, rho, order, pieces, n_clusters=4):
    out = np.zeros(n_clusters)
    link_demands(nodes, columns, ppbw, rho, np.array(order), np.array(pieces), out)
    return out


def test_demand_of_a_2x3_job_split_in_two_rows():
    # ranks 0-2 (row 0) on cluster 0, 3-5 (row 1) on cluster 1: 3 vertical edges cut.
    # all-to-all 0.5*100*3*3/5 = 90, mesh 3*0.5*100/4 = 37.5
    assert demands(6, 3, 100.0, 0.5, [0, 1], [3, 3]).tolist() == [127.5, 127.5, 0.0, 0.0]


def test_demand_of_a_2x3_job_split_four_and_two():
    # ranks 0-3 / 4-5: edges 3-4, 1-4, 2-5 cut; all-to-all 0.5*100*4*2/5 = 80
    assert demands(6, 3, 100.0, 0.5, [2, 3], [4, 2]).tolist() == [0.0, 0.0, 117.5, 117.5]


def test_demand_of_a_3x4_job_in_three_pieces():
    # ranks 0-4 / 5-8 / 9-11 on clusters 2, 0, 1; cut edges 5 / 9 / 4 (counted by hand)
    assert [cut_edges(12, 4, 0, 5), cut_edges(12, 4, 5, 9), cut_edges(12, 4, 9, 12)] == [5, 9, 4]
    mesh_only = demands(12, 4, 40.0, 0.0, [2, 0, 1], [5, 4, 3])
    assert mesh_only.tolist() == [90.0, 40.0, 50.0, 0.0]
    all_to_all = demands(12, 4, 110.0, 1.0, [2, 0, 1], [5, 4, 3])
    np.testing.assert_allclose(all_to_all, [320.0, 270.0, 350.0, 0.0])


def _cut_edges_by_walking(nodes, columns, first, last):
    """Count the cut edges rank by rank: the reference for the closed form."""
    count = 0
    for rank in range(first, last):
        if rank % columns > 0 and rank - 1 < first:
            count += 1
        if rank % columns < columns - 1 and rank + 1 >= last:
            count += 1
        if rank >= columns and rank - columns < first:
            count += 1
        if rank + columns < nodes and rank + columns >= last:
            count += 1
    return count


@pytest.mark.parametrize("requested", [1, 2, 3, 4, 7, 10, 17, 30, 50, 64, 99, 100])
def test_closed_form_cut_edges_match_a_walk_over_every_rank_range(requested):
    rows, columns = grid_shape(requested)
    nodes = rows * columns
    for first in range(nodes + 1):
        for last in range(first, nodes + 1):
            assert cut_edges(nodes, columns, first, last) == _cut_edges_by_walking(nodes, columns, first, last)


def test_progressive_filling_three_jobs_one_bottleneck():
    # link 1 carries 800 + 800: X and Y get 1000/1600; Z is then free to reach its demand
    demand = [[800, 800, 0], [0, 800, 400], [200, 0, 200]]
    np.testing.assert_allclose(reference_fractions(demand, [1000, 1000, 1000]), [0.625, 0.625, 1.0])


def test_progressive_filling_three_jobs_two_bottlenecks():
    # link 0 fills first at 5/9 (X, Z); Y then fills link 1: (1000 - 800*5/9) / 800 = 25/36
    demand = [[800, 800, 0], [0, 800, 400], [1000, 0, 0]]
    np.testing.assert_allclose(reference_fractions(demand, [1000, 1000, 1000]), [5 / 9, 25 / 36, 5 / 9])


def tiny_topology(clusters=3, nodes=10):
    zeros = np.zeros((clusters, clusters))
    return Topology("tiny", tuple(Cluster(f"c{i}", nodes) for i in range(clusters)), zeros, zeros.copy())


def hand_workload(submit, home, requested, base_time, ppbw, rho):
    requested = np.array(requested)
    nodes, columns = rectangular_sizes(requested)
    n = len(requested)
    ppbw = np.array(ppbw, float)
    return Workload(np.array(submit, float), np.array(home), requested, nodes, columns, np.array(base_time, float),
                    ppbw, np.array(rho, float), np.ones(n, bool), ppbw, np.zeros(n))


def test_end_moves_when_a_new_coallocated_job_saturates_a_shared_link():
    # A (16 nodes) at t=0 -> 10 on c0 + 6 on c1: 200*10*6/15 = 800 Mb/s on links 0 and 1, f = 1, end 1000.
    # B (12 nodes) at t=100 -> 10 on c2 + 2 on c1: 220*10*2/11 = 400 on links 2 and 1.
    # Link 1 carries 1200: both get 5/6.  A: 0.9 of its work left at 100, 0.9*(700 + 300*6/5) = 954 -> 1054.
    # B at 1054 has done 954/1060 = 0.9; alone again, it needs 0.1*1000 more -> 1154.
    workload = hand_workload([0, 100], [0, 2], [16, 12], [1000, 1000], [200, 220], [1.0, 1.0])
    run = run_workload(workload, "first_fit", tiny_topology())
    schedule = run.schedule
    assert schedule["kind"].tolist() == ["coallocated", "coallocated"]
    assert run.allocation.tolist() == [[10, 6, 0], [0, 2, 10]]
    np.testing.assert_allclose(schedule["end"], [1054.0, 1154.0])


def test_every_run_checks_its_schedule_and_fails_loudly_on_a_broken_one():
    workload = hand_workload([0, 100], [0, 2], [16, 12], [1000, 1000], [200, 220], [1.0, 1.0])
    run = run_workload(workload, "first_fit", tiny_topology())
    capacities = tiny_topology().capacities

    def broken(**columns):
        return run.schedule.assign(**columns)

    check_run(run.schedule, run.allocation, capacities, stretched=True)
    with pytest.raises(InvariantError, match="ran faster than T_E0"):
        check_run(broken(end=[900.0, 1154.0]), run.allocation, capacities, stretched=True)
    with pytest.raises(InvariantError, match="did not run exactly T_E0"):
        check_run(run.schedule, run.allocation, capacities, stretched=False)
    with pytest.raises(InvariantError, match="kind disagrees"):
        check_run(broken(n_clusters=[1, 2]), run.allocation, capacities, stretched=True)
    with pytest.raises(InvariantError, match=r"cluster 1: 12 nodes in use at t=100.0 on 10"):  # A fills c1
        check_run(run.schedule, np.array([[6, 10, 0], [0, 2, 10]]), capacities, stretched=True)


def test_zero_communication_never_stretches():
    workload = hand_workload([0, 100], [0, 2], [16, 12], [1000, 1000], [200, 220], [1.0, 1.0])
    np.testing.assert_allclose(run_workload(workload, "zero_comm", tiny_topology()).schedule["end"], [1000, 1100])


def test_ics_backtracks_to_a_split_that_fits_the_links():
    # 16 nodes (4x4 grid), rho = 1: piece n_c loads its link with PPBW * n_c * (16 - n_c) / 15.
    idle = np.array([10, 9, 8, 0])
    subsets, sizes = cluster_subsets(4)
    order, pieces = np.zeros(4, np.int64), np.zeros(4, np.int64)
    # PPBW 150 -> 10 n_c (16 - n_c); link 0 carries 500, so a piece on cluster 0 needs n_0 (16 - n_0) <= 50:
    # n_0 <= 4, leaving 12+ for one other cluster (at most 9 idle): no pair with cluster 0.
    # Pair (1, 2): 9 on cluster 1 -> 630, 7 on cluster 2 -> 630, both <= 1000.
    k = ics(16, 4, 150.0, 1.0, idle, np.array([500.0, 0, 0, 0]), 1000.0, subsets, sizes, new_scratch(4), order, pieces)
    assert (k, order[:k].tolist(), pieces[:k].tolist()) == (2, [1, 2], [9, 7])
    # PPBW 300 -> 20 n_c (16 - n_c) <= 1000 needs n_c <= 4 on every link: 16 nodes over the three
    # usable clusters cannot be split that way, so the job waits.
    k = ics(16, 4, 300.0, 1.0, idle, np.zeros(4), 1000.0, subsets, sizes, new_scratch(4), order, pieces)
    assert k == 0


def recomputed_link_loads(run, workload):
    """Link loads at every co-allocated start, from the schedule alone (independent of the kernel)."""
    schedule = run.schedule
    coallocated = np.flatnonzero(schedule["kind"].to_numpy() == "coallocated")
    start, end = schedule["start"].to_numpy(), schedule["end"].to_numpy()
    per_job = {}
    for job in coallocated:
        grid_columns, nodes = int(workload.columns[job]), int(workload.nodes[job])
        first, load = 0, np.zeros(4)
        for cluster in run.layout[job][run.layout[job] >= 0]:
            size = int(run.allocation[job, cluster])
            ranks = set(range(first, first + size))
            cut = 0
            for r in ranks:
                neighbours = [r - grid_columns, r + grid_columns]
                neighbours += [r - 1] if r % grid_columns else []
                neighbours += [r + 1] if r % grid_columns < grid_columns - 1 else []
                cut += sum(1 for q in neighbours if 0 <= q < nodes and q not in ranks)
            rho, ppbw = workload.rho[job], workload.ppbw[job]
            load[cluster] = rho * ppbw * size * (nodes - size) / (nodes - 1) + cut * (1 - rho) * ppbw / 4
            first += size
        per_job[job] = load
    worst = np.zeros(4)
    for job in coallocated:
        running = [other for other in coallocated if start[other] <= start[job] < end[other]]
        worst = np.maximum(worst, sum(per_job[other] for other in running))
    return worst, len(coallocated)


def test_ics_never_saturates_a_link():
    workload = make_workload("synthetic", 300, seed=3, ppbw=150.0)
    run = run_workload(workload, "ics")
    worst, coallocated = recomputed_link_loads(run, workload)
    assert coallocated > 20
    assert (worst <= 1000.0 + 1e-6).all()
    schedule = run.schedule
    np.testing.assert_allclose(schedule["end"] - schedule["start"], schedule["base_time"])


def test_first_fit_does_saturate_links_at_the_same_point():
    # the check above can fail: First-Fit on the same workload over-subscribes links
    workload = make_workload("synthetic", 300, seed=3, ppbw=150.0)
    worst, _ = recomputed_link_loads(run_workload(workload, "first_fit"), workload)
    assert (worst > 1000.0).any()


def test_runs_are_deterministic():
    first = run_workload(make_workload("synthetic", 200, seed=5), "lslt_cs").schedule
    second = run_workload(make_workload("synthetic", 200, seed=5), "lslt_cs").schedule
    assert first.equals(second)


def test_the_paper_pass_order_places_whole_jobs_before_coallocating():
    # Three 10-node clusters; at t=0 P (home c0, 16 nodes, 4x4) is queued ahead of Q (home c1) and R
    # (home c2), 9 nodes (3x3) each, all with PPBW 0.
    # Per job: P co-allocated first (10 on c0, 6 on c1); Q then finds 4 idle at home and migrates to c2;
    # R finds 1 at home, 4 on c1: waits until Q ends at 100, runs 100-200.
    # Whole jobs first: Q and R start at home at 0; P (needs 16, 12 idle) waits until they end at 100.
    workload = hand_workload([0, 0, 0], [0, 1, 2], [16, 9, 9], [1000, 100, 100], [0, 0, 0], [0.5, 0.5, 0.5])
    per_job = run_workload(workload, "first_fit", tiny_topology(), pass_order="per_job").schedule
    whole_first = run_workload(workload, "first_fit", tiny_topology(), pass_order="whole_first").schedule
    assert per_job["start"].tolist() == [0, 0, 100]
    assert per_job["kind"].tolist() == ["coallocated", "migrated", "local"]
    assert whole_first["start"].tolist() == [100, 0, 0]
    assert whole_first["kind"].tolist() == ["coallocated", "local", "local"]


def test_as_stated_ics_places_whole_jobs_first_and_first_fit_job_by_job():
    # The case above, PPBW 0 so that ICS may co-allocate P as First-Fit does.  As the paper states it,
    # ICS co-allocates only once whole placements are done (Sec. 4.2): Q and R at home at 0, P waits
    # until 100; First-Fit takes the FPFS queue job by job (Sec. 4.1): P co-allocated at 0 on c0 and
    # c1, Q migrated to c2, R waits for Q.
    workload = hand_workload([0, 0, 0], [0, 1, 2], [16, 9, 9], [1000, 100, 100], [0, 0, 0], [0.5, 0.5, 0.5])
    ics = run_workload(workload, "ics", tiny_topology()).schedule
    first_fit = run_workload(workload, "first_fit", tiny_topology()).schedule
    assert ics["start"].tolist() == [100, 0, 0] and ics["kind"].tolist() == ["coallocated", "local", "local"]
    assert first_fit["start"].tolist() == [0, 0, 100]
    assert first_fit["kind"].tolist() == ["coallocated", "migrated", "local"]
    for strategy in ("lslt", "lslt_cs"):
        assert not places_whole_jobs_first("as_stated", STRATEGIES[strategy])
    for strategy in ("ics", "zero_comm"):  # Zero Comm.: no order stated, kept as it always ran
        assert places_whole_jobs_first("as_stated", STRATEGIES[strategy])


@pytest.mark.parametrize("strategy", ["migration_only", "no_share"])
def test_pass_order_does_not_matter_where_nothing_is_coallocated(strategy):
    workload = make_workload("realistic", 400, seed=3)
    runs = [run_workload(workload, strategy, pass_order=order).schedule for order in ("per_job", "whole_first")]
    pd.testing.assert_frame_equal(*runs)


def test_placement_kind_is_labelled_in_the_table_and_in_parquet(tmp_path):
    schedule = run_workload(make_workload("synthetic", 200, seed=5), "lslt_cs").schedule
    assert list(schedule["kind"].cat.categories) == ["unplaced", "local", "migrated", "coallocated"]
    schedule.to_parquet(tmp_path / "schedule.parquet", index=False)
    stored = pq.read_table(tmp_path / "schedule.parquet").schema.field("kind").type
    assert str(stored.value_type) == "string", stored  # a dictionary of names, not bare codes
    assert set(pd.read_parquet(tmp_path / "schedule.parquet")["kind"]) <= {"local", "migrated", "coallocated"}


@pytest.mark.parametrize(("n_jobs", "load", "seed"), [(50, 0.689, 1), (500, 0.689, 7), (3000, 0.9, 12345)])
def test_fitted_columns_are_the_synthesised_job_tables_to_the_bit(n_jobs, load, seed):
    # The stage draws its realistic streams without the job table (``workload.fitted_columns``); they
    # must stay what ``synthesize_fitted`` gives, every float's bits and every dtype.
    from schedlab.simulators.bandwidth.workload import fitted_columns, realistic_model
    from schedlab.workloads.synthesis import synthesize_fitted

    jobs, _ = synthesize_fitted(realistic_model(), n_jobs, 100, load, seed)
    expected = (jobs["submit_time"].to_numpy(dtype=np.float64), jobs["allocated_procs"].to_numpy(dtype=np.int64),
                jobs["run_time"].to_numpy(dtype=np.float64))
    for got, want in zip(fitted_columns(realistic_model(), n_jobs, 100, load, seed), expected, strict=True):
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def test_stable_argsort_matches_numpy_with_and_without_ties():
    from schedlab.workloads.synthesis import stable_argsort

    rng = np.random.default_rng(3)
    for values in (rng.standard_normal(1000), rng.integers(0, 5, 1000).astype(float),
                   np.array([np.nan, 1.0, np.nan, 0.0, -0.0]), np.array([])):
        assert stable_argsort(values).tolist() == np.argsort(values, kind="stable").tolist()

