"""Hand-built schedules whose answers were worked out on paper (see each docstring)."""

import math

import numpy as np
import pytest

from schedlab.errors import SchedlabError
from schedlab.simulators.batch.replay import replay
from tests.conftest import make_jobs


def starts(result):
    return dict(zip(result.schedule["job_id"], result.schedule["start"]))


# 10 processors: job 1 holds 6 until 100; job 2 (6 wide) must wait for it; job 3 is
# small and short enough to run before job 2's reservation at t=100.
BLOCKED_HEAD = [(0, 6, 100, 100), (1, 6, 10, 10), (2, 2, 10, 10)]


@pytest.mark.parametrize("conventions", ["default", "pyss"])
def test_fcfs_never_lets_a_later_job_pass(conventions):
    result = replay(make_jobs(BLOCKED_HEAD), 10, policy="fcfs", conventions=conventions)
    assert starts(result) == {1: 0, 2: 100, 3: 100}


@pytest.mark.parametrize("policy", ["easy", "conservative"])
def test_backfilling_starts_a_small_job_in_the_hole(policy):
    result = replay(make_jobs(BLOCKED_HEAD), 10, policy=policy)
    assert starts(result) == {1: 0, 2: 100, 3: 2}


def test_easy_refuses_a_backfill_that_would_delay_the_head():
    """Job 3 fits now (4 free) but would still run at t=100, when the head needs 6 of
    the 10 processors and job 3's 4 + head's 6 fit; job 4 (5 wide, long) would not."""
    jobs = make_jobs([(0, 6, 100, 100), (1, 6, 10, 10), (2, 4, 500, 500), (3, 1, 500, 500)])
    result = replay(jobs, 10, policy="easy")
    assert starts(result) == {1: 0, 2: 100, 3: 2, 4: 110}


def test_easy_may_delay_non_head_jobs_but_conservative_may_not():
    """10 processors. Job 1 (8 wide) runs until 100. Job 2 (10 wide) is EASY's head with
    a reservation at 100. Job 3 (6 wide, 50 s) gets conservative's slot at 200, after
    job 2. Job 4 (2 wide, 150 s) fits now beside job 1, ends at 153 and does not touch
    job 2... but it overlaps job 2's [100, 200) window, where job 2 needs all 10: both
    policies refuse it now.  Job 5 (2 wide, 90 s) ends at 93: both start it."""
    jobs = make_jobs([(0, 8, 100, 100), (1, 10, 100, 100), (2, 6, 50, 50), (3, 2, 150, 150), (4, 2, 90, 90)])
    easy = starts(replay(jobs, 10, policy="easy"))
    conservative = starts(replay(jobs, 10, policy="conservative"))
    assert easy[5] == conservative[5] == 4
    assert easy[2] == conservative[2] == 100
    assert easy[4] == 200 and easy[3] == 200
    assert conservative[3] == 200 and conservative[4] == 200


def test_tie_breaking_per_event_versus_per_timestamp():
    """Jobs 1 (4 wide) and 2 (6 wide) both end early at t=10 (estimates 100).  Job 3
    (8 wide) is the head, job 4 (4 wide, 20 s) a backfill candidate.
    Per event (pyss): after job 1 ends only 4 are free, job 4 backfills at 10, and job 3
    waits for it until 30.  Per timestamp (default): both ends are seen at once, the head
    starts at 10 and job 4 waits for it (10 + 50 = 60)."""
    jobs = make_jobs([(0, 4, 100, 10), (0, 6, 100, 10), (1, 8, 50, 50), (2, 4, 20, 20)])
    pyss_like = starts(replay(jobs, 10, policy="easy", conventions="pyss"))
    default = starts(replay(jobs, 10, policy="easy"))
    assert (pyss_like[3], pyss_like[4]) == (30, 10)
    assert (default[3], default[4]) == (10, 60)
    overridden = starts(replay(jobs, 10, policy="easy", passes="per_event", same_time="submissions_first"))
    assert overridden == pyss_like


def test_jobs_are_killed_at_their_requested_time():
    jobs = make_jobs([(0, 1, 50, 80)])
    schedule = replay(jobs, 4, policy="easy").schedule
    assert schedule["end"].iloc[0] == 50


def test_perfect_estimates_backfill_more():
    """Job 1 (5 wide) runs until 100; the head (8 wide) is reserved at 100, leaving 2
    spare. Job 3 (4 wide) requests 200 s but runs 10: by its request it would overlap
    the reservation and waits for the head (100 + 10 = 110); by its actual run time it
    ends at 12 and backfills at 2."""
    jobs = make_jobs([(0, 5, 100, 100), (1, 8, 10, 10), (2, 4, 200, 10)])
    assert starts(replay(jobs, 10, policy="easy"))[3] == 110
    assert starts(replay(jobs, 10, policy="easy", estimates="actual"))[3] == 2


def test_wfp_and_sjf_choose_a_different_head():
    """Job 1 fills the machine until 100. Job 2 (long, small) and job 3 (short, wide)
    wait; at t=100 SJF picks job 3, FCFS job 2; WFP scores (wait/estimate)^3 x size:
    job 2: (99/1000)^3 x 5, job 3: (98/10)^3 x 10, so job 3."""
    jobs = make_jobs([(0, 10, 100, 100), (1, 5, 1000, 1000), (2, 10, 10, 10)])
    for order, first in (("fcfs", 2), ("sjf", 3), ("wfp", 3)):
        got = starts(replay(jobs, 10, policy="easy", order=order))
        assert got[first] == 100, order


def test_default_conventions_refuse_dirty_input():
    with pytest.raises(SchedlabError, match="run time <= 0"):
        replay(make_jobs([(0, 1, 10, 0)]), 4)
    with pytest.raises(SchedlabError, match="more than 4 processors"):
        replay(make_jobs([(0, 5, 10, 10)]), 4)


def test_pyss_conventions_patch_problematic_jobs_like_pyss():
    """run <= 0 -> a 1-second job at max(submit, 1); missing request -> actual 1; wider
    than the machine -> clamped."""
    jobs = make_jobs([(0, 2, 100, 0), (5, 9, 100, 50), (6, 1, -1, 30)])
    schedule = replay(jobs, 4, policy="fcfs", conventions="pyss").schedule.set_index("job_id")
    assert schedule.loc[1, ["submit", "run_time", "requested_time", "procs"]].tolist() == [1, 1, 1, 2]
    assert schedule.loc[2, ["procs", "run_time", "requested_time"]].tolist() == [4, 50, 100]
    assert schedule.loc[3, ["run_time", "requested_time"]].tolist() == [1, 30]


def test_unknown_choices_are_user_errors():
    jobs = make_jobs(BLOCKED_HEAD)
    for kwargs in ({"policy": "sjf"}, {"order": "lifo"}, {"estimates": "guess"}, {"conventions": "slurm"}):
        with pytest.raises(SchedlabError):
            replay(jobs, 10, **kwargs)
    with pytest.raises(SchedlabError):
        replay(jobs, 0)


def test_metrics_follow_their_definitions():
    result = replay(make_jobs(BLOCKED_HEAD), 10, policy="fcfs")
    waits = np.array([0, 99, 98])
    runs = np.array([100, 10, 10])
    assert result.metrics["mean_wait"] == pytest.approx(waits.mean())
    bsld = np.maximum(1, (waits + runs) / np.maximum(runs, 10))
    assert result.metrics["mean_bsld"] == pytest.approx(bsld.mean())
    assert result.metrics["makespan"] == 110
    assert result.metrics["utilization"] == pytest.approx((600 + 60 + 20) / (10 * 110))
    assert result.metrics["max_queue_length"] == 2
    assert not math.isnan(result.metrics["p95_slowdown"])


def test_series_tracks_queue_and_busy_processors():
    series = replay(make_jobs(BLOCKED_HEAD), 10, policy="fcfs").series
    at = series.set_index("time")
    assert at.loc[0, "busy_procs"] == 6
    assert at.loc[2, "queue_length"] == 2
    assert at.loc[100, "busy_procs"] == 8
    assert at.loc[110, "busy_procs"] == 0


@pytest.mark.parametrize("conventions", ["default", "pyss"])
def test_the_schedule_carries_the_waits_the_log_recorded(conventions):
    # Job 1 is submitted last, so the schedule's rows (submit order) are not the table's.
    jobs = make_jobs([(50, 1, 10, 10), (0, 1, 10, 10), (20, 1, 10, 10)]).assign(wait_time=[7.0, -1.0, 300.0])
    schedule = replay(jobs, 4, policy="fcfs", conventions=conventions).schedule
    assert schedule["job_id"].tolist() == [2, 3, 1]
    np.testing.assert_array_equal(schedule["recorded_wait"], [np.nan, 300.0, 7.0])
