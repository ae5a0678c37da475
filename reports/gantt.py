"""A Gantt chart of a replay window: which processors each job held, and when.

A replay books processor counts, not ids; the ids drawn are those of
``schedlab.reports.exports.assign_processors`` (lowest free first), so the chart shows one valid
placement of the schedule, the same one the Batsim export writes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from schedlab.reports.exports import assign_processors

HOUR = 3_600.0


def gantt_figure(schedule: pd.DataFrame, machine_procs: int, start: float, end: float, title: str) -> Figure:
    """Jobs running in ``[start, end)`` as rectangles (time x processor ids), hours from ``start``."""
    assigned = assign_processors(schedule, machine_procs)
    starts = schedule["start"].to_numpy(dtype=np.float64)
    ends = schedule["end"].to_numpy(dtype=np.float64)
    shown = np.flatnonzero((starts < end) & (ends > start))
    figure = Figure(figsize=(10, 5), layout="constrained")
    axes = figure.add_subplot()
    colours = [f"C{i}" for i in range(10)]  # neighbours in start order get different colours
    for rank, row in enumerate(shown.tolist()):
        left = (max(starts[row], start) - start) / HOUR
        width = (min(ends[row], end) - max(starts[row], start)) / HOUR
        for first, last in assigned[row]:
            axes.broken_barh(
                [(left, width)], (first, last - first + 1),
                facecolors=colours[rank % len(colours)], edgecolors="black", linewidths=0.3,
            )  # fmt: skip
    axes.set_xlim(0, (end - start) / HOUR)
    axes.set_ylim(0, machine_procs)
    axes.set_xlabel(f"hours from t = {start:,.0f} s")
    axes.set_ylabel("processor id")
    axes.set_title(f"{title}: {len(shown):,} jobs running in the window")
    return figure
