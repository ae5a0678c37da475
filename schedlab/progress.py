"""Progress bars for long command-line runs: on stderr, only when it is a terminal, never with ``--quiet``.

A command wraps its loop, ``for point in progress(points, desc="points", quiet=args.quiet)``;
piped or redirected output, tests and ``-q/--quiet`` get the iterable back unchanged, so
nothing is printed and nothing is imported (tqdm loads only when a bar is shown).  Bars
are for the command line only: simulator and pipeline modules take callbacks instead,
so that their code, which keys cached results, does not depend on how progress is shown.

A *sink* takes the place of the bars where a runner, not a terminal, follows the work: a
Luigi task installs one while it runs (``pipeline.base``) that forwards each update to
the scheduler as a percentage.  While a sink is set, :func:`progress` and
:func:`progress_bar` send it ``(done, total, desc)`` on each update and draw no bar, and
:func:`reporter` gives the ``(done, total)`` callback a simulator takes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TextIO


def shows_progress(quiet: bool = False, stream: TextIO | None = None) -> bool:
    """Whether a bar would be drawn: not ``quiet`` and ``stream`` (default: stderr) is a terminal."""
    if quiet:
        return False
    stream = sys.stderr if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def progress(iterable: Iterable, total: int | None = None, desc: str | None = None, *,
             quiet: bool = False, unit: str = "it") -> Iterable:
    """``iterable`` with a progress bar on stderr when :func:`shows_progress`, else ``iterable`` itself.

    ``total`` defaults to ``len(iterable)`` where it has one.  The bar is removed when the
    loop ends, so what the command prints afterwards reads as without it.
    """
    if _sink is not None:
        return _to_sink(_sink, iterable, total, desc)
    if not shows_progress(quiet):
        return iterable
    return progress_bar(total=total, desc=desc, unit=unit, iterable=iterable)


def progress_bar(total: int | None = None, desc: str | None = None, *, quiet: bool = False,
                 unit: str = "it", iterable: Iterable | None = None, delay: float = 0.0):
    """A tqdm bar to advance by hand (``bar.update(n)``, ``bar.n = done; bar.refresh()``), or,
    when no bar is shown, an object with the same methods that does nothing.  Use it as a
    context manager.  ``delay``: seconds before the bar appears, so a quick run shows none."""
    if _sink is not None:
        return _SinkBar(total, desc)
    if not shows_progress(quiet):
        return _NoBar()
    from tqdm import tqdm

    return tqdm(iterable, total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True,
                delay=delay)


@contextmanager
def callback_bar(total: int, desc: str, *, quiet: bool = False, unit: str = "it",
                 delay: float = 1.0) -> Iterator[Callable[[int, int], None] | None]:
    """A bar for code that reports through a ``(done, total)`` callback (a simulator's
    ``progress=``): yields that callback, or ``None`` when no bar would be shown, so the
    simulator skips its reports.  ``delay`` keeps the bar hidden for quick runs."""
    if _sink is None and not shows_progress(quiet):
        yield None
        return
    with progress_bar(total=total, desc=desc, unit=unit, delay=delay) as bar:
        def advance(done: int, _total: int) -> None:
            bar.update(done - bar.n)  # not refresh(): update() honours the delay

        yield advance


class _NoBar:
    """What :func:`progress_bar` returns when no bar is shown."""

    n = 0
    total = None

    def update(self, n: int = 1) -> None:
        self.n += n

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc) -> None:
        pass


# --- sinks: progress for a runner instead of a terminal ----------------------------------

Sink = Callable[[int, "int | None", "str | None"], None]
"""Called with (done, total or None, desc or None) on each update."""

_sink: Sink | None = None


def set_sink(sink: Sink | None) -> Sink | None:
    """Send progress to ``sink`` instead of drawing bars (``None``: bars again); returns the sink it replaces."""
    global _sink
    previous, _sink = _sink, sink
    return previous


def reporter(desc: str | None = None) -> Callable[[int, int], None] | None:
    """A ``(done, total)`` callback forwarding to the current sink, for code that takes callbacks; ``None`` when
    no sink is set (a simulator then skips its progress reports)."""
    sink = _sink
    if sink is None:
        return None
    return lambda done, total: sink(done, total, desc)


def _to_sink(sink: Sink, iterable: Iterable, total: int | None, desc: str | None) -> Iterator:
    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)
    sink(0, total, desc)
    done = 0
    for item in iterable:
        yield item
        done += 1
        sink(done, total, desc)


class _SinkBar(_NoBar):
    """What :func:`progress_bar` returns while a sink is set: each update goes to the sink."""

    def __init__(self, total: int | None, desc: str | None) -> None:
        self.sink, self.total, self.desc, self.n = _sink, total, desc, 0

    def update(self, n: int = 1) -> None:
        self.n += n
        self.refresh()

    def refresh(self) -> None:
        self.sink(self.n, self.total, self.desc)
