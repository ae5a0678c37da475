"""The job table as a file that holds what SWF cannot: Parquet or CSV with named columns (issue 65).

SWF has no place for a job's GPUs, nodes, memory per node or partition name, so ``schedlab
convert -o jobs.parquet`` (or ``jobs.csv``) writes the whole job table instead
(:func:`write_job_table`), and :func:`read_job_table` reads it back.  The format
(``docs/convert.md``):

* the columns are named: SWF's 18 fields under their canonical names (``schedlab.parsers.schema``),
  then the resource columns (``schedlab.parsers.resources.RESOURCE_COLUMNS``), in that order; a
  file may leave resource columns out (they are then unknown) but none of the 18;
* an unknown number is -1 in CSV and null in Parquet (so that no other tool takes it for a size);
  an unknown text is empty;
* the SWF header travels with the table: in CSV as comment lines above the column names, SWF's
  header lines with ``#`` for their ``;`` (``# Version: 2.2``), in Parquet as SWF's lines in the
  file's key-value metadata (``schedlab.swf_header``).

An SWF trace read as a job table gets the resource columns SWF can say: memory per core from its
requested memory (field 10, KB per processor) and nothing else.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from schedlab.atomic import atomic_path, write_text
from schedlab.errors import InputError, require_regular_file
from schedlab.parsers.header import SwfHeader, parse_header
from schedlab.parsers.resources import RESOURCE_COLUMNS, RESOURCE_UNKNOWN
from schedlab.parsers.schema import DTYPES, SWF_FIELDS, UNKNOWN, read_jobs, write_jobs

if TYPE_CHECKING:
    import pandas as pd

JOB_TABLE_SUFFIXES = (".parquet", ".csv")
HEADER_METADATA_KEY = b"schedlab.swf_header"
COLUMN_ORDER = (*SWF_FIELDS, *RESOURCE_COLUMNS)


def is_job_table_path(path) -> bool:
    """Whether ``path`` names a job table file (by its suffix) rather than SWF."""
    return str(path).lower().endswith(JOB_TABLE_SUFFIXES)


def write_job_table(path, jobs: pd.DataFrame, header: SwfHeader) -> None:
    """Write ``jobs`` (SWF's fields and any resource columns) with ``header``, atomically, as Parquet or CSV
    by ``path``'s suffix."""
    import pyarrow.parquet as pq

    table = _in_column_order(jobs)
    lines = header.to_lines()
    if str(path).lower().endswith(".csv"):
        comments = "".join(f"#{line[1:]}\n" for line in lines)
        write_text(path, comments + table.to_csv(index=False, lineterminator="\n"))
        return
    with atomic_path(path) as temporary:
        write_jobs(table, temporary)
        stored = pq.read_table(temporary)
        metadata = {**(stored.schema.metadata or {}), HEADER_METADATA_KEY: "\n".join(lines).encode("utf-8")}
        pq.write_table(stored.replace_schema_metadata(metadata), temporary, write_page_checksum=True)


def read_job_table(path) -> tuple[pd.DataFrame, SwfHeader]:
    """A job table file and its header: the 18 fields with their canonical types and unknowns (-1), every
    resource column (unknown where the file has none).  A column missing, a number that is not one, or a
    header line that cannot be read is refused naming the file (and the line, in CSV)."""
    path = Path(path)
    require_regular_file(path, "a job table")
    if str(path).lower().endswith(".csv"):
        jobs, header_lines = _read_csv(path)
    else:
        import pyarrow.parquet as pq

        jobs = read_jobs(path)
        metadata = pq.read_schema(path).metadata or {}
        header_lines = list(enumerate(metadata.get(HEADER_METADATA_KEY, b"").decode("utf-8").splitlines(), start=1))
    missing = [name for name in SWF_FIELDS if name not in jobs.columns]
    if missing:
        raise InputError(path, None, f"not a job table: no column {', '.join(missing)} (a job table names SWF's "
                                     "18 fields; docs/convert.md)")
    for name, unknown in RESOURCE_UNKNOWN.items():
        if name not in jobs.columns:
            jobs[name] = unknown
        elif RESOURCE_COLUMNS[name] is str:
            jobs[name] = jobs[name].fillna("").astype(str)
        else:
            jobs[name] = jobs[name].fillna(unknown).astype(RESOURCE_COLUMNS[name])
    header, _ = parse_header(header_lines, _refuse(path, in_metadata=not str(path).lower().endswith(".csv")))
    return _in_column_order(jobs), header


def _in_column_order(jobs: pd.DataFrame) -> pd.DataFrame:
    ordered = [name for name in COLUMN_ORDER if name in jobs.columns]
    return jobs[ordered + [name for name in jobs.columns if name not in ordered]]


def _refuse(path: Path, in_metadata: bool):
    def report(line: int, kind: str, message: str) -> None:
        if in_metadata:
            raise InputError(path, None, f"header line {line} (in the metadata): {message}")
        raise InputError(path, line, f"header: {message}")
    return report


def _read_csv(path: Path) -> tuple[pd.DataFrame, list[tuple[int, str]]]:
    """The CSV's table, every number checked (a bad one named by its line and column), and its header lines."""
    import pandas as pd

    header_lines: list[tuple[int, str]] = []
    with open(path, encoding="utf-8", newline="") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.startswith("#"):
                break
            header_lines.append((number, ";" + line[1:].rstrip("\r\n")))
        else:
            raise InputError(path, None, "no column names: not a job table")
    first_row_line = len(header_lines) + 2
    try:
        text = pd.read_csv(path, skiprows=len(header_lines), dtype=str, keep_default_na=False)
    except (ValueError, csv.Error, UnicodeDecodeError) as error:
        raise InputError(path, None, f"not a CSV job table ({error})") from None
    jobs = pd.DataFrame(index=text.index)
    for name in text.columns:
        kind = DTYPES.get(name, RESOURCE_COLUMNS.get(name))
        if kind is None or kind is str:
            jobs[name] = text[name]
            continue
        values = pd.to_numeric(text[name].replace("", str(UNKNOWN)), errors="coerce")
        bad = np.flatnonzero(values.isna().to_numpy() | ~np.isfinite(values.to_numpy(float, na_value=np.nan)))
        if len(bad):
            row = int(bad[0])
            raise InputError(path, first_row_line + row, f"{name} is not a number: {text[name].iloc[row]!r}")
        if kind == np.dtype("int64") and not (values == np.trunc(values)).all():
            row = int(np.flatnonzero(values != np.trunc(values))[0])
            raise InputError(path, first_row_line + row, f"{name} must be a whole number: {text[name].iloc[row]!r}")
        jobs[name] = values.to_numpy().astype(kind)
    return jobs, header_lines


def resources_from_swf(jobs: pd.DataFrame) -> pd.DataFrame:
    """An SWF job table with the resource columns SWF can say: memory per core (MiB) from its requested
    memory in KB per processor; the rest unknown."""
    table = jobs.copy()
    for name, unknown in RESOURCE_UNKNOWN.items():
        table[name] = unknown
    requested = table["requested_memory"].to_numpy(float)
    table["memory_per_core_mb"] = np.where(requested > 0, requested / 1024.0, float(UNKNOWN))
    return table
