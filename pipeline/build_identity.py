"""Which build a Luigi task belongs to, so that a central scheduler never mixes two.

Luigi names a task by its family and parameters only, and ``luigid`` hands out each name
once: a worker with other code (hence other keys and output directories) or another work
directory would be told that its tasks were done by someone else, and build nothing.  So
every schedlab task id ends in a *build tag*, ``@<code>.<work dir>``: eight hex digits of
the SHA-256 of schedlab's own sources as this process imports them (byte for byte: a
comment counts here, unlike in the output keys, which is conservative), and eight of the
work directory's real path (links resolved).  Two workers share a task only when both agree.

A worker that joins a central scheduler which is building the same work directory with
other code would only build beside the others (its own keys, its own directories) while
the sweep's owner believes everything is being done once; it refuses instead, in one line
(:func:`refuse_other_code_on_scheduler`).
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import luigi.cmdline_parser
import luigi.interface

import schedlab
from schedlab.errors import SchedlabError

TAG = re.compile(r"@([0-9a-f]{8})\.([0-9a-f]{8})$")
"""A build tag at the end of a task id: code digest, work directory digest."""

SOURCE_SUFFIXES = (".py", ".c")
SCHEDULER_TIMEOUT_SECONDS = 10


def _source_roots() -> dict[str, Path]:
    """Folder name -> folder of schedlab's sources, in a checkout and after an install alike."""
    package = Path(schedlab.__file__).resolve().parent
    roots = {"schedlab": package, "pipeline": Path(__file__).resolve().parent}
    for folder in schedlab.DOMAIN_FOLDERS:
        for base in schedlab.__path__:
            if (Path(base) / folder / "__init__.py").is_file():
                roots[folder] = Path(base).resolve() / folder
                break
    return roots


@functools.cache
def code_digest() -> str:
    """SHA-256 over (path, SHA-256) of every Python and C source of schedlab's packages,
    named as in a checkout, so that a checkout and an install of one commit agree."""
    roots = _source_roots()
    inside_package = {roots[folder] for folder in schedlab.DOMAIN_FOLDERS if folder in roots}
    lines = []
    for name, root in sorted(roots.items()):
        for path in sorted(root.rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
                continue
            if name == "schedlab" and any(path.is_relative_to(other) for other in inside_package):
                continue  # an installed domain folder, counted under its own name
            lines.append(f"{name}/{path.relative_to(root).as_posix()}  {hashlib.sha256(path.read_bytes()).hexdigest()}\n")
    return hashlib.sha256("".join(lines).encode()).hexdigest()


def work_dir_digest(work_dir: Path) -> str:
    """Of the work directory's real path: one directory reached through a link is one build."""
    return hashlib.sha256(os.path.realpath(work_dir).encode()).hexdigest()


CODE_LOCKS = Path(".locks") / "builds"
"""Below the work directory: one lock file per code version building there (``hold_code_lock``)."""

_code_locks: dict[str, object] = {}
"""Work directory -> the open lock file this process holds on it (kept open: the lock lasts the process)."""


def hold_code_lock(work_dir: Path) -> None:
    """Hold, for this process's life, a shared lock on ``<work_dir>/.locks/builds/<code digest>.lock``,
    then refuse, in one line, if another code version holds its own there: two builds of different
    code on one work directory, however close their starts, are seen by at least one of them, since
    each takes its lock before it looks (both may refuse; neither builds beside the other).  Builds
    of the same code share theirs.  Forked workers inherit the lock."""
    directory = os.path.realpath(work_dir)
    if directory in _code_locks:
        return
    locks = Path(directory) / CODE_LOCKS
    code = code_digest()[:16]
    try:
        locks.mkdir(parents=True, exist_ok=True)
        own = open(locks / f"{code}.lock", "a")
    except OSError:
        return  # a work directory this process cannot write to: it builds nothing there either
    fcntl.flock(own, fcntl.LOCK_SH)
    _code_locks[directory] = own
    for other in sorted(locks.glob("*.lock")):
        if other.name == f"{code}.lock":
            continue
        with open(other, "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                fcntl.flock(own, fcntl.LOCK_UN)
                own.close()
                del _code_locks[directory]
                raise SchedlabError(
                    f"{directory} is being built by other code (sources {other.stem}; these are {code}): wait for "
                    "that build, or give this one another work directory") from None
            fcntl.flock(lock, fcntl.LOCK_UN)


def build_tag(work_dir: Path) -> str:
    return f"@{code_digest()[:8]}.{work_dir_digest(work_dir)[:8]}"


def scheduler_url() -> str | None:
    """The central scheduler's address when this process is ``luigi`` on the command line with one;
    None for a local scheduler or a build started from Python (``luigi.build``)."""
    if luigi.cmdline_parser.CmdlineParser.get_instance() is None:
        return None
    core = luigi.interface.core()
    if core.local_scheduler:
        return None
    return core.scheduler_url or f"http://{core.scheduler_host}:{core.scheduler_port:d}/"


def scheduled_task_ids(url: str) -> list[str] | None:
    """Ids of the tasks the scheduler at ``url`` holds pending or running; None if it does not answer
    (Luigi then reports the unreachable scheduler itself)."""
    found: list[str] = []
    for status in ("PENDING", "RUNNING"):
        query = urllib.parse.urlencode({"data": json.dumps({"status": status, "upstream_status": ""})})
        try:
            with urllib.request.urlopen(urllib.parse.urljoin(url, f"api/task_list?{query}"),
                                        timeout=SCHEDULER_TIMEOUT_SECONDS) as answer:
                tasks = json.load(answer)["response"]
        except (OSError, ValueError, KeyError):
            return None
        found += [task_id for task_id in tasks if task_id != "num_tasks"]
    return found


def refuse_other_code_on_scheduler(work_dir: Path) -> None:
    """Raise, in one line, when this ``luigi`` worker joins a central scheduler that holds pending or
    running tasks for the same work directory built by other code."""
    url = scheduler_url()
    if url is None:
        return
    code, directory = code_digest()[:8], work_dir_digest(work_dir)[:8]
    others = sorted({match[1] for task_id in scheduled_task_ids(url) or []
                     if (match := TAG.search(task_id)) and match[2] == directory and match[1] != code})
    if others:
        raise SchedlabError(
            f"luigid at {url} is building {os.path.abspath(work_dir)} with other code (sources {', '.join(others)}; "
            f"these are {code}): start this worker from the same schedlab commit, or give it another work directory"
        )
