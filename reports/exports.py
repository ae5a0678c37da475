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

Every writer is atomic: a crash leaves the previous file or none, never half of one.
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

if TYPE_CHECKING:  # pandas is imported where a table is built: 'schedlab replay' without --out needs none
    import pandas as pd

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


def write_schedule(schedule: pd.DataFrame, path, fmt: str, *, jobs: pd.DataFrame | Columns, machine_procs: int,
                   produced_by: str, workload_name: str = "workload", source_header: SwfHeader | None = None) -> None:
    """Write ``schedule`` (a replay's schedule table) in format ``fmt``.

    ``jobs`` is the job table the replay read (for SWF's other fields), ``produced_by``
    one line saying what produced the schedule and ``source_header`` the input trace's
    header, which the SWF output keeps below that line (with MaxProcs the simulated size).
    """
    if fmt == "swf":
        header = dataclasses.replace(
            source_header or SwfHeader(),
            max_procs=int(machine_procs),
            max_jobs=len(schedule),
            max_records=len(schedule),
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
        write_table(batsim_jobs(schedule, machine_procs, workload_name), path, "csv")
    elif fmt in ("csv", "parquet"):
        write_table(schedule, path, fmt)
    else:
        raise SchedlabError(f"unknown schedule format {fmt!r}; choose one of {', '.join(FORMATS)}")


def write_table(table: pd.DataFrame, path, fmt: str | None = None) -> None:
    """Write a table as CSV or Parquet (``fmt``, else from the file name), whole seconds as integers."""
    fmt = fmt or format_from_path(path)
    if fmt not in ("csv", "parquet"):
        raise SchedlabError(f"{path}: a table is written as .csv or .parquet")
    table = whole_seconds_as_integers(table)
    with atomic_path(path) as tmp:
        if fmt == "parquet":
            table.to_parquet(tmp, index=False, write_page_checksum=True)
        else:
            table.to_csv(tmp, index=False, lineterminator="\n")


def whole_seconds_as_integers(table: pd.DataFrame) -> pd.DataFrame:
    table = table.copy()
    for column in table.columns:
        values = table[column].to_numpy()
        if values.dtype.kind == "f" and np.all(np.isfinite(values)) and np.all(values == np.trunc(values)):
            table[column] = values.astype(np.int64)
    return table


def swf_schedule(schedule: pd.DataFrame, jobs: pd.DataFrame | Columns) -> pd.DataFrame:
    """The input's job rows with the simulated submit, wait, run time and processors."""
    import pandas as pd

    jobs = pd.DataFrame(jobs)
    if jobs["job_id"].duplicated().any():
        raise SchedlabError("the job table repeats job ids: an SWF schedule could not be matched to its jobs")
    rows = jobs.set_index("job_id").loc[schedule["job_id"].to_numpy()].reset_index()
    start = schedule["start"].to_numpy()
    submit = schedule["submit"].to_numpy()
    return rows.assign(
        submit_time=submit,
        wait_time=start - submit,
        run_time=schedule["end"].to_numpy() - start,
        allocated_procs=schedule["procs"].to_numpy(),
    )


def assign_processors(schedule: pd.DataFrame, machine_procs: int) -> list[list[tuple[int, int]]]:
    """Processor ids for every job, as inclusive ``(first, last)`` ranges, lowest free ids first.

    Ends at a time free processors before starts at that time take them; jobs starting
    together take ids in the order of the schedule's rows.  Raises if the schedule
    ever needs more than ``machine_procs`` processors.
    """
    start = schedule["start"].to_numpy(dtype=np.float64)
    end = schedule["end"].to_numpy(dtype=np.float64)
    procs = schedule["procs"].to_numpy(dtype=np.int64)
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
                f"job {schedule['job_id'].iloc[row]} starts at {start[row]} needing {procs[row]} processors "
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


def batsim_jobs(schedule: pd.DataFrame, machine_procs: int, workload_name: str) -> pd.DataFrame:
    """The schedule as Batsim's ``jobs.csv``, with processors assigned (:func:`assign_processors`)."""
    import pandas as pd

    submit = schedule["submit"].to_numpy(dtype=np.float64)
    start = schedule["start"].to_numpy(dtype=np.float64)
    end = schedule["end"].to_numpy(dtype=np.float64)
    execution = end - start
    turnaround = end - submit
    table = pd.DataFrame(
        {
            "job_id": schedule["job_id"].to_numpy(),
            "workload_name": workload_name,
            "profile": "replay",
            "submission_time": submit,
            "requested_number_of_resources": schedule["procs"].to_numpy(),
            "requested_time": schedule["requested_time"].to_numpy(dtype=np.float64),
            "success": 1,
            "final_state": "COMPLETED_SUCCESSFULLY",
            "starting_time": start,
            "execution_time": execution,
            "finish_time": end,
            "waiting_time": start - submit,
            "turnaround_time": turnaround,
            "stretch": np.divide(turnaround, execution, out=np.full_like(turnaround, np.nan), where=execution > 0),
            "allocated_resources": [interval_text(r) for r in assign_processors(schedule, machine_procs)],
            "consumed_energy": -1,
            "metadata": "",
        },
        columns=list(BATSIM_COLUMNS),
    )
    return table


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
