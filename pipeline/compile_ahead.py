"""Compiling the simulators' kernels side by side, once, before the build needs them.

Each stage's compiled loop is numba code cached on disk (``@njit(cache=True)``): the first
build after an install, or after its source changes, compiles it, about a minute for the
five stages together, and every later process loads it from the cache in a fraction of a
second.  A task family loads its kernels in the scheduling process (``SchedlabTask.warm_up``)
so that the workers Luigi forks inherit them; one after another, on one core, the first
build's compiles would leave the machine's other cores idle while scheduling waits.

So when a task is scheduled, every task family its code can reach whose kernels are not
in the cache (:func:`cold`) is warmed up at once in a background process of its own,
which fills the cache; the family's own warm-up then waits for that process and loads
what it wrote.  A family whose kernels are cached starts no process.  A background
compile that fails costs nothing but its time: the family's own warm-up then compiles
in the scheduling process and raises whatever is wrong there.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

announce: Callable[[str], None] = lambda line: None
"""Where the one line saying that kernels compile goes (the build's console sets it)."""

_compiling: dict[type, subprocess.Popen] = {}
"""Per task family, its background warm-up while it runs (and until it is waited for)."""

_handled: set[type] = set()
"""Families already looked at in this process: each is compiled ahead at most once."""


def cached_dispatchers(module_names: Iterable[str]) -> dict[str, list]:
    """Per loaded module among ``module_names``, the numba functions it defines that cache
    their compiled code on disk (none for a module without any); a function always inlined
    into its callers is compiled only inside them, never cached on its own."""
    from numba.core.dispatcher import Dispatcher

    found = {}
    for name in module_names:
        module = sys.modules.get(name)
        dispatchers = [value for value in vars(module).values()
                       if isinstance(value, Dispatcher) and value.py_func.__module__ == name
                       and hasattr(value._cache, "_cache_file")
                       and value.targetoptions.get("inline") != "always"] if module is not None else []
        if dispatchers:
            found[name] = dispatchers
    return found


def cold(module_names: Iterable[str]) -> bool:
    """Whether a numba function of the modules ``module_names`` has no compiled version in
    numba's cache for its module's current source (a fresh install, or an edited file).

    numba keeps, per function, an index of its compiled versions stamped with the source
    file's time and size, and reads it as empty once the stamp or numba's version differ.
    Every such function of a stage is compiled by its family's warm-up (a test holds each
    family to it), so that a function no run uses cannot start a background compile in
    every build."""
    if "numba" not in sys.modules:
        return False  # nothing reached imports numba: nothing to compile
    return any(not dispatcher._cache._cache_file._load_index()
               for dispatchers in cached_dispatchers(module_names).values() for dispatcher in dispatchers)


def start(families: Iterable[type], modules_of: Callable[[type], list[str]]) -> None:
    """Warm up, each in a background process, the ``families`` whose code (``modules_of``)
    is cold; at most once per family in this process."""
    started = []
    for family in sorted(set(families) - _handled, key=lambda family: family.__name__):
        _handled.add(family)
        if cold(modules_of(family)):
            _compiling[family] = subprocess.Popen(
                [sys.executable, "-c", f"import {family.__module__} as m; m.{family.__qualname__}.warm_up()"],
                env=_environment(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            started.append(family.__name__)
    if started:
        announce(f"Compiling the simulators' kernels once for this code (numba; {', '.join(started)}, side by side in "
                 "the background): later builds load them from its cache")


def wait_for(family: type) -> None:
    """Wait for ``family``'s background warm-up, if one runs."""
    process = _compiling.pop(family, None)
    if process is not None:
        process.wait()


def _environment() -> dict[str, str]:
    """This process's environment, with the directory this package is imported from first on
    the module path, so that the background process imports the same code."""
    here = str(Path(__file__).resolve().parents[1])
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": here if not path else os.pathsep.join((here, path))}
