"""``schedlab cosy``: run one COSY experiment point (Cao and Zimmermann, IPDPS 2004) and print its metrics."""

from __future__ import annotations

import time

from schedlab.errors import SchedlabError


def register(subparsers) -> None:
    from simulators.cosy.experiment import EXPERIMENT_POLICIES, LUBLIN_FEITELSON, WORKLOAD_MODELS

    parser = subparsers.add_parser(
        "cosy",
        help="simulate COSY's advance reservations with a notice-time policy on a tuned workload",
        description=(
            "Tune the k-th workload of the paper's experiment (Lublin-Feitelson or log-uniform jobs on 32 nodes, baseline "
            "utilization 74 %), turn a share of its jobs into advance reservations under a notice policy and "
            "print q, u, r and the other metrics. The full grid and report: "
            "luigi --module pipeline.cosy CosyReport --profile quick."
        ),
    )
    parser.add_argument("--jobs", type=int, default=100, help="jobs per workload (default: 100)")
    parser.add_argument("--workload", type=int, default=0, help="which tuned workload, from 0 (default: 0)")
    parser.add_argument("--model", choices=WORKLOAD_MODELS, default=LUBLIN_FEITELSON,
                        help=f"workload model (default: {LUBLIN_FEITELSON}; log-uniform: the steady-workload diagnostic)")
    parser.add_argument("--share", type=float, default=0.10, help="share of jobs that are reservations (default: 0.10)")
    parser.add_argument("--policy", choices=EXPERIMENT_POLICIES, default="fixed",
                        help="fixed notice factor n, the adaptive rule of the paper's Fig. 3, or a diagnostic")
    parser.add_argument("-n", "--factor", type=float, default=1.0, help="notice factor n (all policies but adaptive; default: 1)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from simulators.cosy.experiment import MACHINE_NODES, run_point, select_workloads

    if args.jobs < 2 or args.workload < 0 or not 0 <= args.share <= 1:
        raise SchedlabError("need --jobs >= 2, --workload >= 0 and --share in [0, 1]")
    began = time.perf_counter()
    workloads, tried = select_workloads(args.workload + 1, args.jobs, MACHINE_NODES, workload=args.model)
    workload = workloads[-1]
    factor = None if args.policy == "adaptive" else args.factor
    metrics = run_point(workload, MACHINE_NODES, args.share, args.policy, factor)
    elapsed = time.perf_counter() - began
    print(
        f"workload seed {workload.seed} ({tried} seeds tried), offered load {workload.offered_load:.3f}, "
        f"baseline utilization {workload.baseline['utilization']:.3f}, baseline mean queue wait "
        f"{workload.baseline['mean_queue_wait']:,.0f} s"
    )
    print(f"share={args.share}, policy={args.policy}" + (f", n={factor:g}" if factor is not None else ""))
    width = max(len(name) for name in metrics)
    for name, value in metrics.items():
        print(f"  {name:<{width}}  {value:,.4f}")
    print(f"done in {elapsed:.2f} s")
    return 0
