"""Run one experiment point: jobs + scheme + cluster -> per-job table and summary."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from simulators.ics.kernel import Kernel
from simulators.ics.metrics import job_table, summarize
from simulators.ics.schemes import make_scheme


@dataclass
class IcsResult:
    jobs: pd.DataFrame
    summary: dict
    events: int
    wall_seconds: float


def simulate(jobs, scheme: str, n_nodes: int, mpl: int, max_events: int | None = None) -> IcsResult:
    """Simulate ``jobs`` (fresh ``Job`` objects, consumed by the run) under ``scheme``."""
    kernel = Kernel(jobs, n_nodes, mpl, make_scheme(scheme), max_events=max_events)
    started = time.perf_counter()
    end = kernel.run()
    wall = time.perf_counter() - started
    table = job_table(jobs)
    summary = summarize(table, kernel.nodes, end)
    summary.update(
        scheme=scheme,
        nodes=n_nodes,
        mpl=kernel.mpl,
        events=kernel.events,
        messages=kernel.messages_sent,
    )
    return IcsResult(table, summary, kernel.events, wall)
