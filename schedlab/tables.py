"""How the one-point commands print their metrics: counts as integers, other numbers to 4 decimals.

Simulators return counts as floats (``jobs: 100.0``) because their metric dicts go into
float tables; on a terminal ``jobs 100.0000`` reads as a measurement, so a whole number
prints as an integer with thousands separators, whatever its type.
"""

from __future__ import annotations

import math
from numbers import Integral, Real


def format_number(value) -> str:
    """``1,234`` for whole numbers (int or float), ``0.6874`` for other reals, ``str`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, Real):
        return str(value)
    if isinstance(value, Integral):
        return f"{value:,}"
    if math.isfinite(value) and float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.4f}"


def metric_lines(metrics: dict) -> str:
    """One indented ``name  value`` line per metric, names padded to one width."""
    width = max((len(name) for name in metrics), default=0)
    return "\n".join(f"  {name:<{width}}  {format_number(value)}" for name, value in metrics.items())


def metric_table(columns: dict[str, dict]) -> str:
    """Metrics side by side: one row per metric name (in first-seen order), one right-aligned
    column per entry of ``columns`` (e.g. machine A and machine B), blank where a column lacks it."""
    names = list(dict.fromkeys(name for metrics in columns.values() for name in metrics))
    cells = {label: [format_number(metrics[n]) if n in metrics else "" for n in names]
             for label, metrics in columns.items()}
    name_width = max((len(name) for name in names), default=0)
    widths = {label: max([len(label), *map(len, column)]) for label, column in cells.items()}
    lines = ["  " + " " * name_width + "".join(f"  {label:>{widths[label]}}" for label in cells)]
    lines += [
        f"  {name:<{name_width}}" + "".join(f"  {cells[label][row]:>{widths[label]}}" for label in cells)
        for row, name in enumerate(names)
    ]
    return "\n".join(lines)
