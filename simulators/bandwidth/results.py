"""How the runs of a profile combine into the paper's measures (Jones et al., ICPADS 2006, Sec. 5).

- improvement over Migration Only: ``(T_mig - T_x) / T_mig`` of mean turnaround, same workload;
- room for improvement: the improvement of Zero Comm.;
- Migration Only's gain over No Share: ``(T_noshare - T_mig) / T_noshare`` ("x % faster");
- information needed: the smallest exposure share at which ICS reaches half of its gain with
  full information (linear interpolation between the measured shares);
- the orderings: Zero Comm. <= ICS <= Migration Only (mean turnaround) at every swept PPBW,
  and Migration Only below No Share.

``runs`` has one row per run: the ``Point`` fields (``ppbw`` NaN when PPBW ~ U[0, 300]) and
``summarise``'s metrics.  A profile may run every point on several seeds, the same seeds for
every strategy (common random numbers).  Every measure is then computed per seed, on runs of
the same seed, and averaged over the seeds; its interval is the Student-t interval
(``LEVEL``) of those per-seed values, which are paired, so the seed-to-seed swing of the
workload itself cancels out.  With one seed there is no interval.

An ordering ``a <= b`` at a point is judged on the per-seed differences ``(b - a) / T_mig``:

- ``holds``: their mean is at least 0;
- ``within noise``: their mean is below 0 but the interval reaches 0, so the seeds cannot
  tell the two apart (ICS is within about 1 % of Zero Comm. at low PPBW, where few links
  bind, and of Migration Only at high PPBW, where ICS co-allocates little);
- ``broken``: the whole interval is below 0, or there is one seed and the mean is below 0.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

LEVEL = 0.95
HOLDS, WITHIN_NOISE, BROKEN = "holds", "within noise", "broken"


def half_width(values) -> float:
    """Half-width of the ``LEVEL`` Student-t interval of the mean of ``values``; NaN for fewer than 2."""
    values = np.asarray(values, dtype=float)
    if values.size < 2 or not np.all(np.isfinite(values)):
        return float("nan")
    return float(stats.t.ppf(0.5 + LEVEL / 2, values.size - 1) * values.std(ddof=1) / np.sqrt(values.size))


def verdict(differences) -> str:
    """``holds`` / ``within noise`` / ``broken`` for differences that the ordering wants >= 0."""
    mean = float(np.mean(differences))
    if mean >= 0:
        return HOLDS
    half = half_width(differences)
    return WITHIN_NOISE if np.isfinite(half) and mean + half >= 0 else BROKEN


def by_seed(runs: pd.DataFrame, workload: str, strategy: str, ppbw: float | None = None,
            information: float = 1.0) -> pd.Series:
    """Mean turnaround per seed of one point (``ppbw`` None: the runs with PPBW ~ U[0, 300])."""
    chosen = runs[(runs.workload == workload) & (runs.strategy == strategy)
                  & (runs.ppbw.isna() if ppbw is None else np.isclose(runs.ppbw, ppbw))
                  & np.isclose(runs.information, information)]
    if chosen.empty or chosen.seed.duplicated().any():
        raise ValueError(f"expected one {workload}/{strategy} run per seed at PPBW {ppbw}, information "
                         f"{information}, got seeds {sorted(chosen.seed)}")
    return chosen.set_index("seed").mean_turnaround.sort_index()


def _paired(a: pd.Series, b: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    if not a.index.equals(b.index):
        raise ValueError(f"runs of different seeds cannot be paired: {list(a.index)} vs {list(b.index)}")
    return a.to_numpy(), b.to_numpy()


def mixed(runs: pd.DataFrame, workload: str, strategy: str, information: float = 1.0) -> float:
    """Mean over seeds of the mean turnaround with PPBW ~ U[0, 300]."""
    return float(by_seed(runs, workload, strategy, information=information).mean())


def improvements(runs: pd.DataFrame, workload: str, strategy: str, information: float = 1.0) -> np.ndarray:
    """Improvement over Migration Only per seed, PPBW ~ U[0, 300]."""
    migration, other = _paired(by_seed(runs, workload, "migration_only"),
                               by_seed(runs, workload, strategy, information=information))
    return (migration - other) / migration


def improvement(runs: pd.DataFrame, workload: str, strategy: str, information: float = 1.0) -> float:
    return float(improvements(runs, workload, strategy, information).mean())


def migration_gains_over_no_share(runs: pd.DataFrame, workload: str) -> np.ndarray:
    no_share, migration = _paired(by_seed(runs, workload, "no_share"), by_seed(runs, workload, "migration_only"))
    return (no_share - migration) / no_share


def migration_gain_over_no_share(runs: pd.DataFrame, workload: str) -> float:
    return float(migration_gains_over_no_share(runs, workload).mean())


def sweep(runs: pd.DataFrame, workload: str, strategy: str) -> pd.DataFrame:
    """Means over seeds of a strategy's fixed-PPBW runs, by PPBW (infinite if any seed saturated)."""
    chosen = runs[(runs.workload == workload) & (runs.strategy == strategy) & runs.ppbw.notna()]
    columns = ["mean_turnaround", "coallocated_share", "coallocated_slowdown"]
    means = chosen.groupby("ppbw", sort=True)[columns].mean()
    means["seeds"] = chosen.groupby("ppbw", sort=True).size()
    return means.reset_index()[["ppbw", *columns, "seeds"]]


def information_curve(runs: pd.DataFrame, workload: str) -> pd.DataFrame:
    """ICS improvement over Migration Only (mean over seeds) by share of jobs exposing (PPBW, rho)."""
    shares = np.sort(runs[(runs.workload == workload) & (runs.strategy == "ics") & runs.ppbw.isna()]
                     .information.unique())
    return pd.DataFrame({
        "information": shares,
        "mean_turnaround": [mixed(runs, workload, "ics", share) for share in shares],
        "improvement": [improvement(runs, workload, "ics", share) for share in shares],
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


def orderings(runs: pd.DataFrame, workloads) -> pd.DataFrame:
    """Zero Comm. <= ICS <= Migration Only at every swept PPBW, per workload, judged over seeds.

    One row per workload and PPBW: the seeds, the three mean turnarounds (means over seeds),
    the per-seed gaps ``(ICS - Zero) / T_mig`` and ``(Mig - ICS) / T_mig`` (mean and
    half-width) and the verdict of each and of the point (the worse of the two).
    Zero Comm. and Migration Only ignore PPBW: their runs with PPBW ~ U[0, 300] serve every
    point (the same seed gives the same arrivals, sizes and runtimes at every PPBW).
    """
    rows = []
    for workload in workloads:
        zero = by_seed(runs, workload, "zero_comm")
        migration = by_seed(runs, workload, "migration_only")
        swept = runs[(runs.workload == workload) & (runs.strategy == "ics") & runs.ppbw.notna()]
        for ppbw in np.sort(swept.ppbw.unique()):
            z, m = _paired(zero, migration)
            _, ics = _paired(zero, by_seed(runs, workload, "ics", ppbw))
            above_zero, below_migration = (ics - z) / m, (m - ics) / m
            verdicts = (verdict(above_zero), verdict(below_migration))
            point = BROKEN if BROKEN in verdicts else WITHIN_NOISE if WITHIN_NOISE in verdicts else HOLDS
            rows.append({
                "workload": workload, "ppbw": float(ppbw), "seeds": len(z), "zero_comm": z.mean(), "ics": ics.mean(),
                "migration_only": m.mean(),
                "ics_minus_zero": above_zero.mean(), "ics_minus_zero_half": half_width(above_zero),
                "migration_minus_ics": below_migration.mean(), "migration_minus_ics_half": half_width(below_migration),
                "zero_le_ics": verdicts[0], "ics_le_migration": verdicts[1], "verdict": point,
            })
    return pd.DataFrame(rows)


def no_share_ordering(runs: pd.DataFrame, workloads) -> pd.DataFrame:
    """Migration Only below No Share, per workload: the gain ``(T_noshare - T_mig) / T_noshare`` over seeds."""
    rows = []
    for workload in workloads:
        gains = migration_gains_over_no_share(runs, workload)
        rows.append({"workload": workload, "seeds": len(gains), "gain": gains.mean(), "gain_half": half_width(gains),
                     "verdict": verdict(gains)})
    return pd.DataFrame(rows)
