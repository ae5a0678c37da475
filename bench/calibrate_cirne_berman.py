"""How the Cirne-Berman workload's time range was chosen, on baselines only.

Usage: python bench/calibrate_cirne_berman.py [--seeds N]

The COSY paper's 100 requests "represent over one week's actual operation time" (section
4.2).  For each candidate range of ``schedlab.workloads.cirne_berman``'s log-uniform times (one
range scaled by 1/2 to 3/2; every other part of the model as the module has it) this tunes
candidate seeds 0 .. N-1 to the COSY baseline exactly as the experiment does (EASY, no
reservation, utilization 74 % +- 1 %) and prints how many tune, the median submission span
and run window in days, and, for information only, the median baseline mean queue wait as a
share of the window.  The module keeps the range whose median submission span is nearest a
week.  No run here has a reservation, and no judged number is read.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from schedlab.simulators.cosy.experiments import (  # noqa: E402
    MACHINE_NODES,
    TARGET_BASELINE_UTILIZATION,
    baseline_wait_share,
    tune_workload,
)
from schedlab.workloads.cirne_berman import DEFAULT, CirneBermanModel, cirne_berman_jobs  # noqa: E402

WEEK_DAYS = 7.0
SCALES = (0.5, 0.75, 1.0, 1.25, 1.5)


@dataclass(frozen=True)
class Candidate:
    model: CirneBermanModel

    def generate(self, n_jobs: int, nodes: int, load: float, seed: int):
        return cirne_berman_jobs(n_jobs, nodes, seed, load, self.model)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=30, help="candidate seeds per time range (default: 30)")
    args = parser.parse_args()
    print(f"command: python bench/calibrate_cirne_berman.py --seeds {args.seeds}")
    print("time range (s)     tuned  submission span d  window d  wait share of window (median)")
    spans = {}
    for scale in SCALES:
        shortest, longest = (scale * bound for bound in DEFAULT.time_range)
        model = replace(DEFAULT, time_range=(shortest, longest))
        tuned = [w for w in (tune_workload(seed, 100, MACHINE_NODES, TARGET_BASELINE_UTILIZATION, Candidate(model))
                             for seed in range(args.seeds)) if w is not None]
        span = np.median([w.baseline["submission_span"] / 86_400 for w in tuned])
        window = np.median([w.baseline["makespan"] / 86_400 for w in tuned])
        share = np.median([baseline_wait_share(w.baseline) for w in tuned])
        spans[(shortest, longest)] = span
        print(f"{shortest:>6.0f} to {longest:<7.0f}  {len(tuned):>3}/{args.seeds}  {span:>17.1f}  {window:>8.1f}"
              f"  {100 * share:5.1f} %", flush=True)
    chosen = min(spans, key=lambda bounds: abs(spans[bounds] - WEEK_DAYS))
    print(f"nearest a week of submissions: {chosen[0]:g} to {chosen[1]:g} s (the module has "
          f"{DEFAULT.time_range[0]:g} to {DEFAULT.time_range[1]:g} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
