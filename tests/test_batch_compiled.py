"""The compiled event loop against the interpreted reference engine.

Both must give the same schedule, the same promises (the invariant checker reads
them) and the same queue/busy series, for every built-in policy and order, under
both convention profiles and every tie-breaking override.  Random workloads are
drawn with few distinct times and lengths so that equal-time events, early
terminations and compressions are the common case, not the rare one.
"""


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.parsers.swf import read_swf
from schedlab.errors import SchedlabError
from schedlab.simulators.batch.replay import replay
from tests.conftest import assert_same_run, both_engines, make_jobs, shared_path

CAPACITY = 8

tied_rows = st.lists(
    st.tuples(
        st.sampled_from([0, 0, 5, 10, 10, 30, 60]),  # submit: many ties
        st.integers(1, CAPACITY),  # procs
        st.sampled_from([10, 20, 40, 60]),  # requested
        st.sampled_from([5, 10, 20, 40, 60, 90]),  # run: often shorter than requested
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(
    tied_rows,
    st.sampled_from(["fcfs", "easy", "conservative"]),
    st.sampled_from(["fcfs", "wfp", "sjf"]),
    st.sampled_from(["default", "pyss"]),
    st.sampled_from([None, "terminations_first", "submissions_first"]),
    st.sampled_from([None, "per_event", "per_timestamp"]),
    st.sampled_from(["requested", "actual"]),
)
def test_compiled_loop_equals_the_reference_engine(rows, policy, order, conventions, same_time, passes, estimates):
    assert_same_run(*both_engines(make_jobs(rows), CAPACITY, policy=policy, order=order, conventions=conventions,
                                  same_time=same_time, passes=passes, estimates=estimates))


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
@pytest.mark.parametrize("order", ["fcfs", "wfp", "sjf"])
def test_compiled_loop_equals_the_reference_engine_on_kth(policy, order):
    jobs = read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf")).jobs.iloc[:6000]
    assert_same_run(*both_engines(jobs, 100, policy=policy, order=order, conventions="pyss"))


def test_a_plugin_policy_runs_on_the_reference_engine_and_refuses_the_compiled_one(tmp_path):
    (tmp_path / "class_policy.py").write_text(
        "from schedlab.simulators.batch.easy import EasyBackfilling\n\n\n"
        "class Widest(EasyBackfilling):\n"
        "    def __init__(self, order):\n"
        "        super().__init__(lambda machine, t: sorted(order(machine, t), key=lambda j: -machine.procs[j]))\n")
    jobs = make_jobs([(0, 2, 10, 10), (1, 8, 10, 10), (2, 1, 5, 5)])
    plugin = f"{tmp_path / 'class_policy.py'}:Widest"
    default = replay(jobs, CAPACITY, policy=plugin)
    assert default.schedule.equals(replay(jobs, CAPACITY, policy=plugin, engine="reference").schedule)
    with pytest.raises(SchedlabError, match="compiled engine runs the built-in"):
        replay(jobs, CAPACITY, policy=plugin, engine="compiled")


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_progress_is_reported_up_to_every_job_ended_without_changing_the_schedule(engine):
    jobs = read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf")).jobs.iloc[:9000]
    calls = []
    reported = replay(jobs, 100, policy="conservative", conventions="pyss", engine=engine,
                      progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (9000, 9000)
    assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))
    assert reported.schedule.equals(replay(jobs, 100, policy="conservative", conventions="pyss", engine=engine).schedule)
