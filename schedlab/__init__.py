"""schedlab: trace-driven replay and analysis of parallel-job scheduling.

This package holds the pieces every layer shares (user-facing errors, atomic file
writes) and the ``schedlab`` command line.  Domain code lives in the folders parsers/,
workloads/, simulators/ and reports/ beside it, imported as ``schedlab.parsers`` and so on
(one distinctive name: a user's own ``reports/`` cannot shadow ours), and in the top-level
package ``pipeline`` (for ``luigi --module pipeline``).  An install puts the folders inside
this package (``setup.py``); in a source checkout they sit beside it, and the package's
path reaches them.
"""

from pathlib import Path

__version__ = "0.1.0"

DOMAIN_FOLDERS = ("parsers", "reports", "simulators", "workloads")

_checkout = Path(__file__).resolve().parent.parent
if not (Path(__file__).parent / "reports").is_dir() and all(
    (_checkout / folder / "__init__.py").is_file() for folder in DOMAIN_FOLDERS
):
    __path__.append(str(_checkout))  # noqa: F821 (a package's own __path__)


def checkout_root() -> Path | None:
    """The git checkout this schedlab runs from, if it runs from one (not after a regular install)."""
    return _checkout if (_checkout / ".git").exists() and (_checkout / "pyproject.toml").is_file() else None
