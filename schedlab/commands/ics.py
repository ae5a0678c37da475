"""``schedlab ics``: simulate one implicit-coscheduling point (Yu, Kim and Maeng) and print its metrics."""

from __future__ import annotations

import sys

#: The one-line summary ``schedlab --help`` lists.
HELP = "simulate a time-shared cluster under LOCAL, DCS, PB, PROC-S, SB, HYBRID, PROC-B, GS or BATCH"


def register(subparsers) -> None:
    from simulators.ics.experiments import ALL_SCHEMES, PROFILES
    from simulators.ics.run import ENGINES
    from simulators.ics.workload import WORKLOADS

    quick = PROFILES["quick"]

    parser = subparsers.add_parser(
        "ics",
        help=HELP,
        description=(
            "Run one synthetic workload (jobs looping compute -> I/O -> communicate) on single-CPU nodes "
            "under one coscheduling scheme, message by message, and print response times, BCR, FDR and the "
            "CPU profile.  Times are in compressed seconds (job lengths and gaps divided by --compression). "
            "The full experiment set and report: luigi --module pipeline.ics IcsReport --profile quick."
        ),
    )
    parser.add_argument("--scheme", choices=ALL_SCHEMES, default="PROC-B", help="scheduling scheme (default: PROC-B)")
    parser.add_argument("--workload", choices=sorted(WORKLOADS), default="wl4",
                        help="job-type mix, wl1 (compute-bound) .. wl5 (default: wl4 = J1+J2+J3)")
    parser.add_argument("--load", choices=("heavy", "light"), default="heavy",
                        help="mean inter-arrival time 1554.42 s (heavy) or 2480 s (light) (default: heavy)")
    parser.add_argument("--jobs", type=int, default=quick.n_jobs,
                        help=f"number of jobs; the first and last fifth are warm-up and drain (default: {quick.n_jobs}, "
                             "as the quick profile)")
    parser.add_argument("--compression", type=float, default=quick.compression,
                        help=f"time compression factor (default: {quick.compression:g}, as the quick profile)")
    parser.add_argument("--skew", type=float, default=0.10, help="task skew v (default: 0.10)")
    parser.add_argument("--nodes", type=int, default=32, help="single-CPU nodes, at least 32 (default: 32)")
    parser.add_argument("--mpl", type=int, default=5, help="most processes per node (default: 5)")
    parser.add_argument("--seed", type=int, default=1, help="workload seed (default: 1)")
    parser.add_argument("--engine", choices=ENGINES, default=ENGINES[0],
                        help="compiled kernel, or the pure-Python reference it matches bit for bit (default: compiled)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.errors import SchedlabError
    from simulators.ics.experiments import Point

    if args.jobs < 1 or args.compression <= 0 or args.mpl < 1 or not 0 <= args.skew < 1:
        raise SchedlabError("--jobs and --mpl must be >= 1, --compression > 0 and --skew in [0, 1)")
    if args.nodes < 32:
        raise SchedlabError("--nodes must be at least 32 (synthetic jobs have up to 32 processes)")
    point = Point(scheme=args.scheme, workload=args.workload, load=args.load, n_jobs=args.jobs,
                  skew=args.skew, compression=args.compression, nodes=args.nodes, mpl=args.mpl, seed=args.seed)
    result = point.run(engine=args.engine)
    width = max(map(len, result.summary))
    for key, value in result.summary.items():
        print(f"  {key:<{width}}  {value:,.4f}" if isinstance(value, float) else f"  {key:<{width}}  {value}")
    print(f"{result.events:,} events in {result.wall_seconds:.2f} s "
          f"({result.events / result.wall_seconds:,.0f} events/s)", file=sys.stderr)
    return 0
