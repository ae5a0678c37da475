"""The header of an SWF trace: the ``; Key: value`` comment lines above the first job.

The Parallel Workloads Archive documents its logs in these lines (machine size, start
time, queues, cleaning notes), so they are parsed into :class:`SwfHeader` rather than
thrown away, and written back by :meth:`SwfHeader.to_lines` so that a parsed, then
written, then parsed header compares equal.

How comment lines are read (the SWF definition leaves layout to the log's author, so
these rules follow what PWA logs do):

* ``; Key: value`` -- a semicolon, at most one space, a one-word key, a colon, then
  whitespace or the end of the line -- sets a header field.  The one-word key keeps
  ``;   http://...`` and ``;<tab>see: http://...`` from being taken for keys.
* An indented comment (a tab or two spaces after the semicolon) right after a keyed
  line continues its value on a new line (``Information:`` with two URLs, multi-line
  ``Note:`` entries).
* A bare ``;`` separates blocks; any other comment text is kept in ``comments``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

#: Integer header values must fit int64, as every count and time downstream does.
INT64_LIMIT = 2**63

KEYED_LINE = re.compile(r";[ ]?(\w+):(?:\s+(.*))?")

#: SWF header keys stored in their own attribute, and whether their value is an integer.
SCALAR_KEYS: dict[str, tuple[str, bool]] = {
    "Version": ("version", False),
    "Computer": ("computer", False),
    "Installation": ("installation", False),
    "MaxJobs": ("max_jobs", True),
    "MaxRecords": ("max_records", True),
    "UnixStartTime": ("unix_start_time", True),
    "TimeZone": ("time_zone", True),
    "TimeZoneString": ("time_zone_string", False),
    "StartTime": ("start_time", False),
    "EndTime": ("end_time", False),
    "MaxNodes": ("max_nodes", True),
    "MaxProcs": ("max_procs", True),
}

#: SWF header keys that may repeat, one list entry per line.
LIST_KEYS: dict[str, str] = {"Note": "notes", "Queue": "queues", "Partition": "partitions"}

#: Called for a header value that cannot be used: (line number, problem kind, message).
ProblemReporter = Callable[[int, str, str], None]


@dataclass
class SwfHeader:
    """What an SWF header says about its log; ``None`` or empty where it says nothing.

    ``other`` keeps every other ``Key: value`` line (Acknowledge, Information,
    Preemption, MaxQueues, ...) by key, repeated keys joined by newlines; ``comments``
    keeps free comment text that belongs to no key.
    """

    version: str | None = None
    computer: str | None = None
    installation: str | None = None
    max_jobs: int | None = None
    max_records: int | None = None
    max_nodes: int | None = None
    max_procs: int | None = None
    unix_start_time: int | None = None
    time_zone: int | None = None
    time_zone_string: str | None = None
    start_time: str | None = None
    end_time: str | None = None
    queues: list[str] = field(default_factory=list)
    partitions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    other: dict[str, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)

    def is_empty(self) -> bool:
        """True when the trace had no header at all (every field unset)."""
        return self == SwfHeader()

    def declared_machine_size(self) -> tuple[int, str] | None:
        """The machine size in processors the header declares, and which key said it.

        MaxProcs counts processors; MaxNodes is the fallback because logs older than
        SWF 2.1 (and synthetic ones such as Lublin's) give only MaxNodes, meaning
        processors.
        """
        if self.max_procs is not None and self.max_procs > 0:
            return self.max_procs, "MaxProcs"
        if self.max_nodes is not None and self.max_nodes > 0:
            return self.max_nodes, "MaxNodes"
        return None

    def to_lines(self) -> list[str]:
        """The header as SWF comment lines, which :func:`parse_header` reads back equal.

        Free comments come first, because a comment right after a keyed line would be
        read back as that key's continuation.
        """
        lines = [f";  {comment}" for comment in self.comments]
        scalars = {key: getattr(self, attribute) for key, (attribute, _) in SCALAR_KEYS.items()}
        for key in ("Version", "Computer", "Installation"):
            _append_entry(lines, key, scalars.pop(key))
        for key, value in self.other.items():
            _append_entry(lines, key, value)
        for key, value in scalars.items():
            _append_entry(lines, key, value)
        for key, attribute in LIST_KEYS.items():
            for value in getattr(self, attribute):
                _append_entry(lines, key, value)
        return lines


def _append_entry(lines: list[str], key: str, value) -> None:
    if value is None:
        return
    first, *continued = str(value).split("\n")
    lines.append(f"; {key}: {first}".rstrip())
    lines.extend(f";\t{text}" for text in continued)


def parse_header(
    comment_lines: Iterable[tuple[int, str]], report: ProblemReporter
) -> tuple[SwfHeader, list[str]]:
    """Parse ``(line number, text)`` comment lines into a header and warnings.

    An integer key with a non-integer value (``MaxProcs: lots``) goes to ``report``
    as kind ``bad_header_value``, which raises in strict mode and records the line in
    lenient mode (the value is then ignored).  A known key given twice keeps the
    later value, with a warning, since the two lines contradict each other.
    """
    reader = HeaderReader(report)
    for number, raw in comment_lines:
        reader.read_line(number, raw.strip())
    return reader.header, reader.warnings


class HeaderReader:
    """Reads comment lines one by one (as :func:`parse_header` does for all of them at once),
    remembering which entry a continuation extends; ``header`` and ``warnings`` are what it read."""

    def __init__(self, report: ProblemReporter):
        self.report = report
        self.header = SwfHeader()
        self.warnings: list[str] = []
        self.first_line_of: dict[str, int] = {}
        self.continue_entry: Callable[[str], None] | None = None

    def read_line(self, number: int, line: str) -> None:
        match = KEYED_LINE.fullmatch(line)
        if match:
            key, value = match.group(1), (match.group(2) or "").strip()
            self.continue_entry = self.set_entry(number, key, value)
            return
        text = line[1:].strip()
        indented = line[1:2] == "\t" or line[1:3] == "  "
        if not text:
            self.continue_entry = None
        elif indented and self.continue_entry is not None:
            self.continue_entry(text)
        else:
            self.header.comments.append(text)
            self.continue_entry = None

    def set_entry(self, number: int, key: str, value: str) -> Callable[[str], None] | None:
        """Store one keyed line; return how to append a continuation line to it, if any."""
        if key in LIST_KEYS:
            return self.append_to_list(getattr(self.header, LIST_KEYS[key]), value)
        if key in SCALAR_KEYS:
            return self.set_scalar(number, key, value)
        previous = self.header.other.get(key)
        self.header.other[key] = value if previous is None else f"{previous}\n{value}"
        return lambda text: self.header.other.__setitem__(key, f"{self.header.other[key]}\n{text}")

    @staticmethod
    def append_to_list(entries: list[str], value: str) -> Callable[[str], None]:
        entries.append(value)
        index = len(entries) - 1
        return lambda text: entries.__setitem__(index, f"{entries[index]}\n{text}")

    def set_scalar(self, number: int, key: str, value: str) -> Callable[[str], None] | None:
        attribute, is_integer = SCALAR_KEYS[key]
        parsed: str | int | None = parse_integer(value) if is_integer else value
        if parsed is None:
            self.report(number, "bad_header_value", f"header {key}: expected an integer, got {value!r}")
            return None
        if is_integer and not -INT64_LIMIT <= parsed < INT64_LIMIT:
            self.report(number, "bad_header_value", f"header {key}: {value} is beyond int64")
            return None
        if key in self.first_line_of:
            self.warnings.append(
                f"header {key} given twice (lines {self.first_line_of[key]} and {number}): "
                f"using the later value {parsed!r}"
            )
        self.first_line_of[key] = number
        setattr(self.header, attribute, parsed)
        if is_integer:
            return None
        return lambda text: setattr(self.header, attribute, f"{getattr(self.header, attribute)}\n{text}")


def parse_integer(text: str) -> int | None:
    """``text`` as an int, accepting integral floats such as ``4.0``; None if it is not one."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return None
    return int(number) if number.is_integer() else None
