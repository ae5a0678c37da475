"""Pairing jobs of two workloads: window mode (nearest first), ratio mode, and ratio within the window."""

import numpy as np
import pytest

from schedlab.parsers.schema import as_job_table
from schedlab.errors import SchedlabError
from schedlab.workloads.pairing import pair_by_ratio, pair_by_ratio_within_window, pair_by_window


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


def test_ratio_within_the_window_spreads_ratio_modes_count_over_the_jobs_with_a_mate_in_reach():
    a = workload([0, 100, 200, 300, 400, 500, 600, 700, 800, 900])  # ids 1-10
    b = workload([30, 110, 115, 470, 2000, 2100, 2200, 2300, 2400, 2500], first_id=11)  # ids 11-20
    # within 60 s: job 1 has 11 (30 s); job 2 has 12 (10 s) and 13 (15 s); job 6 has 14 (30 s); no other job of A
    # has anyone.  Ratio 0.5 asks for 5 pairs (ranks 1, 3, 5, 7, 9); only those 3 jobs can pair: all of them do.
    assert pairs_of(pair_by_ratio_within_window(a, b, 0.5, 60)) == [(1, 11), (2, 12), (6, 14)]
    # ratio 0.2 asks for 2 (ranks 4, 9): spread over the 3 at positions 0.75 and 2.25 -> the first and the third
    pairing = pair_by_ratio_within_window(a, b, 0.2, 60)
    assert pairs_of(pairing) == [(1, 11), (6, 14)] and pairing.pairs["submit_gap"].tolist() == [30, -30]
    # equal ranks (ratio mode) would pair 5 with 15 and 10 with 20, 1,600 s apart
    assert pairs_of(pair_by_ratio(a, b, 0.2)) == [(5, 15), (10, 20)]


def test_ratio_within_the_window_never_gives_one_job_of_b_twice():
    a = workload([0, 10])
    b = workload([5], first_id=11)
    # one pair wanted (ranks below min(2, 1)); both jobs of A have 11 in reach; the spread picks the second
    assert pairs_of(pair_by_ratio_within_window(a, b, 1.0, 60)) == [(2, 11)]
    a = workload([0, 10, 20])
    b = workload([5, 6], first_id=11)
    # two wanted: jobs 1 and 3; 1 takes 11 (5 s), so 3 takes 12, the one left
    assert pairs_of(pair_by_ratio_within_window(a, b, 1.0, 60)) == [(1, 11), (3, 12)]
