"""How the runs of a profile combine into the paper's measures (Jones et al., ICPADS 2006, Sec. 5).

- improvement over Migration Only: ``(T_mig - T_x) / T_mig`` of mean turnaround, same workload;
- room for improvement: the improvement of Zero Comm.;
- Migration Only's gain over No Share: ``(T_noshare - T_mig) / T_noshare`` ("x % faster");
- information needed: the smallest exposure share at which ICS reaches half of its gain with
  full information (linear interpolation between the measured shares).

``runs`` has one row per run: the ``Point`` fields (``ppbw`` NaN when PPBW ~ U[0, 300]) and
``summarise``'s metrics.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def mixed(runs: pd.DataFrame, workload: str, strategy: str, information: float = 1.0) -> float:
    """Mean turnaround of the run with PPBW ~ U[0, 300]."""
    chosen = runs[(runs.workload == workload) & (runs.strategy == strategy) & runs.ppbw.isna()
                  & np.isclose(runs.information, information)]
    if len(chosen) != 1:
        raise ValueError(f"expected one {workload}/{strategy} run at information {information}, got {len(chosen)}")
    return float(chosen.mean_turnaround.iloc[0])


def improvement(runs: pd.DataFrame, workload: str, strategy: str, information: float = 1.0) -> float:
    migration = mixed(runs, workload, "migration_only")
    return (migration - mixed(runs, workload, strategy, information)) / migration


def migration_gain_over_no_share(runs: pd.DataFrame, workload: str) -> float:
    no_share = mixed(runs, workload, "no_share")
    return (no_share - mixed(runs, workload, "migration_only")) / no_share


def sweep(runs: pd.DataFrame, workload: str, strategy: str) -> pd.DataFrame:
    """(ppbw, mean_turnaround) of a strategy's fixed-PPBW runs, by PPBW."""
    chosen = runs[(runs.workload == workload) & (runs.strategy == strategy) & runs.ppbw.notna()]
    return chosen.sort_values("ppbw")[["ppbw", "mean_turnaround", "coallocated_share", "coallocated_slowdown"]]


def information_curve(runs: pd.DataFrame, workload: str) -> pd.DataFrame:
    """ICS improvement over Migration Only by share of jobs exposing (PPBW, rho)."""
    chosen = runs[(runs.workload == workload) & (runs.strategy == "ics") & runs.ppbw.isna()].sort_values("information")
    migration = mixed(runs, workload, "migration_only")
    return pd.DataFrame({
        "information": chosen.information.to_numpy(),
        "mean_turnaround": chosen.mean_turnaround.to_numpy(),
        "improvement": (migration - chosen.mean_turnaround.to_numpy()) / migration,
    })


def information_for_half_gain(curve: pd.DataFrame) -> float:
    """Smallest exposure share reaching half of the full-information gain (NaN if there is no gain)."""
    full = curve.improvement.iloc[-1]
    if full <= 0:
        return float("nan")
    target = full / 2
    x, y = curve.information.to_numpy(), curve.improvement.to_numpy()
    above = np.flatnonzero(y >= target)
    first = int(above[0])
    if first == 0:
        return float(x[0])
    return float(x[first - 1] + (target - y[first - 1]) * (x[first] - x[first - 1]) / (y[first] - y[first - 1]))
