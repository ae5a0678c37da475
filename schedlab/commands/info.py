"""``schedlab info TRACE``: what a trace holds, before anything is replayed on it.

Prints the header, the machine size and where it came from, job count, span, offered
load and the distributions of job size and run time, then the parser's warnings, so a
user sees at once whether a trace is what they think (a truncated copy, a headerless
file whose machine size was guessed, absolute times that were shifted).
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy, pandas and the parser are imported when the command runs, not to list it
    import numpy as np

    from schedlab.parsers.swf import Trace

SECONDS_PER_DAY = 86_400

#: The one-line summary ``schedlab --help`` lists.
HELP = "summarize an SWF trace: header, jobs, span, load, sizes, run times, warnings"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "info",
        help=HELP,
        description="Summarize an SWF trace (plain or gzip) without changing it.",
    )
    parser.add_argument("trace", metavar="TRACE", help="SWF file, plain or gzip-compressed")
    parser.add_argument(
        "--lenient", action="store_true", help="skip bad job lines (counted) instead of stopping at the first"
    )
    parser.add_argument(
        "--procs",
        type=_positive_int,
        metavar="P",
        help="machine size in processors, used when the header gives no MaxProcs or MaxNodes",
    )
    parser.set_defaults(handler=run)


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return int(text)


def run(args) -> int:
    from schedlab.parsers.swf import read_swf

    trace = read_swf(args.trace, strict=not args.lenient, machine_procs=args.procs)
    print("\n".join(describe_trace(trace)))
    return 0


def describe_trace(trace: Trace) -> list[str]:
    """The report ``schedlab info`` prints, as lines."""
    from schedlab.output_digests import sha256_of
    from schedlab.parsers.cleaning import effective_procs
    from schedlab.parsers.swf import resolve_machine_size

    jobs = trace.jobs
    procs, procs_source = resolve_machine_size(trace.header, jobs, trace.machine_procs_hint)
    submit = jobs["submit_time"].to_numpy()
    span = float(submit[-1] - submit[0]) if len(jobs) else 0.0
    lines = [f"trace:     {trace.path}", f"sha256:    {sha256_of(Path(trace.path))} (of the file, as trace pages name it)"]
    if Path(trace.path).suffix == ".gz":
        lines.append(f"content:   {trace.sha256} (SHA-256 of the decompressed SWF: a trace and its gzipped copy agree)")
    lines += _header_lines(trace)
    lines.append(f"machine:   {procs} processors ({procs_source})" if procs else "machine:   size unknown")
    lines.append(f"jobs:      {len(jobs)}")
    lines.append(f"span:      {span / SECONDS_PER_DAY:.2f} days (first to last submit)")
    lines.append(f"load:      {_offered_load(trace, procs, span)}")
    lines += _size_lines(effective_procs(jobs))
    lines += _runtime_lines(jobs["run_time"].to_numpy())
    lines += [f"warning:   {warning}" for warning in trace.warnings]
    for kind, skipped in trace.skipped.items():
        shown = ", ".join(map(str, skipped.lines))
        more = ", ..." if skipped.count > len(skipped.lines) else ""
        lines.append(f"skipped:   {skipped.count} {kind} on lines {shown}{more}; first: {skipped.example}")
    return lines


def _header_lines(trace: Trace) -> list[str]:
    header = trace.header
    if header.is_empty():
        return ["header:    none"]
    named = [
        ("Version", header.version),
        ("Computer", header.computer),
        ("Installation", header.installation),
        ("MaxJobs", header.max_jobs),
        ("MaxRecords", header.max_records),
        ("MaxNodes", header.max_nodes),
        ("MaxProcs", header.max_procs),
        ("UnixStartTime", _with_date(header.unix_start_time)),
        ("TimeZoneString", header.time_zone_string),
        ("StartTime", header.start_time),
        ("EndTime", header.end_time),
    ]
    lines = [f"header:    {key}: {value}" for key, value in named if value is not None]
    counts = [(len(header.queues), "queue"), (len(header.partitions), "partition"), (len(header.notes), "note")]
    lines.append("header:    " + ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in counts))
    return lines


def _with_date(unix_time: int | None) -> str | None:
    if unix_time is None:
        return None
    return f"{unix_time} ({datetime.fromtimestamp(unix_time, tz=UTC):%Y-%m-%d %H:%M:%S} UTC)"


def _offered_load(trace: Trace, procs: int | None, span: float) -> str:
    """Work submitted per capacity available: sum(procs x run time) / (machine procs x span)."""
    import numpy as np

    from schedlab.parsers.cleaning import effective_procs

    if not procs or span <= 0:
        return "n/a (needs a machine size and a span above 0)"
    sizes = effective_procs(trace.jobs).astype(np.float64)
    run_times = trace.jobs["run_time"].to_numpy()
    counted = (sizes > 0) & (run_times > 0)
    work = float((sizes[counted] * run_times[counted]).sum())
    return f"{work / (procs * span):.3f} (sum procs x run time / ({procs} procs x span); unknown sizes/times left out)"


def _summary(values: np.ndarray) -> str:
    import numpy as np

    return (
        f"min {_number(values.min())}, median {_number(np.median(values))}, "
        f"mean {_number(values.mean())}, max {_number(values.max())}"
    )


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _size_lines(sizes: np.ndarray) -> list[str]:
    known = sizes[sizes > 0]
    unknown = len(sizes) - len(known)
    if not len(known):
        return [f"size:      no job with a known size ({unknown} unknown)"]
    serial = (known == 1).mean()
    power_of_two = ((known > 1) & ((known & (known - 1)) == 0)).mean()
    return [
        f"size:      procs (allocated, else requested): {_summary(known)}; {unknown} unknown",
        f"size:      serial {serial:.1%}, power of two above 1 {power_of_two:.1%}",
    ]


def _runtime_lines(run_times: np.ndarray) -> list[str]:
    known = run_times[run_times >= 0]
    unknown = len(run_times) - len(known)
    if not len(known):
        return [f"run time:  no job with a known run time ({unknown} unknown)"]
    return [f"run time:  seconds: {_summary(known)}; {unknown} unknown"]
