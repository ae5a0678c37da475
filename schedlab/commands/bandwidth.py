"""``schedlab bandwidth``: simulate one bandwidth-centric co-allocation point (Jones et al., ICPADS 2006)."""

from __future__ import annotations

import sys
import time

from schedlab.errors import SchedlabError

#: The one-line summary ``schedlab --help`` lists.
HELP = "simulate co-allocation over 4 x 100 nodes joined by 1000 Mb/s links"


def register(subparsers) -> None:
    from simulators.bandwidth.placement import PASS_ORDERS, STRATEGIES
    from simulators.bandwidth.workload import WORKLOADS

    parser = subparsers.add_parser(
        "bandwidth",
        help=HELP,
        description=(
            "Run one workload on four 100-node clusters, each with one 1000 Mb/s link to a central switch, "
            "under one co-allocation strategy, and print mean turnaround and placement shares. The full "
            "experiment grid and report: luigi --module pipeline.bandwidth BandwidthReport --profile quick."
        ),
    )
    parser.add_argument("--workload", choices=WORKLOADS, default="synthetic",
                        help="the paper's workloads; C_load and D_load are C and D with the realistic stream's "
                             "offered load kept (default: synthetic)")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="ics")
    parser.add_argument("--ppbw", type=float, default=None,
                        help="Mb/s per processor for every job (default: each job draws U[0, 300])")
    parser.add_argument("--information", type=float, default=1.0,
                        help="share of jobs exposing PPBW and rho to ICS (default: 1)")
    parser.add_argument("--jobs-per-cluster", type=int, default=2000, help="(default: 2000; the paper: 400000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--load", type=float, default=None,
                        help="offered load per cluster of the realistic stream (workloads realistic, A, C, D, C_load, "
                             "D_load; default: that of the trace the realistic model was fitted to)")
    parser.add_argument("--pass-order", choices=PASS_ORDERS, default=PASS_ORDERS[0],
                        help="whole_first (the paper's): place every waiting job that fits whole before "
                             "co-allocating any; per_job: local, migration, co-allocation job by job")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from simulators.bandwidth.simulate import Point, simulate

    if args.jobs_per_cluster < 2:
        raise SchedlabError("--jobs-per-cluster must be at least 2")
    point = Point(args.workload, args.strategy, args.ppbw, args.information, args.jobs_per_cluster, args.seed,
                  args.pass_order, args.load)
    began = time.perf_counter()
    try:
        _, summary = simulate(point)
    except ValueError as error:
        raise SchedlabError(str(error)) from None
    elapsed = time.perf_counter() - began
    print(f"{point.workload} workload, {point.strategy}, PPBW {'U[0, 300]' if point.ppbw is None else point.ppbw} Mb/s, "
          f"information {point.information:g}, {point.jobs_per_cluster:,} jobs per cluster, seed {point.seed}, "
          f"pass order {point.pass_order}, load {'of the trace' if point.load is None else point.load}")
    for key, value in summary.items():
        print(f"  {key.replace('_', ' ')}: {value:.4g}" if isinstance(value, float) else f"  {key}: {value}")
    print(f"{summary['jobs']:,} jobs in {elapsed:.2f} s", file=sys.stderr)
    return 0
