"""The report: one page per workload (TraceReport) and the index linking them (FullReport).

What the report covers, when nothing is configured: every trace found in the trace
directories, or, when there is none, the embedded synthetic default (two
Lublin-Feitelson workloads, see ``FullReport``); each replayed under FCFS, EASY and
conservative backfilling.  The pages themselves are built by ``reports.pages``.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import luigi
import pandas as pd

from pipeline import settings
from pipeline.base import SchedlabTask, read_json, write_json
from pipeline.replay_tasks import ReplayTrace, workload_task
from pipeline.synthetic_tasks import SyntheticWorkload
from pipeline.trace_tasks import find_traces
from reports.document import Document, render_html, render_markdown, table
from reports.figures import save_figure, utilization_figure, wait_time_cdf_figure, wait_times
from reports.metrics import combined_metrics_table, metrics_by_policy, metrics_table
from reports.pages import index_page, trace_page

logger = logging.getLogger("luigi-interface")

DEFAULT_POLICIES = ("fcfs", "easy", "conservative")


def write_document(directory: Path, stem: str, document: Document) -> None:
    (directory / f"{stem}.md").write_text(render_markdown(document), encoding="utf-8")
    (directory / f"{stem}.html").write_text(render_html(document), encoding="utf-8")


def write_csv(path: Path, frame: pd.DataFrame) -> None:
    frame.to_csv(path, index=False, lineterminator="\n")


class ReplayChoices:
    """The replay parameters a report shares with its replays: policies, queue order, estimates."""

    policies = luigi.ListParameter(default=DEFAULT_POLICIES)
    order = luigi.Parameter(default="fcfs")
    estimates = luigi.Parameter(default="requested")

    def replay_settings(self) -> dict:
        return {"policies": list(self.policies), "order": self.order, "estimates": self.estimates}


class TraceReport(ReplayChoices, SchedlabTask):
    """The page of one workload: metrics per policy, figures, cleaning report, warnings.

    Outputs ``report.md`` and ``report.html``, ``metrics.csv`` and ``metrics.md`` (one
    row per policy), the figures ``wait_cdf`` and ``utilization`` as PNG and SVG, and a
    copy of the ``workload.json`` it describes.
    """

    trace = luigi.Parameter(description="workload: a trace name or a synthetic workload name")
    code_modules = ("reports.pages", "reports.figures")

    def label(self) -> str:
        """The workload's name alone: the replay choices are usually the defaults."""
        return self.trace

    def requires(self):
        return {
            "workload": workload_task(self.trace),
            "replays": [
                ReplayTrace(trace=self.trace, policy=policy, order=self.order, estimates=self.estimates)
                for policy in self.policies
            ],
        }

    def run(self):
        source = self.requires()["workload"]
        workload = read_json(source.output_file("workload.json"))
        cleaning_file = source.output_file("cleaning.json")
        cleaning = read_json(cleaning_file) if cleaning_file.exists() else None
        replays = {task.policy: task for task in self.requires()["replays"]}
        summaries = {policy: read_json(task.output_file("summary.json"))["metrics"] for policy, task in replays.items()}
        metrics = metrics_table(summaries)
        name = workload["name"]

        with self.writing_output() as directory:
            self.set_status_message("drawing the wait-time CDF")
            waits = {p: wait_times(pd.read_parquet(t.output_file("schedule.parquet"))) for p, t in replays.items()}
            save_figure(wait_time_cdf_figure(waits, f"Wait times: {name}"), directory, "wait_cdf")
            self.set_progress_percentage(40)
            self.set_status_message("drawing machine use over time")
            series = {p: pd.read_parquet(t.output_file("series.parquet")) for p, t in replays.items()}
            use = utilization_figure(series, workload["machine_procs"], f"Machine use: {name}")
            save_figure(use, directory, "utilization")
            self.set_progress_percentage(80)

            figures = [
                ("wait_cdf", "Cumulative distribution of job wait times, one line per policy"),
                ("utilization", "Busy processors and queued jobs over time, one line per policy"),
            ]
            page = trace_page(workload, metrics, self.replay_settings(), cleaning, figures)
            write_document(directory, "report", page)
            write_csv(directory / "metrics.csv", metrics)
            header, rows = metrics_by_policy(metrics)
            metrics_page = Document(f"Metrics of {name}", (table(header, rows, range(1, len(header))),))
            (directory / "metrics.md").write_text(render_markdown(metrics_page), encoding="utf-8")
            write_json(directory / "workload.json", workload)


class FullReport(ReplayChoices, SchedlabTask):
    """The browsable report: ``index.html`` and ``index.md`` linking every workload's page.

    Workloads: the traces named by the ``traces`` setting, else every trace in the trace
    directories, else the embedded synthetic default: ``synthetic_jobs`` Lublin-Feitelson
    jobs for each machine size in ``synthetic_machine_procs``, drawn with
    ``synthetic_seed``.  The index says which was used, naming traces by SHA-256.  It
    also writes ``metrics.csv``: every metric of every workload and policy.
    """

    synthetic_machine_procs = luigi.ListParameter(default=(128, 256))
    synthetic_jobs = luigi.IntParameter(default=3000)
    synthetic_seed = luigi.IntParameter(default=1)

    def trace_names(self) -> list[str]:
        return settings.selected_traces() or sorted(find_traces(settings.trace_dirs()))

    def workload_names(self) -> list[str]:
        synthetic = [
            SyntheticWorkload(machine_procs=procs, n_jobs=self.synthetic_jobs, seed=self.synthetic_seed).name
            for procs in self.synthetic_machine_procs
        ]
        return self.trace_names() or synthetic

    def input_fingerprint(self):
        """With the synthetic default, the index names the trace directories searched in vain."""
        return None if self.trace_names() else {"searched": [str(d) for d in settings.trace_dirs()]}

    def requires(self):
        return [
            TraceReport(trace=name, policies=self.policies, order=self.order, estimates=self.estimates)
            for name in self.workload_names()
        ]

    def label(self) -> str:
        """None: the key alone names the one report directory a configuration has."""
        return ""

    def run(self):
        entries, tables = [], {}
        for report in self.requires():
            workload = read_json(report.output_file("workload.json"))
            tables[workload["name"]] = pd.read_csv(report.output_file("metrics.csv"))
            link = Path(os.path.relpath(report.output_dir(), self.output_dir())) / "report"
            entries.append((workload, link.as_posix()))
        combined = combined_metrics_table(tables)
        fingerprint = self.input_fingerprint()
        searched = fingerprint["searched"] if fingerprint else None
        with self.writing_output() as directory:
            write_document(directory, "index", index_page(entries, combined, self.replay_settings(), searched))
            write_csv(directory / "metrics.csv", combined)
        logger.info("schedlab report: %s", self.output_file("index.html"))
