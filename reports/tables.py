"""Tables of a stage report written three ways: CSV for data, Markdown for the page,
LaTeX (tabular) for papers; shared by the stage reports.

The CSV keeps the result table's column names (what a script reads); the page and the
LaTeX show each column under its label, in words with its unit, where the stage gives
one (``labels``: column name to label)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from schedlab.reports.document import Code, Document, Link, render_markdown, table


LATEX_SPECIALS = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"$<$", ">": r"$>$", "|": r"\textbar{}",
}
"""Every character LaTeX reads as markup, and what typesets it as itself.  ``~`` would be a
non-breaking space and ``^`` a superscript; ``<``, ``>`` and ``|`` are not markup, but in
LaTeX's default (OT1) text fonts they print as other glyphs (an inverted exclamation mark, an
em dash), so they are named too."""

LATEX_SYMBOLS = {"±": r"$\pm$", "×": r"$\times$", "−": r"$-$", "≤": r"$\leq$", "≥": r"$\geq$",
                 "≈": r"$\approx$", "→": r"$\rightarrow$"}
"""Signs outside ASCII that the tables use, set in math (whose fonts have them in any text
encoding); pdflatex's UTF-8 input sets up accented letters by itself, not these."""

_LATEX_ESCAPES = {**LATEX_SPECIALS, **LATEX_SYMBOLS}


def latex_escape(text: str) -> str:
    """``text`` as LaTeX that typesets every character as itself."""
    return "".join(_LATEX_ESCAPES.get(char, char) for char in text)


def _latex_cell(value) -> str:
    if isinstance(value, Code):
        return rf"\texttt{{{latex_escape(value.text)}}}"
    return latex_escape(value.text if isinstance(value, Link) else _cell(value))


def latex_tabular(header, rows, right_aligned=()) -> str:
    """A LaTeX ``tabular`` of ``rows`` under ``header``, every cell escaped (``latex_escape``);
    cells are text, numbers, or a document's ``Link`` (its text) or ``Code`` (typewriter);
    ``right_aligned`` columns (numbers) align right.  The one LaTeX writer of every table."""
    header = list(header)
    right = set(right_aligned)
    align = "".join("r" if i in right else "l" for i in range(len(header)))
    lines = [f"\\begin{{tabular}}{{{align}}}", "\\hline", " & ".join(map(_latex_cell, header)) + r" \\", "\\hline"]
    lines += [" & ".join(map(_latex_cell, row)) + r" \\" for row in rows]
    lines += ["\\hline", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


def latex_table(frame: pd.DataFrame, labels: Mapping[str, str] | None = None) -> str:
    """``frame`` as a LaTeX ``tabular`` under its column labels, numeric columns right-aligned."""
    numeric = [i for i, c in enumerate(frame.columns) if pd.api.types.is_numeric_dtype(frame[c])]
    return latex_tabular(column_labels(frame, labels), frame.itertuples(index=False), numeric)


def _cell(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else ""
    if isinstance(value, (float, np.floating)):
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:.0f}"
    return str(value)


def column_labels(frame: pd.DataFrame, labels: Mapping[str, str] | None = None) -> list[str]:
    """Each column's label, its name where ``labels`` has none."""
    return [(labels or {}).get(column, str(column)) for column in frame.columns]


def document_table(frame: pd.DataFrame, labels: Mapping[str, str] | None = None):
    numeric = [i for i, c in enumerate(frame.columns) if pd.api.types.is_numeric_dtype(frame[c])
               and not pd.api.types.is_bool_dtype(frame[c])]
    rows = [[_cell(v) for v in row] for row in frame.itertuples(index=False)]
    return table(column_labels(frame, labels), rows, numeric)


def write_table(directory: Path, stem: str, frame: pd.DataFrame, title: str | None = None,
                labels: Mapping[str, str] | None = None) -> None:
    """``stem``.csv, .md (a page titled ``title``, default the stem) and .tex."""
    frame.to_csv(directory / f"{stem}.csv", index=False, lineterminator="\n", float_format="%.6g")
    page = Document(title or stem, (document_table(frame, labels),))
    (directory / f"{stem}.md").write_text(render_markdown(page), encoding="utf-8")
    (directory / f"{stem}.tex").write_text(latex_table(frame, labels), encoding="utf-8")


def publish_inputs(directory, results: Mapping[str, pd.DataFrame | None], parameters: dict,
                   float_format: str | None = None) -> dict[str, pd.DataFrame]:
    """Write a stage report's inputs into ``directory``, each result table as ``<name>.csv`` and the
    parameters as ``parameters.json``, and return the tables read back from those files: a report
    shows exactly what it publishes.  A table given as None is left out."""
    import json

    directory = Path(directory)
    (directory / "parameters.json").write_text(json.dumps(parameters, indent=2, sort_keys=True) + "\n",
                                               encoding="utf-8")
    published = {}
    for name, frame in results.items():
        if frame is None:
            continue
        frame.to_csv(directory / f"{name}.csv", index=False, lineterminator="\n", float_format=float_format)
        published[name] = pd.read_csv(directory / f"{name}.csv")
    return published
