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

What would give a wrong table is refused instead: a line with fewer than 18 fields, or with more
than ``MAX_EXTRA_FIELDS`` extra ones, a non-numeric or non-finite (nan, inf) value, a
non-integral value in an integer field, a time at or beyond 2**53 seconds (``1e300``, anything
past int64 seconds: float64 seconds stop being exact there, so a replay could not even add a run
time to it; 2**53 s is 285 million years), a size (processors, memory) below -1 (SWF's "unknown";
any other negative is damage), a negative submit time, a duplicate job id.  In strict mode
(default) the first such line raises :class:`InputError` with its 1-based line number; in lenient
mode such lines are skipped and counted by kind in ``Trace.skipped``.  File-level problems
(missing file, directory, FIFO or device, binary content, corrupt or fake gzip, more than
``DEFAULT_MAX_TRACE_BYTES`` decompressed, a line longer than ``MAX_LINE_BYTES``, more than
``MAX_HEADER_BYTES`` of header) raise ``InputError(path, None or line, ...)`` in both modes, as
soon as the read shows them (a gzip bomb is refused after one block, not after decompressing it).

Reading streams: the decompressed text goes through in chunks of whole lines (``CHUNK_BYTES``),
and what stays is the header and the good rows' columns, so memory follows the table kept, not
the file: about twice the table at the end (its chunks joined column by column), plus a chunk's
work (tens of MB), whatever the input.  ``tests/test_swf_bounds.py`` measures the peaks;
``bench/bench_parse.py --adversarial`` times the worst inputs.

Parsing is columnar.  A well-formed chunk -- ASCII job lines of exactly 18 fields -- is read by
numpy's C parser in one call, checked column by column, with no Python work per line (CEA
Curie's 312k jobs, 29 MB gunzipped, in about 0.42 s on the project's machine).  Any other chunk
(a bad line, comments or blank lines among the jobs, extended SWF's extra columns, non-ASCII
bytes) takes the line-by-line path, which gives the same rows for a well-formed chunk (tests
compare the two) and locates every bad line with its number and field: the lines that are not
blank found by the regex engine (blank ones are not visited one by one), field counts per line,
numpy's parser on the whole chunk, and bisection down to the lines numpy refuses (Curie: 0.84 s).
Each chunk is decoded as UTF-8, or, from the first that is not, as Latin-1 with a warning (old
headers); the header is read as its lines come.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import re
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from schedlab.parsers.header import HeaderReader, SwfHeader
from schedlab.parsers.schema import DTYPES, FLOAT_FIELDS, SWF_FIELDS
from schedlab.atomic import atomic_open, write_text
from schedlab.errors import InputError, SchedlabError, require_regular_file

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
CHUNK_BYTES = 1 << 20
"""Job lines are parsed this many bytes (whole lines) at a time: reading holds one chunk of text
besides the rows it keeps."""
BINARY_SAMPLE_BYTES = 1 << 16
"""A file whose first 64 KiB are not text is refused as binary."""
MAX_LINE_BYTES = READ_BLOCK_BYTES
"""The longest line a trace may hold, 1 MiB: the longest real lines, extended SWF's node lists
(MetaCentrum's), hold 1,375 bytes.  A longer line is refused with its number, in both modes, as
soon as the read reaches it."""
MAX_HEADER_BYTES = 1 << 20
"""The most bytes of comment lines above the first job line (PWA headers hold a few KB)."""
MAX_EXTRA_FIELDS = 32
"""The most columns of extended SWF after the 18th a line may have (MetaCentrum's has 3); a wider
line is a bad line (``too_many_fields``), since every extra column is kept for every job."""
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
    "too_many_fields",
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
    problems = _ProblemLog(path, strict)
    source = _TraceText(path)
    header = _HeaderSection(problems)
    table = _JobTable(problems, keep_extra_columns=extra_columns == "keep")
    for text, first_line in source.chunks():
        if not header.done:
            text, first_line = header.read(text, first_line)
        if header.done:
            table.add(text, first_line)
    jobs, line_numbers = table.columns_and_lines()
    warnings = source.warnings + header.warnings
    warnings += _oversize_warnings(jobs, line_numbers, header.header.declared_machine_size())
    warnings += _negative_time_warnings(jobs, line_numbers)
    warnings += _machine_size_warnings(header.header, jobs, machine_procs)
    warnings += _job_count_warnings(header.header, table.job_line_count)
    if not table.job_line_count:
        warnings.append("no job lines: the job table is empty")
    jobs, order_warnings = _sort_by_submit_time(jobs)
    jobs, time_warnings = _make_submit_times_relative(jobs, header.header)
    warnings += order_warnings + time_warnings + problems.summary()
    return Trace(
        columns=jobs,
        header=header.header,
        path=path,
        sha256=source.sha256,
        warnings=warnings,
        skipped=problems.skipped,
        machine_procs_hint=machine_procs,
    )


#: The first character of a line that is not blank (whitespace is ``str.isspace``'s, as ``str.lstrip`` strips).
_NOT_WHITESPACE = re.compile(r"\S")


def _filled_lines(text: str, first_line: int) -> Iterator[tuple[int, int, int, bool]]:
    """The lines of ``text`` that are not blank: (number, start, end, whether it is a comment), the slice
    ``text[start:end]`` the line whole as ``str.split("\\n")`` gives it.  Blank lines are skipped by the
    regex engine, not one by one."""
    line, position = first_line, 0
    while found := _NOT_WHITESPACE.search(text, position):
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.start())
        end = len(text) if end < 0 else end
        line += text.count("\n", position, start)
        yield line, start, end, text[found.start()] == ";"
        position = end


class _TraceText:
    """A trace's decompressed text, read block by block and handed out in chunks of whole lines.

    Each block is checked as it comes: a file (or its decompressed content) larger than
    :func:`max_trace_bytes`, binary content, or a line longer than ``MAX_LINE_BYTES`` is refused
    as soon as that shows, so a gzip bomb or a one-line file is refused in about one block of
    memory.  A file named ``.gz`` without the magic is refused rather than read as text: its
    name promises gzip, so it is most likely something else saved under a trace's name (an
    HTML error page from a failed download).  Only regular files are read
    (:func:`~schedlab.errors.require_regular_file`).
    """

    def __init__(self, path: Path):
        self.path = path
        self.limit = max_trace_bytes()
        self.digest = hashlib.sha256()
        self.warnings: list[str] = []
        self.latin1 = False

    @property
    def sha256(self) -> str:
        return self.digest.hexdigest()

    def chunks(self) -> Iterator[tuple[str, int]]:
        """The decoded text in chunks of whole lines of about ``CHUNK_BYTES``, each with its first line's number."""
        first_line = 1
        for number, chunk in enumerate(self._byte_chunks()):
            yield self._decode(chunk, first_line, bom=number == 0), first_line
            first_line += chunk.count(b"\n")

    def _byte_chunks(self) -> Iterator[bytes]:
        pending: list[bytes] = []
        pending_bytes = 0
        sample = b""  # the file's first BINARY_SAMPLE_BYTES, to tell text from binary
        partial_line = 0  # bytes of the line being read, after the last line feed
        newlines = 0
        total = 0
        try:
            with self._open() as (stream, where):
                while block := stream.read(READ_BLOCK_BYTES):
                    total += len(block)
                    if total > self.limit:
                        raise InputError(self.path, None, _over_limit(total, limit=self.limit, where=where))
                    if len(sample) < BINARY_SAMPLE_BYTES:
                        sample += block[: BINARY_SAMPLE_BYTES - len(sample)]
                        if len(sample) == BINARY_SAMPLE_BYTES:
                            self._refuse_binary(sample)
                    if b"\0" in block:
                        raise InputError(self.path, None, BINARY)
                    first_newline = block.find(b"\n")
                    if partial_line + (len(block) if first_newline < 0 else first_newline) > MAX_LINE_BYTES:
                        raise self._too_long(newlines + 1, block[:first_newline] if first_newline >= 0 else block)
                    self.digest.update(block)
                    newlines += block.count(b"\n")
                    last_newline = block.rfind(b"\n")
                    partial_line = partial_line + len(block) if last_newline < 0 else len(block) - last_newline - 1
                    pending.append(block)
                    pending_bytes += len(block)
                    if pending_bytes >= CHUNK_BYTES and last_newline >= 0 and len(sample) == BINARY_SAMPLE_BYTES:
                        data = b"".join(pending)
                        cut = len(data) - partial_line
                        yield self._checked(data[:cut])
                        pending, pending_bytes = [data[cut:]], partial_line
        except (EOFError, zlib.error, gzip.BadGzipFile) as error:
            raise InputError(self.path, None, f"corrupt or truncated gzip data ({error})") from None
        except OSError as error:
            raise InputError(self.path, None, f"cannot read: {error.strerror or error}") from None
        if len(sample) < BINARY_SAMPLE_BYTES:
            self._refuse_binary(sample)
        if pending_bytes:
            yield self._checked(b"".join(pending))

    def _refuse_binary(self, sample: bytes) -> None:
        if _looks_binary(sample):
            raise InputError(self.path, None, BINARY)

    @contextmanager
    def _open(self):
        """The file's decompressed byte stream, and how its size is said in a refusal."""
        require_regular_file(self.path, "an SWF trace file")
        with open(self.path, "rb") as raw:
            if raw.read(2).startswith(GZIP_MAGIC):
                raw.seek(0)
                yield gzip.GzipFile(fileobj=raw), " once decompressed"
                return
            if self.path.suffix == ".gz":
                raise InputError(self.path, None, "named .gz but is not gzip data (no gzip magic bytes)")
            size = os.fstat(raw.fileno()).st_size
            if size > self.limit:
                raise InputError(self.path, None, _over_limit(size, limit=self.limit, where=""))
            raw.seek(0)
            yield raw, ""

    def _too_long(self, line: int, start: bytes) -> InputError:
        if b"\r" in start:
            return InputError(self.path, None, CR_ALONE)
        return InputError(self.path, line, f"a line longer than {MAX_LINE_BYTES:,} bytes: not an SWF job or comment "
                                           "line (the longest real ones, extended SWF's node lists, hold a few KB)")

    def _checked(self, chunk: bytes) -> bytes:
        if chunk.count(b"\r") > chunk.count(b"\n"):  # CR LF counts both once
            raise InputError(self.path, None, CR_ALONE)
        return chunk

    def _decode(self, chunk: bytes, first_line: int, bom: bool) -> str:
        """UTF-8 (dropping a BOM), else Latin-1 from the first chunk that is not UTF-8 on, with a warning."""
        if not self.latin1:
            try:
                return chunk.decode("utf-8-sig" if bom else "utf-8")
            except UnicodeDecodeError as error:
                line = first_line + chunk.count(b"\n", 0, error.start)
                self.warnings.append(f"not UTF-8 (first bad byte on line {line}): read as Latin-1")
                self.latin1 = True
        return chunk.decode("latin-1")


BINARY = "binary content, not an SWF text file"
CR_ALONE = "lines end in CR alone (classic Mac text): an SWF trace's lines end in LF or CR LF"


class _HeaderSection:
    """The comment lines above the first job line, read into the header as they come."""

    def __init__(self, problems: _ProblemLog):
        self.path = problems.path
        self.reader = HeaderReader(problems.report)
        self.size = 0
        self.done = False

    @property
    def header(self) -> SwfHeader:
        return self.reader.header

    @property
    def warnings(self) -> list[str]:
        return self.reader.warnings

    def read(self, text: str, first_line: int) -> tuple[str, int]:
        """Read the header's lines in ``text``; what follows the header (from its first job line), and that
        line's number."""
        for line, start, end, comment in _filled_lines(text, first_line):
            if not comment:
                self.done = True
                return text[start:], line
            self.size += end - start + 1
            if self.size > MAX_HEADER_BYTES:
                raise InputError(self.path, line, f"more than {MAX_HEADER_BYTES:,} bytes of comment lines "
                                                  "above the first job: not an SWF header")
            self.reader.read_line(line, text[start:end].strip())
        return "", first_line


class _JobTable:
    """The good job lines of a trace, chunk by chunk: the fast path where a chunk is well formed,
    the line-by-line path elsewhere.  What it keeps is the good rows' columns and line numbers,
    so reading holds the table and one chunk, whatever the file holds."""

    def __init__(self, problems: _ProblemLog, keep_extra_columns: bool):
        self.problems = problems
        self.keep_extra_columns = keep_extra_columns
        self.chunks: list[Columns] = []
        self.line_numbers: list[np.ndarray] = []
        self.extras: list[tuple[int, list[list[str]]]] = []  # (first row, extra fields of that row and the next)
        self.earlier_ids = _EarlierIds()
        self.job_line_count = 0
        self.row_count = 0

    def add(self, text: str, first_line: int) -> None:
        if not text.strip():
            return
        parsed = _parse_well_formed(text, first_line)
        if parsed is not None and not self.earlier_ids.seen(parsed[0][:, 0]).any():
            values, line_numbers = parsed
            self.job_line_count += len(values)
        else:
            job_lines = _JobLines(text, first_line, self.earlier_ids)
            values, line_numbers, extras = job_lines.good_rows(self.problems)
            self.job_line_count += len(job_lines.texts)
            if self.keep_extra_columns and extras:
                self.extras.append((self.row_count, extras))
        if not len(values):
            return
        columns = {name: values[:, i].astype(DTYPES[name]) for i, name in enumerate(SWF_FIELDS)}
        self.chunks.append(columns)
        self.line_numbers.append(line_numbers)
        self.earlier_ids.add(columns["job_id"], line_numbers)
        self.row_count += len(values)

    def columns_and_lines(self) -> tuple[Columns, np.ndarray]:
        """The good rows as canonical columns (and extra columns), and each row's line number; a column's
        chunks are freed as it is joined, so this holds the table once and one column more."""
        columns = {}
        for name in SWF_FIELDS:
            parts = [chunk.pop(name) for chunk in self.chunks]
            columns[name] = np.concatenate(parts) if parts else np.empty(0, dtype=DTYPES[name])
            del parts
        columns.update(self._extra_columns())
        line_numbers = np.concatenate(self.line_numbers) if self.line_numbers else np.empty(0, dtype=np.int64)
        return columns, line_numbers

    def _extra_columns(self) -> Columns:
        """Fields after the 18th of extended SWF, as strings (None where a line is shorter:
        a missing value in the DataFrame)."""
        width = max((len(fields) for _, chunk in self.extras for fields in chunk), default=0)
        columns = {f"extra_{j + 1}": np.full(self.row_count, None, dtype=object) for j in range(width)}
        for first_row, chunk in self.extras:
            for row, fields in enumerate(chunk, start=first_row):
                for j, value in enumerate(fields):
                    columns[f"extra_{j + 1}"][row] = value
        return columns


class _EarlierIds:
    """The job ids of the rows kept from earlier chunks, to find a duplicate across chunks: nothing to
    look up while ids rise (as in every real log), a set once they do not."""

    def __init__(self):
        self.ids: list[np.ndarray] = []
        self.line_numbers: list[np.ndarray] = []
        self.largest = -np.inf
        self.lookup: set[float] | None = None

    def seen(self, ids: np.ndarray) -> np.ndarray:
        """Per id, whether an earlier chunk kept it."""
        if not len(ids) or ids.min() > self.largest:
            return np.zeros(len(ids), dtype=bool)
        if self.lookup is None:
            self.lookup = set(np.concatenate(self.ids).tolist())
        return np.fromiter((i in self.lookup for i in ids.tolist()), dtype=bool, count=len(ids))

    def first_line(self, job_id: float) -> int | None:
        """The line of the earlier chunks' row with this id, None if none has it."""
        for ids, line_numbers in zip(self.ids, self.line_numbers):
            match = np.flatnonzero(ids == job_id)
            if len(match):
                return int(line_numbers[match[0]])
        return None

    def add(self, ids: np.ndarray, line_numbers: np.ndarray) -> None:
        if not len(ids):
            return
        self.ids.append(ids)
        self.line_numbers.append(line_numbers)
        self.largest = max(self.largest, float(ids.max()))
        if self.lookup is not None:
            self.lookup.update(ids.tolist())


def _parse_well_formed(text: str, first_line: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The fast path: what the line-by-line path (:class:`_JobLines`) gives for a chunk whose job
    lines are all good, without Python work per job line -- the rows' values and line numbers --
    or None for any other chunk.

    It takes ASCII chunks of job lines only, but for blank lines at the end (no ``;``, no CR but
    before LF), each of exactly 18 numbers that pass every check of :meth:`_JobLines.classify`.
    The chunk goes in one call to the numpy parser the line-by-line path uses: it skips blank
    lines and refuses a line with another number of fields than the first, so as many rows as
    lines up to the trailing blank ones, of 18 fields each, mean 18 fields on every one of those
    lines.  In ASCII, numpy splits fields on the same bytes as ``str.split`` (space, tab, VT, FF,
    0x1c-0x1f); any other control byte in a field makes it refuse the number.
    """
    if not text.isascii() or ";" in text:
        return None
    body = text.encode("ascii")
    if b"\r" in body and body.count(b"\r") != body.count(b"\r\n"):
        return None
    body = body.rstrip(b" \t\n\r\x0b\x0c")  # blank lines at the end are no job lines
    line_count = body.count(b"\n") + 1
    try:
        values = np.loadtxt(io.BytesIO(body), dtype=np.float64, comments=None, ndmin=2)
    except ValueError:
        return None
    if values.shape != (line_count, N_FIELDS) or not _all_good(values):
        return None
    return values, np.arange(first_line, first_line + line_count)


def _all_good(values: np.ndarray) -> bool:
    """Whether every row of ``values`` (as parsed, one row per line) passes the checks of
    :meth:`_JobLines.classify`: finite, whole numbers (at most 2**53 in magnitude) in integer
    fields, times within int64 seconds, sizes >= -1, submit time >= 0, job ids unique."""
    if not np.isfinite(values).all() or (values[:, SUBMIT] < 0).any():
        return False
    if _times_out_of_range(values).any() or _negative_sizes(values).any():
        return False
    integers = values[:, INTEGER_FIELD_INDEXES]
    if not ((integers == np.trunc(integers)) & (np.abs(integers) <= EXACT_INTEGER_LIMIT)).all():
        return False
    ids = values[:, 0]
    return bool((np.diff(ids) > 0).all() or len(np.unique(ids)) == len(ids))


def _oversize_warnings(jobs: Columns, line_numbers: np.ndarray, machine_size: tuple[int, str] | None) -> list[str]:
    """How many jobs ask for more processors than the header's machine."""
    if machine_size is None:
        return []
    size, key = machine_size
    allocated = jobs["allocated_procs"]
    asked = np.where(allocated > 0, allocated, jobs["requested_procs"])  # as cleaning reads a size
    over = np.flatnonzero(asked > size)
    if not len(over):
        return []
    return [f"{len(over)} job(s) ask for more than the machine's {size} processors (header {key}), up to "
            f"{asked[over].max():.0f}, first on line {line_numbers[over[0]]}: kept; the cleaning step "
            "drop_oversized drops them, counted, unless the machine size given (--procs) is larger"]


def _negative_time_warnings(jobs: Columns, line_numbers: np.ndarray) -> list[str]:
    """Per time field, how many jobs hold a negative time other than SWF's -1 (unknown): read as given,
    but no log means such a time, so it is said."""
    warnings = []
    for name in TIME_FIELDS:
        column = jobs[name]
        odd = np.flatnonzero((column < 0) & (column != -1))
        if len(odd):
            warnings.append(f"{len(odd)} job(s) with a negative {_field_name(SWF_FIELDS.index(name))} other than "
                            f"SWF's -1 (unknown), first {column[odd[0]]:g} on line {line_numbers[odd[0]]}: read as given")
    return warnings


def max_trace_bytes() -> int:
    """The most bytes a trace may hold (decompressed): ``SCHEDLAB_MAX_TRACE_BYTES``, else
    ``DEFAULT_MAX_TRACE_BYTES``.  Reading streams the file: what it keeps is the job table."""
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


def _looks_binary(sample: bytes) -> bool:
    """NUL bytes, or over 1% of the sample (a file's first ``BINARY_SAMPLE_BYTES``) outside text bytes
    (the test of file(1))."""
    return b"\0" in sample or len(sample.translate(None, _TEXT_BYTES)) * 100 > len(sample)


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
    """The job lines of one chunk of text, checked all at once, with messages for the bad ones."""

    def __init__(self, text: str, first_line: int, earlier_ids: _EarlierIds):
        self.texts: list[str] = []
        numbers: list[int] = []
        for line, start, end, comment in _filled_lines(text, first_line):
            if not comment:
                self.texts.append(text[start:end])
                numbers.append(line)
        self.line_numbers = np.array(numbers, dtype=np.int64)
        self.earlier_ids = earlier_ids
        self.field_counts = np.fromiter(
            (len(line.split()) for line in self.texts), dtype=np.int64, count=len(self.texts)
        )
        self.values = np.full((len(self.texts), N_FIELDS), np.nan)
        self.kinds = np.zeros(len(self.texts), dtype=np.int8)

    def good_rows(self, problems: _ProblemLog) -> tuple[np.ndarray, np.ndarray, list[list[str]]]:
        """The good lines' values, line numbers and extra fields (none if no line has any); bad lines go to
        ``problems``."""
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
        good = np.flatnonzero(kinds == 0)
        wide = self.field_counts[good] > N_FIELDS
        extras = [self.texts[row].split()[N_FIELDS:] for row in good] if wide.any() else []
        return self.values[good], self.line_numbers[good], extras

    def classify(self) -> np.ndarray:
        """Per line, 0 if good, else 1 + the index of its first problem in JOB_PROBLEM_KINDS."""
        kinds = self.kinds

        def flag(kind: str, mask: np.ndarray) -> None:
            kinds[(kinds == 0) & mask] = JOB_PROBLEM_KINDS.index(kind) + 1

        flag("too_few_fields", self.field_counts < N_FIELDS)
        flag("too_many_fields", self.field_counts > N_FIELDS + MAX_EXTRA_FIELDS)
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
        duplicate[candidates] |= self.earlier_ids.seen(self.values[candidates, 0])
        flag("duplicate_job_id", duplicate)
        return kinds

    def message(self, code: int, row: int) -> str:
        """Why line ``row`` (an index into the job lines) is bad, naming the field."""
        kind = JOB_PROBLEM_KINDS[code - 1]
        tokens = self.texts[row].split()
        values = self.values[row]
        if kind == "too_few_fields":
            return f"{len(tokens)} fields, an SWF job line needs {N_FIELDS}"
        if kind == "too_many_fields":
            return (f"{len(tokens):,} fields, more than SWF's {N_FIELDS} and the {MAX_EXTRA_FIELDS} extra columns "
                    "of extended SWF a line may have")
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
        first = self.earlier_ids.first_line(values[0])
        if first is None:
            earlier_good = (self.values[:row, 0] == values[0]) & (self.kinds[:row] == 0)
            first = self.line_numbers[np.flatnonzero(earlier_good)[0]]
        return f"duplicate job id {tokens[0]} (first on line {first})"


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
