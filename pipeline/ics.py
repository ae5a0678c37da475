"""Luigi tasks of the ics stage (implicit coscheduling and PROC, Yu, Kim and Maeng).

    IcsRuns(scheme, workload, load, n_jobs, skew, compression, iteration_share, nodes, mpl, seeds, ...) --> IcsReport(profile)

``IcsRuns`` simulates one experiment point (``schedlab.simulators.ics.experiments.Point``) on each
of its seeds and writes ``jobs.parquet`` (one row per job and seed: seed, job_id, kind, procs, submit,
start, end, wait, execution, response, slowdown) and ``summaries.json`` (per seed, in the task's
order: the point, its metrics, its event count and the offered load of its workload).  ``IcsReport(profile="quick"|"paper")``
requires every point of the profile (each figure's points once per seed of the profile)
and writes the stage's result tables into its directory: ``runs.csv`` (one row per
figure, group, scheme and seed), ``means_runs.csv`` (the same for the figures also run
with the variant reading of the stated means), ``schemes.csv`` (each scheme and how it waits) and
``parameters.json`` (the profile and the model constants the runs used).  The page,
figures, tables and claims ledger are then built from those files alone by
``schedlab.reports.ics.write_report``, which imports nothing from the simulator.
"""

from __future__ import annotations

import dataclasses
import logging
import math

import luigi
import pandas as pd

from pipeline.base import SchedlabTask, read_json, seed_series, write_json
from schedlab.reports import ics as report
from schedlab.simulators.ics import kernel, metrics, network, tstable, workload
from schedlab.simulators.ics.experiments import (
    ALL_SCHEMES,
    DEFAULT_MEANS,
    PROFILES,
    VARIANT_MEANS,
    Point,
    Profile,
    means_variant_points,
    profile_points,
)
from schedlab.simulators.ics.simulate import simulate
from schedlab.simulators.ics.schemes import BLOCKING, SCHEMES, SPINNING, base, boosts_a_spinner, gang, proc, spinning
from schedlab.simulators.ics.state import CPU_CATEGORIES

logger = logging.getLogger("luigi-interface")

WARM_UP_JOBS = 4
"""Jobs of each scheme's warm-up run (``IcsRuns.warm_up``): enough to reach every event handler."""


class IcsRuns(SchedlabTask):
    """One point of the ICS study simulated on each of ``seeds``: one task per series of seeds, since a
    point's run takes less time than Luigi spends on a task."""

    scheme = luigi.Parameter()
    family = luigi.ChoiceParameter(choices=("synthetic", "npb"), default="synthetic")
    workload = luigi.Parameter(default="wl4")
    load = luigi.ChoiceParameter(choices=("heavy", "light"), default="heavy")
    n_jobs = luigi.IntParameter(default=160)
    skew = luigi.FloatParameter(default=0.10)
    compression = luigi.FloatParameter(default=8000.0)
    iteration_share = luigi.FloatParameter(default=1.0)
    simultaneous = luigi.BoolParameter(default=False)
    nodes = luigi.IntParameter(default=32)
    mpl = luigi.IntParameter(default=5)
    apps = luigi.ListParameter(default=())
    mean_interarrival = luigi.FloatParameter(default=0.0)
    seeds = luigi.ListParameter(description="the seeds, one run each")
    boost_preempts_spinner = luigi.BoolParameter(default=True, parsing=luigi.BoolParameter.EXPLICIT_PARSING)
    means = luigi.ChoiceParameter(choices=(DEFAULT_MEANS, VARIANT_MEANS), default=DEFAULT_MEANS)
    nonempty_parameters = ("seeds",)
    code_modules = ("schedlab.simulators.ics.simulate",)

    @classmethod
    def covering(cls, points) -> dict[Point, IcsRuns]:
        """Each of ``points`` -> the task that runs it: one task per point but for the seed, its seeds
        in ascending order."""
        tasks = {}
        for common, seeds in seed_series(points).items():
            task = cls(**{k: v for k, v in common.parameters().items() if k != "seed"}, seeds=seeds)
            tasks.update({dataclasses.replace(common, seed=seed): task for seed in seeds})
        return tasks

    def points(self) -> list[Point]:
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(Point) if f.name != "seed"}
        return [Point(**{**fields, "apps": tuple(self.apps)}, seed=int(seed)) for seed in self.seeds]

    def label(self) -> str:
        point = self.points()[0]
        what = "-".join(point.apps) if point.family == "npb" else f"{point.workload}-{point.load}"
        return f"{point.scheme}_{what}_mpl{point.mpl}_n{point.n_jobs}_s{self.seeds[0]}-{self.seeds[-1]}"

    @classmethod
    def warm_up(cls) -> None:
        for scheme in ALL_SCHEMES:  # the compiled kernel's helpers of every scheme, from numba's cache
            simulate(Point(scheme, n_jobs=WARM_UP_JOBS))

    def run(self):
        tables, summaries = [], []
        for done, point in enumerate(self.points()):
            self.set_status_message(f"simulating {point.scheme} on {point.family} {point.workload} seed {point.seed}")
            self.set_progress_percentage(100 * done // len(self.seeds))
            result, summary = simulate(point)
            tables.append(result.jobs.assign(seed=point.seed))
            summaries.append(summary)
        with self.writing_output() as directory:
            pd.concat(tables, ignore_index=True).to_parquet(directory / "jobs.parquet", index=False,
                                                            write_page_checksum=True)
            write_json(directory / "summaries.json", summaries)

    def summaries(self) -> dict[int, dict]:
        """Seed -> its run's row, as ``schedlab.simulators.ics.simulate.simulate`` gives it."""
        return dict(zip(self.seeds, read_json(self.output_file("summaries.json"))))


def scheme_table() -> pd.DataFrame:
    """Every scheme in the paper's order, with how a process waits for a message (Table 1)."""
    def waiting(scheme: str) -> str:
        if scheme in SPINNING:
            return "spinning"
        if scheme in BLOCKING:
            return "blocking"
        return "gang" if scheme == "GS" else "space sharing"

    return pd.DataFrame({"scheme": list(ALL_SCHEMES), "waiting": [waiting(s) for s in ALL_SCHEMES]})


def model_parameters() -> dict:
    """The simulator's constants, as the runs used them, for the report's setup section."""
    return {
        "cpu_categories": list(CPU_CATEGORIES),
        "network": {
            "one_way_16k_s": network.ONE_WAY_16K, "startup_s": network.STARTUP,
            "seconds_per_byte": network.SECONDS_PER_BYTE,
        },
        "costs_s": {
            "ICS context switch": base.ICS_SWITCH_COST, "gang context switch": gang.GANG_SWITCH_COST,
            "gang quantum": gang.GANG_QUANTUM, "interrupt": kernel.INTERRUPT_COST,
            "pending-message check per process": base.CHECK_COST, "move a process in the queue": base.MOVE_COST,
            "PROC upload": proc.UPLOAD_COST, "PROC download": proc.DOWNLOAD_COST,
            "PT entry update": proc.PT_ENTRY_COST, "PB boost period": spinning.PeriodicBoost.boost_period,
        },
        "scheduler": {"levels": tstable.LEVELS, "quantum_s_min": min(tstable.QUANTUM),
                      "quantum_s_max": max(tstable.QUANTUM), "ewma_weight": kernel.EWMA_WEIGHT,
                      "periodic_boost_position": {scheme.name: "front" if scheme.boost_first else "back"
                                                  for scheme in (spinning.PeriodicBoost, proc.ProcSpinning)},
                      "message_handling": {name: SCHEMES[name].message_handling for name in ALL_SCHEMES}},
        "synthetic": {
            "mean_interarrival_s": dict(workload.MEAN_INTERARRIVAL), "mean_runtime_s": workload.MEAN_RUNTIME,
            "sizes": [workload.MIN_SIZE, workload.MAX_SIZE], "min_iterations": workload.MIN_ITERATIONS,
            "job_types": {name: list(shares) for name, shares in workload.JOB_TYPES.items()},
            "workloads": {name: list(types) for name, types in workload.WORKLOADS.items()},
            "arrivals": "Lublin-Feitelson rush-hour gaps (no daily cycle) scaled to the mean",
            "runtimes": "Lublin-Feitelson size-dependent hyper-gamma run times scaled to the mean",
            "size_distribution": "uniform on the integer sizes",
            "model_means": workload.model_means(),
            "warmup_share": metrics.WARMUP_SHARE, "drain_share": metrics.DRAIN_SHARE,
        },
        "npb": {
            "nodes": workload.NPB_NODES, "mg_all_to_all_every": workload.MG_ALL_TO_ALL_EVERY,
            "iterations": {name: workload.npb_iterations(name) for name in workload.NPB_APPS},
            "apps": {name: dataclasses.asdict(app) for name, app in workload.NPB_APPS.items()},
        },
    }


def run_row(figure: str, key: tuple, summary: dict) -> dict:
    """One row of ``runs``: the figure's coordinates (group, scheme, seed), the point's parameters, its metrics."""
    group, scheme, seed = key
    point = {k: v for k, v in summary["point"].items() if k not in ("scheme", "seed")}
    point["apps"] = "+".join(point["apps"])
    metrics = {k: (math.nan if v is None else v) for k, v in summary["metrics"].items()
               if k not in ("scheme", "nodes", "mpl")}
    return {"figure": figure, "group": group, "scheme": scheme, "seed": seed, **point, **metrics}


def run_rows(figure_tasks: dict[str, dict[tuple, IcsRuns]]) -> pd.DataFrame:
    """``runs``: one row per figure, group, scheme and seed (the key's last item)."""
    summaries: dict[str, dict[int, dict]] = {}  # task id -> its summaries, each series read once
    rows = []
    for figure, tasks in figure_tasks.items():
        for key, task in tasks.items():
            if task.task_id not in summaries:
                summaries[task.task_id] = task.summaries()
            rows.append(run_row(figure, key, summaries[task.task_id][key[-1]]))
    return pd.DataFrame(rows)


def report_inputs(profile: Profile, runs: pd.DataFrame, means_runs: pd.DataFrame | None = None) -> tuple[dict, dict]:
    """The result tables and parameters the report publishes and reads back; ``means_runs`` None or empty: no
    figure ran with the variant reading of the stated means."""
    results = {"runs": runs, "means_runs": runs.iloc[:0] if means_runs is None or means_runs.empty else means_runs,
               "schemes": scheme_table()}
    parameters = {"profile": dataclasses.asdict(profile), "model": model_parameters(),
                  "means": {"default": DEFAULT_MEANS, "variant": VARIANT_MEANS}}
    return results, parameters


class IcsReport(SchedlabTask):
    """Figs. 7-14 and Tables 3-4 of the paper regenerated, and the paper's claims judged on them."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    boost_preempts_spinner = luigi.BoolParameter(
        default=True, parsing=luigi.BoolParameter.EXPLICIT_PARSING,
        description="a boost takes the CPU from a busy-waiting runner of the same level (false: the plain TS rule, "
                    "under which PROC-S can livelock and fail as a runaway)",
    )
    code_modules = ("schedlab.reports.ics", "schedlab.reports.ics_claims", "schedlab.reports.ics_causes")

    def figure_tasks(self, points_of=profile_points) -> dict[str, dict[tuple, IcsRuns]]:
        """Per figure, its keys (group, scheme, seed) -> the task that runs the key's point."""
        figures = {figure: {key: self.under_boost_rule(point) for key, point in points.items()}
                   for figure, points in points_of(PROFILES[self.profile]).items()}
        tasks = IcsRuns.covering(point for points in figures.values() for point in points.values())
        return {figure: {key: tasks[point] for key, point in points.items()} for figure, points in figures.items()}

    def means_variant_tasks(self) -> dict[str, dict[tuple, IcsRuns]]:
        return self.figure_tasks(means_variant_points)

    def under_boost_rule(self, point: Point) -> Point:
        """The point under this report's boost rule; schemes the rule cannot change keep the default, so
        both rules' reports share their runs."""
        if not boosts_a_spinner(point.scheme):
            return point
        return dataclasses.replace(point, boost_preempts_spinner=self.boost_preempts_spinner)

    def requires(self):
        unique = {task.task_id: task for figures in (self.figure_tasks(), self.means_variant_tasks())
                  for tasks in figures.values() for task in tasks.values()}
        return [unique[key] for key in sorted(unique)]

    def run(self):
        runs, means_runs = run_rows(self.figure_tasks()), run_rows(self.means_variant_tasks())
        with self.writing_output() as directory:
            report.write_report(directory, *report_inputs(PROFILES[self.profile], runs, means_runs))
        logger.info("ics report: %s", self.output_file("index.html"))
