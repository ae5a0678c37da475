"""Run one experiment point: jobs + scheme + cluster -> per-job table and summary.

``engine="compiled"`` (the default) runs ``simulators.ics.compiled``; ``"python"`` the
readable reference kernel (``simulators.ics.kernel``), which the compiled one matches
bit for bit (tests/test_ics_compiled.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from simulators.ics.kernel import Kernel
from simulators.ics.metrics import job_table, summarize
from simulators.ics.schemes import make_scheme

ENGINES = ("compiled", "python")


@dataclass
class IcsResult:
    jobs: pd.DataFrame
    summary: dict
    events: int
    wall_seconds: float


def run_kernel(jobs, scheme: str, n_nodes: int, mpl: int, max_events: int | None = None, engine: str = "compiled"):
    """Simulate ``jobs`` (fresh ``Job`` objects) under ``scheme``; returns the ``KernelOutcome``."""
    if engine == "compiled":
        from simulators.ics.compiled import run_compiled

        return run_compiled(jobs, n_nodes, mpl, scheme, max_events)
    if engine != "python":
        raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    kernel = Kernel(jobs, n_nodes, mpl, make_scheme(scheme), max_events=max_events)
    kernel.run()
    return kernel.outcome()


def simulate(
    jobs, scheme: str, n_nodes: int, mpl: int, max_events: int | None = None, engine: str = "compiled"
) -> IcsResult:
    started = time.perf_counter()
    outcome = run_kernel(jobs, scheme, n_nodes, mpl, max_events, engine)
    wall = time.perf_counter() - started
    table = job_table(jobs, outcome)
    summary = summarize(table, outcome, n_nodes)
    summary.update(scheme=scheme, nodes=n_nodes, mpl=outcome.mpl, events=outcome.events, messages=outcome.messages)
    return IcsResult(table, summary, outcome.events, wall)
