"""``schedlab synth``: synthesize an SWF workload from a workload model."""

from __future__ import annotations

from schedlab.options import COUNT, LOAD, SEED

#: The one-line summary ``schedlab --help`` lists.
HELP = "synthesize a workload (SWF) from a fitted or built-in model"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "synth",
        help=HELP,
        description=(
            "Draw jobs from a workload model (a JSON file written by 'schedlab fit', or "
            "builtin:lublin-feitelson-1999 for the Lublin-Feitelson model with its published "
            "parameters, or builtin:kth-sp2-1996 for the model 'schedlab fit' makes of the KTH-SP2 trace) "
            "and write them as SWF. --load sets the offered load by scaling the "
            "arrival gaps only. The same arguments always write the same bytes."
        ),
    )
    parser.add_argument("model", help="model JSON file, builtin:lublin-feitelson-1999 or builtin:kth-sp2-1996")
    parser.add_argument("--jobs", type=COUNT, required=True, help="number of jobs (>= 1)")
    parser.add_argument("--procs", type=COUNT, help="machine size, >= 1 (default: the fitted model's machine)")
    parser.add_argument("--load", type=LOAD,
                        help=f"target offered load, {LOAD.range}, e.g. 0.6 (default: the model's own rate)")
    parser.add_argument("--seed", type=SEED, required=True, help="random seed (a whole number >= 0)")
    parser.add_argument("-o", "--output", required=True, help="SWF file to write (.gz for gzip)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.parsers.swf import write_swf
    from schedlab.errors import UsageError
    from schedlab.workloads.model import FITTED, load_model
    from schedlab.workloads.synthesis import synthesize_with_details, synthetic_header

    model = load_model(args.model)
    procs = args.procs
    if procs is None:
        if model["kind"] != FITTED:
            raise UsageError(f"{args.model} describes no machine: give --procs")
        procs = model["machine_procs"]
    synthesis = synthesize_with_details(model, args.jobs, procs, args.load, args.seed)
    write_swf(args.output, synthesis.jobs, synthetic_header(model, synthesis, procs, args.load, args.seed))
    print(
        f"{len(synthesis.jobs):,} jobs on {procs} processors: offered load {synthesis.offered_load:.4f} "
        f"(arrival gaps x {synthesis.gap_scale:.4g}); written to {args.output}"
    )
    return 0
