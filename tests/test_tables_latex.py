"""The LaTeX writer of every table: each character a cell holds is typeset as itself.

Two round trips.  Through ``pdflatex`` and ``pdftotext`` (apt packages texlive-latex-base and
poppler-utils) where both are installed: the table is compiled in a document with the T1 font
encoding a paper uses, and the text read back from the PDF must be the cells' text.  Without
them that test skips, saying which is missing, and a small reader of LaTeX written here from
what each command typesets (not from the writer's table) reads the escaped cells back.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pandas as pd
import pytest

from schedlab.reports.document import Code, Link
from schedlab.reports.tables import LATEX_SPECIALS, LATEX_SYMBOLS, latex_escape, latex_table, latex_tabular

SPECIALS = "\\&%$#_{}~^<>|"
"""Every character LaTeX reads as markup, and those its default fonts print as other glyphs."""
SYMBOLS = "±×−≤≥≈→"
CELLS = [
    r"C:\temp\new & 50 % of $5 #1 a_b {x} ~60 min 2^10 <= 3 > 2 a|b",
    "".join(SPECIALS),
    "".join(SYMBOLS) + " 1.5 ± 0.2",
    r"\\ \& %% {{}} ~~ ^^ \textbf{x}",
]

# What each command typesets, as LaTeX defines it (the reader's own knowledge, not the writer's).
TYPESETS = {"textbackslash": "\\", "textasciitilde": "~", "textasciicircum": "^", "textbar": "|",
            "textless": "<", "textgreater": ">", "textpm": "±"}
MATH_TYPESETS = {"<": "<", ">": ">", "|": "|", "-": "−", r"\leq": "≤", r"\geq": "≥", r"\approx": "≈",
                 r"\rightarrow": "→", r"\pm": "±", r"\times": "×"}
ESCAPED_BY_BACKSLASH = set("&%$#_{}")
MARKUP = set("\\&%$#_{}~^")
"""Characters that, bare in text, are markup: the reader refuses them."""


def read_latex(text: str) -> str:
    """What the text of a table cell typesets, for the commands above; refuses any bare markup."""
    out, i = [], 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            if i + 1 < len(text) and text[i + 1] in ESCAPED_BY_BACKSLASH:
                out.append(text[i + 1])
                i += 2
                continue
            name = re.match(r"[A-Za-z]+", text[i + 1:])
            assert name and name.group() in TYPESETS, f"unknown command at {text[i:i + 20]!r}"
            out.append(TYPESETS[name.group()])
            i += 1 + len(name.group())
            if text.startswith("{}", i):
                i += 2
            else:
                assert i == len(text) or not text[i].isalpha(), f"command runs into the next word: {text[:i + 5]!r}"
            continue
        if char == "$":
            end = text.index("$", i + 1)
            math = text[i + 1:end]
            assert math in MATH_TYPESETS, f"unknown math {math!r}"
            out.append(MATH_TYPESETS[math])
            i = end + 1
            continue
        assert char not in MARKUP, f"bare {char!r} in {text!r}"
        out.append(char)
        i += 1
    return "".join(out)


def test_every_special_character_is_escaped():
    assert set(LATEX_SPECIALS) == set(SPECIALS)
    assert set(LATEX_SYMBOLS) == set(SYMBOLS)
    for cell in CELLS:
        assert read_latex(latex_escape(cell)) == cell


def test_the_reader_catches_what_the_old_writer_left_unescaped():
    with pytest.raises(AssertionError, match="bare '~'"):
        read_latex("about ~60 min")
    with pytest.raises(AssertionError, match="bare '\\^'"):
        read_latex("2^10")


def cell_lines(tabular: str) -> list[list[str]]:
    """The cells of each row of a ``tabular`` written by ``latex_tabular`` (rules and environment left out)."""
    rows = [line.removesuffix(r" \\") for line in tabular.splitlines() if line.endswith(r" \\")]
    return [re.split(r"(?<!\\) & ", row) for row in rows]


def test_a_table_of_every_character_reads_back_cell_by_cell():
    frame = pd.DataFrame({"text_%": CELLS, "n": range(len(CELLS))})
    rows = cell_lines(latex_table(frame, {"n": "count {n}"}))
    assert [[read_latex(cell) for cell in row] for row in rows] == [["text_%", "count {n}"]] + [
        [cell, str(i)] for i, cell in enumerate(CELLS)]
    assert latex_table(frame).splitlines()[0] == r"\begin{tabular}{lr}"


def test_links_and_code_cells_keep_their_text():
    text = latex_tabular(("file", "checksum"), [(Link("claims_ledger.csv", "claims.csv"), Code("ab_12"))], ())
    assert r"claims\_ledger.csv & \texttt{ab\_12} \\" in text


PDFLATEX, PDFTOTEXT = shutil.which("pdflatex"), shutil.which("pdftotext")
MISSING = ", ".join(name for name, path in (("pdflatex (apt-get install -y texlive-latex-base)", PDFLATEX),
                                            ("pdftotext (apt-get install -y poppler-utils)", PDFTOTEXT)) if not path)


@pytest.mark.skipif(bool(MISSING), reason=f"needs {MISSING}; the reader of escapes above checks the writer meanwhile")
def test_every_character_round_trips_through_pdflatex(tmp_path):
    frame = pd.DataFrame({"cell": CELLS})
    document = "\n".join([
        r"\documentclass{article}",
        r"\usepackage[T1]{fontenc}",
        r"\pdfgentounicode=1 \input{glyphtounicode}",
        r"\tracinglostchars=2",  # a character with no glyph in its font is reported in the log
        r"\begin{document}",
        latex_table(frame),
        r"\end{document}",
    ])
    (tmp_path / "table.tex").write_text(document, encoding="utf-8")
    done = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "table.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    log = (tmp_path / "table.log").read_text(encoding="utf-8", errors="replace")
    assert done.returncode == 0, log[-3000:]
    assert "Missing character" not in log, re.findall(r"Missing character.*", log)
    text = subprocess.run([PDFTOTEXT, "table.pdf", "-"], cwd=tmp_path, capture_output=True, text=True,
                          check=True).stdout
    squeezed = "".join(text.split())  # pdftotext spaces words by their gaps; the characters are what counts
    for cell in CELLS:
        assert "".join(cell.split()) in squeezed, f"{cell!r} not in the PDF's text:\n{text}"
