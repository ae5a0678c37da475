"""Luigi tasks of the bandwidth stage (co-allocation in multi-clusters, Jones et al. ICPADS 2006).

    BandwidthRuns(workload, jobs_per_cluster, seed, runs) --> BandwidthReport(profile)

``BandwidthRuns`` generates one workload's jobs for one seed once
(``simulators.bandwidth.workload.generate_jobs``: at the paper's 400,000 jobs per cluster
that is seconds, like a run) and simulates every run the profile asks of it
(``simulators.bandwidth.simulate``): each a strategy, a PPBW (None: every job its own draw),
an information level and a pass order.  It writes ``summaries.json``: the workload's
measured offered load and, per run, the point, its metrics and the mean queue depth by hour
of day.  No figure or table reads per-job data, so none is written: at 400,000 jobs per
cluster it would be tens of megabytes per run.  ``BandwidthReport(profile="quick"|"paper")``
requires every workload and seed of the profile (``simulators.bandwidth.experiments``) and
hands ``reports.bandwidth`` what it shows, as data: the result tables (``runs``: one row per
run and seed; ``pass_order_runs``: the same in the variant order; ``queue_depth``: Migration
Only's queue by hour, per seed; ``offered_load``: per workload and seed) and the parameters
the runs used (profile, system, strategies' constants, each workload's recipe), so the report
imports nothing from the simulator.
"""

from __future__ import annotations

import dataclasses
import logging
from itertools import groupby

import luigi
import pandas as pd

from pipeline.base import SchedlabTask, read_json, write_json
from reports.bandwidth import write_bandwidth_report
from simulators.bandwidth import workload as workloads
from simulators.bandwidth.experiments import (
    LIMITS, PAPER_PASS_ORDER, PROFILES, SWEPT, VARIANT_PASS_ORDER, WORKLOADS, Profile, points,
)
from simulators.bandwidth.placement import CHUNK_SHARE, LABELS, LSLT_THRESHOLD
from simulators.bandwidth.sharing import PROCESSING_SHARE
from simulators.bandwidth.simulate import SATURATION_CAP, SATURATION_FLOOR, SATURATION_SHARE, Point, simulate_workload
from simulators.multicluster.topology import STAR_LINK_MBPS, star_4x100

logger = logging.getLogger("luigi-interface")


class BandwidthRuns(SchedlabTask):
    """Every run of one workload and seed on the 4 x 100 star, its jobs generated once."""

    workload = luigi.ChoiceParameter(choices=workloads.WORKLOADS)
    jobs_per_cluster = luigi.IntParameter()
    seed = luigi.IntParameter(default=1)
    runs = luigi.ListParameter(description="one [strategy, ppbw or null (each job draws U[0, 300]), information, "
                                           "pass order] per run")
    code_modules = ("simulators.bandwidth.simulate",)

    @classmethod
    def covering(cls, chosen: list[Point]) -> list[BandwidthRuns]:
        """One task per workload, jobs per cluster and seed of ``chosen``, its runs in ``chosen``'s order."""
        def generation(point):
            return point.workload, point.jobs_per_cluster, point.seed

        return [cls(workload=workload, jobs_per_cluster=jobs, seed=seed,
                    runs=[[p.strategy, p.ppbw, p.information, p.pass_order] for p in group])
                for (workload, jobs, seed), group in groupby(sorted(chosen, key=generation), key=generation)]

    def points(self) -> list[Point]:
        return [Point(self.workload, strategy, ppbw, information, self.jobs_per_cluster, self.seed, pass_order)
                for strategy, ppbw, information, pass_order in self.runs]

    def progress(self, done: int, point: Point) -> None:
        self.set_status_message(f"run {done + 1} of {len(self.runs)}: {point.strategy}, PPBW "
                                f"{'U[0, 300]' if point.ppbw is None else point.ppbw}, information "
                                f"{point.information:g}, {point.pass_order}")
        self.set_progress_percentage(100 * done // len(self.runs))

    def run(self):
        summaries = simulate_workload(self.points(), self.progress)
        with self.writing_output() as directory:
            write_json(directory / "summaries.json", summaries)


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
    recipes = workload_recipes()
    described = {name: {"recipe": recipes[name],
                        "estimates": "none used: FPFS without reservations never reads a run-time estimate"}
                 for name in WORKLOADS}
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


def result_tables(outputs) -> dict[str, pd.DataFrame]:
    """From ``BandwidthRuns`` outputs: ``runs`` (one row per run in the paper's pass order: the point
    and its metrics; ``ppbw_mixed`` where each job draws its PPBW), ``pass_order_runs`` (the same
    for the runs in the per-job variant order), ``queue_depth`` (Migration Only's mean waiting jobs
    by hour, per workload and seed) and ``offered_load`` (per workload and seed)."""
    rows, depths, loads = [], [], []
    outputs = list(outputs)
    for output in outputs:
        first = output["runs"][0]["point"]
        loads.append({"workload": first["workload"], "seed": first["seed"], "offered_load": output["offered_load"]})
    for summary in (summary for output in outputs for summary in output["runs"]):
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
            "queue_depth": pd.DataFrame(depths),
            "offered_load": pd.DataFrame(loads).sort_values(["workload", "seed"]).reset_index(drop=True)}


class BandwidthReport(SchedlabTask):
    """Figs. 5-13, Tables 1-2 and the claims ledger from every run of a profile."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    code_modules = ("reports.bandwidth", "simulators.bandwidth.workload")

    def requires(self):
        return BandwidthRuns.covering(points(PROFILES[self.profile]))

    def run(self):
        tables = result_tables(read_json(task.output_file("summaries.json")) for task in self.requires())
        parameters = report_parameters(self.profile, PROFILES[self.profile])
        with self.writing_output() as directory:
            write_bandwidth_report(directory, tables, parameters)
        logger.info("bandwidth report: %s", self.output_file("index.html"))
