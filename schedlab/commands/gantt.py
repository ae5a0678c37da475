"""``schedlab gantt SCHEDULE -o FIGURE``: a Gantt chart of a window of a replayed schedule."""

from __future__ import annotations

from schedlab.errors import SchedlabError, UsageError
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
    schedule, stated_procs = read_schedule(args.schedule)
    procs = args.procs or stated_procs
    if not procs or procs <= 0:
        raise UsageError(f"{args.schedule}: the file does not state the machine size; give --procs")
    if schedule.empty:
        raise SchedlabError(f"{args.schedule}: the schedule has no jobs")
    start = float(schedule["start"].min()) if args.start is None else args.start
    end = start + args.hours * 3_600.0
    figure = gantt_figure(schedule, procs, start, end, title=args.schedule.rsplit("/", 1)[-1])
    with atomic_path(args.output) as temporary:
        figure.savefig(temporary, format=args.output.rsplit(".", 1)[-1], dpi=120)
    print(f"{args.output}: jobs running in [{start:,.0f}, {end:,.0f}) s on {procs} processors")
    return 0
