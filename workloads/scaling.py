"""Half-synthetic workloads: a real trace with its arrival gaps scaled to a target load.

As in the coscheduling study (spec 000, after the Argonne Intrepid/Eureka paper), the
trace keeps everything but its pace: every gap between consecutive submissions is
multiplied by one constant ``c``, so the shape of the arrival process (bursts, daily
rhythm stretched or squeezed alike) is kept while the offered load
(:mod:`schedlab.workloads.load`) becomes the target.  Since the work is unchanged and the span
is multiplied by ``c``, ``c = current load / target load`` exactly.  Scaled submit times
are rounded down to whole seconds, which keeps their order.  ``wait_time`` becomes -1:
the logged waits belong to the original pace.

Packing months into one (``window_seconds``)
    Only the jobs submitted in the first ``window_seconds`` of the scaled trace are
    kept, and ``c`` is chosen so that the window's load, the work of the kept jobs over
    ``machine procs x window_seconds``, is as close to the target as the jobs allow (a
    smaller ``c`` brings more jobs into the window).  When even the whole trace
    packed into the window offers less than the target, the request is refused.

Resizing to a smaller machine (``resize_procs``)
    ``"clip"``: jobs larger than the new machine take all of it, smaller ones keep
    their size (the big jobs lose work).  ``"rescale"``: every size is multiplied by
    ``new / old machine size`` and rounded, at least 1 (each job keeps its share of the
    machine).  Runtimes never change.  Allocated and requested counts are resized
    alike; the load is then measured on the new machine.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import pandas as pd

from schedlab.parsers.header import SwfHeader
from schedlab import __version__
from schedlab.errors import SchedlabError
from schedlab.workloads.load import check_target_load, job_work, offered_load, total_work

RESIZE_MODES = ("clip", "rescale")


@dataclass(frozen=True)
class ScaledTrace:
    jobs: pd.DataFrame
    machine_procs: int
    gap_scale: float  # every submission gap was multiplied by this
    offered_load: float  # over the window when one was asked for, else first to last submission


def resize_jobs(jobs: pd.DataFrame, machine_procs: int, resize_procs: int, mode: str) -> pd.DataFrame:
    """``jobs`` with processor counts fitted to ``resize_procs`` (see the module docstring)."""
    if mode not in RESIZE_MODES:
        raise SchedlabError(f"resize mode must be one of {', '.join(RESIZE_MODES)}, got {mode!r}")
    if not 1 <= resize_procs <= machine_procs:
        raise SchedlabError(f"a resized machine must have 1..{machine_procs} processors, got {resize_procs}")
    resized = jobs.copy()
    for column in ("allocated_procs", "requested_procs"):
        sizes = resized[column].to_numpy()
        if mode == "clip":
            new_sizes = np.minimum(sizes, resize_procs)
        else:
            new_sizes = np.maximum(np.round(sizes * (resize_procs / machine_procs)), 1).astype(np.int64)
        resized[column] = np.where(sizes > 0, new_sizes, sizes)
    return resized


def window_gap_scale(offsets: np.ndarray, work: np.ndarray, capacity: float, target: float, window: float) -> float:
    """The gap scale whose window holds the job prefix with load closest to ``target``.

    ``offsets`` are sorted submission offsets from the first job, ``work`` each job's
    processor-seconds, ``capacity`` processors x window.  Jobs submitted at the same
    offset enter the window together, so only prefixes ending before a new offset are
    candidates; the prefix of ``k`` jobs is kept by the scale ``window / offsets[k]``
    (the next job lands on the window's open end), the whole trace by one that puts the
    last job just inside.
    """
    loads = np.cumsum(work) / capacity
    if loads[-1] < target:
        raise SchedlabError(
            f"the whole trace packed into the window offers a load of {loads[-1]:.3f}: "
            f"below the target {target}; use a shorter window or a lower target"
        )
    prefix_ends = np.flatnonzero(np.diff(offsets) > 0)  # last index before each new offset
    candidates = np.append(prefix_ends, offsets.size - 1)
    best = candidates[np.argmin(np.abs(loads[candidates] - target))]
    if best == offsets.size - 1:
        return window / (offsets[-1] + 1.0)  # the last job lands inside the window
    return window / offsets[best + 1]


def scale_trace(
    jobs: pd.DataFrame,
    machine_procs: int,
    target_utilization: float,
    *,
    window_seconds: float | None = None,
    resize_procs: int | None = None,
    resize_mode: str = "clip",
) -> ScaledTrace:
    """Scale the submission gaps of ``jobs`` so that they offer ``target_utilization``.

    See the module docstring for the rules of the window and of resizing.  Jobs keep
    their order, ids and every field but ``submit_time`` and ``wait_time``.
    """
    check_target_load(target_utilization)
    if window_seconds is not None and not window_seconds > 0:
        raise SchedlabError(f"the window must last > 0 seconds, got {window_seconds}")
    if len(jobs) < 2:
        raise SchedlabError("scaling needs at least two jobs")
    if resize_procs is not None:
        jobs = resize_jobs(jobs, machine_procs, resize_procs, resize_mode)
        machine_procs = resize_procs
    jobs = jobs.sort_values("submit_time", kind="stable").reset_index(drop=True)
    offsets = (jobs["submit_time"] - jobs["submit_time"].iloc[0]).to_numpy(dtype=float)
    if window_seconds is None:
        gap_scale = offered_load(jobs, machine_procs) / target_utilization
    else:
        gap_scale = window_gap_scale(
            offsets, job_work(jobs), machine_procs * window_seconds, target_utilization, window_seconds
        )
    scaled = jobs.copy()
    scaled["submit_time"] = jobs["submit_time"].iloc[0] + np.floor(offsets * gap_scale)
    scaled["wait_time"] = -1.0
    if window_seconds is not None:
        scaled = scaled[offsets * gap_scale < window_seconds].reset_index(drop=True)
        load = total_work(scaled) / (machine_procs * window_seconds)
    else:
        load = offered_load(scaled, machine_procs)
    return ScaledTrace(scaled, machine_procs, gap_scale, load)


def scaled_header(original: SwfHeader, scaled: ScaledTrace, target_utilization: float, window_seconds=None) -> SwfHeader:
    """The original trace's header with the job counts, machine size and a note updated.

    Start and end dates are dropped: after scaling they no longer hold.  After resizing,
    MaxProcs is the new size and MaxNodes unknown.
    """
    window = "" if window_seconds is None else f"; kept the first {window_seconds:g} s"
    declared = original.declared_machine_size()
    resized = declared is None or declared[0] != scaled.machine_procs
    return dataclasses.replace(
        original,
        max_jobs=len(scaled.jobs),
        max_records=len(scaled.jobs),
        max_procs=scaled.machine_procs if resized else original.max_procs,
        max_nodes=None if resized else original.max_nodes,
        start_time=None,
        end_time=None,
        notes=[
            *original.notes,
            (
                f"scaled by schedlab {__version__}: arrival gaps x {scaled.gap_scale:.6g} for target load "
                f"{target_utilization:g}{window}; offered load {scaled.offered_load:.4f}; wait times dropped"
            ),
        ],
    )
