"""Run one experiment point: jobs + scheme + cluster -> per-job table and summary.

``engine="compiled"`` (the default) runs ``schedlab.simulators.ics.compiled``; ``"python"`` the
readable reference kernel (``schedlab.simulators.ics.kernel``), which the compiled one matches
bit for bit (tests/test_ics_compiled.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from schedlab.simulators.ics.kernel import Kernel
from schedlab.simulators.ics.metrics import job_table, summarize
from schedlab.simulators.ics.schemes import make_scheme

ENGINES = ("compiled", "python")


@dataclass
class IcsResult:
    jobs: pd.DataFrame
    summary: dict
    events: int
    wall_seconds: float


def run_kernel(
    jobs, scheme: str, n_nodes: int, mpl: int, max_events: int | None = None, engine: str = "compiled",
    boost_preempts_spinner: bool = True,
):
    """Simulate ``jobs`` (fresh ``Job`` objects) under ``scheme``; returns the ``KernelOutcome``."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    scheme_object = make_scheme(scheme, boost_preempts_spinner=boost_preempts_spinner)
    if engine == "compiled":
        from schedlab.simulators.ics.compiled import run_compiled

        return run_compiled(jobs, n_nodes, mpl, scheme_object, max_events)
    kernel = Kernel(jobs, n_nodes, mpl, scheme_object, max_events=max_events)
    kernel.run()
    return kernel.outcome()


def simulate_jobs(
    jobs, scheme: str, n_nodes: int, mpl: int, max_events: int | None = None, engine: str = "compiled",
    boost_preempts_spinner: bool = True,
) -> IcsResult:
    started = time.perf_counter()
    outcome = run_kernel(jobs, scheme, n_nodes, mpl, max_events, engine, boost_preempts_spinner)
    wall = time.perf_counter() - started
    table = job_table(jobs, outcome)
    summary = summarize(table, outcome, n_nodes)
    summary.update(scheme=scheme, nodes=n_nodes, mpl=outcome.mpl, events=outcome.events, messages=outcome.messages)
    return IcsResult(table, summary, outcome.events, wall)
