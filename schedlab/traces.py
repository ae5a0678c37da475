"""Reading a trace for a command that replays or pairs it: parse, report, size the machine, clean.

``schedlab scale``, ``pair``, ``cosched`` and ``cosy --trace`` all start from the cleaned jobs
of a trace on its machine, as the pipeline's ``CleanTrace`` does, so that the same trace gives
the same jobs (and ``pair`` the same pairs as ``cosched``) everywhere.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pandas as pd

from schedlab.errors import UsageError


@dataclass(frozen=True)
class CleanedTrace:
    trace: object  # schedlab.parsers.swf.Trace, as parsed
    jobs: pd.DataFrame  # after cleaning
    machine_procs: int


def read_cleaned(path, procs: int | None, procs_option: str, *, strict: bool = True) -> CleanedTrace:
    """The trace at ``path`` cleaned for a machine of ``procs`` processors (default: its
    header's); its warnings and the cleaning report go to stderr.  No machine size, or no job
    left after cleaning, is an error (``procs_option`` is the option that gives the size)."""
    from schedlab.parsers.cleaning import clean_or_refuse, refuse_empty
    from schedlab.parsers.swf import read_swf

    trace = read_swf(path, strict=strict, machine_procs=procs)
    refuse_empty(trace.job_count, path)
    for warning in trace.warnings:
        print(f"note: {path}: {warning}", file=sys.stderr)
    size = procs or trace.machine_procs
    if not size:
        raise UsageError(f"{path}: no machine size in the header; give {procs_option}")
    jobs, report = clean_or_refuse(trace.jobs, size, path)
    print(f"{path}: {report.summary()}", file=sys.stderr)
    return CleanedTrace(trace, jobs, size)
