"""Report pages: the same document renders to Markdown and HTML with the right links."""

import re

import numpy as np
import pandas as pd
import pytest

from schedlab.reports.document import (VERDICT_COLOURS, Code, Document, Figure, Heading, Link, paragraph, render_html,
                              render_markdown, table, verdict_of)
from schedlab.reports.headline import every_claim_document, headline_blocks, stacked_ledger, with_other_profile
from schedlab.reports.ledger import VERDICTS, Claim, Measurement, Part, ledger

from schedlab.reports.metrics import combined_metrics_table, metrics_table, recorded_wait_comparison
from schedlab.reports.pages import WARNINGS_SHOWN, index_page, trace_page

SETTINGS = {"policies": ["fcfs", "easy"], "order": "fcfs", "estimates": "requested"}

TRACE = {
    "name": "KTH-SP2",
    "machine_procs": 100,
    "jobs": 9,
    "source": {
        "kind": "trace",
        "file_name": "KTH-SP2.swf",
        "file_sha256": "ab" * 32,
        "jobs_parsed": 10,
        "header": {"computer": "IBM SP2", "installation": ""},
    },
}
SYNTHETIC = {
    "name": "lublin-feitelson-64p-9j-seed1",
    "machine_procs": 64,
    "jobs": 9,
    "source": {"kind": "synthetic", "model": "lublin-feitelson-1999", "seed": 1, "n_jobs": 9},
}
CLEANING = {
    "jobs_in": 10,
    "jobs_out": 9,
    "steps": [{"name": "too_wide", "description": "jobs wider than | the machine", "removed": 1}],
}

NO_RECORDED_WAITS = recorded_wait_comparison({"fcfs": pd.DataFrame({"submit": [0.0], "start": [5.0], "recorded_wait": [np.nan]})})


def metrics():
    return metrics_table({"fcfs": {"mean_wait": 5.0, "jobs": 9.0}, "easy": {"mean_wait": 1.0, "jobs": 9.0}})

def test_document_renders_links_code_tables_and_figures_in_both_formats():
    document = Document(
        "T <1>",
        (
            Heading("H"),
            paragraph("see ", Link("page", "../x/report", page=True), " and ", Code("a<b")),
            table(("a", "n"), [("x|y", "1")], right_aligned={1}),
            Figure("wait_cdf", "Wait CDF"),
        ),
    )
    markdown = render_markdown(document)
    assert markdown.startswith("# T <1>\n\n## H\n\nsee [page](../x/report.md) and `a<b`\n")
    assert "| a | n |\n| --- | ---: |\n| x\\|y | 1 |" in markdown
    assert "![Wait CDF](wait_cdf.png)" in markdown
    page = render_html(document)
    assert "<title>T &lt;1&gt;</title>" in page
    assert '<a href="../x/report.html">page</a>' in page and "<code>a&lt;b</code>" in page
    assert '<td class="number">1</td>' in page
    assert '<div class="table-box"><table>' in page and ".table-box { max-width: 100%; overflow-x: auto;" in page
    assert '<img src="wait_cdf.svg" alt="Wait CDF">' in page and '<a href="wait_cdf.png">PNG</a>' in page

def test_trace_page_shows_source_metrics_cleaning_and_warnings():
    workload = {**TRACE, "source": {**TRACE["source"], "warnings": [f"line {i}: odd" for i in range(WARNINGS_SHOWN + 3)]}}
    document = trace_page(workload, metrics(), SETTINGS, CLEANING, [("wait_cdf", "Wait CDF")], NO_RECORDED_WAITS)
    markdown = render_markdown(document)
    assert "Policies replayed: fcfs, easy; queue order fcfs; run-time estimates: requested (where" in markdown
    assert f"`{'ab' * 32}`" in markdown and "IBM SP2" in markdown and "installation" not in markdown
    assert "| mean wait (s) | 5 | 1 |" in markdown
    assert "1 filters ran, in this order; 10 jobs in, 9 jobs out." in markdown
    assert "| too_wide | jobs wider than \\| the machine | 1 |" in markdown
    assert "`line 49: odd`" in markdown and "line 50: odd" not in markdown
    assert "... and 3 more" in markdown

def test_trace_page_shows_the_tails_beside_the_means():
    from schedlab.simulators.core.tails import tails_table

    tails = tails_table({"fcfs": np.array([0.0, 90_000.0, 700_000.0]), "easy": np.zeros(3)},
                        {"fcfs": np.array([1, 1, 2]), "easy": np.array([1, 1, 2])})
    markdown = render_markdown(trace_page(TRACE, metrics(), SETTINGS, CLEANING, [], NO_RECORDED_WAITS, None, tails))
    assert "## Tails" in markdown and markdown.index("## Metrics") < markdown.index("## Tails")
    # fcfs: percentiles of (0, 90,000, 700,000) s by linear interpolation, 639,000 and 687,800 s; users' mean
    # waits 45,000 and 700,000 s, Jain's index 745,000^2 / (2 (45,000^2 + 700,000^2)) = 0.564
    assert "| fcfs | 177.50 | 191.06 | 194.44 | 2 | 1 | 194.44 | 0.564 |" in markdown
    assert "| easy | 0.00 | 0.00 | 0.00 | 0 | 0 | 0.00 | 1.000 |" in markdown


def test_trace_page_of_a_synthetic_workload():
    workload = {**SYNTHETIC, "offered_load": 0.71234, "requested_times": "exact estimates (requested time = run time)"}
    markdown = render_markdown(trace_page(workload, metrics(), SETTINGS, None, [], NO_RECORDED_WAITS))
    assert "| model | lublin-feitelson-1999 |" in markdown and "| seed | 1 |" in markdown
    assert "| offered load | 0.712 |" in markdown and "| requested times | exact estimates" in markdown
    assert "no filter ran" in markdown and "The parser reported no warnings." in markdown

def test_index_page_names_real_traces_by_checksum():
    combined = combined_metrics_table({"KTH-SP2": metrics()})
    markdown = render_markdown(index_page([(TRACE, "../T/report")], combined, SETTINGS, None))
    assert "Real traces (1), named by file and SHA-256 checksum:" in markdown
    assert f"| [KTH-SP2](../T/report.md) | KTH-SP2.swf | `{'ab' * 32}` | 9 | 100 |" in markdown
    assert "synthetic" not in markdown
    html = render_html(index_page([(TRACE, "../T/report")], combined, SETTINGS, None))
    assert '<a href="../T/report.html">KTH-SP2</a>' in html

def test_index_page_says_when_the_synthetic_default_was_used():
    combined = combined_metrics_table({SYNTHETIC["name"]: metrics()})
    document = index_page([(SYNTHETIC, "../S/report")], combined, SETTINGS, ["raw_traces"])
    markdown = render_markdown(document)
    assert "No trace was found in the trace directories (raw_traces)" in markdown
    assert "embedded synthetic default" in markdown
    assert "| [lublin-feitelson-64p-9j-seed1](../S/report.md) | lublin-feitelson-1999 | 1 | 9 | 64 |" in markdown


def test_the_logs_recorded_waits_stand_beside_the_replays_over_the_same_jobs():
    # Four jobs submitted at 0; the log recorded waits for the first three only (60, 0, 600 s).
    schedule = {"submit": [0.0] * 4, "recorded_wait": [60.0, 0.0, 600.0, np.nan]}
    schedules = {
        "fcfs": pd.DataFrame({**schedule, "start": [120.0, 0.0, 30.0, 9999.0]}),
        "easy": pd.DataFrame({**schedule, "start": [0.0, 0.0, 0.0, 9999.0]}),
    }
    comparison = recorded_wait_comparison(schedules)
    assert comparison["source"].tolist() == ["recorded in the log", "fcfs", "easy"]
    assert comparison["jobs"].tolist() == [3, 3, 3]  # job 4's wait is unknown in the log: left out everywhere
    assert comparison["mean_wait"].tolist() == [220.0, 50.0, 0.0]
    assert comparison["median_wait"].tolist() == [60.0, 30.0, 0.0]
    markdown = render_markdown(trace_page(TRACE, metrics(), SETTINGS, CLEANING, [], comparison))
    assert "| waits | jobs | mean wait (s) | median wait (s) | 95th percentile wait (s) |" in markdown
    assert "| recorded in the log | 3 | 220 | 60 |" in markdown and "| fcfs | 3 | 50 | 30 |" in markdown
    assert "nothing to set the replay's waits against" in render_markdown(
        trace_page(TRACE, metrics(), SETTINGS, CLEANING, [], NO_RECORDED_WAITS))


def test_every_html_page_lists_its_headings_and_anchors_each_one():
    document = Document("T", (Heading("Setup"), Heading("Runs", 3), Heading("Figures"), Heading("Figures"),
                              Heading("Causes", 4), Heading("fig3-a", 3),
                              table(("claim", "verdict"), [("fig3-a", "reproduced")], row_ids=["fig3-a"])))
    page = render_html(document)
    contents = page[page.index('<nav class="contents" id="contents"'):page.index("</nav>")]
    # Nested by level, every heading once; a repeated heading and one named like a claim row get their own ids.
    assert re.findall(r'href="#([^"]+)"', contents) == ["setup", "runs", "figures", "figures-2", "causes", "fig3-a-2"]
    assert contents.index("<ol>") < contents.index("setup") < contents.index("<ol>", contents.index("setup"))
    assert '<h2 id="setup">Setup<a class="anchor" href="#setup"' in page and '<h3 id="fig3-a-2">' in page
    assert page.count('href="#contents"') == 6  # from every heading back up
    assert '<tr id="fig3-a">' in page
    assert "<nav" not in render_html(Document("T", (Heading("only one"), paragraph("x"))))
    opening = render_html(Document("T", (paragraph("what the page is"), Heading("A"), Heading("B"))))
    assert opening.index("<p>what the page is</p>") < opening.index("<nav") < opening.index('<h2 id="a">')


def test_verdicts_are_coloured_wherever_a_table_shows_one():
    rows = [(verdict, verdict.replace("_", " "), verdict.replace("_", " ") + " (calibration)") for verdict in VERDICTS]
    page = render_html(Document("T", (table(("raw", "words", "qualified"), rows + [("reproducedx", "partially", "")]),)))
    for verdict in VERDICTS:
        css = f"verdict-{verdict.replace('_', '-')}"
        assert page.count(f'class="verdict {css}"') == 3, verdict  # its raw name, its words, with a qualifier
        assert f"td.{css} {{ background: {VERDICT_COLOURS[verdict].tint}; }}" in page
    assert "<td>reproducedx</td>" in page and "<td>partially</td>" in page
    assert verdict_of("not reproduced (differs)") == "not_reproduced" and verdict_of("reproduced here") is None


def test_table_row_ids_are_one_per_row_and_unique():
    with pytest.raises(ValueError, match="2 row ids for 1 rows"):
        table(("a",), [("x",)], row_ids=["x", "y"])
    with pytest.raises(ValueError, match="repeat"):
        table(("a",), [("x",), ("y",)], row_ids=["x", "x"])


def test_an_inline_figure_is_drawn_into_the_html_page_and_shown_as_png_in_markdown():
    svg = '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg xmlns="http://www.w3.org/2000/svg"><a href="#c1"><text>c1</text></a></svg>'
    document = Document("T", (Figure("forest-a", "Forest", inline=svg),))
    page = render_html(document)
    assert '<figure>\n<svg xmlns="http://www.w3.org/2000/svg"><a href="#c1">' in page and "<?xml" not in page
    assert "![Forest](forest-a.png)" in render_markdown(document)


def test_the_page_of_every_claim_anchors_each_and_the_index_tables_the_verdicts_that_differ_between_profiles():
    claims = [Claim(claim_id, "Fig. 3", f"statement {claim_id}", "ordering", "A < B", "paired difference",
                    lambda results, values=values: Measurement((Part("", values, (1, 2, 3, 4, 5)),)), unit="min",
                    link="fig03.png")
              for claim_id, values in (("flips", (1.0, 1.1, 0.9, 1.2, 1.0)), ("holds", (2.0, 2.1, 1.9, 2.2, 2.0)))]
    quick = stacked_ledger({"a": (ledger("a", claims, {}, "quick"), "A")})
    paper = quick.assign(verdict=["not_reproduced", "reproduced"], profile="paper", code_version="v",
                         run_date="2026-11-01", wall_seconds=10.0)
    flagged = with_other_profile(quick, paper)
    blocks = headline_blocks(flagged, paper, {}, "paper-ledger.csv", {})
    page = render_html(every_claim_document(flagged))
    assert '<tr id="flips">' in page and '<tr id="holds">' in page
    assert '<tr id="flips">' not in render_html(Document("index", tuple(blocks)))
    markdown = render_markdown(Document("index", tuple(blocks)))
    assert ("| paper | claim | claim (our words) | verdict in this run (quick) | verdict at the paper profile |"
            in markdown)
    assert "| a | [flips](A/fig03.png) | statement flips | reproduced | not reproduced |" in markdown
    assert "holds | reproduced | reproduced" not in markdown


def test_an_index_without_stages_says_no_claim_is_judged_in_it():
    empty = stacked_ledger({})
    markdown = render_markdown(Document("index", tuple(headline_blocks(empty, None, {}, "paper-ledger.csv", {}))))
    assert "No simulator stage is part of this build, so no claim is judged in it." in markdown
    assert "0 claims" not in markdown and "Every claim" not in markdown
