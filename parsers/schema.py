"""The canonical job table every layer of schedlab exchanges.

One row per job, the 18 fields of the Standard Workload Format (Feitelson et al.,
Parallel Workloads Archive) under snake_case names, in SWF order.  ``-1`` means unknown,
as in SWF.  Identifiers, processor counts and codes are int64; times, CPU time and
memory are float64 (seconds and KB), because real logs write fractional values there.

In memory an unknown value is ``-1``, as every reader expects; in a Parquet file it is a
missing value (null), so that another tool reading the file cannot mistake -1 for a size
or a time.  ``write_jobs`` and ``read_jobs`` convert at that boundary and keep any column
beyond the 18 fields as it is.
"""

from __future__ import annotations

from pathlib import Path

from typing import TYPE_CHECKING

import numpy as np

from schedlab.errors import InputError

if TYPE_CHECKING:  # pandas is imported where a table is built: reading SWF into arrays needs none
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


def as_job_table(columns: dict) -> pd.DataFrame:
    """Build a canonical job table from a mapping of column arrays; missing fields are -1."""
    import pandas as pd

    n = len(next(iter(columns.values()))) if columns else 0
    data = {}
    for name, dtype in DTYPES.items():
        values = columns.get(name)
        data[name] = (
            np.full(n, UNKNOWN, dtype=dtype) if values is None else np.asarray(values).astype(dtype)
        )
    return pd.DataFrame(data)


def write_jobs(jobs: pd.DataFrame, path: Path) -> None:
    """Write a job table to Parquet, each SWF field's -1 as null (nullable int64 or float64)."""
    stored = jobs.copy()
    for name in SWF_FIELDS:
        if name in stored.columns:
            column = stored[name]
            nullable = "Float64" if name in FLOAT_FIELDS else "Int64"
            stored[name] = column.astype(nullable).mask(column == UNKNOWN)
    stored.to_parquet(path, index=False, write_page_checksum=True)


def read_jobs(path: Path) -> pd.DataFrame:
    """A job table written by ``write_jobs``, its nulls back to -1 and its canonical dtypes; a file that
    is not one (damaged: its page checksums fail, or not Parquet) is refused with its path."""
    import pandas as pd

    try:
        jobs = pd.read_parquet(path, page_checksum_verification=True)
    except (OSError, ValueError) as error:  # pyarrow's errors are of these kinds
        raise InputError(path, None, f"not a readable Parquet job table ({error})") from error
    for name in SWF_FIELDS:
        if name in jobs.columns:
            jobs[name] = jobs[name].fillna(UNKNOWN).astype(DTYPES[name])
    return jobs
