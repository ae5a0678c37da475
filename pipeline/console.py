"""What a pipeline build prints by default: a short account of its progress, the report's path last.

Luigi's own log is at WARNING by default (``luigi.cfg``, ``[core] log_level``; FullReport's
``--verbose``, or ``--log-level INFO`` or ``DEBUG`` on the ``luigi`` command line, brings back
its line per task event).  In
its place a build prints, on stdout:

- when its first task starts: how many tasks it runs and how many were already complete;
- a line per page written (each workload page, each stage report and companion page), and
  one each time another tenth of the tasks is done, each with the count done / to run;
- a line every ``HEARTBEAT_SECONDS`` while a task runs longer than that, naming it and how long it
  has run, so that a long calibration or simulation is never a silent wait;
- a line for a task that fails (Luigi logs its traceback at ERROR, which shows);
- for a bad parameter on the command line, one line naming it, and exit code 2 (Luigi would
  log a traceback);
- when a ``FullReport`` is written, or found complete with nothing to do, its ``index.html``
  path, as the last line (an ``ArchiveBundle``: its size, then the archive's path).

With more than one worker Luigi runs each task in a forked child process and fires the
run events there, so the count of finished tasks lives in shared memory created while
scheduling (in the parent, before any fork); each line is written whole under its lock.
A build is told from the next one in the same process (tests call ``luigi.build`` many
times) by its scheduling events: scheduling after tasks have started is a new build.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import luigi

from pipeline import compile_ahead
from pipeline.base import SchedlabTask
from pipeline.bundle import ArchiveBundle
from pipeline.full_report import FullReport
from pipeline.report_tasks import TraceReport
from pipeline.stages import STAGES
from schedlab.errors import SchedlabError

PAGE_FAMILIES = frozenset(
    {TraceReport.get_task_family()}
    | {stage.task.get_task_family() for stage in STAGES}
    | {page.get_task_family() for stage in STAGES for page in stage.companions}
)
"""Tasks whose output is a page of the report: each gets its own progress line."""

STEPS = 10
"""A line each time another 1/STEPS of the tasks is done."""

HEARTBEAT_SECONDS = 120.0
"""A running task says it is still running this often."""

_DONE, _STARTED, _STEP = range(3)
"""Slots of the shared counters: tasks finished, whether any started, tenths announced."""


@dataclass
class _Build:
    discovered: set[str] = field(default_factory=set)
    complete: set[str] = field(default_factory=set)
    counters: object = field(default_factory=lambda: multiprocessing.get_context("fork").Array("q", 3))

    @functools.cached_property
    def to_run(self) -> frozenset[str]:
        """Read once scheduling is over (at the first start; in each forked worker, its own copy)."""
        return frozenset(self.discovered - self.complete)


_build: _Build | None = None
_quiet = False


def set_quiet(quiet: bool) -> bool:
    """Print nothing (``schedlab -q``) or the usual lines; returns the previous choice."""
    global _quiet
    previous, _quiet = _quiet, quiet
    return previous


def _scheduling() -> _Build:
    """The build being scheduled: the current one, or a new one if the current one already ran tasks."""
    global _build
    if _build is None or _build.counters[_STARTED]:
        _build = _Build()
    return _build


def _say(line: str) -> None:
    if _quiet:
        return
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


compile_ahead.announce = _say


def report_path(report: FullReport) -> str:
    return str(report.output_file("index.html"))


@SchedlabTask.event_handler(luigi.Event.DEPENDENCY_DISCOVERED)
def _discovered(task: SchedlabTask, requirement: SchedlabTask) -> None:
    """Luigi names an incomplete task's requirements; those found complete are then reported present."""
    _scheduling().discovered.update((task.task_id, requirement.task_id))


@SchedlabTask.event_handler(luigi.Event.DEPENDENCY_PRESENT)
def _already_complete(task: SchedlabTask) -> None:
    _scheduling().complete.add(task.task_id)
    if isinstance(task, FullReport):
        _say("The report is already complete:")
        _say(report_path(task))


_running: dict[str, threading.Event] = {}
"""Per task running in this process, the event that stops its heartbeat."""


def _heartbeat(task: SchedlabTask, build: _Build, stopped: threading.Event) -> None:
    started = time.monotonic()
    while not stopped.wait(HEARTBEAT_SECONDS):
        total = len(build.to_run)
        minutes = (time.monotonic() - started) / 60
        with build.counters.get_lock():
            if stopped.is_set():  # the task ended while this beat waited for the lock
                return
            _say(f"[{build.counters[_DONE]:>{len(str(total))}}/{total} tasks] still running after "
                 f"{minutes:.0f} min: {_shortened(str(task))}")


TASK_NAME_CHARACTERS = 160
"""A heartbeat names its task in at most this many characters (a list parameter can run to thousands)."""


def _shortened(name: str) -> str:
    return name if len(name) <= TASK_NAME_CHARACTERS else name[:TASK_NAME_CHARACTERS - 3] + "..."


@SchedlabTask.event_handler(luigi.Event.START)
def _started(task: SchedlabTask) -> None:
    build = _build
    if build is None or task.task_id not in build.to_run:
        return  # a task run by hand, outside a build
    with build.counters.get_lock():
        if not build.counters[_STARTED]:
            build.counters[_STARTED] = 1
            _say(f"Running {len(build.to_run):,} tasks ({len(build.complete):,} already complete); "
                 f"a line per page written and per tenth done (more: --log-level INFO).")
    stopped = _running[task.task_id] = threading.Event()
    threading.Thread(target=_heartbeat, args=(task, build, stopped), daemon=True).start()


def _stop_heartbeat(task: SchedlabTask) -> None:
    stopped = _running.pop(task.task_id, None)
    if stopped is not None:
        stopped.set()


@SchedlabTask.event_handler(luigi.Event.SUCCESS)
def _finished(task: SchedlabTask) -> None:
    _stop_heartbeat(task)
    build = _build
    if build is None or task.task_id not in build.to_run:
        return
    total = len(build.to_run)
    with build.counters.get_lock():
        build.counters[_DONE] += 1
        done = build.counters[_DONE]
        count = f"[{done:>{len(str(total))}}/{total} tasks]"
        step = done * STEPS // total
        if isinstance(task, FullReport):
            _say(f"{count} the full report is written:")
            _say(report_path(task))
        elif isinstance(task, ArchiveBundle):
            _say(f"{count} the bundle is written ({task.archive().stat().st_size / 1e6:,.1f} MB):")
            _say(str(task.archive()))
        elif task.get_task_family() in PAGE_FAMILIES:
            _say(f"{count} page written: {task}")
        elif step > build.counters[_STEP]:
            _say(f"{count} {100 * step // STEPS} % done")
        build.counters[_STEP] = max(step, build.counters[_STEP])


@SchedlabTask.event_handler(luigi.Event.FAILURE)
def _failed(task: SchedlabTask, exception: BaseException) -> None:
    """Luigi logs the traceback (at ERROR); this names the task and says where the build stands
    (tasks that do not need it still run)."""
    _stop_heartbeat(task)
    build = _build
    if build is None or task.task_id not in build.to_run:
        return
    with build.counters.get_lock():
        total = len(build.to_run)
        _say(f"[{build.counters[_DONE]:>{len(str(total))}}/{total} tasks] FAILED: {task}: {exception}; "
             f"what needs it will not run (Luigi's traceback above)")


def _usage_error(kind: type, error: BaseException, trace) -> str | None:
    """What was wrong, in one line, when ``error`` is a bad task name, parameter or parameter
    value given on the ``luigi`` command line (a schedlab range check, Luigi's parameter errors,
    a value Luigi's parser could not read, named by its option); else None."""
    if issubclass(kind, (SchedlabError, luigi.parameter.ParameterException, luigi.task_register.TaskClassException)):
        return str(error)
    if issubclass(kind, ValueError):
        for frame, _ in traceback.walk_tb(trace):
            if Path(frame.f_code.co_filename).name == "cmdline_parser.py" and "param_name" in frame.f_locals:
                return f"--{frame.f_locals['param_name'].replace('_', '-')}: {error}"
    return None



UNCAUGHT = "Uncaught exception in luigi"
"""How Luigi's command line logs an error it met outside any task (luigi.retcodes); a task's
own failure is logged otherwise, and a build goes on after it."""


class _OneLineUsageErrors(logging.Filter):
    """Luigi catches what goes wrong before scheduling and logs it with a traceback ("Uncaught
    exception in luigi"), then exits.  For a usage error this says it in one line on stderr
    and exits with code 2, as the ``schedlab`` command does; anything else is logged as Luigi
    logs it."""

    def filter(self, record: logging.LogRecord) -> bool:
        uncaught = record.msg == UNCAUGHT and record.exc_info and record.exc_info[0]
        problem = _usage_error(*record.exc_info) if uncaught else None
        if problem is None:
            return True
        sys.stdout.flush()
        print(f"luigi: {problem}", file=sys.stderr, flush=True)
        raise SystemExit(2)


logging.getLogger("luigi-interface").addFilter(_OneLineUsageErrors())
