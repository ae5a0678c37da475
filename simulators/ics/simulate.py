"""One experiment point of the ICS study simulated: the stage's ``simulate(point)`` (docs/architecture.md,
"Anatomy of a stage").

The point (``schedlab.simulators.ics.experiments.Point``) fixes the workload, the cluster and the scheme;
``simulate`` builds the jobs from it, runs them (``schedlab.simulators.ics.run``) and returns the run with its
row: the point's parameters and its metrics, the workload's offered load among them.
"""

from __future__ import annotations

import pandas as pd

from schedlab.simulators.ics.experiments import RUNAWAY_EVENTS, Point
from schedlab.simulators.ics.run import IcsResult, simulate_jobs


def offered_load(jobs: pd.DataFrame, nodes: int) -> float | None:
    """Dedicated processor-seconds of the workload over the node-seconds until the last arrival.

    Arrival times are sums of inter-arrival gaps from time 0, so the last submit time is
    the span of all the workload's gaps.  None when every job arrives at time 0 (a
    closed batch has no arrival rate)."""
    span = float(jobs["submit"].max())
    if span <= 0:
        return None
    return float((jobs["procs"] * jobs["dedicated"]).sum() / (nodes * span))


def simulate(point: Point, engine: str = "compiled") -> tuple[IcsResult, dict]:
    """The point's run, and its row as ``summary.json`` holds it: ``{"point": ..., "metrics": ...}``."""
    result = simulate_jobs(
        point.jobs(), point.scheme, point.nodes, point.mpl, max_events=RUNAWAY_EVENTS, engine=engine,
        boost_preempts_spinner=point.boost_preempts_spinner,
    )
    metrics = {**result.summary, "offered_load": offered_load(result.jobs, point.nodes)}
    return result, {"point": point.parameters(), "metrics": metrics}
