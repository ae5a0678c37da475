"""docs/architecture.md names only paths that exist and modules that can be found.

Every inline code span of the document that looks like a repository path (it has a ``/``
and ends in a known file suffix, or ends in ``/`` for a directory) must exist relative to
the repository root, and every ``schedlab.x.y`` dotted name must be a module that
``importlib.util.find_spec`` finds.  Paths inside fenced blocks (the Mermaid diagram) are
checked too.  Spans with placeholders (``<stage>``), globs or spaces are not paths.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"

PATH_SUFFIXES = (".py", ".md", ".c", ".csv", ".json")
FENCE = re.compile(r"^```.*?^```[ \t]*$", re.DOTALL | re.MULTILINE)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
PATH_TOKEN = re.compile(r"[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)*/?")
BARE_PATH_IN_BLOCK = re.compile(r"(?<![\w./<-])([A-Za-z0-9_\-]+(?:/[A-Za-z0-9_.\-]+)*/?)")
MODULE_TOKEN = re.compile(r"schedlab(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def _is_path(token: str) -> bool:
    if "/" not in token or "://" in token or not PATH_TOKEN.fullmatch(token):
        return False
    return token.endswith("/") or token.endswith(PATH_SUFFIXES)


def referenced_paths(text: str) -> list[str]:
    """Path-like tokens of ``text``: inline code spans outside fenced blocks, and bare paths inside them."""
    blocks = FENCE.findall(text)
    prose = FENCE.sub("", text)
    found = [span.strip() for span in CODE_SPAN.findall(prose)]
    for block in blocks:
        found += BARE_PATH_IN_BLOCK.findall(block)
    return sorted({token for token in found if _is_path(token)})


def referenced_modules(text: str) -> list[str]:
    """Inline code spans that are a dotted ``schedlab.x.y`` name."""
    return sorted({span.strip() for span in CODE_SPAN.findall(FENCE.sub("", text))
                   if MODULE_TOKEN.fullmatch(span.strip())})


def missing_paths(text: str, root: Path = ROOT) -> list[str]:
    return [token for token in referenced_paths(text)
            if not ((root / token).is_dir() if token.endswith("/") else (root / token).is_file())]


def missing_modules(text: str) -> list[str]:
    missing = []
    for name in referenced_modules(text):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            missing.append(name)
    return missing


def test_the_checks_report_what_does_not_exist():
    text = ("See `simulators/ics/kernel.py`, `simulators/ics/no_such_kernel.py`, `docs/engine.md`, "
            "`docs/no-such-page.md`, `pipeline/`, `no_such_folder/`, `reports/<stage>_claims.py`, "
            "`schedlab.simulators.core.engine` and `schedlab.simulators.no_such_module`.\n"
            "```mermaid\nflowchart LR\n  A[\"parsers/swf.py\"] --> B[\"parsers/no_such_parser.py\"]\n```\n")
    assert missing_paths(text) == ["docs/no-such-page.md", "no_such_folder/", "parsers/no_such_parser.py",
                                   "simulators/ics/no_such_kernel.py"]
    assert "reports/<stage>_claims.py" not in referenced_paths(text)
    assert missing_modules(text) == ["schedlab.simulators.no_such_module"]


def test_every_path_named_in_the_architecture_doc_exists():
    text = DOC.read_text(encoding="utf-8")
    assert len(referenced_paths(text)) >= 40, "the parser found too few paths: is the document still parsed?"
    assert missing_paths(text) == []


def test_every_module_named_in_the_architecture_doc_is_found():
    text = DOC.read_text(encoding="utf-8")
    assert referenced_modules(text), "the document names no schedlab.x.y module"
    assert missing_modules(text) == []
