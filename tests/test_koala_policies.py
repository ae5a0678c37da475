"""Placement policies of KOALA on hand-made idle-node vectors (Sonmez et al., TPDS 2010, Sec. 4)."""

from __future__ import annotations

import numpy as np
import pytest

from schedlab.simulators.koala.cluster_minimization import FlexibleClusterMinimization
from schedlab.simulators.koala.communication_aware import CommunicationAware
from schedlab.simulators.koala.worst_fit import WorstFit
from schedlab.simulators.multicluster.requests import FlexibleRequest, NonFixedRequest, check_placement
from schedlab.simulators.multicluster.topology import Cluster, das3, topology_from_pairs


def idle(*nodes):
    return np.array(nodes, dtype=np.int64)


def test_fig2_worst_fit_spreads_three_components_over_three_clusters():
    placement = WorstFit().place(NonFixedRequest((8, 8, 8)), idle(16, 16, 16))
    assert sorted(placement) == [(0, 8), (1, 8), (2, 8)]


def test_fig2_fcm_uses_two_clusters_16_plus_8():
    placement = FlexibleClusterMinimization().place(FlexibleRequest(24), idle(16, 16, 16))
    assert placement == ((0, 16), (1, 8))


def test_worst_fit_largest_component_first_to_the_roomiest_cluster():
    placement = WorstFit().place(NonFixedRequest((4, 10)), idle(6, 12, 9))
    assert placement == ((1, 10), (2, 4))


def test_worst_fit_may_put_two_components_on_one_cluster():
    assert WorstFit().place(NonFixedRequest((5, 5)), idle(20, 3)) == ((0, 5), (0, 5))


def test_worst_fit_fails_when_the_roomiest_cluster_is_too_small():
    assert WorstFit().place(NonFixedRequest((10,)), idle(9, 9, 9)) is None


def test_fcm_places_a_job_whole_on_the_emptiest_cluster_when_it_fits():
    assert FlexibleClusterMinimization().place(FlexibleRequest(20), idle(10, 30, 25)) == ((1, 20),)


def test_fcm_fills_clusters_by_decreasing_idle_nodes():
    placement = FlexibleClusterMinimization().place(FlexibleRequest(40), idle(10, 12, 25, 3))
    assert placement == ((2, 25), (1, 12), (0, 3))


def test_fcm_fails_atomically_when_idle_nodes_run_out():
    assert FlexibleClusterMinimization().place(FlexibleRequest(41), idle(10, 12, 15, 3)) is None


def test_two_cluster_limit_refuses_a_three_cluster_split():
    request = FlexibleRequest(30)
    assert FlexibleClusterMinimization().place(request, idle(12, 10, 10)) == ((0, 12), (1, 10), (2, 8))
    assert FlexibleClusterMinimization(max_clusters=2).place(request, idle(12, 10, 10)) is None
    assert FlexibleClusterMinimization(max_clusters=2).place(request, idle(12, 20, 10)) == ((1, 20), (0, 10))


def test_request_limits_on_components_are_honoured():
    request = FlexibleRequest(29, min_component=8, max_components=3)
    placement = FlexibleClusterMinimization().place(request, idle(20, 5, 7, 9))
    # 5 and 7 idle nodes would make components below the minimum of 8: passed over.
    assert placement == ((0, 20), (3, 9))
    check_placement(request, placement, 4)
    # One node more would need a last component of 1 < 8: components are not rebalanced.
    assert FlexibleClusterMinimization().place(FlexibleRequest(30, min_component=8), idle(20, 5, 7, 9)) is None
    assert FlexibleClusterMinimization().place(FlexibleRequest(30, max_components=2), idle(20, 5, 7, 9)) is None


def three_cluster_topology():
    """Cluster X has the lowest intra latency but is far from everyone; Y and Z are close."""
    clusters = [Cluster("X", 10), Cluster("Y", 10), Cluster("Z", 10)]
    latency = {
        frozenset({"X"}): 0.01, frozenset({"Y"}): 0.05, frozenset({"Z"}): 0.03,
        frozenset({"X", "Y"}): 2.0, frozenset({"X", "Z"}): 2.0, frozenset({"Y", "Z"}): 0.2,
    }
    bandwidth = {pair: 100.0 for pair in latency}
    return topology_from_pairs("three", clusters, latency, bandwidth)


def test_ca_first_tries_single_clusters_by_increasing_intra_latency():
    ca = CommunicationAware(three_cluster_topology())
    assert ca.single_cluster_order == [0, 2, 1]
    assert ca.place(FlexibleRequest(8), idle(10, 10, 10)) == ((0, 8),)
    assert ca.place(FlexibleRequest(8), idle(5, 10, 10)) == ((2, 8),)
    assert ca.place(FlexibleRequest(8), idle(5, 9, 7)) == ((1, 8),)


def test_ca_coallocates_by_increasing_mean_latency_to_all_clusters():
    ca = CommunicationAware(three_cluster_topology())
    # Means: X (0.01+2+2)/3 = 1.34, Y (2+0.05+0.2)/3 = 0.75, Z (2+0.2+0.03)/3 = 0.743.
    assert ca.coallocation_order == [2, 1, 0]
    # FCM would start with X, the emptiest; CA keeps the job on the close pair Z, Y.
    assert ca.place(FlexibleRequest(14), idle(9, 6, 8)) == ((2, 8), (1, 6))
    assert FlexibleClusterMinimization().place(FlexibleRequest(14), idle(9, 6, 8)) == ((0, 9), (2, 5))


def test_ca_on_das3_avoids_delft_and_prefers_uva_multimedian():
    topology = das3("B")
    ca = CommunicationAware(topology)
    names = [topology.names[c] for c in ca.coallocation_order]
    assert names[-1] == "Delft"
    assert set(names[:2]) == {"UvA", "MultimediaN"}
    # Delft (68 idle) could hold 64 whole, and CA places whole jobs first, GbE or not.
    assert ca.place(FlexibleRequest(64), topology.capacities - idle(40, 0, 0, 0)) == ((topology.index("Delft"), 64),)
    # No cluster can hold 64: fill UvA (41 idle) then MultimediaN, never Delft (58 idle) or VU.
    placement = ca.place(FlexibleRequest(64), topology.capacities - idle(40, 0, 10, 0))
    assert placement == ((topology.index("UvA"), 41), (topology.index("MultimediaN"), 23))


@pytest.mark.parametrize(
    "policy, request_",
    [(WorstFit(), FlexibleRequest(8)), (FlexibleClusterMinimization(), NonFixedRequest((8,)))],
)
def test_policies_refuse_request_types_they_do_not_serve(policy, request_):
    with pytest.raises(TypeError):
        policy.place(request_, idle(10, 10))
