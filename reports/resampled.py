"""A trace's policies compared over resampled workloads: paired per-seed differences with 95 % intervals.

Reads the runs table of ``schedlab.simulators.batch.resampled`` (one row per seed, policy and
arrivals mode).  Each policy is set against the first one (the baseline) on the same
resamples: per seed the difference of the two policies' metric.  Whether the policy's metric
is lower is judged as the claims ledger judges an ordering (``schedlab.reports.ledger.judge``):
the mean difference's Student-t 95 % interval below 0 is "lower", above 0 "higher", across 0
or on fewer than the ledger's ``MIN_SEEDS`` seeds "inconclusive", an honest answer.
"""

from __future__ import annotations

import math

import pandas as pd
from matplotlib.figure import Figure as MplFigure

from schedlab.reports.ledger import Claim, Measurement, Part, Verdict, interval, judge

METRIC_LABELS = {
    "mean_wait": ("mean wait", "h", 1 / 3600),
    "mean_bsld": ("mean bounded slowdown", "", 1.0),
    "p95_wait": ("95th percentile wait", "h", 1 / 3600),
    "max_wait": ("longest wait", "h", 1 / 3600),
    "over_a_week": ("jobs waiting over a week", "", 1.0),
    "worst_user_mean_wait": ("worst-served user's mean wait", "h", 1 / 3600),
    "makespan": ("makespan", "days", 1 / 86_400),
}
"""The measures compared, the means first and then what they hide (the tails, the worst-served user, how far
closed-loop arrivals stretch the log): each as its label, unit and scale from the runs table's seconds."""
DIRECTIONS = {"reproduced": "lower", "not_reproduced": "higher", "inconclusive": "inconclusive"}


def lower_than_baseline(policy: str, baseline: str, metric: str, unit: str, differences: pd.Series) -> Verdict:
    """The ledger's verdict on "``policy`` gives a lower ``metric`` than ``baseline``", from the per-seed
    differences (indexed by seed)."""
    claim = Claim(
        claim_id=f"{policy}-below-{baseline}", location="resampled workloads",
        statement=f"{policy} gives a lower {metric} than {baseline}", kind="ordering", paper_value="",
        measure=f"{metric}: {policy} minus {baseline}, paired per seed", unit=unit, side="below", bound=0.0,
        compute=lambda _: Measurement((Part("", tuple(differences.to_numpy(dtype=float)),
                                            tuple(int(seed) for seed in differences.index)),)))
    return judge(claim, {})


def paired_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per arrivals mode, metric and policy after the first: both means and the paired difference."""
    policies = list(dict.fromkeys(runs["policy"]))
    baseline = policies[0]
    rows = []
    for arrivals, by_mode in runs.groupby("arrivals", sort=False):
        measured = [metric for metric in METRIC_LABELS if metric in by_mode.columns]
        wide = {metric: by_mode.pivot(index="seed", columns="policy", values=metric) for metric in measured}
        for metric in measured:
            label, unit, scale = METRIC_LABELS[metric]
            for policy in policies[1:]:
                differences = (wide[metric][policy] - wide[metric][baseline]) * scale
                verdict = lower_than_baseline(policy, baseline, label, unit, differences)
                rows.append({
                    "arrivals": arrivals, "metric": label + (f" ({unit})" if unit else ""),
                    "policy": policy, "baseline": baseline, "seeds": verdict.seeds,
                    "policy_mean": wide[metric][policy].mean() * scale, "baseline_mean": wide[metric][baseline].mean() * scale,
                    "difference": verdict.ours, "low": verdict.low, "high": verdict.high,
                    "verdict": DIRECTIONS[verdict.verdict], "reason": verdict.reason,
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
