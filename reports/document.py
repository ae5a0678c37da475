"""A tiny document model rendered both as Markdown and as standalone HTML.

Every report page exists in both formats: Markdown to read in a repository or paste
into notes, HTML to browse with the figures inline.  Describing a page once as blocks
(headings, paragraphs, tables, figures) and rendering it twice keeps the two from
drifting apart.  Text is plain; the only inline markup is ``Code`` and ``Link``.

A ``Link`` to another report page is written without its extension and marked
``page=True``: the Markdown rendering links to ``.md``, the HTML rendering to ``.html``.
A ``Figure`` names a figure by stem: Markdown shows the PNG, HTML the SVG (and links
the PNG).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Link:
    text: str
    href: str
    page: bool = False

    def target(self, extension: str) -> str:
        return f"{self.href}.{extension}" if self.page else self.href


Inline = Union[str, Code, Link]
"""A run of text: plain, code, or a link."""


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    parts: tuple[Inline, ...]


@dataclass(frozen=True)
class BulletList:
    items: tuple[tuple[Inline, ...], ...]


@dataclass(frozen=True)
class Table:
    """Rows of cells under a header; ``right_aligned`` columns hold numbers."""

    header: tuple[str, ...]
    rows: tuple[tuple[Inline, ...], ...]
    right_aligned: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Figure:
    stem: str
    caption: str


Block = Union[Heading, Paragraph, BulletList, Table, Figure]


@dataclass(frozen=True)
class Document:
    title: str
    blocks: tuple[Block, ...]


def paragraph(*parts: Inline) -> Paragraph:
    return Paragraph(tuple(parts))


def table(header, rows, right_aligned=()) -> Table:
    """A ``Table`` from any sequences; each cell is one inline (text, ``Code`` or ``Link``)."""
    return Table(tuple(header), tuple(tuple(row) for row in rows), frozenset(right_aligned))


# --- Markdown -----------------------------------------------------------------------------


def _markdown_inline(part: Inline) -> str:
    if isinstance(part, Code):
        return f"`{part.text}`"
    if isinstance(part, Link):
        return f"[{part.text}]({part.target('md')})"
    return part


def _markdown_cell(cell: Inline) -> str:
    return _markdown_inline(cell).replace("|", "\\|")


def _markdown_block(block: Block) -> str:
    if isinstance(block, Heading):
        return f"{'#' * block.level} {block.text}"
    if isinstance(block, Paragraph):
        return "".join(_markdown_inline(part) for part in block.parts)
    if isinstance(block, BulletList):
        return "\n".join("- " + "".join(map(_markdown_inline, item)) for item in block.items)
    if isinstance(block, Table):
        rule = ["---:" if i in block.right_aligned else "---" for i in range(len(block.header))]
        lines = [block.header, rule, *([_markdown_cell(cell) for cell in row] for row in block.rows)]
        return "\n".join("| " + " | ".join(line) + " |" for line in lines)
    if isinstance(block, Figure):
        return f"![{block.caption}]({block.stem}.png)\n\n*{block.caption}* ([SVG]({block.stem}.svg))"
    raise TypeError(f"not a document block: {block!r}")


def render_markdown(document: Document) -> str:
    parts = [f"# {document.title}", *(_markdown_block(block) for block in document.blocks)]
    return "\n\n".join(parts) + "\n"


# --- HTML ---------------------------------------------------------------------------------

# The page is as wide as a laptop window allows (tables need the room), its prose held
# to a readable measure.  Nothing may push the page sideways: a table too wide for the
# window scrolls inside its own box, headers wrap between words, and long unbroken code
# (checksums, paths) wraps anywhere.
_STYLE = """\
body { font-family: sans-serif; max-width: 84rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
p, ul, h1, h2, h3 { max-width: 60rem; overflow-wrap: break-word; }
.table-box { max-width: 100%; overflow-x: auto; margin: 1rem 0; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; vertical-align: top; }
th { background: #f2f2f2; min-width: 4rem; }
td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
figure { margin: 1.5rem 0; }
figure img { max-width: 100%; height: auto; }
code { background: #f5f5f5; padding: 0 0.2rem; overflow-wrap: anywhere; }"""


def _html_inline(part: Inline) -> str:
    if isinstance(part, Code):
        return f"<code>{html.escape(part.text)}</code>"
    if isinstance(part, Link):
        return f'<a href="{html.escape(part.target("html"))}">{html.escape(part.text)}</a>'
    return html.escape(part)


def _html_table(block: Table) -> str:
    header = "".join(f"<th>{html.escape(name)}</th>" for name in block.header)
    rows = []
    for row in block.rows:
        cells = "".join(
            f'<td class="number">{_html_inline(cell)}</td>'
            if i in block.right_aligned
            else f"<td>{_html_inline(cell)}</td>"
            for i, cell in enumerate(row)
        )
        rows.append(f"<tr>{cells}</tr>")
    body = "\n".join(rows)
    return (f'<div class="table-box"><table>\n<thead><tr>{header}</tr></thead>\n<tbody>\n{body}\n</tbody>\n'
            "</table></div>")


def _html_block(block: Block) -> str:
    if isinstance(block, Heading):
        return f"<h{block.level}>{html.escape(block.text)}</h{block.level}>"
    if isinstance(block, Paragraph):
        return f"<p>{''.join(map(_html_inline, block.parts))}</p>"
    if isinstance(block, BulletList):
        items = "\n".join(f"<li>{''.join(map(_html_inline, item))}</li>" for item in block.items)
        return f"<ul>\n{items}\n</ul>"
    if isinstance(block, Table):
        return _html_table(block)
    if isinstance(block, Figure):
        caption = html.escape(block.caption)
        stem = html.escape(block.stem)
        return (
            f'<figure>\n<img src="{stem}.svg" alt="{caption}">\n'
            f'<figcaption>{caption} (<a href="{stem}.png">PNG</a>)</figcaption>\n</figure>'
        )
    raise TypeError(f"not a document block: {block!r}")


def render_html(document: Document) -> str:
    title = html.escape(document.title)
    body = "\n".join(_html_block(block) for block in document.blocks)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n<style>\n{_STYLE}\n</style>\n</head>\n<body>\n"
        f"<h1>{title}</h1>\n{body}\n</body>\n</html>\n"
    )
