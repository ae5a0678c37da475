"""``schedlab replay``: simulate one trace under one batch policy."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from schedlab import __version__
from schedlab.errors import UsageError
from schedlab.options import COUNT, DURATION

#: The one-line summary ``schedlab --help`` lists.
HELP = "simulate a trace under FCFS, EASY, conservative backfilling or your own policy"


def register(subparsers) -> None:
    from schedlab.reports.exports import FORMATS
    from schedlab.simulators.batch.conventions import CONVENTIONS, ESTIMATES
    from schedlab.simulators.batch.policies import BUILT_IN_ORDERS, BUILT_IN_POLICIES
    from schedlab.simulators.core.engine import PASS_MODES, SAME_TIME_ORDERS

    parser = subparsers.add_parser(
        "replay",
        help=HELP,
        description=(
            "Replay an SWF trace on one machine and print wait, slowdown and utilization. "
            "Under the default conventions the trace is cleaned first (see 'schedlab info'); "
            "under --conventions pyss every line is a job, exactly as the pyss simulator reads it."
        ),
    )
    parser.add_argument("trace", help="SWF file, plain or .gz, or a job table (.parquet, .csv: schedlab convert)")
    parser.add_argument("--machine", metavar="FILE",
                        help="replay on this machine of nodes (a TOML file, or builtin:cpu-cluster, "
                        "builtin:gpu-cluster: docs/convert.md), every job's nodes, GPUs, memory and partition "
                        "honoured, beside the same jobs on one pool of its cores; a job table without it "
                        "replays on the machine inferred from its jobs")
    parser.add_argument("--events", metavar="FILE",
                        help="with a machine: its capacity events, nodes drained, reserved for maintenance or "
                        "failing, killing their jobs requeued or not (a TOML file: docs/convert.md)")
    parser.add_argument("--procs", type=COUNT, help="machine size, >= 1 (default: the trace header's MaxProcs)")
    parser.add_argument("--policy", default="easy", metavar="POLICY",
                        help=f"{', '.join(BUILT_IN_POLICIES)}, or your own class as path/to/file.py:Class "
                        "or package.module:Class (docs/policies.md); default: easy")
    parser.add_argument("--order", default="fcfs", metavar="ORDER",
                        help=f"queue order: {', '.join(BUILT_IN_ORDERS)} (arrival, Cobalt's WFP, shortest "
                        "estimate first) or your own function as file.py:function; default: fcfs")
    parser.add_argument("--estimates", choices=ESTIMATES, default="requested",
                        help="what the scheduler believes a job's length is (default: its requested time)")
    parser.add_argument("--conventions", choices=sorted(CONVENTIONS), default="default",
                        help="input handling and tie-breaking profile (default: schedlab's own)")
    parser.add_argument("--same-time", choices=SAME_TIME_ORDERS,
                        help="override: which events go first at one timestamp")
    parser.add_argument("--passes", choices=PASS_MODES, help="override: when the scheduler runs")
    parser.add_argument("--no-clean", action="store_true", help="do not run the cleaning filters first")
    parser.add_argument("--lenient", action="store_true", help="skip malformed lines instead of stopping")
    parser.add_argument("--feedback", action="store_true",
                        help="closed-loop: a user's dependent session arrives its think time after the sessions it "
                        "waited for end in this replay (docs/sessions.md); on the reference engine")
    parser.add_argument("--delimit", choices=("arrival", "termination"), default="arrival",
                        help="with --feedback: how sessions are cut (default: arrival)")
    parser.add_argument("--threshold", type=DURATION, default=60.0,
                        help="with --feedback: gap that starts a new session, minutes (default: 60)")
    parser.add_argument("--keep-time-of-day", action="store_true",
                        help="with --feedback: a dependent session never starts earlier in its day than logged")
    parser.add_argument("--out", help="write the schedule to this file")
    parser.add_argument("--format", choices=FORMATS,
                        help="format of --out: swf (the input's fields with simulated waits), batsim "
                        "(Batsim's jobs.csv, for evalys), csv or parquet (the schedule table); "
                        "default: from the file name (.swf, .csv, .parquet)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab import node_replay

    if node_replay.takes_the_node_path(args):
        return node_replay.run(args)
    from schedlab.parsers.cleaning import clean_or_refuse, refuse_empty
    from schedlab.parsers.swf import read_swf
    from schedlab.reports.exports import default_workload_name, format_from_path, write_schedule
    from schedlab.progress import callback_bar
    from schedlab.tables import metric_lines
    from schedlab.simulators.batch.replay import replay

    if args.format and not args.out:
        raise UsageError("--format says how to write --out: give --out FILE too")
    out_format = (args.format or format_from_path(args.out)) if args.out else None
    trace = read_swf(args.trace, strict=not args.lenient, machine_procs=args.procs)
    refuse_empty(trace.job_count, args.trace)
    procs = args.procs or trace.machine_procs
    if not procs:
        raise UsageError(f"{args.trace}: no machine size in the header; give --procs")
    for warning in trace.warnings:
        print(f"note: {warning}", file=sys.stderr)
    jobs = trace.columns  # numpy columns: pandas is imported only where a table needs it (Parquet, sessions)
    if args.conventions == "default" and not args.no_clean:
        jobs, report = clean_or_refuse(jobs, procs, args.trace)
        print(report.summary(), file=sys.stderr)
    estimates = args.estimates
    if estimates == "requested" and args.conventions == "default" and not (jobs["requested_time"] > 0).any():
        # Cleaning takes the run time for a missing request, so the replay is the one of 'actual': say so.
        estimates = "actual"
        print("note: no job has a requested time (field 9): the scheduler's estimates are the run times "
              "(estimates=actual)", file=sys.stderr)
    sessions = None
    if args.feedback:
        if args.conventions != "default" or args.no_clean:
            raise UsageError("--feedback replays a cleaned trace under the default conventions")
        import pandas as pd

        from schedlab.workloads.fitting import header_clock
        from schedlab.workloads.sessions import keeping_time_of_day, sessions_of

        jobs = pd.DataFrame(jobs)
        sessions = sessions_of(jobs, args.delimit, 60.0 * args.threshold, Path(args.trace).name)
        if args.keep_time_of_day:
            sessions = keeping_time_of_day(sessions, *header_clock(trace.header))
    elif args.keep_time_of_day:
        raise UsageError("--keep-time-of-day is an option of closed-loop replay: give --feedback too")
    began = time.perf_counter()
    quiet = getattr(args, "quiet", False)
    job_count = len(jobs["job_id"])
    with callback_bar(job_count, "replay", unit="job", quiet=quiet) as advance:
        result = replay(
            jobs, procs, policy=args.policy, order=args.order, estimates=estimates,
            conventions=args.conventions, same_time=args.same_time, passes=args.passes, progress=advance,
            sessions=sessions,
        )
    elapsed = time.perf_counter() - began
    print(result.settings())
    print(metric_lines(result.metrics))
    print(f"simulated {job_count:,} jobs in {elapsed:.2f} s ({job_count / max(elapsed, 1e-9):,.0f} jobs/s)")
    if args.out:
        write_schedule(
            result.schedule_columns, args.out, out_format, jobs=jobs, machine_procs=procs,
            produced_by=f"schedlab {__version__} replay of {Path(args.trace).name} ({result.settings()})",
            workload_name=default_workload_name(args.trace), source_header=trace.header,
        )
        print(f"schedule written to {args.out} ({out_format})")
    return 0
