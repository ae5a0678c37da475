"""How the Cirne-Berman-like workload's smallest size was chosen, on baselines only.

Usage: python bench/calibrate_cirne_berman.py [--seeds N]

For each candidate size range of ``schedlab.workloads.cirne_berman`` (smallest size 11 to 16 of 32
nodes with no power-of-two lean, and 16 to 32 nodes with the usual 75 % lean) it tunes
candidate seeds 0 .. N-1 to the COSY baseline exactly as the experiment does (EASY, no
reservation, utilization 74 % +- 1 %) and prints how many tune and their mean queue wait as a
share of the run window: median and 10th / 90th percentiles.  The module keeps the smallest
size whose median is nearest 24 %, the middle of the 20-28 % that the COSY paper's Table 1
implies.  No run here has a reservation.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from schedlab.simulators.cosy.experiment import (  # noqa: E402
    MACHINE_NODES,
    TARGET_BASELINE_UTILIZATION,
    baseline_wait_share,
    tune_workload,
)
from schedlab.workloads.cirne_berman import cirne_berman_jobs  # noqa: E402

TARGET_WAIT_SHARE = 0.24
CANDIDATES = [((smallest, 32), 0.0) for smallest in range(11, 17)] + [((16, 32), 0.75)]


@dataclass(frozen=True)
class Candidate:
    size_range: tuple[int, int]
    power_of_two_share: float

    def generate(self, n_jobs: int, nodes: int, load: float, seed: int):
        return cirne_berman_jobs(n_jobs, nodes, seed, load, self.size_range, self.power_of_two_share)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=24, help="candidate seeds per size range (default: 24)")
    args = parser.parse_args()
    print(f"command: python bench/calibrate_cirne_berman.py --seeds {args.seeds}")
    print("size range  power-of-two share  tuned  wait share of window: median [p10, p90]")
    medians = {}
    for size_range, lean in CANDIDATES:
        candidate = Candidate(size_range, lean)
        tuned = [tune_workload(seed, 100, MACHINE_NODES, TARGET_BASELINE_UTILIZATION, candidate) for seed in range(args.seeds)]
        shares = np.array([baseline_wait_share(w.baseline) for w in tuned if w is not None])
        low, median, high = np.percentile(shares, [10, 50, 90])
        if lean == 0.0:
            medians[size_range[0]] = median
        print(f"{size_range[0]:>3} to {size_range[1]:<3} {lean:>16.2f}  {len(shares):>3}/{args.seeds}"
              f"  {100 * median:5.1f} % [{100 * low:.1f}, {100 * high:.1f}]", flush=True)
    chosen = min(medians, key=lambda smallest: abs(medians[smallest] - TARGET_WAIT_SHARE))
    print(f"nearest {100 * TARGET_WAIT_SHARE:g} % without the lean: smallest size {chosen}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
