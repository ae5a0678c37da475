"""Code named by reference: ``path/to/file.py:Name`` or ``package.module:Name``.

A researcher's policy or queue order is plugged in by naming it this way, on the
command line and in pipeline parameters alike.  A file reference is resolved to an
absolute path (so the same file has one name whatever the working directory), and
its directory goes first on ``sys.path`` when it is loaded, as for a script: the file
may import modules that sit beside it.  The module is then importable under its file
name, which is how ``pipeline.base`` finds and versions it and what it imports.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

from schedlab.errors import SchedlabError


@dataclass(frozen=True)
class Reference:
    module: str
    """The importable module name (a file's stem for a file reference)."""
    name: str
    """The attribute the module defines."""
    file: Path | None = None
    """The absolute path of a file reference, else None."""

    def __str__(self) -> str:
        return f"{self.file if self.file else self.module}:{self.name}"

    def load(self, what: str) -> object:
        """Import the module and return the named object; ``what`` names it in errors."""
        if self.file is not None:
            _import_file(self, what)
        try:
            module = importlib.import_module(self.module)
        except Exception as error:  # a plugin's own import error is the user's to read, in one line
            raise SchedlabError(f"{what} {self}: importing {self.module} failed: {type(error).__name__}: {error}")
        try:
            return getattr(module, self.name)
        except AttributeError:
            raise SchedlabError(f"{what} {self}: {self.module} defines no {self.name!r}") from None


def parse_reference(text: str, what: str) -> Reference:
    """Read ``file.py:Name`` or ``package.module:Name``; ``what`` names the reference in errors."""
    location, colon, name = str(text).rpartition(":")
    if not colon or not location or not name.isidentifier():
        raise SchedlabError(f"{what} {text!r}: expected path/to/file.py:Name or package.module:Name")
    if location.endswith(".py"):
        path = Path(location).expanduser().resolve()
        if not path.is_file():
            raise SchedlabError(f"{what} {text!r}: no such file {location}")
        if not path.stem.isidentifier():
            raise SchedlabError(f"{what} {text!r}: {path.name} cannot be imported (rename it to a Python identifier)")
        return Reference(module=path.stem, name=name, file=path)
    if not all(part.isidentifier() for part in location.split(".")):
        raise SchedlabError(f"{what} {text!r}: {location!r} is neither a .py file nor a module name")
    return Reference(module=location, name=name)


def make_importable(reference: Reference) -> None:
    """Put a file reference's directory first on ``sys.path`` (once)."""
    if reference.file is not None and str(reference.file.parent) not in sys.path:
        sys.path.insert(0, str(reference.file.parent))
        importlib.invalidate_caches()


def _import_file(reference: Reference, what: str) -> None:
    make_importable(reference)
    loaded = sys.modules.get(reference.module)
    found = importlib.util.find_spec(reference.module) if loaded is None else None
    origin = getattr(loaded, "__file__", None) if loaded is not None else (found.origin if found else None)
    if origin is None or Path(origin).resolve() != reference.file:
        raise SchedlabError(
            f"{what} {reference}: the module name {reference.module!r} is already taken by "
            f"{origin or 'a built-in module'}; rename the file"
        )
