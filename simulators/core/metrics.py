"""Metrics of a schedule: what scheduling papers report.

- wait = start - submit; response = end - submit;
- slowdown = response / run time; bounded slowdown = max(1, response / max(run, tau)),
  tau = 10 s by default (Feitelson et al., "Theory and practice in parallel job
  scheduling", 1997), which keeps very short jobs from dominating the mean;
- utilization = processor-seconds used / (capacity x makespan), makespan from the first
  submission to the last end.
"""

from __future__ import annotations

import numpy as np

BOUNDED_SLOWDOWN_TAU = 10.0


def summary(name: str, values: np.ndarray) -> dict[str, float]:
    """``mean_<name>``, ``median_<name>`` and ``p95_<name>`` of ``values`` (NaN when there is none)."""
    if values.size == 0:
        return {f"mean_{name}": float("nan"), f"median_{name}": float("nan"), f"p95_{name}": float("nan")}
    return {
        f"mean_{name}": float(values.mean()),
        f"median_{name}": float(np.median(values)),
        f"p95_{name}": float(np.percentile(values, 95)),
    }


def schedule_metrics(
    submit: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    procs: np.ndarray,
    capacity: int,
    max_queue_length: int,
    tau: float = BOUNDED_SLOWDOWN_TAU,
) -> dict[str, float]:
    run = end - start
    wait = start - submit
    response = end - submit
    metrics: dict[str, float] = {"jobs": float(len(submit))}
    metrics.update(summary("wait", wait))
    metrics.update(summary("response", response))
    metrics.update(summary("slowdown", response / run))
    metrics.update(summary("bsld", np.maximum(1.0, response / np.maximum(run, tau))))
    makespan = float(end.max() - submit.min()) if len(submit) else 0.0
    metrics["makespan"] = makespan
    metrics["utilization"] = float((run * procs).sum() / (capacity * makespan)) if makespan > 0 else 0.0
    metrics["max_queue_length"] = float(max_queue_length)
    return metrics
