"""Job tables on disk: SWF's -1 ("unknown") is a null in Parquet and -1 again in memory."""

from __future__ import annotations

import re

import numpy as np
import pyarrow.parquet as pq
import pytest

from schedlab.parsers.schema import DTYPES, as_job_table, read_jobs, write_jobs


def jobs_with_unknowns():
    return as_job_table({
        "job_id": [1, 2, 3],
        "submit_time": [0.0, 10.5, 20.0],
        "run_time": [100.0, -1.0, 50.0],
        "allocated_procs": [4, 8, -1],
        "requested_time": [-1.0, 200.0, 60.0],
    }).assign(seed=[7, 7, 7])


def test_unknown_values_are_nulls_in_the_file(tmp_path):
    write_jobs(jobs_with_unknowns(), tmp_path / "jobs.parquet")
    table = pq.read_table(tmp_path / "jobs.parquet")
    assert table.column("run_time").to_pylist() == [100.0, None, 50.0]
    assert table.column("allocated_procs").to_pylist() == [4, 8, None]
    assert table.column("think_time").null_count == 3  # a field the table never had
    assert str(table.schema.field("allocated_procs").type) == "int64"
    assert str(table.schema.field("run_time").type) == "double"
    assert table.column("seed").to_pylist() == [7, 7, 7]  # columns beyond the 18 fields pass through


def test_reading_back_restores_minus_one_and_the_dtypes(tmp_path):
    jobs = jobs_with_unknowns()
    write_jobs(jobs, tmp_path / "jobs.parquet")
    back = read_jobs(tmp_path / "jobs.parquet")
    assert back.equals(jobs)
    assert back["run_time"].tolist() == [100.0, -1.0, 50.0]
    assert back["allocated_procs"].tolist() == [4, 8, -1]
    assert {name: back[name].dtype for name in DTYPES} == DTYPES
    assert np.all(back["think_time"] == -1)


def test_a_damaged_job_table_is_refused_with_its_path(tmp_path):
    from schedlab.errors import InputError

    path = tmp_path / "jobs.parquet"
    write_jobs(as_job_table({"job_id": list(range(1, 2001)), "run_time": [60.0] * 2000}), path)
    data = bytearray(path.read_bytes())
    data[200] ^= 0x10  # inside the first data page
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match=rf"^{re.escape(str(path))}: not a readable Parquet job table"):
        read_jobs(path)
