"""read_swf's fast path (one columnar parse of a well-formed file) against its line-by-line path.

``read_swf`` tries ``_parse_well_formed`` on each chunk of job lines first and falls back to
the line-by-line path (``_JobLines``), which locates every bad line.  Both must give the same Trace -- table (values and
dtypes), header, warnings, skipped lines, checksum -- or the same error, on the real
traces and on malformed input; and the fast path must be the one that reads the
real, well-formed traces.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import schedlab.parsers.swf as swf
from schedlab.parsers.swf import read_swf
from schedlab.errors import InputError
from tests.conftest import SHARED

DATA = Path(__file__).resolve().parent / "data"

REAL_TRACES = sorted(
    path for folder in ("traces", "traces-extra") if (SHARED / folder).is_dir() for path in (SHARED / folder).iterdir()
)
#: Real traces the fast path must take (well-formed 18-field files); the others fall back.
FAST_REAL_TRACES = {
    "ALCF-Theta-2023H2.swf",  # CRLF line ends
    "CEA-Curie-2011-2.1-cln.swf.gz",
    "HPC2N-2002-2.2-cln.first3171.swf",  # a blank line at the end
    "KTH-SP2-1996-2.2.swf",
    "NASA-iPSC-1993-3.first228.swf",
    "lublin_256.swf",
}


def outcome(path, **options):
    """What read_swf gives: the trace's parts, or the error's text and line."""
    try:
        trace = read_swf(path, **options)
    except InputError as error:
        return ("error", str(error), error.line)
    return ("trace", trace)


def line_by_line(monkeypatch, path, **options):
    with monkeypatch.context() as patched:
        patched.setattr(swf, "_parse_well_formed", lambda *args: None)
        return outcome(path, **options)


def took_fast_path(monkeypatch, path, **options) -> bool | None:
    """Whether every chunk of job lines took the fast path; None if no chunk was parsed (no job line, or a
    refusal before the first)."""
    taken = []
    real = swf._parse_well_formed

    def spy(*args):
        result = real(*args)
        taken.append(result is not None)
        return result

    with monkeypatch.context() as patched:
        patched.setattr(swf, "_parse_well_formed", spy)
        outcome(path, **options)
    return all(taken) if taken else None


def assert_same(fast, slow):
    assert fast[0] == slow[0], (fast, slow)
    if fast[0] == "error":
        assert fast == slow
        return
    a, b = fast[1], slow[1]
    pd.testing.assert_frame_equal(a.jobs, b.jobs, check_exact=True)
    assert list(a.jobs.columns) == list(b.jobs.columns) and a.jobs.dtypes.equals(b.jobs.dtypes)
    assert a.header == b.header
    assert (a.warnings, a.skipped, a.sha256, a.path, a.machine_procs) == (b.warnings, b.skipped, b.sha256, b.path, b.machine_procs)


def compare(monkeypatch, path, **options):
    fast = outcome(path, **options)
    assert_same(fast, line_by_line(monkeypatch, path, **options))
    return fast


# --- the real traces ---------------------------------------------------------------------


@pytest.mark.skipif(not REAL_TRACES, reason=f"needs the real traces in {SHARED}/traces (beside the repository)")
@pytest.mark.parametrize("path", REAL_TRACES, ids=lambda p: p.name)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lenient"])
def test_real_traces_read_the_same_on_both_paths(monkeypatch, path, strict):
    compare(monkeypatch, path, strict=strict)
    if path.name in FAST_REAL_TRACES:
        assert took_fast_path(monkeypatch, path, strict=strict)


# --- malformed and unusual input ----------------------------------------------------------

HEADER = "; Version: 2.2\n; MaxProcs: 64\n; MaxRecords: 3\n; UnixStartTime: 1000000000\n"


def job(job_id=1, submit=0, procs=4, run=100, requested_time=200, **overrides) -> list[str]:
    fields = [job_id, submit, 5, run, procs, 95.5, -1, procs, requested_time, -1, 1, 1, 1, 1, 1, 1, -1, -1]
    for index, value in overrides.items():
        fields[int(index[1:])] = value
    return [str(value) for value in fields]


def line(fields: list[str]) -> str:
    return " ".join(fields)


GOOD = [line(job(1, 0)), line(job(2, 10, 8)), line(job(3, 20, 64, 50))]


def text(*lines: str, header: str = HEADER, end: str = "\n") -> str:
    return header + "\n".join(lines) + end


CASES = {
    "well formed": (text(*GOOD), True),
    "no header": (text(*GOOD, header=""), True),
    "no final newline": (text(*GOOD, end=""), True),
    "blank lines at the end": (text(*GOOD, end="\n\n \n\t\r\n"), True),
    "a 0x1c line at the end": (text(*GOOD, end="\n\x1c\n"), False),
    "CRLF": (text(*GOOD).replace("\n", "\r\n"), True),
    "padded, tabs, VT, FF and 0x1c as separators": (
        text("   " + GOOD[0] + "   ", GOOD[1].replace(" ", "\t"), GOOD[2].replace(" ", "\x0b", 3).replace(" ", "\x1c", 2)),
        True,
    ),
    "blank and whitespace lines before the header": (text(*GOOD, header="\n  \n" + HEADER), True),
    "integers written as floats, exponents, signs": (
        text(line(job(1, "0.0", "4.0")), line(job(2, "1e1", "+8")), line(job(3, ".2e2", "64", "5e1"))),
        True,
    ),
    "negative zero": (text(line(job(1, "-0")), *GOOD[1:]), True),
    "submit times out of order": (text(GOOD[1], GOOD[0], GOOD[2]), True),
    "ids not increasing": (text(line(job(3, 0)), line(job(1, 10)), line(job(2, 20))), True),
    "absolute submit times": (text(*(line(job(i, 1_300_000_000 + i)) for i in (1, 2, 3)), header=""), True),
    "a job above the machine": (text(GOOD[0], line(job(2, 10, 65)), GOOD[2]), True),
    "MaxRecords disagrees": (text(*GOOD[:2]), True),
    "a bad header value": (text(*GOOD, header="; MaxProcs: lots\n"), True),
    "a key given twice": (text(*GOOD, header=HEADER + "; MaxProcs: 32\n"), True),
    "a 0x1c-only line in the header": (text(*GOOD, header="; Version: 2.2\n\x1c\n; MaxProcs: 64\n"), True),
    "a whole number above 2**53": (text(line(job(1, r0=str(2**53 + 2))), *GOOD[1:]), False),
    "huge floats": (text(line(job(1, r6="1e300")), line(job(2, 10, r6="1e300")), GOOD[2]), True),
    "time beyond int64 seconds": (text(line(job(1, r5="1e300")), *GOOD[1:]), False),
    "processors below -1": (text(GOOD[0], line(job(2, 10, procs=-7)), GOOD[2]), False),
    "overflowing float": (text(line(job(1, r5="1e999")), *GOOD[1:]), False),
    "a non-numeric field": (text(GOOD[0], line(job(2, 10, r9="x")), GOOD[2]), False),
    "nan": (text(GOOD[0], line(job(2, 10, r3="nan")), GOOD[2]), False),
    "inf": (text(GOOD[0], line(job(2, 10, r5="inf")), GOOD[2]), False),
    "a fraction in an integer field": (text(GOOD[0], line(job(2, 10, "4.5")), GOOD[2]), False),
    "negative submit time": (text(GOOD[0], line(job(2, -10)), GOOD[2]), False),
    "duplicate job id": (text(GOOD[0], line(job(1, 10)), GOOD[2]), False),
    "too few fields": (text(GOOD[0], " ".join(job(2, 10)[:17]), GOOD[2]), False),
    "one field too many (extended)": (text(GOOD[0], line(job(2, 10)) + " q1", GOOD[2]), False),
    "every line extended": (text(*(g + " node1 q" for g in GOOD)), False),
    "a blank line among the jobs": (text(GOOD[0], "", GOOD[1], "   ", GOOD[2]), False),
    "a comment among the jobs": (text(GOOD[0], "; MaxProcs: 8", GOOD[1], GOOD[2]), False),
    "a semicolon inside a job line": (text(GOOD[0], GOOD[1] + ";", GOOD[2]), False),
    "a lone CR": (text(GOOD[0], GOOD[1] + "\r" + GOOD[2]), False),
    "CR CR LF line ends": (text(*GOOD).replace("\n", "\r\r\n"), None),
    "a control byte in a field": (text(GOOD[0], line(job(2, 10, r3="1\x012")), GOOD[2]), False),
    "a UTF-8 byte-order mark": ("\ufeff" + text(*GOOD), True),
    "Latin-1 in the header": (text(*GOOD, header=HEADER + "; Note: caf\xe9\n"), True),
    "non-ASCII in a job line": (text(GOOD[0], GOOD[1] + "\u00a0", GOOD[2]), False),
    "header only": (HEADER, None),
    "empty": ("", None),
    "only blank lines": ("\n \n\n", None),
}


def write_case(tmp_path, name: str) -> Path:
    content, _ = CASES[name]
    path = tmp_path / "case.swf"
    # Latin-1 keeps the one non-UTF-8 case's byte as it is; the others are ASCII or UTF-8.
    path.write_bytes(content.encode("latin-1") if name == "Latin-1 in the header" else content.encode("utf-8"))
    return path


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("options", [{}, {"strict": False}, {"strict": False, "extra_columns": "drop"},
                                     {"machine_procs": 16}], ids=["strict", "lenient", "lenient-drop", "procs"])
def test_unusual_and_malformed_input_reads_the_same_on_both_paths(tmp_path, monkeypatch, name, options):
    path = write_case(tmp_path, name)
    result = compare(monkeypatch, path, **options)
    taken = took_fast_path(monkeypatch, path, **options)
    assert taken is CASES[name][1] or (taken is None and result[0] == "error"), taken  # refused before any job line


def test_a_gzip_copy_takes_the_fast_path_too(tmp_path, monkeypatch):
    import gzip

    path = tmp_path / "case.swf.gz"
    path.write_bytes(gzip.compress(CASES["well formed"][0].encode()))
    assert compare(monkeypatch, path)[0] == "trace"
    assert took_fast_path(monkeypatch, path)


def test_strict_errors_name_the_same_line_and_field_on_both_paths(tmp_path, monkeypatch):
    path = write_case(tmp_path, "a fraction in an integer field")
    fast = compare(monkeypatch, path)
    assert fast == ("error", f"{path}:6: field 5 (allocated_procs) must be a whole number, got '4.5'", 6)


# --- random well-formed tables, written with random spacing and number forms ---------------

separators = st.text(alphabet=" \t", min_size=1, max_size=3)
integer = st.integers(min_value=-1, max_value=10**12)
real = st.one_of(integer.map(float), st.floats(min_value=0, max_value=1e12, allow_nan=False))
submit = st.one_of(st.integers(0, 4 * 10**9).map(float), st.floats(min_value=0, max_value=4e9))  # up to year 2096


@st.composite
def swf_text(draw):
    rows = draw(st.integers(min_value=1, max_value=25))
    lines = []
    for i in range(rows):
        fields = []
        for index, name in enumerate(swf.SWF_FIELDS):
            if index == 0:
                value = str(i + 1)
            elif name in swf.FLOAT_FIELDS:
                number = draw(submit if name == "submit_time" else real)
                value = draw(st.sampled_from([repr(number), f"{number:.6g}", f"{number:e}"]))
            else:
                number = draw(integer)
                value = draw(st.sampled_from([str(number), f"{number}.0", f"{number:.3e}"]))
            fields.append(value)
        lead, trail = draw(separators) if draw(st.booleans()) else "", draw(separators) if draw(st.booleans()) else ""
        lines.append(lead + "".join(f + draw(separators) for f in fields[:-1]) + fields[-1] + trail)
    header = draw(st.sampled_from(["", HEADER, "\n; MaxNodes: 8\n\n"]))
    content = header + "\n".join(lines) + draw(st.sampled_from(["", "\n"]))
    return content.replace("\n", "\r\n") if draw(st.booleans()) else content


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=swf_text())
def test_random_tables_read_the_same_on_both_paths(tmp_path, monkeypatch, content):
    path = tmp_path / "random.swf"
    path.write_text(content, encoding="ascii", newline="")
    for options in ({}, {"strict": False}):
        fast = compare(monkeypatch, path, **options)
        assert took_fast_path(monkeypatch, path, **options) is (fast[0] == "trace" and not fast[1].skipped)


def test_values_the_line_by_line_path_would_refuse_never_pass_the_fast_path():
    values = np.zeros((3, swf.N_FIELDS))
    values[:, 0] = [1, 2, 3]
    assert swf._all_good(values)
    for row, column, bad in [(1, 4, 0.5), (2, 1, -1.0), (0, 6, np.nan), (1, 3, np.inf), (2, 0, 1.0), (0, 7, 2.0**53 + 2)]:
        broken = values.copy()
        broken[row, column] = bad
        assert not swf._all_good(broken), (row, column, bad)
