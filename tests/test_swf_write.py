"""write_swf: exact round trips through read_swf, compact numbers, atomic and deterministic files."""

from __future__ import annotations

import gzip
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.parsers.header import SwfHeader, parse_header
from schedlab.parsers.schema import FLOAT_FIELDS, SWF_FIELDS, as_job_table
from schedlab.parsers.swf import TIME_FIELDS, format_job_lines, read_swf, write_swf
from tests.conftest import shared_path

DATA = Path(__file__).resolve().parent / "data"


def round_trip(trace, directory: Path, name: str = "out.swf"):
    path = directory / name
    write_swf(path, trace)
    return read_swf(path, machine_procs=trace.machine_procs_hint)


@pytest.mark.parametrize("fixture", ["small_header.swf", "extended.swf"])
def test_round_trip_of_fixtures(tmp_path, fixture):
    original = read_swf(DATA / fixture)
    again = round_trip(original, tmp_path)
    pd.testing.assert_frame_equal(again.jobs, original.jobs[list(SWF_FIELDS)])  # extra columns are not SWF
    assert again.header == original.header


def test_numbers_are_written_compactly(tmp_path):
    lines = format_job_lines(read_swf(DATA / "small_header.swf").jobs)
    assert lines[1] == "2 5 0 3600 64 -1 -1 64 3600 -1 1 2 1 -1 1 1 -1 -1"
    assert lines[4] == "5 120.25 3 12.5 2 -1 1024 2 120 2048 1 3 2 7 1 1 4 30"


def test_header_comes_first_and_a_bare_table_has_none(tmp_path):
    trace = read_swf(DATA / "small_header.swf")
    write_swf(tmp_path / "with.swf", trace)
    text = (tmp_path / "with.swf").read_text()
    assert text.startswith(";  Hand-written fixture")
    assert "; MaxProcs: 64\n" in text
    write_swf(tmp_path / "bare.swf", trace.jobs)
    assert (tmp_path / "bare.swf").read_text().splitlines()[0] == "1 0 10 100 4 95.5 -1 4 200 -1 1 1 1 -1 1 1 -1 -1"
    assert read_swf(tmp_path / "bare.swf").header == SwfHeader()


def test_an_explicit_header_replaces_the_traces(tmp_path):
    trace = read_swf(DATA / "small_header.swf")
    write_swf(tmp_path / "out.swf", trace, header=SwfHeader(version="2.2", max_procs=128))
    assert read_swf(tmp_path / "out.swf").header == SwfHeader(version="2.2", max_procs=128)


def test_gzip_output_is_deterministic_and_reads_back(tmp_path):
    trace = read_swf(DATA / "small_header.swf")
    first, second = tmp_path / "a.swf.gz", tmp_path / "b.swf.gz"
    write_swf(first, trace)
    write_swf(second, trace)
    assert first.read_bytes()[:2] == b"\x1f\x8b"
    assert first.read_bytes() == second.read_bytes()
    assert gzip.decompress(first.read_bytes()).startswith(b";  Hand-written")  # plain gzip, no schedlab needed
    again = read_swf(first)
    pd.testing.assert_frame_equal(again.jobs, trace.jobs)
    write_swf(tmp_path / "plain.swf", trace)
    assert again.sha256 == read_swf(tmp_path / "plain.swf").sha256


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda jobs: jobs.drop(columns=["status", "think_time"]), "lacks SWF columns: status, think_time"),
        (lambda jobs: jobs.assign(run_time=np.nan), "run_time has NaN or infinite values"),
        (lambda jobs: jobs.assign(allocated_procs=2.5), "allocated_procs has fractional values"),
        (lambda jobs: jobs.assign(user_id="alice"), "user_id is not numeric"),
    ],
)
def test_tables_swf_cannot_hold_are_refused_and_the_old_file_kept(tmp_path, change, message):
    target = tmp_path / "out.swf"
    target.write_text("previous content\n")
    jobs = change(read_swf(DATA / "small_header.swf").jobs)
    with pytest.raises(ValueError, match=message):
        write_swf(target, jobs)
    assert target.read_text() == "previous content\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.swf"]


def test_integral_floats_in_integer_columns_are_accepted(tmp_path):
    jobs = read_swf(DATA / "small_header.swf").jobs.astype({"allocated_procs": "float64"})
    write_swf(tmp_path / "out.swf", jobs)
    assert read_swf(tmp_path / "out.swf").jobs["allocated_procs"].tolist() == [4, 64, -1, 1, 2, 16]


def test_header_round_trip_keeps_continuations_comments_and_order():
    header = SwfHeader(
        version="2.2",
        computer="two\nlines",
        max_procs=8,
        unix_start_time=0,
        queues=["1 batch", "2 long queue"],
        notes=["first\nsecond: not a key", "another"],
        other={"Information": "http://a\nhttp://b", "MaxQueues": "2"},
        comments=["free text", "see: looks like a key"],
    )
    lines = list(enumerate(header.to_lines(), start=1))
    parsed, warnings = parse_header(lines, report=lambda *problem: pytest.fail(f"unexpected {problem}"))
    assert parsed == header
    assert warnings == []


# The ranges a trace may hold: times under 2**53 s in magnitude, sizes from -1 (unknown) up.
LARGEST = 2**53 - 1
integers = st.integers(min_value=-1, max_value=LARGEST)
times = st.floats(min_value=-LARGEST, max_value=LARGEST, allow_nan=False, width=64)
sizes = st.floats(min_value=-1, max_value=LARGEST, allow_nan=False, width=64)


@st.composite
def job_tables(draw):
    n = draw(st.integers(min_value=0, max_value=15))
    columns = {}
    for name in SWF_FIELDS:
        floats = times if name in TIME_FIELDS else sizes
        values = st.one_of(floats, integers.map(float)) if name in FLOAT_FIELDS else integers
        columns[name] = draw(st.lists(values, min_size=n, max_size=n))
    # Constraints of a valid table: unique ids, sorted non-negative relative submit times.
    columns["job_id"] = sorted(draw(st.sets(integers, min_size=n, max_size=n)))
    submit = st.floats(min_value=0, max_value=3e8, allow_nan=False)
    columns["submit_time"] = sorted(draw(st.lists(submit, min_size=n, max_size=n)))
    return as_job_table(columns)


@settings(max_examples=60, deadline=None)
@given(job_tables())
def test_any_valid_table_round_trips_exactly(jobs):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "random.swf"
        write_swf(path, jobs)
        again = read_swf(path, machine_procs=1_000_000).jobs
    pd.testing.assert_frame_equal(again, jobs)


@pytest.mark.shared
@pytest.mark.parametrize(
    "name", ["KTH-SP2-1996-2.2.swf", "MetaCentrum-wagap-2013.extended.swf", "CEA-Curie-2011-2.1-cln.swf.gz"]
)
def test_real_traces_round_trip(tmp_path, name):
    original = read_swf(shared_path("traces", name))
    again = round_trip(original, tmp_path)
    pd.testing.assert_frame_equal(again.jobs, original.jobs[list(SWF_FIELDS)])
    assert again.header == original.header
