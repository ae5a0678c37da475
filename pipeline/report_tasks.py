"""The report: one page per workload (TraceReport); the index linking them is ``pipeline.full_report``.

What the report covers, when nothing is configured: every trace found in the trace
directories, or, when there is none, the embedded synthetic default (two
Lublin-Feitelson workloads, see ``FullReport``); each replayed under FCFS, EASY and
conservative backfilling.  The pages themselves are built by ``schedlab.reports.pages``.
"""

from __future__ import annotations

import logging
from pathlib import Path

import luigi
import pandas as pd

from pipeline.base import SchedlabTask, read_json, write_json
from pipeline.synthetic_tasks import SyntheticWorkload
from pipeline.replay_tasks import (
    DEFAULT_RESAMPLE_MAX_JOBS,
    DEFAULT_RESAMPLES,
    OrderParameter,
    ReplayTrace,
    ResampledReplays,
    workload_task,
)
from schedlab.reports.document import Document, render_html, render_markdown, table
from schedlab.reports.figures import (
    recorded_waits,
    save_figure,
    utilization_figure,
    wait_time_cdf_figure,
    wait_times,
)
from schedlab.reports.metrics import metrics_by_policy, metrics_table, recorded_wait_comparison
from schedlab.reports.pages import trace_page
from schedlab.simulators.core.tails import tails_table
from schedlab.options import one_of
from schedlab.simulators.batch.conventions import ESTIMATES
from schedlab.simulators.batch.policies import BUILT_IN_POLICIES, canonical_name, policy_label

logger = logging.getLogger("luigi-interface")

DEFAULT_POLICIES = ("fcfs", "easy", "conservative")


def write_document(directory: Path, stem: str, document: Document) -> None:
    (directory / f"{stem}.md").write_text(render_markdown(document), encoding="utf-8")
    (directory / f"{stem}.html").write_text(render_html(document), encoding="utf-8")


def write_csv(path: Path, frame: pd.DataFrame) -> None:
    frame.to_csv(path, index=False, lineterminator="\n")


def _users_by_job(workload_source) -> pd.Series | None:
    """The workload's user of each job id, where its job table names users (None otherwise)."""
    table = workload_source.output_file("jobs.parquet")
    if not table.exists():
        return None
    jobs = pd.read_parquet(table, columns=["job_id", "user_id"])
    return None if (jobs["user_id"] < 0).all() else jobs.set_index("job_id")["user_id"]


class PoliciesParameter(luigi.ListParameter):
    """Policies, each a built-in name or a reference to a researcher's class (normalised
    as ``ReplayTrace.policy`` is)."""

    def normalize(self, x):
        return tuple(canonical_name(policy, BUILT_IN_POLICIES, "policy") for policy in super().normalize(x))


class ReplayChoices:
    """The replay parameters a report shares with its replays: policies, queue order, estimates."""

    parameter_ranges = {"estimates": one_of(ESTIMATES)}
    nonempty_parameters = ("policies",)
    policies = PoliciesParameter(default=DEFAULT_POLICIES)
    order = OrderParameter(default="fcfs")
    estimates = luigi.Parameter(default="requested")
    feedback = luigi.BoolParameter(default=False, parsing=luigi.BoolParameter.EXPLICIT_PARSING,
                                   description="replay closed-loop where a trace has users (docs/sessions.md)")

    def replay_settings(self) -> dict:
        """The choices as pages show them: each policy by its ``policy_label``."""
        return {"policies": [policy_label(p) for p in self.policies], "order": self.order, "estimates": self.estimates}


class TraceReport(ReplayChoices, SchedlabTask):
    """The page of one workload: metrics per policy, figures, cleaning report, warnings.

    Outputs ``report.md`` and ``report.html``, ``metrics.csv`` and ``metrics.md`` (one
    row per policy), the figures ``wait_cdf`` and ``utilization`` as PNG and SVG, and a
    copy of the ``workload.json`` it describes.
    """

    trace = luigi.Parameter(description="workload: a trace name or a synthetic workload name")
    resamples = luigi.IntParameter(default=DEFAULT_RESAMPLES,
                                   description="policies compared over this many user-based resamples (0: none)")
    resample_max_jobs = luigi.IntParameter(default=DEFAULT_RESAMPLE_MAX_JOBS,
                                           description="largest trace (jobs) the resampled comparison runs on")
    code_modules = ("schedlab.reports.pages", "schedlab.reports.figures", "schedlab.reports.resampled")

    def label(self) -> str:
        """The workload's name alone: the replay choices are usually the defaults."""
        return self.trace

    def requires(self):
        required = {
            "workload": workload_task(self.trace),
            "replays": [
                ReplayTrace(trace=self.trace, policy=policy, order=self.order, estimates=self.estimates,
                            feedback=self.feedback)
                for policy in self.policies
            ],
        }
        if self.resampled():
            required["resampled"] = ResampledReplays(trace=self.trace, policies=self.policies, order=self.order,
                                                     estimates=self.estimates, resamples=self.resamples,
                                                     max_jobs=self.resample_max_jobs)
        return required

    def run(self):
        source = self.requires()["workload"]
        workload = read_json(source.output_file("workload.json"))
        cleaning_file = source.output_file("cleaning.json")
        cleaning = read_json(cleaning_file) if cleaning_file.exists() else None
        replays = {policy_label(task.policy): task for task in self.requires()["replays"]}
        read = {policy: read_json(task.output_file("summary.json")) for policy, task in replays.items()}
        summaries = {policy: summary["metrics"] for policy, summary in read.items()}
        arrivals = next(iter(read.values()))["parameters"]["arrivals"]
        metrics = metrics_table(summaries)
        name = workload["name"]

        with self.writing_output() as directory:
            self.set_status_message("drawing the wait-time CDF")
            schedules = {p: pd.read_parquet(t.output_file("schedule.parquet")) for p, t in replays.items()}
            waits = {p: wait_times(schedule) for p, schedule in schedules.items()}
            logged = recorded_waits(next(iter(schedules.values())))
            save_figure(wait_time_cdf_figure(waits, f"Wait times: {name}", logged), directory, "wait_cdf")
            self.set_progress_percentage(40)
            self.set_status_message("drawing machine use over time")
            series = {p: pd.read_parquet(t.output_file("series.parquet")) for p, t in replays.items()}
            use = utilization_figure(series, workload["machine_procs"], f"Machine use: {name}")
            save_figure(use, directory, "utilization")
            self.set_progress_percentage(80)

            figures = [
                ("wait_cdf", "Cumulative distribution of job wait times, one line per policy"
                             + (" and the log's recorded waits dashed" if len(logged) else "")),
                ("utilization", "Busy processors and queued jobs over time, one colour per policy"),
            ]
            users = _users_by_job(source)
            tails = tails_table(waits, None if users is None else
                                {p: users.reindex(schedule["job_id"]).to_numpy() for p, schedule in schedules.items()})
            comparison = recorded_wait_comparison(schedules)
            resampled = self.resampled_comparison(directory, name)
            settings = {**self.replay_settings(), "arrivals": arrivals}
            page = trace_page(workload, metrics, settings, cleaning, figures, comparison, resampled, tails)
            write_document(directory, "report", page)
            write_csv(directory / "metrics.csv", metrics)
            write_csv(directory / "recorded_waits.csv", comparison)
            write_csv(directory / "tails.csv", tails)
            header, rows = metrics_by_policy(metrics)
            metrics_page = Document(f"Metrics of {name}", (table(header, rows, range(1, len(header))),))
            (directory / "metrics.md").write_text(render_markdown(metrics_page), encoding="utf-8")
            write_json(directory / "workload.json", workload)

    def resampled(self) -> bool:
        """Whether the page compares the policies over resamples: of a trace (a synthetic workload has no users)."""
        return self.resamples > 0 and SyntheticWorkload.from_name(self.trace) is None

    def resampled_comparison(self, directory: Path, name: str) -> dict | None:
        """The resampled comparison's status, with its paired table and figure written beside the page."""
        if not self.resampled():
            return None
        from schedlab.reports.resampled import paired_table, resampled_figure

        task = self.requires()["resampled"]
        status = read_json(task.output_file("resampled.json"))
        if not status["ran"]:
            return status
        runs = pd.read_csv(task.output_file("runs.csv"))
        write_csv(directory / "resampled_runs.csv", runs)  # provenance: each policy by its full name
        labelled = runs.assign(policy=runs["policy"].map(policy_label))  # as the page's other tables name them
        paired = paired_table(labelled)
        write_csv(directory / "resampled_paired.csv", paired)
        save_figure(resampled_figure(labelled, f"Mean wait over {len(status['seeds'])} resamples of {name}"),
                    directory, "resampled_wait")
        return {**status, "paired": paired}
