"""Forest plots of a claims ledger, drawn from a ledger made here: one row per claim, each on its own scale.

The ledger holds one claim of every kind of row the plot draws: a value inside the paper's
band, a value outside it, an ordering (open side) that holds, one that is broken, a
deterministic value (no interval), an ordered outcome (a median, no interval), a claim not
attempted, and a calibration row; each with a unit of its own.
"""

from __future__ import annotations

import html
import math
import re

import pandas as pd
import pytest

from schedlab.reports.document import VERDICT_COLOURS, Document, Heading, render_html
from schedlab.reports.forest import claim_anchors, forest_figure, inline_svg, paper_text, row_scale, write_forests
from schedlab.reports.headline import forest_blocks
from schedlab.reports.ledger import VERDICTS

INF = math.inf
NAN = math.nan
ROWS = [
    # claim, unit, ours, low, high, paper_low, paper_high, verdict, basis, link
    ("wait-value", "min", 60.0, 55.0, 66.0, 54.9, 67.1, "reproduced", "result", "fig03.png"),
    ("loss-value", "%", 9.0, 8.0, 10.0, 0.46, 4.6, "not_reproduced", "result", "fig06.png"),
    ("hold-worse", "min", 25.5, 18.8, 32.2, 0.0, INF, "reproduced", "result", "fig07.png"),
    ("sync-narrower", "s", 4.0, 2.0, 6.0, -INF, 0.0, "not_reproduced", "result", ""),
    ("cut-size", "%", 14.9, 14.9, 14.9, 38.1, 46.5, "partial", "result", "table2.md"),
    ("saturation", "% of capacity", 80.0, NAN, NAN, 75.0, 80.0, "inconclusive", "result", "fig10.png"),
    ("npb-hardware", "s", NAN, NAN, NAN, 0.0, INF, "not_attempted", "result", "fig13.png"),
    ("base-slowdown", "", 6.0, 5.8, 6.3, 5.49, 6.71, "reproduced", "calibration", "fig04.png"),
]


def make_ledger(paper="cosched") -> pd.DataFrame:
    return pd.DataFrame(
        [{"paper": paper, "claim_id": claim, "unit": unit, "ours": ours, "low": low, "high": high,
          "paper_low": paper_low, "paper_high": paper_high, "verdict": verdict, "basis": basis, "link": link,
          "statement": f"statement of {claim}", "profile": "quick", "seeds": 5}
         for claim, unit, ours, low, high, paper_low, paper_high, verdict, basis, link in ROWS])


def test_every_verdict_has_its_colour():
    assert set(VERDICT_COLOURS) == set(VERDICTS)


def test_the_papers_value_reads_as_a_band_a_number_or_a_side():
    assert paper_text(54.9, 67.1, "min") == "54.9 to 67.1 min"
    assert paper_text(0.0, INF, "min") == "> 0 min"
    assert paper_text(-INF, 0.0, "s") == "< 0 s"
    assert paper_text(6.1, 6.1, "") == "6.1"
    assert paper_text(NAN, NAN, "%") == ""


def test_each_row_is_scaled_to_its_own_numbers():
    ledger = make_ledger()
    scales = {row.claim_id: row_scale(row) for row in ledger.itertuples()}
    low, high = scales["loss-value"]  # the paper's 0.46..4.6 % and our 8..10 % both in view
    assert low < 0.46 and high > 10.0 and (high - 10.0) == pytest.approx(0.46 - low)
    low, high = scales["hold-worse"]  # an open side: the bound and our interval
    assert low < 0.0 < 18.8 < 32.2 < high
    assert scales["npb-hardware"] == (-1.0, 1.0)  # only the bound: a range around it


def test_a_forest_plot_draws_a_row_per_claim_with_its_numbers_and_links(tmp_path):
    ledger = pd.concat([make_ledger("cosched"), make_ledger("ics").iloc[:2]], ignore_index=True)
    anchors = claim_anchors(ledger)
    assert anchors[:2] == ["cosched-wait-value", "cosched-loss-value"] and anchors[2] == "hold-worse"
    written = write_forests(tmp_path, ledger, {"cosched": "cosched: the paper"})
    assert list(written) == ["cosched", "ics"]
    stem, markup = written["cosched"]
    assert stem == "forest-cosched" and (tmp_path / "forest-cosched.png").is_file()
    assert markup.startswith("<svg") and markup == inline_svg((tmp_path / "forest-cosched.svg").read_text())
    text = html.unescape(" ".join(re.findall(r">([^<>]+)</text>", markup)))
    for claim, *_ in ROWS:
        assert claim in text
    # Our numbers with their units, the paper's value, the verdict in words (a calibration row says so).
    for shown in ("60 min [55, 66]", "9 % [8, 10]", "54.9 to 67.1 min", "0.46 to 4.6 %", "> 0 min", "< 0 s",
                  "80 % of capacity", "75 to 80 % of capacity", "not attempted", "reproduced (calibration)",
                  "not reproduced", "inconclusive", "partial", "cosched: the paper"):
        assert shown in text, shown
    # The claim's name links to its ledger row, its interval to its figure; a claim without a link has none.
    assert 'href="#cosched-wait-value"' in markup and 'href="#hold-worse"' in markup
    assert markup.count('href="fig03.png"') >= 2 and 'href="table2.md"' in markup
    # Coloured by verdict: the green of reproduced, the red of not reproduced.
    assert VERDICT_COLOURS["reproduced"].ink in markup and VERDICT_COLOURS["not_reproduced"].ink in markup
    # No element id repeats between two plots on one page: only the ids the SVG itself refers to remain.
    ids = [re.findall(r'\sid="([^"]+)"', written[paper][1]) for paper in written]
    assert not set(ids[0]) & set(ids[1])
    assert all(re.search(rf'#{re.escape(i)}\b', written["cosched"][1]) for i in ids[0])


def test_the_forest_plot_is_drawn_into_the_page_with_working_links(tmp_path):
    written = write_forests(tmp_path, make_ledger(), {})
    page = render_html(Document("index", (Heading("Headline"), *forest_blocks(written, {}))))
    assert "<img" not in page  # an <img> would show the plot with its links dead
    assert re.search(r"<figure>\n<svg[^>]*>", page) and 'href="#wait-value"' in page
    assert '<a href="forest-cosched.svg">SVG</a>' in page and '<a href="forest-cosched.png">PNG</a>' in page


def test_the_same_ledger_draws_the_same_bytes(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    write_forests(first, make_ledger(), {})
    write_forests(second, make_ledger(), {})
    for name in ("forest-cosched.png", "forest-cosched.svg"):
        assert (first / name).read_bytes() == (second / name).read_bytes()


def test_a_forest_figure_of_one_claim_not_attempted():
    figure = forest_figure(make_ledger().iloc[[6]], "one claim")
    assert figure.get_figheight() > 1.0
