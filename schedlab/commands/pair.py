"""``schedlab pair``: pair the jobs of two workloads for coscheduling."""

from __future__ import annotations

from schedlab.options import COUNT, DURATION, number

#: Shares of jobs to pair: above 0, at most all of them.
RATIO = number(0, 1, low_open=True)

#: The one-line summary ``schedlab --help`` lists.
HELP = "pair jobs of two workloads by submit-time window or fixed ratio"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "pair",
        help=HELP,
        description=(
            "Clean both workloads as 'schedlab cosched' and the pipeline do (see 'schedlab info'), then "
            "pair jobs of workload A with jobs of workload B, one-to-one: by default jobs "
            "submitted at most --window seconds apart (120), nearest first; with --ratio R "
            "every round(1/R)-th job of each, in submit order. Writes the pairs as CSV and "
            "prints the paired share of each workload."
        ),
    )
    parser.add_argument("a", help="SWF file of workload A (plain or .gz)")
    parser.add_argument("b", help="SWF file of workload B (plain or .gz)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--window", type=DURATION, metavar="SECONDS",
                      help="largest submit-time difference, >= 0 (default 120)")
    mode.add_argument("--ratio", type=RATIO, help=f"share of jobs to pair, {RATIO.range}, e.g. 0.1")
    parser.add_argument("--procs-a", type=COUNT, help="machine size of A, for cleaning (default: its header's MaxProcs)")
    parser.add_argument("--procs-b", type=COUNT, help="machine size of B, for cleaning (default: its header's MaxProcs)")
    parser.add_argument("-o", "--output", required=True, help="file of pairs to write (.csv or .parquet)")
    parser.add_argument("--lenient", action="store_true", help="skip malformed lines instead of stopping")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.reports.exports import write_columns
    from schedlab.traces import read_cleaned
    from schedlab.workloads.pairing import DEFAULT_WINDOW_SECONDS, pair_by_ratio, pair_by_window

    a = read_cleaned(args.a, args.procs_a, "--procs-a", strict=not args.lenient).jobs
    b = read_cleaned(args.b, args.procs_b, "--procs-b", strict=not args.lenient).jobs
    if args.ratio is not None:
        pairing = pair_by_ratio(a, b, args.ratio)
    else:
        pairing = pair_by_window(a, b, DEFAULT_WINDOW_SECONDS if args.window is None else args.window)
    write_columns(pairing.pairs, args.output)
    print(
        f"{len(pairing.pairs):,} pairs: {pairing.paired_share_a:.2%} of {pairing.jobs_a:,} jobs of A, "
        f"{pairing.paired_share_b:.2%} of {pairing.jobs_b:,} jobs of B; written to {args.output}"
    )
    return 0

