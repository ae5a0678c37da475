"""``SchedlabTask``: the base of every pipeline task, and how its output path is keyed.

Why keyed paths: a result is reused only if everything that produced it is unchanged,
and a change reruns only what depends on it.  Each task writes one directory::

    <work_dir>/<TaskFamily>/<label>-<key>/

where ``key`` hashes

- the task family and its significant parameters,
- the code version of the module that defines the task class, of the modules the task
  declares in ``code_modules``, and of every module those import that is not in the
  standard library or an installed third-party package (ours, or a researcher's plugin
  and its helpers), found by reading their ``import`` statements.  A module's version
  hashes its code after normalisation (:func:`normalized_code`): comments, docstrings
  and formatting change no key, any change to what the code does changes it.  Imports
  are followed module by module: ``from a.b import c`` depends on ``a.b.c`` when that
  is a module, not on the package ``a.b``, whose ``__init__.py`` counts only when a
  name is taken from the package itself.  Declaring ``schedlab.simulators.batch.replay`` thus
  covers ``schedlab.simulators.core`` too, not every policy; only modules loaded dynamically
  (``importlib.import_module``, a policy named by reference) have to be listed.  The
  task's own module is taken alone, not with its imports, so that a module holding
  several tasks does not tie each to the others' dependencies,
- ``input_fingerprint()``: what the task reads from outside the pipeline (a trace
  file's checksum, say), if its parameters do not already name it,
- the keys of every required task.

Because a key contains the keys of its requirements, a change anywhere upstream (a
parameter, a source file, an input file) changes the key, hence the path, of every task
downstream of it, and of nothing else; Luigi then finds those outputs missing and
reruns exactly them.  Old outputs stay on disk until the work directory is cleared.

Writing a task::

    class SimulateThing(SchedlabTask):
        trace = luigi.Parameter()
        load = luigi.FloatParameter(default=0.8)
        code_modules = ("schedlab.simulators.thing",)

        def requires(self):
            return CleanTrace(trace=self.trace)

        def run(self):
            jobs = read_jobs(self.requires().output_file("jobs.parquet"))
            ...
            with self.writing_output() as directory:
                schedule.to_parquet(directory / "schedule.parquet", index=False)
                write_json(directory / "summary.json", metrics)

``output()`` (the directory), ``output_dir()`` and ``output_file(name)`` come for free.
``writing_output()`` hands out an empty staging directory next to the final one and
renames it into place only when the block succeeds, so a killed run never leaves a
directory that looks complete; it also adds ``task.json``, which records the task's
parameters, code versions and requirement keys, the Python and library versions that
ran it (``schedlab.versions``; recorded, not keyed), and the size and SHA-256 of every file
written (``schedlab.output_digests``).  Every requirement must itself be a
``SchedlabTask``.

Outputs prove their bytes: a task is complete when its sealed ``task.json`` names its
directory and every file it records is there with its recorded size and SHA-256 (else it runs
again, and its new output replaces the damaged one, a page no task reads included), and
``output_file(name)`` checks the SHA-256 again as the file is read, so a file changed in place
meanwhile is refused with its path before any task reads it.

Luigi's task id (family and parameters) gets a build tag (:mod:`pipeline.build_identity`),
so that a central scheduler never hands one task to builds of two code versions or two work
directories; Luigi's own id stays in ``parameter_id``.

Progress: every task's ``run`` reports to the Luigi scheduler without writing a line for
it.  It starts at 0 % with the status "running", says "writing outputs" when
``writing_output()`` opens, and ends at 100 %; in between, whatever the run passes
through ``schedlab.progress`` (``progress(...)``, ``progress_bar(...)``, ``reporter(...)``)
is forwarded as a percentage (and, when it names itself, a status message), at most
about once a second.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import contextvars
import dataclasses
import fcntl
import functools
import hashlib
import importlib.machinery
import importlib.util
import inspect
import json
import logging
import os
import re
import shutil
import site
import socket
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import luigi

from pipeline import compile_ahead, settings
from pipeline.build_identity import build_tag, hold_code_lock, refuse_other_code_on_scheduler
from schedlab import progress
from schedlab.errors import SchedlabError
from schedlab.output_digests import RECORD_FILE, check_file, read_record, record, recorded_outputs, seal, whole
from schedlab.versions import dependency_versions

logger = logging.getLogger("luigi-interface")

KEY_LENGTH = 16
"""Hex digits of the key in a path: 64 bits, ample for the tasks of one work directory."""

LABEL_LENGTH = 80
"""Characters of the readable label kept in a directory name."""

PROJECT_ROOT = Path(__file__).resolve().parents[1]
"""The project's own directory (bundles record paths relative to it)."""

INSTALLED_CODE_ROOTS = tuple(
    sorted(
        {Path(sysconfig.get_paths()[key]).resolve() for key in ("stdlib", "platstdlib", "purelib", "platlib")}
        | {Path(site.getusersitepackages()).resolve()}
    )
)
"""Where the standard library and installed packages live: code there is not versioned
(a package upgrade is an environment change, which bundles record separately)."""

OWN_PACKAGES = frozenset({"schedlab", "pipeline"})
"""schedlab's top-level packages (``setup.py``): always versioned, even when installed."""


@functools.cache
def _warm_up_once(family: type[SchedlabTask]) -> None:
    dependency_versions()  # every task.json records them: found once here, not once per forked worker (40 ms)
    compile_ahead.wait_for(family)
    family.warm_up()


@functools.cache
def _families_reached(family: type[SchedlabTask]) -> tuple[type[SchedlabTask], ...]:
    """The task families with a warm-up of their own whose module ``family``'s code can reach
    (its module, ``code_modules`` and what they import): those a build of it may run."""
    reached = set(_family_modules(family))
    return tuple(task for task in _all_subclasses(SchedlabTask)
                 if "warm_up" in vars(task) and task.__module__ in reached)


@functools.cache
def _family_modules(family: type[SchedlabTask]) -> list[str]:
    """The family's module, its ``code_modules`` where the class fixes them (a property that depends on the
    task's parameters, a policy plugin's, say, is left out) and what they import."""
    declared = family.code_modules if isinstance(family.code_modules, (tuple, list)) else ()
    return code_closure((family.__module__, *declared))


def _all_subclasses(cls: type) -> list[type]:
    found = []
    for subclass in cls.__subclasses__():
        found += [subclass, *_all_subclasses(subclass)]
    return found


def _on_luigi_command_line() -> bool:
    """Whether this runs under the ``luigi`` command (``luigi.retcodes.run_with_retcodes``), not
    ``luigi.build`` called from Python, which gets the exception as Luigi reports it."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "run_with_retcodes" and frame.f_globals.get("__name__") == "luigi.retcodes":
            return True
        frame = frame.f_back
    return False


def module_source(module_name: str) -> Path:
    """The source file of a module (a package's ``__init__.py``), found without importing it."""
    spec = importlib.util.find_spec(module_name)
    if spec is None or not spec.has_location or not spec.origin:
        raise SchedlabError(f"code module {module_name!r} has no source file to version")
    return Path(spec.origin)


def normalized_code(source: str | bytes, filename: str = "<code>") -> str:
    """The code of a module with comments, docstrings and formatting taken out.

    The module is parsed and printed back (``ast.unparse``), which drops comments and
    layout; a statement that is only a string literal does nothing, so every such
    statement (docstrings, attribute docstrings) is dropped too.  What is left changes
    exactly when what the code does changes.
    """
    tree = ast.parse(source, filename=filename)
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            statements = getattr(node, field, None)
            if isinstance(statements, list) and statements:
                kept = [s for s in statements if not _is_string_statement(s)]
                if len(kept) != len(statements):
                    setattr(node, field, kept or [ast.Pass()])
    return ast.unparse(tree)


def _is_string_statement(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


DATA_FILES = "CODE_DATA_FILES"
"""A module-level tuple of this name lists data files the module reads as part of its code (glob
patterns relative to the module's directory, e.g. ``("models/*.json",)``): their names and bytes
count in the module's version as its code does, so editing a shipped model file reruns what
depends on it."""


@functools.cache
def module_code_version(module_name: str) -> str:
    """SHA-256 of one module's normalised code and of the data files it declares (``DATA_FILES``),
    cached for the life of the process.

    A compiled extension is versioned by its C source, byte for byte."""
    path = _source_file(module_name) or module_source(module_name)
    if path.suffix == ".c":
        return hashlib.sha256(path.read_bytes()).hexdigest()
    source = path.read_bytes()
    digest = hashlib.sha256(normalized_code(source, str(path)).encode())
    for pattern in _declared_data_files(source, str(path)):
        files = sorted(path.parent.glob(pattern))
        if not files:
            raise SchedlabError(f"{path}: {DATA_FILES} names {pattern!r}, which matches no file")
        for data_file in files:
            digest.update(f"\0{data_file.relative_to(path.parent).as_posix()}\0".encode())
            digest.update(hashlib.sha256(data_file.read_bytes()).digest())
    return digest.hexdigest()


def _declared_data_files(source: bytes, filename: str) -> tuple[str, ...]:
    """The patterns of a module's ``DATA_FILES`` assignment (a tuple of string literals), if any."""
    for statement in ast.parse(source, filename=filename).body:
        if (isinstance(statement, (ast.Assign, ast.AnnAssign))
                and any(isinstance(target, ast.Name) and target.id == DATA_FILES
                        for target in (statement.targets if isinstance(statement, ast.Assign) else [statement.target]))):
            return tuple(ast.literal_eval(statement.value))
    return ()


def _source_file(name: str) -> Path | None:
    """A module's Python source, or the C source beside a compiled extension of ours."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):  # "x.f" where x is a module and f a function, say
        return None
    package, _, leaf = name.rpartition(".")
    if spec is None:
        # An extension not built here has the same key as where it is: its C source counts.
        parent = _source_file(package) if package else None
        c_source = parent.with_name(f"{leaf}.c") if parent and parent.name == "__init__.py" else None
        return c_source if c_source and c_source.is_file() else None
    if not spec.has_location or not spec.origin:
        return None
    origin = Path(spec.origin).resolve()
    if origin.suffix == ".py":
        return origin
    c_source = origin.with_name(f"{leaf}.c")
    if any(spec.origin.endswith(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES) and c_source.is_file():
        return c_source
    return None


def _is_versioned_module(name: str) -> bool:
    """One of ours, or a module with Python source outside the standard library and installed packages."""
    path = _source_file(name)
    return path is not None and (
        name.partition(".")[0] in OWN_PACKAGES or not any(path.is_relative_to(root) for root in INSTALLED_CODE_ROOTS)
    )


@functools.cache
def project_imports(module_name: str) -> frozenset[str]:
    """Versioned modules that ``module_name`` imports, anywhere in its source (read, not run).

    ``import a.b`` counts ``a.b``; ``from a import x`` counts ``a.x`` when that is a
    module, else ``a`` (``x`` is then a name defined by the package).  Parent packages
    are not counted for their submodules: they run on import, but what a module uses
    is the submodule, and following the parents would tie every module of a package
    to whatever its ``__init__.py`` gathers.
    """
    source = _source_file(module_name)
    if source is not None and source.suffix == ".c":
        return frozenset()  # a compiled extension: its C source imports no Python
    path = module_source(module_name)
    package = module_name if path.name == "__init__.py" else module_name.rpartition(".")[0]
    candidates: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            candidates.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                candidates.add(submodule if _source_file(submodule) is not None else base)
    return frozenset(name for name in candidates if _is_versioned_module(name))


def code_closure(module_names) -> list[str]:
    """``module_names`` and every project module they import, directly or not, sorted."""
    seen: set[str] = set()
    pending = list(module_names)
    while pending:
        name = pending.pop()
        if name not in seen:
            seen.add(name)
            pending.extend(project_imports(name))
    return sorted(seen)


def seed_series(points) -> dict:
    """Points (frozen dataclasses with a ``seed``) grouped by all but their seed: each group's point with
    seed 0 -> its seeds, ascending.  A run task per group runs one setting on every seed it is asked for."""
    series: dict = {}
    for point in points:
        series.setdefault(dataclasses.replace(point, seed=0), set()).add(point.seed)
    return {common: sorted(seeds) for common, seeds in series.items()}


def write_json(path, data) -> None:
    """Write ``data`` as sorted, indented JSON, so equal data give equal bytes."""
    Path(path).write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def read_json(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


class SchedulerProgress:
    """A ``schedlab.progress`` sink that forwards to a running task's scheduler entry: the
    percentage done and, when the update names itself, "<desc>: <done> of <total>".

    Updates are dropped unless a second has passed since the last one sent and the
    percentage moved (or the total is unknown); the first and the one reaching 100 % always
    go.  A loop may report every item, and with a central scheduler each message is a request."""

    interval = 1.0

    def __init__(self, task: luigi.Task) -> None:
        self.task, self.sent, self.percent = task, float("-inf"), None

    def __call__(self, done: int, total: int | None, desc: str | None) -> None:
        percent = min(100, max(0, int(100 * done / total))) if total else None
        now = time.monotonic()
        first, due = self.sent == float("-inf"), now - self.sent >= self.interval
        finished = percent == 100 and self.percent != 100
        if not (first or finished or (due and (percent is None or percent != self.percent))):
            return
        self.sent, self.percent = now, percent
        if percent is not None:
            _tell_scheduler(self.task, "set_progress_percentage", percent)
        if desc:
            _tell_scheduler(self.task, "set_status_message", f"{desc}: {done:,}" + (f" of {total:,}" if total else ""))


def _tell_scheduler(task: luigi.Task, method: str, value) -> None:
    """Call ``task.<method>(value)``: Luigi's worker sets these methods only while it runs the
    task (they are None on a task run by hand, in a test say)."""
    forward = getattr(task, method, None)
    if forward is not None:
        forward(value)


_remembered_keys: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar("remembered_keys",
                                                                                         default=None)


@contextlib.contextmanager
def keys_remembered() -> Iterator[None]:
    """Within the block, each task's key (task id -> key) is found once and remembered: one ``complete()`` or
    one ``run()`` asks for the keys of many tasks that share requirements, and nothing a key hashes (code,
    parameters, inputs) changes while it lasts.  Outside, every ``task_key()`` is found afresh, so an input
    edited between two builds in one process is seen."""
    if _remembered_keys.get() is not None:
        yield
        return
    token = _remembered_keys.set({})
    try:
        yield
    finally:
        _remembered_keys.reset(token)


def _reporting_progress(run):
    """``run`` wrapped in ``SchedlabTask.reporting_progress`` (a generator ``run``, which yields
    dynamic requirements, is left as it is)."""
    if getattr(run, "reports_progress", False) or inspect.isgeneratorfunction(run):
        return run

    @functools.wraps(run)
    def reporting(self, *args, **kwargs):
        with self.reporting_progress():
            return run(self, *args, **kwargs)

    reporting.reports_progress = True
    return reporting


def _one_writer_at_a_time(run):
    """``run`` under ``SchedlabTask.exclusive_output``, skipped when another process completed the
    output meanwhile (a generator ``run``, which yields dynamic requirements, is left as it is)."""
    if inspect.isgeneratorfunction(run):
        return run

    @functools.wraps(run)
    def exclusive(self, *args, **kwargs):
        with keys_remembered(), self.exclusive_output() as done_elsewhere:
            if not done_elsewhere:
                return run(self, *args, **kwargs)
        return None

    return exclusive


_join_scheduler_once = functools.cache(refuse_other_code_on_scheduler)
"""The first task a process makes checks that its central scheduler, if any, builds with the same code."""


def _check_parameter(task, name: str, check, value) -> None:
    try:
        check(str(value))
    except argparse.ArgumentTypeError as error:
        raise SchedlabError(f"{task.task_family} parameter {name}: {error}") from None


LOCKS_DIRECTORY = ".locks"
"""Below the work directory: one lock file per task output (``SchedlabTask.exclusive_output``)."""

STAGING_MARK = "@"
"""Sets the writer's host and process id apart in a staging directory's name (labels have no ``@``)."""

_STAGING_NAME = re.compile(r"^\..+\.@(?P<host>[^@/]+)@(?P<pid>[0-9]+)\.[A-Za-z0-9_]+\.tmp$")


def dead_writer(staging: Path) -> bool:
    """Whether ``staging`` is a staging directory whose writer has ended.

    A writer holds its output's lock (``SchedlabTask.exclusive_output``) for the whole write, so a
    staging directory whose output's lock is free has no live writer, on whichever host shares the
    work directory: a host's name and a process id prove nothing where two hosts share a name.  Only
    where the lock file is gone is the writer judged by its name, a process of this host."""
    named = _STAGING_NAME.match(staging.name)
    if named is None:
        return False  # of an older naming: ``schedlab gc`` removes it once it is old
    output_name = staging.name[1:staging.name.index(f".{STAGING_MARK}")]
    lock_path = staging.parent.parent / LOCKS_DIRECTORY / staging.parent.name / f"{output_name}.lock"
    try:
        with open(lock_path, "r") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False  # held: its writer is at work
            fcntl.flock(lock, fcntl.LOCK_UN)
            return True
    except FileNotFoundError:
        pass
    if named["host"] != socket.gethostname():
        return False
    try:
        os.kill(int(named["pid"]), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's
        return False
    return False


@functools.cache
def remove_dead_stagings(family_dir: Path) -> None:
    """Remove the staging directories of ``family_dir`` left by killed writers; once per process
    and directory (a build writes many outputs to one directory; a killed writer is gone for good,
    and this process's own writers are alive)."""
    for entry in family_dir.glob(".*.tmp"):
        if entry.is_dir() and not entry.is_symlink() and dead_writer(entry):
            shutil.rmtree(entry, ignore_errors=True)


def _set_aside(final: Path) -> None:
    """Remove a damaged output directory, renamed first so that no reader sees it half removed."""
    doomed = final.with_name(f".{final.name}{STAGING_MARK}damaged{STAGING_MARK}{os.getpid()}.tmp")
    try:
        os.rename(final, doomed)
    except FileNotFoundError:  # another worker set it aside first
        return
    logger.warning("%s: damaged cached output replaced by a fresh run", final)
    if doomed.is_symlink():  # a link where the output belongs: the link goes, never what it points to
        doomed.unlink()
    else:
        shutil.rmtree(doomed, ignore_errors=True)


class SchedlabTask(luigi.Task):
    """A task whose output is one directory under the work directory, keyed as described above."""

    code_modules: tuple[str, ...] = ()
    """Modules whose code decides this task's output; what they import and the task's module are added."""

    parameter_ranges: dict = {}
    """Parameter name -> a :mod:`schedlab.options` type: a value (or a list's item) outside its range
    is refused when the task is created, naming the parameter and the range (``n_jobs=0``
    would otherwise fail deep inside a run, or not at all)."""

    nonempty_parameters: tuple[str, ...] = ()
    """List parameters that must name at least one item (``--policies '[]'`` is refused)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.nonempty_parameters:
            if not getattr(self, name):
                raise SchedlabError(f"{self.task_family} parameter {name}: must name at least one, got []")
        for name, check in self.parameter_ranges.items():
            value = getattr(self, name)
            for item in value if isinstance(value, (list, tuple)) else [value]:
                if item is not None:
                    _check_parameter(self, name, check, item)
        self.parameter_id = self.task_id
        """Luigi's own id of the task: its family and parameters."""
        work_dir = settings.work_dir()
        self.task_id = f"{self.task_id}{build_tag(work_dir)}"
        self._Task__hash = hash(self.task_id)  # luigi.Task hashes the id it set
        _join_scheduler_once(work_dir)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "run" in cls.__dict__:
            cls.run = _one_writer_at_a_time(_reporting_progress(cls.__dict__["run"]))

    @contextlib.contextmanager
    def exclusive_output(self) -> Iterator[bool]:
        """Hold the lock of this task's output (a ``flock`` on ``<work_dir>/.locks/<Family>/<name>.lock``,
        apart from the outputs) for the block; yield whether the output is complete once the lock is
        held.  Two builds on one work directory thus share its work: the second waits for the task
        the first is running, then finds it done, instead of running it too."""
        if getattr(self, "_holding_output_lock", False):  # a run calling its parent class's run
            yield False
            return
        final = self.output_dir()
        locks = settings.work_dir() / LOCKS_DIRECTORY / final.parent.name
        locks.mkdir(parents=True, exist_ok=True)
        with open(locks / f"{final.name}.lock", "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                _tell_scheduler(self, "set_status_message", "waiting for another build that runs this task")
                fcntl.flock(lock, fcntl.LOCK_EX)
            self._holding_output_lock = True
            try:
                yield self.complete()
            finally:
                self._holding_output_lock = False
                fcntl.flock(lock, fcntl.LOCK_UN)

    @contextlib.contextmanager
    def reporting_progress(self) -> Iterator[None]:
        """While the block runs, tell the scheduler: "running" at 0 %, what ``schedlab.progress``
        hears (``SchedulerProgress``), and 100 % when it succeeds.  Nested uses report once."""
        if getattr(self, "_reporting_now", False):
            yield
            return
        self._reporting_now = True
        _tell_scheduler(self, "set_status_message", "running")
        _tell_scheduler(self, "set_progress_percentage", 0)
        previous = progress.set_sink(SchedulerProgress(self))
        try:
            yield
        finally:
            progress.set_sink(previous)
            self._reporting_now = False
        _tell_scheduler(self, "set_progress_percentage", 100)

    def input_fingerprint(self):
        """JSON-able identity of what the task reads from outside the pipeline; none by default."""
        return None

    def code_versions(self) -> dict[str, str]:
        """Version of the task's own module and of ``code_modules`` with all they import."""
        modules = {type(self).__module__, *code_closure(self.code_modules)}
        return {name: module_code_version(name) for name in sorted(modules)}

    @classmethod
    def warm_up(cls) -> None:
        """Load what every run of this task pays for on its first call in a process (compiled code
        from numba's cache, say), by a run too small to matter.  Called once per task family in the
        process that schedules the build, when it finds a task of the family to run, so that the
        workers Luigi forks for each task inherit it instead of each loading it again.  Where the
        cache lacks the code, it was compiled ahead in a background process when the build's first
        task that can reach the family was scheduled (``pipeline.compile_ahead``), side by side with
        the other families'.  Nothing by default."""

    def deps(self):
        compile_ahead.start(_families_reached(type(self)), _family_modules)
        _warm_up_once(type(self))
        return super().deps()

    def keyed_requirements(self) -> list[SchedlabTask]:
        required = luigi.task.flatten(self.requires())
        for task in required:
            if not isinstance(task, SchedlabTask):
                raise TypeError(f"{self} requires {task}, which is not a SchedlabTask: its output is not keyed")
        return required

    def identity(self, known_keys: dict[str, str] | None = None) -> dict:
        """Everything the key hashes; also written to ``task.json`` next to the outputs.

        ``known_keys`` (task id -> key) lets one computation reuse the key of a task that
        several others require, instead of walking its requirements again each time.
        """
        known_keys = {} if known_keys is None else known_keys
        return {
            "task": self.get_task_family(),
            "parameters": self.to_str_params(only_significant=True),
            "code_versions": self.code_versions(),
            "input_fingerprint": self.input_fingerprint(),
            "requirements": sorted(task._key(known_keys) for task in self.keyed_requirements()),
        }

    def task_key(self) -> str:
        """The task's key: found once per task while ``keys_remembered`` lasts, else each time."""
        remembered = _remembered_keys.get()
        return self._key({} if remembered is None else remembered)

    def _key(self, known_keys: dict[str, str]) -> str:
        if self.task_id not in known_keys:
            canonical = json.dumps(self.identity(known_keys), sort_keys=True, separators=(",", ":"))
            known_keys[self.task_id] = hashlib.sha256(canonical.encode()).hexdigest()[:KEY_LENGTH]
        return known_keys[self.task_id]

    def label(self) -> str:
        """Readable part of the directory name: the parameter values; override to shorten."""
        return "_".join(self.to_str_params(only_significant=True).values())

    def output_dir(self) -> Path:
        label = re.sub(r"[^A-Za-z0-9.-]+", "_", self.label()).strip("_")[:LABEL_LENGTH]
        key = self.task_key()
        name = f"{label}-{key}" if label else key
        return settings.work_dir() / self.get_task_family() / name

    def output_file(self, name: str) -> Path:
        """The path of one output file; when it exists, proven to hold the bytes its task wrote
        (:func:`schedlab.output_digests.check_file`: a damaged file is refused with its path)."""
        directory = self.output_dir()
        path = directory / name
        if name != RECORD_FILE and path.exists():
            check_file(directory, name, recorded_outputs(directory))
        return path

    def output(self) -> luigi.LocalTarget:
        return luigi.LocalTarget(str(self.output_dir()))

    def record(self) -> dict:
        """This task's ``task.json`` (its parameters, code versions, environment and output digests),
        refused naming the directory unless it is sealed and of this directory."""
        directory = self.output_dir()
        found = read_record(directory)
        if found is None or found["key"] != self.task_key():
            check_file(directory, RECORD_FILE, None)  # raises, saying why
        return found

    def complete(self) -> bool:
        """Done when the output directory holds every file its ``task.json`` records, each of its
        recorded size and SHA-256 (a truncated, deleted, changed or never-recorded output makes the
        task run again), and every task it needs is complete too: a damaged output anywhere below
        reruns its task and what depends on it.

        A user's error met on the way (a trace not found, say) stops a build started from the
        ``luigi`` command line in one line on stderr with exit code 2, whichever task it was given;
        Luigi would log a traceback and exit 35."""
        try:
            hold_code_lock(settings.work_dir())
            with keys_remembered():
                return self._whole_with_requirements(set())
        except SchedlabError as error:
            if _on_luigi_command_line():
                sys.stdout.flush()
                print(f"luigi: {error}", file=sys.stderr, flush=True)
                raise SystemExit(2) from None
            raise

    def _whole_with_requirements(self, checked: set[str]) -> bool:
        """This task's outputs whole, and those of every task it needs, directly or not (each checked once):
        Luigi looks no further than a complete task, so damage below one is found here or never."""
        if self.task_id in checked:
            return True
        checked.add(self.task_id)
        directory = self.output_dir()
        return whole(directory, recorded_outputs(directory)) and all(
            task._whole_with_requirements(checked) for task in self.keyed_requirements())

    @contextlib.contextmanager
    def writing_output(self) -> Iterator[Path]:
        """Yield an empty staging directory; it becomes ``output_dir()`` when the block succeeds.

        The staging directory's name says which process on which host writes it, so that
        those left by killed writers (``kill -9`` gives no chance to clean up) are removed by
        the next write into the same family directory (``remove_dead_stagings``)."""
        final = self.output_dir()
        _tell_scheduler(self, "set_status_message", "writing outputs")
        final.parent.mkdir(parents=True, exist_ok=True)
        remove_dead_stagings(final.parent)
        for abandoned in final.parent.glob(f".{final.name}.{STAGING_MARK}*.tmp"):
            # This process holds the output's lock: every other staging of it was left by a killed writer.
            shutil.rmtree(abandoned, ignore_errors=True)
        writer = f"{STAGING_MARK}{socket.gethostname()}{STAGING_MARK}{os.getpid()}"
        staging = Path(tempfile.mkdtemp(prefix=f".{final.name}.{writer}.", suffix=".tmp", dir=final.parent))
        try:
            yield staging
            write_json(staging / RECORD_FILE, seal({"key": self.task_key(), **self.identity(),
                                                    "environment": dependency_versions(), "outputs": record(staging)}))
            staging.chmod(0o755)  # mkdtemp makes it private to the user
            if final.is_symlink() or (final.is_dir() and not whole(final, recorded_outputs(final))):
                _set_aside(final)  # a damaged earlier output, or a link in its place, which made the task run again
            try:
                os.rename(staging, final)
            except OSError:
                if not final.is_dir():
                    raise
                # Another worker finished the same task first; its output is equivalent.
                shutil.rmtree(staging)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
