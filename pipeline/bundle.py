"""``ArchiveBundle``: pack the full report and everything behind it into one result bundle.

    FullReport(...) --> ArchiveBundle(same parameters) -> schedlab-bundle.tar.gz

The archive's layout and its verification are ``schedlab.reports.bundle``; this task only
gathers what goes in: the output directory of the report and of every task it depends
on, the recipe (root task, parameters, ``[schedlab]`` settings) and each task's inputs.
"""

from __future__ import annotations

from pathlib import Path

import luigi.util

from pipeline import settings
from pipeline.base import PROJECT_ROOT, SchedlabTask
from pipeline.full_report import FullReport, dependency_closure
from schedlab.reports.bundle import BundleContents, create_bundle

ARCHIVE_NAME = "schedlab-bundle.tar.gz"

EXPORTS = {"ReplayTrace": ("schedule.swf", "batsim_jobs.csv")}
"""Per task family, the files that re-encode another output of the same task (a replay's
``schedule.parquet`` for SWF tools and evalys), which no task reads: bundles leave them out,
as the rerun rebuilds them.  They are most of the bytes of the replays of a real trace (KTH-SP2's
three: 3.8 of 6.6 MB gzipped), and replays are most of a report on real traces."""


@luigi.util.inherits(FullReport)
class ArchiveBundle(SchedlabTask):
    """One ``schedlab-bundle.tar.gz`` holding a ``FullReport`` with the parameters given."""

    code_modules = ("schedlab.reports.bundle",)

    def requires(self):
        return self.clone(FullReport)

    def label(self) -> str:
        return ""

    def archive(self) -> Path:
        return self.output_file(ARCHIVE_NAME)

    def run(self):
        contents = bundle_contents(self.requires())
        self.set_status_message(f"packing {len(contents.output_dirs)} task outputs")
        with self.writing_output() as directory:
            create_bundle(directory / ARCHIVE_NAME, contents)


def bundle_contents(report: FullReport) -> BundleContents:
    """What a bundle of the built ``report`` holds: its outputs and those of every task it needs,
    its recipe and each task's external inputs (``schedlab bundle create`` packs it straight to
    the file asked for, with no copy in the work directory)."""
    work_dir = settings.work_dir()
    tasks = dependency_closure(report)
    left_out = sorted(
        task.output_dir().relative_to(work_dir) / name
        for task in tasks
        for name in EXPORTS.get(task.get_task_family(), ())
    )
    return BundleContents(
        work_dir=work_dir,
        output_dirs=tuple(task.output_dir().relative_to(work_dir) for task in tasks),
        recipe={
            "task": report.get_task_family(),
            "parameters": report.to_str_params(only_significant=True),
            "report": f"work/{report.output_dir().relative_to(work_dir).as_posix()}",
            "settings": {
                # a directory that exists, absolute: verify and the printed rerun then work from any
                # directory (one that does not, the absent default, is kept as written: a name only)
                "trace_dirs": [str(d.resolve()) if d.is_dir() else str(d) for d in settings.trace_dirs()],
                "traces": settings.selected_traces(),
            },
            "left_out": [f"work/{path.as_posix()}" for path in left_out],
        },
        inputs={
            f"{task.get_task_family()}/{task.output_dir().name}": task.input_fingerprint()
            for task in tasks
            if task.input_fingerprint() is not None
        },
        project_root=PROJECT_ROOT,
        left_out=frozenset(left_out),
    )
