"""``schedlab koala``: simulate one KOALA coallocation point (Sonmez et al., TPDS 2010) and print its metrics."""

from __future__ import annotations

import sys
import time

from schedlab.atomic import atomic_path
from schedlab.errors import SchedlabError
from schedlab.options import DURATION, POSITIVE_DURATION, SEED, UTILIZATION, counts

#: The one-line summary ``schedlab --help`` lists.
HELP = "simulate KOALA's WF / FCM / CA placement on the DAS-3 multicluster"


def register(subparsers) -> None:
    from schedlab.simulators.koala.experiments import PROFILES
    from schedlab.simulators.koala.simulate import POLICIES

    quick = PROFILES["quick"]

    parser = subparsers.add_parser(
        "koala",
        help=HELP,
        description=(
            "Run one Poisson workload of one application on DAS-3 (config A: without Delft; B: without "
            "Leiden) under one placement policy and print response times, utilizations and saturation. "
            "The full experiment grid and report: luigi --module pipeline.koala KoalaReport --profile quick."
        ),
    )
    parser.add_argument("--app", default="wave", help="prime, poisson, wave or ccr-<value> (default: wave)")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="FCM",
                        help="WF (no coallocation), FCM, FCM2 (at most 2 clusters) or CA (default: FCM)")
    parser.add_argument("--utilization", type=UTILIZATION, default=0.5,
                        help=f"target net utilization, {UTILIZATION.range} (default: 0.5)")
    parser.add_argument("--config", choices=("A", "B"), default="A", help="DAS-3 configuration (default: A)")
    parser.add_argument("--sizes", type=counts, default=(8, 16, 32),
                        help="job sizes in nodes (whole numbers >= 1), drawn uniformly (default: 8,16,32)")
    parser.add_argument("--hours", type=POSITIVE_DURATION, default=quick.hours,
                        help=f"hours of arrivals, > 0 (default: {quick.hours:g}, as the quick profile; the paper: 24)")
    parser.add_argument("--seed", type=SEED, default=quick.seeds[0],
                        help=f"workload seed, >= 0 (default: {quick.seeds[0]}, the quick profile's first)")
    parser.add_argument("--slowest-processor", action="store_true",
                        help="stretch coallocated computation to the slowest processor's speed")
    parser.add_argument("--startup-overhead", type=DURATION, default=0.0,
                        help="seconds from placement to start, >= 0 (default: 0)")
    parser.add_argument("--out", help="write the per-job schedule to this .csv file")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.tables import metric_lines
    from schedlab.simulators.koala.simulate import Point, simulate

    point = Point(args.app, args.policy, args.utilization, args.seed, args.config, args.sizes, args.hours,
                  args.slowest_processor, args.startup_overhead)
    began = time.perf_counter()
    try:
        result, summary = simulate(point)
    except ValueError as error:
        raise SchedlabError(str(error)) from None
    elapsed = time.perf_counter() - began
    print(", ".join(f"{key}={value}" for key, value in vars(point).items()))
    print(metric_lines(summary))
    print(f"simulated {summary['jobs']:,} jobs in {elapsed:.2f} s", file=sys.stderr)
    if args.out:
        with atomic_path(args.out) as temporary:
            result.jobs.to_csv(temporary, index=False, lineterminator="\n")
        print(f"schedule written to {args.out}", file=sys.stderr)
    return 0
