"""``schedlab cosched``: run two traces together with coscheduling of paired jobs (spec 000)."""

from __future__ import annotations

import json

from schedlab.errors import SchedlabError

SCHEME_CHOICES = ("HH", "HY", "YH", "YY", "base")

#: The one-line summary ``schedlab --help`` lists.
HELP = "coschedule paired jobs of two traces on two machines (hold / yield)"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "cosched",
        help=HELP,
        description=(
            "Simulate machine A and machine B in one event loop, both WFP + EASY backfilling, "
            "with jobs paired by submit-time window or by ratio; print each machine's metrics "
            "and whether the run deadlocked."
        ),
    )
    parser.add_argument("trace_a", help="SWF file of machine A")
    parser.add_argument("trace_b", help="SWF file of machine B")
    parser.add_argument("--procs-a", type=int, help="machine A size (default: its header's MaxProcs)")
    parser.add_argument("--procs-b", type=int, help="machine B size (default: its header's MaxProcs)")
    parser.add_argument("--scheme", choices=SCHEME_CHOICES, default="HH",
                        help="A's then B's scheme: H(old) or Y(ield); base = no coscheduling (default HH)")
    pairing = parser.add_mutually_exclusive_group()
    pairing.add_argument("--window", type=float, default=120.0, help="pair jobs submitted this many seconds apart (default 120)")
    pairing.add_argument("--ratio", type=float, help="pair every k-th job instead, k = 1/ratio (e.g. 0.1)")
    parser.add_argument("--release-period", type=float, default=1200.0,
                        help="seconds between releases of held nodes (default 1200)")
    parser.add_argument("--no-release", action="store_true", help="never release held nodes (hold-hold may deadlock)")
    parser.add_argument("--release-after", type=float, default=600.0, help="release only holds this old (default 600 s)")
    parser.add_argument("--max-held-share", type=float, default=1.0, help="yield instead of holding above this share")
    parser.add_argument("--max-yields", type=int, help="a yielding job holds after this many yields")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from parsers.cleaning import clean
    from parsers.swf import read_swf
    from schedlab.progress import callback_bar
    from simulators.cosched import CoschedSettings, cosimulate
    from simulators.cosched.experiments import COMBINATIONS
    from simulators.cosched.workloads import make_pairs

    tables, sizes = [], []
    for path, procs in ((args.trace_a, args.procs_a), (args.trace_b, args.procs_b)):
        trace = read_swf(path)
        size = procs or trace.machine_procs
        if not size:
            raise SchedlabError(f"{path}: no MaxProcs in the header; give the machine size")
        jobs, _ = clean(trace.jobs, size)
        tables.append(jobs)
        sizes.append(size)
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
            raise SchedlabError(str(error)) from error
    with callback_bar(len(tables[0]) + len(tables[1]), "cosched", unit="job", quiet=getattr(args, "quiet", False)) as advance:
        result = cosimulate(tables[0], sizes[0], tables[1], sizes[1], pairing.pairs, settings, progress=advance)
    print(json.dumps({"pairing": pairing.summary(), "metrics": result.metrics, "deadlock": result.deadlock}, indent=2))
    return 0
