"""``schedlab bandwidth``: simulate one bandwidth-centric co-allocation point (Jones et al., ICPADS 2006)."""

from __future__ import annotations

import sys
import time

from schedlab.errors import SchedlabError
from schedlab.options import LOAD, SEED, SHARE, number, whole_number

#: The one-line summary ``schedlab --help`` lists.
HELP = "simulate co-allocation over 4 x 100 nodes joined by 1000 Mb/s links"


def register(subparsers) -> None:
    from schedlab.simulators.bandwidth.experiments import PAPER_PASS_ORDER, PROFILES
    from schedlab.simulators.bandwidth.placement import PASS_ORDERS, STRATEGIES
    from schedlab.simulators.bandwidth.workload import WORKLOADS
    from schedlab.simulators.multicluster.topology import STAR_LINK_MBPS

    quick, paper = PROFILES["quick"], PROFILES["paper"]
    # A processor's traffic crosses its cluster's one link: it cannot exceed that link's rate.
    ppbw = number(0, STAR_LINK_MBPS)

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
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="ics",
                        help="co-allocation strategy, or one of the limits (zero_comm, migration_only, no_share) "
                             "(default: ics)")
    parser.add_argument("--ppbw", type=ppbw, default=None,
                        help=f"Mb/s per processor for every job, {ppbw.range} (the link rate) "
                             "(default: each job draws U[0, 300])")
    parser.add_argument("--information", type=SHARE, default=1.0,
                        help=f"share of jobs exposing PPBW and rho to ICS, {SHARE.range} (default: 1)")
    parser.add_argument("--jobs-per-cluster", type=whole_number(2), default=quick.jobs_per_cluster,
                        help=f"jobs per cluster, >= 2 (default: {quick.jobs_per_cluster:,}, as the quick profile; "
                             f"the paper: {paper.jobs_per_cluster:,})")
    parser.add_argument("--seed", type=SEED, default=quick.seeds[0],
                        help=f"workload seed, >= 0 (default: {quick.seeds[0]}, the quick profile's first)")
    parser.add_argument("--load", type=LOAD, default=None,
                        help="offered load per cluster of the realistic stream (workloads realistic, A, C, D, C_load, "
                             "D_load; default: that of the trace the realistic model was fitted to)")
    parser.add_argument("--pass-order", choices=PASS_ORDERS, default=PAPER_PASS_ORDER,
                        help="as_stated (the paper's text): ICS places every waiting job that fits whole before "
                             "co-allocating any, the other strategies take local, migration, co-allocation job by "
                             "job; whole_first or per_job: every strategy that way")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.tables import metric_lines
    from schedlab.simulators.bandwidth.simulate import Point, simulate

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
    print(metric_lines(summary))
    print(f"{summary['jobs']:,} jobs in {elapsed:.2f} s", file=sys.stderr)
    return 0
