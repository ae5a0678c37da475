"""Report pages: the same document renders to Markdown and HTML with the right links."""

from reports.document import Code, Document, Figure, Heading, Link, paragraph, render_html, render_markdown, table
import numpy as np
import pandas as pd

from reports.metrics import combined_metrics_table, metrics_table, recorded_wait_comparison
from reports.pages import WARNINGS_SHOWN, index_page, trace_page

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
