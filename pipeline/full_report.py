"""The front page of the whole report: ``FullReport`` links every workload page and every stage report.

    TraceReport (one per workload) --+
    <Stage>Report(stage_profile) ----+--> FullReport -> index.html, index.md, metrics.csv, provenance.csv

It lives apart from ``pipeline.report_tasks`` because the stage modules import that
module's writers, and ``FullReport`` imports the stage modules (``pipeline.stages``).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import socket
from pathlib import Path

import luigi
import pandas as pd

from pipeline import settings
from pipeline.base import PROJECT_ROOT, SchedlabTask, read_json
from pipeline.cleanup import point_latest
from pipeline.replay_tasks import DEFAULT_RESAMPLE_MAX_JOBS, DEFAULT_RESAMPLES
from pipeline.report_tasks import ReplayChoices, TraceReport, write_csv, write_document
from pipeline.stages import STAGE_NAMES, STAGE_PROFILES, stage
from pipeline.synthetic_tasks import SyntheticWorkload
from pipeline.trace_tasks import find_traces, locate_trace
from schedlab.reports.document import Code, Document, paragraph
from schedlab.reports.forest import write_forests
from schedlab.reports.headline import (
    EVERY_CLAIM_PAGE,
    every_claim_document,
    headline_blocks,
    stacked_ledger,
    stale_papers,
    with_other_profile,
)
from schedlab.reports.ledger import LEDGER_STEM, read_ledger, write_ledger
from schedlab.reports.metrics import combined_metrics_table
from schedlab.reports.pages import index_page
from schedlab.reports.stage_index import provenance_table, stages_section
from schedlab.options import COUNT, SEED, SYNTHETIC_MACHINE_PROCS, WORKLOAD_JOBS, one_of, whole_number
from schedlab.errors import SchedlabError
from schedlab.progress import progress

RUN_TIMES_FILE = "run-times.csv"
"""Below the work directory: one line per task run, appended when it finishes."""

PUBLISHED_LEDGER = PROJECT_ROOT / "docs" / "results" / "paper-ledger.csv"
"""The paper-profile ledger committed to the repository (``pipeline.publish_ledger`` writes it)."""


def published_ledger() -> pd.DataFrame | None:
    return read_ledger(PUBLISHED_LEDGER) if PUBLISHED_LEDGER.exists() else None


@SchedlabTask.event_handler(luigi.Event.PROCESSING_TIME)
def record_run_time(task: SchedlabTask, seconds: float) -> None:
    """Append the task's wall-clock run time to ``<work_dir>/run-times.csv``.

    Run times differ from run to run, so they stay out of the keyed outputs (which must
    be byte-identical when rerun) and go to this log instead; the report's index points
    to it and result bundles carry it.  One short ``O_APPEND`` write per line keeps lines
    whole when several worker processes finish at once.
    """
    path = settings.work_dir() / RUN_TIMES_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    line = f"{task.get_task_family()},{task.output_dir().name},{seconds:.3f},{socket.gethostname()}\n"
    with contextlib.suppress(FileExistsError):
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(descriptor, b"task,output,seconds,host\n")
        os.close(descriptor)
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(descriptor, line.encode())
    finally:
        os.close(descriptor)


def dependency_closure(task: SchedlabTask) -> list[SchedlabTask]:
    """``task`` and every task it requires, directly or not, each once, in a stable order."""
    seen: dict[str, SchedlabTask] = {}
    pending = [task]
    while pending:
        current = pending.pop()
        if current.task_id not in seen:
            seen[current.task_id] = current
            pending.extend(current.keyed_requirements())
    return sorted(seen.values(), key=lambda t: (t.get_task_family(), str(t.output_dir())))


class FullReport(ReplayChoices, SchedlabTask):
    """The browsable report: ``index.html`` and ``index.md`` linking every workload's page
    and every simulator stage's report.  ``FullReport/latest`` links to the newest one.

    Workloads: the traces named by the ``traces`` setting, else every trace in the trace
    directories, else the embedded synthetic default: ``synthetic_jobs`` Lublin-Feitelson
    jobs for each machine size in ``synthetic_machine_procs``, drawn with
    ``synthetic_seed``.  The index says which was used, naming traces by SHA-256.  It
    also writes ``metrics.csv``: every metric of every workload and policy.

    Stages: the reports of ``stages`` at ``stage_profile``; by default every stage of
    ``pipeline.stages`` except those needing a trace that is not in the trace
    directories (the index names them and the missing traces).  The index links each
    stage's page, figures and tables and lists the parameters, seeds and inputs of the
    tasks behind it (all of them, one row per task, in ``provenance.csv``).
    """

    code_modules = ("schedlab.reports.pages", "schedlab.reports.stage_index", "schedlab.reports.headline", "pipeline.stages")

    parameter_ranges = {
        **ReplayChoices.parameter_ranges, "synthetic_machine_procs": SYNTHETIC_MACHINE_PROCS, "synthetic_jobs": WORKLOAD_JOBS,
        "synthetic_seed": SEED, "stages": one_of(STAGE_NAMES), "resamples": whole_number(0),
        "resample_max_jobs": COUNT,
    }
    nonempty_parameters = (*ReplayChoices.nonempty_parameters, "synthetic_machine_procs")
    synthetic_machine_procs = luigi.ListParameter(default=(128, 256))
    synthetic_jobs = luigi.IntParameter(default=3000)
    synthetic_seed = luigi.IntParameter(default=1)
    resamples = luigi.IntParameter(default=DEFAULT_RESAMPLES, description="trace pages: the policies compared over "
                                   "this many user-based resamples, open- and closed-loop (0: none)")
    resample_max_jobs = luigi.IntParameter(default=DEFAULT_RESAMPLE_MAX_JOBS,
                                           description="trace pages: the largest trace (jobs) resampled")
    stage_profile = luigi.ChoiceParameter(choices=STAGE_PROFILES, default="quick")
    stages = luigi.OptionalListParameter(
        default=None, description="simulator stages to include; default: every stage whose traces are found"
    )
    verbose = luigi.BoolParameter(
        default=False, significant=False,
        description="Luigi's own log at INFO, a line per task event (as --log-level INFO); changes no result",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if luigi.interface.core().workers < 1:  # Luigi would schedule everything and run nothing, exit 25
            raise SchedlabError(f"--workers {luigi.interface.core().workers}: must be a whole number >= 1")
        settings.check_work_dir()
        settings.check_trace_dirs()
        for name in settings.selected_traces():  # a misspelt name stops here, in one line, not in a task
            locate_trace(name, settings.trace_dirs())
        if self.verbose:
            # The luigi command sets its logging up from [core] log_level after it has made the
            # task, so this is read in time; a build already logging gets the level too.
            luigi.configuration.get_config().set("core", "log_level", "INFO")
            logging.getLogger("luigi-interface").setLevel(logging.INFO)

    def trace_names(self) -> list[str]:
        return settings.selected_traces() or sorted(find_traces(settings.trace_dirs()))

    def workload_names(self) -> list[str]:
        synthetic = [
            SyntheticWorkload(machine_procs=procs, n_jobs=self.synthetic_jobs, seed=self.synthetic_seed).name
            for procs in self.synthetic_machine_procs
        ]
        return self.trace_names() or synthetic

    def input_fingerprint(self):
        """The published paper-profile ledger shown beside this run, and with the synthetic
        default the trace directories searched in vain (the index names them)."""
        fingerprint = {} if self.trace_names() else {"searched": [str(d) for d in settings.trace_dirs()]}
        if PUBLISHED_LEDGER.exists():
            fingerprint["published_ledger"] = hashlib.sha256(PUBLISHED_LEDGER.read_bytes()).hexdigest()
        return fingerprint or None

    def workload_reports(self) -> list[TraceReport]:
        return [
            TraceReport(trace=name, policies=self.policies, order=self.order, estimates=self.estimates,
                        feedback=self.feedback, resamples=self.resamples, resample_max_jobs=self.resample_max_jobs)
            for name in self.workload_names()
        ]

    def stage_reports(self) -> dict[str, SchedlabTask]:
        names = STAGE_NAMES if self.stages is None else self.stages
        return {name: stage(name).report(self.stage_profile) for name in names}

    def requires(self):
        """The workload pages first, then the stage reports, in the order of ``stages``."""
        companions = [page for name in self.stage_reports() for page in self.companion_pages(name).values()]
        return [*self.workload_reports(), *self.stage_reports().values(), *companions]

    def companion_pages(self, name: str) -> dict[str, SchedlabTask]:
        return stage(name).companion_pages(self.stage_profile)

    def label(self) -> str:
        """None: the key alone names the one report directory a configuration has."""
        return ""

    def relative_link(self, task: SchedlabTask) -> str:
        return Path(os.path.relpath(task.output_dir(), self.output_dir())).as_posix()

    def stage_entry(self, name: str, report: SchedlabTask) -> dict:
        return {
            "name": name,
            "paper": stage(name).paper,
            "profile": self.stage_profile,
            "href": self.relative_link(report),
            "files": sorted(path.name for path in report.output_dir().iterdir() if path.is_file()),
            "tasks": [task.record() for task in dependency_closure(report)],
            "companions": {page: self.relative_link(task) for page, task in self.companion_pages(name).items()},
        }

    def claims_ledger(self) -> tuple[pd.DataFrame, pd.DataFrame | None, dict[str, str]]:
        """Every stage's claims; the published paper-profile ledger; which of its papers are stale."""
        stage_ledgers = {
            name: (read_ledger(report.output_file(f"{LEDGER_STEM}.csv")), self.relative_link(report))
            for name, report in self.stage_reports().items()
        }
        ledger = stacked_ledger({name: stage_ledgers[name] for name in STAGE_NAMES if name in stage_ledgers})
        published = published_ledger()
        if published is None:
            return ledger, None, {}
        running = self.stage_reports()  # the others' inputs may be missing here: they stay unchecked
        current = {name: stage(name).report("paper").task_key() for name in set(published["paper"]) if name in running}
        other = published if self.stage_profile != "paper" else None
        return with_other_profile(ledger, other), published, stale_papers(published, current)

    def run(self):
        entries, tables = [], {}
        for report in progress(self.workload_reports(), desc="reading the workload pages"):
            workload = read_json(report.output_file("workload.json"))
            tables[workload["name"]] = pd.read_csv(report.output_file("metrics.csv"))
            entries.append((workload, f"{self.relative_link(report)}/report"))
        combined = combined_metrics_table(tables)
        searched = None if self.trace_names() else [str(d) for d in settings.trace_dirs()]
        stage_entries = [self.stage_entry(name, report) for name, report in
                         progress(list(self.stage_reports().items()), desc="reading each stage's task provenance")]
        run_times = paragraph(
            "Run times: every task's wall-clock time is appended, one line per run, to ",
            Code(f"<work directory>/{RUN_TIMES_FILE}"),
            " (kept out of this report, whose bytes must not depend on how long a run took).",
        )
        index = index_page(entries, combined, self.replay_settings(), searched)
        stages = stages_section(stage_entries)
        self.set_status_message("stacking the stages' claims ledgers")
        ledger, published, stale = self.claims_ledger()
        captions = {name: f"{name}: {stage(name).paper}" for name in dict.fromkeys(ledger["paper"])}
        with self.writing_output() as directory:
            forests = write_forests(directory, ledger, captions, f"{EVERY_CLAIM_PAGE}.html")
            headline = headline_blocks(ledger, published, stale, "paper-ledger.csv", captions, forests)
            index = Document(index.title, (*headline, *index.blocks, *stages, run_times))
            write_document(directory, "index", index)
            if not ledger.empty:
                write_document(directory, EVERY_CLAIM_PAGE, every_claim_document(ledger))
            write_ledger(directory, ledger, "Claims ledger of every paper")
            if published is not None:
                write_csv(directory / "paper-ledger.csv", published)
            write_csv(directory / "metrics.csv", combined)
            write_csv(directory / "provenance.csv", provenance_table(stage_entries))
        point_latest(self.output_dir())


@FullReport.event_handler(luigi.Event.DEPENDENCY_PRESENT)
def _latest_points_to_the_report(report: FullReport) -> None:
    """A build that finds its report complete points ``FullReport/latest`` at it: a stale or dangling link is repaired."""
    point_latest(report.output_dir())
