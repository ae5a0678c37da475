"""From a trace file to a clean job table: LocateTrace -> ParseTrace -> CleanTrace.

A trace is named by its file name without ``.swf`` / ``.swf.gz`` (``KTH-SP2-1996-2.2``)
and looked up in the configured trace directories (``pipeline.settings``), first
directory first.  Its identity in the pipeline is its content: ``LocateTrace`` keys
its output by the file's SHA-256, so replacing a trace file reruns everything built
from it, while moving it to another configured directory reruns nothing.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
from pathlib import Path

import luigi

from schedlab.parsers.cleaning import clean_or_refuse
from schedlab.parsers.schema import read_jobs, write_jobs
from schedlab.parsers.swf import read_swf
from pipeline import settings
from pipeline.base import SchedlabTask, read_json, write_json
from schedlab.errors import InputError, SchedlabError
from schedlab.workloads.estimates import requested_time_source
from schedlab.workloads.load import offered_load

TRACE_SUFFIXES = (".swf.gz", ".swf")


def trace_name(path: Path) -> str | None:
    """The trace name of a file (its name without the SWF suffix), or None if not a trace."""
    for suffix in TRACE_SUFFIXES:
        if path.name.endswith(suffix) and len(path.name) > len(suffix):
            return path.name[: -len(suffix)]
    return None


def find_traces(directories) -> dict[str, Path]:
    """Every trace file in ``directories`` by name; a name found twice is taken from the first.

    Directories that do not exist are skipped: the default ``raw_traces`` is empty, and
    so absent, on a fresh clone.
    """
    found: dict[str, Path] = {}
    for directory in map(Path, directories):
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir()):
            name = trace_name(path)
            if name is not None and path.is_file():
                found.setdefault(name, path)
    return found


def locate_trace(name: str, directories) -> Path:
    """The file of trace ``name`` (or of the file named ``name``) in ``directories``."""
    found = find_traces(directories)
    by_file_name = {path.name: path for path in found.values()}
    path = found.get(name) or by_file_name.get(name)
    if path is None:
        searched = ", ".join(str(d) for d in directories) or "(none)"
        known = ", ".join(sorted(found)) or "none"
        raise SchedlabError(f"trace {name!r} not found in {searched} (traces there: {known})")
    return path


@functools.cache
def _sha256_of(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes, computed once per process for an unchanged file.

    The output keys of every trace task depend on it, and Luigi asks for them many times
    while scheduling; the file's size and modification time tell when to hash again.
    """
    status = os.stat(path)
    return _sha256_of(str(Path(path).resolve()), status.st_size, status.st_mtime_ns)


class LocateTrace(SchedlabTask):
    """Find a trace in the trace directories and record what it is: file name and SHA-256."""

    trace = luigi.Parameter(description="trace name: file name without .swf or .swf.gz")

    def trace_file(self) -> Path:
        return locate_trace(self.trace, settings.trace_dirs())

    def input_fingerprint(self):
        return {"file_sha256": file_sha256(self.trace_file())}

    def run(self):
        path = self.trace_file()
        with self.writing_output() as directory:
            write_json(
                directory / "trace.json",
                {
                    "trace": self.trace,
                    "file_name": path.name,
                    "file_sha256": file_sha256(path),
                    "file_bytes": path.stat().st_size,
                },
            )


class ParseTrace(SchedlabTask):
    """Parse the trace into the canonical job table (``jobs.parquet``) and ``header.json``.

    ``header.json`` holds the SWF header, the machine size, the SHA-256 of the file and
    of its decompressed content, and the parser's warnings.
    """

    trace = luigi.Parameter(description="trace name: file name without .swf or .swf.gz")
    code_modules = ("schedlab.parsers.swf",)

    def requires(self):
        return LocateTrace(trace=self.trace)

    def run(self):
        located = read_json(self.requires().output_file("trace.json"))
        path = self.requires().trace_file()
        if file_sha256(path) != located["file_sha256"]:
            raise SchedlabError(f"{path} changed since it was located; run the pipeline again")
        self.set_status_message(f"parsing {path.name}")
        parsed = read_swf(path)
        if parsed.job_count == 0:
            raise InputError(path, None, "no job lines: an empty trace has nothing to replay")
        with self.writing_output() as directory:
            write_jobs(parsed.jobs, directory / "jobs.parquet")
            write_json(
                directory / "header.json",
                {
                    **located,
                    "content_sha256": parsed.sha256,
                    "machine_procs": parsed.machine_procs,
                    "jobs": len(parsed.jobs),
                    "header": dataclasses.asdict(parsed.header),
                    "warnings": parsed.warnings,
                },
            )


class CleanTrace(SchedlabTask):
    """Apply the documented cleaning filters; write the workload every replay starts from.

    Outputs ``jobs.parquet`` (the cleaned table), ``cleaning.json`` (each filter, what it
    removes and how many jobs it removed) and ``workload.json`` (the workload
    description of ``schedlab.reports.pages``).
    """

    trace = luigi.Parameter(description="trace name: file name without .swf or .swf.gz")
    code_modules = ("schedlab.parsers.cleaning", "schedlab.workloads.estimates", "schedlab.workloads.load")

    def requires(self):
        return ParseTrace(trace=self.trace)

    def run(self):
        parsed = read_json(self.requires().output_file("header.json"))
        jobs = read_jobs(self.requires().output_file("jobs.parquet"))
        self.set_status_message(f"cleaning {len(jobs):,} jobs")
        cleaned, report = clean_or_refuse(jobs, parsed["machine_procs"], parsed["file_name"])
        cleaning = {"jobs_in": report.jobs_before, "jobs_out": report.jobs_after, "steps": report.as_records()}
        workload = {
            "name": self.trace,
            "machine_procs": parsed["machine_procs"],
            "jobs": len(cleaned),
            "offered_load": offered_load(cleaned, parsed["machine_procs"]) if len(cleaned) > 1 else None,
            "requested_times": requested_time_source(
                cleaned["requested_time"], cleaned["run_time"], "the trace's requested times (SWF field 9)"
            ),
            "source": {
                "kind": "trace",
                "file_name": parsed["file_name"],
                "file_sha256": parsed["file_sha256"],
                "jobs_parsed": parsed["jobs"],
                "header": parsed["header"],
                "warnings": parsed["warnings"],
            },
        }
        with self.writing_output() as directory:
            write_jobs(cleaned, directory / "jobs.parquet")
            write_json(directory / "cleaning.json", cleaning)
            write_json(directory / "workload.json", workload)
