"""COSY policies: notice time (fixed and adaptive), queue priority, user levels, queue limits."""

from __future__ import annotations

import pytest

from schedlab.simulators.batch.conventions import default_inputs
from schedlab.simulators.cosy.notice import AdaptiveNotice, FixedNotice
from schedlab.simulators.cosy.queues import QueueConfig, Queues
from schedlab.simulators.cosy.scheduler import ReservationRequest
from schedlab.simulators.cosy.run import simulate_cosy
from tests.conftest import make_jobs

# Two queue jobs of the whole 4-node machine at 0: the second waits 100 s, so from t = 100 on
# the mean wait of started queue jobs is W = (0 + 100) / 2 = 50.
TWO_QUEUE_JOBS = [(0, 4, 100, 100), (0, 4, 100, 100)]


def run(rows, capacity, reservations=None, **options):
    return simulate_cosy(default_inputs(make_jobs(rows), capacity, "requested"), capacity, reservations=reservations or {}, **options)


@pytest.mark.parametrize("start, accepted", [(250.0, True), (249.0, False), (400.0, True)])
def test_notice_boundary_is_n_times_mean_queue_wait(start, accepted):
    # Asked at 150 with n = 2 and W = 50: the start must be at least 150 + 100 = 250.
    rows = [*TWO_QUEUE_JOBS, (150, 1, 10, 10)]
    schedule = run(rows, 4, {2: ReservationRequest("start", start)}, notice=FixedNotice(2.0)).schedule
    assert schedule["mean_wait_at_request"][2] == 50
    assert schedule["required_notice"][2] == 100
    assert (schedule["outcome"][2] == "ran") is accepted
    if not accepted:
        assert schedule["rejected_because"][2] == "notice too short"


def test_earliest_request_asks_exactly_the_shortest_notice_and_is_accepted():
    rows = [*TWO_QUEUE_JOBS, (150, 1, 10, 10)]
    schedule = run(rows, 4, {2: ReservationRequest()}, notice=FixedNotice(3.0)).schedule
    assert schedule["start"][2] == 300


def test_notice_is_zero_before_any_queue_job_started():
    schedule = run([(0, 1, 10, 10)], 4, {0: ReservationRequest()}, notice=FixedNotice(5.0)).schedule
    assert schedule["start"][0] == 0


@pytest.mark.parametrize("share, factor", [(0.0, 1.0), (0.075, 2.5), (0.15, 4.0), (0.1501, None), (0.5, None)])
def test_adaptive_factor_follows_the_papers_figure_3(share, factor):
    required = AdaptiveNotice().required_factor(share)
    if factor is None:
        assert required is None
    else:
        assert required == pytest.approx(factor)


def test_adaptive_policy_refuses_reservations_above_fifteen_percent():
    # Jobs 0 and 1 are reservations: at job 1 the share is 1 accepted of 2 received = 50 %.
    rows = [(0, 1, 10, 10), (1, 1, 10, 10), (2, 1, 10, 10)]
    schedule = run(rows, 4, {0: ReservationRequest(), 1: ReservationRequest()}, notice=AdaptiveNotice()).schedule
    assert schedule["outcome"].tolist() == ["ran", "rejected", "ran"]
    assert schedule["rejected_because"][1] == "reservation share above the limit"


def two_queues(job_queue, job_user=None, **high):
    configs = [QueueConfig("low", priority=0), QueueConfig("high", priority=1, **high)]
    return Queues(configs, job_queue, job_user or [None] * len(job_queue))


# A 3-node job runs until 100 on 4 nodes; at 1 arrive a 1-node 10 s job and a 4-node job.
PRIORITY_ROWS = [(0, 3, 100, 100), (1, 4, 50, 50), (1, 1, 10, 10)]


def test_single_queue_backfills_the_short_job():
    schedule = run(PRIORITY_ROWS, 4).schedule
    assert schedule["start"].tolist() == [0, 100, 1]


def test_no_backfilling_across_queues():
    # The short job is in the lower queue: it must wait while the high queue has a waiting job.
    queues = two_queues(["high", "high", "low"])
    schedule = run(PRIORITY_ROWS, 4, queues=queues).schedule
    assert schedule["start"].tolist() == [0, 100, 150]


def test_higher_queue_goes_first_even_when_submitted_later():
    rows = [(0, 4, 100, 100), (1, 4, 10, 10), (2, 4, 10, 10)]
    schedule = run(rows, 4, queues=two_queues(["low", "low", "high"])).schedule
    assert schedule["start"].tolist() == [0, 110, 100]


def test_lower_queue_runs_when_the_higher_one_is_empty():
    rows = [(0, 2, 100, 100), (1, 2, 10, 10)]
    schedule = run(rows, 4, queues=two_queues(["high", "low"])).schedule
    assert schedule["start"].tolist() == [0, 1]


def test_user_levels_order_a_queue_and_deny_rejects():
    rows = [(0, 4, 100, 100), (1, 4, 10, 10), (2, 4, 10, 10), (3, 4, 10, 10), (4, 4, 10, 10)]
    users = [1, 1, 2, 3, 4]
    levels = {1: "defer", 2: "allow", 3: "prefer", 4: "deny"}
    queues = Queues([QueueConfig("only", user_levels=levels)], ["only"] * 5, users)
    schedule = run(rows, 4, queues=queues).schedule
    assert schedule["start"].tolist()[:4] == [0, 120, 110, 100]
    assert schedule["outcome"][4] == "rejected"
    assert schedule["rejected_because"][4] == "user 4 denied in queue only"


def test_queue_limits_reject_at_submission_with_the_reason():
    rows = [(0, 2, 100, 100), (0, 3, 10, 10), (0, 1, 10, 10)]
    queues = Queues([QueueConfig("day", max_walltime=60, max_nodes=2)], ["day"] * 3, [None] * 3)
    schedule = run(rows, 4, queues=queues).schedule
    assert schedule["outcome"].tolist() == ["rejected", "rejected", "ran"]
    assert "walltime 100 s over the limit 60 s" in schedule["rejected_because"][0]
    assert "3 nodes over the limit 2" in schedule["rejected_because"][1]


def test_limits_apply_to_reservations_too():
    queues = Queues([QueueConfig("day", max_nodes=2)], ["day"], [None])
    schedule = run([(0, 3, 10, 10)], 4, {0: ReservationRequest("start", 50)}, queues=queues).schedule
    assert schedule["outcome"][0] == "rejected"


def test_unknown_user_level_is_refused():
    with pytest.raises(ValueError, match="unknown user level"):
        QueueConfig("q", user_levels={1: "maybe"})
