"""read_swf on malformed input: strict mode names the line, lenient mode skips and counts it."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

from schedlab.parsers.cleaning import clean
from schedlab.parsers.swf import read_swf
from schedlab.errors import InputError, SchedlabError

HEADER = "; Version: 2.2\n; MaxProcs: 64\n;\n"
HEADER_LINES = 3


def job(job_id, submit=0, run=100, procs=4, requested=4) -> str:
    return f"{job_id} {submit} 0 {run} {procs} -1 -1 {requested} 200 -1 1 1 1 -1 1 1 -1 -1"


GOOD_JOBS = [job(i, 10 * i) for i in range(1, 7)]

# (kind, bad job line replacing job 4, the message's expected text)
BAD_LINES = [
    ("too_few_fields", "4 40 0 100 4", "5 fields, an SWF job line needs 18"),
    ("not_numeric", job(4, "forty"), "field 2 (submit_time) is not a number: 'forty'"),
    ("not_numeric", job(4, 40, run="0x10"), "field 4 (run_time) is not a number: '0x10'"),
    ("not_finite", job(4, 40, run="nan"), "field 4 (run_time) is not finite: 'nan'"),
    ("not_finite", job(4, 40, run="inf"), "field 4 (run_time) is not finite: 'inf'"),
    ("not_finite", job(4, 40, run="-1e999"), "field 4 (run_time) is not finite: '-1e999'"),
    ("not_integer", job(4, 40, procs="4.5"), "field 5 (allocated_procs) must be a whole number, got '4.5'"),
    ("not_integer", job("4.0001", 40), "field 1 (job_id) must be a whole number, got '4.0001'"),
    ("not_integer", job(4, 40, requested="1e30"), "field 8 (requested_procs) must be a whole number, got '1e30'"),
    ("time_out_of_range", job(4, 40, run="1e300"), "field 4 (run_time) is out of range (|t| < 2**53 s): '1e300'"),
    ("time_out_of_range", job(4, "1e19"), "field 2 (submit_time) is out of range (|t| < 2**53 s): '1e19'"),
    ("negative_size", job(4, 40, procs=-7), "field 5 (allocated_procs) is negative, '-7' (SWF writes -1 for unknown)"),
    ("negative_size", job(4, 40, requested=-2), "field 8 (requested_procs) is negative, '-2' (SWF writes -1 for unknown)"),
    ("negative_submit_time", job(4, -1), "field 2 (submit_time) is negative: '-1'"),
    ("duplicate_job_id", job(2, 40), "duplicate job id 2 (first on line 5)"),
]
BAD_LINE_NUMBER = HEADER_LINES + 4


def write_trace(directory: Path, jobs: list[str], header: str = HEADER) -> Path:
    path = directory / "trace.swf"
    path.write_text(header + "\n".join(jobs) + "\n")
    return path


@pytest.mark.parametrize("kind, line, message", BAD_LINES)
def test_strict_mode_raises_with_path_line_and_message(tmp_path, kind, line, message):
    path = write_trace(tmp_path, [*GOOD_JOBS[:3], line, *GOOD_JOBS[4:]])
    with pytest.raises(InputError) as raised:
        read_swf(path)
    assert (raised.value.path, raised.value.line, raised.value.message) == (str(path), BAD_LINE_NUMBER, message)
    assert str(raised.value) == f"{path}:{BAD_LINE_NUMBER}: {message}"


@pytest.mark.parametrize("kind, line, message", BAD_LINES)
def test_lenient_mode_skips_and_counts_the_line(tmp_path, kind, line, message):
    path = write_trace(tmp_path, [*GOOD_JOBS[:3], line, *GOOD_JOBS[4:]])
    trace = read_swf(path, strict=False)
    assert trace.jobs["job_id"].tolist() == [1, 2, 3, 5, 6]
    assert list(trace.skipped) == [kind]
    skipped = trace.skipped[kind]
    assert (skipped.count, skipped.lines, skipped.example) == (1, [BAD_LINE_NUMBER], message)
    assert f"lenient: skipped 1 bad line(s): 1 {kind} (first: line {BAD_LINE_NUMBER})" in trace.warnings


def test_bad_header_value_strict_and_lenient(tmp_path):
    path = write_trace(tmp_path, GOOD_JOBS, header="; Version: 2.2\n; MaxProcs: lots\n")
    with pytest.raises(InputError, match=r":2: header MaxProcs: expected an integer, got 'lots'$"):
        read_swf(path)
    trace = read_swf(path, strict=False)
    assert trace.header.max_procs is None
    assert trace.skipped["bad_header_value"].lines == [2]
    assert len(trace.jobs) == len(GOOD_JOBS)


def test_strict_mode_reports_the_earliest_bad_line_whatever_its_kind(tmp_path):
    # Line 8 is checked by a later rule (duplicate id) than line 9 (too few fields).
    path = write_trace(tmp_path, [*GOOD_JOBS[:4], job(1, 45), "1 2 3", *GOOD_JOBS[4:]])
    with pytest.raises(InputError) as raised:
        read_swf(path)
    assert raised.value.line == HEADER_LINES + 5
    assert "duplicate job id 1" in raised.value.message


def test_duplicate_ids_keep_the_first_occurrence(tmp_path):
    path = write_trace(tmp_path, [job(1, 0, procs=1), job(1, 5, procs=2), job(1, 9, procs=3)])
    trace = read_swf(path, strict=False)
    assert trace.jobs["allocated_procs"].tolist() == [1]
    assert trace.skipped["duplicate_job_id"].lines == [HEADER_LINES + 2, HEADER_LINES + 3]


def test_lenient_mode_counts_every_bad_line_but_keeps_twenty_line_numbers(tmp_path):
    """Many bad lines among good ones: each is found and every good line survives."""
    lines, bad_numbers = [], []
    for i in range(1, 1001):
        if i % 37 == 0:
            lines.append(job(i, i, run="oops"))
            bad_numbers.append(HEADER_LINES + i)
        else:
            lines.append(job(i, i))
    trace = read_swf(write_trace(tmp_path, lines), strict=False)
    skipped = trace.skipped["not_numeric"]
    assert skipped.count == len(bad_numbers) == 27
    assert skipped.lines == bad_numbers[:20]
    assert trace.jobs["job_id"].tolist() == [i for i in range(1, 1001) if i % 37]
    assert trace.jobs["submit_time"].tolist() == [float(i) for i in range(1, 1001) if i % 37]


def test_lenient_mode_reports_several_kinds(tmp_path):
    path = write_trace(tmp_path, [job(1), "x", job(2, -5), job(3, 3, procs="2.5"), job(4, 4)])
    trace = read_swf(path, strict=False)
    assert {kind: s.count for kind, s in trace.skipped.items()} == {
        "too_few_fields": 1,
        "not_integer": 1,
        "negative_submit_time": 1,
    }
    assert trace.jobs["job_id"].tolist() == [1, 4]


def test_jobs_above_the_machine_are_kept_with_a_warning_and_dropped_by_cleaning(tmp_path):
    """A real log with a few jobs above its header's size (ALCF Theta's) must stay readable."""
    lines = [job(1, 0), job(2, 10, procs=65), job(3, 20, procs=-1, requested=100), job(4, 30)]
    trace = read_swf(write_trace(tmp_path, lines))
    assert trace.jobs["job_id"].tolist() == [1, 2, 3, 4]
    assert any("2 job(s) ask for more than the machine's 64 processors (header MaxProcs), up to 100, "
               f"first on line {HEADER_LINES + 2}" in warning for warning in trace.warnings)
    kept, report = clean(trace.jobs, trace.machine_procs)
    assert kept["job_id"].tolist() == [1, 4]
    assert {step.name: step.removed for step in report.steps}["drop_oversized"] == 2


def _gzip_truncated(path: Path) -> None:
    path.write_bytes(gzip.compress(("\n".join(GOOD_JOBS * 50)).encode())[:-30])


def _gzip_fake(path: Path) -> None:
    path.write_text("\n".join(GOOD_JOBS))


def _gzip_garbage(path: Path) -> None:
    path.write_bytes(b"\x1f\x8b" + bytes(range(200)))


def _binary_with_nul(path: Path) -> None:
    path.write_bytes(b"1 2 3\x00\x00\x00")


def _binary_control_bytes(path: Path) -> None:
    path.write_bytes(bytes([1, 2, 3, 4, 5, 6, 14, 15, 16]) * 20)


def _directory(path: Path) -> None:
    path.mkdir()


FILE_PROBLEMS = [
    ("trace.swf.gz", _gzip_truncated, "corrupt or truncated gzip data"),
    ("trace.swf.gz", _gzip_fake, "named .gz but is not gzip data (no gzip magic bytes)"),
    ("trace.swf", _gzip_garbage, "corrupt or truncated gzip data"),
    ("trace.swf", _binary_with_nul, "binary content, not an SWF text file"),
    ("trace.swf", _binary_control_bytes, "binary content, not an SWF text file"),
    ("trace.swf", _directory, "is a directory, not an SWF trace file"),
    ("trace.swf", lambda path: None, "no such file"),
]


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("name, make, message", FILE_PROBLEMS)
def test_file_level_problems_raise_without_a_line_in_both_modes(tmp_path, name, make, message, strict):
    path = tmp_path / name
    make(path)
    with pytest.raises(InputError) as raised:
        read_swf(path, strict=strict)
    assert raised.value.line is None
    assert raised.value.message.startswith(message)
    assert str(raised.value).startswith(f"{path}: ")


def _gzip_of_zeros(path: Path, gibibytes: int) -> None:
    """A gzip bomb: ``gibibytes`` GiB of NUL bytes in about a thousandth of that."""
    block = bytes(1 << 20)
    with gzip.open(path, "wb", compresslevel=1) as packed:
        for _ in range(gibibytes << 10):
            packed.write(block)


def test_a_gzip_bomb_is_refused_in_bounded_memory(tmp_path):
    bomb = tmp_path / "bomb.swf.gz"
    _gzip_of_zeros(bomb, 1)
    assert bomb.stat().st_size < 5 << 20
    # VmHWM, the peak of this process's own memory (ru_maxrss would count the forking test process's too)
    script = ("import re, sys\nfrom schedlab.parsers.swf import read_swf\nfrom schedlab.errors import InputError\n"
              "try:\n    read_swf(sys.argv[1])\nexcept InputError as error:\n    print(error)\n"
              "status = open('/proc/self/status').read()\n"
              "print(int(re.search(r'VmHWM:\\s+(\\d+) kB', status).group(1)) // 1024)\n")
    done = subprocess.run([sys.executable, "-c", script, str(bomb)], capture_output=True, text=True, check=True)
    message, peak_mib = done.stdout.splitlines()
    assert message == f"{bomb}: binary content, not an SWF text file"
    assert int(peak_mib) < 200, f"peak resident memory {peak_mib} MiB refusing a gzip bomb"


def test_a_trace_over_the_size_limit_is_refused_naming_the_limit(tmp_path, monkeypatch):
    text = "\n".join(job(i, 10 * i) for i in range(1, 12_001)) + "\n"
    plain, packed = tmp_path / "big.swf", tmp_path / "big.swf.gz"
    plain.write_text(text)
    packed.write_bytes(gzip.compress(text.encode()))
    monkeypatch.setenv("SCHEDLAB_MAX_TRACE_BYTES", str(len(text) - 1))
    with pytest.raises(InputError, match=rf"^{plain}: {len(text):,} bytes, more than a trace may hold "
                                         rf"\({len(text) - 1:,}; SCHEDLAB_MAX_TRACE_BYTES raises the limit\)$"):
        read_swf(plain)
    with pytest.raises(InputError, match=r"bytes once decompressed, more than a trace may hold"):
        read_swf(packed)
    monkeypatch.setenv("SCHEDLAB_MAX_TRACE_BYTES", str(len(text)))
    assert read_swf(plain).job_count == read_swf(packed).job_count == 12_000


def test_a_sparse_file_over_the_limit_is_refused_without_reading_it(tmp_path):
    sparse = tmp_path / "sparse.swf"
    with open(sparse, "wb") as handle:
        handle.truncate(2 << 30)
    with pytest.raises(InputError, match=r"2,147,483,648 bytes, more than a trace may hold \(1,073,741,824;"):
        read_swf(sparse)


@pytest.mark.parametrize("value", ["lots", "0", "-5"])
def test_a_bad_size_limit_setting_is_one_line(tmp_path, monkeypatch, value):
    monkeypatch.setenv("SCHEDLAB_MAX_TRACE_BYTES", value)
    (tmp_path / "t.swf").write_text("\n".join(GOOD_JOBS))
    with pytest.raises(SchedlabError, match=rf"^SCHEDLAB_MAX_TRACE_BYTES='{value}': not a positive number of bytes$"):
        read_swf(tmp_path / "t.swf")
