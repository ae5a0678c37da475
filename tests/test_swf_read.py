"""read_swf on well-formed input: the header, the canonical table, and the SWF variants it accepts."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from schedlab.parsers.schema import DTYPES, SWF_FIELDS
from schedlab.parsers.swf import read_swf
from tests.conftest import shared_path

DATA = Path(__file__).resolve().parent / "data"
SMALL = DATA / "small_header.swf"
EXTENDED = DATA / "extended.swf"


@pytest.fixture(scope="module")
def small():
    return read_swf(SMALL)


def test_header_fields(small):
    header = small.header
    assert (header.version, header.computer, header.installation) == ("2.2", "Test cluster", "schedlab test suite")
    assert (header.max_jobs, header.max_records, header.max_nodes, header.max_procs) == (6, 6, 32, 64)
    assert (header.unix_start_time, header.time_zone, header.time_zone_string) == (1000000000, 3600, "Europe/Stockholm")
    assert header.start_time == "Sun Sep 09 03:46:40 CEST 2001"
    assert header.end_time == "Sun Sep 09 05:00:00 CEST 2001"
    assert header.queues == ["1 batch", "0 interactive"]
    assert header.partitions == ["1 all"]
    assert header.notes == ["a note that goes on\nover a second line", "a second note"]
    assert header.other == {
        "Acknowledge": "nobody in particular",
        "Information": "http://example.invalid/first\nhttp://example.invalid/second",
        "Preemption": "No",
        "MaxQueues": "2",
        "MaxPartitions": "1",
    }
    assert header.comments == ["Hand-written fixture for schedlab's SWF tests, not a real log."]


def test_canonical_columns_dtypes_and_values(small):
    jobs = small.jobs
    assert list(jobs.columns) == list(SWF_FIELDS)
    assert dict(jobs.dtypes) == DTYPES
    assert jobs["job_id"].tolist() == [1, 2, 3, 4, 5, 6]
    assert jobs["allocated_procs"].tolist() == [4, 64, -1, 1, 2, 16]  # "64.0" is read as the integer 64
    assert jobs.loc[4, ["submit_time", "run_time", "used_memory", "think_time"]].tolist() == [120.25, 12.5, 1024, 30]
    assert jobs["avg_cpu_time"].iloc[0] == 95.5


def test_clean_file_has_no_warnings_and_a_content_checksum(small):
    assert small.warnings == []
    assert small.skipped == {}
    assert small.sha256 == hashlib.sha256(SMALL.read_bytes()).hexdigest()
    assert small.path == SMALL


def test_machine_procs_prefers_header_max_procs(small):
    assert small.machine_procs == 64


def test_machine_procs_falls_back_to_max_nodes(tmp_path):
    path = tmp_path / "nodes.swf"
    path.write_text("; MaxNodes: 16\n" + _job_line(1, 0, procs=8) + "\n")
    assert read_swf(path).machine_procs == 16


def test_machine_procs_argument_serves_headerless_files(tmp_path):
    path = tmp_path / "bare.swf"
    path.write_text(_job_line(1, 0, procs=8) + "\n")
    trace = read_swf(path, machine_procs=128)
    assert trace.machine_procs == 128
    assert trace.warnings == []


def test_machine_size_inferred_with_a_warning(tmp_path):
    path = tmp_path / "bare.swf"
    path.write_text(_job_line(1, 0, procs=8) + "\n" + _job_line(2, 5, procs=3) + "\n")
    trace = read_swf(path)
    assert trace.machine_procs == 8
    assert trace.warnings == [
        "no header MaxProcs or MaxNodes: machine size inferred as max allocated/requested procs = 8"
    ]


def test_a_header_size_of_zero_or_less_is_named_when_the_size_is_inferred(tmp_path):
    path = tmp_path / "zero.swf"
    path.write_text("; MaxProcs: 0\n; MaxNodes: -4\n" + _job_line(1, 0, procs=8) + "\n")
    assert read_swf(path).warnings == [
        "header MaxProcs 0 and MaxNodes -4 not a machine size: machine size inferred as max allocated/requested procs = 8"
    ]


def test_header_wins_over_the_argument_and_says_so():
    trace = read_swf(SMALL, machine_procs=500)
    assert trace.machine_procs == 64
    assert trace.warnings == ["machine_procs=500 ignored: the header MaxProcs says 64"]


def test_extended_swf_keeps_extra_columns_as_strings():
    trace = read_swf(EXTENDED)
    jobs = trace.jobs
    assert list(jobs.columns) == [*SWF_FIELDS, "extra_1", "extra_2", "extra_3"]
    assert jobs["job_id"].tolist() == [0, 1, 2]  # ids from 0 are kept as they are
    assert jobs["extra_1"].tolist() == ["{11,11,12,12}", "{3,3}", "{4}"]
    assert jobs["extra_2"].tolist() == ["q_1d", "q_2w", "q_1d"]
    assert jobs["extra_3"].iloc[0] == "1:ppn=4:x86_64#excl"  # '#' is data, not a comment
    assert pd.isna(jobs["extra_3"].iloc[2])  # the third line has only two extra fields
    assert all(pd.api.types.is_string_dtype(jobs[f"extra_{i}"]) for i in (1, 2, 3))


def test_extended_swf_can_drop_extra_columns():
    trace = read_swf(EXTENDED, extra_columns="drop")
    assert list(trace.jobs.columns) == list(SWF_FIELDS)
    assert dict(trace.jobs.dtypes) == DTYPES


def test_absolute_submit_times_shift_to_the_log_start():
    trace = read_swf(EXTENDED)
    assert trace.jobs["submit_time"].tolist() == [0.0, 548.0, 2402.0]
    assert trace.header.unix_start_time == 1356996147
    assert any(w.startswith("absolute submit times: shifted by UnixStartTime 1356996147") for w in trace.warnings)


def test_absolute_submit_times_with_unix_start_time_zero_are_shifted(tmp_path):
    path = tmp_path / "zero.swf"
    path.write_text("; UnixStartTime: 0\n; MaxProcs: 8\n" + _job_line(1, 1_400_000_000.5) + "\n")
    trace = read_swf(path)
    assert trace.header.unix_start_time == 1_400_000_000
    assert trace.jobs["submit_time"].tolist() == [0.5]


def test_relative_times_below_1980_are_not_shifted(tmp_path):
    path = tmp_path / "late.swf"
    path.write_text(_job_line(1, 315_532_799) + "\n")
    trace = read_swf(path, machine_procs=8)
    assert trace.jobs["submit_time"].tolist() == [315_532_799.0]
    assert trace.header.unix_start_time is None


def test_text_variants_give_the_same_trace(tmp_path, small):
    """CRLF, a BOM, tabs, blank lines and comments among the jobs change nothing."""
    lines = SMALL.read_text().splitlines()
    first_job = next(i for i, line in enumerate(lines) if not line.startswith(";"))
    jobs = ["\t".join(line.split()) for line in lines[first_job:]]
    body = [jobs[0], "", "; a comment among jobs", "   ", *jobs[1:3], ";", *jobs[3:], ""]
    variant = tmp_path / "variant.swf"
    variant.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines[:first_job] + body).encode())
    parsed = read_swf(variant)
    pd.testing.assert_frame_equal(parsed.jobs, small.jobs)
    assert parsed.header == small.header
    assert parsed.warnings == []


def test_unsorted_submit_times_are_stably_sorted_and_reported(tmp_path):
    path = tmp_path / "unsorted.swf"
    submits = [(1, 50), (2, 10), (3, 10), (4, 5), (5, 60)]
    path.write_text("; MaxProcs: 8\n" + "\n".join(_job_line(i, s) for i, s in submits) + "\n")
    trace = read_swf(path)
    assert trace.jobs["job_id"].tolist() == [4, 2, 3, 1, 5]  # 2 before 3: the sort is stable
    assert trace.jobs["submit_time"].is_monotonic_increasing
    assert trace.warnings == ["submit times not sorted: 2 jobs reordered (stable sort)"]  # jobs 1 and 4 moved


@pytest.mark.parametrize("name", ["trace.swf.gz", "trace.swf"])
def test_gzip_is_recognised_by_its_magic_bytes(tmp_path, small, name):
    path = tmp_path / name
    path.write_bytes(gzip.compress(SMALL.read_bytes()))
    trace = read_swf(path)
    pd.testing.assert_frame_equal(trace.jobs, small.jobs)
    assert trace.sha256 == small.sha256  # of the decompressed content


def test_empty_file_gives_an_empty_canonical_table(tmp_path):
    path = tmp_path / "empty.swf"
    path.write_text("; Version: 2.2\n")
    trace = read_swf(path)
    assert len(trace.jobs) == 0
    assert dict(trace.jobs.dtypes) == DTYPES
    assert trace.machine_procs is None
    assert "no job lines: the job table is empty" in trace.warnings


def test_latin1_header_is_read_with_a_warning(tmp_path):
    path = tmp_path / "latin1.swf"
    path.write_bytes("; Acknowledge: \u00c5ke\n; MaxProcs: 8\n".encode("latin-1") + _job_line(1, 0).encode() + b"\n")
    trace = read_swf(path)
    assert trace.header.other["Acknowledge"] == "\u00c5ke"
    assert trace.warnings == ["not UTF-8 (first bad byte on line 1): read as Latin-1"]


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="extra_columns"):
        read_swf(SMALL, extra_columns="maybe")
    with pytest.raises(ValueError, match="machine_procs"):
        read_swf(SMALL, machine_procs=0)


SHARED_TRACES = [
    # file, jobs, machine procs, extra columns
    ("KTH-SP2-1996-2.2.swf", 28489, 100, 0),
    ("HPC2N-2002-2.2-cln.first3171.swf", 3170, 240, 0),
    ("NASA-iPSC-1993-3.first228.swf", 228, 128, 0),
    ("lublin_256.swf", 10000, 256, 0),
    ("MetaCentrum-wagap-2013.extended.swf", 17900, 256, 3),
    ("CEA-Curie-2011-2.1-cln.swf.gz", 312826, 93312, 0),
]


@pytest.mark.shared
@pytest.mark.parametrize("name, jobs, procs, extras", SHARED_TRACES)
def test_shared_traces_parse_strictly(name, jobs, procs, extras):
    trace = read_swf(shared_path("traces", name))
    assert len(trace.jobs) == jobs
    assert trace.machine_procs == procs
    assert len(trace.jobs.columns) == len(SWF_FIELDS) + extras
    assert trace.skipped == {}
    assert trace.jobs["submit_time"].is_monotonic_increasing
    assert trace.jobs["submit_time"].iloc[0] >= 0
    assert not np.isnan(trace.jobs[list(SWF_FIELDS)].to_numpy(dtype=float)).any()


def _job_line(job_id: int, submit: float, procs: int = 4) -> str:
    return f"{job_id} {submit} 0 100 {procs} -1 -1 {procs} 200 -1 1 1 1 -1 1 1 -1 -1"
