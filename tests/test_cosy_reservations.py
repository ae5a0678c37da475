"""Advance reservations in the engine (schedlab.simulators.core.reservations through the COSY policy)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.simulators.batch.conventions import default_inputs
from schedlab.simulators.cosy.notice import NoNotice
from schedlab.simulators.cosy.scheduler import ReservationRequest
from schedlab.simulators.cosy.run import simulate_cosy
from tests.conftest import make_jobs


def run(rows, capacity, reservations, **options):
    """Simulate (submit, procs, requested, run) rows; ``reservations`` maps row index -> request."""
    return simulate_cosy(default_inputs(make_jobs(rows), capacity, "requested"), capacity, reservations=reservations, **options)


def at(time: float) -> ReservationRequest:
    return ReservationRequest("start", time)


def test_queue_head_waits_for_a_reservation_booked_in_its_way():
    # 4 nodes. Queue job 0 wants all 4 for 100 s; reservation 1 holds 2 nodes over [50, 70).
    result = run([(0, 4, 100, 100), (0, 2, 20, 20)], 4, {1: at(50)})
    starts = result.schedule["start"].tolist()
    assert starts == [70, 50]


def test_backfill_never_delays_a_reservation():
    # Running job 0 holds 2 of 4 nodes until 100; reservation 1 takes 2 nodes over [30, 60).
    # Job 2 (2 nodes, 50 s) would fit now but would overlap the reservation: it must wait until 60.
    rows = [(0, 2, 100, 100), (0, 2, 30, 30), (1, 2, 50, 50), (1, 2, 20, 20)]
    result = run(rows, 4, {1: at(30)})
    starts = result.schedule["start"].tolist()
    assert starts[1] == 30
    assert starts[2] == 60
    assert starts[3] == 1  # ends at 21, before the reservation: a legal backfill


def test_waiting_queue_jobs_do_not_block_a_reservation():
    # Job 1 waits for the whole machine; the reservation still takes nodes at 10 and starts then.
    rows = [(0, 4, 100, 100), (0, 4, 100, 100), (5, 1, 10, 10)]
    result = run(rows, 4, {2: at(100)})
    schedule = result.schedule
    assert schedule["start"].tolist() == [0, 110, 100]
    assert schedule["outcome"].tolist() == ["ran"] * 3


def test_conflicting_reservation_is_rejected_and_the_other_runs():
    rows = [(0, 3, 50, 50), (1, 2, 50, 50), (2, 1, 10, 10)]
    result = run(rows, 4, {0: at(100), 1: at(120), 2: at(120)})
    schedule = result.schedule
    assert schedule["outcome"].tolist() == ["ran", "rejected", "ran"]
    assert schedule["rejected_because"][1] == "processors not free"
    assert schedule["start"][0] == 100 and schedule["start"][2] == 120
    assert math.isnan(schedule["start"][1])
    assert result.metrics["rejection_rate"] == 1 / 3


def test_running_jobs_bind_until_their_requested_end():
    # Job 0 requests 100 s but ends at 10; a reservation of the whole machine at 50 is still refused.
    rows = [(0, 4, 100, 10), (1, 4, 10, 10), (1, 4, 10, 10)]
    result = run(rows, 4, {1: at(50), 2: at(100)})
    assert result.schedule["outcome"].tolist() == ["ran", "rejected", "ran"]


def test_latest_end_request_starts_its_requested_time_before_the_end():
    result = run([(0, 2, 40, 30)], 4, {0: ReservationRequest("end", 100)})
    assert result.schedule["start"][0] == 60


def test_reservation_in_the_past_is_rejected():
    result = run([(50, 2, 40, 30)], 4, {0: at(10)}, notice=NoNotice())
    assert result.schedule["outcome"][0] == "rejected"


class TestTwoPhaseCommit:
    rows = [(0, 4, 1000, 1000), (10, 4, 100, 100)]  # job 0: reservation at 2000; job 1: queue, whole machine

    def outcome(self, confirm_after, **options):
        result = run(self.rows, 4, {0: ReservationRequest("start", 2000, confirm_after)}, **options)
        return result.schedule

    def test_unconfirmed_booking_is_released_after_five_minutes(self):
        schedule = self.outcome(None)
        assert schedule["outcome"][0] == "expired" and math.isnan(schedule["start"][0])
        assert schedule["start"][1] == 10  # [10, 110) never overlapped the booking
        assert schedule["outcome"][1] == "ran"

    def test_booking_confirmed_in_time_runs(self):
        schedule = self.outcome(120.0)
        assert schedule["outcome"][0] == "ran" and schedule["start"][0] == 2000

    def test_confirmation_exactly_at_the_deadline_counts(self):
        assert self.outcome(300.0)["outcome"][0] == "ran"

    def test_confirmation_after_the_deadline_is_too_late(self):
        assert self.outcome(301.0)["outcome"][0] == "expired"

    def test_timeout_is_configurable(self):
        assert self.outcome(120.0, confirm_timeout=60.0)["outcome"][0] == "expired"

    def test_released_booking_frees_its_nodes_for_the_queue_at_the_timeout(self):
        # The queue job needs the whole machine for 1000 s, which overlaps the booking at [500, 600):
        # it may start only once the unconfirmed booking is released, at 0 + 300.
        rows = [(0, 4, 100, 100), (10, 4, 1000, 1000)]
        result = run(rows, 4, {0: ReservationRequest("start", 500, None)})
        assert result.schedule["start"][1] == 300


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 500), st.integers(1, 8), st.integers(1, 200), st.integers(1, 200),
                  st.booleans(), st.integers(0, 400)),
        min_size=1, max_size=25,
    )
)
def test_every_accepted_reservation_starts_exactly_on_time(jobs):
    jobs = sorted(jobs)
    rows = [(submit, procs, requested, min(run_, requested)) for submit, procs, requested, run_, _, _ in jobs]
    reservations = {i: at(job[0] + job[5]) for i, job in enumerate(jobs) if job[4]}
    schedule = run(rows, 8, reservations, notice=NoNotice()).schedule
    ran_reservations = schedule[(schedule["kind"] == "reservation") & (schedule["outcome"] == "ran")]
    expected = np.array([jobs[i][0] + jobs[i][5] for i in ran_reservations.index], dtype=float)
    assert np.array_equal(ran_reservations["start"].to_numpy(), expected)
    # Capacity is never exceeded (checked again here, independently of the simulator's own check).
    ran = schedule[schedule["outcome"] == "ran"]
    for t in ran["start"]:
        running = ran[(ran["start"] <= t) & (ran["end"] > t)]
        assert running["procs"].sum() <= 8


def test_a_refused_reservation_can_join_the_queue_instead():
    # Reservation 1 conflicts with reservation 0 over [100, 150): refused.  With requeue_refused it
    # runs as an ordinary queue job at once (nodes 0-1 are free now), still counted as refused.
    rows = [(0, 3, 50, 50), (1, 2, 50, 50), (2, 1, 10, 10)]
    requests = {0: at(100), 1: at(120), 2: at(120)}
    dropped = run(rows, 4, requests)
    requeued = run(rows, 4, requests, requeue_refused=True)
    assert dropped.schedule["outcome"].tolist() == ["ran", "rejected", "ran"]
    assert requeued.schedule["outcome"].tolist() == ["ran", "requeued", "ran"]
    assert requeued.schedule["start"].tolist() == [100, 1, 120]
    for result in (dropped, requeued):
        assert result.metrics["rejection_rate"] == 1 / 3
    assert dropped.metrics["rejected_work_share"] > 0
    assert requeued.metrics["rejected_work_share"] == 0
    # the requeued job counts as the queue job it became (wq), not as a reservation (wa)
    assert math.isnan(dropped.metrics["mean_queue_wait"])
    assert requeued.metrics["mean_queue_wait"] == 0
    assert requeued.metrics["mean_reservation_wait"] == ((100 - 0) + (120 - 2)) / 2
