"""Clean a job table for replay with named, documented filters whose removals are counted.

A replay needs jobs that arrived, ran and fit on the machine; a log also records jobs
that never ran or cannot be placed.  Each filter below removes one such kind and
returns ``(kept_jobs, removed_count)``; :func:`clean` runs them in order and returns a
:class:`CleaningReport` whose per-step names, descriptions (each filter's docstring's
first paragraph) and counts go into reports, so a reader can see what was dropped and
why.  Filters are pure: they never modify their input and give the same output for
the same input.  Order matters only for attribution: a job failing several filters
is counted by the first.  A job table is a DataFrame or, as ``schedlab replay`` cleans it
without importing pandas, a mapping of column name to numpy array (``Trace.columns``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from schedlab.errors import InputError

if TYPE_CHECKING:
    import pandas as pd

#: SWF status code of a cancelled job (SWF 2.1 added it to 1 = completed, 0 = failed).
STATUS_CANCELLED = 5

Jobs = "pd.DataFrame | Mapping[str, np.ndarray]"
CleaningStep = Callable[[Jobs, int], tuple[Jobs, int]]


def effective_procs(jobs: Jobs) -> np.ndarray:
    """Processors each job occupies: allocated if the log knows it, else requested.

    Allocation is what the machine actually gave, so it is preferred; many logs and
    models (and cancelled jobs) give only the request.  ``-1`` where neither is known.
    """
    allocated = np.asarray(jobs["allocated_procs"])
    requested = np.asarray(jobs["requested_procs"])
    return np.where(allocated > 0, allocated, np.where(requested > 0, requested, -1))


def job_count(jobs: Jobs) -> int:
    return len(next(iter(jobs.values()))) if isinstance(jobs, Mapping) else len(jobs)


def _keep(jobs: Jobs, keep: np.ndarray) -> tuple[Jobs, int]:
    removed = int(len(keep) - keep.sum())
    if isinstance(jobs, Mapping):
        return {name: np.asarray(column)[keep] for name, column in jobs.items()}, removed
    return jobs[keep].reset_index(drop=True), removed


def drop_cancelled_before_start(jobs: Jobs, machine_procs: int) -> tuple[Jobs, int]:
    """Drop jobs cancelled before they started: status 5 (cancelled) and run time <= 0.

    The SWF definition gives status 5 to cancelled jobs but leaves their other fields
    to the log; PWA logs record a job cancelled while queued with a run time of 0 or
    -1 (often no allocation either), and one cancelled while running with its real
    run time.  The latter occupied processors, so it stays in the workload.
    """
    cancelled = np.asarray(jobs["status"]) == STATUS_CANCELLED
    return _keep(jobs, ~(cancelled & (np.asarray(jobs["run_time"]) <= 0)))


def drop_nonpositive_runtime(jobs: Jobs, machine_procs: int) -> tuple[Jobs, int]:
    """Drop jobs whose run time is unknown (-1) or 0 (under 0.5 s in integer logs).

    Such jobs put no load on the machine, and a zero-length job makes slowdown
    metrics divide by zero.
    """
    return _keep(jobs, np.asarray(jobs["run_time"]) > 0)


def drop_nonpositive_size(jobs: Jobs, machine_procs: int) -> tuple[Jobs, int]:
    """Drop jobs with neither allocated nor requested processors above 0.

    A replay cannot place a job of unknown size.
    """
    return _keep(jobs, effective_procs(jobs) > 0)


def drop_oversized(jobs: Jobs, machine_procs: int) -> tuple[Jobs, int]:
    """Drop jobs needing more processors than the machine has (allocated, else requested).

    A replay could never start them; left in, they would block FCFS queues forever.
    """
    return _keep(jobs, effective_procs(jobs) <= machine_procs)


DEFAULT_STEPS: tuple[CleaningStep, ...] = (
    drop_cancelled_before_start,
    drop_nonpositive_runtime,
    drop_nonpositive_size,
    drop_oversized,
)


@dataclass(frozen=True)
class StepResult:
    name: str
    description: str
    removed: int


@dataclass(frozen=True)
class CleaningReport:
    """What :func:`clean` did: job counts before and after, and each step's removals."""

    jobs_before: int
    jobs_after: int
    machine_procs: int
    steps: tuple[StepResult, ...]

    def as_records(self) -> list[dict]:
        """One dict per step (name, description, removed), for report tables."""
        return [{"name": s.name, "description": s.description, "removed": s.removed} for s in self.steps]

    def summary(self) -> str:
        """A plain-text account, one line per step, for logs and terminal output."""
        width = max((len(step.name) for step in self.steps), default=0)
        lines = [f"cleaning ({self.machine_procs} processors): {self.jobs_before} jobs in, {self.jobs_after} kept"]
        lines += [f"  {s.name:<{width}}  removed {s.removed:>7}  {s.description}" for s in self.steps]
        return "\n".join(lines)

    def removals(self) -> str:
        """Each step's removals on one line: ``drop_a removed 3, drop_b removed 0``."""
        return ", ".join(f"{s.name} removed {s.removed}" for s in self.steps)


def step_description(step: CleaningStep) -> str:
    """The first paragraph of the step's docstring, on one line."""
    paragraph = (inspect.getdoc(step) or step.__name__).split("\n\n")[0]
    return " ".join(paragraph.split())


def clean(
    jobs: Jobs, machine_procs: int, steps: Sequence[CleaningStep] = DEFAULT_STEPS
) -> tuple[Jobs, CleaningReport]:
    """Run ``steps`` in order on ``jobs``; return the kept jobs and the report."""
    if machine_procs is None or machine_procs <= 0:
        raise ValueError(f"machine_procs must be a positive processor count, not {machine_procs!r}")
    kept = jobs
    results = []
    for step in steps:
        kept, removed = step(kept, machine_procs)
        results.append(StepResult(step.__name__, step_description(step), removed))
    report = CleaningReport(job_count(jobs), job_count(kept), machine_procs, tuple(results))
    return kept, report


def refuse_empty(job_count: int, source, report: CleaningReport | None = None) -> None:
    """Raise :class:`InputError` naming ``source`` if it has no job (``job_count`` is 0): a
    replay, fit or pairing of no job would report zeros and NaN as if they were results.
    With the cleaning ``report`` that emptied it, the message says what each step removed."""
    if job_count:
        return
    if report is None or report.jobs_before == 0:
        raise InputError(source, None, "no job lines: the trace is empty or has only a header")
    raise InputError(source, None, f"no job left after cleaning: {report.jobs_before} in, {report.removals()} "
                                   f"(machine of {report.machine_procs} processors)")


def clean_or_refuse(
    jobs: Jobs, machine_procs: int, source, steps: Sequence[CleaningStep] = DEFAULT_STEPS
) -> tuple[Jobs, CleaningReport]:
    """:func:`clean`, refusing (:func:`refuse_empty`) a result without jobs."""
    kept, report = clean(jobs, machine_procs, steps)
    refuse_empty(job_count(kept), source, report)
    return kept, report
