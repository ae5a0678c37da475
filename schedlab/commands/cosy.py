"""``schedlab cosy``: run COSY experiment points (Cao and Zimmermann, IPDPS 2004) and print their metrics.

One point of one workload by default; ``--regime K`` runs the diagnostic grid (the paper's rule,
refusals requeued, W = wq0; every share; n = 1, 2, 4) over K workloads and prints means with
95 % intervals.  ``--trace FILE`` takes the workloads from slices of a real trace instead of a model.
"""

from __future__ import annotations

import time

from schedlab.options import COUNT, SHARE, number, whole_number

#: The one-line summary ``schedlab --help`` lists.
HELP = "simulate COSY's advance reservations with a notice-time policy on a tuned workload"


def register(subparsers) -> None:
    from schedlab.simulators.cosy.experiments import EXPERIMENT_POLICIES, PROFILES, WORKLOAD_MODELS
    from schedlab.simulators.cosy.fixed_point import WAIT_READINGS

    quick = PROFILES["quick"]
    quick_jobs = quick.variants[0][0]

    parser = subparsers.add_parser(
        "cosy",
        help=HELP,
        description=(
            "Tune the k-th workload of the paper's experiment (Cirne-Berman, Lublin-Feitelson or log-uniform jobs, or a slice of a "
            "real trace, on 32 nodes, baseline utilization 74 %), turn a share of its jobs into advance reservations "
            "under a notice policy and print q, u, r and the other metrics; or, with --regime, the diagnostic grid "
            "over several workloads. The full grid and report: "
            "luigi --module pipeline.cosy CosyReport --profile quick."
        ),
    )
    parser.add_argument("--jobs", type=whole_number(2), default=quick_jobs,
                        help=f"jobs per workload, >= 2 (default: {quick_jobs}, as the quick profile)")
    parser.add_argument("--workload", type=whole_number(0), default=0, help="which tuned workload, from 0 (default: 0)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--model", choices=WORKLOAD_MODELS, default=quick.workload,
                        help=f"workload model (default: {quick.workload}, as the profiles; the others: the "
                             "sensitivity runs)")
    source.add_argument("--trace", metavar="FILE",
                        help="take each workload from a slice of this SWF trace (--jobs consecutive jobs, sizes rescaled "
                             "to 32 nodes, each running for its requested time) instead of --model")
    parser.add_argument("--trace-procs", type=COUNT, metavar="P",
                        help="the trace's machine size, >= 1 (default: its header's MaxProcs)")
    parser.add_argument("--regime", type=whole_number(2), metavar="K",
                        help="run the diagnostic grid over the first K >= 2 workloads instead of one point (it "
                             "prints intervals over them)")
    parser.add_argument("--share", type=SHARE, default=0.10,
                        help=f"share of jobs that are reservations, {SHARE.range} (default: 0.10)")
    parser.add_argument("--policy", choices=EXPERIMENT_POLICIES, default="fixed",
                        help="fixed notice factor n, the adaptive rule of the paper's Fig. 3, or a diagnostic")
    parser.add_argument("-n", "--factor", type=number(0), default=1.0,
                        help="notice factor n, >= 0 (all policies but adaptive; default: 1)")
    parser.add_argument("--reading", choices=WAIT_READINGS, default=quick.readings[0],
                        help="how the fixed policy reads the notice rule's W: the run's own final mean queue wait "
                             "(fixed-point, default: measured wa / wq then equals n) or the running mean wait of "
                             "started queue jobs (running-mean)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from schedlab.tables import metric_lines
    from schedlab.simulators.cosy.experiments import MACHINE_NODES, run_point, select_workloads

    began = time.perf_counter()
    source = trace_slices(args.trace, args.trace_procs) if args.trace else args.model
    if args.regime is not None:
        workloads, tried = select_workloads(args.regime, args.jobs, MACHINE_NODES, workload=source)
        print_regime(workloads, tried, quiet=getattr(args, "quiet", False))
        print(f"done in {time.perf_counter() - began:.2f} s")
        return 0
    workloads, tried = select_workloads(args.workload + 1, args.jobs, MACHINE_NODES, workload=source)
    workload = workloads[-1]
    factor = None if args.policy == "adaptive" else args.factor
    metrics = run_point(workload, MACHINE_NODES, args.share, args.policy, factor, args.reading)
    elapsed = time.perf_counter() - began
    print(
        f"workload seed {workload.seed} ({tried} seeds tried), offered load {workload.offered_load:.3f}, "
        f"baseline utilization {workload.baseline['utilization']:.3f}, baseline mean queue wait "
        f"{workload.baseline['mean_queue_wait']:,.0f} s"
    )
    print(f"share={args.share}, policy={args.policy}" + (f", n={factor:g}" if factor is not None else "")
          + (f", W reading {args.reading}" if args.policy == "fixed" else ""))
    print(metric_lines(metrics))
    print(f"done in {elapsed:.2f} s")
    return 0


def trace_slices(path: str, trace_procs: int | None):
    from schedlab.traces import read_cleaned
    from schedlab.simulators.cosy.experiments import TraceSlices

    source = read_cleaned(path, trace_procs, "--trace-procs")
    return TraceSlices.of_trace(str(path), source.jobs, source.machine_procs)


def print_regime(workloads, tried: int, quiet: bool = False) -> None:
    """Mean [95 % interval] of q, u, r and measured n at every point of the diagnostic grid
    (a progress bar over the points on a terminal, unless ``quiet``)."""
    import pandas as pd

    from schedlab.reports.cosy import summarize
    from schedlab.progress import progress
    from schedlab.simulators.cosy.experiments import PROFILES
    from schedlab.simulators.cosy.simulate import simulate

    points = PROFILES["quick"].regime_points()
    runs = pd.concat(
        [simulate(point, workloads) for point in progress(points, desc="regime points", quiet=quiet, unit="point")],
        ignore_index=True,
    )
    baselines = pd.DataFrame([w.baseline for w in workloads])
    print(
        f"{len(workloads)} workloads ({tried} seeds tried): submissions over {baselines['submission_span'].mean() / 86400:.2f} "
        f"days, window {baselines['makespan'].mean() / 86400:.2f} days, baseline mean queue wait "
        f"{baselines['mean_queue_wait'].mean() / 3600:.2f} h on average"
    )

    def cell(row, metric, scale=1.0):
        return f"{scale * row[metric]:.3f} [{scale * row[metric + '_low']:.3f}, {scale * row[metric + '_high']:.3f}]"

    table = pd.DataFrame(
        [
            {
                "policy": row["policy"], "W": row["reading"], "p": f"{row['share']:g}", "n": f"{row['factor']:g}", "q": cell(row, "q"),
                "u": cell(row, "utilization"), "r": cell(row, "rejection_rate"), "measured n": f"{row['measured_notice']:.2f}",
            }
            for _, row in summarize(runs).sort_values(["policy", "reading", "share", "factor"]).iterrows()
        ]
    )
    print(table.to_string(index=False))
