"""``schedlab resample``: statistically similar workloads from one trace, by resampling its users."""

from __future__ import annotations

from pathlib import Path

#: The one-line summary ``schedlab --help`` lists.
HELP = "resample a trace's users into N similar workloads (long-term users kept, temporary users drawn)"


def register(subparsers) -> None:
    from schedlab.options import COUNT, SEED, number

    parser = subparsers.add_parser(
        "resample",
        help=HELP,
        description=(
            "User-based resampling (Zakay and Feitelson, ICPE 2013): long-term users keep their jobs with their "
            "weeks shuffled; temporary users are drawn anew each week at the log's rate, whole; temporary users "
            "are then added or removed until the offered load is the target's within the tolerance. Every job "
            "keeps its time of week. Writes one SWF per seed. The trace is cleaned first."
        ),
    )
    parser.add_argument("trace", help="SWF file, plain or .gz")
    parser.add_argument("-o", "--output", required=True, help="directory to write the resamples to")
    parser.add_argument("-n", "--count", type=COUNT, default=10, help="how many resamples (default: 10)")
    parser.add_argument("--seed", type=SEED, default=1, help="first seed; resample k uses seed + k (default: 1)")
    parser.add_argument("--weeks", type=COUNT, help="length in weeks (default: the log's)")
    parser.add_argument("--load", type=number(0, low_open=True), help="target offered load (default: the log's)")
    parser.add_argument("--long-term-share", type=number(0, 1, low_open=True), default=0.5,
                        help="share of the log's weeks a user must span to be long-term (default: 0.5)")
    parser.add_argument("--procs", type=COUNT, help="machine size (default: the trace header's MaxProcs)")
    parser.add_argument("--lenient", action="store_true", help="skip malformed lines instead of stopping")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.errors import UsageError
    from schedlab.parsers.cleaning import clean_or_refuse
    from schedlab.parsers.header import SwfHeader
    from schedlab.parsers.swf import read_swf, write_swf
    from schedlab.workloads.fitting import header_clock, local_week_seconds
    from schedlab.workloads.load import offered_load
    from schedlab.workloads.resampling import resample, user_activity

    trace = read_swf(args.trace, strict=not args.lenient, machine_procs=args.procs)
    procs = args.procs or trace.machine_procs
    if not procs:
        raise UsageError(f"{args.trace}: no machine size in the header; give --procs")
    jobs, _ = clean_or_refuse(trace.jobs, procs, args.trace)
    name = Path(args.trace).name
    submits = jobs["submit_time"].to_numpy(float)
    clock = local_week_seconds(submits, *header_clock(trace.header))
    # The Unix time of week 0's Monday 00:00, which the resamples' times count from (None: the trace's clock).
    week_start = None if trace.header.unix_start_time is None else int(
        trace.header.unix_start_time + submits[0] - clock[0])
    activity = user_activity(jobs, clock, args.long_term_share, name)
    print(f"{name}: {activity.weeks} weeks, {len(activity.long_term)} long-term and {len(activity.temporary)} "
          f"temporary users ({activity.new_temporary_per_week:.2f} new a week), offered load "
          f"{offered_load(jobs, procs):.3f}")
    directory = Path(args.output)
    directory.mkdir(parents=True, exist_ok=True)
    stem = name.split(".swf")[0]
    for seed in range(args.seed, args.seed + args.count):
        workload = resample(activity, procs, seed, args.weeks, args.load)
        path = directory / f"{stem}-resample-{seed}.swf"
        header = SwfHeader(version="2.2", max_procs=procs, max_jobs=len(workload), max_records=len(workload),
                           unix_start_time=week_start, time_zone_string=trace.header.time_zone_string,
                           notes=[f"user-based resample of {name} (schedlab resample, seed {seed}, long-term share "
                                  f"{args.long_term_share:g}); times count from the Monday 00:00 before the log's "
                                  "first submission, each job at its time of week in the log"])
        write_swf(path, workload, header)
        print(f"  seed {seed}: {len(workload):,} jobs of {workload['user_id'].nunique()} users, offered load "
              f"{offered_load(workload, procs):.3f} -> {path}")
    return 0
