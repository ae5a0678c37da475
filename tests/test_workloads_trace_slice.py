"""Slices of a real trace (schedlab.workloads.trace_slice)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from schedlab.errors import SchedlabError
from schedlab.workloads.load import offered_load
from schedlab.workloads.log_uniform import log_uniform_jobs
from schedlab.workloads.trace_slice import slice_count, trace_slice


@pytest.fixture(scope="module")
def trace():
    """1,050 jobs of a 100-processor machine, submitted in a shuffled id order."""
    jobs = log_uniform_jobs(1_050, 100, seed=11, target_utilization=0.7)
    shuffled_ids = np.random.default_rng(3).permutation(len(jobs)) + 1
    return jobs.assign(job_id=shuffled_ids).sample(frac=1.0, random_state=5)


def test_slices_are_disjoint_runs_of_consecutive_jobs(trace):
    assert slice_count(trace, 100) == 10
    in_submit_order = trace.sort_values(["submit_time", "job_id"])["job_id"].to_numpy()
    position = {job: i for i, job in enumerate(in_submit_order)}
    seen = set()
    for index in range(10):
        ids = trace_slice(trace, 100, 100, 32, index)["job_id"].to_numpy()
        positions = np.array([position[j] for j in ids])
        assert np.array_equal(positions, np.arange(positions[0], positions[0] + 100))
        assert positions[0] % 100 == 0
        seen.update(ids)
    assert len(seen) == 1_000


def test_first_slices_come_from_all_over_the_trace(trace):
    in_submit_order = trace.sort_values(["submit_time", "job_id"])["job_id"].to_numpy()
    first_positions = [int(np.flatnonzero(in_submit_order == trace_slice(trace, 100, 100, 32, i)["job_id"].iloc[0])[0])
                       for i in range(3)]
    assert first_positions != [0, 100, 200]


def test_a_slice_is_resized_paced_and_starts_at_zero(trace):
    plain = trace_slice(trace, 100, 100, 32, 4)
    paced = trace_slice(trace, 100, 100, 32, 4, target_utilization=1.3)
    assert paced["submit_time"].iloc[0] == 0 and paced["submit_time"].is_monotonic_increasing
    assert offered_load(paced, 32) == pytest.approx(1.3, rel=1e-3)
    assert np.array_equal(paced["job_id"], plain["job_id"])
    assert np.array_equal(paced["run_time"], plain["run_time"])
    original = trace.set_index("job_id").loc[plain["job_id"], "allocated_procs"].to_numpy()
    expected = np.maximum(np.round(original * 32 / 100), 1)
    assert np.array_equal(plain["allocated_procs"], expected)
    assert plain["allocated_procs"].max() <= 32


def test_same_index_same_slice(trace):
    pd.testing.assert_frame_equal(
        trace_slice(trace, 100, 100, 32, 2, 0.8), trace_slice(trace.sample(frac=1.0, random_state=9), 100, 100, 32, 2, 0.8)
    )


def test_asking_past_the_last_slice_says_how_many_there_are(trace):
    with pytest.raises(SchedlabError, match="hold 10 disjoint slices of 100 jobs"):
        trace_slice(trace, 100, 100, 32, 10)
    with pytest.raises(SchedlabError, match="hold 0 disjoint slices"):
        trace_slice(trace.head(50), 100, 100, 32, 0)
