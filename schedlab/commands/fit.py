"""``schedlab fit``: fit a workload model to an SWF trace and write it as JSON."""

from __future__ import annotations

import sys
from pathlib import Path

from schedlab.options import COUNT

#: The one-line summary ``schedlab --help`` lists.
HELP = "fit a workload model (arrivals, sizes, runtimes, estimates) to a trace"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "fit",
        help=HELP,
        description=(
            "Fit a Lublin-Feitelson-style workload model to an SWF trace, after the standard "
            "cleaning: daily and weekly arrival cycle, inter-arrival gaps, job sizes, runtimes "
            "(best of gamma, hyper-gamma, lognormal, Weibull, exponential by AIC), the size-runtime "
            "correlation and the requested-time accuracy. The model is written as JSON; "
            "'schedlab synth' turns it into workloads."
        ),
    )
    parser.add_argument("trace", help="SWF file, plain or .gz")
    parser.add_argument("-o", "--output", required=True, help="model JSON file to write")
    parser.add_argument("--procs", type=COUNT, help="machine size, >= 1 (default: the trace header's MaxProcs)")
    parser.add_argument("--figures", help="also write empirical-vs-fitted CDF figures (PNG, SVG) to this directory")
    parser.add_argument("--lenient", action="store_true", help="skip malformed lines instead of stopping")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.parsers.cleaning import clean
    from schedlab.parsers.swf import read_swf
    from schedlab.reports.workload_figures import fit_figures, save_figures
    from schedlab.errors import UsageError
    from schedlab.progress import callback_bar
    from schedlab.workloads.fitting import fit_trace
    from schedlab.workloads.model import save_model

    trace = read_swf(args.trace, strict=not args.lenient, machine_procs=args.procs)
    for warning in trace.warnings:
        print(f"note: {warning}", file=sys.stderr)
    if not trace.machine_procs:
        raise UsageError(f"{args.trace}: no machine size in the header; give --procs")
    with callback_bar(3, "fit", unit="part", quiet=getattr(args, "quiet", False)) as advance:
        model = fit_trace(trace, Path(args.trace).name, progress=advance)
    save_model(model, args.output)
    print(describe_model(model))
    print(f"model written to {args.output}")
    if args.figures:
        cleaned, _ = clean(trace.jobs, trace.machine_procs)
        written = save_figures(fit_figures(model, cleaned), args.figures)
        print(f"{len(written)} figure files written to {args.figures}")
    return 0


def describe_model(model: dict) -> str:
    """A few lines on what was fitted: chosen families with their KS distance."""
    source = model["source"]
    lines = [f"{source['trace']}: {source['jobs_used']:,} jobs on {model['machine_procs']} processors"]
    for label, fit in (("inter-arrival gaps", model["arrivals"]["gaps"]), ("runtimes", model["runtimes"])):
        chosen = fit["chosen"]
        lines.append(f"  {label:<18} {chosen} (KS {fit['candidates'][chosen]['ks']:.3f})")
    sizes = model["sizes"]
    lines.append(
        f"  {'sizes':<18} serial {sizes['serial_prob']:.3f}, power of two {sizes['pow2_prob']:.3f} (KS {sizes['ks']:.3f})"
    )
    lines.append(f"  {'size-runtime':<18} Spearman {model['size_runtime_correlation']['spearman']:.3f}")
    return "\n".join(lines)
