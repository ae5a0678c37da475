"""The software a result was made with: Python and every distribution schedlab depends on.

``dependency_versions()`` walks schedlab's requirements (with the ``test`` extra, which the
suite needs) through installed metadata, so it names exactly what a result could depend
on, not whatever else the machine has.  Every task's ``task.json``, the published ledger's
run times and every bundle record it; ``constraints.txt`` at the repository root is its
pinned form, made by ``python -m schedlab.versions > constraints.txt`` and installed with
``pip install -c constraints.txt``.
"""

from __future__ import annotations

import functools
import platform
import re
from importlib import metadata

from packaging.requirements import Requirement

EXTRAS = ("test",)


def distribution_key(name: str) -> str:
    """A distribution's name as packaging compares them (PEP 503): "Typing_Extensions" -> "typing-extensions"."""
    return re.sub(r"[-_.]+", "-", name).lower()


@functools.cache
def dependency_versions() -> dict[str, str]:
    """``{"python": "3.11.7", "<distribution>": "<version>", ...}``: schedlab's dependency closure as
    installed (a requirement not installed, an optional one, say, is left out), names normalised."""
    found: dict[str, str] = {}

    def walk(name: str, extras: tuple[str, ...] = ()) -> None:
        try:
            distribution = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            return
        found[distribution_key(name)] = distribution.version
        for line in distribution.requires or ():
            requirement = Requirement(line)
            if requirement.marker and not any(requirement.marker.evaluate({"extra": extra})
                                              for extra in (*extras, "")):
                continue
            if distribution_key(requirement.name) not in found:
                walk(requirement.name)

    walk("schedlab", EXTRAS)
    found.pop("schedlab", None)
    return {"python": platform.python_version(), **dict(sorted(found.items()))}


def versions_text(versions: dict[str, str] | None = None) -> str:
    """"Python 3.11.7; luigi 3.8.1, numpy 2.4.6, ...": the libraries a reader looks for first, then the rest."""
    versions = dict(dependency_versions() if versions is None else versions)
    python = versions.pop("python", "?")
    return f"Python {python}; " + ", ".join(f"{name} {version}" for name, version in versions.items())


def constraints_text() -> str:
    lines = ["# Versions schedlab is tested with: CI installs with `pip install -c constraints.txt -e '.[test]'`.",
             "# Made by `python -m schedlab.versions > constraints.txt` (Python "
             f"{dependency_versions()['python']}); regenerate after an upgrade and run the tests."]
    lines += [f"{name}=={version}" for name, version in dependency_versions().items() if name != "python"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(constraints_text(), end="")
