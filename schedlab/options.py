"""Argument types of the ``schedlab`` commands that refuse values out of their physical range.

argparse's ``int`` and ``float`` accept ``0`` processors, ``-1`` Mb/s and ``nan`` seconds; these
types name the allowed range instead, so that ``schedlab replay T --procs 0`` stops at the
command line with ``argument --procs: must be a whole number >= 1, got '0'`` (exit code 2)
rather than deep inside a simulator.  Each type is a callable for ``add_argument(type=...)``;
its ``range`` attribute is the text the error (and help texts, where useful) quote.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


class _Checked:
    """A number parsed by ``parse`` and checked against [low, high] (either end open or absent)."""

    def __init__(self, parse, kind: str, low=None, high=None, *, low_open: bool = False, high_open: bool = False):
        self.parse, self.kind = parse, kind
        self.low, self.high, self.low_open, self.high_open = low, high, low_open, high_open
        self.range = _describe(low, high, low_open, high_open)
        self.__name__ = kind  # argparse names the type in its own messages

    def __call__(self, text: str):
        try:
            value = self.parse(text)
        except (TypeError, ValueError, OverflowError):
            raise argparse.ArgumentTypeError(self._problem(text)) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise argparse.ArgumentTypeError(self._problem(text))
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            raise argparse.ArgumentTypeError(self._problem(text))
        if self.high is not None and (value > self.high or (self.high_open and value == self.high)):
            raise argparse.ArgumentTypeError(self._problem(text))
        return value

    def _problem(self, text: str) -> str:
        return f"must be {self.kind} {self.range}, got {text!r}".replace("  ", " ").rstrip()


def _describe(low, high, low_open: bool, high_open: bool) -> str:
    if low is not None and high is not None:
        return f"in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
    if low is not None:
        return f"{'>' if low_open else '>='} {low:g}"
    if high is not None:
        return f"{'<' if high_open else '<='} {high:g}"
    return ""


def _whole_number(text: str) -> int:
    return int(text)


def whole_number(low: int | None = None, high: int | None = None) -> _Checked:
    """An ``int`` in [low, high]."""
    return _Checked(_whole_number, "a whole number", low, high)


def number(low: float | None = None, high: float | None = None, *, low_open: bool = False,
           high_open: bool = False) -> _Checked:
    """A finite ``float`` in the range; ``low_open``/``high_open`` exclude that end."""
    return _Checked(float, "a finite number", low, high, low_open=low_open, high_open=high_open)


#: Machine and job sizes: at least one processor or node.
COUNT = whole_number(1)
#: A synthetic workload's machine: two processors at least (``schedlab.workloads.jobs`` refuses fewer).
SYNTHETIC_MACHINE_PROCS = whole_number(2)
#: Jobs of a workload to draw: two at least, as its offered load divides by the span of its submit times.
WORKLOAD_JOBS = whole_number(2)
#: Random seeds: numpy's generators take whole numbers >= 0.
SEED = whole_number(0)
#: Durations and gaps in seconds (or hours) that may be zero.
DURATION = number(0)
#: Durations that must be positive (a window, a period).
POSITIVE_DURATION = number(0, low_open=True)
#: Shares and probabilities.
SHARE = number(0, 1)
#: Target offered loads: above 0 (above 1 is allowed: an overloaded machine).
LOAD = number(0, low_open=True)
#: Target utilizations a simulator must reach: above 0, at most all of the machine.
UTILIZATION = number(0, 1, low_open=True)


def counts(text: str) -> tuple[int, ...]:
    """Comma-separated whole numbers >= 1 (machine sizes, job sizes), e.g. ``8,16,32``."""
    try:
        values = tuple(COUNT(part.strip()) for part in text.split(","))
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"must be whole numbers >= 1 separated by commas, got {text!r}") from None
    return values


counts.range = "whole numbers >= 1, comma-separated"


def one_of(choices) -> Callable[[str], str]:
    """A name among ``choices`` (for a list parameter's items, which argparse's ``choices`` cannot check)."""
    allowed = tuple(choices)

    def check(text: str) -> str:
        if text not in allowed:
            raise argparse.ArgumentTypeError(f"must be one of {', '.join(allowed)}, got {text!r}")
        return text

    check.range = "one of " + ", ".join(allowed)
    return check
