"""``schedlab koala``: simulate one KOALA coallocation point (Sonmez et al., TPDS 2010) and print its metrics."""

from __future__ import annotations

import sys
import time

from schedlab.atomic import atomic_path
from schedlab.errors import SchedlabError

#: The one-line summary ``schedlab --help`` lists.
HELP = "simulate KOALA's WF / FCM / CA placement on the DAS-3 multicluster"


def register(subparsers) -> None:
    from simulators.koala.simulate import POLICIES

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
    parser.add_argument("--utilization", type=float, default=0.5, help="target net utilization (default: 0.5)")
    parser.add_argument("--config", choices=("A", "B"), default="A", help="DAS-3 configuration (default: A)")
    parser.add_argument("--sizes", default="8,16,32", help="job sizes in nodes, drawn uniformly (default: 8,16,32)")
    parser.add_argument("--hours", type=float, default=24.0, help="hours of arrivals (default: 24)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slowest-processor", action="store_true",
                        help="stretch coallocated computation to the slowest processor's speed")
    parser.add_argument("--startup-overhead", type=float, default=0.0, help="seconds from placement to start")
    parser.add_argument("--out", help="write the per-job schedule to this .csv file")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from simulators.koala.simulate import Point, simulate

    try:
        sizes = tuple(int(size) for size in args.sizes.split(","))
    except ValueError:
        raise SchedlabError(f"--sizes must be whole numbers separated by commas, got {args.sizes!r}") from None
    point = Point(args.app, args.policy, args.utilization, args.seed, args.config, sizes, args.hours,
                  args.slowest_processor, args.startup_overhead)
    began = time.perf_counter()
    try:
        result, summary = simulate(point)
    except ValueError as error:
        raise SchedlabError(str(error)) from None
    elapsed = time.perf_counter() - began
    print(", ".join(f"{key}={value}" for key, value in vars(point).items()))
    width = max(map(len, summary))
    for key, value in summary.items():
        print(f"  {key:<{width}}  {value:,.4f}" if isinstance(value, float) else f"  {key:<{width}}  {value}")
    print(f"simulated {summary['jobs']:,} jobs in {elapsed:.2f} s", file=sys.stderr)
    if args.out:
        with atomic_path(args.out) as temporary:
            result.jobs.to_csv(temporary, index=False, lineterminator="\n")
        print(f"schedule written to {args.out}", file=sys.stderr)
    return 0
