"""Benchmark closed-loop replay and user-based resampling (issue 50's speed goals).

Prints, with the machine and command: EASY replay wall time of a trace (default CEA-Curie)
open- and closed-loop on each engine, with the closed loop's ratio to the open loop on the same
engine (the time to find the sessions is not in it: a replay is handed them); and the time to
draw N resamples of KTH-SP2 once it is parsed and cleaned.  Goals: closed-loop within 2x the
open-loop time, 10 resamples of KTH-SP2 under 2 s.

    python bench/bench_feedback.py [--trace NAME] [--resamples N] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TRACES = REPO.parent / "shared" / "traces"
sys.path.insert(0, str(REPO))  # run from a checkout without installing

from bench.timing import best_of  # noqa: E402
from schedlab.parsers.cleaning import clean  # noqa: E402
from schedlab.parsers.swf import read_swf  # noqa: E402
from schedlab.simulators.batch.replay import replay  # noqa: E402
from schedlab.workloads.fitting import header_clock, local_week_seconds  # noqa: E402
from schedlab.workloads.resampling import resample, user_activity  # noqa: E402
from schedlab.workloads.sessions import find_sessions  # noqa: E402


def cleaned(name: str):
    path = next(TRACES.glob(f"{name}.swf*"))
    trace = read_swf(path)
    jobs, _ = clean(trace.jobs, trace.machine_procs)
    return trace, jobs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trace", default="CEA-Curie-2011-2.1-cln", help="trace replayed open- and closed-loop")
    parser.add_argument("--resamples", type=int, default=10, help="resamples of KTH-SP2 drawn (default: 10)")
    parser.add_argument("--repeat", type=int, default=1, help="timings per measure, best kept (default: 1)")
    args = parser.parse_args()
    print(f"command: python bench/bench_feedback.py {shlex.join(sys.argv[1:])}")
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f}")
    trace, jobs = cleaned(args.trace)
    procs = trace.machine_procs
    sessions = find_sessions(jobs, source=args.trace)
    for engine in ("compiled", "reference"):
        open_loop = best_of(args.repeat, lambda: replay(jobs, procs, policy="easy", engine=engine))
        closed = best_of(args.repeat, lambda: replay(jobs, procs, policy="easy", engine=engine, sessions=sessions))
        print(f"{args.trace}, {len(jobs):,} jobs, EASY, {engine} engine: open-loop {open_loop:.2f} s, closed-loop "
              f"{closed:.2f} s ({closed / open_loop:.2f}x)")
    kth, kth_jobs = cleaned("KTH-SP2-1996-2.2")
    clock = local_week_seconds(kth_jobs["submit_time"].to_numpy(float), *header_clock(kth.header))
    activity = user_activity(kth_jobs, clock)
    drawn = best_of(args.repeat, lambda: [resample(activity, kth.machine_procs, seed)
                                          for seed in range(1, args.resamples + 1)])
    print(f"KTH-SP2: {args.resamples} resamples in {drawn:.2f} s (parsed and cleaned once beforehand)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
