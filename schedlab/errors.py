"""Errors that are the user's to fix: the command line prints them on one line, without a traceback.

Exit codes: 2 for a :class:`UsageError` (as argparse's own errors), 1 for any other
:class:`SchedlabError` (a bad input file, a run that cannot be done).
"""

from __future__ import annotations


class SchedlabError(Exception):
    """A problem with the user's input or request (bad file, bad parameter)."""


class UsageError(SchedlabError):
    """A bad option or combination of options: the command line exits with code 2, as for argparse's errors."""


class InputError(SchedlabError):
    """Bad content at a known place of an input file, reported as ``path:line: message``."""

    def __init__(self, path, line: int | None, message: str):
        self.path = str(path)
        self.line = line
        self.message = message
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {message}")


def require_regular_file(path, what: str) -> None:
    """Refuse, before opening it, a ``path`` that is missing or not a regular file: a FIFO would block its
    reader until something writes to it, and a device never ends."""
    import os
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError(path, None, "no such file") from None
    except OSError as error:
        raise InputError(path, None, f"cannot read: {error.strerror or error}") from None
    if stat.S_ISDIR(mode):
        raise InputError(path, None, f"is a directory, not {what}")
    if not stat.S_ISREG(mode):
        raise InputError(path, None, f"is not a regular file (a FIFO, device or socket), not {what}: "
                                     "save it to a file and give that")
