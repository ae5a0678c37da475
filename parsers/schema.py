"""The canonical job table every layer of schedlab exchanges.

One row per job, the 18 fields of the Standard Workload Format (Feitelson et al.,
Parallel Workloads Archive) under snake_case names, in SWF order.  ``-1`` means unknown,
as in SWF.  Identifiers, processor counts and codes are int64; times, CPU time and
memory are float64 (seconds and KB), because real logs write fractional values there.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

SWF_FIELDS: tuple[str, ...] = (
    "job_id",
    "submit_time",
    "wait_time",
    "run_time",
    "allocated_procs",
    "avg_cpu_time",
    "used_memory",
    "requested_procs",
    "requested_time",
    "requested_memory",
    "status",
    "user_id",
    "group_id",
    "executable_id",
    "queue_id",
    "partition_id",
    "preceding_job_id",
    "think_time",
)

FLOAT_FIELDS = frozenset(
    {
        "submit_time",
        "wait_time",
        "run_time",
        "avg_cpu_time",
        "used_memory",
        "requested_time",
        "requested_memory",
        "think_time",
    }
)

DTYPES: dict[str, np.dtype] = {
    name: np.dtype("float64") if name in FLOAT_FIELDS else np.dtype("int64") for name in SWF_FIELDS
}

UNKNOWN = -1


def empty_jobs() -> pd.DataFrame:
    """A job table with no rows and the canonical columns and dtypes."""
    return pd.DataFrame({name: pd.Series([], dtype=dtype) for name, dtype in DTYPES.items()})


def as_job_table(columns: dict) -> pd.DataFrame:
    """Build a canonical job table from a mapping of column arrays; missing fields are -1."""
    n = len(next(iter(columns.values()))) if columns else 0
    data = {}
    for name, dtype in DTYPES.items():
        values = columns.get(name)
        data[name] = (
            np.full(n, UNKNOWN, dtype=dtype) if values is None else np.asarray(values).astype(dtype)
        )
    return pd.DataFrame(data)
