"""The five-paper claims ledger on the front page.

Plain tests stack constructed stage ledgers and render the headline.  The tests on a
built report read the FullReport that ``.ci/run`` builds with every stage (it exports
``SCHEDLAB_FULLREPORT_WORK_DIR``); without it they skip, saying so.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

from schedlab.reports.document import Document, render_markdown
from schedlab.reports.headline import CURRENT, STALE, UNCHECKED, differing, every_claim_document, headline_blocks, key_figures, stacked_ledger, stale_papers, with_other_profile
from schedlab.reports.ledger import LEDGER_COLUMNS, Claim, Measurement, Part, ledger, read_ledger, write_ledger

SEEDS = (1, 2, 3, 4, 5)


def constant(values):
    return lambda results: Measurement((Part("", tuple(values), SEEDS),))


def stage_ledger(paper, rising=True):
    claims = [
        Claim("trend", "Fig. 3", "wait rises with load", "trend", "rises", "slope of mean wait per seed",
              constant([1, 1.1, 0.9, 1.2, 1] if rising else [-1, -1.1, -0.9, -1.2, -1]), link="fig03.png"),
        Claim("table", "Table 2", "A beats B", "ordering", "A < B", "paired difference",
              constant([2, 2.1, 1.9, 2.2, 2]), link="results.md"),
    ]
    return ledger(paper, claims, {}, "quick")


def test_stacked_ledger_links_into_each_stage_directory():
    stacked = stacked_ledger({"a": (stage_ledger("a"), "A/key1"), "b": (stage_ledger("b"), "B/key2")})
    assert list(stacked["link"]) == ["A/key1/fig03.png", "A/key1/results.md", "B/key2/fig03.png", "B/key2/results.md"]
    assert tuple(stacked.columns[: len(LEDGER_COLUMNS)]) == LEDGER_COLUMNS
    assert key_figures(stacked) == {"a": "A/key1/fig03", "b": "B/key2/fig03"}


def test_a_broken_trend_shows_as_not_reproduced_on_the_front_page():
    stacked = stacked_ledger({"a": (stage_ledger("a", rising=False), "A")})
    page = render_markdown(Document("index", tuple(headline_blocks(stacked, None, {}, "paper-ledger.csv", {}))))
    assert "| a | 1 | 0 | 1 | 0 | 0 | 2 |" in page  # reproduced, partial, not reproduced, ...
    assert "![a: key figure](A/fig03.png)" in page
    assert "[a trend]" not in page and "[its page](every-claim.html)" in page  # the rows are on a page of their own
    row = next(line for line in render_markdown(every_claim_document(stacked)).splitlines() if "[a trend]" in line)
    assert "not reproduced" in row and "below 0, not above 0" in row


def test_verdicts_that_differ_between_profiles_are_flagged_and_stale_papers_named():
    quick = stacked_ledger({"a": (stage_ledger("a"), "A")})
    paper = stage_ledger("a", rising=False).assign(code_version="old", run_date="2026-11-01", wall_seconds=12.0)
    flagged = with_other_profile(quick, paper)
    assert list(differing(flagged)["claim_id"]) == ["trend"]
    assert stale_papers(paper, {"a": "new"}) == {"a": STALE}
    assert stale_papers(paper, {"a": "old"}) == {"a": CURRENT}
    assert stale_papers(paper, {}) == {"a": UNCHECKED}
    page = render_markdown(Document("index", tuple(headline_blocks(flagged, paper, {"a": STALE}, "paper-ledger.csv", {}))))
    assert "stale: code or inputs changed since" in page
    assert "| a | [trend](A/fig03.png) | wait rises with load | reproduced | not reproduced |" in page
    assert "not reproduced (differs)" in render_markdown(every_claim_document(flagged))


def test_ledger_files_round_trip(tmp_path):
    frame = stage_ledger("a")
    write_ledger(tmp_path, frame)
    back = read_ledger(tmp_path / "claims.csv")
    assert list(back["verdict"]) == list(frame["verdict"])
    assert back["ours"].to_numpy() == pytest.approx(frame["ours"].to_numpy())
    assert (tmp_path / "claims.md").is_file() and (tmp_path / "claims.tex").is_file()


BUILT = os.environ.get("SCHEDLAB_FULLREPORT_WORK_DIR")
needs_built = pytest.mark.skipif(
    not BUILT, reason="needs a FullReport with every stage: set SCHEDLAB_FULLREPORT_WORK_DIR to its work directory "
    "(.ci/run builds one and sets it)"
)


@pytest.fixture(scope="module")
def built_report() -> Path:
    reports = sorted((Path(BUILT) / "FullReport").glob("*/claims.csv"), key=lambda p: p.stat().st_mtime)
    assert reports, f"no FullReport with a claims.csv under {BUILT}"
    return reports[-1].parent


@needs_built
def test_the_five_paper_ledger_is_complete(built_report):
    claims = read_ledger(built_report / "claims.csv")
    assert sorted(set(claims["paper"])) == ["bandwidth", "cosched", "cosy", "ics", "koala"]
    assert len(claims) >= 90
    judged = claims[claims["verdict"] != "not_attempted"]
    by_sides = judged["reason"].str.contains(r"\d+ of \d+ seeds")  # ordered outcomes: each seed counts by its side
    measured = judged[judged["ours"].map(math.isfinite)]
    with_interval = measured["low"].map(math.isfinite) & measured["high"].map(math.isfinite)
    assert (with_interval | by_sides[measured.index]).all()
    unmeasured = judged[~judged["ours"].map(math.isfinite)]  # e.g. every seed censored beyond the grid's end
    assert ((unmeasured["verdict"] == "inconclusive") | by_sides[unmeasured.index]).all()
    assert (unmeasured["reason"] != "").all()
    assert len(measured) >= 60
    assert not judged["reason"].str.contains("are needed to decide").any(), "a stochastic claim ran on too few seeds"
    assert ((judged["seeds"] == 1) | (judged["seeds"] >= 5)).all()
    missing = [link for link in claims["link"] if link and not (built_report / link).is_file()]
    assert not missing, f"claim links to missing files: {missing[:5]}"
    index = (built_report / "index.md").read_text(encoding="utf-8")
    assert index.split("\n")[2].startswith("## Headline")
    assert index.count("![") >= 5  # a key figure per paper


@needs_built
@pytest.mark.skipif(not __import__("shutil").which("chromium"), reason="needs headless Chromium: apt-get install -y chromium")
def test_every_claim_link_of_the_built_report_opens_in_chromium(built_report, tmp_path):
    from tests.test_fullreport_browser import browse

    result = browse(built_report / "index.html", tmp_path)
    claim_links = [link for link in result["links"] if "Report/" in link["href"]]
    assert len(claim_links) >= 90
    broken = [link["href"] for link in result["links"] if not link["ok"]]
    assert not broken, f"unresolved links: {broken[:10]}"
    assert sum(image["ok"] for image in result["images"]) >= 5
