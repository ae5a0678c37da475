"""Where the pipeline writes and where it looks for traces: the ``[schedlab]`` settings.

Each setting comes from, in order of precedence:

1. Luigi configuration: the ``[schedlab]`` section of ``luigi.cfg`` (or any file in
   ``LUIGI_CONFIG_PATH``), or ``--schedlab-<setting>`` on the ``luigi`` command line;
2. an environment variable;
3. the default.

=============  ======================  ===============================  =================
setting        environment variable    meaning                          default
=============  ======================  ===============================  =================
work_dir       SCHEDLAB_WORK_DIR       root of every task output        ``schedlab-work``
trace_dirs     SCHEDLAB_TRACE_DIRS     directories searched for traces  ``raw_traces``
               (``os.pathsep``-separated)
traces         SCHEDLAB_TRACES         trace names to report on         every trace found
               (comma-separated)
=============  ======================  ===============================  =================

In ``luigi.cfg`` the lists are JSON, e.g. ``trace_dirs = ["raw_traces", "../shared/traces"]``.
Relative paths are relative to the directory Luigi runs in.  None of these settings is
part of any task's identity: moving the work directory or a trace file changes no
output path (a trace is identified by its content, see ``LocateTrace``).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import luigi

from schedlab.errors import SchedlabError

DEFAULT_WORK_DIR = "schedlab-work"
DEFAULT_TRACE_DIRS = ("raw_traces",)


class schedlab(luigi.Config):  # noqa: N801 - Luigi names the config section after the class
    """The ``[schedlab]`` configuration section; read it through the functions below."""

    work_dir = luigi.Parameter(default="", description="root directory of all task outputs")
    trace_dirs = luigi.ListParameter(default=(), description="directories searched for traces")
    traces = luigi.ListParameter(default=(), description="names of the traces to report on")


def work_dir() -> Path:
    return Path(schedlab().work_dir or os.environ.get("SCHEDLAB_WORK_DIR") or DEFAULT_WORK_DIR)


def trace_dirs() -> list[Path]:
    configured = list(schedlab().trace_dirs)
    if not configured and os.environ.get("SCHEDLAB_TRACE_DIRS"):
        configured = [d for d in os.environ["SCHEDLAB_TRACE_DIRS"].split(os.pathsep) if d]
    return [Path(d) for d in configured or DEFAULT_TRACE_DIRS]


def check_trace_dirs() -> None:
    """Refuse, in one line, trace directories set explicitly (``[schedlab] trace_dirs`` or
    ``SCHEDLAB_TRACE_DIRS``) that are not readable directories, or a setting that names none
    (``SCHEDLAB_TRACE_DIRS=:::``): such a build would quietly run on synthetic workloads.  The
    default ``raw_traces`` may be absent (a fresh clone)."""
    configured, source = list(schedlab().trace_dirs), "[schedlab] trace_dirs"
    if not configured and os.environ.get("SCHEDLAB_TRACE_DIRS"):
        raw, source = os.environ["SCHEDLAB_TRACE_DIRS"], "SCHEDLAB_TRACE_DIRS"
        configured = [d for d in raw.split(os.pathsep) if d]
        if not configured:
            raise SchedlabError(f"SCHEDLAB_TRACE_DIRS={raw!r} names no directory (entries are {os.pathsep!r}-separated)")
    for entry in configured:
        path = Path(entry)
        if not path.is_dir():
            what = "is a file, not a directory" if path.exists() else "does not exist"
            raise SchedlabError(f"{source}: {entry} {what} (current directory: {Path.cwd()})")
        if not os.access(path, os.R_OK | os.X_OK):
            raise SchedlabError(f"{source}: {entry} is not readable")


def check_work_dir() -> None:
    """Refuse, in one line, a work directory that is a file, or that cannot be made or written to."""
    directory = work_dir()
    existing = next((d for d in (directory, *directory.parents) if d.exists()), None)
    if directory.exists() and not directory.is_dir():
        raise SchedlabError(f"work directory {directory} is a file, not a directory")
    if existing is not None and not existing.is_dir():
        raise SchedlabError(f"work directory {directory}: {existing} is a file, not a directory")
    if existing is not None and not os.access(existing, os.W_OK | os.X_OK):
        raise SchedlabError(f"work directory {directory}: {existing} is not writable")


def selected_traces() -> list[str]:
    """Trace names explicitly asked for; an empty list means every trace found."""
    configured = list(schedlab().traces)
    if not configured and os.environ.get("SCHEDLAB_TRACES"):
        configured = [name.strip() for name in os.environ["SCHEDLAB_TRACES"].split(",") if name.strip()]
    return configured


@contextlib.contextmanager
def overridden(**options) -> Iterator[None]:
    """Set ``[schedlab]`` options for the duration of a block, for in-process runs and tests.

    Values are strings, or lists (written as the JSON Luigi reads); the configuration
    as it was is restored afterwards.
    """
    config = luigi.configuration.get_config()
    if not config.has_section("schedlab"):
        config.add_section("schedlab")
    saved = dict(config.items("schedlab"))
    try:
        for key, value in options.items():
            config.set("schedlab", key, value if isinstance(value, str) else json.dumps(value))
        yield
    finally:
        for key in dict(config.items("schedlab")):
            config.remove_option("schedlab", key)
        for key, value in saved.items():
            config.set("schedlab", key, value)
