"""``schedlab convert``: a Slurm (sacct) or PBS/Torque accounting log as an SWF 2.2 trace."""

from __future__ import annotations

import sys

#: The one-line summary ``schedlab --help`` lists.
HELP = "convert a Slurm sacct or PBS/Torque accounting log to SWF"


def register(subparsers) -> None:
    from schedlab.options import COUNT

    parser = subparsers.add_parser(
        "convert",
        help=HELP,
        description=(
            "Turn 'sacct --parsable2' output (fields JobID, Submit, Start, End, State, AllocCPUS, Timelimit; "
            "User, Group, Partition, JobName, ReqCPUS used when present) or a PBS/Torque accounting log into "
            "an SWF 2.2 trace: jobs in submit order numbered from 1, times from the first submission, states "
            "as SWF status codes, time limits as requested times, names as numbered ids. Job steps and jobs "
            "not finished are skipped and counted. With -o ending .parquet or .csv it writes the job table "
            "instead, with each job's nodes, GPUs, memory, partition and QOS. The field mapping is in "
            "docs/convert.md."
        ),
    )
    parser.add_argument("log", help="sacct --parsable2 output or a PBS/Torque accounting file")
    parser.add_argument("-o", "--output", required=True,
                        help="file to write: SWF (.swf, .swf.gz), or the job table with each job's nodes, GPUs, "
                             "memory, partition and QOS (.parquet, .csv), which SWF cannot hold")
    parser.add_argument("--format", choices=("auto", "sacct", "pbs"), default="auto",
                        help="the log's format (default: auto, from its first line)")
    parser.add_argument("--procs", type=COUNT, help="machine size in processors (default: the largest job seen)")
    parser.add_argument("--time-zone", default="UTC",
                        help="IANA time zone of sacct's timestamps (default: UTC; PBS logs use Unix times)")
    parser.add_argument("--computer", help="machine name for the SWF header")
    parser.add_argument("--lenient", action="store_true", help="skip unreadable lines (counted) instead of stopping")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.parsers.accounting import detect_format, read_pbs, read_sacct
    from schedlab.parsers.job_table import is_job_table_path, write_job_table
    from schedlab.parsers.swf import write_swf

    kind = detect_format(args.log) if args.format == "auto" else args.format
    strict = not args.lenient
    if kind == "sacct":
        conversion = read_sacct(args.log, args.time_zone, args.procs, strict, args.computer)
    else:
        conversion = read_pbs(args.log, args.procs, strict, args.computer)
    if is_job_table_path(args.output):
        write_job_table(args.output, conversion.jobs, conversion.header)
    else:
        write_swf(args.output, conversion.jobs, conversion.header)
        for line in conversion.dropped_by_swf():
            print(f"warning: {line}", file=sys.stderr)
    print(f"{len(conversion.jobs):,} jobs written to {args.output} (from {kind})")
    for line in conversion.skip_summary():
        print(f"skipped {line}", file=sys.stderr)
    return 0
