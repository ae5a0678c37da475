"""A replay's schedule in the formats other tools read: SWF, Batsim's ``jobs.csv``, CSV, Parquet.

- ``swf``: the input's 18 SWF fields per job, with submit, wait, run time and
  allocated processors taken from the simulation, under a header that says what
  produced it; ``schedlab info`` and ``schedlab.parsers.swf.read_swf`` read it back.
- ``batsim``: the columns of Batsim's ``jobs.csv`` output, which evalys loads
  (``JobSet.from_csv``).  ``allocated_resources`` needs processor ids, which a
  replay does not choose (it books counts); :func:`assign_processors` gives one
  valid assignment: at each time, ending jobs free their processors first, then
  starting jobs, in start order, take the lowest free ids.  Every job is written as
  ``COMPLETED_SUCCESSFULLY`` (the replay kills none; a job cut at its requested time
  under schedlab's conventions ran for that time).
- ``csv`` and ``parquet``: the schedule table itself (job, submit, start, end,
  processors, estimate, run time, the log's recorded wait), times holding whole seconds
  written as integers.

Every writer is atomic: a crash leaves the previous file or none, never half of one.  The
writers take a table as a pandas DataFrame or as its columns (a mapping of names to numpy
arrays, as ``ReplayResult.schedule_columns``) and need no pandas for the latter: writing a
schedule costs less than computing it.  CSV is written as pandas writes it (floats in their
shortest exact form, NaN as an empty field, minimal quoting); Parquet with pyarrow alone.
"""

from __future__ import annotations

import bisect
import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from schedlab.parsers.header import SwfHeader
from schedlab.parsers.swf import Columns, read_swf, write_swf
from schedlab.atomic import atomic_path
from schedlab.errors import InputError, SchedlabError

if TYPE_CHECKING:  # pandas is imported where a DataFrame is built: 'schedlab replay' needs none
    from collections.abc import Mapping

    import pandas as pd

    Table = pd.DataFrame | Mapping[str, np.ndarray]

FORMATS = ("swf", "batsim", "csv", "parquet")

BATSIM_COLUMNS = (
    "job_id",
    "workload_name",
    "profile",
    "submission_time",
    "requested_number_of_resources",
    "requested_time",
    "success",
    "final_state",
    "starting_time",
    "execution_time",
    "finish_time",
    "waiting_time",
    "turnaround_time",
    "stretch",
    "allocated_resources",
    "consumed_energy",
    "metadata",
)


def format_from_path(path: str) -> str:
    """The format a file name implies: ``.swf`` (or ``.swf.gz``), ``.parquet``, ``.csv`` (our table)."""
    name = str(path).lower()
    for suffix, fmt in ((".swf", "swf"), (".swf.gz", "swf"), (".parquet", "parquet"), (".csv", "csv")):
        if name.endswith(suffix):
            return fmt
    raise SchedlabError(f"cannot tell the format of {path} from its name: give --format ({', '.join(FORMATS)})")


def write_schedule(schedule: Table, path, fmt: str, *, jobs: pd.DataFrame | Columns, machine_procs: int,
                   produced_by: str, workload_name: str = "workload", source_header: SwfHeader | None = None) -> None:
    """Write ``schedule`` (a replay's schedule table) in format ``fmt``.

    ``jobs`` is the job table the replay read (for SWF's other fields), ``produced_by``
    one line saying what produced the schedule and ``source_header`` the input trace's
    header, which the SWF output keeps below that line (with MaxProcs the simulated size).
    """
    schedule = columns_of(schedule)
    if fmt == "swf":
        jobs_count = len(schedule["job_id"])
        header = dataclasses.replace(
            source_header or SwfHeader(),
            max_procs=int(machine_procs),
            max_jobs=jobs_count,
            max_records=jobs_count,
            # The input's Note lines describe how its own machine scheduled ("uses the EASY
            # scheduler"): this schedule's Note says what made it, theirs move to the comments.
            notes=[f"Schedule simulated by {produced_by}"],
            comments=[
                f"Schedule produced by {produced_by}",
                "Submit, wait and run times and processors are simulated; the other fields are the input's.",
                *(f"Note of the input log: {note}" for note in (source_header.notes if source_header else [])),
                *(source_header.comments if source_header else []),
            ],
        )
        write_swf(path, swf_schedule(schedule, jobs), header)
    elif fmt == "batsim":
        write_columns(batsim_jobs(schedule, machine_procs, workload_name), path, "csv")
    elif fmt in ("csv", "parquet"):
        write_columns(schedule, path, fmt)
    else:
        raise SchedlabError(f"unknown schedule format {fmt!r}; choose one of {', '.join(FORMATS)}")


def columns_of(table: Table) -> dict[str, np.ndarray]:
    """A table's columns by name, in order, as numpy arrays (a DataFrame's or a mapping's)."""
    return {str(name): np.asarray(table[name]) for name in (table.columns if hasattr(table, "columns") else table)}


def write_columns(table: Table, path, fmt: str | None = None) -> None:
    """Write a table as CSV or Parquet (``fmt``, else from the file name), whole seconds as integers."""
    fmt = fmt or format_from_path(path)
    if fmt not in ("csv", "parquet"):
        raise SchedlabError(f"{path}: a table is written as .csv or .parquet")
    columns = whole_seconds_as_integers(columns_of(table))
    with atomic_path(path) as tmp:
        if fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            pq.write_table(pa.table(columns), tmp, write_page_checksum=True)
        else:
            Path(tmp).write_text(csv_text(columns), encoding="utf-8", newline="")


def whole_seconds_as_integers(columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    whole = {}
    for name, values in columns.items():
        if values.dtype.kind == "f" and np.all(np.isfinite(values)) and np.all(values == np.trunc(values)):
            values = values.astype(np.int64)
        whole[name] = values
    return whole


def csv_text(columns: dict[str, np.ndarray]) -> str:
    """The columns as CSV text, one header line then one line per row, each ending in a newline."""
    fields = [_csv_field(name) for name in columns]
    cells = [_csv_cells(values) for values in columns.values()]
    return "".join(line + "\n" for line in [",".join(fields), *map(",".join, zip(*cells))])


def _csv_cells(values: np.ndarray) -> list[str]:
    if values.dtype.kind in "iu":
        return list(map(str, values.tolist()))
    if values.dtype.kind == "f":
        return ["" if value != value else repr(value) for value in values.tolist()]
    return [_csv_field(str(value)) for value in values.tolist()]


def _csv_field(text: str) -> str:
    if any(special in text for special in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text


def swf_schedule(schedule: Table, jobs: pd.DataFrame | Columns) -> dict[str, np.ndarray]:
    """The input's job rows with the simulated submit, wait, run time and processors."""
    schedule, jobs = columns_of(schedule), columns_of(jobs)
    ids = jobs["job_id"]
    order = np.argsort(ids, kind="stable")
    if np.any(ids[order][1:] == ids[order][:-1]):
        raise SchedlabError("the job table repeats job ids: an SWF schedule could not be matched to its jobs")
    found = np.searchsorted(ids[order], schedule["job_id"])
    rows = order[np.minimum(found, len(ids) - 1)]
    if len(ids) == 0 or np.any(ids[rows] != schedule["job_id"]):
        raise SchedlabError("the schedule names jobs the job table does not have")
    start, submit = schedule["start"], schedule["submit"]
    return {**{name: values[rows] for name, values in jobs.items()}, "submit_time": submit,
            "wait_time": start - submit, "run_time": schedule["end"] - start, "allocated_procs": schedule["procs"]}


def assign_processors(schedule: Table, machine_procs: int) -> list[list[tuple[int, int]]]:
    """Processor ids for every job, as inclusive ``(first, last)`` ranges, lowest free ids first.

    Ends at a time free processors before starts at that time take them; jobs starting
    together take ids in the order of the schedule's rows.  Raises if the schedule
    ever needs more than ``machine_procs`` processors.
    """
    start = np.asarray(schedule["start"], dtype=np.float64)
    end = np.asarray(schedule["end"], dtype=np.float64)
    procs = np.asarray(schedule["procs"], dtype=np.int64)
    n = len(start)
    # Events sorted by time, ends (kind 0) before starts (kind 1), then by row.
    times = np.concatenate([end, start])
    kinds = np.concatenate([np.zeros(n, np.int8), np.ones(n, np.int8)])
    rows = np.concatenate([np.arange(n), np.arange(n)])
    events = np.lexsort((rows, kinds, times))
    free: list[list[int]] = [[0, int(machine_procs) - 1]]  # disjoint, sorted inclusive ranges
    assigned: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for event in events.tolist():
        row = int(rows[event])
        if kinds[event] == 0:
            if assigned[row]:
                for first, last in assigned[row]:
                    _release(free, first, last)
            continue
        needed = int(procs[row])
        taken: list[tuple[int, int]] = []
        while needed and free:
            first, last = free[0]
            count = min(needed, last - first + 1)
            taken.append((first, first + count - 1))
            needed -= count
            if count == last - first + 1:
                free.pop(0)
            else:
                free[0][0] = first + count
        if needed:
            raise SchedlabError(
                f"job {np.asarray(schedule['job_id'])[row]} starts at {start[row]} needing {procs[row]} processors "
                f"when fewer than that are free on {machine_procs}: the schedule is not feasible"
            )
        assigned[row] = taken
    return assigned


def _release(free: list[list[int]], first: int, last: int) -> None:
    index = bisect.bisect_left(free, [first, last])
    free.insert(index, [first, last])
    # Merge with the neighbours it touches, so the list stays short.
    if index + 1 < len(free) and free[index][1] + 1 == free[index + 1][0]:
        free[index][1] = free.pop(index + 1)[1]
    if index > 0 and free[index - 1][1] + 1 == free[index][0]:
        free[index - 1][1] = free.pop(index)[1]


def interval_text(ranges: list[tuple[int, int]]) -> str:
    """Ranges the way Batsim and procset write them: ``0-3 7 9-12``."""
    return " ".join(f"{first}-{last}" if last > first else str(first) for first, last in ranges)


def batsim_jobs(schedule: Table, machine_procs: int, workload_name: str) -> dict[str, np.ndarray]:
    """The schedule as Batsim's ``jobs.csv`` columns, with processors assigned (:func:`assign_processors`)."""
    schedule = columns_of(schedule)
    submit = schedule["submit"].astype(np.float64)
    start = schedule["start"].astype(np.float64)
    end = schedule["end"].astype(np.float64)
    execution = end - start
    turnaround = end - submit
    count = len(submit)

    def constant(value):
        return np.full(count, value)

    table = {
        "job_id": schedule["job_id"],
        "workload_name": constant(workload_name),
        "profile": constant("replay"),
        "submission_time": submit,
        "requested_number_of_resources": schedule["procs"],
        "requested_time": schedule["requested_time"].astype(np.float64),
        "success": constant(1),
        "final_state": constant("COMPLETED_SUCCESSFULLY"),
        "starting_time": start,
        "execution_time": execution,
        "finish_time": end,
        "waiting_time": start - submit,
        "turnaround_time": turnaround,
        "stretch": np.divide(turnaround, execution, out=np.full_like(turnaround, np.nan), where=execution > 0),
        "allocated_resources": np.array([interval_text(r) for r in assign_processors(schedule, machine_procs)],
                                        dtype=object),
        "consumed_energy": constant(-1),
        "metadata": constant(""),
    }
    return {name: table[name] for name in BATSIM_COLUMNS}


def default_workload_name(path) -> str:
    name = Path(path).name
    for suffix in (".gz", ".swf", ".parquet", ".csv"):
        name = name.removesuffix(suffix)
    return name or "workload"


#: What :func:`read_schedule` gives per job, whatever the file's format.
SCHEDULE_COLUMNS = ("job_id", "submit", "start", "end", "procs")


def read_schedule(path) -> tuple[pd.DataFrame, int | None]:
    """A schedule written by any of the writers above, as a schedule table (job, submit,
    start, end, processors), with the machine size when the file states it (SWF's MaxProcs)."""
    import pandas as pd

    name = str(path).lower()
    if name.endswith((".swf", ".swf.gz")):
        trace = read_swf(path)
        jobs = trace.jobs
        start = jobs["submit_time"] + jobs["wait_time"]
        table = pd.DataFrame({"job_id": jobs["job_id"], "submit": jobs["submit_time"], "start": start,
                              "end": start + jobs["run_time"], "procs": jobs["allocated_procs"]})
        return table, trace.header.max_procs
    kind = "Parquet" if name.endswith(".parquet") else "CSV"
    try:
        table = pd.read_parquet(path) if kind == "Parquet" else pd.read_csv(path)
    except (OSError, ValueError) as error:  # missing, a directory, binary, not UTF-8, not Parquet, no rows
        reason = str(error).strip().split("\n")[0] or type(error).__name__
        raise InputError(path, None, f"not a readable {kind} schedule ({reason})") from None
    if "starting_time" in table.columns:  # Batsim's jobs.csv
        table = table.rename(columns={"submission_time": "submit", "starting_time": "start",
                                      "finish_time": "end", "requested_number_of_resources": "procs"})
    missing = [c for c in SCHEDULE_COLUMNS if c not in table.columns]
    if missing:
        raise SchedlabError(f"{path}: not a schedule (no column {', '.join(missing)})")
    for column in SCHEDULE_COLUMNS:
        values = pd.to_numeric(table[column], errors="coerce")
        bad = ~np.isfinite(values.to_numpy(dtype=float, na_value=np.nan))
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            line = row + 2 if kind == "CSV" else None  # the CSV's header is line 1
            raise InputError(path, line, f"{column} is not a finite number: {table[column].iloc[row]!r}")
    return table, None
