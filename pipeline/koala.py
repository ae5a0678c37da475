"""Luigi tasks of the koala stage (processor coallocation, Sonmez et al. TPDS 2010).

    KoalaRuns(app, policy, net_utilizations, seeds, config, sizes, hours, ...) --+--> KoalaReport(profile)

``KoalaRuns`` runs one workload and policy on each of its seeds at each load of a grid
(``schedlab.simulators.koala.simulate``) and writes, each row tagged with its seed and net_utilization,
``schedule.parquet`` (one row per job: job_id, submit, placed, start, end, procs in nodes,
n_clusters, clusters), ``components.parquet`` (one row per job and cluster: job_id,
cluster, nodes, start, end) and ``summaries.json`` (each point and its metrics, seed by seed).
``KoalaReport(profile="quick"|"paper")`` requires every batch of the profile
(``schedlab.simulators.koala.experiments.batches``), gathers one row per run and the parameters the runs
used (``report_parameters``: profile, comparisons, applications, execution model,
clusters, saturation rule), and hands both to ``schedlab.reports.koala``, which writes
``runs.csv``, ``parameters.json``, the claims ledger, figures, tables and the page.
The report reads only those: every label and constant it shows travels from here.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging

import luigi
import pandas as pd

from pipeline.base import SchedlabTask, read_json, seed_series, write_json
from schedlab.reports.koala import write_report
from schedlab.reports.koala_sensitivity import write_sensitivity_report
from schedlab.simulators.koala import metrics
from schedlab.simulators.koala.execution import (
    CALIBRATION,
    CLUSTER_SET,
    POISSON_FOUR_CLUSTER_TIME,
    SPLIT_RULES,
    CommunicationModel,
    ExecutionModel,
    application,
)
from schedlab.simulators.koala.experiments import (
    MPI_APPS,
    POLICY_LABELS,
    PROFILES,
    Batch,
    Profile,
    batches,
    comparisons,
    sensitivity_profiles,
)
from schedlab.simulators.koala.simulate import POLICIES, Point, simulate
from schedlab.simulators.multicluster.topology import das3

logger = logging.getLogger("luigi-interface")

WARM_UP_HOURS = 0.5
"""Hours of arrivals of each policy's warm-up run (``KoalaRuns.warm_up``): a few jobs."""


class KoalaRuns(SchedlabTask):
    """One application's Poisson workload placed by one policy on one DAS-3 configuration, on each of
    ``seeds`` at every net utilization of a profile's grid (one task per load, or per seed, would spend
    more time in Luigi than in the simulator)."""

    app = luigi.Parameter(description="prime, poisson, wave or ccr-<value>")
    policy = luigi.ChoiceParameter(choices=tuple(POLICIES))
    net_utilizations = luigi.ListParameter(description="the offered net utilizations, one run each")
    seeds = luigi.ListParameter(description="the seeds, one run each at every load")
    config = luigi.ChoiceParameter(choices=("A", "B"), default="A")
    sizes = luigi.ListParameter(default=(8, 16, 32))
    hours = luigi.FloatParameter(default=24.0)
    slowest_processor = luigi.BoolParameter(default=False)
    startup_overhead = luigi.FloatParameter(default=0.0)
    split_rule = luigi.ChoiceParameter(choices=SPLIT_RULES, default=CLUSTER_SET,
                                       description="how f(S) weighs a job's clusters (schedlab.simulators.koala.execution)")
    two_cluster_weight = luigi.FloatParameter(default=1.0, description="w_2 of f(S), 0 to 1")
    three_cluster_weight = luigi.FloatParameter(default=1.0, description="w_3 of f(S), 0 to 1")
    scan_period = luigi.FloatParameter(default=0.0, description="seconds between scans of the placement queue "
                                                                "(0: at every arrival and end)")
    delft_latency_share = luigi.FloatParameter(default=1.0, description="share of Delft's extra latency, 0 to 1")
    nonempty_parameters = ("seeds",)
    code_modules = ("schedlab.simulators.koala.simulate",)

    @classmethod
    def covering(cls, batches: list[Batch]) -> dict[Batch, KoalaRuns]:
        """Each batch -> the task that runs it, in the order of ``batches``: one task per batch but for the seed, its
        seeds ascending."""
        by_point = {dataclasses.replace(batch.template, net_utilization=batch.net_utilizations): batch
                    for batch in batches}  # a batch's loads travel in its point, so that only equal grids share a task
        tasks = {}
        for common, seeds in seed_series(by_point).items():
            fields = dataclasses.asdict(common)
            del fields["seed"], fields["net_utilization"]
            task = cls(**fields, net_utilizations=common.net_utilization, seeds=seeds)
            tasks.update({by_point[dataclasses.replace(common, seed=seed)]: task for seed in seeds})
        return {batch: tasks[batch] for batch in batches}

    def points(self) -> list[Point]:
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(Point)
                  if f.name not in ("net_utilization", "seed")}
        template = {**fields, "sizes": tuple(int(s) for s in self.sizes)}
        return [Point(**template, seed=int(seed), net_utilization=float(load))
                for seed in self.seeds for load in self.net_utilizations]

    @classmethod
    def warm_up(cls) -> None:
        for policy in POLICIES:  # the compiled loop and the run invariants' compiled checks, from numba's cache
            simulate(Point("prime", policy, net_utilization=0.3, seed=1, hours=WARM_UP_HOURS))

    def run(self):
        schedules, components, summaries = [], [], []
        for point in self.points():
            result, summary = simulate(point)
            schedules.append(result.jobs.assign(seed=point.seed, net_utilization=point.net_utilization))
            components.append(result.components.assign(seed=point.seed, net_utilization=point.net_utilization))
            summaries.append({"point": dataclasses.asdict(point), "metrics": summary,
                              "cluster_use": metrics.cluster_use(result.jobs)})
        with self.writing_output() as directory:
            pd.concat(schedules, ignore_index=True).to_parquet(directory / "schedule.parquet", index=False,
                                                               write_page_checksum=True)
            pd.concat(components, ignore_index=True).to_parquet(directory / "components.parquet", index=False,
                                                                write_page_checksum=True)
            write_json(directory / "summaries.json", summaries)


def batch_summaries(tasks: dict[Batch, KoalaRuns]) -> dict[Batch, list[dict]]:
    """Each batch's run summaries, load by load, each task's ``summaries.json`` read once."""
    by_seed: dict[tuple[KoalaRuns, int], list[dict]] = {}
    for task in dict.fromkeys(tasks.values()):
        for summary in read_json(task.output_file("summaries.json")):
            by_seed.setdefault((task, summary["point"]["seed"]), []).append(summary)
    return {batch: by_seed[task, batch.template.seed] for batch, task in tasks.items()}


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


class ReadsKoalaRuns:
    """A task that reads the runs of every batch of some profiles (``profiles``), from the tasks that cover them."""

    def profiles(self) -> list[Profile]:
        raise NotImplementedError

    def batch_tasks(self) -> dict[Batch, KoalaRuns]:
        return KoalaRuns.covering([batch for profile in self.profiles() for batch in batches(profile)])

    def requires(self):
        return list(dict.fromkeys(self.batch_tasks().values()))


class KoalaReport(ReadsKoalaRuns, SchedlabTask):
    """Figs. 7a, 7b, 8, 10 and Table 4 regenerated, with every simulated claim of the paper judged in a ledger."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    code_modules = ("schedlab.reports.koala", "schedlab.reports.koala_claims", "schedlab.simulators.koala.metrics")

    def profiles(self) -> list[Profile]:
        return [PROFILES[self.profile]]

    def run(self):
        rows, use = [], []
        for summaries in batch_summaries(self.batch_tasks()).values():
            for summary in summaries:
                rows.append({**summary["point"], **summary["metrics"]})
                use += [{**summary["point"], "clusters": clusters, "jobs": jobs}
                        for clusters, jobs in summary["cluster_use"].items()]
        runs, use = pd.DataFrame(rows), pd.DataFrame(use)
        for frame in (runs, use):
            frame["sizes"] = frame["sizes"].map(lambda sizes: "/".join(map(str, sizes)))
        with self.writing_output() as directory:
            write_report(directory, {"runs": runs, "cluster_use": use},
                         report_parameters(self.profile, PROFILES[self.profile]))
        logger.info("koala report: %s", self.output_file("index.html"))


def _wave_mean_time(config: str, communication: CommunicationModel, clusters: int) -> float:
    """Wave's mean run time over the ``clusters``-cluster sets of ``config`` (equal components), as Fig. 4 shows it."""
    times = [row["wave_run_time_s"] for row in _cluster_sets(config, communication) if row["n_clusters"] == clusters]
    return sum(times) / len(times)


class KoalaSensitivity(ReadsKoalaRuns, SchedlabTask):
    """The whole koala ledger judged under every setting of the model's unknowns (``sensitivity_profiles``)."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    code_modules = ("schedlab.reports.koala_sensitivity", "schedlab.reports.koala_claims", "schedlab.simulators.koala.metrics")

    def profiles(self) -> list[Profile]:
        return sensitivity_profiles(PROFILES[self.profile])

    def run(self):
        profile = PROFILES[self.profile]
        summaries = batch_summaries(self.batch_tasks())
        rows, settings = [], []
        for index, variant in enumerate(sensitivity_profiles(profile)):
            rows += [{**summary["point"], **summary["metrics"], "setting": index}
                     for batch in batches(variant) for summary in summaries[batch]]
            settings.append(setting_of(index, variant, profile))
        runs = pd.DataFrame(rows)
        runs["sizes"] = runs["sizes"].map(lambda sizes: "/".join(map(str, sizes)))
        with self.writing_output() as directory:
            write_sensitivity_report(directory, runs, settings, self.profile)
        logger.info("koala sensitivity: %s", self.output_file("index.html"))


def setting_of(index: int, variant: Profile, profile: Profile) -> dict:
    """What the sensitivity page says of one setting: which unknown it moves from ``profile``'s DEFAULT, its
    value of every unknown, and Wave's mean time on 2 and 3 clusters under its weights."""
    if variant.scan_period != profile.scan_period:
        unknown = "scan period"
    elif variant.delft_latency_share != profile.delft_latency_share:
        unknown = "Delft latency"
    else:
        unknown = "2-/3-cluster weights"
    return {"setting": index, "unknown": unknown, **dataclasses.asdict(variant.communication),
            "scan_period": variant.scan_period, "delft_latency_share": variant.delft_latency_share,
            "default": variant == profile,
            "wave_two_cluster_s": _wave_mean_time(CALIBRATION["configuration"], variant.communication, 2),
            "wave_three_cluster_s": _wave_mean_time(CALIBRATION["configuration"], variant.communication, 3)}
