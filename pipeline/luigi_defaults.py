"""schedlab's Luigi defaults (exit codes, log level, workers), in force from any working directory.

Luigi reads ``luigi.cfg`` from the working directory only, so a build started anywhere
else exited 0 on failure and printed Luigi's DEBUG log.  ``install()`` puts the packaged
``luigi-defaults.cfg`` first among Luigi's configuration paths: it applies everywhere,
and every file Luigi reads after it (``/etc/luigi/luigi.cfg``, ``./luigi.cfg``,
``LUIGI_CONFIG_PATH``) still overrides it.  ``luigi --module pipeline ...`` imports the
package before it reads its exit codes and log level, so importing it is enough.

Workers: a build runs as many tasks at once as the process may use cores
(``os.sched_getaffinity``), unless a configuration file sets ``[core] workers`` or the command
line gives ``--workers``, so that the README's command as written uses the machine.
"""

from __future__ import annotations

import os
from pathlib import Path

from luigi.configuration import LuigiConfigParser

DEFAULTS = Path(__file__).with_name("luigi-defaults.cfg")


def install() -> None:
    """Put ``DEFAULTS`` first in Luigi's configuration paths and reread them (once per process)."""
    if str(DEFAULTS) in LuigiConfigParser._config_paths:
        return
    LuigiConfigParser._config_paths.insert(0, str(DEFAULTS))
    LuigiConfigParser.reload()
    config = LuigiConfigParser.instance()
    if not config.has_option("core", "workers"):
        config.set("core", "workers", str(available_cores()))


def available_cores() -> int:
    """The cores this process may run on (a CPU set or affinity mask counts, as under Slurm)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
