"""Slurm and PBS/Torque accounting logs as SWF 2.2 job tables (``schedlab convert``).

Today's clusters log with Slurm (``sacct``) or PBS/Torque, not SWF.  Both converters give a
canonical job table (``schedlab.parsers.schema``) in submit order, jobs numbered 1, 2, ...,
times in seconds from the first submission, and an SWF header saying where it came from; the
field mapping is in ``docs/convert.md``.  Lines that are not jobs (job steps, jobs still
pending or running, array ranges not yet started) are skipped and counted; a line that
cannot be read stops the conversion naming its file and line, or, with ``strict=False``, is
skipped and counted with its line number.

Both also fill the job table's resource columns (``schedlab.parsers.resources``): nodes, GPUs,
memory per node or per core, partition, QOS, user, group and requeues, which SWF cannot hold
(``schedlab convert -o jobs.parquet`` or ``jobs.csv`` keeps them; ``docs/convert.md``).

Slurm: ``sacct --parsable2`` output, ``|``-separated with a header line.  Needed fields
(``SACCT_REQUIRED``): JobID, Submit, Start, End, State, Timelimit, and the processor count as
one of ``SACCT_PROCESSOR_FIELDS`` (AllocCPUS, its equal NCPUS, or AllocTRES's ``cpu``); used when
present: User, Group, Partition, QOS, JobName, ReqCPUS, NNodes, AllocNodes, ReqNodes, AllocTRES,
ReqTRES, ReqMem, AllocGRES, ReqGRES (before Slurm 20.11), Restarts.  Timestamps are read in
``time_zone`` (sacct prints the cluster's local time).  A requeued job listed with ``sacct -D``
has a ``REQUEUED`` record per earlier run: the job keeps the first record's submit time (Slurm
resets ``Submit`` when it requeues) and its last run, and counts its requeues.

PBS/Torque: the server's accounting files (``server_priv/accounting/YYYYMMDD``), lines
``date;type;job id;key=value ...``.  A job is taken from its ``E`` (ended) record; a ``D``
(deleted) record before it marks it cancelled; a job deleted before it ever started has no
``E`` record, no start and no end, and is counted as skipped.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np
import pandas as pd

from schedlab.errors import SchedlabError, require_regular_file
from schedlab.parsers.header import SwfHeader
from schedlab.parsers.resources import (
    RESOURCE_COLUMNS,
    exec_host_slots,
    pbs_select,
    pbs_size_mb,
    slurm_gres_gpus,
    slurm_memory_request,
    tres,
)
from schedlab.parsers.schema import UNKNOWN, as_job_table

COMPLETED, FAILED, CANCELLED = 1, 0, 5  # SWF field 11
SACCT_REQUIRED = ("JobID", "Submit", "Start", "End", "State", "Timelimit")
SACCT_PROCESSOR_FIELDS = ("AllocCPUS", "NCPUS", "AllocTRES")
"""Where a sacct log may give a job's processors: one of them is needed (Slurm documents NCPUS as
equal to AllocCPUS; AllocTRES holds it as ``cpu=``)."""
SACCT_STATES = {
    "COMPLETED": COMPLETED,
    "FAILED": FAILED, "NODE_FAIL": FAILED, "BOOT_FAIL": FAILED, "OUT_OF_MEMORY": FAILED, "TIMEOUT": FAILED,
    "DEADLINE": FAILED, "PREEMPTED": FAILED,
    "CANCELLED": CANCELLED,
}
"""Final Slurm states and their SWF status; every other state (PENDING, RUNNING, REQUEUED, ...) is a job not
finished, skipped."""
UNKNOWN_TIMES = {"", "Unknown", "None", "N/A"}
UNLIMITED = {"UNLIMITED", "Partition_Limit", "INVALID", ""}
SLURM_DURATION = re.compile(r"(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?")
EXAMPLES_KEPT = 5  # line numbers listed per skip reason
PROCESSOR_LIMIT = 2**31 - 1
"""The most processors a job's count may say: Slurm and PBS keep counts in 32-bit integers, and no machine
has two billion processors, so a larger count (``AllocCPUS`` of 10**23, ``n1/0*99999999999999``) is damage."""
LAST_UNIX_TIME = 253_402_300_799
"""9999-12-31T23:59:59Z, the last time a date can print: a later PBS time (``qtime=1e20``) is damage."""


@dataclass
class Conversion:
    """A converted log: its job table, SWF header and what was skipped (reason -> count, first line numbers)."""

    jobs: pd.DataFrame
    header: SwfHeader
    skipped: Counter = field(default_factory=Counter)
    skipped_lines: dict[str, list[int]] = field(default_factory=dict)

    def dropped_by_swf(self) -> list[str]:
        """What an SWF copy of the table loses: the resource columns the log gave (SWF has no place for them)."""
        known = {"GPUs": (self.jobs["gpus"] > 0).sum(), "node counts": (self.jobs["nodes"] > 0).sum(),
                 "memory requests": ((self.jobs["memory_per_node_mb"] > 0) | (self.jobs["memory_per_core_mb"] > 0)).sum()}
        lost = [f"{int(count):,} jobs' {what}" for what, count in known.items() if count]
        if not lost:
            return []
        return [f"SWF cannot hold {', '.join(lost)} (nor partition names or QOS): they are not in the file; "
                "-o ending .parquet or .csv writes the job table with them"]

    def skip_summary(self) -> list[str]:
        return [f"{count:,} {reason}" + (f" ({'line' if count == 1 else 'lines'} {', '.join(map(str, self.skipped_lines[reason]))}"
                                         f"{', ...' if count > len(self.skipped_lines[reason]) else ''})"
                                         if self.skipped_lines.get(reason) else "")
                for reason, count in self.skipped.most_common()]


class _Skips:
    """Skipped lines by reason; an unreadable line stops a strict conversion."""

    def __init__(self, path: str, strict: bool):
        self.path, self.strict = path, strict
        self.counts: Counter = Counter()
        self.lines: dict[str, list[int]] = defaultdict(list)

    def skip(self, number: int, reason: str, listed: bool = True) -> None:
        self.counts[reason] += 1
        if listed and len(self.lines[reason]) < EXAMPLES_KEPT:
            self.lines[reason].append(number)

    def unreadable(self, number: int, problem: str) -> None:
        if self.strict:
            raise SchedlabError(f"{self.path}:{number}: {problem}")
        self.skip(number, "unreadable lines")


class _Names:
    """Strings numbered 1, 2, ... in order of first appearance; '' is unknown (-1)."""

    def __init__(self):
        self.numbers: dict[str, int] = {}

    def __call__(self, name: str) -> int:
        if not name:
            return -1
        return self.numbers.setdefault(name, len(self.numbers) + 1)


def slurm_duration(text: str) -> float | None:
    """Seconds of a Slurm time: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS; None if unlimited."""
    text = text.strip()
    if text in UNLIMITED:
        return None
    match = SLURM_DURATION.fullmatch(text)
    if not match:
        raise ValueError(f"not a Slurm time: {text!r}")
    days, first, second, third = match.groups()
    parts = [int(p) for p in (first, second, third) if p is not None]
    if days is not None:  # D-HH[:MM[:SS]]
        hours, minutes, seconds = (parts + [0, 0])[:3]
        return float(((int(days) * 24 + hours) * 60 + minutes) * 60 + seconds)
    if len(parts) == 1:  # minutes
        return 60.0 * parts[0]
    if len(parts) == 2:  # MM:SS
        return 60.0 * parts[0] + parts[1]
    return 3600.0 * parts[0] + 60.0 * parts[1] + parts[2]


def processor_count(text: str, name: str) -> int:
    """A count of processors as a log writes it: a whole number from 0 to ``PROCESSOR_LIMIT``."""
    count = int(text)
    if not 0 <= count <= PROCESSOR_LIMIT:
        raise ValueError(f"{name} {text} is not a processor count (0 to {PROCESSOR_LIMIT:,})")
    return count


def _unix_time(text: str, name: str) -> float:
    seconds = float(text)
    if not 0 <= seconds <= LAST_UNIX_TIME:  # also refuses nan
        raise ValueError(f"{name} {text} is not a Unix time (seconds from 1970 to the year 9999)")
    return seconds


def _zone(time_zone: str) -> ZoneInfo:
    try:
        return ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise SchedlabError(f"unknown time zone {time_zone!r} (an IANA name such as Europe/Paris)") from None


_NAME_COLUMNS = {"user": "user_name", "group": "group_name"}


def _table(rows: list[dict], path: str, source: str, time_zone: str | None, machine_procs: int | None,
           skips: _Skips, computer: str | None) -> Conversion:
    """The job table in submit order, times from the first submission, and its header."""
    if not rows:
        raise SchedlabError(f"{path}: no finished job to convert" + (
            f" ({'; '.join(f'{n:,} {reason}' for reason, n in skips.counts.most_common())})" if skips.counts else ""))
    frame = pd.DataFrame(rows).sort_values(["submit", "line"], kind="stable").reset_index(drop=True)
    start = int(frame["submit"].iloc[0])
    known_start = frame["start"].notna()
    wait = np.where(known_start, frame["start"] - frame["submit"], -1.0)
    run = np.where(known_start & frame["end"].notna(), frame["end"] - frame["start"], -1.0)
    jobs = as_job_table({
        "job_id": np.arange(1, len(frame) + 1),
        "submit_time": (frame["submit"] - start).to_numpy(float),
        "wait_time": wait, "run_time": run,
        "allocated_procs": frame["procs"].to_numpy(np.int64),
        "requested_procs": frame["requested_procs"].to_numpy(np.int64),
        "requested_time": frame["requested_time"].to_numpy(float),
        "status": frame["status"].to_numpy(np.int64),
        "user_id": frame["user"].to_numpy(np.int64), "group_id": frame["group"].to_numpy(np.int64),
        "executable_id": frame["executable"].to_numpy(np.int64), "queue_id": frame["queue"].to_numpy(np.int64),
    })
    for name, kind in RESOURCE_COLUMNS.items():
        column = frame[_NAME_COLUMNS.get(name, name)]  # the numbered user and group are SWF's ids
        jobs[name] = column.astype(object if kind is str else kind).to_numpy()
    largest = int(max(frame["procs"].max(), frame["requested_procs"].max()))
    procs = machine_procs or largest
    last = int(frame["submit"].max())
    utc = ZoneInfo("UTC")
    conversion = Conversion(jobs, SwfHeader(), skips.counts, dict(skips.lines))
    conversion.header = SwfHeader(
        version="2.2", computer=computer, max_jobs=len(jobs), max_records=len(jobs), max_procs=procs,
        unix_start_time=start, time_zone_string=time_zone,
        start_time=datetime.fromtimestamp(start, tz=utc).strftime("%a %b %d %H:%M:%S UTC %Y"),
        end_time=datetime.fromtimestamp(last, tz=utc).strftime("%a %b %d %H:%M:%S UTC %Y"),
        other={"Conversion": f"schedlab convert from {source} ({Path(path).name}); field mapping in docs/convert.md"},
        notes=[
            "user, group, executable (job name) and queue (partition) ids number the log's names in order of "
            "first appearance",
            f"MaxProcs {'given on the command line' if machine_procs else 'is the largest job seen, not the machine size'}",
            *(f"skipped {line}" for line in conversion.skip_summary()),
        ],
    )
    return conversion


def read_sacct(path, time_zone: str = "UTC", machine_procs: int | None = None, strict: bool = True,
               computer: str | None = None) -> Conversion:
    """Convert ``sacct --parsable2`` output (see the module docstring)."""
    zone, path = _zone(time_zone), str(path)
    require_regular_file(path, "sacct output")
    skips = _Skips(path, strict)
    names = {key: _Names() for key in ("user", "group", "executable", "queue")}
    rows = []
    requeued: dict[str, list[float]] = defaultdict(list)  # JobID -> submit times of its REQUEUED records
    with open(path, encoding="utf-8", errors="replace") as handle:
        columns = handle.readline().rstrip("\n").split("|")
        _check_sacct_fields(path, columns)
        index = {name: i for i, name in enumerate(columns)}
        gpus_tracked = any(name in index for name in ("AllocGRES", "ReqGRES"))

        def timestamp(text: str) -> float | None:
            if text in UNKNOWN_TIMES:
                return None
            return datetime.fromisoformat(text).replace(tzinfo=zone).timestamp()

        for number, raw in enumerate(handle, start=2):
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            values = line.split("|")
            if len(values) != len(columns):
                skips.unreadable(number, f"{len(values)} fields, the header has {len(columns)}")
                continue
            get = {name: values[i].strip() for name, i in index.items()}
            job_id = get["JobID"]
            if "." in job_id:
                skips.skip(number, "job steps (not jobs)", listed=False)
                continue
            if "[" in job_id:
                skips.skip(number, "array tasks not yet started")
                continue
            state = get["State"].split()[0] if get["State"] else ""
            if state == "REQUEUED":
                try:
                    submit = timestamp(get["Submit"])
                except ValueError as error:
                    skips.unreadable(number, str(error))
                    continue
                if submit is not None:
                    requeued[job_id].append(submit)
                skips.skip(number, "earlier runs of requeued jobs (REQUEUED records, sacct -D)")
                continue
            if state not in SACCT_STATES:
                skips.skip(number, f"jobs not finished ({state or 'no state'})")
                continue
            try:
                submit, start, end = (timestamp(get[key]) for key in ("Submit", "Start", "End"))
                limit = slurm_duration(get["Timelimit"])
                resources = _sacct_resources(get)
            except ValueError as error:
                skips.unreadable(number, str(error))
                continue
            if submit is None:
                skips.unreadable(number, "no submit time")
                continue
            if start is not None and end is not None and end < start:
                skips.unreadable(number, f"ends before it starts ({get['Start']} > {get['End']})")
                continue
            gpus_tracked = gpus_tracked or resources.pop("tracks_gpus")
            procs, requested = resources.pop("procs"), resources.pop("requested_procs")
            rows.append({
                "line": number, "slurm_id": job_id, "submit": submit, "start": start, "end": end,
                "procs": procs if procs > 0 else -1, "requested_procs": requested if requested > 0 else -1,
                "requested_time": -1.0 if limit is None else limit, "status": SACCT_STATES[state],
                "user": names["user"](get.get("User", "")), "group": names["group"](get.get("Group", "")),
                "executable": names["executable"](get.get("JobName", "")),
                "queue": names["queue"](get.get("Partition", "")),
                **resources,
                "partition": get.get("Partition", ""), "qos": get.get("QOS", ""),
                "user_name": get.get("User", ""), "group_name": get.get("Group", ""),
            })
    for row in rows:
        earlier = requeued.get(row.pop("slurm_id"), [])
        row["submit"] = min([row["submit"], *earlier])
        row["requeues"] = max(row["requeues"], len(earlier))
        if not gpus_tracked:
            row["gpus"] = UNKNOWN
    return _table(rows, path, "sacct --parsable2", time_zone, machine_procs, skips, computer)


def _check_sacct_fields(path: str, columns: list[str]) -> None:
    """Refuse, in one line, a header without a field convert needs, naming the alternatives it accepts."""
    missing = [name for name in SACCT_REQUIRED if name not in columns]
    if not any(name in columns for name in SACCT_PROCESSOR_FIELDS):
        missing.append(f"the processor count ({', '.join(SACCT_PROCESSOR_FIELDS[:-1])} or "
                       f"{SACCT_PROCESSOR_FIELDS[-1]})")
    if missing:
        raise SchedlabError(f"{path}:1: not sacct --parsable2 output with the fields convert needs: missing "
                            f"{', '.join(missing)} (see docs/convert.md for the sacct command)")


def _sacct_resources(get: dict[str, str]) -> dict:
    """A sacct job's processors and resource columns, from whichever fields the log has; ``tracks_gpus``
    says whether its TRES names GPUs at all."""
    allocated = tres(get.get("AllocTRES", ""))
    asked = tres(get.get("ReqTRES", ""))
    cpus_text = get.get("AllocCPUS") or get.get("NCPUS") or ""
    procs = (processor_count(cpus_text, "AllocCPUS" if get.get("AllocCPUS") else "NCPUS") if cpus_text
             else processor_count(f"{allocated.get('cpu', 0):.0f}", "AllocTRES cpu"))
    requested = processor_count(get.get("ReqCPUS") or "0", "ReqCPUS") or procs
    nodes_text = get.get("AllocNodes") or get.get("NNodes") or ""
    nodes = int(nodes_text) if nodes_text.isdigit() else int(allocated.get("node") or asked.get("node") or 0)
    if not nodes and (get.get("ReqNodes") or "").isdigit():
        nodes = int(get["ReqNodes"])
    if "gres/gpu" in allocated or "gres/gpu" in asked:
        gpus = int(allocated.get("gres/gpu", asked.get("gres/gpu", 0)))
    else:
        gpus = slurm_gres_gpus(get.get("AllocGRES") or get.get("ReqGRES") or "")
    per_node, per_core = slurm_memory_request(get.get("ReqMem", ""), asked.get("mem"), nodes)
    restarts = get.get("Restarts", "")
    return {
        "procs": procs, "requested_procs": requested, "nodes": nodes or UNKNOWN, "gpus": gpus,
        "memory_per_node_mb": per_node, "memory_per_core_mb": per_core,
        "requeues": int(restarts) if restarts.isdigit() else 0,
        "tracks_gpus": "gres/gpu" in allocated or "gres/gpu" in asked,
    }


def _pbs_duration(text: str) -> float:
    parts = [int(p) for p in text.split(":")]
    if not 1 <= len(parts) <= 3:
        raise ValueError(f"not a PBS time: {text!r}")
    seconds = 0
    for part in parts:
        seconds = seconds * 60 + part
    return float(seconds)


def pbs_processors(attributes: dict[str, str]) -> int:
    """Processors of a PBS job: counted from exec_host (Torque's ``n1/0-15+n2/0-15`` 32, ``n1/0+n1/1`` 2;
    PBS Pro's ``n1/0*4`` 4), else Resource_List.ncpus, else the ncpus of Resource_List.select's chunks,
    else nodes x ppn of Resource_List.nodes (``2:ppn=4``); -1 if none says."""
    hosts = attributes.get("exec_host", "")
    if hosts:
        return processor_count(str(exec_host_slots(hosts)[0]), "exec_host's processors")
    if attributes.get("Resource_List.ncpus"):
        return processor_count(attributes["Resource_List.ncpus"], "Resource_List.ncpus")
    if attributes.get("Resource_List.select"):
        return processor_count(f"{pbs_select(attributes['Resource_List.select'])['ncpus']:.0f}", "select's ncpus")
    nodes = attributes.get("Resource_List.nodes", "")
    if nodes:
        count, _, rest = nodes.partition(":")
        ppn = re.search(r"ppn=(\d+)", rest)
        total = (int(count) if count.isdigit() else 1) * (int(ppn.group(1)) if ppn else 1)
        return processor_count(str(total), "Resource_List.nodes")
    return -1


def _pbs_resources(attributes: dict[str, str], procs: int) -> dict:
    """A PBS job's resource columns: nodes from exec_host's hosts (else nodect, select's chunks or nodes),
    GPUs from ngpus (else select's), memory per node from mem or select's, per core from Torque's pmem;
    ``tracks_gpus`` says whether the record names GPUs at all."""
    select = pbs_select(attributes["Resource_List.select"]) if attributes.get("Resource_List.select") else None
    nodes_text = attributes.get("Resource_List.nodect", "")
    if attributes.get("exec_host"):
        nodes = exec_host_slots(attributes["exec_host"])[1]
    elif nodes_text.isdigit():
        nodes = int(nodes_text)
    elif select is not None:
        nodes = int(select["chunks"])
    else:
        count = attributes.get("Resource_List.nodes", "").partition(":")[0]
        nodes = int(count) if count.isdigit() else UNKNOWN
    gpus_text = attributes.get("Resource_List.ngpus", "")
    tracks_gpus = bool(gpus_text) or (select is not None and "ngpus=" in attributes["Resource_List.select"])
    gpus = int(gpus_text) if gpus_text.isdigit() else int(select["ngpus"]) if select is not None else 0
    total = (pbs_size_mb(attributes["Resource_List.mem"]) if attributes.get("Resource_List.mem")
             else select["mem"] if select is not None and select["mem"] else None)
    per_node = total / nodes if total is not None and nodes > 0 else float(UNKNOWN)
    per_core = pbs_size_mb(attributes["Resource_List.pmem"]) if attributes.get("Resource_List.pmem") else float(UNKNOWN)
    if per_core != UNKNOWN and per_node != UNKNOWN and procs > 0:
        per_core = float(UNKNOWN)  # mem says the job's whole memory; pmem only bounds each process within it
    return {"nodes": nodes, "gpus": gpus, "memory_per_node_mb": per_node, "memory_per_core_mb": per_core,
            "requeues": 0, "tracks_gpus": tracks_gpus}


def read_pbs(path, machine_procs: int | None = None, strict: bool = True, computer: str | None = None) -> Conversion:
    """Convert a PBS/Torque accounting log (see the module docstring)."""
    path = str(path)
    require_regular_file(path, "a PBS/Torque accounting log")
    skips = _Skips(path, strict)
    names = {key: _Names() for key in ("user", "group", "executable", "queue")}
    deleted: set[str] = set()
    ended: dict[str, tuple[int, dict[str, str]]] = {}
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, raw in enumerate(handle, start=1):
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            parts = line.split(";", 3)
            if len(parts) != 4:
                skips.unreadable(number, "not 'date;type;job id;attributes'")
                continue
            _, record, job_id, message = parts
            if record == "D":
                deleted.add(job_id)
            elif record == "E":
                attributes = dict(item.split("=", 1) for item in message.split() if "=" in item)
                ended[job_id] = (number, attributes)
            else:
                skips.skip(number, f"records of type {record or '?'} (only E and D are read)", listed=False)
    rows = []
    gpus_tracked = False
    for job_id, (number, attributes) in ended.items():
        try:
            submit_key = "qtime" if attributes.get("qtime") else "ctime"
            submit = _unix_time(attributes[submit_key], submit_key)
            start = _unix_time(attributes["start"], "start") if attributes.get("start") else None
            end = _unix_time(attributes["end"], "end") if attributes.get("end") else None
            procs = pbs_processors(attributes)
            resources = _pbs_resources(attributes, procs)
            walltime = attributes.get("Resource_List.walltime")
            limit = _pbs_duration(walltime) if walltime else -1.0
            exit_status = int(attributes.get("Exit_status", "0"))
        except (KeyError, ValueError) as error:
            skips.unreadable(number, f"job {job_id}: {error}")
            continue
        if start is not None and end is not None and end < start:
            skips.unreadable(number, f"job {job_id} ends before it starts")
            continue
        status = CANCELLED if job_id in deleted else (COMPLETED if exit_status == 0 else FAILED)
        queue = attributes.get("queue", "")
        gpus_tracked = gpus_tracked or resources.pop("tracks_gpus")
        rows.append({
            "line": number, "submit": submit, "start": start, "end": end, "procs": procs, "requested_procs": procs,
            "requested_time": limit, "status": status,
            "user": names["user"](attributes.get("user", "")), "group": names["group"](attributes.get("group", "")),
            "executable": names["executable"](attributes.get("jobname", "")), "queue": names["queue"](queue),
            **resources, "partition": queue, "qos": "",
            "user_name": attributes.get("user", ""), "group_name": attributes.get("group", ""),
        })
    if not gpus_tracked:
        for row in rows:
            row["gpus"] = UNKNOWN
    never_started = len(deleted - set(ended))
    if never_started:
        skips.counts["jobs deleted before they started (no E record)"] += never_started
    return _table(rows, path, "PBS/Torque accounting", None, machine_procs, skips, computer)


def detect_format(path) -> str:
    """``sacct`` when the first line is a ``|``-separated header naming JobID, ``pbs`` when it looks like
    ``date;type;id;...``; raises otherwise."""
    require_regular_file(path, "an accounting log")
    with open(path, encoding="utf-8", errors="replace") as handle:
        first = handle.readline()
    if "|" in first and "JobID" in first.split("|"):
        return "sacct"
    if re.match(r"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d;[A-Z];", first):
        return "pbs"
    raise SchedlabError(f"{path}:1: neither sacct --parsable2 output (a header line with JobID) nor a PBS "
                        "accounting log (date;type;job id;...): give --format")
