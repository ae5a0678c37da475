"""Read and write Standard Workload Format (SWF) traces as the canonical job table.

SWF (Parallel Workloads Archive) is one job per line, 18 whitespace-separated numeric
fields, with ``;`` comment lines whose ``Key: value`` entries above the first job form
the header (:mod:`schedlab.parsers.header`).  Real files stray from that in ways this reader
accepts, because the data they carry is sound:

* gzip compression, recognised by its magic bytes whatever the file's name;
* CRLF line ends, tabs, a UTF-8 byte-order mark, blank and comment lines anywhere
  (comments below the first job are skipped, not read as header);
* integer fields written as floats (``4.0``);
* extended SWF: extra columns after field 18 (MetaCentrum's node lists, queue names),
  returned as string columns ``extra_1``, ``extra_2``, ... with ``extra_columns="keep"``
  (missing where a line has fewer), left out with ``extra_columns="drop"``;
* no header: the machine size is then the ``machine_procs`` argument, or else
  inferred from the jobs, with a warning;
* jobs asking for more processors than the header's machine size (real logs have a
  few: ALCF Theta's has 8 of 8,401 above its MaxNodes): kept, with a warning counting
  them and naming the first line; ``schedlab.parsers.cleaning`` drops them, counted, since no
  replay could start them;
* submit times out of order: jobs are stably sorted by submit time, with a warning
  counting the jobs that moved, since every replay assumes arrival order;
* absolute submit times (Unix times, where SWF wants seconds from the log's start):
  when the header has no UnixStartTime (or 0) and the first submit time is at or
  after 1980-01-01 as a Unix time, which no relative offset in a real log reaches,
  submit times are shifted to start at 0 and the header's ``unix_start_time`` is set
  to the shift, with a warning.  Nothing is lost and the table means what SWF says.

What would give a wrong table is refused instead: a line with fewer than 18 fields, a
non-numeric or non-finite (nan, inf) value, a non-integral value in an integer field,
a time at or beyond 2**53 seconds (``1e300``, anything past int64 seconds: float64
seconds stop being exact there, so a replay could not even add a run time to it; 2**53 s
is 285 million years), a size (processors, memory) below -1 (SWF's "unknown"; any other
negative is damage), a negative submit time, a duplicate job id.  In strict mode
(default) the first such line raises :class:`InputError` with its 1-based line number; in lenient mode such lines are
skipped and counted by kind in ``Trace.skipped``.  File-level problems (missing file,
directory, binary content, corrupt or fake gzip, more than ``DEFAULT_MAX_TRACE_BYTES``
decompressed) raise ``InputError(path, None, ...)`` in both modes, as soon as the block
read shows them (a gzip bomb is refused after one block, not after decompressing it).

Parsing is columnar.  A well-formed file -- ASCII, the header's comment lines first,
then only job lines of exactly 18 fields -- is read by numpy's C parser in one call on
the decompressed bytes, checked column by column, with no Python work per line (CEA
Curie's 312k jobs, 29 MB gunzipped, in about 0.37 s on the project's machine, of which
0.22 s is numpy's parser and 0.1 s gunzip and SHA-256).  Anything else (a bad line,
comments or blank lines among the jobs, extended SWF's extra columns, non-ASCII bytes)
takes the line-by-line path, which gives the same table for a well-formed file (tests
compare the two) and locates every bad line with its number and field: one split into
lines, field counts per line, numpy's parser on the whole block, and bisection down to
the lines numpy refuses (Curie: 0.8 s).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from schedlab.parsers.header import SwfHeader, parse_header
from schedlab.parsers.schema import DTYPES, FLOAT_FIELDS, SWF_FIELDS
from schedlab.atomic import atomic_open, write_text
from schedlab.errors import InputError, SchedlabError

if TYPE_CHECKING:
    import pandas as pd

#: The job table as plain arrays, one per column (the canonical names, in SWF order): what a
#: replay needs, without pandas, whose import alone costs more than a whole KTH replay.
Columns = dict[str, np.ndarray]

N_FIELDS = len(SWF_FIELDS)
GZIP_MAGIC = b"\x1f\x8b"
MAX_TRACE_BYTES_VARIABLE = "SCHEDLAB_MAX_TRACE_BYTES"
DEFAULT_MAX_TRACE_BYTES = 2**30
"""1 GiB of SWF text, about ten million jobs (the largest shared trace, CEA-Curie, is 29 MB); a
larger trace is refused with the limit named, and ``SCHEDLAB_MAX_TRACE_BYTES`` raises it."""
READ_BLOCK_BYTES = 1 << 20
"""A trace is read, and checked, this many (decompressed) bytes at a time."""
#: 1980-01-01T00:00:00Z: a first submit time at or after this is a Unix time, not an offset.
ABSOLUTE_TIME_THRESHOLD = 315_532_800
#: Integers above this magnitude do not survive a float64; SWF integers never need them.
EXACT_INTEGER_LIMIT = 2**53
#: How many line numbers of each kind of skipped line a Trace keeps.
SKIPPED_LINES_KEPT = 20
EXTRA_COLUMN_CHOICES = ("keep", "drop")

#: Times at or beyond 2**53 seconds (285 million years) are no longer exact in the float64 seconds
#: of the job table (a run time added to such a submit time vanishes): a field holding one is damage.
TIME_LIMIT_SECONDS = float(EXACT_INTEGER_LIMIT)
TIME_FIELDS = ("submit_time", "wait_time", "run_time", "avg_cpu_time", "requested_time", "think_time")
#: Sizes, for which SWF's -1 means unknown and nothing else below 0 has a meaning.
SIZE_FIELDS = ("allocated_procs", "used_memory", "requested_procs", "requested_memory")

INTEGER_FIELD_INDEXES = [i for i, name in enumerate(SWF_FIELDS) if name not in FLOAT_FIELDS]
TIME_FIELD_INDEXES = [SWF_FIELDS.index(name) for name in TIME_FIELDS]
SIZE_FIELD_INDEXES = [SWF_FIELDS.index(name) for name in SIZE_FIELDS]
SUBMIT = SWF_FIELDS.index("submit_time")
ALLOCATED = SWF_FIELDS.index("allocated_procs")
REQUESTED = SWF_FIELDS.index("requested_procs")

# Bytes that appear in text files; anything else in quantity means a binary file.
_TEXT_BYTES = bytes(sorted({7, 8, 9, 10, 11, 12, 13, 27} | set(range(0x20, 0x100)) - {0x7F}))

#: Kinds of bad job lines, in the order they are checked on each line.
JOB_PROBLEM_KINDS = (
    "too_few_fields",
    "not_numeric",
    "not_finite",
    "not_integer",
    "time_out_of_range",
    "negative_size",
    "negative_submit_time",
    "duplicate_job_id",
)


@dataclass
class SkippedLines:
    """Lines of one kind that lenient parsing skipped."""

    count: int = 0
    lines: list[int] = field(default_factory=list)  # the first SKIPPED_LINES_KEPT, 1-based
    example: str = ""  # the message for the first of them


@dataclass
class Trace:
    """A parsed SWF trace: the canonical job table plus what is known about its source.

    ``columns`` holds the table as numpy arrays; ``jobs`` is the same table as a
    DataFrame, built on first use.
    ``sha256`` is of the decompressed bytes, so a trace and its gzipped copy agree.
    ``machine_procs_hint`` is the ``machine_procs`` given to :func:`read_swf`.
    """

    columns: Columns
    header: SwfHeader = field(default_factory=SwfHeader)
    path: Path | None = None
    sha256: str | None = None
    warnings: list[str] = field(default_factory=list)
    skipped: dict[str, SkippedLines] = field(default_factory=dict)
    machine_procs_hint: int | None = None

    @cached_property
    def jobs(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(self.columns)

    @property
    def job_count(self) -> int:
        return len(self.columns["job_id"])

    @property
    def machine_procs(self) -> int | None:
        """Machine size: header MaxProcs, else MaxNodes, else the hint, else inferred."""
        return resolve_machine_size(self.header, self.columns, self.machine_procs_hint)[0]


def resolve_machine_size(
    header: SwfHeader, jobs: pd.DataFrame | Columns, hint: int | None
) -> tuple[int | None, str]:
    """The machine size in processors and where it came from.

    The header wins because it describes the logged machine; the caller's hint serves
    headerless files; the largest allocated or requested job is the last resort (a
    lower bound of the true size).  None only for a table with no sized job.
    """
    declared = header.declared_machine_size()
    if declared is not None:
        return declared[0], f"header {declared[1]}"
    if hint is not None:
        return hint, "machine_procs argument"
    if len(jobs["job_id"]):
        largest = int(max(jobs["allocated_procs"].max(), jobs["requested_procs"].max()))
        if largest > 0:
            return largest, "inferred"
    return None, "unknown"


def read_swf(
    path, *, strict: bool = True, machine_procs: int | None = None, extra_columns: str = "keep"
) -> Trace:
    """Parse an SWF trace (plain or gzip) into a :class:`Trace`; see the module doc."""
    if extra_columns not in EXTRA_COLUMN_CHOICES:
        raise ValueError(f"extra_columns must be one of {EXTRA_COLUMN_CHOICES}, not {extra_columns!r}")
    if machine_procs is not None and machine_procs <= 0:
        raise ValueError(f"machine_procs must be positive, not {machine_procs}")
    path = Path(path)
    data = _read_decompressed(path)
    parsed = _parse_well_formed(data, path, strict) or _parse_line_by_line(
        data, path, strict, keep_extra_columns=extra_columns == "keep"
    )
    header, jobs, warnings, job_line_count, problems = parsed
    warnings += _machine_size_warnings(header, jobs, machine_procs)
    warnings += _job_count_warnings(header, job_line_count)
    if not job_line_count:
        warnings.append("no job lines: the job table is empty")
    jobs, order_warnings = _sort_by_submit_time(jobs)
    jobs, time_warnings = _make_submit_times_relative(jobs, header)
    warnings += order_warnings + time_warnings + problems.summary()
    return Trace(
        columns=jobs,
        header=header,
        path=path,
        sha256=hashlib.sha256(data).hexdigest(),
        warnings=warnings,
        skipped=problems.skipped,
        machine_procs_hint=machine_procs,
    )


#: What one parse gives the rest of read_swf: header, job columns, warnings so far (decoding,
#: header, job sizes above the machine), number of job lines, and the problem log.
_Parsed = tuple[SwfHeader, Columns, list[str], int, "_ProblemLog"]


def _parse_line_by_line(data: bytes, path: Path, strict: bool, keep_extra_columns: bool) -> _Parsed:
    """Any SWF text: split into lines, every bad line located and reported (the precise path)."""
    problems = _ProblemLog(path, strict)
    text, warnings = _decode(data)
    lines = text.split("\n")
    job_indexes = [i for i, line in enumerate(lines) if (s := line.lstrip()) and s[0] != ";"]
    header_end = job_indexes[0] if job_indexes else len(lines)
    header, header_warnings = parse_header(
        ((i + 1, lines[i]) for i in range(header_end) if lines[i].lstrip()[:1] == ";"),
        problems.report,
    )
    warnings += header_warnings
    job_lines = _JobLines([lines[i] for i in job_indexes], np.array(job_indexes) + 1, header.declared_machine_size())
    jobs = job_lines.to_table(problems, keep_extra_columns=keep_extra_columns)
    warnings += job_lines.value_warnings()
    return header, jobs, warnings, len(job_indexes), problems


def _parse_well_formed(data: bytes, path: Path, strict: bool) -> _Parsed | None:
    """The fast path: what :func:`_parse_line_by_line` gives for a file whose job lines
    are all good, without Python work per job line; None for any other file.

    It takes ASCII files whose leading comment (and blank) lines are followed by job
    lines only, but for blank lines at the end (no ``;``, no CR but before LF), each of
    exactly 18 numbers that pass every check of :meth:`_JobLines.classify`.  The job
    section goes in one call to the numpy parser the line-by-line path uses: it skips
    blank lines and refuses a line with another number of fields than the first, so as
    many rows as lines up to the trailing blank ones, of 18 fields each, mean 18 fields
    on every one of those lines.  In ASCII, numpy splits fields on the
    same bytes as ``str.split`` (space, tab, VT, FF, 0x1c-0x1f); any other control byte
    in a field makes it refuse the number.
    """
    if not data.isascii():
        return None
    start, header_lines = _header_section(data)
    body = data[start:]
    if not body or b";" in body or (b"\r" in body and body.count(b"\r") != body.count(b"\r\n")):
        return None
    end = len(body)
    while end and body[end - 1] in b" \t\n\r\x0b\x0c":  # blank lines at the end are no job lines
        end -= 1
    line_count = body.count(b"\n", 0, end) + 1
    try:
        values = np.loadtxt(io.BytesIO(body), dtype=np.float64, comments=None, ndmin=2)
    except ValueError:
        return None
    if values.shape != (line_count, N_FIELDS):
        return None
    jobs = _good_job_table(values)
    if jobs is None:
        return None
    problems = _ProblemLog(path, strict)
    header, warnings = parse_header(
        ((i + 1, line) for i, line in enumerate(header_lines) if line.lstrip()[:1] == ";"), problems.report
    )
    line_numbers = np.arange(line_count) + len(header_lines) + 1
    warnings += _oversize_warnings(values, line_numbers, header.declared_machine_size())
    warnings += _negative_time_warnings(values, line_numbers)
    return header, jobs, warnings, line_count, problems


def _header_section(data: bytes) -> tuple[int, list[str]]:
    """Where the first job line starts, and the lines before it (comment or blank), as
    the line-by-line path tells them apart (``str.lstrip``, then ``;``)."""
    lines: list[str] = []
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end].decode("ascii")
        if (stripped := line.lstrip()) and stripped[0] != ";":
            break
        lines.append(line)
        start = end + 1
    return min(start, len(data)), lines


def _good_job_table(values: np.ndarray) -> Columns | None:
    """The canonical columns of the rows of ``values`` (as parsed, one row per line), or None
    unless every row passes the checks of :meth:`_JobLines.classify`: finite, whole numbers
    (at most 2**53 in magnitude) in integer fields, times within int64 seconds, sizes >= -1,
    submit time >= 0, job ids unique."""
    if not np.isfinite(values).all() or (values[:, SUBMIT] < 0).any():
        return None
    if _times_out_of_range(values).any() or _negative_sizes(values).any():
        return None
    columns = {}
    for i, name in enumerate(SWF_FIELDS):
        column = values[:, i]
        if DTYPES[name] != column.dtype:
            if np.abs(column).max() > EXACT_INTEGER_LIMIT:
                return None
            column = column.astype(DTYPES[name])
            if not (column == values[:, i]).all():
                return None
        columns[name] = column
    ids = values[:, 0]
    if not (np.diff(ids) > 0).all() and len(np.unique(ids)) != len(ids):
        return None
    return columns


def _oversize_warnings(values: np.ndarray, line_numbers: np.ndarray, machine_size: tuple[int, str] | None,
                       good: np.ndarray | None = None) -> list[str]:
    """How many good lines (all, without ``good``) ask for more processors than the header's machine."""
    if machine_size is None:
        return []
    size, key = machine_size
    allocated = values[:, ALLOCATED]
    asked = np.where(allocated > 0, allocated, values[:, REQUESTED])  # as cleaning reads a size
    over = np.flatnonzero((asked > size) if good is None else (good & (asked > size)))
    if not len(over):
        return []
    return [f"{len(over)} job(s) ask for more than the machine's {size} processors (header {key}), up to "
            f"{asked[over].max():.0f}, first on line {line_numbers[over[0]]}: kept; the cleaning step "
            "drop_oversized drops them, counted, unless the machine size given (--procs) is larger"]


def _negative_time_warnings(values: np.ndarray, line_numbers: np.ndarray, good: np.ndarray | None = None) -> list[str]:
    """Per time field, how many good lines (all, without ``good``) hold a negative time other than SWF's -1
    (unknown): read as given, but no log means such a time, so it is said."""
    warnings = []
    for index in TIME_FIELD_INDEXES:
        column = values[:, index]
        odd = np.flatnonzero((column < 0) & (column != -1) & (True if good is None else good))
        if len(odd):
            warnings.append(f"{len(odd)} job(s) with a negative {_field_name(index)} other than SWF's -1 (unknown), "
                            f"first {column[odd[0]]:g} on line {line_numbers[odd[0]]}: read as given")
    return warnings


def _read_decompressed(path: Path) -> bytes:
    """The file's bytes, gunzipped if they start with the gzip magic; file-level checks.

    Read in blocks, each checked as it comes: a file (or its decompressed content) larger
    than :func:`max_trace_bytes`, or with binary content, is refused as soon as that shows,
    so a gzip bomb is refused in about one block of memory.  A file named ``.gz`` without
    the magic is refused rather than read as text: its name promises gzip, so it is most
    likely something else saved under a trace's name (an HTML error page from a failed
    download).
    """
    if path.is_dir():
        raise InputError(path, None, "is a directory, not an SWF trace file")
    limit = max_trace_bytes()
    try:
        with open(path, "rb") as raw:
            if not raw.read(2).startswith(GZIP_MAGIC):
                if path.suffix == ".gz":
                    raise InputError(path, None, "named .gz but is not gzip data (no gzip magic bytes)")
                if path.stat().st_size > limit:
                    raise InputError(path, None, _over_limit(path.stat().st_size, limit, ""))
                raw.seek(0)
                data = _read_blocks(raw, path, limit, "")
            else:
                raw.seek(0)
                try:
                    data = _read_blocks(gzip.GzipFile(fileobj=raw), path, limit, " once decompressed")
                except (EOFError, zlib.error, gzip.BadGzipFile) as error:
                    raise InputError(path, None, f"corrupt or truncated gzip data ({error})") from None
    except FileNotFoundError:
        raise InputError(path, None, "no such file") from None
    except OSError as error:
        raise InputError(path, None, f"cannot read: {error.strerror or error}") from None
    if data.count(b"\r") > data.count(b"\n"):  # CR LF counts both once
        raise InputError(path, None, "lines end in CR alone (classic Mac text): an SWF trace's lines end in LF or CR LF")
    return data


def max_trace_bytes() -> int:
    """The most bytes a trace may hold (decompressed): ``SCHEDLAB_MAX_TRACE_BYTES``, else
    ``DEFAULT_MAX_TRACE_BYTES``.  Reading keeps a trace whole in memory, twice at the end."""
    text = os.environ.get(MAX_TRACE_BYTES_VARIABLE)
    if text is None:
        return DEFAULT_MAX_TRACE_BYTES
    try:
        limit = int(text)
    except ValueError:
        limit = 0
    if limit <= 0:
        raise SchedlabError(f"{MAX_TRACE_BYTES_VARIABLE}={text!r}: not a positive number of bytes")
    return limit


def _over_limit(size: int, limit: int, where: str) -> str:
    return (f"{size:,}{'+' if where else ''} bytes{where}, more than a trace may hold ({limit:,}; "
            f"{MAX_TRACE_BYTES_VARIABLE} raises the limit)")


def _read_blocks(stream, path: Path, limit: int, where: str) -> bytes:
    """Read ``stream`` whole, block by block, refusing binary content or more than ``limit`` bytes at
    the first block that shows it."""
    blocks: list[bytes] = []
    total = 0
    while block := stream.read(READ_BLOCK_BYTES):
        total += len(block)
        if total > limit:
            raise InputError(path, None, _over_limit(total, limit, where))
        if b"\0" in block or (not blocks and _looks_binary(block)):
            raise InputError(path, None, "binary content, not an SWF text file")
        blocks.append(block)
    return b"".join(blocks)


def _looks_binary(data: bytes) -> bool:
    """NUL bytes, or over 1% of the first 64 KiB outside text bytes (the test of file(1)); the
    first block read is at least that long (``READ_BLOCK_BYTES``)."""
    if b"\0" in data:
        return True
    sample = data[:65536]
    return len(sample.translate(None, _TEXT_BYTES)) * 100 > len(sample)


def _decode(data: bytes) -> tuple[str, list[str]]:
    """Decode UTF-8 (dropping a BOM); fall back to Latin-1, with a warning, for old headers."""
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        return data.decode("latin-1"), [f"not UTF-8 (first bad byte on line {line}): read as Latin-1"]


class _ProblemLog:
    """Raises on the first bad line in strict mode; counts bad lines by kind in lenient mode."""

    def __init__(self, path: Path, strict: bool):
        self.path = path
        self.strict = strict
        self.skipped: dict[str, SkippedLines] = {}

    def report(self, line: int, kind: str, message: str) -> None:
        self.report_many(kind, np.array([line]), message)

    def report_many(self, kind: str, lines: np.ndarray, first_message: str) -> None:
        """Bad lines of one kind, in file order; ``first_message`` describes the first.

        In strict mode the caller must report the earliest bad line first.
        """
        if self.strict:
            raise InputError(self.path, int(lines[0]), first_message)
        entry = self.skipped.setdefault(kind, SkippedLines(example=first_message))
        entry.count += len(lines)
        entry.lines.extend(int(n) for n in lines[: SKIPPED_LINES_KEPT - len(entry.lines)])

    def summary(self) -> list[str]:
        if not self.skipped:
            return []
        total = sum(entry.count for entry in self.skipped.values())
        kinds = ", ".join(
            f"{entry.count} {kind} (first: line {entry.lines[0]})" for kind, entry in self.skipped.items()
        )
        return [f"lenient: skipped {total} bad line(s): {kinds}"]


class _JobLines:
    """The job lines of a file, checked all at once, with messages for the bad ones."""

    def __init__(self, texts: list[str], line_numbers: np.ndarray, machine_size: tuple[int, str] | None):
        self.texts = texts
        self.line_numbers = line_numbers
        self.machine_size = machine_size  # (processors, header key), the limit for job sizes
        self.field_counts = np.fromiter(
            (len(text.split()) for text in texts), dtype=np.int64, count=len(texts)
        )
        self.values = np.full((len(texts), N_FIELDS), np.nan)
        self.kinds = np.zeros(len(texts), dtype=np.int8)

    def to_table(self, problems: _ProblemLog, keep_extra_columns: bool) -> Columns:
        """The good lines as canonical columns; bad lines go to ``problems``."""
        kinds = self.classify()
        bad = np.flatnonzero(kinds)
        if problems.strict and len(bad):
            first = bad[0]
            code = kinds[first]
            problems.report(int(self.line_numbers[first]), JOB_PROBLEM_KINDS[code - 1], self.message(code, first))
        for code, kind in enumerate(JOB_PROBLEM_KINDS, start=1):
            rows = np.flatnonzero(kinds == code)
            if len(rows):
                problems.report_many(kind, self.line_numbers[rows], self.message(code, rows[0]))
        good = kinds == 0
        values = self.values[good]
        columns = {name: values[:, i].astype(DTYPES[name]) for i, name in enumerate(SWF_FIELDS)}
        if keep_extra_columns:
            columns.update(self.extra_columns(good))
        return columns

    def classify(self) -> np.ndarray:
        """Per line, 0 if good, else 1 + the index of its first problem in JOB_PROBLEM_KINDS."""
        kinds = self.kinds

        def flag(kind: str, mask: np.ndarray) -> None:
            kinds[(kinds == 0) & mask] = JOB_PROBLEM_KINDS.index(kind) + 1

        flag("too_few_fields", self.field_counts < N_FIELDS)
        complete = np.flatnonzero(kinds == 0)
        numeric = np.zeros(len(self.texts), dtype=bool)
        self.values[complete], numeric[complete] = _parse_numbers([self.texts[i] for i in complete])
        flag("not_numeric", ~numeric)
        flag("not_finite", ~np.isfinite(self.values).all(axis=1))
        integers = self.values[:, INTEGER_FIELD_INDEXES]
        exact = (integers == np.trunc(integers)) & (np.abs(integers) <= EXACT_INTEGER_LIMIT)
        flag("not_integer", ~exact.all(axis=1))
        flag("time_out_of_range", _times_out_of_range(self.values))
        flag("negative_size", _negative_sizes(self.values))
        flag("negative_submit_time", self.values[:, SUBMIT] < 0)
        candidates = np.flatnonzero(kinds == 0)
        _, first_of_each_id = np.unique(self.values[candidates, 0], return_index=True)
        duplicate = np.zeros(len(self.texts), dtype=bool)
        duplicate[candidates] = True
        duplicate[candidates[first_of_each_id]] = False
        flag("duplicate_job_id", duplicate)
        return kinds

    def value_warnings(self) -> list[str]:
        """After :meth:`classify`: how many good lines ask for more processors than the header's machine,
        or hold negative times other than -1."""
        good = self.kinds == 0
        return (_oversize_warnings(self.values, self.line_numbers, self.machine_size, good=good)
                + _negative_time_warnings(self.values, self.line_numbers, good=good))

    def message(self, code: int, row: int) -> str:
        """Why line ``row`` (an index into the job lines) is bad, naming the field."""
        kind = JOB_PROBLEM_KINDS[code - 1]
        tokens = self.texts[row].split()
        values = self.values[row]
        if kind == "too_few_fields":
            return f"{len(tokens)} fields, an SWF job line needs {N_FIELDS}"
        if kind == "not_numeric":
            index = next((i for i, token in enumerate(tokens[:N_FIELDS]) if not _is_number(token)), None)
            if index is None:  # every field is a number alone; numpy ends a line at a CR ("\r\r\n" line ends)
                return ("a carriage return (CR) inside the line, not only before its line feed"
                        if "\r" in self.texts[row] else "the line's fields are not readable as numbers")
            return f"{_field_name(index)} is not a number: {tokens[index]!r}"
        if kind == "not_finite":
            index = int(np.flatnonzero(~np.isfinite(values))[0])
            return f"{_field_name(index)} is not finite: {tokens[index]!r}"
        if kind == "not_integer":
            index = next(
                i for i in INTEGER_FIELD_INDEXES
                if values[i] != np.trunc(values[i]) or abs(values[i]) > EXACT_INTEGER_LIMIT
            )
            return f"{_field_name(index)} must be a whole number, got {tokens[index]!r}"
        if kind == "time_out_of_range":
            index = next(i for i in TIME_FIELD_INDEXES if abs(values[i]) >= TIME_LIMIT_SECONDS)
            return f"{_field_name(index)} is out of range (|t| < 2**53 s): {tokens[index]!r}"
        if kind == "negative_size":
            index = next(i for i in SIZE_FIELD_INDEXES if values[i] < -1)
            return f"{_field_name(index)} is negative, {tokens[index]!r} (SWF writes -1 for unknown)"
        if kind == "negative_submit_time":
            return f"{_field_name(SUBMIT)} is negative: {tokens[SUBMIT]!r}"
        earlier_good = (self.values[:row, 0] == values[0]) & (self.kinds[:row] == 0)
        first = np.flatnonzero(earlier_good)[0]
        return f"duplicate job id {tokens[0]} (first on line {self.line_numbers[first]})"

    def extra_columns(self, good: np.ndarray) -> Columns:
        """Fields after the 18th of extended SWF, as strings (None where a line is shorter:
        a missing value in the DataFrame)."""
        rows = np.flatnonzero(good)
        wide = self.field_counts[rows] > N_FIELDS
        if not wide.any():
            return {}
        extras: list[list[str]] = [[] for _ in rows]
        for position in np.flatnonzero(wide):
            extras[position] = self.texts[rows[position]].split()[N_FIELDS:]
        width = int(self.field_counts[rows].max()) - N_FIELDS
        return {
            f"extra_{j + 1}": np.array([e[j] if j < len(e) else None for e in extras], dtype=object)
            for j in range(width)
        }


def _times_out_of_range(values: np.ndarray) -> np.ndarray:
    """Per row: a time field at or beyond 2**53 seconds in magnitude."""
    return (np.abs(values[:, TIME_FIELD_INDEXES]) >= TIME_LIMIT_SECONDS).any(axis=1)


def _negative_sizes(values: np.ndarray) -> np.ndarray:
    """Per row: a size field below SWF's -1 (unknown)."""
    return (values[:, SIZE_FIELD_INDEXES] < -1).any(axis=1)


def _parse_numbers(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The first 18 fields of each line as floats, and which lines parsed at all.

    numpy's C parser reads the whole block at once; if it refuses, the block is
    bisected until each refused line stands alone, so a few bad lines cost a few
    re-parses, not a slow pass over every line.
    """
    values = np.full((len(texts), N_FIELDS), np.nan)
    parsed = np.ones(len(texts), dtype=bool)
    pending = [(0, len(texts))] if texts else []
    while pending:
        low, high = pending.pop()
        try:
            values[low:high] = _load_fields(texts[low:high])
        except ValueError:
            if high - low == 1:
                parsed[low] = False
            else:
                middle = (low + high) // 2
                pending += [(middle, high), (low, middle)]
    return values, parsed


def _load_fields(texts: list[str]) -> np.ndarray:
    # comments=None: '#' occurs inside extended SWF's string columns.
    return np.loadtxt(texts, dtype=np.float64, usecols=range(N_FIELDS), comments=None, ndmin=2)


def _is_number(token: str) -> bool:
    """Whether numpy's parser (the one read_swf uses) accepts ``token`` as a number."""
    try:
        np.loadtxt([token], dtype=np.float64, comments=None)
    except ValueError:
        return False
    return True


def _field_name(index: int) -> str:
    return f"field {index + 1} ({SWF_FIELDS[index]})"


def _machine_size_warnings(header: SwfHeader, jobs: Columns, hint: int | None) -> list[str]:
    size, source = resolve_machine_size(header, jobs, hint)
    if source == "inferred":
        unusable = [f"{key} {value}" for key, value in (("MaxProcs", header.max_procs), ("MaxNodes", header.max_nodes))
                    if value is not None]
        said = f"header {' and '.join(unusable)} not a machine size" if unusable else "no header MaxProcs or MaxNodes"
        return [f"{said}: machine size inferred as max allocated/requested procs = {size}"]
    if source.startswith("header") and hint is not None and hint != size:
        return [f"machine_procs={hint} ignored: the {source} says {size}"]
    return []


def _job_count_warnings(header: SwfHeader, job_line_count: int) -> list[str]:
    if header.max_records is None or header.max_records == job_line_count:
        return []
    return [
        (
            f"header MaxRecords is {header.max_records} but the file has {job_line_count} job lines "
            "(a truncated or cleaned copy?)"
        )
    ]


def _sort_by_submit_time(jobs: Columns) -> tuple[Columns, list[str]]:
    submit = jobs["submit_time"]
    if not (np.diff(submit) < 0).any():
        return jobs, []
    order = np.argsort(submit, kind="stable")
    moved = int((order != np.arange(len(order))).sum())
    return (
        {name: column[order] for name, column in jobs.items()},
        [f"submit times not sorted: {moved} jobs reordered (stable sort)"],
    )


def _make_submit_times_relative(jobs: Columns, header: SwfHeader) -> tuple[Columns, list[str]]:
    """Shift Unix-time submit times to offsets from the log's start; see the module doc."""
    submit = jobs["submit_time"]
    if len(submit) == 0 or header.unix_start_time or submit[0] < ABSOLUTE_TIME_THRESHOLD:
        return jobs, []
    start = int(np.floor(submit[0]))
    jobs = {**jobs, "submit_time": submit - start}
    header.unix_start_time = start
    when = datetime.fromtimestamp(start, tz=UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return jobs, [
        (
            f"absolute submit times: shifted by UnixStartTime {start} ({when}, the first submit time) "
            "so the log starts at 0; header UnixStartTime set to it"
        )
    ]


def write_swf(path, trace_or_jobs: Trace | pd.DataFrame | Columns, header: SwfHeader | None = None) -> None:
    """Write a trace (or a job table, or its columns) as SWF, atomically; gzip-compressed if ``path`` ends in .gz.

    ``header`` defaults to the trace's own.  Only the 18 SWF fields are written (extra
    columns of extended SWF are not part of SWF).  Integers are written without
    decimals and other floats in their shortest exact form, so :func:`read_swf` gives
    back an equal table.  Raises ValueError for a table SWF cannot hold (missing
    columns, NaN, fractional values in integer fields) rather than writing it wrong.
    """
    if isinstance(trace_or_jobs, Trace):
        jobs = trace_or_jobs.jobs
        header = trace_or_jobs.header if header is None else header
    else:
        jobs = trace_or_jobs
    lines = (header.to_lines() if header is not None else []) + format_job_lines(jobs)
    text = "".join(line + "\n" for line in lines)
    if str(path).endswith(".gz"):
        # mtime=0 and no file name: the same table always gives the same bytes.  Level 6,
        # gzip's own default, is within 3% of level 9's size at under half its time.
        with (
            atomic_open(path, "wb") as handle,
            gzip.GzipFile(filename="", fileobj=handle, mode="wb", compresslevel=6, mtime=0) as compressed,
        ):
            compressed.write(text.encode("utf-8"))
    else:
        write_text(path, text)


def format_job_lines(jobs: pd.DataFrame | Columns) -> list[str]:
    """One SWF line per job, the 18 fields separated by single spaces; ``jobs`` a job table or its columns."""
    missing = [name for name in SWF_FIELDS if name not in jobs]
    if missing:
        raise ValueError(f"job table lacks SWF columns: {', '.join(missing)}")
    columns = [_format_column(name, np.asarray(jobs[name])) for name in SWF_FIELDS]
    return [" ".join(fields) for fields in zip(*columns)]


def _format_column(name: str, values: np.ndarray) -> list[str]:
    if values.dtype.kind in "iu":
        return list(map(str, values.tolist()))
    try:
        values = values.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"column {name} is not numeric") from None
    if not np.isfinite(values).all():
        raise ValueError(f"column {name} has NaN or infinite values (SWF writes -1 for unknown)")
    whole = (values == np.trunc(values)) & (np.abs(values) <= EXACT_INTEGER_LIMIT)
    if whole.all():
        return list(map(str, values.astype(np.int64).tolist()))
    if name not in FLOAT_FIELDS:
        raise ValueError(f"column {name} has fractional values, but SWF field {name} is an integer")
    # repr() of a float is the shortest text that parses back to the same value.
    return [str(int(value)) if is_whole else repr(value) for value, is_whole in zip(values.tolist(), whole.tolist())]
