"""``schedlab scale``: scale a real trace's arrival gaps to a target load (half-synthetic)."""

from __future__ import annotations

from schedlab.options import COUNT, LOAD, POSITIVE_DURATION

#: The one-line summary ``schedlab --help`` lists.
HELP = "multiply a trace's arrival gaps by one constant to reach a target load"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "scale",
        help=HELP,
        description=(
            "Make a half-synthetic workload: the trace is cleaned, then every gap between "
            "submissions is multiplied by one constant so that the offered load is --load. "
            "--window keeps only the first SECONDS of the scaled trace and picks the constant "
            "for that window (pack months into one). --resize-procs moves the jobs to a smaller "
            "machine, clipping large jobs to it or rescaling every size."
        ),
    )
    parser.add_argument("trace", help="SWF file, plain or .gz")
    parser.add_argument("--load", type=LOAD, required=True, help=f"target offered load, {LOAD.range}, e.g. 0.5")
    parser.add_argument("-o", "--output", required=True, help="SWF file to write (.gz for gzip)")
    parser.add_argument("--window", type=POSITIVE_DURATION, metavar="SECONDS",
                        help="keep this many seconds (> 0) of the scaled trace")
    parser.add_argument("--procs", type=COUNT, help="machine size, >= 1 (default: the trace header's MaxProcs)")
    parser.add_argument("--resize-procs", type=COUNT, help="move the jobs to a machine of this many processors (>= 1)")
    parser.add_argument("--resize-mode", choices=("clip", "rescale"), default="clip",
                        help="clip: large jobs take the whole new machine; rescale: every size x new/old")
    parser.add_argument("--lenient", action="store_true", help="skip malformed lines instead of stopping")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.parsers.swf import write_swf
    from schedlab.traces import read_cleaned
    from schedlab.workloads.scaling import scale_trace, scaled_header

    source = read_cleaned(args.trace, args.procs, "--procs", strict=not args.lenient)
    scaled = scale_trace(
        source.jobs, source.machine_procs, args.load, window_seconds=args.window,
        resize_procs=args.resize_procs, resize_mode=args.resize_mode,
    )
    write_swf(args.output, scaled.jobs, scaled_header(source.trace.header, scaled, args.load, args.window))
    print(
        f"{len(scaled.jobs):,} jobs on {scaled.machine_procs} processors: arrival gaps x {scaled.gap_scale:.4g}, "
        f"offered load {scaled.offered_load:.4f}; written to {args.output}"
    )
    return 0
