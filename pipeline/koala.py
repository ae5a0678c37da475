"""Luigi tasks of the koala stage (processor coallocation, Sonmez et al. TPDS 2010).

    KoalaPoint(app, policy, net_utilization, seed, config, sizes, hours, ...) --+--> KoalaReport(profile)

``KoalaPoint`` runs one simulation (``simulators.koala.simulate``) and writes
``schedule.parquet`` (one row per job: job_id, submit, placed, start, end, procs in nodes,
n_clusters, clusters) and ``summary.json`` (the point and its metrics).
``KoalaReport(profile="quick"|"paper")`` requires every point of the profile
(``simulators.koala.experiments``), gathers one row per run and the parameters the runs
used (``report_parameters``: profile, comparisons, applications, execution model,
clusters, saturation rule), and hands both to ``reports.koala``, which writes
``runs.csv``, ``parameters.json``, the claims ledger, figures, tables and the page.
The report reads only those: every label and constant it shows travels from here.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging

import luigi
import pandas as pd

from pipeline.base import SchedlabTask, read_json, write_json
from reports.koala import write_koala_report
from simulators.koala import metrics
from simulators.koala.execution import (
    CALIBRATION,
    CLUSTER_SET,
    POISSON_FOUR_CLUSTER_TIME,
    SPLIT_RULES,
    CommunicationModel,
    ExecutionModel,
    application,
)
from simulators.koala.experiments import MPI_APPS, POLICY_LABELS, PROFILES, Profile, comparisons, points
from simulators.koala.simulate import POLICIES, Point, simulate
from simulators.multicluster.topology import das3

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
    split_rule = luigi.ChoiceParameter(choices=SPLIT_RULES, default=CLUSTER_SET,
                                       description="how f(S) weighs a job's clusters (simulators.koala.execution)")
    two_cluster_weight = luigi.FloatParameter(default=1.0, description="w_2 of f(S), 0 to 1")
    three_cluster_weight = luigi.FloatParameter(default=1.0, description="w_3 of f(S), 0 to 1")
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


def _cluster_sets(config: str, communication: CommunicationModel) -> list[dict]:
    """f(S) and Wave's run time on every set of clusters of ``config``, equal components."""
    topology = das3(config)
    model = ExecutionModel(topology, communication=communication)
    wave = application("wave")
    rows = []
    for count in range(1, len(topology.clusters) + 1):
        for chosen in itertools.combinations(range(len(topology.clusters)), count):
            placement = tuple((cluster, 8) for cluster in chosen)
            rows.append({
                "config": config,
                "clusters": "+".join(topology.names[c] for c in chosen),
                "n_clusters": count,
                "communication_factor": model.communication_factor(placement),
                "wave_run_time_s": model.run_time(wave, placement),
            })
    return rows


def _split_dependence(communication: CommunicationModel) -> dict:
    """f(S) of the four clusters of config A for an even and a lopsided split of 32 nodes: equal iff the
    model ignores how a job's nodes are spread over its clusters."""
    model = ExecutionModel(das3("A"), communication=communication)
    splits = {"8/8/8/8": ((0, 8), (1, 8), (2, 8), (3, 8)), "29/1/1/1": ((0, 29), (1, 1), (2, 1), (3, 1))}
    return {name: model.communication_factor(placement) for name, placement in splits.items()}


def report_parameters(profile_name: str, profile: Profile) -> dict:
    """Everything the report states about the runs, taken from the objects the runs used."""
    lines = comparisons(profile)
    apps = sorted({line.app for line in lines})
    configs = sorted({line.config for line in lines})
    model = ExecutionModel(das3("A"))
    return {
        "profile_name": profile_name,
        "profile": dataclasses.asdict(profile),
        "comparisons": [dataclasses.asdict(line) for line in lines],
        "policies": {name: {"label": POLICY_LABELS[name], "request": POLICIES[name][1]} for name in POLICIES},
        "applications": {
            key: {
                "name": MPI_APPS.get(key, application(key).name),
                "single_cluster_time_s": application(key).single_cluster_time,
                "ccr": application(key).ccr,
                "computation_s": application(key).computation,
                "communication_s": application(key).communication,
            }
            for key in apps
        },
        "configs": {
            config: {
                "clusters": [dataclasses.asdict(cluster) for cluster in das3(config).clusters],
                "total_nodes": das3(config).total_nodes,
            }
            for config in configs
        },
        "execution_model": {
            "kappa_per_ms": model.kappa,
            "calibration": dict(CALIBRATION),
            "poisson_four_cluster_time_s": POISSON_FOUR_CLUSTER_TIME,
            "communication": dataclasses.asdict(profile.communication),
            "factor_by_split": _split_dependence(profile.communication),
            "cluster_sets": [row for config in configs for row in _cluster_sets(config, profile.communication)],
        },
        "saturation_rule": {
            "sample_step_s": metrics.SAMPLE_STEP,
            "warm_up_fraction": metrics.WARM_UP_FRACTION,
            "growth_share_of_jobs": metrics.GROWTH_SHARE_OF_JOBS,
            "min_growth_jobs": metrics.MIN_GROWTH_JOBS,
        },
    }


class KoalaReport(SchedlabTask):
    """Figs. 7a, 7b, 8, 10 and Table 4 regenerated, with every simulated claim of the paper judged in a ledger."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    code_modules = ("reports.koala", "reports.koala_claims", "simulators.koala.metrics")

    def requires(self):
        return [KoalaPoint.of(point) for point in points(PROFILES[self.profile])]

    def run(self):
        rows = []
        for task in self.requires():
            summary = read_json(task.output_file("summary.json"))
            rows.append({**summary["point"], **summary["metrics"]})
        runs = pd.DataFrame(rows)
        runs["sizes"] = runs["sizes"].map(lambda sizes: "/".join(map(str, sizes)))
        with self.writing_output() as directory:
            write_koala_report(directory, runs, report_parameters(self.profile, PROFILES[self.profile]))
        logger.info("koala report: %s", self.output_file("index.html"))
