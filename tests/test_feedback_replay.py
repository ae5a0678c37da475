"""Closed-loop replay: the log's own waits regenerate the log's submit times, a faster machine never
delays a session, a hand-worked three-user case, and the command's one-line refusal."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.parsers.schema import as_job_table
from schedlab.simulators.batch.replay import replay
from schedlab.workloads.sessions import find_sessions
from tests.conftest import assert_same_run, both_engines
from tests.test_workloads_sessions import JOBS, _jobs

BIG = 10**6  # processors: no job ever waits for room


class RecordedWaits:
    """Starts every job its logged wait after it arrives (``waits`` by batch index, set by the test)."""

    waits: dict[int, float] = {}

    def __init__(self, order):
        self.order = order

    def schedule(self, machine, t: float, submitted, ended) -> None:
        for job in submitted:
            machine.engine.schedule_pass(machine, machine.submit[job] + self.waits[job])
        for job in list(machine.queue):
            if machine.submit[job] + self.waits[job] <= t:
                machine.start(job, t)


def _batch_waits(jobs) -> dict[int, float]:
    """Logged waits by batch index: the batch is the jobs in stable submit order."""
    order = np.argsort(jobs["submit_time"].to_numpy(), kind="stable")
    return dict(enumerate(jobs["wait_time"].to_numpy(dtype=float)[order]))


def test_the_logs_own_waits_and_run_times_regenerate_its_submit_times():
    from schedlab.parsers.cleaning import clean
    from schedlab.parsers.swf import read_swf
    from tests.conftest import shared_path

    trace = read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf"))
    jobs, _ = clean(trace.jobs, trace.machine_procs)
    jobs = jobs.iloc[:4000].copy()  # a few weeks: the check is per job, the size only costs time
    # The engine kills a job at its request; the log let some run past it, and their ends are the log's.
    jobs["requested_time"] = np.maximum(jobs["requested_time"], jobs["run_time"])
    sessions = find_sessions(jobs)
    RecordedWaits.waits = _batch_waits(jobs)
    result = replay(jobs, BIG, policy=f"{__name__}:RecordedWaits", estimates="actual", sessions=sessions)
    schedule = result.schedule.set_index("job_id")
    logged = jobs.set_index("job_id")["submit_time"]
    dependent_sessions = sessions.sessions.loc[sessions.dependent, "session_id"]
    assert sessions.jobs["session_id"].isin(dependent_sessions).sum() > 1000  # jobs whose arrival the replay decides
    np.testing.assert_allclose(schedule.loc[logged.index, "submit"], logged, rtol=0, atol=1e-6)
    assert result.parameters["arrivals"].startswith("closed-loop")


@pytest.mark.parametrize("policy", ["fcfs", "easy"])
def test_a_uniformly_faster_machine_never_delays_a_session(policy):
    jobs = _jobs()
    sessions = find_sessions(jobs)
    slow = replay(jobs, BIG, policy=policy, sessions=sessions).schedule.set_index("job_id")
    faster = jobs.assign(run_time=jobs["run_time"] / 2, requested_time=jobs["run_time"] / 2)
    fast = replay(faster, BIG, policy=policy, sessions=find_sessions(jobs)).schedule.set_index("job_id")
    assert (fast["submit"] <= slow["submit"]).all()
    assert (fast["submit"] < slow["submit"]).any()


def test_three_users_by_hand():
    # On a machine with room for everything no job waits, so each ends its run after it arrives. User 3's second
    # session (logged at 8000, think time 8000 - 260) now follows an end at 200 + 50 = 250: it arrives at 7990 and
    # ends at 8040; its third (think time 20000 - 8050) arrives at 8040 + 11950 = 19990. User 1's second session
    # (think 7000 after 2000) and user 2's third (9500 after 20500) keep their logged times: nothing they waited
    # for ended at another time. Independent sessions keep theirs.
    jobs = _jobs()
    schedule = replay(jobs, BIG, policy="fcfs", sessions=find_sessions(jobs)).schedule.set_index("job_id")
    expected = {job: submit for job, (_, submit, _, _) in JOBS.items()}
    expected.update({9: 7990.0, 10: 19990.0})
    assert schedule["submit"].to_dict() == expected
    assert (schedule["start"] == schedule["submit"]).all()


def test_a_one_processor_machine_pushes_sessions_later():
    # One processor, FCFS, by hand: job 1 runs 0-100, 7 100-110, 8 200-250, 4 500-20500, then the queued 2
    # 20500-20700 and 5 20700-20800. User 3's second session (job 9, think 7740 after 250) arrives at 7990 and runs
    # 20800-20850; user 1's second (job 3, think 7000) arrives when its first ends, 20700, plus 7000 = 27700; user 3's
    # third (job 10, think 11950) at 20850 + 11950 = 32800; user 2's third (job 6, think 9500) after both earlier
    # sessions, the later ending at 20800: 30300.
    jobs = _jobs()
    schedule = replay(jobs, 1, policy="fcfs", sessions=find_sessions(jobs)).schedule.set_index("job_id")
    assert schedule.loc[[9, 3, 10, 6], "submit"].tolist() == [7990.0, 27700.0, 32800.0, 30300.0]
    assert schedule.loc[[4, 2, 5, 9], "end"].tolist() == [20500.0, 20700.0, 20800.0, 20850.0]


user_rows = st.lists(
    st.tuples(
        st.integers(1, 3),  # user
        st.sampled_from([0, 0, 5, 10, 10, 30, 60, 200, 400]),  # submit: many ties, and gaps that cut sessions
        st.integers(1, 4),  # procs
        st.sampled_from([10, 20, 40, 60]),  # requested
        st.sampled_from([5, 10, 20, 40, 60, 90]),  # run: often shorter than requested
        st.sampled_from([0, 0, 15, 100]),  # logged wait: the log's ends decide which sessions depend
    ),
    min_size=1,
    max_size=40,
)


def _user_jobs(rows):
    rows = [*rows, (4, 0, 1, 10, 10, 0)]  # a second user whatever was drawn: one user has no sessions to tell apart
    user, submit, procs, requested, run, wait = (np.array(column) for column in zip(*rows))
    return as_job_table({"job_id": np.arange(1, len(rows) + 1), "user_id": user, "submit_time": submit,
                         "wait_time": wait, "run_time": run, "requested_time": requested,
                         "allocated_procs": procs, "requested_procs": procs})


@settings(max_examples=150, deadline=None)
@given(
    user_rows,
    st.sampled_from(["fcfs", "easy", "conservative"]),
    st.sampled_from(["fcfs", "wfp", "sjf"]),
    st.sampled_from(["default", "pyss"]),
    st.sampled_from(["arrival", "termination"]),
    st.sampled_from([20.0, 90.0]),
    st.booleans(),
)
def test_the_compiled_closed_loop_equals_the_reference_one(rows, policy, order, conventions, delimitation,
                                                          threshold, keep_time_of_day):
    from schedlab.workloads.sessions import keeping_time_of_day

    jobs = _user_jobs(rows)
    sessions = find_sessions(jobs, delimitation, threshold)
    if keep_time_of_day:
        sessions = keeping_time_of_day(sessions, unix_start_time=86_300)  # days turn 100 s into the log
    assert_same_run(*both_engines(jobs, 4, policy=policy, order=order, conventions=conventions, sessions=sessions))


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_the_compiled_closed_loop_equals_the_reference_one_on_kth(policy):
    from schedlab.parsers.cleaning import clean
    from schedlab.parsers.swf import read_swf
    from tests.conftest import shared_path

    trace = read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf"))
    jobs, _ = clean(trace.jobs, trace.machine_procs)
    jobs = jobs.iloc[:6000]
    compiled, reference = both_engines(jobs, 100, policy=policy, conventions="pyss", sessions=find_sessions(jobs))
    assert_same_run(compiled, reference)
    assert (compiled.schedule["submit"].to_numpy() != jobs.sort_values("submit_time", kind="stable")
            ["submit_time"].to_numpy()).sum() > 500  # the closed loop moved many arrivals


def test_open_loop_stays_the_default_and_says_so():
    jobs = _jobs()
    result = replay(jobs, BIG)
    assert result.parameters["arrivals"] == "open-loop"
    assert "arrivals=open-loop" in result.settings()


def test_a_session_kept_to_its_time_of_day_never_starts_earlier_in_its_day():
    from schedlab.simulators.batch.feedback import SessionArrivals, SessionTables
    from schedlab.workloads.sessions import keeping_time_of_day

    jobs = _jobs()
    kept = keeping_time_of_day(find_sessions(jobs))  # no Unix start time: time 0 is a midnight
    assert kept.day_clock == 0
    # Ample processors: user 3's second session would arrive at 7990 (see the hand-worked case), earlier in the
    # day than its logged 8000, so it waits for 8000; it ends at 8050 and the third arrives 11950 later, at 20000,
    # its logged time of day too. The others arrive when they did before.
    schedule = replay(jobs, BIG, policy="fcfs", sessions=kept).schedule.set_index("job_id")
    assert schedule.loc[[9, 10, 3, 6], "submit"].tolist() == [8000.0, 20000.0, 9000.0, 30000.0]
    # Ready later in the day than logged: kept; ready the next day earlier than logged: moved to the logged time.
    arrivals = SessionArrivals(SessionTables.of(kept, np.array(sorted(JOBS))))
    session_id = kept.jobs.set_index("job_id").loc[9, "session_id"]
    session = int(np.searchsorted(np.unique(kept.jobs["session_id"]), session_id))  # numbered in order of their ids
    assert arrivals.first_arrival(session, 9_000.0) == 9_000.0
    assert arrivals.first_arrival(session, 86_400.0 + 3_600.0) == 86_400.0 + 8_000.0
    assert "never earlier in the day than logged" in replay(jobs, BIG, sessions=kept).settings()


def _write_swf(path, users: bool) -> None:
    from schedlab.parsers.header import SwfHeader
    from schedlab.parsers.swf import write_swf

    jobs = _jobs()
    write_swf(path, jobs.assign(requested_time=jobs["run_time"], user_id=jobs["user_id"] if users else -1),
              SwfHeader(version="2.2", max_procs=4))


def test_a_closed_loop_report_says_which_mode_each_trace_ran_in(tmp_path):
    import luigi

    from pipeline import settings
    from pipeline.replay_tasks import ReplayTrace
    from pipeline.base import read_json

    traces = tmp_path / "traces"
    traces.mkdir()
    _write_swf(traces / "users.swf", users=True)
    _write_swf(traces / "anonymous.swf", users=False)
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[str(traces)]):
        tasks = {name: ReplayTrace(trace=name, policy="fcfs", feedback=True) for name in ("users", "anonymous")}
        assert luigi.build(list(tasks.values()), local_scheduler=True, workers=1)
        arrivals = {name: read_json(task.output_file("summary.json"))["parameters"]["arrivals"]
                    for name, task in tasks.items()}
    assert arrivals["users"] == "closed-loop (arrival sessions, threshold 3600 s)"
    from pipeline.replay_tasks import TraceSessions

    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[str(traces)]):
        # One sessions task per trace, whatever the policies replayed from it.
        assert {task.requires()["sessions"] for task in tasks.values()} == {TraceSessions(trace=name) for name in tasks}
        found = {name: read_json(TraceSessions(trace=name).output_file("sessions.json")) for name in tasks}
    assert found["users"]["found"] and found["users"]["summary"]["sessions"] == 8
    assert arrivals["anonymous"] == ("open-loop (closed-loop asked for, but anonymous: no user ids (SWF field 12 "
                                     "is -1 for every job), so no sessions to find)")


def test_an_edited_sessions_file_never_reaches_a_closed_loop_replay(tmp_path):
    """Issue 69 item 3: the closed-loop replay reads TraceSessions' files through their digests."""
    import luigi

    from pipeline import settings
    from pipeline.base import read_json
    from pipeline.replay_tasks import ReplayTrace, TraceSessions
    from schedlab.output_digests import DamagedOutput

    traces = tmp_path / "traces"
    traces.mkdir()
    _write_swf(traces / "users.swf", users=True)
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[str(traces)]):
        sessions = TraceSessions(trace="users")
        assert luigi.build([sessions], local_scheduler=True, workers=1)
        found = sessions.output_file("sessions_found.json")
        found.write_text(found.read_text().replace('"threshold": 3600.0', '"threshold": 9600.0'))
        with pytest.raises(DamagedOutput, match=r"sessions_found\.json: damaged cached output"):
            sessions.sessions()
        # The build finds the damaged sessions incomplete, finds them again, and replays on the true ones.
        replay = ReplayTrace(trace="users", policy="fcfs", feedback=True)
        assert luigi.build([replay], local_scheduler=True, workers=1, log_level="CRITICAL")
        assert '"threshold": 3600.0' in sessions.output_file("sessions_found.json").read_text()
        arrivals = read_json(replay.output_file("summary.json"))["parameters"]["arrivals"]
        assert arrivals == "closed-loop (arrival sessions, threshold 3600 s)"
