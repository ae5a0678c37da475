"""``schedlab ics``: simulate one implicit-coscheduling point (Yu, Kim and Maeng) and print its metrics."""

from __future__ import annotations

import dataclasses
import sys

from schedlab.options import COUNT, SEED, number, whole_number

#: The one-line summary ``schedlab --help`` lists.
HELP = "simulate a time-shared cluster under LOCAL, DCS, PB, PROC-S, SB, HYBRID, PROC-B, GS or BATCH"


def register(subparsers) -> None:
    from schedlab.simulators.ics.experiments import ALL_SCHEMES, PROFILES, Point
    from schedlab.simulators.ics.run import ENGINES
    from schedlab.simulators.ics.workload import WORKLOADS

    quick = PROFILES["quick"]
    point = {field.name: field.default for field in dataclasses.fields(Point)}  # what the profiles' points use

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
    parser.add_argument("--jobs", type=COUNT, default=quick.n_jobs,
                        help=f"number of jobs; the first and last fifth are warm-up and drain (default: {quick.n_jobs}, "
                             "as the quick profile)")
    parser.add_argument("--compression", type=number(0, low_open=True), default=quick.compression,
                        help=f"time compression factor, > 0 (default: {quick.compression:g}, as the quick profile)")
    parser.add_argument("--skew", type=number(0, 1, high_open=True), default=point["skew"],
                        help=f"task skew v, in [0, 1) (default: {point['skew']:g})")
    parser.add_argument("--nodes", type=whole_number(32), default=point["nodes"],
                        help=f"single-CPU nodes, at least 32: synthetic jobs have up to 32 processes "
                             f"(default: {point['nodes']})")
    parser.add_argument("--mpl", type=COUNT, default=point["mpl"],
                        help=f"most processes per node, >= 1 (default: {point['mpl']})")
    parser.add_argument("--seed", type=SEED, default=quick.seeds[0],
                        help=f"workload seed, >= 0 (default: {quick.seeds[0]}, the quick profile's first)")
    parser.add_argument("--engine", choices=ENGINES, default=ENGINES[0],
                        help="compiled kernel, or the pure-Python reference it matches bit for bit (default: compiled)")
    parser.add_argument("--plain-ts-boost", action="store_true",
                        help="a boost preempts only a runner of a lower priority level, never a busy-waiting one of "
                             "the same level (default: it takes the CPU from a same-level spinner too); PROC-S can "
                             "livelock under it and then fails as a runaway")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.tables import metric_lines
    from schedlab.simulators.ics.experiments import Point
    from schedlab.simulators.ics.simulate import simulate

    point = Point(scheme=args.scheme, workload=args.workload, load=args.load, n_jobs=args.jobs,
                  skew=args.skew, compression=args.compression, nodes=args.nodes, mpl=args.mpl, seed=args.seed,
                  boost_preempts_spinner=not args.plain_ts_boost)
    result, row = simulate(point, engine=args.engine)
    print(metric_lines(row["metrics"]))
    print(f"{result.events:,} events in {result.wall_seconds:.2f} s "
          f"({result.events / result.wall_seconds:,.0f} events/s)", file=sys.stderr)
    return 0
