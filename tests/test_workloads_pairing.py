"""Pairing jobs of two workloads: window mode (nearest first) and ratio mode."""

import numpy as np
import pytest

from schedlab.parsers.schema import as_job_table
from schedlab.errors import SchedlabError
from schedlab.workloads.pairing import pair_by_ratio, pair_by_window


def workload(submits, first_id=1):
    return as_job_table({"job_id": np.arange(first_id, first_id + len(submits)), "submit_time": submits})


def pairs_of(pairing):
    return list(zip(pairing.pairs["job_id_a"].tolist(), pairing.pairs["job_id_b"].tolist()))


def test_window_pairs_nearest_first_one_to_one():
    a = workload([0, 100, 1000])  # ids 1, 2, 3
    b = workload([90, 105, 5000], first_id=11)  # ids 11, 12, 13
    pairing = pair_by_window(a, b, 120)
    # 2-12 (5 s) goes first; then 1-11 (90 s); 3 and 13 have no one within 120 s
    assert pairs_of(pairing) == [(1, 11), (2, 12)]
    assert pairing.pairs["submit_gap"].tolist() == [90, 5]
    assert pairing.paired_share_a == pytest.approx(2 / 3) and pairing.paired_share_b == pytest.approx(2 / 3)


def test_greedy_nearest_match_is_not_first_come():
    a = workload([0, 100])
    b = workload([90], first_id=11)
    assert pairs_of(pair_by_window(a, b, 120)) == [(2, 11)]


def test_ties_go_to_the_earlier_job_of_a_then_of_b():
    a = workload([0, 200])  # both 100 s from B's job
    b = workload([100], first_id=11)
    assert pairs_of(pair_by_window(a, b, 120)) == [(1, 11)]
    a = workload([100])
    b = workload([0, 200, 100], first_id=11)  # 13 arrives with A's job: distance 0 beats 100
    assert pairs_of(pair_by_window(a, b, 120)) == [(1, 13)]
    b = workload([200, 0], first_id=11)  # equidistant; 12 was submitted first
    assert pairs_of(pair_by_window(a, b, 120)) == [(1, 12)]


def test_window_bounds_are_inclusive_and_order_of_input_does_not_matter():
    a = workload([300, 0])
    b = workload([120, 420], first_id=11)
    assert sorted(pairs_of(pair_by_window(a, b, 120))) == [(1, 12), (2, 11)]
    assert pairs_of(pair_by_window(a, b, 119.9)) == []


def test_no_overlap_or_empty_workloads_give_no_pairs():
    far = pair_by_window(workload([0, 10]), workload([10_000], first_id=5), 120)
    assert far.pairs.empty and far.paired_share_a == 0 and far.paired_share_b == 0
    empty = pair_by_window(workload([]), workload([1, 2]), 120)
    assert empty.pairs.empty and empty.jobs_a == 0 and empty.paired_share_a == 0
    assert list(empty.pairs.columns) == ["job_id_a", "job_id_b", "submit_time_a", "submit_time_b", "submit_gap"]


def test_many_simultaneous_jobs_pair_one_to_one():
    rng = np.random.default_rng(0)
    a = workload(rng.integers(0, 3600, 500).astype(float))
    b = workload(rng.integers(0, 3600, 300).astype(float), first_id=1001)
    pairing = pair_by_window(a, b, 120)
    assert pairing.pairs["job_id_a"].is_unique and pairing.pairs["job_id_b"].is_unique
    assert len(pairing.pairs) == 300  # every B job has A jobs within 2 minutes to spare
    assert pairing.pairs["submit_gap"].abs().max() <= 120


@pytest.mark.parametrize(("ratio", "k"), [(0.025, 40), (0.05, 20), (0.1, 10), (0.2, 5), (0.33, 3)])
def test_ratio_pairs_every_kth_job_in_submit_order(ratio, k):
    a = workload(np.arange(400.0)[::-1])  # given in reverse order: job 400 is first
    b = workload(np.arange(400.0) * 3, first_id=1001)
    pairing = pair_by_ratio(a, b, ratio)
    ranks = np.arange(k - 1, 400, k)
    assert pairing.pairs["job_id_a"].tolist() == (400 - ranks).tolist()
    assert pairing.pairs["job_id_b"].tolist() == (1001 + ranks).tolist()
    assert pairing.paired_share_a == pytest.approx(len(ranks) / 400)


def test_ratio_pairing_is_limited_by_the_smaller_workload():
    a = workload(np.arange(100.0))
    b = workload(np.arange(25.0), first_id=1001)
    pairing = pair_by_ratio(a, b, 0.1)  # ranks 9 and 19 exist in both
    assert len(pairing.pairs) == 2
    assert pairing.paired_share_a == pytest.approx(0.02) and pairing.paired_share_b == pytest.approx(0.08)
    assert pair_by_ratio(a, workload([5.0, 6.0]), 0.1).pairs.empty  # k = 10 exceeds the smaller workload


@pytest.mark.parametrize("ratio", [0, -0.1, 1.5, float("nan")])
def test_bad_ratios_are_refused(ratio):
    with pytest.raises(SchedlabError, match="ratio"):
        pair_by_ratio(workload([1.0]), workload([1.0]), ratio)


def test_negative_window_is_refused():
    with pytest.raises(SchedlabError, match="window"):
        pair_by_window(workload([1.0]), workload([1.0]), -1)
