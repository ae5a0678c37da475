"""User sessions: a hand-worked three-user case under both delimitations, recorded dependencies, refusals,
the shared KTH-SP2 log against the counts measured when the feature was asked for, and the command."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from schedlab.errors import SchedlabError
from schedlab.parsers.schema import as_job_table
from schedlab.workloads.sessions import (
    find_sessions,
    format_summary,
    has_recorded_dependencies,
    recorded_sessions,
    summarize_sessions,
)
from tests.conftest import shared_path

# job: (user, submit, wait, run).  Ends: 1: 100, 2: 2000, 3: 9100, 4: 20500, 5: 5100, 6: 30100,
# 7: 110, 8: 260, 9: 8050, 10: 20010.
JOBS = {
    1: (1, 0, 0, 100), 2: (1, 1800, 0, 200), 3: (1, 9000, 0, 100),
    4: (2, 500, 0, 20000), 5: (2, 5000, 0, 100), 6: (2, 30000, 0, 100),
    7: (3, 100, 0, 10), 8: (3, 200, 10, 50), 9: (3, 8000, 0, 50), 10: (3, 20000, 0, 10),
}


def _jobs(**extra) -> pd.DataFrame:
    ids = list(JOBS)
    user, submit, wait, run = (np.array(column, dtype=float) for column in zip(*JOBS.values()))
    return as_job_table({"job_id": ids, "user_id": user.astype(int), "submit_time": submit, "wait_time": wait,
                         "run_time": run, "allocated_procs": np.ones(len(ids), dtype=int), **extra})


def _by_first(sessions) -> dict[float, tuple]:
    table = sessions.sessions
    return {row.first_submit: (row.session_id, row.user_id, row.jobs, row.end, row.think_time)
            for row in table.itertuples()}


def test_three_users_by_arrival_gap():
    sessions = find_sessions(_jobs(), "arrival", 3600)
    # Sessions numbered by first submission: user 1 at 0 and 9000; user 2 at 500, 5000 and 30000 (gaps 4500 and
    # 25000 > 3600); user 3 at 100, 8000 and 20000.
    table = _by_first(sessions)
    assert sorted(table) == [0, 100, 500, 5000, 8000, 9000, 20000, 30000]
    ids = {first: row[0] for first, row in table.items()}
    assert [table[f][2] for f in sorted(table)] == [2, 2, 1, 1, 1, 1, 1, 1]
    edges = {(s, p) for s, p in sessions.predecessors.itertuples(index=False)}
    assert edges == {
        (ids[9000], ids[0]),  # user 1: its first session ended at 2000
        (ids[30000], ids[500]), (ids[30000], ids[5000]),  # user 2: both ended; the one at 500 ended after 5000 began
        (ids[8000], ids[100]),  # user 3: ended at 260
        (ids[20000], ids[8000]),  # user 3: the session at 100 ended before the one at 8000 began, so it is implied
    }
    assert table[5000][4] != table[5000][4]  # independent: the session at 500 still ran at 5000
    assert table[9000][4] == 7000 and table[30000][4] == 30000 - 20500 and table[20000][4] == 20000 - 8050
    assert table[8000][4] == 8000 - 260
    offsets = sessions.jobs.set_index("job_id")["offset"]
    assert offsets[2] == 1800 and offsets[8] == 100 and offsets[3] == 0


def test_three_users_by_think_time():
    sessions = find_sessions(_jobs(), "termination", 3600)
    table = _by_first(sessions)
    # user 2's job at 5000 comes while the one at 500 runs (to 20500): same session; 30000 - 20500 > 3600: a new one.
    assert sorted(table) == [0, 100, 500, 8000, 9000, 20000, 30000]
    assert table[500][2] == 2 and table[500][3] == 20500
    assert table[30000][4] == 9500


def test_recorded_dependencies_make_each_job_a_session():
    jobs = _jobs(preceding_job_id=[-1, 1, -1, -1, -1, -1, -1, -1, 99, 9], think_time=[-1, 1700, -1, -1, -1, -1, -1,
                                                                                        -1, 5, 3000])
    assert has_recorded_dependencies(jobs) and not has_recorded_dependencies(_jobs())
    sessions = recorded_sessions(jobs)
    assert len(sessions.sessions) == len(JOBS)
    by_job = sessions.jobs.set_index("job_id")["session_id"]
    edges = {(s, p) for s, p in sessions.predecessors.itertuples(index=False)}
    assert edges == {(by_job[2], by_job[1]), (by_job[10], by_job[9])}  # job 99 is not in the trace
    think = sessions.sessions.set_index("session_id")["think_time"]
    assert think[by_job[2]] == 1700 and think[by_job[10]] == 3000 and math.isnan(think[by_job[9]])


def test_traces_without_users_are_refused_in_one_line():
    jobs = _jobs()
    with pytest.raises(SchedlabError, match="no user ids"):
        find_sessions(jobs.assign(user_id=-1), source="t.swf")
    with pytest.raises(SchedlabError, match="a single user id"):
        find_sessions(jobs.assign(user_id=7), source="t.swf")
    with pytest.raises(SchedlabError, match="threshold"):
        find_sessions(jobs, threshold=-1)


def test_summary_counts_and_overnight_breaks():
    sessions = find_sessions(_jobs(), "arrival", 3600)
    summary = summarize_sessions(sessions)  # no Unix start time: the trace's clock, day 0 from time 0
    assert summary["sessions"] == 8 and summary["users"] == 3 and summary["jobs"] == 10
    assert summary["dependent_share"] == pytest.approx(4 / 8)  # the sessions at 8000, 9000, 20000 and 30000
    # No think time here crosses second 86400: no night; think times 7000, 7740, 9500 and 11950, median halfway.
    assert summary["overnight_share"] == 0
    assert summary["think_time_quantiles"]["all"][2] == pytest.approx((7740 + 9500) / 2)
    night = summarize_sessions(find_sessions(_jobs().assign(submit_time=lambda j: j["submit_time"] + 80_000)))
    # Shifted by 80,000 s: the session at 8000 (now 88,000) follows one ended at 80,260, across second 86,400,
    # and so does the one at 9000 (ended 82,000 -> 89,000); the other two stay on day 1.
    assert night["overnight_share"] == pytest.approx(2 / 4)
    text = format_summary("t.swf", summary)
    assert "10 jobs of 3 users in 8 sessions (arrival delimitation, threshold 1.0 h)" in text


def test_kth_sp2_as_measured_when_asked_for():
    from schedlab.parsers.cleaning import clean
    from schedlab.parsers.swf import read_swf

    trace = read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf"))
    jobs, _ = clean(trace.jobs, trace.machine_procs)
    summary = summarize_sessions(find_sessions(jobs, "arrival", 3600))
    # Issue 50: "about 10,300 sessions (74 % of consecutive sessions of a user start after the previous one ended)"
    assert summary["sessions"] == pytest.approx(10_300, abs=100)
    assert summary["consecutive_after_end_share"] == pytest.approx(0.74, abs=0.005)


def test_the_command_prints_the_summary_and_refuses_a_log_without_users(tmp_path, capsys):
    from schedlab.cli import main

    header = "; MaxProcs: 4\n; UnixStartTime: 0\n"
    line = "{id} {submit} {wait} {run} 1 -1 -1 1 {run} -1 1 {user} -1 -1 -1 -1 -1 -1\n"
    with_users = tmp_path / "users.swf"
    with_users.write_text(header + "".join(
        line.format(id=i, submit=s, wait=w, run=r, user=u) for i, (u, s, w, r) in JOBS.items()))
    assert main(["sessions", str(with_users), "--json", str(tmp_path / "s.json")]) == 0
    out = capsys.readouterr().out
    assert "in 8 sessions" in out and (tmp_path / "s.json").exists()
    without = tmp_path / "anonymous.swf"
    without.write_text(header + "".join(
        line.format(id=i, submit=s, wait=w, run=r, user=-1) for i, (u, s, w, r) in JOBS.items()))
    assert main(["sessions", str(without)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == "schedlab sessions: anonymous.swf: no user ids (SWF field 12 is -1 for every job), so no sessions to find"


def test_sessions_written_and_read_back_are_the_same(tmp_path):
    from schedlab.workloads.sessions import keeping_time_of_day, read_sessions, write_sessions

    sessions = keeping_time_of_day(find_sessions(_jobs(), "termination", 1800))
    write_sessions(sessions, tmp_path)
    back = read_sessions(tmp_path.joinpath)
    for name in ("jobs", "sessions", "predecessors"):
        pd.testing.assert_frame_equal(getattr(back, name), getattr(sessions, name))
    assert (back.delimitation, back.threshold, back.day_clock) == ("termination", 1800.0, 0.0)


def test_sessions_of_an_empty_trace_are_refused_in_one_line(tmp_path, capsys):
    """Issue 69 item 11: an empty file gave an internal error (exit 70)."""
    from schedlab.cli import main

    empty = tmp_path / "empty.swf"
    empty.write_text("")
    assert main(["sessions", str(empty)]) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"schedlab sessions: {empty}: no job lines: the trace is empty or has only a header")
