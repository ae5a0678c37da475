"""Write files so that a crash never leaves a partial one behind.

Everything is written to a temporary file in the target's directory and renamed over
the target only once complete: rename is atomic on POSIX file systems, so a reader (or
a Luigi ``complete()`` check) sees either the old file, or none, or the whole new one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(target, suffix: str | None = None):
    """Yield a temporary path next to ``target``; rename it to ``target`` on success."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=suffix or target.suffix + ".tmp"
    )
    os.close(fd)
    tmp = Path(tmp)
    try:
        yield tmp
        # mkstemp makes the file private (0600); give it the mode a plain open() would.
        os.chmod(tmp, 0o666 & ~_current_umask())
        os.replace(tmp, target)
    except BaseException as error:
        tmp.unlink(missing_ok=True)
        if isinstance(error, OSError) and error.filename in (None, str(tmp)):
            error.filename = str(target)  # the file asked for, not the temporary one (a full disk, say)
        raise


@contextlib.contextmanager
def atomic_open(target, mode: str = "w", **kwargs):
    """Open a temporary file for writing; it becomes ``target`` only when the block succeeds."""
    with atomic_path(target) as tmp:
        with open(tmp, mode, **kwargs) as handle:
            yield handle


def write_text(target, text: str) -> None:
    with atomic_open(target, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
