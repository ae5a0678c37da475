"""Luigi tasks of the bandwidth stage (co-allocation in multi-clusters, Jones et al. ICPADS 2006).

    BandwidthPoint(workload, strategy, ppbw, information, jobs_per_cluster, seed) --+--> BandwidthReport(profile)

``BandwidthPoint`` runs one simulation, one seed (``simulators.bandwidth.simulate``), and writes
``schedule.parquet`` (one row per job) and ``summary.json`` (the point, its metrics and
the mean queue depth by hour of day).  ``BandwidthReport(profile="quick"|"paper")``
requires every point of the profile on each of its seeds (``simulators.bandwidth.experiments``)
and writes the report through ``reports.bandwidth`` (means over seeds; Fig. 9 averages the
seeds' queue depths).
"""

from __future__ import annotations

import dataclasses
import logging

import luigi
import numpy as np
import pandas as pd

from pipeline.base import SchedlabTask, read_json, write_json
from reports.bandwidth import write_bandwidth_report
from simulators.bandwidth.experiments import PROFILES, points
from simulators.bandwidth.placement import STRATEGIES
from simulators.bandwidth.simulate import Point, simulate
from simulators.bandwidth.workload import WORKLOADS

logger = logging.getLogger("luigi-interface")


class BandwidthPoint(SchedlabTask):
    """One run: one workload on the 4 x 100 star, one strategy, one PPBW (None: U[0, 300])."""

    workload = luigi.ChoiceParameter(choices=WORKLOADS)
    strategy = luigi.ChoiceParameter(choices=tuple(STRATEGIES))
    ppbw = luigi.OptionalFloatParameter(default=None)
    information = luigi.FloatParameter(default=1.0)
    jobs_per_cluster = luigi.IntParameter()
    seed = luigi.IntParameter(default=1)
    code_modules = ("simulators.bandwidth.simulate",)

    @classmethod
    def of(cls, point: Point) -> BandwidthPoint:
        return cls(**dataclasses.asdict(point))

    def run(self):
        point = Point(self.workload, self.strategy, self.ppbw, self.information, self.jobs_per_cluster, self.seed)
        run, metrics = simulate(point)
        with self.writing_output() as directory:
            run.schedule.to_parquet(directory / "schedule.parquet", index=False)
            write_json(directory / "summary.json", {"point": dataclasses.asdict(point), "metrics": metrics,
                                                    "queue_by_hour": run.queue_by_hour.tolist()})


class BandwidthReport(SchedlabTask):
    """Figs. 5-13 and Tables 1-2 regenerated beside the paper's surviving numbers."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    code_modules = ("reports.bandwidth",)

    def requires(self):
        return [BandwidthPoint.of(point) for point in points(PROFILES[self.profile])]

    def run(self):
        rows, queue_by_hour = [], {}
        for task in self.requires():
            summary = read_json(task.output_file("summary.json"))
            rows.append({**summary["point"], **summary["metrics"]})
            point = summary["point"]
            if point["strategy"] == "migration_only" and point["workload"] in ("realistic", "synthetic"):
                queue_by_hour.setdefault(point["workload"], []).append(summary["queue_by_hour"])
        queue_by_hour = {workload: np.mean(depths, axis=0) for workload, depths in queue_by_hour.items()}
        runs = pd.DataFrame(rows).astype({"ppbw": float})
        with self.writing_output() as directory:
            write_bandwidth_report(directory, runs, queue_by_hour, self.profile, PROFILES[self.profile])
        logger.info("bandwidth report: %s", self.output_file("index.html"))
