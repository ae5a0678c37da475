"""``schedlab sessions``: the user sessions of a trace, their dependencies and think times."""

from __future__ import annotations

import sys
from pathlib import Path

from schedlab.errors import UsageError

#: The one-line summary ``schedlab --help`` lists.
HELP = "find the user sessions of a trace: sessions, dependencies, think times"


def register(subparsers) -> None:
    from schedlab.options import COUNT, DURATION

    parser = subparsers.add_parser(
        "sessions",
        help=HELP,
        description=(
            "Cut each user's jobs into sessions (Zakay and Feitelson, MASCOTS 2014): 'arrival' starts a session "
            "when a job comes more than the threshold after the user's previous submission, 'termination' when it "
            "comes more than the threshold after every earlier job of the user ended. A session depends on the "
            "user's earlier sessions that had all ended before it began; its think time is the gap since the last "
            "of them ended. Where the trace records preceding jobs and think times (SWF fields 17-18) they are "
            "used instead. Prints sessions, jobs per session, the dependent share and think-time quantiles, with "
            "and without overnight breaks. The trace is cleaned first."
        ),
    )
    parser.add_argument("trace", help="SWF file, plain or .gz")
    parser.add_argument("--delimit", choices=("arrival", "termination"), default="arrival",
                        help="how sessions are cut (default: arrival)")
    parser.add_argument("--threshold", type=DURATION, default=60.0,
                        help="gap that starts a new session, minutes (default: 60)")
    parser.add_argument("--procs", type=COUNT, help="machine size, >= 1, for the cleaning (default: the trace "
                        "header's MaxProcs)")
    parser.add_argument("--json", help="also write the summary as JSON to this file")
    parser.add_argument("--lenient", action="store_true", help="skip malformed lines instead of stopping")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.atomic import write_text
    from schedlab.parsers.cleaning import clean_or_refuse, refuse_empty
    from schedlab.parsers.swf import read_swf
    from schedlab.workloads.fitting import header_clock
    from schedlab.workloads.sessions import format_summary, sessions_of, summarize_sessions

    trace = read_swf(args.trace, strict=not args.lenient, machine_procs=args.procs)
    for warning in trace.warnings:
        print(f"note: {warning}", file=sys.stderr)
    refuse_empty(trace.job_count, args.trace)
    procs = args.procs or trace.machine_procs
    if not procs:
        raise UsageError(f"{args.trace}: no machine size in the header; give --procs")
    jobs, _ = clean_or_refuse(trace.jobs, procs, args.trace)
    name = Path(args.trace).name
    sessions = sessions_of(jobs, args.delimit, 60.0 * args.threshold, name)
    summary = summarize_sessions(sessions, *header_clock(trace.header))
    print(format_summary(name, summary))
    if args.json:
        import json

        write_text(args.json, json.dumps({"trace": name, **summary}, indent=2, sort_keys=True) + "\n")
        print(f"summary written to {args.json}")
    return 0
