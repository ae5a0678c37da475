"""Which real traces' slices fall in the COSY paper's regime, on baselines only.

Usage: python bench/cosy_trace_regime.py [--slices N] [TRACE ...]

For each trace (default: every SWF file in ../shared/traces and ../shared/traces-extra) it
cuts 100-job slices exactly as the COSY experiment does (``schedlab.workloads.trace_slice``: sizes
rescaled to 32 nodes, each job running for its requested time), tunes the first N of them
to the 74 % baseline (EASY, no reservation) and prints how many tune and their mean queue
wait as a share of the run window: median and 10th / 90th percentiles.  The COSY paper's
Table 1 implies 20-28 %.  No run here has a reservation.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from schedlab.commands.cosy import trace_slices  # noqa: E402
from schedlab.simulators.cosy.experiments import (  # noqa: E402
    MACHINE_NODES,
    PAPER_WAIT_SHARE,
    TARGET_BASELINE_UTILIZATION,
    baseline_wait_share,
    tune_workload,
)

SHARED = REPO.parent / "shared"
SLICE_JOBS = 100


def default_traces() -> list[Path]:
    return sorted(p for folder in ("traces", "traces-extra") for p in (SHARED / folder).glob("*.swf*"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", type=int, default=30, help="slices tuned per trace (default: 30)")
    parser.add_argument("traces", nargs="*", type=Path, help="SWF files (default: every trace under ../shared)")
    args = parser.parse_args()
    traces = args.traces or default_traces()
    print(f"command: python bench/cosy_trace_regime.py --slices {args.slices} {' '.join(map(str, args.traces))}".rstrip())
    print(f"paper's regime: {100 * PAPER_WAIT_SHARE[0]:g}-{100 * PAPER_WAIT_SHARE[1]:g} % of the window")
    print("trace                                   slices tuned  wait share of window: median [p10, p90]  in regime")
    for path in traces:
        source = trace_slices(str(path), None)
        candidates = min(args.slices, source.slices(SLICE_JOBS))
        tuned = [tune_workload(k, SLICE_JOBS, MACHINE_NODES, TARGET_BASELINE_UTILIZATION, source) for k in range(candidates)]
        shares = np.array([baseline_wait_share(w.baseline) for w in tuned if w is not None])
        if len(shares) == 0:
            print(f"{path.name:<40} {0:>3}/{candidates:<3}  no slice tunes", flush=True)
            continue
        low, median, high = np.percentile(shares, [10, 50, 90])
        inside = np.mean((shares >= PAPER_WAIT_SHARE[0]) & (shares <= PAPER_WAIT_SHARE[1]))
        print(f"{path.name:<40} {len(shares):>3}/{candidates:<3}  {100 * median:5.1f} % [{100 * low:.1f}, {100 * high:.1f}]"
              f"{'':>18}{100 * inside:5.0f} %", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
