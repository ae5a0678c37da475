"""The full report opened in a real browser: every page, figure and link resolves.

A small FullReport (two tiny synthetic workloads and the fastest stage, koala, at its
quick profile) is built in a temporary work directory with the ``luigi`` command, whose
output is checked (a few lines, the report's path last), then headless Chromium loads the
index and every report page it links to, inside a checker page, and reports for each
page whether every image decoded and every link could be fetched.  The Markdown twins
are checked on disk.  Without Chromium (``apt-get install -y chromium``) the browser
test skips, saying so.

The checker shows each page in a 1400 px wide frame, a laptop window, and reports what
sticks out of it: a page a reader scrolls sideways.  A table may be wider than the window
only inside its own scrolling box.  The ICS and bandwidth pages, written from tiny runs
(the quick profile takes minutes), and a real log's page (the waits it recorded beside
the replay's) are checked that way too.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import luigi
import pandas as pd
import pytest

from tests.conftest import no_traces, shared_path

REPOSITORY = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WINDOW_WIDTH = 1400
"""Pixels: the laptop window every page must fit without scrolling sideways."""
RECORDED_TRACE = "HPC2N-2002-2.2-cln.first3171"
SMALL = {"synthetic_machine_procs": [16, 32], "synthetic_jobs": 150, "synthetic_seed": 3, "stages": ["koala"]}

CHECKER = """<!DOCTYPE html>
<html><body><pre id="result">the page did not load</pre>
<iframe id="page" style="width: {width}px; height: 900px; border: 0" src="{url}"></iframe>
<script>
const frame = document.getElementById("page");
function fetchable(url) {{
  return new Promise(resolve => {{
    const request = new XMLHttpRequest();
    request.open("GET", url);
    request.onload = () => resolve(request.responseText.length > 0);
    request.onerror = () => resolve(false);
    request.send();
  }});
}}
frame.addEventListener("load", async () => {{
  const doc = frame.contentDocument;
  const images = [...doc.images].map(img => ({{src: img.src, ok: img.complete && img.naturalWidth > 0}}));
  const links = [];
  for (const anchor of doc.querySelectorAll("a[href]")) {{
    links.push({{href: anchor.href, ok: await fetchable(anchor.href)}});
  }}
  // What reaches past the window's right edge, tables' contents aside (they scroll in their box).
  const width = doc.documentElement.clientWidth;
  const wide = [...doc.body.querySelectorAll("*")]
    .filter(e => !(e.parentElement && e.parentElement.closest(".table-box")))
    .filter(e => e.getBoundingClientRect().right > width + 1)
    .map(e => e.tagName.toLowerCase() + ": " + (e.getAttribute("src") || e.textContent).trim().slice(0, 60));
  const overflow = {{width, page_width: doc.documentElement.scrollWidth, wide: wide.slice(0, 10)}};
  document.getElementById("result").textContent = JSON.stringify({{title: doc.title, images, links, overflow}});
}});
</script></body></html>
"""


def browse(page: Path, scratch: Path) -> dict:
    """Load ``page`` in headless Chromium; its title and, per image and link, whether it resolved."""
    checker = scratch / f"check-{len(list(scratch.glob('check-*')))}.html"
    checker.write_text(CHECKER.format(url=page.resolve().as_uri(), width=WINDOW_WIDTH), encoding="utf-8")
    command = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={scratch / 'profile'}", "--allow-file-access-from-files",
        "--virtual-time-budget=30000", "--dump-dom", checker.as_uri(),
    ]  # fmt: skip
    dom = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout
    found = re.search(r'<pre id="result">(.*?)</pre>', dom, re.DOTALL)
    assert found, f"no result from the checker page:\n{dom[:2000]}"
    text = found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
    assert text.startswith("{"), f"{page}: {text}"
    return json.loads(text)


def sideways(result: dict) -> list[str]:
    """What makes a browsed page scroll sideways in the window: the elements past its edge."""
    overflow = result["overflow"]
    if overflow["page_width"] <= overflow["width"] and not overflow["wide"]:
        return []
    return [f"{overflow['page_width']} px of content in {overflow['width']} px", *overflow["wide"]]


def crawl(index: Path, scratch: Path) -> dict[str, dict]:
    """Every HTML page reachable from ``index`` through links, browsed once each."""
    results, pending = {}, [index.resolve().as_uri()]
    while pending:
        url = pending.pop()
        if url in results:
            continue
        results[url] = browse(Path(url.removeprefix("file://")), scratch)
        pending += [link["href"] for link in results[url]["links"] if link["href"].endswith(".html") and link["ok"]]
    return results


@pytest.fixture(scope="module")
def small_build(tmp_path_factory) -> tuple[Path, list[str]]:
    """The small report built as the README says, with ``luigi`` from the repository root (whose
    ``luigi.cfg`` applies): its directory, and every line the build printed, stdout and stderr."""
    from pipeline import FullReport, settings  # here, not atop: the headline's browser test needs no pipeline

    root = tmp_path_factory.mktemp("fullreport")
    env = {**os.environ, "SCHEDLAB_WORK_DIR": str(root / "work"), "SCHEDLAB_TRACE_DIRS": no_traces(root)}
    env.pop("SCHEDLAB_TRACES", None)
    options = [word for name, value in SMALL.items() for word in (f"--{name.replace('_', '-')}", json.dumps(value))]
    command = [sys.executable, "-m", "luigi", "--module", "pipeline", "FullReport", "--local-scheduler", *options]
    done = subprocess.run(command, cwd=REPOSITORY, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=600, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    with settings.overridden(work_dir=env["SCHEDLAB_WORK_DIR"], trace_dirs=[env["SCHEDLAB_TRACE_DIRS"]]):
        return FullReport(**SMALL).output_dir(), done.stdout.splitlines()


@pytest.fixture(scope="module")
def small_report(small_build) -> Path:
    return small_build[0]


def test_a_build_prints_a_few_lines_and_the_report_path_last(small_build):
    directory, lines = small_build
    print("\n".join(lines))
    assert len(lines) < 40, f"{len(lines)} lines"  # 290 tasks; Luigi's INFO log was about 5 lines a task
    assert not [line for line in lines if line.startswith(("DEBUG", "INFO"))]
    assert Path(lines[-1]) == directory / "index.html" and Path(lines[-1]).samefile(directory.parent / "latest" / "index.html")
    assert any(re.fullmatch(r"\[ *\d+/\d+ tasks\] page written: KoalaReport\(profile=quick\)", line) for line in lines)


QUICK_OUTPUT = os.environ.get("SCHEDLAB_FULLREPORT_OUTPUT")


@pytest.mark.skipif(not QUICK_OUTPUT, reason="needs the output of the default FullReport: set SCHEDLAB_FULLREPORT_OUTPUT "
                    "to a file holding it (.ci/run keeps it and sets it)")
def test_the_default_full_report_prints_under_200_lines_ending_with_its_path():
    lines = Path(QUICK_OUTPUT).read_text(encoding="utf-8").splitlines()
    assert len(lines) < 200, f"{len(lines)} lines"
    assert lines[-1].endswith("/index.html") and Path(lines[-1]).is_file(), lines[-5:]


def test_markdown_twin_links_and_stage_files_resolve(small_report):
    index = (small_report / "index.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)]+)\)", index)
    assert any(target.endswith("/index.md") for target in targets), "no stage report linked"
    missing = [target for target in targets if not (small_report / target).is_file()]
    assert not missing, f"index.md links to missing files: {missing}"
    assert "Stage koala" in index and "On the Benefit of Processor Coallocation" in index
    for extension in ("png", "svg", "csv", "md", "tex"):
        assert re.search(rf"\]\([^)]*KoalaReport/[^)]*\.{extension}\)", index), f"no .{extension} file of koala linked"
    provenance = (small_report / "provenance.csv").read_text(encoding="utf-8")
    assert provenance.count("\nkoala,KoalaRuns,") >= 10


@pytest.mark.skipif(CHROMIUM is None, reason="needs headless Chromium: apt-get install -y chromium")
def test_every_page_figure_and_link_resolves_in_chromium(small_report, tmp_path):
    pages = crawl(small_report / "index.html", tmp_path)
    titles = sorted(result["title"] for result in pages.values())
    print(f"\nbrowsed {len(pages)} pages: {titles}")
    assert len(pages) >= 4, titles  # the index, two workload pages, the koala report
    assert any("koala" in title.lower() or "coallocation" in title.lower() for title in titles), titles
    broken = [
        (url, item.get("src") or item.get("href"))
        for url, result in pages.items()
        for item in (*result["images"], *result["links"])
        if not item["ok"]
    ]
    assert not broken, f"unresolved figures or links: {broken}"
    assert sum(len(result["images"]) for result in pages.values()) >= 6


@pytest.mark.skipif(CHROMIUM is None, reason="needs headless Chromium: apt-get install -y chromium")
def test_the_browser_check_catches_a_missing_figure_and_a_dead_link(tmp_path):
    page = tmp_path / "broken.html"
    page.write_text('<html><head><title>t</title></head><body><img src="nowhere.svg"><a href="gone.csv">x</a></body></html>')
    result = browse(page, tmp_path)
    assert [image["ok"] for image in result["images"]] == [False]
    assert [link["ok"] for link in result["links"]] == [False]


@pytest.fixture(scope="module")
def stage_pages(tmp_path_factory) -> dict[str, Path]:
    """The ICS and bandwidth report pages, written from the tiny profiles of their report tests."""
    from pipeline.bandwidth import BandwidthRuns, report_parameters, result_tables
    from pipeline.ics import report_inputs, run_row
    from schedlab.reports import ics
    from schedlab.reports.bandwidth import write_report
    from schedlab.simulators.bandwidth.experiments import points
    from schedlab.simulators.bandwidth.simulate import simulate_workload
    from schedlab.simulators.ics.experiments import profile_points
    from schedlab.simulators.ics.simulate import simulate
    from tests.test_bandwidth_report import TINY as BANDWIDTH_TINY
    from tests.test_ics_report import TINY as ICS_TINY

    root = tmp_path_factory.mktemp("stage-pages")
    runs = pd.DataFrame([run_row(figure, key, simulate(point)[1])
                         for figure, figure_points in profile_points(ICS_TINY).items()
                         for key, point in figure_points.items()])
    (root / "ics").mkdir()
    ics.write_report(root / "ics", *report_inputs(ICS_TINY, runs))
    outputs = [simulate_workload(task.points()) for task in BandwidthRuns.covering(points(BANDWIDTH_TINY))]
    (root / "bandwidth").mkdir()
    write_report(root / "bandwidth", result_tables(outputs, BANDWIDTH_TINY.jobs_per_cluster),
                 report_parameters("tiny", BANDWIDTH_TINY))
    return {"ics": root / "ics" / "index.html", "bandwidth": root / "bandwidth" / "index.html"}


@pytest.fixture(scope="module")
def recorded_trace_page(tmp_path_factory) -> Path:
    """The report page of a real log that records its jobs' waits (the first 3,171 jobs of HPC2N, from ../shared)."""
    from pipeline import settings
    from pipeline.report_tasks import TraceReport

    trace = shared_path("traces", f"{RECORDED_TRACE}.swf")
    root = tmp_path_factory.mktemp("trace-page")
    with settings.overridden(work_dir=str(root / "work"), trace_dirs=[str(trace.parent)]):
        report = TraceReport(trace=RECORDED_TRACE)
        assert luigi.build([report], local_scheduler=True, workers=1, log_level="WARNING")
        return report.output_file("report.html")


@pytest.mark.skipif(CHROMIUM is None, reason="needs headless Chromium: apt-get install -y chromium")
def test_ics_bandwidth_and_trace_pages_fit_a_laptop_window(stage_pages, small_report, recorded_trace_page, tmp_path):
    pages = {**stage_pages, f"trace {RECORDED_TRACE}": recorded_trace_page}
    work_dir = small_report.parent.parent
    pages.update({f"workload {path.parent.name}": path for path in sorted(work_dir.glob("TraceReport/*/report.html"))})
    assert len(pages) >= 5, sorted(pages)  # ICS, bandwidth, the real trace and the two synthetic workloads
    results = {name: browse(page, tmp_path) for name, page in pages.items()}
    assert {name: sideways(result) for name, result in results.items() if sideways(result)} == {}
    assert [item["src"] for result in results.values() for item in result["images"] if not item["ok"]] == []
    trace = recorded_trace_page.read_text(encoding="utf-8")
    assert "Waits in the log and in the replay" in trace and "<td>recorded in the log</td>" in trace


@pytest.mark.skipif(CHROMIUM is None, reason="needs headless Chromium: apt-get install -y chromium")
def test_the_browser_check_catches_a_page_wider_than_the_window(tmp_path):
    page = tmp_path / "wide.html"
    page.write_text('<html><head><title>t</title></head><body><p style="width: 2000px">wide</p>'
                    '<div class="table-box" style="overflow-x: auto"><table><tr><td style="min-width: 3000px">'
                    "a wide table in its box</td></tr></table></div></body></html>")
    result = browse(page, tmp_path)
    assert sideways(result)[1:] == ["p: wide"]  # the paragraph, not the boxed table


# --- the front page's headline, walked in the browser ---------------------------------------------------------------

WALKER = """<!DOCTYPE html>
<html><body><pre id="result">the page did not load</pre>
<iframe id="page" style="width: {width}px; height: 900px; border: 0" src="{url}"></iframe>
<script>
const frame = document.getElementById("page");
frame.addEventListener("load", () => {{
  const doc = frame.contentDocument;
  const href = a => a.getAttribute("href") || a.getAttribute("xlink:href");
  // Where a click lands: the link under the centre of each linked shape of every forest plot.
  const clicks = [];
  for (const anchor of doc.querySelectorAll("figure svg a")) {{
    const shape = anchor.firstElementChild;
    shape.scrollIntoView({{block: "center"}});
    const box = shape.getBoundingClientRect();
    const hit = doc.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const landed = hit && hit.closest("a");
    const target = href(anchor);
    clicks.push({{shape: shape.tagName, href: target, landed: landed && href(landed),
                  row: target.startsWith("#") && !!doc.querySelector(`tr[id="${{target.slice(1)}}"]`)}});
  }}
  const contents = [...doc.querySelectorAll("nav.contents a")].map(a => href(a).slice(1));
  const headings = [...doc.querySelectorAll("h2[id], h3[id]")].map(h => h.id);
  const colours = {{}};
  for (const cell of doc.querySelectorAll("td.verdict")) {{
    colours[cell.className.split(" ").pop()] = getComputedStyle(cell).backgroundColor;
  }}
  const ids = [...doc.querySelectorAll("[id]")].map(e => e.id);
  document.getElementById("result").textContent = JSON.stringify({{clicks, contents, headings, colours,
    repeated_ids: ids.filter((id, i) => ids.indexOf(id) !== i), inline_svgs: doc.querySelectorAll("figure svg").length}});
}});
</script></body></html>
"""


def walk(page: Path, scratch: Path) -> dict:
    """Load ``page`` in headless Chromium: where a click on each link of its forest plots lands, its contents
    list and headings, each verdict class's background colour, and any element id that repeats."""
    walker = scratch / "walk.html"
    walker.write_text(WALKER.format(url=page.resolve().as_uri(), width=WINDOW_WIDTH), encoding="utf-8")
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={scratch / 'profile'}",
               "--allow-file-access-from-files", "--virtual-time-budget=30000", "--dump-dom", walker.as_uri()]
    dom = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True).stdout
    found = re.search(r'<pre id="result">(.*?)</pre>', dom, re.DOTALL)
    text = found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
    assert text.startswith("{"), text
    return json.loads(text)


@pytest.fixture(scope="module")
def headline_page(tmp_path_factory) -> Path:
    """A front-page headline written from a ledger made here: two papers sharing claim ids, one verdict
    differing at the paper profile, every file a link names present."""
    from schedlab.reports.document import Document, render_html
    from schedlab.reports.forest import write_forests
    from schedlab.reports.headline import EVERY_CLAIM_PAGE, every_claim_document, headline_blocks, with_other_profile
    from tests.test_forest import make_ledger

    root = tmp_path_factory.mktemp("headline")
    ledger = pd.concat([make_ledger("cosched"), make_ledger("ics").iloc[:3]], ignore_index=True).assign(
        location="Fig. 3", kind="value", paper_value="the paper's words", reason="why", tolerance="", measure="")
    published = ledger.assign(profile="paper", code_version="v", run_date="2026-11-01", wall_seconds=60.0)
    published.loc[0, "verdict"] = "inconclusive"
    for name in {*ledger["link"], "claims.csv", "claims.md", "claims.tex", "paper-ledger.csv"} - {""}:
        (root / name).write_text("x", encoding="utf-8")
    forests = write_forests(root, ledger, {}, f"{EVERY_CLAIM_PAGE}.html")
    blocks = headline_blocks(with_other_profile(ledger, published), published, {}, "paper-ledger.csv", {}, forests)
    (root / "index.html").write_text(render_html(Document("index", tuple(blocks))), encoding="utf-8")
    (root / f"{EVERY_CLAIM_PAGE}.html").write_text(render_html(every_claim_document(ledger)), encoding="utf-8")
    return root / "index.html"


@pytest.mark.skipif(CHROMIUM is None, reason="needs headless Chromium: apt-get install -y chromium")
def test_the_headline_walks_from_its_forest_plots_to_each_claim_and_figure(headline_page, tmp_path):
    from schedlab.reports.document import VERDICT_COLOURS

    result = browse(headline_page, tmp_path)
    assert [item["href"] for item in result["links"] if not item["ok"]] == []
    assert sideways(result) == []
    walked = walk(headline_page, tmp_path)
    assert walked["inline_svgs"] == 2 and walked["repeated_ids"] == []
    # A claim's name opens its row on the page of every claim (the front page holds the plots, not the ledger).
    names = [click for click in walked["clicks"] if click["shape"] == "text" and "#" in click["href"]]
    assert len(names) == 11  # every claim of both plots; the ids both papers use are qualified by paper
    assert {"every-claim.html#cosched-wait-value", "every-claim.html#ics-wait-value",
            "every-claim.html#npb-hardware"} <= {click["href"] for click in names}
    assert all(click["landed"] == click["href"] for click in names), names
    ledger_page = headline_page.with_name("every-claim.html").read_text(encoding="utf-8")
    assert all(f'<tr id="{click["href"].split("#")[1]}"' in ledger_page for click in names)
    rows = [click for click in walked["clicks"] if click["shape"] == "path"]  # a row's plot, over its interval
    assert len(rows) == 10 and all(click["landed"] == click["href"] for click in rows), rows  # one row has no link
    assert walked["contents"] == walked["headings"] and "verdicts-that-differ-between-the-profiles" in walked["contents"]
    every_claim = walk(headline_page.with_name("every-claim.html"), tmp_path)
    assert every_claim["repeated_ids"] == []
    links = browse(headline_page.with_name("every-claim.html"), tmp_path)["links"]
    assert [item["href"] for item in links if not item["ok"]] == [] and any(
        item["href"].endswith("/index.html") for item in links)  # and back to the front page
    for verdict, colour in VERDICT_COLOURS.items():
        red, green, blue = (int(colour.tint[i:i + 2], 16) for i in (1, 3, 5))
        assert every_claim["colours"][f"verdict-{verdict.replace('_', '-')}"] == f"rgb({red}, {green}, {blue})", verdict
