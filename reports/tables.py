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

from reports.document import Document, render_markdown, table


_LATEX_ESCAPES = {"\\": r"\textbackslash{}", "%": r"\%", "&": r"\&", "_": r"\_", "#": r"\#", "$": r"\$",
                  "<": r"$<$", ">": r"$>$"}


def _latex_cell(value) -> str:
    text = _cell(value)
    return "".join(_LATEX_ESCAPES.get(char, char) for char in text)


def latex_table(frame: pd.DataFrame, labels: Mapping[str, str] | None = None) -> str:
    align = "".join("r" if pd.api.types.is_numeric_dtype(frame[c]) else "l" for c in frame.columns)
    lines = [f"\\begin{{tabular}}{{{align}}}", "\\hline",
             " & ".join(_latex_cell(c) for c in column_labels(frame, labels)) + r" \\", "\\hline"]
    lines += [" & ".join(_latex_cell(v) for v in row) + r" \\" for row in frame.itertuples(index=False)]
    lines += ["\\hline", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


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
