"""Policies of one's own written as a priority (``simulators/batch/priority.py``): the compiled loop gives
the reference engine's schedule, a hand-written class of the same rule agrees, bad keys are refused."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.errors import SchedlabError
from schedlab.simulators.batch.priority import prioritized
from schedlab.simulators.batch.replay import replay
from tests.conftest import assert_same_run, both_engines, make_jobs, shared_path
from tests.test_batch_compiled import CAPACITY, tied_rows


def widest(jobs):
    return -jobs.procs


def shortest(jobs):
    return jobs.estimate


def smallest_area(jobs):
    return jobs.procs * jobs.estimate


def latest_first(jobs):
    return -jobs.submit


def ties_everywhere(jobs):
    return jobs.procs % 2  # two classes: ties keep the queue order


KEYS = {function.__name__: function for function in (widest, shortest, smallest_area, latest_first, ties_everywhere)}
POLICIES = {(scheme, name): prioritized(scheme, key) for scheme in ("fcfs", "easy", "conservative")
            for name, key in KEYS.items()}


def reference_to(scheme: str, key: str) -> str:
    return f"{__name__}:{scheme.upper()}_{key.upper()}"


for (scheme, name), policy in POLICIES.items():
    globals()[f"{scheme.upper()}_{name.upper()}"] = policy


@settings(max_examples=150, deadline=None)
@given(
    tied_rows,
    st.sampled_from(["fcfs", "easy", "conservative"]),
    st.sampled_from(sorted(KEYS)),
    st.sampled_from(["default", "pyss"]),
    st.sampled_from(["requested", "actual"]),
)
def test_a_priority_runs_compiled_as_on_the_reference_engine(rows, scheme, key, conventions, estimates):
    assert_same_run(*both_engines(make_jobs(rows), CAPACITY, policy=reference_to(scheme, key),
                                  conventions=conventions, estimates=estimates))


def test_a_shortest_first_priority_is_the_built_in_easy_under_sjf_on_kth():
    jobs = read_kth(8000)
    ours = replay(jobs, 100, policy=reference_to("easy", "shortest"), conventions="pyss")
    built_in = replay(jobs, 100, policy="easy", order="sjf", conventions="pyss")
    assert ours.schedule.equals(built_in.schedule)
    assert ours.parameters["policy"] == reference_to("easy", "shortest")


def test_under_another_queue_order_it_runs_on_the_reference_engine_and_says_why_not_compiled():
    jobs = make_jobs([(0, 2, 10, 10), (1, 8, 10, 10), (2, 1, 5, 5)])
    replay(jobs, CAPACITY, policy=reference_to("easy", "widest"), order="sjf")
    with pytest.raises(SchedlabError, match="prioritized policies .* under the fcfs order"):
        replay(jobs, CAPACITY, policy=reference_to("easy", "widest"), order="sjf", engine="compiled")


BAD_SHAPE = prioritized("easy", lambda jobs: jobs.procs[:1])
WITH_NAN = prioritized("easy", lambda jobs: np.where(jobs.procs > 4, np.nan, 1.0))


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("policy, message", [
    ("BAD_SHAPE", r"returned shape \(1,\) for 3 jobs; one number per job"),
    ("WITH_NAN", "NaN for 1 job\\(s\\), the first job 2; every job needs a comparable number"),
])
def test_a_key_that_is_not_one_number_per_job_is_refused_in_one_line(engine, policy, message):
    jobs = make_jobs([(0, 2, 10, 10), (1, 8, 10, 10), (2, 1, 5, 5)])
    with pytest.raises(SchedlabError, match=message):
        replay(jobs, CAPACITY, policy=f"{__name__}:{policy}", engine=engine)


def test_only_a_built_in_scheme_can_be_prioritized():
    with pytest.raises(SchedlabError, match="'mine' is not a built-in policy"):
        prioritized("mine", widest)


def read_kth(jobs: int):
    from schedlab.parsers.swf import read_swf

    return read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf")).jobs.iloc[:jobs]
