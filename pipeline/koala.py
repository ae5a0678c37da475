"""Luigi tasks of the koala stage (processor coallocation, Sonmez et al. TPDS 2010).

    KoalaPoint(app, policy, net_utilization, seed, config, sizes, hours, ...) --+--> KoalaReport(profile)

``KoalaPoint`` runs one simulation (``simulators.koala.simulate``) and writes
``schedule.parquet`` (one row per job: job_id, submit, placed, start, end, procs in nodes,
n_clusters, clusters) and ``summary.json`` (the point and its metrics).
``KoalaReport(profile="quick"|"paper")`` requires every point of the profile
(``simulators.koala.experiments``) and writes ``index.md`` / ``index.html``, figures
(PNG + SVG) and tables (CSV, Markdown, LaTeX) through ``reports.koala``.
"""

from __future__ import annotations

import dataclasses
import logging

import luigi
import pandas as pd

from pipeline.base import SchedlabTask, read_json, write_json
from reports.koala import write_koala_report
from simulators.koala.experiments import PROFILES, points
from simulators.koala.simulate import POLICIES, Point, simulate

logger = logging.getLogger("luigi-interface")


class KoalaPoint(SchedlabTask):
    """One run: one application's Poisson workload placed by one policy on one DAS-3 configuration."""

    app = luigi.Parameter(description="prime, poisson, wave or ccr-<value>")
    policy = luigi.ChoiceParameter(choices=tuple(POLICIES))
    net_utilization = luigi.FloatParameter()
    seed = luigi.IntParameter()
    config = luigi.ChoiceParameter(choices=("A", "B"), default="A")
    sizes = luigi.ListParameter(default=(8, 16, 32))
    hours = luigi.FloatParameter(default=24.0)
    slowest_processor = luigi.BoolParameter(default=False)
    startup_overhead = luigi.FloatParameter(default=0.0)
    code_modules = ("simulators.koala.simulate",)

    @classmethod
    def of(cls, point: Point) -> KoalaPoint:
        return cls(**dataclasses.asdict(point))

    def point(self) -> Point:
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(Point)}
        return Point(**{**fields, "sizes": tuple(int(s) for s in self.sizes)})

    def run(self):
        point = self.point()
        result, summary = simulate(point)
        with self.writing_output() as directory:
            result.jobs.to_parquet(directory / "schedule.parquet", index=False)
            write_json(directory / "summary.json", {"point": dataclasses.asdict(point), "metrics": summary})


class KoalaReport(SchedlabTask):
    """Figs. 7a, 7b, 8, 10 and Table 4 regenerated, with the paper's stated trends checked."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    code_modules = ("reports.koala",)

    def requires(self):
        return [KoalaPoint.of(point) for point in points(PROFILES[self.profile])]

    def run(self):
        rows = []
        for task in self.requires():
            summary = read_json(task.output_file("summary.json"))
            rows.append({**summary["point"], **summary["metrics"]})
        runs = pd.DataFrame(rows)
        runs["sizes"] = runs["sizes"].map(tuple)
        with self.writing_output() as directory:
            write_koala_report(directory, runs, self.profile, PROFILES[self.profile])
        logger.info("koala report: %s", self.output_file("index.html"))
