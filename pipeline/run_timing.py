"""Time one Luigi build task by task, and sum the times per stage of a ``FullReport``.

While :func:`recording_events` is active, every ``SchedlabTask`` that runs appends one
JSON line per Luigi event (``START``, ``PROCESSING_TIME``, ``SUCCESS``, ``FAILURE``) to a
log file: the event, the epoch time, the task id and family, the process id and, for
``PROCESSING_TIME``, the task's run time in seconds.  A file, not a list in memory,
because with more than one worker Luigi runs each task in a forked child process and
fires these events there: none of them reaches the handlers of the parent process.
Each line is one short ``O_APPEND`` write, so lines stay whole when workers finish at
once.

:func:`task_times` reads the log back (one row per task that succeeded: start, end,
seconds), :func:`report_groups` says which part of a ``FullReport`` each task belongs
to, and :func:`group_times` sums the two per part: task-seconds (the sum of its tasks'
run times) and span (from its first task's start to its last task's end).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import luigi
import pandas as pd

from pipeline.base import SchedlabTask
from pipeline.full_report import FullReport, dependency_closure

WORKLOAD_PAGES = "workload pages"
"""The group of a FullReport's tasks outside every stage: the workload pages (TraceReport and what
it needs, when no stage needs it too) and the front page itself."""

SHARED = "shared"
"""The group of tasks that several groups need (none today: the stages share no task)."""

TIME_COLUMNS = ("group", "tasks", "task_seconds", "span_seconds", "first_start_seconds", "last_end_seconds",
                "tasks_reused")
"""``tasks_reused``: the group's tasks that did not run because the work directory already held their
outputs (a build in a used work directory): its times then cover only what ran."""

_EVENTS = {
    "start": luigi.Event.START,
    "processing_time": luigi.Event.PROCESSING_TIME,
    "success": luigi.Event.SUCCESS,
    "failure": luigi.Event.FAILURE,
}

EVENTS_VARIABLE = "SCHEDLAB_TASK_EVENTS"
"""An environment variable naming a file: when set, every task of the build records its events there
(how ``bench/bench_fullreport.py`` times a build started as the README starts it, from the command line)."""

_log_path: Path | None = None
"""Where events go while :func:`recording_events` is active (forked workers inherit it)."""


def _handler(event: str):
    def record(task: SchedlabTask, *arguments) -> None:
        if _log_path is None:
            return
        entry = {"event": event, "time": time.time(), "task_id": task.task_id,
                 "family": task.get_task_family(), "pid": os.getpid()}
        if event == "processing_time":
            entry["seconds"] = float(arguments[0])
        descriptor = os.open(_log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(descriptor, (json.dumps(entry) + "\n").encode())
        finally:
            os.close(descriptor)

    return record


for _name, _event in _EVENTS.items():
    SchedlabTask.event_handler(_event)(_handler(_name))

if os.environ.get(EVENTS_VARIABLE):
    _log_path = Path(os.environ[EVENTS_VARIABLE])
    _log_path.parent.mkdir(parents=True, exist_ok=True)


@contextlib.contextmanager
def recording_events(path: Path) -> Iterator[Path]:
    """Append the events of every SchedlabTask run inside the block to ``path``."""
    global _log_path
    path.parent.mkdir(parents=True, exist_ok=True)
    previous, _log_path = _log_path, path
    try:
        yield path
    finally:
        _log_path = previous


def read_events(path: Path) -> pd.DataFrame:
    columns = ["event", "time", "task_id", "family", "pid", "seconds"]
    if not path.exists():
        return pd.DataFrame(columns=columns)
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return pd.DataFrame(lines, columns=columns)


def task_times(path: Path) -> pd.DataFrame:
    """One row per task that ran to success: task_id, family, start, end (epoch s) and seconds.

    ``seconds`` is Luigi's ``PROCESSING_TIME`` (the task's ``run``); start is its
    ``START`` event, end its ``SUCCESS`` event (both in the worker process that ran it).
    """
    events = read_events(path)
    by_event = {name: events[events["event"] == name].drop_duplicates("task_id", keep="last").set_index("task_id")
                for name in ("start", "processing_time", "success")}
    done = by_event["processing_time"]
    frame = pd.DataFrame({
        "task_id": done.index,
        "family": done["family"].to_numpy(),
        "start": by_event["start"]["time"].reindex(done.index).to_numpy(),
        "end": by_event["success"]["time"].reindex(done.index).fillna(done["time"]).to_numpy(),
        "seconds": done["seconds"].astype(float).to_numpy(),
    })
    return frame.sort_values("start", ignore_index=True)


def report_groups(report: FullReport) -> dict[str, str]:
    """Task id -> the group it belongs to, for every task the FullReport ``report`` needs.

    A stage's group is the closure of its report and companion pages; the workload
    pages' group is the closure of the TraceReports, and the FullReport itself.  A task
    in one group only is that group's; a task in several is ``SHARED``.
    """
    members: dict[str, set[str]] = {}
    for name, stage_report in report.stage_reports().items():
        tasks = [stage_report, *report.companion_pages(name).values()]
        members[name] = {task.task_id for top in tasks for task in dependency_closure(top)}
    members[WORKLOAD_PAGES] = {task.task_id for page in report.workload_reports() for task in dependency_closure(page)}
    members[WORKLOAD_PAGES].add(report.task_id)
    owner: dict[str, str] = {}
    for group, task_ids in members.items():
        for task_id in task_ids:
            owner[task_id] = SHARED if owner.get(task_id, group) != group else group
    return owner


def group_times(times: pd.DataFrame, owner: dict[str, str], groups, started: float) -> pd.DataFrame:
    """Per group (in the order of ``groups``, then ``SHARED`` and any other if they ran): how many
    tasks ran, their task-seconds, and their span; first start and last end are counted from
    ``started`` (the epoch time the build began); and how many of the group's tasks (``owner``)
    did not run (reused).  A task no group claims counts as ``SHARED``."""
    timed = times.assign(group=[owner.get(task_id, SHARED) for task_id in times["task_id"]])
    order = list(dict.fromkeys([*groups, *timed["group"]]))
    ran_ids = set(times["task_id"])
    rows = []
    for group in order:
        ran = timed[timed["group"] == group]
        reused = sum(1 for task_id, owned in owner.items() if owned == group and task_id not in ran_ids)
        if ran.empty:
            rows.append((group, 0, 0.0, 0.0, float("nan"), float("nan"), reused))
            continue
        first, last = ran["start"].min(), ran["end"].max()
        rows.append((group, len(ran), ran["seconds"].sum(), last - first, first - started, last - started, reused))
    return pd.DataFrame(rows, columns=list(TIME_COLUMNS))
