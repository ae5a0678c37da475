"""Progress bars for long command-line runs: on stderr, only when it is a terminal, never with ``--quiet``.

A command wraps its loop, ``for point in progress(points, desc="points", quiet=args.quiet)``;
piped or redirected output, tests and ``-q/--quiet`` get the iterable back unchanged, so
nothing is printed and nothing is imported (tqdm loads only when a bar is shown).  Bars
are for the command line only: simulator and pipeline modules take callbacks instead,
so that their code, which keys cached results, does not depend on how progress is shown.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
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
    if not shows_progress(quiet):
        return iterable
    return progress_bar(total=total, desc=desc, unit=unit, iterable=iterable)


def progress_bar(total: int | None = None, desc: str | None = None, *, quiet: bool = False,
                 unit: str = "it", iterable: Iterable | None = None):
    """A tqdm bar to advance by hand (``bar.update(n)``, ``bar.n = done; bar.refresh()``), or,
    when no bar is shown, an object with the same methods that does nothing.  Use it as a
    context manager."""
    if not shows_progress(quiet):
        return _NoBar()
    from tqdm import tqdm

    return tqdm(iterable, total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True)


class _NoBar:
    """What :func:`progress_bar` returns when no bar is shown."""

    n = 0
    total = None

    def update(self, n: int = 1) -> None:
        self.n += n

    def refresh(self) -> None:
        pass

    def set_postfix_str(self, text: str = "", refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc) -> None:
        pass
