"""A trace's policies compared over resampled workloads: paired per-seed differences with 95 % intervals.

Reads the runs table of ``schedlab.simulators.batch.resampled`` (one row per seed, policy and
arrivals mode).  Each policy is set against the first one (the baseline) on the same
resamples: per seed the difference of the two policies' metric, then its mean and Student-t
95 % interval (``schedlab.reports.ledger.interval``, as the claims ledger computes them).  The
verdict says which way the interval lies: lower or higher than the baseline, or not shown
when it straddles 0 (inconclusive, an honest answer with few seeds).
"""

from __future__ import annotations

import math

import pandas as pd
from matplotlib.figure import Figure as MplFigure

from schedlab.reports.ledger import interval

METRIC_LABELS = {"mean_wait": ("mean wait", "h", 1 / 3600), "mean_bsld": ("mean bounded slowdown", "", 1.0)}


def direction(low: float, high: float) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return "inconclusive (too few seeds)"
    if high < 0:
        return "lower"
    if low > 0:
        return "higher"
    return "inconclusive"


def paired_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per arrivals mode, metric and policy after the first: both means and the paired difference."""
    policies = list(dict.fromkeys(runs["policy"]))
    baseline = policies[0]
    rows = []
    for arrivals, by_mode in runs.groupby("arrivals", sort=False):
        wide = {metric: by_mode.pivot(index="seed", columns="policy", values=metric) for metric in METRIC_LABELS}
        for metric, (label, unit, scale) in METRIC_LABELS.items():
            for policy in policies[1:]:
                differences = (wide[metric][policy] - wide[metric][baseline]) * scale
                mean, low, high = interval(differences.to_numpy())
                rows.append({
                    "arrivals": arrivals, "metric": label + (f" ({unit})" if unit else ""),
                    "policy": policy, "baseline": baseline, "seeds": len(differences),
                    "policy_mean": wide[metric][policy].mean() * scale, "baseline_mean": wide[metric][baseline].mean() * scale,
                    "difference": mean, "low": low, "high": high, "verdict": direction(low, high),
                })
    return pd.DataFrame(rows)


def resampled_figure(runs: pd.DataFrame, title: str) -> MplFigure:
    """Mean wait per policy, open- and closed-loop side by side, with each mean's 95 % interval over seeds."""
    figure = MplFigure(figsize=(6.5, 3.8), layout="constrained")
    axes = figure.subplots()
    policies = list(dict.fromkeys(runs["policy"]))
    modes = list(dict.fromkeys(runs["arrivals"]))
    width = 0.8 / len(modes)
    for k, mode in enumerate(modes):
        means, errors = [], []
        for policy in policies:
            mean, low, high = interval((runs[(runs["policy"] == policy) & (runs["arrivals"] == mode)]["mean_wait"]
                                        / 3600).to_numpy())
            means.append(mean)
            errors.append(0.0 if math.isnan(low) else mean - low)
        positions = [i + (k - (len(modes) - 1) / 2) * width for i in range(len(policies))]
        axes.bar(positions, means, width, yerr=errors, capsize=3, label=mode)
    axes.set_xticks(range(len(policies)), policies)
    axes.set_ylabel("mean wait (h)")
    axes.set_title(title)
    axes.legend()
    return figure
