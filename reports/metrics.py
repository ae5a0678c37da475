"""Metrics tables: the numbers a replay summary holds, arranged for comparison and display.

A replay summary is the flat ``{metric: float}`` dict that ``schedlab.simulators.batch.replay``
returns.  These functions put several summaries side by side (one row per policy, or
per workload and policy) and format the values for people, while the CSV files keep
every value at full precision.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class Metric:
    """How one metric is shown: its label (with unit) and how many decimals it deserves."""

    name: str
    label: str
    decimals: int


METRICS: tuple[Metric, ...] = (
    Metric("jobs", "jobs", 0),
    Metric("mean_wait", "mean wait (s)", 0),
    Metric("median_wait", "median wait (s)", 0),
    Metric("p95_wait", "95th percentile wait (s)", 0),
    Metric("mean_response", "mean response (s)", 0),
    Metric("median_response", "median response (s)", 0),
    Metric("p95_response", "95th percentile response (s)", 0),
    Metric("mean_slowdown", "mean slowdown", 2),
    Metric("median_slowdown", "median slowdown", 2),
    Metric("p95_slowdown", "95th percentile slowdown", 2),
    Metric("mean_bsld", "mean bounded slowdown", 2),
    Metric("median_bsld", "median bounded slowdown", 2),
    Metric("p95_bsld", "95th percentile bounded slowdown", 2),
    Metric("utilization", "utilization", 3),
    Metric("makespan", "makespan (s)", 0),
    Metric("max_queue_length", "max queue length (jobs)", 0),
)
"""Known metrics in display order; a metric not listed here is shown after them, by name."""

HEADLINE_METRICS: tuple[str, ...] = ("mean_wait", "p95_wait", "mean_bsld", "utilization")
"""The few metrics an overview table shows for every workload and policy."""

_BY_NAME = {metric.name: metric for metric in METRICS}


def metric_label(name: str) -> str:
    known = _BY_NAME.get(name)
    return known.label if known else name.replace("_", " ")


def format_metric(name: str, value: float) -> str:
    """Format ``value`` of metric ``name`` for a table: thousands separators, fixed decimals."""
    if value is None or math.isnan(value):
        return "n/a"
    known = _BY_NAME.get(name)
    decimals = known.decimals if known else 3
    return f"{value:,.{decimals}f}"


def ordered_metric_names(names) -> list[str]:
    """Known metrics first in ``METRICS`` order, then any others alphabetically."""
    names = set(names)
    known = [metric.name for metric in METRICS if metric.name in names]
    return known + sorted(names - set(known))


def metrics_table(summaries: Mapping[str, Mapping[str, float]]) -> pd.DataFrame:
    """One row per policy (in the order given), one column per metric.

    ``summaries`` maps a policy name to its replay metrics.  The first column,
    ``policy``, names the row, so the table writes to CSV without an index.
    """
    columns = ordered_metric_names(name for metrics in summaries.values() for name in metrics)
    rows = [
        {"policy": policy, **{name: float(metrics.get(name, math.nan)) for name in columns}}
        for policy, metrics in summaries.items()
    ]
    return pd.DataFrame(rows, columns=["policy", *columns])


def combined_metrics_table(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Stack per-workload metrics tables into one, with a leading ``workload`` column."""
    frames = [table.assign(workload=workload) for workload, table in tables.items()]
    combined = pd.concat(frames, ignore_index=True)
    metric_columns = ordered_metric_names(c for c in combined.columns if c not in ("workload", "policy"))
    return combined[["workload", "policy", *metric_columns]]


def metrics_by_policy(table: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Header and formatted rows of ``table`` transposed: one row per metric, one column per policy.

    With a handful of policies and sixteen metrics, metrics down the side is the shape
    that fits on a page.
    """
    header = ["metric", *table["policy"]]
    metric_columns = [column for column in table.columns if column != "policy"]
    rows = [
        [metric_label(name), *(format_metric(name, value) for value in table[name])]
        for name in metric_columns
    ]
    return header, rows


def headline_rows(combined: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Header and formatted rows of the overview: workload, policy and ``HEADLINE_METRICS``."""
    metrics = [name for name in HEADLINE_METRICS if name in combined.columns]
    header = ["workload", "policy", *(metric_label(name) for name in metrics)]
    rows = [
        [row["workload"], row["policy"], *(format_metric(name, row[name]) for name in metrics)]
        for _, row in combined.iterrows()
    ]
    return header, rows


RECORDED = "recorded in the log"
"""The row of ``recorded_wait_comparison`` that holds the log's own waits."""


def recorded_wait_comparison(schedules: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The log's recorded waits beside each policy's simulated waits, over the same jobs.

    ``schedules`` maps a policy to its replay schedule (columns ``submit``, ``start`` and
    ``recorded_wait``, NaN where the log recorded none).  Only jobs with a recorded wait
    count, so every row describes the same jobs; the table is empty when no job has one
    (a synthetic workload, or a log without wait times).
    """
    columns = ["source", "jobs", "mean_wait", "median_wait", "p95_wait"]
    first = next(iter(schedules.values()), None)
    if first is None or first["recorded_wait"].isna().all():
        return pd.DataFrame(columns=columns)

    def row(source: str, waits: pd.Series) -> dict:
        return {"source": source, "jobs": float(len(waits)), "mean_wait": float(waits.mean()),
                "median_wait": float(waits.median()), "p95_wait": float(waits.quantile(0.95))}

    rows = [row(RECORDED, first["recorded_wait"].dropna())]
    for policy, schedule in schedules.items():
        known = schedule["recorded_wait"].notna()
        rows.append(row(policy, (schedule["start"] - schedule["submit"])[known]))
    return pd.DataFrame(rows, columns=columns)
