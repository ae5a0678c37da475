"""Luigi tasks of the bandwidth stage (co-allocation in multi-clusters, Jones et al. ICPADS 2006).

    BandwidthPoint(workload, strategy, ppbw, information, jobs_per_cluster, seed, pass_order) --> BandwidthReport(profile)

``BandwidthPoint`` runs one simulation, one seed (``simulators.bandwidth.simulate``), and writes
``summary.json`` (the point, its metrics and the mean queue depth by hour of day), and with
``--schedule`` also ``schedule.parquet`` (one row per job).  No figure or table reads per-job
data, so the report's points leave it out: at the paper's 400,000 jobs per cluster it would be
tens of megabytes per point.  ``BandwidthReport(profile="quick"|"paper")``
requires every point of the profile on each of its seeds (``simulators.bandwidth.experiments``)
and hands ``reports.bandwidth`` what it shows, as data: the result tables (``runs``: one row
per run and seed; ``queue_depth``: Migration Only's queue by hour, per seed) and the
parameters the runs used (profile, system, strategies' constants, each workload's recipe and
measured offered load), so the report imports nothing from the simulator.
"""

from __future__ import annotations

import dataclasses
import logging

import luigi
import pandas as pd

from pipeline.base import SchedlabTask, read_json, write_json
from reports.bandwidth import write_bandwidth_report
from simulators.bandwidth import workload as workloads
from simulators.bandwidth.experiments import (
    LIMITS, PAPER_PASS_ORDER, PROFILES, SWEPT, VARIANT_PASS_ORDER, WORKLOADS, Profile, points,
)
from simulators.bandwidth.placement import CHUNK_SHARE, LABELS, LSLT_THRESHOLD, PASS_ORDERS, STRATEGIES
from simulators.bandwidth.sharing import PROCESSING_SHARE
from simulators.bandwidth.simulate import SATURATION_CAP, SATURATION_FLOOR, SATURATION_SHARE, Point, simulate
from simulators.multicluster.topology import STAR_LINK_MBPS, star_4x100

logger = logging.getLogger("luigi-interface")


class BandwidthPoint(SchedlabTask):
    """One run: one workload on the 4 x 100 star, one strategy, one PPBW (None: U[0, 300])."""

    workload = luigi.ChoiceParameter(choices=workloads.WORKLOADS)
    strategy = luigi.ChoiceParameter(choices=tuple(STRATEGIES))
    ppbw = luigi.OptionalFloatParameter(default=None)
    information = luigi.FloatParameter(default=1.0)
    jobs_per_cluster = luigi.IntParameter()
    seed = luigi.IntParameter(default=1)
    pass_order = luigi.ChoiceParameter(choices=PASS_ORDERS, default=PASS_ORDERS[0])
    schedule = luigi.BoolParameter(default=False, description="also write schedule.parquet, one row per job")
    code_modules = ("simulators.bandwidth.simulate",)

    @classmethod
    def of(cls, point: Point, schedule: bool = False) -> BandwidthPoint:
        return cls(**dataclasses.asdict(point), schedule=schedule)

    def run(self):
        point = Point(self.workload, self.strategy, self.ppbw, self.information, self.jobs_per_cluster, self.seed,
                      self.pass_order)
        run, metrics = simulate(point)
        with self.writing_output() as directory:
            if self.schedule:
                run.schedule.to_parquet(directory / "schedule.parquet", index=False)
            write_json(directory / "summary.json", {"point": dataclasses.asdict(point), "metrics": metrics,
                                                    "queue_by_hour": run.queue_by_hour.tolist()})


def workload_recipes() -> dict[str, str]:
    """How each workload is built, from the constants ``simulators.bandwidth.workload`` uses."""
    low, high = workloads.SYNTHETIC_SIZES
    return {
        "realistic": "Lublin-Feitelson model with its published default parameters (not fitted to traces: daily "
                     "cycle, no weekly cycle), arrivals placed at a requested offered load of "
                     f"{workloads.REALISTIC_LOAD:g} per cluster",
        "synthetic": f"Poisson arrivals with a mean gap of {workloads.SYNTHETIC_MEAN_GAP:g} s per cluster; T_E0 "
                     f"exponential with mean {workloads.SYNTHETIC_MEAN_RUNTIME:g} s; sizes uniform on {low}..{high}",
        "A": "the realistic jobs on Poisson arrivals with the realistic stream's mean gap",
        "B": "the synthetic jobs on Lublin-Feitelson arrival times (daily cycle) placed at the synthetic stream's "
             "offered load",
        "C": f"the realistic jobs of {workloads.SMALL_JOB} or more processors at the arrival times they have in the "
             "realistic stream (the paper's reading of 'removing' the small jobs: arrivals kept, the offered load "
             "falls with the removed work)",
        "D": "C's jobs on Poisson arrivals with C's mean gap",
        "C_load": "named variant of C: the same jobs, their arrival times compressed so that each cluster offers the "
                  "load of its realistic stream (same seed, same number of jobs)",
        "D_load": "named variant of D: C_load's jobs on Poisson arrivals with C_load's mean gap",
    }


def report_parameters(profile_name: str, profile: Profile) -> dict:
    """Everything the page says about the setup, taken from the objects the runs used."""
    topology = star_4x100()
    total_nodes = int(topology.total_nodes)
    recipes = workload_recipes()
    described = {}
    for name in WORKLOADS:
        generated = [workloads.make_workload(name, profile.jobs_per_cluster, seed) for seed in profile.seeds]
        loads = [workloads.offered_load(w.submit, w.nodes, w.base_time, total_nodes) for w in generated]
        described[name] = {"recipe": recipes[name], "offered_load_per_seed": loads,
                           "estimates": "none used: FPFS without reservations never reads a run-time estimate"}
    return {
        "profile": {"name": profile_name, **dataclasses.asdict(profile)},
        "paper_jobs_per_cluster": PROFILES["paper"].jobs_per_cluster,
        "system": {"clusters": len(topology.capacities), "nodes_per_cluster": [int(c) for c in topology.capacities],
                   "link_mbps": STAR_LINK_MBPS, "processing_share": PROCESSING_SHARE,
                   "saturation": {"share": SATURATION_SHARE, "floor": SATURATION_FLOOR, "cap": SATURATION_CAP}},
        "strategies": {"labels": LABELS, "swept": list(SWEPT), "limits": list(LIMITS),
                       "lslt_threshold": LSLT_THRESHOLD, "chunk_share": CHUNK_SHARE},
        "pass_order": {"default": PAPER_PASS_ORDER, "variant": VARIANT_PASS_ORDER},
        "ppbw_range": list(workloads.PPBW_RANGE),
        "workloads": described,
    }


def result_tables(summaries) -> dict[str, pd.DataFrame]:
    """``runs`` (one row per run in the paper's pass order: the point and its metrics; ``ppbw_mixed``
    where each job draws its PPBW), ``pass_order_runs`` (the same for the runs in the per-job
    variant order) and ``queue_depth`` (Migration Only's mean waiting jobs by hour, per workload
    and seed)."""
    rows, depths = [], []
    for summary in summaries:
        point = summary["point"]
        rows.append({**point, "ppbw_mixed": point["ppbw"] is None, **summary["metrics"]})
        if point["strategy"] == "migration_only":
            depths += [{"workload": point["workload"], "seed": point["seed"], "hour": hour, "waiting_jobs": depth}
                       for hour, depth in enumerate(summary["queue_by_hour"])]
    runs = pd.DataFrame(rows).astype({"ppbw": float})
    runs = runs.sort_values(["workload", "strategy", "ppbw_mixed", "ppbw", "information", "seed"]).reset_index(drop=True)
    in_order = runs.pass_order == PAPER_PASS_ORDER
    return {"runs": runs[in_order].drop(columns="pass_order").reset_index(drop=True),
            "pass_order_runs": runs[~in_order].drop(columns="pass_order").reset_index(drop=True),
            "queue_depth": pd.DataFrame(depths)}


class BandwidthReport(SchedlabTask):
    """Figs. 5-13, Tables 1-2 and the claims ledger from every run of a profile."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    code_modules = ("reports.bandwidth", "simulators.bandwidth.workload")

    def requires(self):
        return [BandwidthPoint.of(point) for point in points(PROFILES[self.profile])]

    def run(self):
        tables = result_tables(read_json(task.output_file("summary.json")) for task in self.requires())
        parameters = report_parameters(self.profile, PROFILES[self.profile])
        with self.writing_output() as directory:
            write_bandwidth_report(directory, tables, parameters)
        logger.info("bandwidth report: %s", self.output_file("index.html"))
