"""Luigi tasks of the bandwidth stage (co-allocation in multi-clusters, Jones et al. ICPADS 2006).

    BandwidthRuns(workload, jobs_per_cluster, seed, load, runs) --> BandwidthReport(profile)

``BandwidthRuns`` generates one workload's jobs for one seed once
(``schedlab.simulators.bandwidth.workload.generate_jobs``: at the paper's 400,000 jobs per cluster
that is seconds, like a run) and simulates every run the profile asks of it
(``schedlab.simulators.bandwidth.simulate``): each a strategy, a PPBW (None: every job its own draw),
an information level and a pass order.  It writes ``summaries.json``: the workload's
measured offered load and, per run, the point, its metrics and the mean queue depth by hour
of day.  No figure or table reads per-job data, so none is written: at 400,000 jobs per
cluster it would be tens of megabytes per run.  ``BandwidthReport(profile="quick"|"paper")``
requires every workload and seed of the profile (``schedlab.simulators.bandwidth.experiments``) and
hands ``schedlab.reports.bandwidth`` what it shows, as data: the result tables (``result_tables``:
``runs``, one row per run and seed; ``pass_order_runs``, the same in the variant pass order;
``load_runs`` and ``convergence_runs``, the sensitivity runs at other offered loads and fewer
jobs per cluster; ``queue_depth``, Migration Only's queue by hour, per seed; ``offered_load``,
per workload, seed, load and jobs per cluster) and the parameters
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
from schedlab.reports.bandwidth import write_report
from schedlab.simulators.bandwidth import workload as workloads
from schedlab.simulators.bandwidth.experiments import (
    LIMITS, PAPER_PASS_ORDER, PROFILES, SWEPT, VARIANT_PASS_ORDER, WORKLOADS, Profile, points,
)
from schedlab.simulators.bandwidth.placement import CHUNK_SHARE, LABELS, LSLT_THRESHOLD, STRATEGIES
from schedlab.simulators.bandwidth.sharing import PROCESSING_SHARE
from schedlab.simulators.bandwidth.simulate import SATURATION_CAP, SATURATION_FLOOR, SATURATION_SHARE, Point, generation, simulate_workload
from schedlab.simulators.multicluster.topology import STAR_LINK_MBPS, star_4x100

logger = logging.getLogger("luigi-interface")

WARM_UP_JOBS_PER_CLUSTER = 20
"""Jobs per cluster of the warm-up run of each strategy (``BandwidthRuns.warm_up``): a few."""


class BandwidthRuns(SchedlabTask):
    """Every run of one workload and seed on the 4 x 100 star, its jobs generated once."""

    workload = luigi.ChoiceParameter(choices=workloads.WORKLOADS)
    jobs_per_cluster = luigi.IntParameter()
    seed = luigi.IntParameter(default=1)
    load = luigi.OptionalFloatParameter(default=None, description="the realistic stream's offered load per "
                                                                  "cluster (default: the fitted trace's)")
    runs = luigi.ListParameter(description="one [strategy, ppbw or null (each job draws U[0, 300]), information, "
                                           "pass order] per run")
    code_modules = ("schedlab.simulators.bandwidth.simulate",)

    @classmethod
    def covering(cls, chosen: list[Point]) -> list[BandwidthRuns]:
        """One task per ``generation`` (workload, jobs per cluster, seed, load) of ``chosen``, its runs in
        ``chosen``'s order."""
        def key(point):  # None (the trace's load) sorts first
            workload, jobs, seed, load = generation(point)
            return workload, jobs, seed, load is not None, load or 0.0

        return [cls(workload=workload, jobs_per_cluster=jobs, seed=seed, load=load,
                    runs=[[p.strategy, p.ppbw, p.information, p.pass_order] for p in group])
                for (workload, jobs, seed, load), group in groupby(sorted(chosen, key=key), key=generation)]

    def points(self) -> list[Point]:
        return [Point(self.workload, strategy, ppbw, information, self.jobs_per_cluster, self.seed, pass_order,
                      self.load) for strategy, ppbw, information, pass_order in self.runs]

    def progress(self, done: int, point: Point) -> None:
        self.set_status_message(f"run {done + 1} of {len(self.runs)}: {point.strategy}, PPBW "
                                f"{'U[0, 300]' if point.ppbw is None else point.ppbw}, information "
                                f"{point.information:g}, {point.pass_order}")
        self.set_progress_percentage(100 * done // len(self.runs))

    @classmethod
    def warm_up(cls) -> None:
        # The compiled event loop, placement and the runs' compiled checks, from numba's cache: a few jobs per strategy.
        simulate_workload([Point("synthetic", strategy, None, jobs_per_cluster=WARM_UP_JOBS_PER_CLUSTER)
                           for strategy in STRATEGIES])

    def run(self):
        summaries = simulate_workload(self.points(), self.progress)
        with self.writing_output() as directory:
            write_json(directory / "summaries.json", summaries)


def workload_recipes() -> dict[str, str]:
    """How each workload is built, from the constants ``schedlab.simulators.bandwidth.workload`` uses."""
    low, high = workloads.SYNTHETIC_SIZES
    source = workloads.realistic_model()["source"]
    return {
        "realistic": f"jobs drawn from the model 'schedlab fit' makes of {source['trace']} ({workloads.REALISTIC_MODEL}: "
                     "weekly arrival clock with daily and weekly cycles, serial / power-of-two / other sizes, fitted "
                     f"runtime family, size-runtime correlation; {source['machine_procs']} processors, like each cluster), "
                     f"arrivals placed at the trace's offered load, {source['offered_load']:.3f} per cluster, before "
                     "sizes are made rectangular",
        "synthetic": f"Poisson arrivals with a mean gap of {workloads.SYNTHETIC_MEAN_GAP:g} s per cluster; T_E0 "
                     f"exponential with mean {workloads.SYNTHETIC_MEAN_RUNTIME:g} s; sizes uniform on {low}..{high}",
        "A": "the realistic jobs on Poisson arrivals with the realistic stream's mean gap",
        "B": "the synthetic jobs on the realistic model's arrival times (daily and weekly cycles) placed at the "
             "synthetic stream's offered load",
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


def result_tables(outputs, jobs_per_cluster: int) -> dict[str, pd.DataFrame]:
    """From ``BandwidthRuns`` outputs of a profile running ``jobs_per_cluster``: ``runs`` (one row
    per run in the paper's pass order at the trace's load: the point and its metrics; ``ppbw_mixed``
    where each job draws its PPBW), ``pass_order_runs`` (the same for the runs in the
    variant pass order), ``load_runs`` (the load-swept workloads at other offered loads), ``convergence_runs``
    (fewer jobs per cluster), ``queue_depth`` (Migration Only's mean waiting jobs by hour, per
    workload and seed) and ``offered_load`` (per workload, seed, load and jobs per cluster)."""
    rows, depths, loads = [], [], []
    for output in outputs:
        first = output["runs"][0]["point"]
        loads.append({**{key: first[key] for key in ("workload", "jobs_per_cluster", "load", "seed")},
                      "offered_load": output["offered_load"]})
        for summary in output["runs"]:
            point = summary["point"]
            rows.append({**point, "ppbw_mixed": point["ppbw"] is None, **summary["metrics"]})
            if point["strategy"] == "migration_only" and point["load"] is None and point["jobs_per_cluster"] == jobs_per_cluster:
                depths += [{"workload": point["workload"], "seed": point["seed"], "hour": hour, "waiting_jobs": depth}
                           for hour, depth in enumerate(summary["queue_by_hour"])]
    runs = pd.DataFrame(rows).astype({"ppbw": float, "load": float})
    runs = runs.sort_values(["workload", "strategy", "ppbw_mixed", "ppbw", "information", "jobs_per_cluster", "load",
                             "seed"]).reset_index(drop=True)
    at_scale, at_trace_load = runs.jobs_per_cluster == jobs_per_cluster, runs.load.isna()
    in_order = runs.pass_order == PAPER_PASS_ORDER

    def table(chosen, drop=("pass_order", "load")):
        return runs[chosen].drop(columns=list(drop)).reset_index(drop=True)

    return {"runs": table(at_scale & at_trace_load & in_order),
            "pass_order_runs": table(at_scale & at_trace_load & ~in_order),
            "load_runs": table(at_scale & ~at_trace_load, drop=("pass_order",)),
            "convergence_runs": table(~at_scale),
            "queue_depth": pd.DataFrame(depths),
            "offered_load": pd.DataFrame(loads).astype({"load": float}).sort_values(
                ["workload", "jobs_per_cluster", "load", "seed"]).reset_index(drop=True)}


class BandwidthReport(SchedlabTask):
    """Figs. 5-13, Tables 1-2 and the claims ledger from every run of a profile."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    code_modules = ("schedlab.reports.bandwidth", "schedlab.simulators.bandwidth.workload")

    def requires(self):
        return BandwidthRuns.covering(points(PROFILES[self.profile]))

    def run(self):
        tables = result_tables((read_json(task.output_file("summaries.json")) for task in self.requires()),
                               PROFILES[self.profile].jobs_per_cluster)
        parameters = report_parameters(self.profile, PROFILES[self.profile])
        with self.writing_output() as directory:
            write_report(directory, tables, parameters)
        logger.info("bandwidth report: %s", self.output_file("index.html"))
