"""``schedlab replay``: simulate one trace under one batch policy."""

from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd

from schedlab.atomic import atomic_path
from schedlab.errors import SchedlabError
from simulators.batch import POLICIES, replay
from simulators.batch.conventions import CONVENTIONS, ESTIMATES
from simulators.batch.order import QUEUE_ORDERS
from simulators.core.engine import PASS_MODES, SAME_TIME_ORDERS

OUTPUT_FORMATS = (".csv", ".parquet")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="simulate a trace under FCFS, EASY or conservative backfilling",
        description=(
            "Replay an SWF trace on one machine and print wait, slowdown and utilization. "
            "Under the default conventions the trace is cleaned first (see 'schedlab info'); "
            "under --conventions pyss every line is a job, exactly as the pyss simulator reads it."
        ),
    )
    parser.add_argument("trace", help="SWF file, plain or .gz")
    parser.add_argument("--procs", type=int, help="machine size (default: the trace header's MaxProcs)")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="easy", help="default: easy")
    parser.add_argument("--order", choices=sorted(QUEUE_ORDERS), default="fcfs",
                        help="queue order: arrival (fcfs), Cobalt's WFP, or shortest estimate first (sjf)")
    parser.add_argument("--estimates", choices=ESTIMATES, default="requested",
                        help="what the scheduler believes a job's length is (default: its requested time)")
    parser.add_argument("--conventions", choices=sorted(CONVENTIONS), default="default",
                        help="input handling and tie-breaking profile (default: schedlab's own)")
    parser.add_argument("--same-time", choices=SAME_TIME_ORDERS,
                        help="override: which events go first at one timestamp")
    parser.add_argument("--passes", choices=PASS_MODES, help="override: when the scheduler runs")
    parser.add_argument("--no-clean", action="store_true", help="do not run the cleaning filters first")
    parser.add_argument("--lenient", action="store_true", help="skip malformed lines instead of stopping")
    parser.add_argument("--out", help="write the schedule to this .csv or .parquet file")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from parsers.cleaning import clean
    from parsers.swf import read_swf

    if args.out and not args.out.endswith(OUTPUT_FORMATS):
        raise SchedlabError(f"--out must end with {' or '.join(OUTPUT_FORMATS)}: {args.out}")
    trace = read_swf(args.trace, strict=not args.lenient, machine_procs=args.procs)
    procs = args.procs or trace.machine_procs
    if not procs:
        raise SchedlabError(f"{args.trace}: no machine size in the header; give --procs")
    jobs = trace.jobs
    for warning in trace.warnings:
        print(f"note: {warning}", file=sys.stderr)
    if args.conventions == "default" and not args.no_clean:
        jobs, report = clean(jobs, procs)
        print(report.summary(), file=sys.stderr)
    began = time.perf_counter()
    result = replay(
        jobs, procs, policy=args.policy, order=args.order, estimates=args.estimates,
        conventions=args.conventions, same_time=args.same_time, passes=args.passes,
    )
    elapsed = time.perf_counter() - began
    print(format_metrics(result.metrics, result.parameters))
    print(f"simulated {len(jobs):,} jobs in {elapsed:.2f} s ({len(jobs) / max(elapsed, 1e-9):,.0f} jobs/s)")
    if args.out:
        write_schedule(result.schedule, args.out)
        print(f"schedule written to {args.out}")
    return 0


def format_metrics(metrics: dict, parameters: dict) -> str:
    settings = ", ".join(f"{k}={v}" for k, v in parameters.items())
    lines = [settings]
    width = max(len(k) for k in metrics)
    for name, value in metrics.items():
        lines.append(f"  {name:<{width}}  {value:,.4f}" if not float(value).is_integer() else f"  {name:<{width}}  {int(value):,}")
    return "\n".join(lines)


def write_schedule(schedule: pd.DataFrame, path: str) -> None:
    """Write atomically; time columns that hold whole seconds are written as integers."""
    table = schedule.copy()
    for column in table.columns:
        values = table[column].to_numpy()
        if values.dtype.kind == "f" and np.all(np.isfinite(values)) and np.all(values == np.trunc(values)):
            table[column] = values.astype(np.int64)
    with atomic_path(path) as tmp:
        if path.endswith(".parquet"):
            table.to_parquet(tmp, index=False)
        else:
            table.to_csv(tmp, index=False)
