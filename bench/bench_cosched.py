"""Speed of the coscheduling stage.

Usage:
    python bench/bench_cosched.py            # one paper-scale point per scheme (month-long A and B)
    python bench/bench_cosched.py --paper    # also the whole paper profile through Luigi, 2 workers

Target (issue 17): the paper profile (every point, 20 seeds) in under 10 minutes on this
2-core machine with 2 workers.  ``--paper`` uses a fresh temporary work directory
(nothing cached) unless ``--work-dir`` names one, and needs KTH-SP2 in ../shared/traces.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from schedlab.parsers.swf import read_swf  # noqa: E402
from schedlab.simulators.cosched.experiments import PROFILES, SCHEMES, Point  # noqa: E402
from schedlab.simulators.cosched.simulate import simulate  # noqa: E402
from schedlab.simulators.cosched.workloads import INTREPID_PROCS, intrepid_standin  # noqa: E402
from schedlab.workloads.fitting import fit_trace  # noqa: E402

TRACES = REPO.parent / "shared" / "traces"
KTH = "KTH-SP2-1996-2.2"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paper", action="store_true", help="also time the whole paper profile through Luigi")
    parser.add_argument("--work-dir", help="Luigi work directory for --paper (default: a fresh temporary one)")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"command: {' '.join(sys.argv)}")
    model = fit_trace(read_swf(TRACES / f"{KTH}.swf"), KTH)
    paper = PROFILES["paper"]
    jobs_a = intrepid_standin(model, 0.7, seed=1, days=paper.days)
    print(f"A: Intrepid stand-in, {len(jobs_a):,} jobs over {paper.days:g} days")
    for series, x in (("load", 0.75), ("ratio", 0.33)):
        for scheme in SCHEMES:
            began = time.perf_counter()
            _, summary = simulate(Point(series, x, scheme, seed=1), jobs_a, INTREPID_PROCS, model)
            elapsed = time.perf_counter() - began
            jobs = summary["pairing"]["jobs_a"] + summary["pairing"]["jobs_b"]
            print(f"  {series}={x:<5} {scheme:<4} {elapsed:6.2f} s  ({jobs:,} jobs, {jobs / elapsed:,.0f} jobs/s)")
    if args.paper:
        with tempfile.TemporaryDirectory() as temporary:
            work = args.work_dir or temporary
            environment = {**os.environ, "SCHEDLAB_WORK_DIR": work, "SCHEDLAB_TRACE_DIRS": str(TRACES)}
            command = [sys.executable, "-m", "luigi", "--module", "pipeline.cosched", "CoschedReport",
                       "--profile", "paper", "--local-scheduler", "--workers", "2"]
            print(f"paper profile: {' '.join(command)}")
            began = time.perf_counter()
            completed = subprocess.run(command, cwd=REPO, env=environment, capture_output=True, text=True)
            elapsed = time.perf_counter() - began
            status = "ok" if completed.returncode == 0 and ":)" in completed.stdout + completed.stderr else "FAILED"
            print(f"  {elapsed / 60:.1f} min ({status}; target < 20 min)")
            if status != "ok":
                print(completed.stderr[-3000:])
                return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
