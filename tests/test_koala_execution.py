"""The execution-time model T(S) = T_comp + f(S) x T_comm and its calibration.

Expected values are worked out by hand from the DAS-3 latency table in
``schedlab.simulators.multicluster.topology`` (config A's six inter-cluster latencies add up to
3.0 ms).
"""

from __future__ import annotations

import pytest

from schedlab.simulators.koala.execution import (
    NODE_SHARES,
    CommunicationModel,
    ExecutionModel,
    application,
    calibrated_kappa,
    ccr_application,
)
from schedlab.simulators.multicluster.topology import das3

A = das3("A")  # VU, UvA, MultimediaN, Leiden
VU, UVA, MN, LEIDEN = range(4)


def test_kappa_solves_wave_750_s_on_four_clusters():
    # 8/8/8/8: every ordered pair weighs 1/16, so the pair latency is 2 x 3.0 / 16 = 0.375 ms;
    # f must be (750 - 40) / 160 = 4.4375.
    assert calibrated_kappa() == pytest.approx(3.4375 / 0.375)
    model = ExecutionModel(A)
    assert model.run_time(application("wave"), ((0, 8), (1, 8), (2, 8), (3, 8))) == pytest.approx(750.0)


@pytest.mark.parametrize("app", ["prime", "poisson", "wave", "ccr-0.5"])
def test_one_cluster_takes_the_single_cluster_time(app):
    model = ExecutionModel(das3("B"), slowest_processor=True)
    for cluster in range(4):
        assert model.run_time(application(app), ((cluster, 16),)) == pytest.approx(
            application(app).single_cluster_time
        )


def test_ccr_application_splits_180_s_as_the_paper_says():
    assert (ccr_application(1.0).computation, ccr_application(1.0).communication) == (90.0, 90.0)
    assert ccr_application(0.5).computation == pytest.approx(120.0)
    assert ccr_application(0.5).communication == pytest.approx(60.0)


def test_two_clusters_uva_multimedian_whatever_the_split():
    # (2 x 0.20 ms) / 2^2 = 0.1 ms; f = 1 + 9.1667 x 0.1.
    expected = 40.0 + 160.0 * (1.0 + 0.1 * 3.4375 / 0.375)
    model = ExecutionModel(A)
    assert model.run_time(application("wave"), ((UVA, 16), (MN, 16))) == pytest.approx(expected)
    assert model.run_time(application("wave"), ((UVA, 30), (MN, 2))) == pytest.approx(expected)


def test_wave_grows_with_the_number_of_clusters_and_poisson_much_less():
    model = ExecutionModel(A)
    two = ((VU, 16), (UVA, 16))
    three = ((VU, 10), (UVA, 10), (MN, 12))
    four = ((VU, 8), (UVA, 8), (MN, 8), (LEIDEN, 8))
    wave = [model.run_time(application("wave"), p) for p in (((VU, 32),), two, three, four)]
    assert wave == sorted(wave) and wave[0] == 200.0
    assert model.run_time(application("poisson"), four) == pytest.approx(300.0)
    assert model.run_time(application("prime"), four) == 200.0


def test_any_pair_with_delft_is_slower_than_any_myrinet_pair():
    b = das3("B")
    model = ExecutionModel(b)
    delft = b.index("Delft")
    with_delft = [model.communication_factor(((delft, 16), (c, 16))) for c in range(4) if c != delft]
    without = [model.communication_factor(((c, 16), (d, 16))) for c in range(4) for d in range(c) if delft not in (c, d)]
    assert min(with_delft) > max(without) > 1.0


def test_delft_latency_share_moves_only_delft_pairs_between_the_farthest_myrinet_pair_and_the_table():
    # The farthest Myri-10G pairs of the table: 0.65 ms between clusters, 0.05 ms inside one.
    table, none, half = (das3("B", delft_latency_share=share).latency_ms for share in (1.0, 0.0, 0.5))
    delft = das3("B").index("Delft")
    others = [c for c in range(4) if c != delft]
    assert table[delft, others].tolist() == [1.50, 1.60, 1.60] and table[delft, delft] == 0.15
    assert none[delft, others].tolist() == [0.65, 0.65, 0.65] and none[delft, delft] == 0.05
    assert half[delft, others].tolist() == pytest.approx([1.075, 1.125, 1.125])
    assert (none[others][:, others] == table[others][:, others]).all()  # no other pair moves
    assert (das3("A", delft_latency_share=0.0).latency_ms == das3("A").latency_ms).all()  # A holds no Delft
    with pytest.raises(ValueError, match="delft_latency_share"):
        das3("B", delft_latency_share=1.5)


def test_slowest_processor_penalty_is_optional():
    placement = ((LEIDEN, 16), (UVA, 16))  # 2.6 GHz with 2.2 GHz
    assert ExecutionModel(A).run_time(application("prime"), placement) == 200.0
    assert ExecutionModel(A, slowest_processor=True).run_time(application("prime"), placement) == pytest.approx(
        200.0 * 2.6 / 2.2
    )


def test_unknown_application_is_refused():
    with pytest.raises(ValueError):
        application("linpack")


def test_node_shares_scale_the_penalty_with_the_crossing_node_pairs():
    # UvA + MultimediaN (0.20 ms) split 30/2: 2 x (30/32)(2/32) x 0.20 = 0.0234375 ms.
    shares = ExecutionModel(A, communication=CommunicationModel(NODE_SHARES))
    assert shares.communication_factor(((UVA, 30), (MN, 2))) == pytest.approx(1.0 + 0.0234375 * 3.4375 / 0.375)
    even = ((VU, 8), (UVA, 8), (MN, 8), (LEIDEN, 8))
    assert shares.run_time(application("wave"), even) == pytest.approx(750.0)  # the calibration holds
    lopsided = ((VU, 29), (UVA, 1), (MN, 1), (LEIDEN, 1))
    assert shares.communication_factor(lopsided) < ExecutionModel(A).communication_factor(lopsided) == pytest.approx(4.4375)


def test_cluster_count_weights_span_no_penalty_to_the_latency_form():
    two, three = ((UVA, 16), (MN, 16)), ((VU, 10), (UVA, 10), (MN, 12))
    four = ((VU, 8), (UVA, 8), (MN, 8), (LEIDEN, 8))
    default = ExecutionModel(A)
    none_below_four = ExecutionModel(A, communication=CommunicationModel(two_cluster_weight=0.0, three_cluster_weight=0.0))
    assert none_below_four.communication_factor(two) == none_below_four.communication_factor(three) == 1.0
    assert none_below_four.run_time(application("wave"), four) == pytest.approx(750.0)
    half = ExecutionModel(A, communication=CommunicationModel(three_cluster_weight=0.5))
    assert half.communication_factor(three) - 1.0 == pytest.approx((default.communication_factor(three) - 1.0) / 2)
    assert half.communication_factor(two) == default.communication_factor(two)


@pytest.mark.parametrize("fields", [{"split_rule": "cross"}, {"two_cluster_weight": -0.1}, {"three_cluster_weight": 1.5}])
def test_communication_model_refuses_values_outside_its_range(fields):
    with pytest.raises(ValueError):
        CommunicationModel(**fields)
