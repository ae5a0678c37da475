"""Metrics tables: ordering, stacking and formatting of replay summaries."""

import math

from schedlab.reports.metrics import (
    combined_metrics_table,
    format_metric,
    headline_rows,
    metrics_by_policy,
    metrics_table,
)


def summaries():
    return {
        "fcfs": {"utilization": 0.5, "mean_wait": 1234.56, "jobs": 3.0},
        "easy": {"utilization": 0.75, "mean_wait": 10.0, "jobs": 3.0, "extra_metric": 2.0},
    }


def test_metrics_table_keeps_policy_order_and_puts_known_metrics_first():
    table = metrics_table(summaries())
    assert list(table["policy"]) == ["fcfs", "easy"]
    assert list(table.columns) == ["policy", "jobs", "mean_wait", "utilization", "extra_metric"]
    assert math.isnan(table.loc[0, "extra_metric"])
    assert table.loc[1, "extra_metric"] == 2.0


def test_format_metric_uses_the_metric_precision_and_marks_missing_values():
    assert format_metric("mean_wait", 1234.56) == "1,235"
    assert format_metric("utilization", 0.75) == "0.750"
    assert format_metric("mean_bsld", 3.14159) == "3.14"
    assert format_metric("something_new", 1.0) == "1.000"
    assert format_metric("mean_wait", float("nan")) == "n/a"


def test_metrics_by_policy_transposes_with_labels():
    header, rows = metrics_by_policy(metrics_table(summaries()))
    assert header == ["metric", "fcfs", "easy"]
    assert rows[0] == ["jobs", "3", "3"]
    assert rows[1] == ["mean wait (s)", "1,235", "10"]
    assert rows[-1] == ["extra metric", "n/a", "2.000"]


def test_combined_table_and_headline_rows():
    table = metrics_table(summaries())
    combined = combined_metrics_table({"A": table, "B": table.iloc[:1]})
    assert list(combined["workload"]) == ["A", "A", "B"]
    assert list(combined.columns[:3]) == ["workload", "policy", "jobs"]
    header, rows = headline_rows(combined)
    assert header == ["workload", "policy", "mean wait (s)", "utilization"]
    assert rows[2] == ["B", "fcfs", "1,235", "0.500"]
