"""Luigi tasks of the ics stage (implicit coscheduling and PROC, Yu, Kim and Maeng).

    IcsPoint(scheme, workload, load, n_jobs, skew, compression, nodes, mpl, ...) --> IcsReport(profile)

``IcsPoint`` simulates one experiment point (``simulators.ics.experiments.Point``) and
writes ``jobs.parquet`` (one row per job: job_id, kind, procs, submit, start, end,
wait, execution, response, slowdown) and ``summary.json`` (the point, its metrics and
its event count).  ``IcsReport(profile="quick"|"paper")`` requires every point of the
profile and writes ``index.md`` / ``index.html``, the figures (PNG + SVG) and the tables
(CSV, Markdown, LaTeX) built by ``reports.ics``.
"""

from __future__ import annotations

import dataclasses
import logging

import luigi
import pandas as pd

from pipeline.base import SchedlabTask, read_json, write_json
from pipeline.report_tasks import write_csv, write_document
from reports import ics as report
from reports.document import Document, render_markdown
from reports.figures import save_figure
from reports.tables import latex_table
from simulators.ics.experiments import PROFILES, Point, profile_points

logger = logging.getLogger("luigi-interface")


class IcsPoint(SchedlabTask):
    """One simulation: a workload of the ICS study run under one scheme."""

    scheme = luigi.Parameter()
    family = luigi.ChoiceParameter(choices=("synthetic", "npb"), default="synthetic")
    workload = luigi.Parameter(default="wl4")
    load = luigi.ChoiceParameter(choices=("heavy", "light"), default="heavy")
    n_jobs = luigi.IntParameter(default=40)
    skew = luigi.FloatParameter(default=0.10)
    compression = luigi.FloatParameter(default=5000.0)
    simultaneous = luigi.BoolParameter(default=False)
    nodes = luigi.IntParameter(default=32)
    mpl = luigi.IntParameter(default=5)
    apps = luigi.ListParameter(default=())
    mean_interarrival = luigi.FloatParameter(default=0.0)
    seed = luigi.IntParameter(default=1)
    code_modules = ("simulators.ics.experiments",)

    @classmethod
    def of(cls, point: Point) -> IcsPoint:
        return cls(**point.parameters())

    def point(self) -> Point:
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(Point)}
        return Point(**{**fields, "apps": tuple(self.apps)})

    def label(self) -> str:
        point = self.point()
        what = "-".join(point.apps) if point.family == "npb" else f"{point.workload}-{point.load}"
        return f"{point.scheme}_{what}_mpl{point.mpl}_n{point.n_jobs}"

    def run(self):
        point = self.point()
        self.set_status_message(f"simulating {point.scheme} on {point.family} {point.workload}")
        result = point.run()
        with self.writing_output() as directory:
            result.jobs.to_parquet(directory / "jobs.parquet", index=False)
            write_json(directory / "summary.json", {"point": point.parameters(), "metrics": result.summary})


class IcsReport(SchedlabTask):
    """Figs. 7-14 and Tables 3-4 of the paper regenerated, with the paper's numbers beside ours."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    code_modules = ("reports.ics",)

    def figure_tasks(self) -> dict[str, dict[tuple, IcsPoint]]:
        return {
            figure: {key: IcsPoint.of(point) for key, point in points.items()}
            for figure, points in profile_points(PROFILES[self.profile]).items()
        }

    def requires(self):
        unique = {task.task_id: task for tasks in self.figure_tasks().values() for task in tasks.values()}
        return [unique[key] for key in sorted(unique)]

    def run(self):
        frames = {}
        events = 0
        for figure, tasks in self.figure_tasks().items():
            rows = []
            for (group, scheme), task in tasks.items():
                metrics = read_json(task.output_file("summary.json"))["metrics"]
                rows.append({"group": group, **metrics, "scheme": scheme})
                events += metrics["events"]
            frames[figure] = report.figure_table(rows)
        profile = PROFILES[self.profile]
        with self.writing_output() as directory:
            write_ics_report(directory, profile, frames, events)
        logger.info("ics report: %s", self.output_file("index.html"))


def write_table(directory, stem: str, frame: pd.DataFrame) -> None:
    write_csv(directory / f"{stem}.csv", frame)
    (directory / f"{stem}.tex").write_text(latex_table(frame), encoding="utf-8")
    page = Document(stem.replace("_", " "), (report.markdown_table(frame),))
    (directory / f"{stem}.md").write_text(render_markdown(page), encoding="utf-8")


def write_ics_report(directory, profile, frames: dict[str, pd.DataFrame], events: int) -> None:
    figures = []

    def figure(stem, built, caption):
        save_figure(built, directory, stem)
        figures.append((stem, caption))

    tables = {}
    for name, frame in frames.items():
        title = report.FIGURE_TITLES[name]
        tables[f"{name}_results"] = report.main_table(frame)
        if name in ("fig7", "fig8", "fig9", "fig10", "fig12", "compression"):
            figure(f"{name}_response", report.response_figure(frame, title), f"{title}: mean response time")
        if name in ("fig11", "fig13"):
            base = "BATCH" if name == "fig13" else None
            figure(f"{name}_turnaround", report.turnaround_figure(frame, title, base), f"{title}: turnaround")
        if name == "fig14":
            figure(f"{name}_response", report.lines_figure(frame, "mean_response", title, "mean response (compressed s)"),
                   f"{title}: mean response time")
        figure(f"{name}_profile", report.cpu_profile_figure(frame, title), f"{title}: CPU profile")
        if name in report.PAPER_BCR_FDR:
            tables[f"{name}_bcr_fdr"] = report.bcr_fdr_table(frame, report.PAPER_BCR_FDR[name])
        if name == "fig12":
            tables["fig12_fairness"] = report.fairness_table(frame)
            figure("fig12_slowdown", report.slowdown_by_type_figure(frame, title), f"{title}: slowdown per job type")
        if name == "fig13":
            tables["fig13_vs_batch"] = report.npb_speedup_table(frame)
        if name == "compression":
            tables["compression_ranking"] = report.compression_table(frame)
    tables["paper_reductions"] = report.reductions_table(frames)
    for stem, frame in tables.items():
        write_table(directory, stem, frame)
    checks = report.ranking_checks(frames["fig8"], "heavy") if "fig8" in frames else []
    setup = {
        "profile": profile.name,
        "synthetic jobs per workload": profile.n_jobs,
        "time compression (synthetic)": f"{profile.compression:g}",
        "NPB jobs, compression": f"{profile.npb_jobs}, {profile.npb_compression:g}",
        "figures": ", ".join(profile.figures),
    }
    speed = {"simulated events over all points": f"{events:,}",
             "events per second": "printed by bench/bench_ics.py (wall time is not part of any output)"}
    page = report.report_page(setup, figures, tables, checks, report.discussion(frames, checks), speed)
    write_document(directory, "index", page)
    write_json(directory / "ranking_checks.json", [{"ranking": n, "holds": ok, "values": d} for n, ok, d in checks])
