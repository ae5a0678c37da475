"""Forest plots of a claims ledger: per paper, each claim a row, our 95 % interval against the paper's value.

A row draws what its claim is judged against as the ledger states it (``paper_low``..``paper_high``, in
the claim's ``unit``: the paper's value, widened where the ledger gives a tolerance of ours): a shaded
band, with an arrow at an open end (an ordering claims a side of its bound, which is drawn dashed), and
over it our interval (``low``..``high``) with our value (``ours``) as a dot, in the colour of the row's
verdict (``schedlab.reports.document.VERDICT_COLOURS``).  Rows measure different things in different
units, so each row has its own scale: the span of its own numbers (the band's finite ends and ours),
padded; no axis is shared and none is ticked.  The numbers themselves stand in the columns to the
right, each with its unit: ours with its interval, what it is judged against (a band of ours says so),
the verdict.  A row without a number of ours says so (not
attempted, or measured without a value, e.g. every seed censored).

In the HTML page (the SVG drawn inline, see ``schedlab.reports.document``) a claim's name links to its
row of the ledger (``#<claim id>``, ``claim_anchors``, on the ledger's page) and its interval, drawn or not,
to the figure or table holding its data (the ledger's ``link``).

Figures are built with matplotlib's object API and saved by ``schedlab.reports.figures.save_figure``
(byte-identical from run to run); the SVG keeps its text as text, so the claims on the page are
found by the browser's search.
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from schedlab.reports.document import VERDICT_COLOURS
from schedlab.reports.figures import save_figure
from schedlab.reports.ledger import claim_anchors, interval_text, quantity, verdict_words

FOREST_STEM = "forest-{paper}"
ROW_INCHES = 0.3
HEADER_INCHES = 1.05
"""Above the rows: the title's first line, and the columns' names."""
TITLE_LINE_INCHES = 0.2
"""Each further line of a title wrapped to the plot's width."""
FOOTER_INCHES = 0.15
CHAR_INCHES = 0.076
"""Width of one character of the 9-point text, on average: the text columns are sized by their longest entry."""
PLOT_INCHES = 3.6
GAP_INCHES = 0.18
FONT_SIZE = 9
ROW_PADDING = 0.08
"""Each row's scale reaches this share of its numbers' span beyond them on either side."""
BAND_COLOUR, BAND_EDGE = "#cfdceb", "#5b7a99"
STRIPE_COLOUR = "#f4f4f4"
NO_VALUE_TEXT = {"not_attempted": "not attempted", "": "no value of ours (the ledger says why)"}
"""Drawn across a row without a number of ours, whose number columns stay empty."""


def paper_text(low: float, high: float, unit: str) -> str:
    """The paper's value as the plot shows it: a band "a to b unit", one number, or an open side "> a unit"."""
    if math.isnan(low) and math.isnan(high):
        return ""
    if math.isinf(high) and math.isinf(low):
        return "any"
    if math.isinf(high):
        return f"> {quantity(low, unit)}"
    if math.isinf(low):
        return f"< {quantity(high, unit)}"
    if low == high:
        return quantity(low, unit)
    return f"{quantity(low, '')} to {quantity(high, unit)}"


def row_scale(row) -> tuple[float, float] | None:
    """The row's own x range: the span of its finite numbers (ours and the paper's ends), padded."""
    values = [v for v in (row.low, row.high, row.ours, row.paper_low, row.paper_high) if math.isfinite(v)]
    if not values:
        return None
    low, high = min(values), max(values)
    span = high - low
    if span == 0:  # one number alone: a range around it
        half = abs(low) * 0.5 or 1.0
        return low - half, high + half
    return low - ROW_PADDING * span, high + ROW_PADDING * span


def _verdict_words(row) -> str:
    words = verdict_words(row.verdict)
    basis = getattr(row, "basis", "result") or "result"
    return words if basis == "result" else f"{words} ({basis})"


def _ours_text(row) -> str:
    return interval_text(row.ours, row.low, row.high, row.unit) if math.isfinite(row.ours) else ""


def judged_text(row) -> str:
    """What a row is judged against: the paper's value as stated, or, where the ledger widens it by a tolerance
    of ours, the band that makes, said to be ours (``+-10 % of the paper's value`` and the like)."""
    band = paper_text(row.paper_low, row.paper_high, row.unit)
    tolerance = getattr(row, "tolerance", "")
    if not band or not isinstance(tolerance, str) or not tolerance:
        return band
    return f"{band} (ours: {tolerance.split(' (')[0].replace('+-', '±')})"


def _say_no_value(axes, y: float, row) -> None:
    faint = row.verdict == "not_attempted"
    axes.text(0.5, y, NO_VALUE_TEXT.get(row.verdict, NO_VALUE_TEXT[""]), ha="center", va="center",
              fontsize=FONT_SIZE - 1, style="italic", color=VERDICT_COLOURS["not_attempted"].ink if faint else "#555555")


def _draw_row(axes, y: float, row, colour: str, link: str) -> None:
    """The paper's band and our interval of one row, on the row's own scale (0..1 across the plot column)."""
    scale = row_scale(row)
    if link:  # the whole row of the plot column opens the claim's figure: a clear patch over what it draws
        # (nearly clear: with alpha 0 matplotlib writes no fill, and an SVG shape without one takes no click)
        target = Rectangle((0, y - 0.5), 1, 1, facecolor="white", alpha=0.01, edgecolor="none", zorder=10)
        target.set_url(link)
        axes.add_patch(target)
    if scale is None:
        _say_no_value(axes, y, row)
        return
    start, end = scale

    def at(value: float) -> float:
        return min(max((value - start) / (end - start), 0.0), 1.0)

    band_low, band_high = row.paper_low, row.paper_high
    if not (math.isnan(band_low) and math.isnan(band_high)):
        left, right = at(band_low), at(band_high)
        axes.add_patch(Rectangle((left, y - 0.32), max(right - left, 0.004), 0.64, facecolor=BAND_COLOUR,
                                 edgecolor="none"))
        for value, side_marker in ((band_low, "<"), (band_high, ">")):
            if math.isinf(value):  # an open side: the band runs on past the row's scale
                axes.plot([at(value)], [y], marker=side_marker, markersize=5, color=BAND_EDGE, linestyle="none",
                          clip_on=False)
            else:
                dashed = math.isinf(band_low) or math.isinf(band_high)  # the bound of an ordering
                axes.plot([at(value)] * 2, [y - 0.36, y + 0.36], color=BAND_EDGE, linewidth=1.0,
                          linestyle="--" if dashed else "-")
    if not math.isfinite(row.ours):
        _say_no_value(axes, y, row)
        return
    if math.isfinite(row.low) and math.isfinite(row.high):
        axes.add_line(Line2D([at(row.low), at(row.high)], [y, y], color=colour, linewidth=2.4,
                             solid_capstyle="butt", zorder=3))
        axes.plot([at(row.low), at(row.high)], [y, y], color=colour, linestyle="none", marker="|", markersize=7,
                  markeredgewidth=1.4, zorder=3)
    axes.plot([at(row.ours)], [y], marker="o", markersize=5.5, color=colour, markeredgecolor="white",
              markeredgewidth=0.8, linestyle="none", zorder=4, clip_on=False)


TEXT_COLUMNS = ("ours [95 % interval]", "judged against", "verdict")
"""The columns right of the plot, left to right."""


def forest_figure(claims: pd.DataFrame, title: str, anchors: Sequence[str] | None = None,
                  ledger_page: str = "") -> Figure:
    """One paper's forest plot: a row per claim of ``claims`` (a ledger), in its order.

    ``anchors``: each row's anchor on the ledger's page (``ledger_page``, default this one), which the claim's
    name links to; default the claim ids."""
    anchors = list(claims["claim_id"]) if anchors is None else list(anchors)
    rows = list(claims.itertuples(index=False))
    texts = {
        "claim": [row.claim_id for row in rows],
        "ours [95 % interval]": [_ours_text(row) for row in rows],
        "judged against": [judged_text(row) for row in rows],
        "verdict": [_verdict_words(row) for row in rows],
    }
    widths = {name: CHAR_INCHES * max(len(name), *map(len, column)) for name, column in texts.items()}
    plot_left = GAP_INCHES + widths["claim"] + GAP_INCHES
    lefts, edge = {}, plot_left + PLOT_INCHES  # each text column's left edge, in inches
    for name in TEXT_COLUMNS:
        lefts[name] = edge + GAP_INCHES
        edge = lefts[name] + widths[name]
    width = edge + GAP_INCHES
    title_lines = textwrap.wrap(title, max(int((width - 2 * GAP_INCHES) / (CHAR_INCHES * 1.3)), 20))
    height = (HEADER_INCHES + TITLE_LINE_INCHES * (len(title_lines) - 1) + ROW_INCHES * max(len(rows), 1)
              + FOOTER_INCHES)
    figure = Figure(figsize=(width, height))
    axes = figure.add_axes((plot_left / width, FOOTER_INCHES / height, PLOT_INCHES / width,
                            ROW_INCHES * max(len(rows), 1) / height))
    axes.set_xlim(0, 1)
    axes.set_ylim(len(rows) - 0.5, -0.5)
    axes.set_axis_off()

    def at(inches: float) -> float:  # a position in inches from the figure's left edge, in the axes' x units
        return (inches - plot_left) / PLOT_INCHES

    claim_right = at(plot_left - GAP_INCHES)
    for y, (row, anchor) in enumerate(zip(rows, anchors)):
        colour = VERDICT_COLOURS.get(row.verdict, VERDICT_COLOURS["inconclusive"]).ink
        if y % 2 == 0:
            axes.add_patch(Rectangle((at(GAP_INCHES / 2), y - 0.5), at(width - GAP_INCHES / 2) - at(GAP_INCHES / 2), 1,
                                     facecolor=STRIPE_COLOUR, edgecolor="none", zorder=-2, clip_on=False))
        link = row.link or ""
        _draw_row(axes, y, row, colour, link)
        faint = row.verdict == "not_attempted"
        name = axes.text(claim_right, y, row.claim_id, ha="right", va="center", fontsize=FONT_SIZE,
                         color=VERDICT_COLOURS["not_attempted"].ink if faint else "#1a4f8b")
        name.set_url(f"{ledger_page}#{anchor}")
        for column in TEXT_COLUMNS:
            verdict = column == "verdict"
            text = axes.text(at(lefts[column]), y, texts[column][y], ha="left", va="center", fontsize=FONT_SIZE,
                             color=colour if verdict else "#222222", fontweight="bold" if verdict else "normal")
            if column == "ours [95 % interval]" and link:
                text.set_url(link)
    header_y = -0.65  # just above the first row, in rows
    axes.text(claim_right, header_y, "claim", ha="right", va="bottom", fontsize=FONT_SIZE, fontweight="bold")
    for column in TEXT_COLUMNS:
        axes.text(at(lefts[column]), header_y, column, ha="left", va="bottom", fontsize=FONT_SIZE, fontweight="bold")
    axes.text(0.5, header_y, "each row on its own scale\nshaded: what it is judged against (arrow: open side)\n"
              "line and dot: our 95 % interval and mean", ha="center", va="bottom", fontsize=FONT_SIZE - 1.5,
              color="#444444", linespacing=1.15)
    figure.text(GAP_INCHES / width, 1 - 0.12 / height, "\n".join(title_lines), ha="left", va="top",
                fontsize=FONT_SIZE + 2, fontweight="bold", linespacing=1.2)
    return figure


_ID = re.compile(r'\sid="([^"]+)"')


def inline_svg(svg: str) -> str:
    """An SVG file's markup made fit to sit inside an HTML page: no XML prolog; only the element ids
    its own references use (matplotlib names every element, "figure_1", "patch_3"..., the same in
    every figure; several figures on one page would repeat them); links that open in the page, as
    every other link of it does (matplotlib opens each in a new window)."""
    markup = svg[svg.index("<svg"):].replace(' target="_blank"', "")
    referenced = set(re.findall(r'(?:url\(#|href="#)([^")]+)', markup))
    return _ID.sub(lambda found: found.group(0) if found.group(1) in referenced else "", markup)


def write_forest(directory, stem: str, figure: Figure) -> str:
    """Save ``figure`` as ``stem``.png and .svg (text kept as text) in ``directory``; its inline SVG markup."""
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        save_figure(figure, directory, stem)
    return inline_svg((Path(directory) / f"{stem}.svg").read_text(encoding="utf-8"))


def write_forests(directory, ledger: pd.DataFrame, titles: Mapping[str, str],
                  ledger_page: str = "") -> dict[str, tuple[str, str]]:
    """A forest plot per paper of ``ledger`` (in its order) written to ``directory``: per paper, its
    stem and inline SVG markup.  ``titles``: per paper, the plot's title (default its name); ``ledger_page``:
    the page whose rows the claims' names open (default the plot's own)."""
    anchors = pd.Series(claim_anchors(ledger), index=ledger.index)
    written = {}
    for paper, claims in ledger.groupby("paper", sort=False):
        stem = FOREST_STEM.format(paper=paper)
        figure = forest_figure(claims, titles.get(paper, paper), anchors[claims.index], ledger_page)
        written[paper] = (stem, write_forest(directory, stem, figure))
    return written
