"""Figures comparing policies on one workload: wait-time CDF and machine use over time.

Figures are built with matplotlib's object API (``matplotlib.figure.Figure``), never
pyplot, so building one touches no global state.  ``save_figure`` writes PNG and SVG
that are byte-identical from one run to the next: the file metadata that would carry a
date or a software version is removed, and the SVG element ids are derived from a fixed
salt instead of a random one.  Both sizes stay bounded however long the trace: the CDF is
drawn through a fixed number of quantiles and the time series are averaged over a fixed
number of time bins.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator

from schedlab.atomic import atomic_path

CDF_POINTS = 1001
TIME_BINS = 400
SMOOTHING_BINS = 15
SECONDS_PER_DAY = 86_400.0

_WAIT_TICKS = (
    (0, "0"),
    (1, "1 s"),
    (10, "10 s"),
    (60, "1 min"),
    (600, "10 min"),
    (3_600, "1 h"),
    (36_000, "10 h"),
    (86_400, "1 d"),
    (864_000, "10 d"),
    (8_640_000, "100 d"),
)

_FORMATS = {
    # Agg writes a "Software" text chunk carrying the matplotlib version.
    "png": {"Software": None},
    # The SVG writer adds a dc:date (today) and a creator string with the version.
    "svg": {"Date": None, "Creator": None},
}


def wait_times(schedule: pd.DataFrame) -> np.ndarray:
    """Seconds each job of a replay schedule waited between submission and start."""
    return (schedule["start"] - schedule["submit"]).to_numpy(dtype=np.float64)


def recorded_waits(schedule: pd.DataFrame) -> np.ndarray:
    """The waits the log recorded for a replay's jobs, where it recorded one."""
    return schedule["recorded_wait"].dropna().to_numpy(dtype=np.float64)


def wait_time_cdf_figure(
    waits_by_policy: Mapping[str, np.ndarray], title: str, recorded: np.ndarray | None = None
) -> Figure:
    """Empirical CDF of wait times, one line per policy, on a symmetric-log time axis.

    The axis is linear below one second and logarithmic above, so that the (often
    many) jobs that did not wait at all stay visible at zero.  ``recorded``, the waits
    the log itself recorded, is drawn dashed in black beside the simulated ones.
    """
    figure = Figure(figsize=(7.0, 4.5), layout="constrained")
    axes = figure.add_subplot()
    probabilities = np.linspace(0.0, 1.0, CDF_POINTS)
    non_empty = {policy: waits for policy, waits in waits_by_policy.items() if len(waits)}
    lines = [(policy, waits, {}) for policy, waits in non_empty.items()]
    if recorded is not None and len(recorded):
        lines.append(("recorded in the log", recorded, {"color": "black", "linestyle": "--"}))
    longest = 0.0
    for label, waits, style in lines:
        quantiles = np.quantile(waits, probabilities, method="inverted_cdf")
        axes.plot(quantiles, probabilities, drawstyle="steps-post", label=label, **style)
        longest = max(longest, float(quantiles[-1]))
    upper = max(longest, 1.0)
    ticks = [(value, label) for value, label in _WAIT_TICKS if value <= upper]
    axes.set_xscale("symlog", linthresh=1.0, linscale=0.5)
    axes.xaxis.set_major_locator(FixedLocator([value for value, _ in ticks]))
    axes.set_xticklabels([label for _, label in ticks])
    axes.set_xlim(0, upper)
    axes.set_ylim(0, 1)
    axes.set_xlabel("wait time (symmetric log scale)")
    axes.set_ylabel("fraction of jobs")
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    legend_below(figure, axes)
    return figure


def time_binned_mean(
    times: np.ndarray, values: np.ndarray, edges: np.ndarray
) -> np.ndarray:
    """Time-weighted mean of a step function over each bin ``[edges[i], edges[i+1])``.

    The step function takes ``values[k]`` from ``times[k]`` on (the value after the
    events at that time, as ``ReplayResult.series`` records it) and 0 before the first
    time.  Averaging over bins, instead of plotting every event, keeps a year-long
    trace readable and its SVG small.
    """
    times = np.asarray(times, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    edges = np.asarray(edges, dtype=np.float64)
    if times.size == 0:
        return np.zeros(edges.size - 1)
    area_before = np.concatenate([[0.0], np.cumsum(values[:-1] * np.diff(times))])
    last_event = np.searchsorted(times, edges, side="right") - 1
    after_start = last_event >= 0
    k = np.maximum(last_event, 0)
    area_to_edge = np.where(after_start, area_before[k] + values[k] * (edges - times[k]), 0.0)
    return np.diff(area_to_edge) / np.diff(edges)


def moving_average(values: np.ndarray, width: int) -> np.ndarray:
    """Centred moving average over ``width`` values, over fewer at either end (no padding)."""
    return pd.Series(values).rolling(width, center=True, min_periods=1).mean().to_numpy()


def utilization_figure(
    series_by_policy: Mapping[str, pd.DataFrame], machine_procs: int, title: str
) -> Figure:
    """Busy processors (as a fraction of the machine) and queue length over time, per policy.

    Each ``series`` is a ``ReplayResult.series`` table (time, queue_length, busy_procs);
    both panels show means over ``TIME_BINS`` equal bins spanning all policies' series,
    with time in days since the first event.  Drawn as plain steps, the policies' bin
    means jump from bin to bin and hide one another; so each policy's bin means are drawn
    faint, and over them, in the same colour, their centred moving average over
    ``SMOOTHING_BINS`` bins.  The policies stay on shared axes, where their differences
    are read directly, the smooth lines carry the trend they are compared on, and the
    faint steps keep the short peaks a moving average would flatten.
    """
    non_empty = {policy: series for policy, series in series_by_policy.items() if len(series)}
    origin = min((series["time"].iloc[0] for series in non_empty.values()), default=0.0)
    end = max((series["time"].iloc[-1] for series in non_empty.values()), default=origin)
    edges = np.linspace(origin, max(end, origin + 1.0), TIME_BINS + 1)
    edge_days = (edges - origin) / SECONDS_PER_DAY

    figure = Figure(figsize=(8.0, 5.5), layout="constrained")
    busy_axes, queue_axes = figure.subplots(2, 1, sharex=True)
    centre_days = (edge_days[:-1] + edge_days[1:]) / 2
    for index, (policy, series) in enumerate(non_empty.items()):
        times = series["time"].to_numpy()
        colour = f"C{index}"
        busy = time_binned_mean(times, series["busy_procs"].to_numpy(), edges) / machine_procs
        queue = time_binned_mean(times, series["queue_length"].to_numpy(), edges)
        for axes, values in ((busy_axes, busy), (queue_axes, queue)):
            axes.stairs(values, edge_days, color=colour, alpha=0.25, linewidth=0.7)
            axes.plot(centre_days, moving_average(values, SMOOTHING_BINS), color=colour, linewidth=1.8, label=policy)
    busy_axes.set_ylim(0, 1.05)
    busy_axes.set_ylabel(f"busy fraction of {machine_procs} procs")
    busy_axes.set_title(title)
    legend_below(figure, busy_axes, title="policy")
    queue_axes.set_ylabel("queued jobs")
    queue_axes.set_xlabel(f"days since first event (faint: means over {TIME_BINS} bins; "
                          f"bold: moving average of {SMOOTHING_BINS} bins)")
    queue_axes.set_xlim(edge_days[0], edge_days[-1])
    for axes in (busy_axes, queue_axes):
        axes.grid(True, alpha=0.3)
    return figure


LEGEND_COLUMNS = 4


def legend_below(figure: Figure, *axes, **options) -> None:
    """One legend for the lines of ``axes`` (each label once), under the figure's axes.

    Inside a plot a legend hides data; beside the axes it shares the top edge with a
    figure's title, and covered it (ICS's Fig. 8).  Under the axes, in up to
    ``LEGEND_COLUMNS`` columns, it hides neither and takes none of the width a title needs.
    """
    entries: dict[str, object] = {}
    for each in axes:
        for handle, label in zip(*each.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    if entries:
        figure.legend(list(entries.values()), list(entries), loc="outside lower center",
                      ncols=min(len(entries), LEGEND_COLUMNS), **options)


def save_figure(figure: Figure, directory, stem: str) -> list[Path]:
    """Write ``figure`` as ``stem.png`` and ``stem.svg`` in ``directory``, deterministically."""
    directory = Path(directory)
    written = []
    with matplotlib.rc_context({"svg.hashsalt": stem}):
        for file_format, metadata in _FORMATS.items():
            target = directory / f"{stem}.{file_format}"
            with atomic_path(target) as temporary:
                figure.savefig(temporary, format=file_format, metadata=metadata, dpi=120)
            written.append(target)
    return written
