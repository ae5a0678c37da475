"""The per-job numbers a batch simulation needs, already cleaned by a convention profile."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BatchJobs:
    """Jobs in submission order (ties keep file order).

    ``estimate`` is what the scheduler believes (it books ``[start, start + estimate)``),
    ``actual`` is how long the job really holds its processors; ``actual <= estimate``
    always, because a job is killed at its estimate.
    """

    job_id: np.ndarray
    submit: np.ndarray
    estimate: np.ndarray
    actual: np.ndarray
    procs: np.ndarray
    source_row: np.ndarray | None = None
    """Each job's row in the job table it was prepared from (None when built by hand): what lets a
    schedule carry a column of that table, such as the wait the log recorded."""

    def __post_init__(self):
        n = len(self.job_id)
        for name in ("submit", "estimate", "actual", "procs"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"BatchJobs.{name} has {len(getattr(self, name))} rows, expected {n}")
        if n and np.any(np.diff(self.submit) < 0):
            raise ValueError("BatchJobs must be sorted by submit time")
        if n and np.any(self.actual > self.estimate):
            raise ValueError("a job may not run longer than its estimate")
        if n and (np.any(self.actual <= 0) or np.any(self.procs <= 0)):
            raise ValueError("every job needs a positive run time and processor count")

    def __len__(self) -> int:
        return len(self.job_id)
