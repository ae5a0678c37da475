"""User-based resampling: a hand-built log, then KTH-SP2's resamples against the source (long-term users'
job counts, the daily and weekly cycle, the offered load), determinism, speed's shape, and the command."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2_contingency

from schedlab.errors import SchedlabError
from schedlab.parsers.schema import as_job_table
from schedlab.workloads.load import offered_load
from schedlab.workloads.resampling import SECONDS_PER_WEEK, resample, user_activity
from tests.conftest import shared_path

DAY, HOUR = 86_400.0, 3600.0


def _log() -> pd.DataFrame:
    """Five weeks: user 1 every week (long-term), user 2 in week 0 only, user 3 in weeks 3-4 (temporary: two of
    five weeks, under half)."""
    rows = [(1, week * SECONDS_PER_WEEK + DAY + 9 * HOUR + week, 10 + week) for week in range(5)]
    rows += [(2, 2 * DAY, 50), (2, 2 * DAY + HOUR, 60)]
    rows += [(3, 3 * SECONDS_PER_WEEK + 3 * DAY, 70), (3, 4 * SECONDS_PER_WEEK + 4 * DAY, 80)]
    user, submit, run = zip(*rows)
    return as_job_table({"job_id": np.arange(1, len(rows) + 1), "user_id": list(user), "submit_time": list(submit),
                         "wait_time": np.zeros(len(rows)), "run_time": np.array(run, dtype=float),
                         "allocated_procs": np.ones(len(rows), dtype=int)})


def _activity(**options):
    """The log's activity with its time 0 taken as a Monday 00:00."""
    log = _log()
    return user_activity(log, log["submit_time"].to_numpy(), **options)


def test_users_are_classed_by_the_weeks_they_span():
    activity = _activity()
    assert activity.weeks == 5
    assert activity.long_term.tolist() == [1] and activity.temporary.tolist() == [2, 3]
    assert activity.new_temporary_per_week == 2 / 5
    assert activity.week_offset[0] == DAY + 9 * HOUR


def test_a_long_term_user_keeps_each_week_whole_at_its_time_of_week():
    activity = _activity()
    jobs = resample(activity, 1, seed=3, load_tolerance=10.0)  # any load: only the long-term user is checked here
    mine = jobs[jobs["user_id"] == 1]
    # run times 10..14 tell the weeks apart; each sits at Tuesday 09:00 plus its own week's seconds.
    assert sorted(mine["run_time"]) == [10, 11, 12, 13, 14]
    offsets = mine["submit_time"] % SECONDS_PER_WEEK
    assert (offsets == DAY + 9 * HOUR + (mine["run_time"] - 10)).all()
    assert sorted((mine["submit_time"] // SECONDS_PER_WEEK).astype(int)) == [0, 1, 2, 3, 4]
    assert mine.sort_values("submit_time")["run_time"].tolist() != [10, 11, 12, 13, 14]  # shuffled


def test_temporary_users_come_whole_and_long_term_users_alone_cannot_exceed_the_target():
    activity = _activity()
    jobs = resample(activity, 1, seed=5, load_tolerance=10.0)
    for user, group in jobs[jobs["user_id"] > 1].groupby("user_id"):
        runs = sorted(group["run_time"])
        assert runs in ([50, 60], [70], [70, 80])  # user 3 copied in the last week keeps only its first week
    with pytest.raises(SchedlabError, match="long-term users alone"):
        resample(activity, 1, seed=5, target_load=1e-9)
    with pytest.raises(SchedlabError, match="no temporary users"):
        resample(_activity(long_term_share=0.2), 1, seed=5)


@pytest.fixture(scope="module")
def kth():
    from schedlab.parsers.cleaning import clean
    from schedlab.parsers.swf import read_swf
    from schedlab.workloads.fitting import header_clock, local_week_seconds

    trace = read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf"))
    jobs, _ = clean(trace.jobs, trace.machine_procs)
    clock = local_week_seconds(jobs["submit_time"].to_numpy(float), *header_clock(trace.header))
    activity = user_activity(jobs, clock, source="KTH-SP2")
    return activity, [resample(activity, 100, seed) for seed in range(5)]


def test_long_term_users_keep_their_job_counts(kth):
    activity, resamples = kth
    source = activity.jobs["user_id"].value_counts()
    for jobs in resamples:
        # long-term users are numbered 1, 2, ... in the order of their ids in the log
        counts = jobs["user_id"].value_counts()
        assert [counts[k] for k in range(1, len(activity.long_term) + 1)] == source[activity.long_term].tolist()


def _cramers_v(a: np.ndarray, b: np.ndarray) -> float:
    chi2 = chi2_contingency(np.vstack([a, b]))[0]
    return float(np.sqrt(chi2 / (a.sum() + b.sum())))


def test_the_daily_and_weekly_cycles_are_the_sources(kth):
    # Chi-squared on 28k jobs detects any difference; the effect size (Cramer's V of the 2 x 24 hour-of-day and
    # 2 x 7 day-of-week tables) says how large it is: at most 0.05, a negligible association.
    activity, resamples = kth
    def cycles(offsets):
        return (np.bincount((offsets // HOUR % 24).astype(int), minlength=24),
                np.bincount((offsets // DAY).astype(int), minlength=7))
    source_hours, source_days = cycles(activity.week_offset)
    for jobs in resamples:
        hours, days = cycles(jobs["submit_time"].to_numpy() % SECONDS_PER_WEEK)
        assert _cramers_v(source_hours, hours) < 0.05 and _cramers_v(source_days, days) < 0.05


def _weekly_load(jobs: pd.DataFrame, procs: int, weeks: int) -> float:
    work = (jobs["allocated_procs"] * jobs["run_time"]).sum()
    return work / (procs * weeks * SECONDS_PER_WEEK)


def test_the_offered_load_is_the_sources_within_two_percent(kth):
    activity, resamples = kth
    target = _weekly_load(activity.jobs, 100, activity.weeks)
    for jobs in resamples:
        assert _weekly_load(jobs, 100, activity.weeks) == pytest.approx(target, rel=0.02)
        # and over the submissions' span, as schedlab info measures it, within 5 %
        assert offered_load(jobs, 100) == pytest.approx(offered_load(activity.jobs, 100), rel=0.05)
    assert len({len(jobs) for jobs in resamples}) > 1  # the temporary users differ from one resample to the next


def test_shuffling_long_term_weeks_does_not_draw_in_extra_users():
    # HPC2N's first 3,171 jobs: nine long-term users hold nearly all the work; a resample keeps about the log's
    # job count (a load measured from first to last submission once drew in hundreds of small temporary users).
    from schedlab.parsers.cleaning import clean
    from schedlab.parsers.swf import read_swf

    trace = read_swf(shared_path("traces", "HPC2N-2002-2.2-cln.first3171.swf"))
    jobs, _ = clean(trace.jobs, trace.machine_procs)
    activity = user_activity(jobs)
    for seed in (1, 2, 3):
        assert len(resample(activity, trace.machine_procs, seed)) < 1.5 * len(jobs)


def test_resamples_are_deterministic(kth):
    activity, resamples = kth
    assert resample(activity, 100, 2).equals(resamples[2])


def test_the_command_writes_one_trace_per_seed(tmp_path, capsys):
    from schedlab.cli import main
    from schedlab.parsers.swf import read_swf

    trace = shared_path("traces", "KTH-SP2-1996-2.2.swf")
    assert main(["resample", str(trace), "-n", "2", "--seed", "7", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "72 long-term and 142 temporary users" in out
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == ["KTH-SP2-1996-2.2-resample-7.swf", "KTH-SP2-1996-2.2-resample-8.swf"]
    assert read_swf(tmp_path / written[0]).header.unix_start_time is not None
