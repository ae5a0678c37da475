"""The batch replay's compiled event loop (``_event_loop.c``), called from Python.

The C loop runs FCFS, EASY and conservative backfilling under the fcfs, wfp and sjf
queue orders with either convention profile; it mirrors the interpreted engine
(``schedlab.simulators.core.engine`` with the policies of this package), which stays the
readable reference that the tests compare it with job for job.  It is built when the
package is installed (``setup.py``); where no C compiler was available, ``available()``
is False and replays run on the reference engine.
"""

from __future__ import annotations

import hashlib
import threading
import warnings
from pathlib import Path

import numpy as np

from schedlab.simulators.core.engine import EventOrder

try:
    from schedlab.simulators.batch import _event_loop
except ImportError:  # built without a C compiler
    _event_loop = None

SOURCE = Path(__file__).with_name("_event_loop.c")
if _event_loop is not None and SOURCE.is_file():
    if hashlib.sha256(SOURCE.read_bytes()).hexdigest() != _event_loop.source_sha256:
        warnings.warn(f"{SOURCE} changed since it was built: replays use the reference engine until "
                      "'pip install -e .' rebuilds it", stacklevel=1)
        _event_loop = None

POLICY_CODES = {"fcfs": 0, "easy": 1, "conservative": 2}
ORDER_CODES = {"fcfs": 0, "wfp": 1, "sjf": 2}
KEY_ORDER = 3  # a priority per job (``priority.py``), lowest first
DONE = 0
FAILURES = {
    1: "a booking exceeds the machine's capacity",
    2: "a release gives back processors that were never booked",
    3: "conservative compression moved a reservation later",
}
SERIES_DTYPE = np.dtype([("time", "<f8"), ("queue_length", "<i8"), ("busy_procs", "<i8")])


def available() -> bool:
    return _event_loop is not None


def loaded_source_sha256() -> str | None:
    """The SHA-256 of the ``_event_loop.c`` the loaded extension was built from (None: none loaded)."""
    return _event_loop.source_sha256 if _event_loop is not None else None


def extension_path() -> Path:
    """The file of the loaded extension (``available()`` must be True)."""
    return Path(_event_loop.__file__)


def run(batch, capacity: int, policy: str, order: str, event_order: EventOrder, progress=None, sessions=None,
        keys=None):
    """Simulate ``batch``; return ``(status, job index, start, promised, series, submit)``.

    ``status`` is ``DONE`` or a key of ``FAILURES`` (a simulator bug), ``series`` a
    record array of (time, queue_length, busy_procs) after each event time, ``submit``
    the arrivals the run used: the batch's, or with ``sessions`` (a
    ``feedback.SessionTables``) the closed loop's.  With ``keys`` (one float per job), the queue
    is ordered by them, lowest first, ties in arrival order, and ``order`` is not read.
    ``progress(jobs ended, jobs)``, if given, is called a few times a second: the loop
    then runs in a thread (it releases the GIL) while this one reports.
    """
    start = np.empty(len(batch), dtype=np.float64)
    promised = np.empty(len(batch), dtype=np.float64)
    finished = np.zeros(1, dtype=np.int64)
    submit = np.array(batch.submit, dtype=np.float64)  # a copy: the closed loop writes its arrivals into it
    arguments = (
        submit,
        np.ascontiguousarray(batch.estimate, dtype=np.float64),
        np.ascontiguousarray(batch.actual, dtype=np.float64),
        np.ascontiguousarray(batch.procs, dtype=np.int64),
        start, promised, finished, int(capacity), POLICY_CODES[policy],
        ORDER_CODES[order] if keys is None else KEY_ORDER,
        event_order.same_time == "submissions_first", event_order.passes == "per_event",
        None if sessions is None else sessions.for_compiled_loop(),
        None if keys is None else np.ascontiguousarray(keys, dtype=np.float64),
    )
    if progress is None:
        status, job, series = _event_loop.run(*arguments)
    else:
        status, job, series = _reporting(arguments, finished, len(batch), progress)
    return status, job, start, promised, np.frombuffer(series, dtype=SERIES_DTYPE), submit


def _reporting(arguments, finished, jobs: int, progress, interval: float = 0.2):
    outcome = []
    worker = threading.Thread(target=lambda: outcome.append(_call(_event_loop.run, arguments)), daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(interval)
        progress(int(finished[0]), jobs)
    kind, value = outcome[0]
    if kind == "error":
        raise value
    return value


def _call(function, arguments):
    try:
        return "result", function(*arguments)
    except BaseException as error:  # handed to the calling thread
        return "error", error
