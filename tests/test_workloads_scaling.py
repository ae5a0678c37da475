"""Half-synthetic load scaling of a real trace."""

import numpy as np
import pandas as pd
import pytest

from schedlab.parsers.header import SwfHeader
from schedlab.parsers.schema import as_job_table
from schedlab.errors import SchedlabError
from schedlab.workloads.scaling import resize_jobs, scale_trace, scaled_header

PROCS = 32


@pytest.fixture
def jobs():
    rng = np.random.default_rng(1)
    n = 2000
    return as_job_table(
        {
            "job_id": np.arange(1, n + 1),
            "submit_time": 1000 + np.cumsum(rng.integers(0, 900, n)).astype(float),
            "wait_time": rng.integers(0, 500, n),
            "run_time": rng.integers(1, 5000, n),
            "allocated_procs": rng.integers(1, PROCS + 1, n),
            "requested_procs": rng.integers(1, PROCS + 1, n),
            "user_id": rng.integers(1, 50, n),
        }
    )


def work(jobs):
    return float((jobs["allocated_procs"] * jobs["run_time"]).sum())


def test_every_gap_is_multiplied_by_one_constant_to_reach_the_target(jobs):
    before_span = jobs["submit_time"].iloc[-1] - jobs["submit_time"].iloc[0]
    current = work(jobs) / (PROCS * before_span)
    for target in (0.25, 0.5, 0.75, 2.0):
        scaled = scale_trace(jobs, PROCS, target)
        assert scaled.gap_scale == pytest.approx(current / target)
        offsets = (jobs["submit_time"] - jobs["submit_time"].iloc[0]).to_numpy()
        expected = jobs["submit_time"].iloc[0] + np.floor(offsets * scaled.gap_scale)
        assert (scaled.jobs["submit_time"].to_numpy() == expected).all()
        span = scaled.jobs["submit_time"].iloc[-1] - scaled.jobs["submit_time"].iloc[0]
        assert work(scaled.jobs) / (PROCS * span) == pytest.approx(target, rel=1e-3)
        assert scaled.offered_load == pytest.approx(target, rel=1e-3)


def test_only_submit_and_wait_times_change(jobs):
    scaled = scale_trace(jobs, PROCS, 0.5).jobs
    unchanged = [c for c in jobs.columns if c not in ("submit_time", "wait_time")]
    pd.testing.assert_frame_equal(scaled[unchanged], jobs[unchanged])
    assert (scaled["wait_time"] == -1).all()


def test_a_window_packs_the_trace_to_the_target_load(jobs):
    window = 3 * 86_400.0
    target = 0.9
    scaled = scale_trace(jobs, PROCS, target, window_seconds=window)
    kept = scaled.jobs
    assert len(kept) < len(jobs)
    pd.testing.assert_series_equal(kept["job_id"], jobs["job_id"].iloc[: len(kept)])  # a prefix, in order
    assert kept["submit_time"].iloc[-1] - kept["submit_time"].iloc[0] < window
    largest_job = (jobs["allocated_procs"] * jobs["run_time"]).max()
    assert work(kept) / (PROCS * window) == pytest.approx(target, abs=largest_job / (PROCS * window))
    assert scaled.offered_load == pytest.approx(work(kept) / (PROCS * window))
    # the first job left out would land at or after the window's end
    next_offset = jobs["submit_time"].iloc[len(kept)] - jobs["submit_time"].iloc[0]
    assert next_offset * scaled.gap_scale >= window


def test_a_window_the_whole_trace_cannot_fill_is_refused(jobs):
    whole = work(jobs) / (PROCS * 1e9)
    with pytest.raises(SchedlabError, match="below the target"):
        scale_trace(jobs, PROCS, whole * 2, window_seconds=1e9)


def test_resizing_clips_or_rescales_sizes(jobs):
    clipped = resize_jobs(jobs, PROCS, 8, "clip")
    assert (clipped["allocated_procs"] == np.minimum(jobs["allocated_procs"], 8)).all()
    rescaled = resize_jobs(jobs, PROCS, 8, "rescale")
    assert (rescaled["allocated_procs"] == np.maximum(np.round(jobs["allocated_procs"] / 4), 1)).all()
    unknown = jobs.assign(requested_procs=-1)
    assert (resize_jobs(unknown, PROCS, 8, "rescale")["requested_procs"] == -1).all()
    scaled = scale_trace(jobs, PROCS, 0.5, resize_procs=8, resize_mode="rescale")
    assert scaled.machine_procs == 8 and scaled.offered_load == pytest.approx(0.5, rel=1e-3)
    with pytest.raises(SchedlabError, match="1..32"):
        resize_jobs(jobs, PROCS, 64, "clip")
    with pytest.raises(SchedlabError, match="resize mode"):
        resize_jobs(jobs, PROCS, 8, "shrink")


@pytest.mark.parametrize(("target", "window"), [(-0.5, None), (0.0, None), (0.5, 0.0), (0.5, -10.0)])
def test_bad_requests_are_refused(jobs, target, window):
    with pytest.raises(SchedlabError):
        scale_trace(jobs, PROCS, target, window_seconds=window)


def test_the_header_tells_what_was_done(jobs):
    original = SwfHeader(version="2.2", max_jobs=2000, max_procs=PROCS, max_nodes=PROCS, start_time="Mon", notes=["old"])
    scaled = scale_trace(jobs, PROCS, 0.5, window_seconds=86_400.0)
    header = scaled_header(original, scaled, 0.5, 86_400.0)
    assert header.max_jobs == len(scaled.jobs) and header.max_procs == PROCS and header.max_nodes == PROCS
    assert header.start_time is None and header.notes[0] == "old"
    assert "target load 0.5" in header.notes[1] and "86400 s" in header.notes[1]
    resized = scale_trace(jobs, PROCS, 0.5, resize_procs=8)
    assert scaled_header(original, resized, 0.5).max_procs == 8
