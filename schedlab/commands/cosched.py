"""``schedlab cosched``: run two traces together with coscheduling of paired jobs (spec 000)."""

from __future__ import annotations

from schedlab.errors import UsageError
from schedlab.options import COUNT, DURATION, POSITIVE_DURATION, number, whole_number

#: Pairing ratios and held shares: above 0, at most all.
SHARE_ABOVE_ZERO = number(0, 1, low_open=True)

SCHEME_CHOICES = ("HH", "HY", "YH", "YY", "base")

#: The one-line summary ``schedlab --help`` lists.
HELP = "coschedule paired jobs of two traces on two machines (hold / yield)"


def register(subparsers) -> None:
    from schedlab.simulators.cosched.coscheduler import DEFAULT_RELEASE_AFTER, DEFAULT_RELEASE_PERIOD
    from schedlab.simulators.cosched.experiments import PAIRING_WINDOW_SECONDS

    parser = subparsers.add_parser(
        "cosched",
        help=HELP,
        description=(
            "Clean both traces (see 'schedlab info'), then simulate machine A and machine B in one "
            "event loop, both WFP + EASY backfilling, with jobs paired by submit-time window or by "
            "ratio; print the pairing, each machine's metrics and whether the run deadlocked."
        ),
    )
    parser.add_argument("trace_a", help="SWF file of machine A")
    parser.add_argument("trace_b", help="SWF file of machine B")
    parser.add_argument("--procs-a", type=COUNT, help="machine A size, >= 1 (default: its header's MaxProcs)")
    parser.add_argument("--procs-b", type=COUNT, help="machine B size, >= 1 (default: its header's MaxProcs)")
    parser.add_argument("--scheme", choices=SCHEME_CHOICES, default="HH",
                        help="A's then B's scheme: H(old) or Y(ield); base = no coscheduling (default HH)")
    pairing = parser.add_mutually_exclusive_group()
    pairing.add_argument("--window", type=DURATION, default=PAIRING_WINDOW_SECONDS,
                         help=f"pair jobs submitted this many seconds apart, >= 0 (default {PAIRING_WINDOW_SECONDS:g}, "
                              "as the experiments)")
    pairing.add_argument("--ratio", type=SHARE_ABOVE_ZERO,
                         help=f"pair every k-th job instead, k = round(1/ratio), ratio {SHARE_ABOVE_ZERO.range} (e.g. 0.1)")
    parser.add_argument("--release-period", type=POSITIVE_DURATION, default=DEFAULT_RELEASE_PERIOD,
                        help=f"seconds between releases of held nodes, > 0 (default {DEFAULT_RELEASE_PERIOD:g})")
    parser.add_argument("--no-release", action="store_true", help="never release held nodes (hold-hold may deadlock)")
    parser.add_argument("--release-after", type=DURATION, default=DEFAULT_RELEASE_AFTER,
                        help=f"release only holds this many seconds old, >= 0 (default {DEFAULT_RELEASE_AFTER:g})")
    parser.add_argument("--max-held-share", type=SHARE_ABOVE_ZERO, default=1.0,
                        help=f"yield instead of holding above this share of the machine, {SHARE_ABOVE_ZERO.range} "
                             "(default 1: never)")
    parser.add_argument("--max-yields", type=whole_number(0),
                        help="a yielding job holds after this many yields, >= 0 (default: no limit)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.progress import callback_bar
    from schedlab.tables import metric_lines, metric_table
    from schedlab.traces import read_cleaned
    from schedlab.simulators.cosched import CoschedSettings, cosimulate
    from schedlab.simulators.cosched.experiments import COMBINATIONS
    from schedlab.simulators.cosched.workloads import make_pairs

    a = read_cleaned(args.trace_a, args.procs_a, "--procs-a")
    b = read_cleaned(args.trace_b, args.procs_b, "--procs-b")
    tables, sizes = [a.jobs, b.jobs], [a.machine_procs, b.machine_procs]
    mode, value = ("ratio", args.ratio) if args.ratio is not None else ("window", args.window)
    pairing = make_pairs(tables[0], tables[1], mode, value)
    settings = None
    if args.scheme != "base":
        try:
            settings = CoschedSettings(
                COMBINATIONS[args.scheme],
                release_period=None if args.no_release else args.release_period,
                release_after=args.release_after,
                max_held_share=args.max_held_share,
                max_yields=args.max_yields,
            )
        except ValueError as error:
            raise UsageError(str(error)) from None
    with callback_bar(len(tables[0]) + len(tables[1]), "cosched", unit="job", quiet=getattr(args, "quiet", False)) as advance:
        result = cosimulate(tables[0], sizes[0], tables[1], sizes[1], pairing.pairs, settings, progress=advance)
    print(f"scheme {args.scheme}, machine A {sizes[0]:,} processors, machine B {sizes[1]:,} processors")
    print(f"pairing ({mode} {value:g})")
    print(metric_lines(pairing.summary()))
    print("metrics")
    print(metric_table({f"A ({args.trace_a.rsplit('/', 1)[-1]})": result.metrics["A"],
                        f"B ({args.trace_b.rsplit('/', 1)[-1]})": result.metrics["B"]}))
    print(describe_deadlock(result.deadlock))
    return 0


def describe_deadlock(deadlock: dict) -> str:
    """One line on whether the run deadlocked, and where each machine's last job started."""
    last = ", ".join(f"{machine} {time:,.0f} s" for machine, time in deadlock["last_start"].items())
    if not deadlock["deadlock"]:
        return f"deadlock: no (last starts: {last})"
    unstarted = ", ".join(f"{machine} {count:,}" for machine, count in deadlock["unstarted"].items())
    return (f"deadlock: yes, {deadlock['kind']} at {deadlock['time']:,.0f} s; {len(deadlock['stuck'])} job(s) stuck; "
            f"never started: {unstarted} (last starts: {last})")
