"""read_swf's memory follows what it keeps, whatever the input (issue 69, item 5).

The reader streams: it holds one chunk of text (``CHUNK_BYTES``) besides the rows it keeps, and it
caps what no real trace holds (a line over ``MAX_LINE_BYTES``, a header over ``MAX_HEADER_BYTES``,
more than ``MAX_EXTRA_FIELDS`` extra columns).  Peaks are measured in a subprocess (VmHWM), against
the peak of the same subprocess reading a small trace; the inputs are small gzip files that
decompress to hundreds of MB.  The inputs are ``bench/adversarial_traces.py``'s, timed at 1,000 MB by ``bench/bench_parse.py
--adversarial``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import schedlab.parsers.swf as swf
from schedlab.errors import InputError
from schedlab.parsers.swf import read_swf
from bench.adversarial_traces import ADVERSARIAL_TRACES, JOB, MIB, read_in_a_fresh_process
from tests.conftest import SHARED
from tests.test_swf_fast_path import CASES, assert_same, outcome, write_case

@pytest.fixture(scope="module")
def baseline_peak(tmp_path_factory) -> int:
    path = tmp_path_factory.mktemp("baseline") / "small.swf"
    path.write_text(JOB + "\n")
    return read_in_a_fresh_process(path)[2]


@pytest.mark.parametrize("trace", ADVERSARIAL_TRACES, ids=lambda trace: trace.name)
def test_reading_an_adversarial_file_holds_what_it_keeps(tmp_path, baseline_peak, trace):
    size = 256 * MIB
    path = trace.write(tmp_path / "input.swf.gz", size)
    assert path.stat().st_size < size // 50
    result, _, peak = read_in_a_fresh_process(path, trace.strict)
    assert re.search(trace.outcome, result), result
    assert peak < baseline_peak + 64, f"{trace.name}: peak {peak} MiB against {baseline_peak} MiB for one job"


def test_reading_a_large_good_trace_holds_about_twice_its_table(tmp_path, baseline_peak):
    path = tmp_path / "distinct.swf"
    path.write_text("".join(f"{i} {i} 5 100 4 95 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n" for i in range(1, 400_001)))
    result, _, peak = read_in_a_fresh_process(path)
    jobs, kept = re.fullmatch(r"(\d+) jobs, (\d+) bytes", result).groups()
    assert int(jobs) == 400_000
    assert peak < baseline_peak + 2.5 * int(kept) / MIB, f"peak {peak} MiB for a table of {int(kept) / MIB:.0f} MiB"


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lenient"])
def test_tiny_chunks_read_every_case_as_one_chunk_does(tmp_path, monkeypatch, name, strict):
    """Chunk and block boundaries fall inside the header, between jobs and on every line: the same trace or error."""
    path = write_case(tmp_path, name)
    whole = outcome(path, strict=strict)
    for chunk, block in [(1, 1), (7, 3), (64, 16)]:
        with monkeypatch.context() as patched:
            patched.setattr(swf, "CHUNK_BYTES", chunk)
            patched.setattr(swf, "READ_BLOCK_BYTES", block)
            assert_same(outcome(path, strict=strict), whole)


def test_a_real_trace_in_small_chunks_reads_as_in_one(monkeypatch):
    path = SHARED / "traces" / "KTH-SP2-1996-2.2.swf"
    if not path.exists():
        pytest.skip(f"needs {path} (../shared beside the repository)")
    whole = outcome(path)
    with monkeypatch.context() as patched:
        patched.setattr(swf, "CHUNK_BYTES", 64 << 10)
        assert_same(outcome(path), whole)


def write_jobs(path: Path, ids: list[int]) -> Path:
    path.write_text("".join(f"{job_id} {10 * i} 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"
                            for i, job_id in enumerate(ids)))
    return path


@pytest.mark.parametrize("ids, duplicate_line, first_line", [
    ([1, 2, 3, 4, 5, 6, 2, 7], 7, 2),  # ids rise, then one falls back onto an earlier chunk's
    ([9, 8, 7, 6, 5, 4, 3, 9], 8, 1),  # ids never rise: every chunk is looked up
])
def test_a_duplicate_across_chunks_is_found_and_names_the_first(tmp_path, monkeypatch, ids, duplicate_line,
                                                                first_line):
    path = write_jobs(tmp_path / "t.swf", ids)
    monkeypatch.setattr(swf, "CHUNK_BYTES", 100)  # about two lines a chunk
    with pytest.raises(InputError) as raised:
        read_swf(path)
    assert raised.value.line == duplicate_line
    assert raised.value.message == f"duplicate job id {ids[duplicate_line - 1]} (first on line {first_line})"
    lenient = read_swf(path, strict=False)
    assert lenient.job_count == len(ids) - 1
    assert lenient.skipped["duplicate_job_id"].lines == [duplicate_line]


def test_a_line_with_too_many_fields_is_a_bad_line_named_as_such(tmp_path):
    widest = JOB.replace("1", "2", 1) + " x" * swf.MAX_EXTRA_FIELDS
    too_wide = JOB.replace("1", "3", 1) + " x" * 100_000
    path = tmp_path / "t.swf"
    path.write_text("\n".join([JOB, widest, too_wide]) + "\n")
    with pytest.raises(InputError) as raised:
        read_swf(path)
    assert (raised.value.line, raised.value.message) == (
        3, "100,018 fields, more than SWF's 18 and the 32 extra columns of extended SWF a line may have")
    lenient = read_swf(path, strict=False)
    assert lenient.job_count == 2 and f"extra_{swf.MAX_EXTRA_FIELDS}" in lenient.columns
    assert lenient.skipped["too_many_fields"].lines == [3]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="this platform has no FIFOs")
def test_a_fifo_is_refused_by_every_reader_without_blocking(tmp_path):
    from schedlab.parsers.accounting import detect_format, read_pbs, read_sacct
    from schedlab.workloads.model import load_model

    fifo = tmp_path / "trace.swf"
    os.mkfifo(fifo)  # nothing ever writes to it: opening it would block forever
    for read in (read_swf, load_model, read_sacct, read_pbs, detect_format):
        with pytest.raises(InputError, match=r"is not a regular file \(a FIFO, device or socket\)"):
            read(fifo)
