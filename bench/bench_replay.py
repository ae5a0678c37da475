"""Replay speed of the batch engine on the shared real traces.

Usage: python bench/bench_replay.py [--repeat N]

Prints, per run, wall time and jobs/s, cold (first call in the process: includes
loading the numba kernels from their cache, or compiling them on a first install) and
warm (best of --repeat).  Targets (issue 2): KTH-SP2 EASY under pyss conventions at
least 20x faster than pyss itself (9-13 s on this machine, so <= 0.45-0.65 s), and the
full CEA-Curie log under 30 s.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from parsers.swf import read_swf  # noqa: E402
from simulators.batch.replay import replay  # noqa: E402

TRACES = REPO.parent / "shared" / "traces"
RUNS = [
    ("KTH-SP2-1996-2.2.swf", 100, "easy"),
    ("KTH-SP2-1996-2.2.swf", 100, "conservative"),
    ("KTH-SP2-1996-2.2.swf", 100, "fcfs"),
    ("CEA-Curie-2011-2.1-cln.swf.gz", 93312, "easy"),
]
PYSS_KTH_EASY_SECONDS = (9.0, 13.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}")
    if not TRACES.is_dir():
        print(f"skipped: {TRACES} not found (the shared traces live beside the repository)")
        return 0
    cache: dict[str, object] = {}
    for name, procs, policy in RUNS:
        if name not in cache:
            cache[name] = read_swf(TRACES / name).jobs
        jobs = cache[name]
        timings = []
        for _ in range(1 + args.repeat):
            began = time.perf_counter()
            replay(jobs, procs, policy=policy, conventions="pyss")
            timings.append(time.perf_counter() - began)
            if name.startswith("CEA") and len(timings) == 2:
                break  # a long run: one warm repetition is enough
        cold, warm = timings[0], min(timings[1:])
        print(f"{name:32s} {policy:13s} {len(jobs):>8,} jobs  cold {cold:6.2f} s  warm {warm:6.2f} s  "
              f"{len(jobs) / warm:>10,.0f} jobs/s")
        if name.startswith("KTH") and policy == "easy":
            low, high = PYSS_KTH_EASY_SECONDS
            print(f"{'':32s} speed-up over pyss ({low:.0f}-{high:.0f} s): cold {low / cold:.0f}-{high / cold:.0f}x, "
                  f"warm {low / warm:.0f}-{high / warm:.0f}x (target >= 20x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
