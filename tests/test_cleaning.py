"""Cleaning filters: each removes exactly its kind of job, counts it, and leaves the input alone."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from schedlab.parsers.cleaning import (
    DEFAULT_STEPS,
    clean,
    drop_cancelled_before_start,
    drop_nonpositive_runtime,
    drop_nonpositive_size,
    drop_oversized,
    effective_procs,
)
from schedlab.parsers.schema import as_job_table
from schedlab.parsers.swf import read_swf
from tests.conftest import shared_path

MACHINE = 64

# job_id: (status, run_time, allocated_procs, requested_procs), and why it is there
ROWS = {
    1: (1, 100, 4, 4),  # ordinary: kept by every filter
    2: (5, -1, -1, 8),  # cancelled while queued
    3: (5, 0, 8, 8),  # cancelled at the moment it started
    4: (5, 500, 8, 8),  # cancelled while running: used the machine, kept
    5: (0, 0, 2, 2),  # failed at once: run time 0
    6: (1, -1, 2, 2),  # run time unknown
    7: (1, 50, -1, -1),  # size unknown
    8: (1, 50, 0, -1),  # no processors
    9: (1, 50, -1, 16),  # size known only from the request
    10: (1, 50, 65, 65),  # larger than the machine
    11: (1, 50, -1, 65),  # requests more than the machine
    12: (1, 50, 64, 128),  # allocated fits: allocation counts, not the request
}


@pytest.fixture
def jobs() -> pd.DataFrame:
    status, run_time, allocated, requested = zip(*ROWS.values())
    return as_job_table(
        {
            "job_id": list(ROWS),
            "submit_time": [10.0 * i for i in ROWS],
            "status": status,
            "run_time": run_time,
            "allocated_procs": allocated,
            "requested_procs": requested,
        }
    )


@pytest.mark.parametrize(
    "step, removed_ids",
    [
        (drop_cancelled_before_start, [2, 3]),
        (drop_nonpositive_runtime, [2, 3, 5, 6]),
        (drop_nonpositive_size, [7, 8]),
        (drop_oversized, [10, 11]),
    ],
)
def test_each_filter_removes_exactly_its_jobs(jobs, step, removed_ids):
    kept, removed = step(jobs, MACHINE)
    assert removed == len(removed_ids)
    assert kept["job_id"].tolist() == [i for i in ROWS if i not in removed_ids]
    assert kept.index.tolist() == list(range(len(kept)))


def test_effective_procs_prefers_allocation_then_request(jobs):
    assert effective_procs(jobs).tolist() == [4, 8, 8, 8, 2, 2, -1, -1, 16, 65, 65, 64]


def test_clean_runs_the_default_steps_in_order_and_reports_them(jobs):
    kept, report = clean(jobs, MACHINE)
    assert kept["job_id"].tolist() == [1, 4, 9, 12]
    assert [(s.name, s.removed) for s in report.steps] == [
        ("drop_cancelled_before_start", 2),
        ("drop_nonpositive_runtime", 2),  # jobs 5 and 6; 2 and 3 were counted by the first step
        ("drop_nonpositive_size", 2),
        ("drop_oversized", 2),
    ]
    assert (report.jobs_before, report.jobs_after, report.machine_procs) == (12, 4, MACHINE)


def test_descriptions_come_from_the_filters_docstrings(jobs):
    _, report = clean(jobs, MACHINE)
    assert report.steps[0].description == (
        "Drop jobs cancelled before they started: status 5 (cancelled) and run time <= 0."
    )
    assert all(step.description and "\n" not in step.description for step in report.steps)
    assert report.as_records()[3] == {
        "name": "drop_oversized",
        "description": report.steps[3].description,
        "removed": 2,
    }


def test_summary_has_one_line_per_step(jobs):
    _, report = clean(jobs, MACHINE)
    lines = report.summary().splitlines()
    assert lines[0] == "cleaning (64 processors): 12 jobs in, 4 kept"
    assert len(lines) == 1 + len(DEFAULT_STEPS)
    assert "drop_nonpositive_size" in lines[3] and "removed       2" in lines[3]


def test_clean_never_changes_its_input_and_is_deterministic(jobs):
    before = jobs.copy(deep=True)
    first, first_report = clean(jobs, MACHINE)
    second, second_report = clean(jobs, MACHINE)
    pd.testing.assert_frame_equal(jobs, before)
    pd.testing.assert_frame_equal(first, second)
    assert first_report == second_report


def test_custom_steps_and_their_order(jobs):
    kept, report = clean(jobs, 16, steps=[drop_oversized, drop_cancelled_before_start])
    assert [s.name for s in report.steps] == ["drop_oversized", "drop_cancelled_before_start"]
    assert [s.removed for s in report.steps] == [3, 2]  # 10, 11 and 12 exceed 16; then 2 and 3
    assert kept["job_id"].tolist() == [1, 4, 5, 6, 7, 8, 9]


def test_clean_keeps_extra_columns(jobs):
    kept, _ = clean(jobs.assign(extra_1=[f"x{i}" for i in ROWS]), MACHINE)
    assert kept["extra_1"].tolist() == ["x1", "x4", "x9", "x12"]


@pytest.mark.parametrize("machine_procs", [None, 0, -5])
def test_a_machine_size_is_required(jobs, machine_procs):
    with pytest.raises(ValueError, match="machine_procs"):
        clean(jobs, machine_procs)


def test_empty_table(jobs):
    kept, report = clean(jobs.iloc[:0], MACHINE)
    assert len(kept) == 0 and report.jobs_after == 0
    assert [s.removed for s in report.steps] == [0, 0, 0, 0]


@pytest.mark.shared
def test_kth_cleaning_counts():
    trace = read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf"))
    kept, report = clean(trace.jobs, trace.machine_procs)
    assert [s.removed for s in report.steps] == [0, 8, 0, 0]
    assert len(kept) == 28489 - 8
    assert (kept["run_time"] > 0).all() and (effective_procs(kept) <= 100).all()
    assert np.array_equal(kept["job_id"], trace.jobs.loc[trace.jobs["run_time"] > 0, "job_id"])


def test_numpy_columns_are_cleaned_as_the_table_is(jobs):
    """``schedlab replay`` cleans ``Trace.columns`` without pandas: the same jobs kept, the same counts."""
    columns = {name: jobs[name].to_numpy() for name in jobs.columns}
    kept_table, table_report = clean(jobs, MACHINE)
    kept_columns, columns_report = clean(columns, MACHINE)
    assert columns_report == table_report
    assert list(kept_columns["job_id"]) == list(kept_table["job_id"]) == [1, 4, 9, 12]
    assert set(kept_columns) == set(jobs.columns)
    for name in jobs.columns:
        np.testing.assert_array_equal(kept_columns[name], kept_table[name].to_numpy())
