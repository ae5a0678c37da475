"""A tiny document model rendered both as Markdown and as standalone HTML.

Every report page exists in both formats: Markdown to read in a repository or paste
into notes, HTML to browse with the figures inline.  Describing a page once as blocks
(headings, paragraphs, tables, figures) and rendering it twice keeps the two from
drifting apart.  Text is plain; the only inline markup is ``Code`` and ``Link``.

A ``Link`` to another report page is written without its extension and marked
``page=True``: the Markdown rendering links to ``.md``, the HTML rendering to ``.html``.
A ``Figure`` names a figure by stem: Markdown shows the PNG, HTML the SVG (and links
the PNG); a figure whose links must work (a forest plot whose rows open their claims)
carries its SVG markup (``inline``), which the HTML page draws itself: an SVG shown
through ``<img>`` is a picture, its links dead.

The HTML page is one layout for every report: the title, a contents list of the
page's headings (beside the page in a window wide enough, above it otherwise), an
anchor on every heading and on every table row given an id (a claims ledger's rows
carry their claim ids, so a link can open ``page.html#<claim id>``), and verdict cells
(the ledger's words: reproduced, partial, not reproduced, inconclusive, not attempted)
in their colours, ``VERDICT_COLOURS``, wherever a table shows one.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import NamedTuple, Union


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
    """Rows of cells under a header; ``right_aligned`` columns hold numbers; ``row_ids``, when
    given, one anchor per row (a claim's id), so a link can open the page at that row."""

    header: tuple[str, ...]
    rows: tuple[tuple[Inline, ...], ...]
    right_aligned: frozenset[int] = frozenset()
    row_ids: tuple[str, ...] = ()

    def __post_init__(self):
        if self.row_ids and len(self.row_ids) != len(self.rows):
            raise ValueError(f"{len(self.row_ids)} row ids for {len(self.rows)} rows")
        repeated = sorted({i for i in self.row_ids if self.row_ids.count(i) > 1})
        if repeated:
            raise ValueError(f"row ids repeat: {repeated}")


@dataclass(frozen=True)
class Figure:
    """A figure saved as ``stem``.png and .svg beside the page; ``inline``: its SVG markup, drawn
    into the HTML page itself (see the module docstring)."""

    stem: str
    caption: str
    inline: str = ""


Block = Union[Heading, Paragraph, BulletList, Table, Figure]


@dataclass(frozen=True)
class Document:
    title: str
    blocks: tuple[Block, ...]


def paragraph(*parts: Inline) -> Paragraph:
    return Paragraph(tuple(parts))


def table(header, rows, right_aligned=(), row_ids=()) -> Table:
    """A ``Table`` from any sequences; each cell is one inline (text, ``Code`` or ``Link``)."""
    return Table(tuple(header), tuple(tuple(row) for row in rows), frozenset(right_aligned),
                 tuple(str(i) for i in row_ids))


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


class VerdictColour(NamedTuple):
    ink: str
    """Lines, points and text on white (the forest plots)."""
    tint: str
    """A table cell's background, under dark text."""


VERDICT_COLOURS = {
    "reproduced": VerdictColour("#2e7d32", "#dcefd9"),
    "partial": VerdictColour("#b8860b", "#fdefc3"),
    "not_reproduced": VerdictColour("#c62828", "#f9d6d5"),
    "inconclusive": VerdictColour("#6b6b6b", "#e4e4e4"),
    "not_attempted": VerdictColour("#b0b0b0", "#f6f6f6"),
}
"""Each verdict of ``schedlab.reports.ledger.VERDICTS`` in colour: reproduced green, partial amber, not
reproduced red, inconclusive grey, not attempted light."""

# A cell holds a verdict when it is one, in the ledger's words or its column values, with at most
# a qualifier after it in parentheses ("not reproduced (calibration)", "partial (differs)").
_VERDICT_CELL = re.compile(r"(reproduced|partial|not[ _]reproduced|inconclusive|not[ _]attempted)( \(.*\))?")


def verdict_of(text: str) -> str | None:
    """The verdict (as ``VERDICT_COLOURS`` names it) a table cell shows, or None."""
    found = _VERDICT_CELL.fullmatch(text.strip())
    return found.group(1).replace(" ", "_") if found else None


# The page is as wide as a laptop window allows (tables need the room), its prose held
# to a readable measure.  Nothing may push the page sideways: a table too wide for the
# window scrolls inside its own box, headers wrap between words, and long unbroken code
# (checksums, paths) wraps anywhere.  Where the window leaves a margin wide enough
# (84rem of page and 14rem on each side), the contents list stays in the left margin
# while the page scrolls; otherwise it stands under the title.
_STYLE = """\
body { font-family: sans-serif; max-width: 84rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
p, ul, h1, h2, h3 { max-width: 60rem; overflow-wrap: break-word; }
h2, h3, tr[id] { scroll-margin-top: 0.5rem; }
h2 .anchor, h3 .anchor, h4 .anchor { margin-left: 0.4rem; font-size: 0.8em; color: #aaa; text-decoration: none; }
h2 .up, h3 .up, h4 .up { float: right; font-size: 0.7em; font-weight: normal; color: #888; text-decoration: none; }
nav.contents { background: #f7f7f7; border: 1px solid #ddd; padding: 0.5rem 1rem; margin: 1rem 0 2rem;
  max-width: 58rem; font-size: 0.95rem; }
nav.contents .contents-title { font-weight: bold; margin: 0.2rem 0; }
nav.contents ol { margin: 0.2rem 0; padding-left: 1.4rem; }
nav.contents li { margin: 0.1rem 0; }
@media (min-width: 112rem) {
  nav.contents { position: fixed; top: 1rem; left: 1rem; width: calc((100vw - 84rem) / 2 - 4rem);
    max-height: calc(100vh - 4rem); overflow-y: auto; margin: 0; }
  h2 .up, h3 .up, h4 .up { display: none; }
}
.table-box { max-width: 100%; overflow-x: auto; margin: 1rem 0; font-size: 0.92rem; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; vertical-align: top; }
th { background: #f2f2f2; min-width: 4rem; }
td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.number.interval { white-space: normal; }
td.number.interval span { white-space: nowrap; }
td.prose { min-width: 16rem; }
details.long summary { cursor: pointer; }
details.long summary .more { color: #1565c0; }
details.long[open] summary .more { display: none; }
tr:target > td { outline: 2px solid #1565c0; outline-offset: -2px; }
figure { margin: 1.5rem 0; }
figure img { max-width: 100%; height: auto; }
figure svg { display: block; max-width: 100%; height: auto; }
code { background: #f5f5f5; padding: 0 0.2rem; overflow-wrap: anywhere; }"""


def _verdict_style() -> str:
    """A verdict cell: its tint behind the words, a dot of its colour in the margin before them."""
    dot = ("td.verdict { position: relative; padding-left: 1.5rem; }\n"
           'td.verdict::before { content: ""; position: absolute; left: 0.5rem; top: 0.55em; width: 0.7em; '
           "height: 0.7em; border-radius: 50%; }")
    return "\n".join([dot, *(f"td.verdict-{verdict.replace('_', '-')} {{ background: {colour.tint}; }}\n"
                              f"td.verdict-{verdict.replace('_', '-')}::before {{ background: {colour.ink}; }}"
                              for verdict, colour in VERDICT_COLOURS.items())])


def _html_inline(part: Inline) -> str:
    if isinstance(part, Code):
        return f"<code>{html.escape(part.text)}</code>"
    if isinstance(part, Link):
        return f'<a href="{html.escape(part.target("html"))}">{html.escape(part.text)}</a>'
    return html.escape(part)


LONG_CELL = 320
"""Characters: a table cell of text longer than this shows its first ``CELL_SHOWN`` and opens on a click
(a ledger's reason for a claim of many parts runs to thousands, and made its row thousands of pixels tall)."""
CELL_SHOWN = 200


_INTERVAL = re.compile(r" (?=\[)")
"""Where a number cell may break: between a value and its interval ("26.5 % [20.5, 32.5]"), never inside either."""


def _html_number(cell: Inline) -> str:
    pieces = _INTERVAL.split(cell) if isinstance(cell, str) else []
    if len(pieces) < 2:
        return _html_inline(cell)
    return " ".join(f"<span>{html.escape(piece)}</span>" for piece in pieces)


def _html_cell_content(cell: Inline) -> str:
    if not isinstance(cell, str) or len(cell) <= LONG_CELL:
        return _html_inline(cell)
    cut = cell.rfind(" ", 0, CELL_SHOWN + 1)
    cut = cut if cut > CELL_SHOWN // 2 else CELL_SHOWN
    return (f'<details class="long"><summary>{html.escape(cell[:cut])}<span class="more"> ... '
            f"({len(cell) - cut:,} more characters)</span></summary>{html.escape(cell[cut:])}</details>")


def _cell_classes(cell: Inline, number: bool) -> list[str]:
    classes = ["number"] if number else []
    if number and isinstance(cell, str) and _INTERVAL.search(cell):
        classes.append("interval")
    verdict = verdict_of(cell) if isinstance(cell, str) else None
    if verdict:
        classes += ["verdict", f"verdict-{verdict.replace('_', '-')}"]
    return classes


PROSE_COLUMN = 150
"""Characters: a column whose cells hold this much text on average is given room (``td.prose``);
left to the table's automatic layout it was squeezed to a few words a line, its rows the table's tallest."""


def _prose_columns(block: Table) -> set[int]:
    lengths: dict[int, list[int]] = {}
    for row in block.rows:
        for i, cell in enumerate(row):
            lengths.setdefault(i, []).append(len(cell) if isinstance(cell, str) else len(cell.text))
    return {i for i, values in lengths.items() if sum(values) / len(values) > PROSE_COLUMN}


def _html_table(block: Table) -> str:
    header = "".join(f"<th>{html.escape(name)}</th>" for name in block.header)
    prose = _prose_columns(block)
    rows = []
    for index, row in enumerate(block.rows):
        cells = []
        for i, cell in enumerate(row):
            classes = _cell_classes(cell, i in block.right_aligned) + (["prose"] if i in prose else [])
            attribute = f' class="{" ".join(classes)}"' if classes else ""
            content = _html_number(cell) if i in block.right_aligned else _html_cell_content(cell)
            cells.append(f"<td{attribute}>{content}</td>")
        row_id = f' id="{html.escape(block.row_ids[index])}"' if block.row_ids else ""
        rows.append(f"<tr{row_id}>{''.join(cells)}</tr>")
    body = "\n".join(rows)
    return (f'<div class="table-box"><table>\n<thead><tr>{header}</tr></thead>\n<tbody>\n{body}\n</tbody>\n'
            "</table></div>")


CONTENTS_ID = "contents"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def heading_ids(document: Document) -> list[str]:
    """One anchor per heading, in order: its words, lower case, joined by hyphens; made unique
    on the page (a second "Figures" is "figures-2"), never one of a table row's ids."""
    taken = {CONTENTS_ID, *(i for block in document.blocks if isinstance(block, Table) for i in block.row_ids)}
    ids = []
    for block in document.blocks:
        if isinstance(block, Heading):
            base = _slug(block.text)
            candidate, count = base, 1
            while candidate in taken:
                count += 1
                candidate = f"{base}-{count}"
            taken.add(candidate)
            ids.append(candidate)
    return ids


def _html_heading(block: Heading, anchor: str) -> str:
    return (f'<h{block.level} id="{anchor}">{html.escape(block.text)}'
            f'<a class="anchor" href="#{anchor}" title="link to this section">#</a>'
            f'<a class="up" href="#{CONTENTS_ID}" title="back to the contents">contents</a></h{block.level}>')


def _html_contents(headings: list[tuple[Heading, str]]) -> str:
    """The page's headings as a nested list: a heading's deeper ones under it."""
    if len(headings) < 2:
        return ""
    lines, depth = [], 0
    top = min(heading.level for heading, _ in headings)
    for heading, anchor in headings:
        level = min(heading.level - top + 1, depth + 1)  # an h4 straight under an h2 nests one step, not two
        if level > depth:
            lines += ["<ol>"] * (level - depth)
        else:
            lines.append("</li>")
            for _ in range(depth - level):
                lines += ["</ol>", "</li>"]
        lines.append(f'<li><a href="#{anchor}">{html.escape(heading.text)}</a>')
        depth = level
    lines.append("</li>")
    for _ in range(depth - 1):
        lines += ["</ol>", "</li>"]
    lines.append("</ol>")
    return (f'<nav class="contents" id="{CONTENTS_ID}" aria-label="contents">\n'
            f'<p class="contents-title">Contents</p>\n' + "\n".join(lines) + "\n</nav>")


_SVG_PROLOG = re.compile(r"\A.*?(?=<svg\b)", re.DOTALL)


def _html_figure(block: Figure) -> str:
    caption = html.escape(block.caption)
    stem = html.escape(block.stem)
    if block.inline:
        picture = _SVG_PROLOG.sub("", block.inline, count=1).strip()
        files = f'<a href="{stem}.svg">SVG</a>, <a href="{stem}.png">PNG</a>'
    else:
        picture = f'<img src="{stem}.svg" alt="{caption}">'
        files = f'<a href="{stem}.png">PNG</a>'
    return f"<figure>\n{picture}\n<figcaption>{caption} ({files})</figcaption>\n</figure>"


def _html_block(block: Block) -> str:
    if isinstance(block, Paragraph):
        return f"<p>{''.join(map(_html_inline, block.parts))}</p>"
    if isinstance(block, BulletList):
        items = "\n".join(f"<li>{''.join(map(_html_inline, item))}</li>" for item in block.items)
        return f"<ul>\n{items}\n</ul>"
    if isinstance(block, Table):
        return _html_table(block)
    if isinstance(block, Figure):
        return _html_figure(block)
    raise TypeError(f"not a document block: {block!r}")


def render_html(document: Document) -> str:
    """The page: its title, what stands before its first heading (what the page is), the contents
    list, then its sections."""
    title = html.escape(document.title)
    anchors = iter(heading_ids(document))
    headings, opening, sections = [], [], []
    for block in document.blocks:
        if isinstance(block, Heading):
            anchor = next(anchors)
            headings.append((block, anchor))
            sections.append(_html_heading(block, anchor))
        else:
            (sections if headings else opening).append(_html_block(block))
    body = "\n".join(part for part in (*opening, _html_contents(headings), *sections) if part)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n<style>\n{_STYLE}\n{_verdict_style()}\n</style>\n</head>\n<body>\n"
        f"<h1>{title}</h1>\n{body}\n</body>\n</html>\n"
    )
