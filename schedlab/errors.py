"""Errors that are the user's to fix: the command line prints them without a traceback."""

from __future__ import annotations


class SchedlabError(Exception):
    """A problem with the user's input or request (bad file, bad parameter)."""


class InputError(SchedlabError):
    """Bad content at a known place of an input file, reported as ``path:line: message``."""

    def __init__(self, path, line: int | None, message: str):
        self.path = str(path)
        self.line = line
        self.message = message
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {message}")
