"""``schedlab fetch NAME``: download a trace listed in the manifest shipped with schedlab (``schedlab/trace-manifest.csv``).

Traces are data, not code, so git never holds them; the manifest says where each one
comes from and, where known, the sha256 of its decompressed content, which is what a
replay depends on (a re-compressed copy of the same log has the same checksum).  The
download goes to a temporary file next to the target and becomes the target only
once complete and verified, so a failed or interrupted fetch leaves nothing behind.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import re
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from schedlab import __version__
from schedlab.atomic import atomic_path
from schedlab.errors import InputError, SchedlabError
from schedlab.progress import shows_progress

RAW_TRACES = Path("raw_traces")
"""Where traces go by default: ``raw_traces/`` of the working directory, where the pipeline looks first."""
MANIFEST = Path(__file__).resolve().parents[1] / "trace-manifest.csv"
"""The known PWA traces, shipped with the package (so a regular install can fetch)."""
MANIFEST_COLUMNS = ("name", "file", "url", "compressed_size", "sha256", "machine_procs", "notes")
SHA256_HEX = re.compile(r"[0-9a-f]{64}")
CHUNK_BYTES = 1 << 20
TIMEOUT_SECONDS = 60
MEBIBYTE = 1 << 20


@dataclass(frozen=True)
class ManifestEntry:
    """One trace of the manifest; see raw_traces/README.md for the meaning of each column."""

    name: str
    file: str
    url: str
    compressed_size: int | None
    sha256: str
    machine_procs: int | None
    notes: str

    def is_excerpt(self) -> bool:
        """True for a local excerpt (e.g. truncated) of the log its URL serves.

        Its checksum is the excerpt's, so a download could never match it.
        """
        return bool(self.url) and self.file != self.url.rsplit("/", 1)[-1]


def load_manifest(path: Path) -> dict[str, ManifestEntry]:
    """Read and check the manifest; bad rows raise InputError with their line number."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            if tuple(reader.fieldnames or ()) != MANIFEST_COLUMNS:
                raise InputError(path, 1, f"columns must be {','.join(MANIFEST_COLUMNS)}")
            entries: dict[str, ManifestEntry] = {}
            for row in reader:
                entry = _manifest_entry(path, reader.line_num, row)
                if entry.name in entries:
                    raise InputError(path, reader.line_num, f"trace {entry.name!r} listed twice")
                entries[entry.name] = entry
    except FileNotFoundError:
        raise InputError(path, None, "no such manifest") from None
    return entries


def _manifest_entry(path: Path, line: int, row: dict) -> ManifestEntry:
    if None in row or any(value is None for value in row.values()):
        raise InputError(path, line, f"expected {len(MANIFEST_COLUMNS)} columns")
    if not row["name"] or not row["file"] or "/" in row["file"]:
        raise InputError(path, line, "name and file (a bare file name) are required")
    if row["sha256"] and not SHA256_HEX.fullmatch(row["sha256"]):
        raise InputError(path, line, f"sha256 must be 64 lowercase hex digits or empty, not {row['sha256']!r}")

    def optional_count(column: str) -> int | None:
        text = row[column]
        if not text:
            return None
        if not text.isdigit() or int(text) == 0:
            raise InputError(path, line, f"{column} must be a positive integer or empty, not {text!r}")
        return int(text)

    return ManifestEntry(
        name=row["name"],
        file=row["file"],
        url=row["url"],
        compressed_size=optional_count("compressed_size"),
        sha256=row["sha256"],
        machine_procs=optional_count("machine_procs"),
        notes=row["notes"],
    )

#: The one-line summary ``schedlab --help`` lists.
HELP = "download a trace listed in the manifest shipped with schedlab"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "fetch",
        help=HELP,
        description=(
            "Download a Parallel Workloads Archive trace listed in the manifest, verify its "
            "sha256 where the manifest knows it, and write it atomically into DEST."
        ),
    )
    parser.add_argument("name", metavar="NAME", help="the trace's name in the manifest")
    parser.add_argument(
        "--dest", type=Path, default=RAW_TRACES, help="directory to write into (default: raw_traces/ here, where the pipeline looks)"
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="download URL/FILE instead of the manifest's URL (a mirror holding the files flat)",
    )
    parser.add_argument("--force", action="store_true", help="download again even if the file is there")
    parser.add_argument(
        "--manifest", type=Path, default=MANIFEST, help="manifest to read (default: the one shipped with schedlab)"
    )
    parser.set_defaults(handler=run)


def run(args) -> int:
    entries = load_manifest(args.manifest)
    entry = entries.get(args.name)
    if entry is None:
        raise SchedlabError(f"{args.name!r} is not in {args.manifest}; it lists: {', '.join(entries)}")
    target = fetch_trace(entry, args.dest, base_url=args.base_url, force=args.force, progress=sys.stderr,
                         quiet=getattr(args, "quiet", False))
    print(target)
    return 0


def fetch_trace(
    entry: ManifestEntry,
    dest: Path,
    *,
    base_url: str | None = None,
    force: bool = False,
    progress: TextIO | None = None,
    quiet: bool = False,
) -> Path:
    """Download ``entry`` into ``dest`` unless already there; return the file's path.

    Messages go to ``progress``, with a live byte count when it is a terminal, unless ``quiet``.
    """
    target = Path(dest) / entry.file
    url = _download_url(entry, base_url)
    if target.exists() and not force:
        _say(progress, f"{target} already exists (--force downloads it again)")
        return target
    with atomic_path(target) as temporary:
        _download(url, temporary, entry.compressed_size, progress, quiet)
        if entry.sha256:
            actual = content_sha256(temporary)
            if actual != entry.sha256:
                raise SchedlabError(
                    f"{url}: sha256 of the content is {actual}, the manifest says {entry.sha256}; "
                    "nothing written"
                )
            _say(progress, "sha256 verified")
        else:
            _say(progress, "sha256 not in the manifest: content not verified")
    return target


def _download_url(entry: ManifestEntry, base_url: str | None) -> str:
    if entry.is_excerpt():
        full = entry.url.rsplit("/", 1)[-1]
        raise SchedlabError(
            f"{entry.name} is a local excerpt of {full}, which its URL serves, so its checksum "
            f"cannot match a download ({entry.notes})"
        )
    if base_url:
        return f"{base_url.rstrip('/')}/{entry.file}"
    if not entry.url:
        raise SchedlabError(f"no download URL known for {entry.name} ({entry.notes}); give --base-url of a mirror")
    return entry.url


def _download(
    url: str, destination: Path, expected_size: int | None, progress: TextIO | None, quiet: bool = False
) -> None:
    import http.client  # here, not at the top: listing the command in 'schedlab --help' need not load them
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers={"User-Agent": f"schedlab/{__version__}"})
    _say(progress, f"downloading {url}")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response, open(destination, "wb") as out:
            announced = response.length  # Content-Length; http.client counts it down while reading
            meter = _ProgressMeter(progress, announced if announced is not None else expected_size, quiet)
            while chunk := response.read(CHUNK_BYTES):
                out.write(chunk)
                meter.advance(len(chunk))
            meter.finish()
    except urllib.error.HTTPError as error:
        raise SchedlabError(f"{url}: HTTP {error.code} {error.reason}") from None
    except (urllib.error.URLError, http.client.HTTPException, OSError) as error:
        raise SchedlabError(f"{url}: download failed ({getattr(error, 'reason', error)!r})") from None
    if announced is not None and meter.done != announced:
        raise SchedlabError(f"{url}: connection closed after {meter.done} of {announced} bytes")


def content_sha256(path: Path) -> str:
    """sha256 of the file's content, decompressed first if it is gzip (as read_swf computes it)."""
    digest = hashlib.sha256()
    with open(path, "rb") as raw:
        is_gzip = raw.read(2) == b"\x1f\x8b"
    try:
        with (gzip.open if is_gzip else open)(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(CHUNK_BYTES), b""):
                digest.update(chunk)
    except (OSError, EOFError, zlib.error) as error:
        raise SchedlabError(f"downloaded file is not valid gzip ({error}); nothing written") from None
    return digest.hexdigest()


def _say(stream: TextIO | None, message: str) -> None:
    if stream is not None:
        print(message, file=stream, flush=True)


class _ProgressMeter:
    """Bytes received so far: a line redrawn twice a second on a terminal (not with ``quiet``), else one final line."""

    def __init__(self, stream: TextIO | None, total: int | None, quiet: bool = False):
        self.stream = stream
        self.total = total
        self.done = 0
        self.live = stream is not None and shows_progress(quiet, stream)
        self.last_shown = 0.0

    def advance(self, size: int) -> None:
        self.done += size
        if self.live and time.monotonic() - self.last_shown >= 0.5:
            self.last_shown = time.monotonic()
            print(f"\r{self.describe()}", end="", file=self.stream, flush=True)

    def finish(self) -> None:
        if self.stream is not None:
            print(f"\r{self.describe()}" if self.live else self.describe(), file=self.stream, flush=True)

    def describe(self) -> str:
        if self.total:
            return f"{_size(self.done)} of {_size(self.total)} ({100 * self.done / self.total:.0f}%)"
        return _size(self.done)


def _size(size: int) -> str:
    return f"{size / MEBIBYTE:.1f} MiB" if size >= MEBIBYTE else f"{size / 1024:.1f} KiB"
