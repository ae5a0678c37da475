"""``schedlab info`` and ``schedlab fetch`` through the command line (fetch from a local HTTP server)."""

from __future__ import annotations

import csv
import functools
import gzip
import hashlib
import http.server
import threading
from pathlib import Path

import pytest

from schedlab.cli import main
from schedlab.commands.fetch import MANIFEST, MANIFEST_COLUMNS, content_sha256, load_manifest
from tests.conftest import shared_path

DATA = Path(__file__).resolve().parent / "data"
SMALL = DATA / "small_header.swf"


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- info ---------------------------------------------------------------------------------


def test_info_summarizes_a_trace(capsys):
    code, out, err = run_cli(capsys, "info", SMALL)
    assert code == 0 and err == ""
    lines = out.splitlines()
    for expected in [
        f"trace:     {SMALL}",
        "header:    Version: 2.2",
        "header:    MaxProcs: 64",
        "header:    UnixStartTime: 1000000000 (2001-09-09 01:46:40 UTC)",
        "header:    2 queues, 1 partition, 2 notes",
        "machine:   64 processors (header MaxProcs)",
        "jobs:      6",
        "span:      0.00 days (first to last submit)",
        # (4*100 + 64*3600 + 2*12.5 + 16*1000) / (64 procs * 300 s); unknown or zero run times left out
        "load:      12.855 (sum procs x run time / (64 procs x span); unknown sizes/times left out)",
        "size:      procs (allocated, else requested): min 1, median 6, mean 15.8, max 64; 0 unknown",
        "size:      serial 16.7%, power of two above 1 83.3%",  # sizes 4, 64, 8, 1, 2, 16
        "run time:  seconds: min 0, median 100, mean 942.5, max 3600; 1 unknown",
    ]:
        assert expected in lines


def test_info_names_a_trace_by_the_sha256_of_its_file_as_the_pages_do(capsys, tmp_path):
    """Issue 69 item 12: one name, one meaning; a gzipped trace also shows its content's digest."""
    packed = tmp_path / "small.swf.gz"
    packed.write_bytes(gzip.compress(SMALL.read_bytes(), mtime=0))
    _, plain, _ = run_cli(capsys, "info", SMALL)
    _, gzipped, _ = run_cli(capsys, "info", packed)
    assert f"sha256:    {hashlib.sha256(SMALL.read_bytes()).hexdigest()} (of the file, as trace pages name it)" in plain
    assert "content:" not in plain
    assert f"sha256:    {hashlib.sha256(packed.read_bytes()).hexdigest()} (of the file, as trace pages name it)" in gzipped
    assert (f"content:   {hashlib.sha256(SMALL.read_bytes()).hexdigest()} (SHA-256 of the decompressed SWF: a trace "
            "and its gzipped copy agree)") in gzipped.splitlines()


def test_info_prints_warnings_and_uses_procs_for_headerless_files(capsys):
    code, out, _ = run_cli(capsys, "info", DATA / "extended.swf", "--procs", "100")
    assert code == 0
    assert "header:    UnixStartTime: 1356996147 (2012-12-31 23:22:27 UTC)" in out
    assert "machine:   100 processors (machine_procs argument)" in out
    assert "warning:   absolute submit times: shifted by UnixStartTime 1356996147" in out


def test_info_stops_at_a_bad_line_with_path_and_line(capsys, tmp_path):
    bad = tmp_path / "bad.swf"
    bad.write_text(SMALL.read_text().replace("    4       60     20      0    1", "    4       60     20   oops    1"))
    code, out, err = run_cli(capsys, "info", bad)
    assert code == 1 and out == ""
    assert err == f"schedlab info: {bad}:30: field 4 (run_time) is not a number: 'oops'\n"


def test_info_lenient_skips_and_lists_bad_lines(capsys, tmp_path):
    bad = tmp_path / "bad.swf"
    bad.write_text(SMALL.read_text() + "7 1 2 3\n")
    code, out, _ = run_cli(capsys, "info", "--lenient", bad)
    assert code == 0
    assert "jobs:      6" in out
    assert "skipped:   1 too_few_fields on lines 33; first: 4 fields, an SWF job line needs 18" in out


def test_info_on_a_missing_file_fails_cleanly(capsys, tmp_path):
    code, _, err = run_cli(capsys, "info", tmp_path / "nope.swf")
    assert code == 1
    assert err == f"schedlab info: {tmp_path / 'nope.swf'}: no such file\n"


# --- fetch --------------------------------------------------------------------------------

TRACE_BYTES = SMALL.read_bytes()
TRACE_SHA256 = hashlib.sha256(TRACE_BYTES).hexdigest()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the mirror directory; ``/cut.swf`` promises the whole trace but stops after 100 bytes."""

    def do_GET(self):
        if self.path != "/cut.swf":
            return super().do_GET()
        self.send_response(200)
        self.send_header("Content-Length", str(len(TRACE_BYTES)))
        self.end_headers()
        self.wfile.write(TRACE_BYTES[:100])
        self.close_connection = True

    def log_message(self, format, *args):  # keep test output clean
        pass


@pytest.fixture
def mirror(tmp_path, monkeypatch):
    """A directory served over HTTP on 127.0.0.1; yields (directory, base URL)."""
    for variable in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(variable, raising=False)
    directory = tmp_path / "mirror"
    directory.mkdir()
    (directory / "good.swf.gz").write_bytes(gzip.compress(TRACE_BYTES))
    (directory / "plain.swf").write_bytes(TRACE_BYTES)
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(directory))
    )
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield directory, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def manifest(tmp_path, mirror):
    _, base = mirror
    rows = [
        ("good", "good.swf.gz", f"{base}/good.swf.gz", "", TRACE_SHA256, "64", "gzip, checksum known"),
        ("unverified", "plain.swf", f"{base}/plain.swf", "", "", "", "no checksum"),
        ("wrong", "good.swf.gz", f"{base}/good.swf.gz", "", "0" * 64, "", "checksum of something else"),
        ("gone", "gone.swf.gz", f"{base}/gone.swf.gz", "", "", "", "not on the server"),
        ("cut", "cut.swf", f"{base}/cut.swf", "", "", "", "the connection drops"),
        ("excerpt", "good.first3.swf", f"{base}/good.swf.gz", "", "", "", "first 3 jobs of good"),
        ("nourl", "plain.swf", "", "", TRACE_SHA256, "", "synthetic"),
    ]
    path = tmp_path / "manifest.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(MANIFEST_COLUMNS)
        writer.writerows(rows)
    return path


@pytest.fixture
def dest(tmp_path):
    return tmp_path / "raw"


def fetch(capsys, manifest, dest, name, *options):
    return run_cli(capsys, "fetch", name, "--manifest", manifest, "--dest", dest, *options)


def test_fetch_downloads_and_verifies_the_decompressed_checksum(capsys, manifest, dest):
    code, out, err = fetch(capsys, manifest, dest, "good")
    assert code == 0
    assert out == f"{dest / 'good.swf.gz'}\n"
    assert gzip.decompress((dest / "good.swf.gz").read_bytes()) == TRACE_BYTES
    assert "downloading http://127.0.0.1:" in err
    assert "sha256 verified" in err
    assert [p.name for p in dest.iterdir()] == ["good.swf.gz"]


def test_fetch_without_checksum_says_it_did_not_verify(capsys, manifest, dest):
    code, _, err = fetch(capsys, manifest, dest, "unverified")
    assert code == 0
    assert (dest / "plain.swf").read_bytes() == TRACE_BYTES
    assert "sha256 not in the manifest: content not verified" in err


def test_checksum_mismatch_fails_and_leaves_nothing(capsys, manifest, dest):
    code, out, err = fetch(capsys, manifest, dest, "wrong")
    assert code == 1 and out == ""
    assert f"sha256 of the content is {TRACE_SHA256}, the manifest says {'0' * 64}; nothing written" in err
    assert list(dest.iterdir()) == []


def test_http_404_fails_and_leaves_nothing(capsys, manifest, dest):
    code, _, err = fetch(capsys, manifest, dest, "gone")
    assert code == 1
    assert "gone.swf.gz: HTTP 404" in err
    assert "Traceback" not in err
    assert list(dest.iterdir()) == []


def test_interrupted_download_fails_and_leaves_nothing(capsys, manifest, dest):
    code, _, err = fetch(capsys, manifest, dest, "cut")
    assert code == 1
    assert f"cut.swf: connection closed after 100 of {len(TRACE_BYTES)} bytes" in err
    assert list(dest.iterdir()) == []


def test_base_url_replaces_the_manifest_url(capsys, manifest, dest, mirror):
    directory, base = mirror
    (directory / "elsewhere").mkdir()
    (directory / "elsewhere" / "plain.swf").write_bytes(TRACE_BYTES)
    code, _, err = fetch(capsys, manifest, dest, "nourl", "--base-url", f"{base}/elsewhere/")
    assert code == 0
    assert f"downloading {base}/elsewhere/plain.swf" in err
    assert (dest / "plain.swf").read_bytes() == TRACE_BYTES


def test_an_existing_file_is_kept_unless_forced(capsys, manifest, dest):
    dest.mkdir()
    (dest / "plain.swf").write_text("local copy\n")
    code, _, err = fetch(capsys, manifest, dest, "unverified")
    assert code == 0 and "already exists" in err
    assert (dest / "plain.swf").read_text() == "local copy\n"
    code, _, _ = fetch(capsys, manifest, dest, "unverified", "--force")
    assert code == 0
    assert (dest / "plain.swf").read_bytes() == TRACE_BYTES


@pytest.mark.parametrize(
    "name, message",
    [
        ("excerpt", "excerpt is a local excerpt of good.swf.gz"),
        ("nourl", "no download URL known for nourl (synthetic); give --base-url of a mirror"),
        ("missing", "'missing' is not in"),
    ],
)
def test_fetch_refusals(capsys, manifest, dest, name, message):
    code, _, err = fetch(capsys, manifest, dest, name)
    assert code == 1
    assert message in err
    assert not dest.exists()


def test_bad_manifest_rows_name_their_line(capsys, tmp_path, dest):
    path = tmp_path / "manifest.csv"
    path.write_text(",".join(MANIFEST_COLUMNS) + "\nok,ok.swf,,,,,\nbad,bad.swf,,,abc,,\n")
    code, _, err = run_cli(capsys, "fetch", "ok", "--manifest", path, "--dest", dest)
    assert code == 1
    assert f"{path}:3: sha256 must be 64 lowercase hex digits or empty, not 'abc'" in err


# --- the repository's manifest ------------------------------------------------------------


def test_repository_manifest_lists_the_known_traces():
    entries = load_manifest(MANIFEST)
    for name in [
        "KTH-SP2-1996-2.2",
        "SDSC-SP2-1998-4.2-cln",
        "CTC-SP2-1996-3.1-cln",
        "ANL-Intrepid-2009-1",
        "CEA-Curie-2011-2.1-cln",
        "HPC2N-2002-2.2-cln",
    ]:
        entry = entries[name]
        assert entry.url == f"https://www.cs.huji.ac.il/labs/parallel/workload/{entry.url.split('/')[-2]}/{entry.file}"
        assert entry.file == f"{name}.swf.gz"
        assert not entry.is_excerpt()
    assert entries["HPC2N-2002-2.2-cln.first3171"].is_excerpt()
    assert entries["NASA-iPSC-1993-3.first228"].is_excerpt()


@pytest.mark.shared
def test_repository_manifest_checksums_match_the_shared_traces():
    listed = {entry.sha256 for entry in load_manifest(MANIFEST).values()}
    traces = shared_path("traces")
    for path in sorted(traces.iterdir()):
        assert content_sha256(path) in listed, path.name
