"""``schedlab gantt SCHEDULE -o FIGURE``: a Gantt chart of a window of a replayed schedule."""

from __future__ import annotations

from schedlab.errors import InputError, SchedlabError, UsageError, require_regular_file
from schedlab.options import COUNT, DURATION, POSITIVE_DURATION

FIGURE_SUFFIXES = (".png", ".svg", ".pdf")

#: The one-line summary ``schedlab --help`` lists.
HELP = "draw which processors each job of a replayed schedule held, over a time window"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "gantt",
        help=HELP,
        description=(
            "Draw a Gantt chart (time x processor ids) of a schedule written by 'schedlab replay --out' "
            "(any format) or a pipeline replay's schedule.swf.  Processor ids are the lowest free ones "
            "at each start, as in the Batsim export."
        ),
    )
    parser.add_argument("schedule", help="schedule file: .swf, .parquet, .csv, or Batsim jobs.csv")
    parser.add_argument("-o", "--output", required=True, help=f"figure to write ({', '.join(FIGURE_SUFFIXES)})")
    parser.add_argument("--procs", type=COUNT, help="machine size, >= 1 (default: the SWF header's MaxProcs)")
    parser.add_argument("--start", type=DURATION, help="window start, seconds >= 0 (default: the first start)")
    parser.add_argument("--hours", type=POSITIVE_DURATION, default=24.0, help="window length in hours, > 0 (default: 24)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.reports.exports import read_schedule
    from schedlab.reports.gantt import gantt_figure
    from schedlab.atomic import atomic_path

    if not args.output.endswith(FIGURE_SUFFIXES):
        raise UsageError(f"--output must end with {', '.join(FIGURE_SUFFIXES)}: {args.output}")
    require_regular_file(args.schedule, "a schedule file")
    if args.schedule.lower().endswith(".parquet"):
        check_page_checksums(args.schedule)
    schedule, stated_procs = read_schedule(args.schedule)
    procs = args.procs or stated_procs
    if not procs or procs <= 0:
        raise UsageError(f"{args.schedule}: the file does not state the machine size; give --procs")
    if schedule.empty:
        raise SchedlabError(f"{args.schedule}: the schedule has no jobs")
    check_schedule(schedule, procs, args.schedule)
    start = float(schedule["start"].min()) if args.start is None else args.start
    end = start + args.hours * 3_600.0
    figure = gantt_figure(schedule, procs, start, end, title=args.schedule.rsplit("/", 1)[-1])
    with atomic_path(args.output) as temporary:
        figure.savefig(temporary, format=args.output.rsplit(".", 1)[-1], dpi=120)
    print(f"{args.output}: jobs running in [{start:,.0f}, {end:,.0f}) s on {procs} processors")
    return 0


def check_page_checksums(path: str) -> None:
    """Refuse, naming the file, a Parquet schedule whose pages fail their checksums (a flipped bit
    that still decodes would draw a wrong chart)."""
    import pyarrow.parquet as pq

    try:
        pq.read_table(path, page_checksum_verification=True)
    except (OSError, ValueError) as error:
        reason = str(error).strip().split("\n")[0] or type(error).__name__
        raise InputError(path, None, f"not a readable Parquet schedule ({reason})") from None


def check_schedule(schedule, procs: int, path: str) -> None:
    """Refuse a schedule no machine could have run: a job ending before it starts or starting before
    its submission, or of no processors or more than the machine's (the first such row named)."""
    import numpy as np

    problems = {
        "ends before it starts": schedule["end"].to_numpy(float) < schedule["start"].to_numpy(float),
        "starts before it is submitted": schedule["start"].to_numpy(float) < schedule["submit"].to_numpy(float),
        f"needs no processor or more than the machine's {procs}": ~((schedule["procs"].to_numpy(float) >= 1)
                                                                     & (schedule["procs"].to_numpy(float) <= procs)),
    }
    for what, bad in problems.items():
        if bad.any():
            row = schedule.iloc[int(np.flatnonzero(bad)[0])]
            raise InputError(path, None, f"job {row['job_id']} {what} (submit {row['submit']:g}, start "
                                         f"{row['start']:g}, end {row['end']:g}, {row['procs']:g} processors)")
