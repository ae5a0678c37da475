"""The COSY stage (spec 003): tuned workloads, one task per notice policy over its settings, the report.

    CosyWorkloads(jobs, workloads, workload) --> CosyRuns(policy, reading, [share, factor]..., workload) --+--> CosyReport(profile)

``CosyReport(profile="quick"|"paper")`` writes ``index.md`` / ``index.html``, the claims
ledger (``claims.csv`` / ``.md`` / ``.tex``), the figures (PNG and SVG) and the tables (CSV,
Markdown, LaTeX); the grids are ``schedlab.simulators.cosy.experiments.PROFILES``.  The report reads
result tables only: this module hands it ``report_parameters`` (the profile the runs used,
the machine, the policy labels, each workload's selection and estimate source), which it
writes to ``parameters.json``.  ``--trace-slices '["KTH-SP2-1996-2.2"]'`` adds the
slices of those traces (found in the configured trace directories, cleaned by
``CleanTrace``) to the regime diagnostic: the spec's other DEFAULT workload.  The profile's
``regime_traces`` add their in-regime slices when found there; the report names those not found.  Domain code:
``schedlab.simulators.cosy``; pages and figures: ``schedlab.reports.cosy``.
"""

from __future__ import annotations

import dataclasses

import luigi
import numpy as np
import pandas as pd

from schedlab.parsers.schema import read_jobs, write_jobs
from pipeline import settings
from pipeline.base import SchedlabTask, read_json, write_json
from pipeline.trace_tasks import CleanTrace, find_traces
from schedlab.reports.cosy import write_report
from schedlab.errors import SchedlabError
from schedlab.simulators.cosy.fixed_point import FIXED_POINT, FIXED_POINT_TOLERANCE, READING_DESCRIPTIONS, WAIT_READINGS
from schedlab.simulators.cosy.experiments import (
    BASELINE_WAIT_READING,
    EXPERIMENT_POLICIES,
    CIRNE_BERMAN,
    CIRNE_BERMAN_MODELS,
    LOG_UNIFORM_MODELS,
    LUBLIN_FEITELSON,
    MACHINE_NODES,
    NODE_BOUND,
    ORACLE,
    PAPER_WAIT_SHARE,
    PROFILES,
    REQUEUE,
    TARGET_BASELINE_UTILIZATION,
    UTILIZATION_TOLERANCE,
    Point,
    TraceSlices,
    TunedWorkload,
    check_workload_name,
    reading_of,
    select_workloads,
    sliced_trace,
    slices_wait_share,
)
from schedlab.simulators.core.jobs import BatchJobs
from schedlab.simulators.cosy.run import simulate_cosy
from schedlab.simulators.cosy.scheduler import ReservationRequest
from schedlab.simulators.cosy.simulate import simulate

WORKLOAD_HELP = ("workload: a model of schedlab.simulators.cosy.experiments.WORKLOAD_MODELS, slices:<trace> or "
                 "regime-slices:<trace> (only slices in the paper's regime)")


class CosyWorkloads(SchedlabTask):
    """The first ``workloads`` seeds whose ``jobs``-job workload tunes to the paper's baseline.

    Outputs ``jobs.parquet`` (every workload's canonical job table with a ``seed``
    column), ``baselines.csv`` (per seed: offered load and the no-reservation metrics)
    and ``selection.json`` (how many workloads were selected and how many candidate seeds
    tried; a trace may hold fewer tunable slices than asked for).
    """

    jobs = luigi.IntParameter(description="jobs per workload")
    workloads = luigi.IntParameter(description="number of workloads (seeds) to select")
    workload = luigi.Parameter(default=CIRNE_BERMAN, description=WORKLOAD_HELP)
    code_modules = ("schedlab.simulators.cosy.experiments", "schedlab.workloads.cirne_berman", "schedlab.workloads.log_uniform", "schedlab.workloads.trace_slice")

    def requires(self):
        check_workload_name(self.workload)
        trace = sliced_trace(self.workload)
        return CleanTrace(trace=trace) if trace else []

    def run(self):
        self.set_status_message(f"tuning {self.workloads} {self.workload} workloads of {self.jobs} jobs")
        trace = sliced_trace(self.workload)
        if trace:
            cleaned = self.requires()
            procs = read_json(cleaned.output_file("workload.json"))["machine_procs"]
            source = TraceSlices.of_trace(trace, read_jobs(cleaned.output_file("jobs.parquet")), procs,
                                          slices_wait_share(self.workload))
        else:
            source = self.workload
        # A trace holds a limited number of slices: report on those that tune rather than fail.
        chosen, tried = select_workloads(self.workloads, self.jobs, MACHINE_NODES, workload=source, fewer_ok=bool(trace))
        tables = pd.concat([w.jobs.assign(seed=w.seed) for w in chosen], ignore_index=True)
        baselines = pd.DataFrame([{"seed": w.seed, "offered_load": w.offered_load, **w.baseline} for w in chosen])
        with self.writing_output() as directory:
            write_jobs(tables, directory / "jobs.parquet")
            baselines.to_csv(directory / "baselines.csv", index=False, lineterminator="\n")
            write_json(
                directory / "selection.json",
                {
                    "jobs": self.jobs,
                    "workloads": len(chosen),
                    "workload": self.workload,
                    "seeds_tried": tried,
                    "nodes": MACHINE_NODES,
                    "target_baseline_utilization": TARGET_BASELINE_UTILIZATION,
                },
            )

    def load(self) -> list[TunedWorkload]:
        tables = read_jobs(self.output_file("jobs.parquet"))
        baselines = pd.read_csv(self.output_file("baselines.csv"))
        return [
            TunedWorkload(
                int(row["seed"]),
                float(row["offered_load"]),
                row.drop(["seed", "offered_load"]).to_dict(),
                tables[tables["seed"] == row["seed"]].drop(columns="seed").reset_index(drop=True),
            )
            for _, row in baselines.iterrows()
        ]


class CosyRuns(SchedlabTask):
    """One notice policy and W reading at each of ``settings`` (share, factor), every run over every
    workload: ``runs.csv``, one row per setting and seed (``setting``: its place in ``settings``).  One
    task per policy, the workloads read once for all its settings."""

    jobs = luigi.IntParameter()
    workloads = luigi.IntParameter()
    policy = luigi.ChoiceParameter(choices=EXPERIMENT_POLICIES, default="fixed")
    reading = luigi.ChoiceParameter(choices=(*WAIT_READINGS, BASELINE_WAIT_READING), default=FIXED_POINT,
                                    description="how the policy reads W: the fixed policy either of "
                                                "schedlab.simulators.cosy.fixed_point's readings, every other policy its own "
                                                "(experiment.reading_of)")
    settings = luigi.ListParameter(description="[share of jobs turned into reservations, n of the fixed notice "
                                               "policy or null] per run")
    workload = luigi.Parameter(default=CIRNE_BERMAN, description=WORKLOAD_HELP)
    nonempty_parameters = ("settings",)
    code_modules = ("schedlab.simulators.cosy.simulate",)

    @classmethod
    def covering(cls, jobs: int, workloads: int, workload: str, points) -> dict[Point, tuple[CosyRuns, int]]:
        """Each of ``points`` -> the task that runs it and its place there: one task per policy and reading."""
        series: dict[tuple, list[Point]] = {}
        for point in points:
            series.setdefault((point.policy, point.reading), []).append(point)
        covering = {}
        for (policy, reading), chosen in series.items():
            task = cls(jobs=jobs, workloads=workloads, workload=workload, policy=policy, reading=reading,
                       settings=[[point.share, point.factor] for point in chosen])
            covering.update({point: (task, index) for index, point in enumerate(chosen)})
        return covering

    def requires(self):
        return CosyWorkloads(jobs=self.jobs, workloads=self.workloads, workload=self.workload)

    @classmethod
    def warm_up(cls) -> None:
        # The compiled loop every run (and every tuning run of CosyWorkloads) calls, from numba's cache.
        two = BatchJobs(job_id=np.arange(2), submit=np.zeros(2), estimate=np.ones(2), actual=np.ones(2),
                        procs=np.ones(2, dtype=np.int64))
        simulate_cosy(two, 1, reservations={1: ReservationRequest()})

    def run(self):
        if reading_of(self.policy, self.reading) != self.reading:
            raise SchedlabError(f"the {self.policy} policy reads W as {reading_of(self.policy)!r}, not {self.reading!r}")
        workloads = self.requires().load()
        frames = []
        for index, (share, factor) in enumerate(self.settings):
            self.set_progress_percentage(100 * index // len(self.settings))
            runs = simulate(Point(share, self.policy, factor, self.reading), workloads, MACHINE_NODES)
            frames.append(runs.assign(jobs_per_workload=self.jobs, workload=self.workload, setting=index))
        with self.writing_output() as directory:
            pd.concat(frames, ignore_index=True).to_csv(directory / "runs.csv", index=False, lineterminator="\n")


class CosyReport(SchedlabTask):
    """Table 1 and Figures 2-5 of the paper beside ours, for one profile."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    trace_slices = luigi.ListParameter(default=(), description="traces whose slices join the regime diagnostic")
    code_modules = ("schedlab.reports.cosy",)

    def regime_traces(self) -> tuple[list[str], list[str]]:
        """The profile's regime traces found in the trace directories, and those not found."""
        found = find_traces(settings.trace_dirs())
        wanted = PROFILES[self.profile].regime_traces
        return [t for t in wanted if t in found], [t for t in wanted if t not in found]

    def point_runs(self) -> list[tuple[CosyRuns, int]]:
        """Every point of the profile's grids, in the grids' order: the task that runs it and its place there."""
        grids = PROFILES[self.profile].grids(self.trace_slices, self.regime_traces()[0])
        return [covering[point] for workload, jobs, count, points in grids
                for covering in [CosyRuns.covering(jobs, count, workload, points)] for point in points]

    def requires(self):
        grids = PROFILES[self.profile].grids(self.trace_slices, self.regime_traces()[0])
        return {
            "workloads": [CosyWorkloads(jobs=jobs, workloads=count, workload=workload) for workload, jobs, count, _ in grids],
            "points": list(dict.fromkeys(task for task, _ in self.point_runs())),
        }

    def run(self):
        required = self.requires()
        tables = {task.task_id: pd.read_csv(task.output_file("runs.csv")) for task in required["points"]}
        runs = pd.concat([tables[task.task_id].query("setting == @index") for task, index in self.point_runs()],
                         ignore_index=True).drop(columns="setting")
        baselines = pd.concat(
            [
                pd.read_csv(task.output_file("baselines.csv")).assign(jobs_per_workload=task.jobs, workload=task.workload)
                for task in required["workloads"]
            ],
            ignore_index=True,
        )
        selections = [
            {**read_json(task.output_file("selection.json")),
             "estimates": estimate_source(read_jobs(task.output_file("jobs.parquet")))}
            for task in required["workloads"]
        ]
        with self.writing_output() as directory:
            parameters = report_parameters(PROFILES[self.profile], selections, self.regime_traces()[1])
            write_report(directory, {"runs": runs, "baselines": baselines}, parameters)


def estimate_source(jobs: pd.DataFrame) -> str:
    """Where the workloads' run-time estimates come from, read off their job tables: the
    simulations schedule by requested time, so say whether it equals the run time."""
    exact = (jobs["requested_time"] == jobs["run_time"]).mean()
    if exact == 1.0:
        return "exact estimates (requested time = run time for every job)"
    return f"requested times of the workload ({100 * exact:.0f} % of jobs exact)"


def report_parameters(profile, selections: list[dict], missing_regime_traces=()) -> dict:
    """What the report needs to know about the runs, as plain data (``parameters.json``).

    The ledger judges the paper's setting: the profile's workload (by default the
    Cirne-Berman model after its published description) at its first workload size, 100 jobs as
    in the paper, under the profile's first W reading; paper rows are compared at our measured n.
    """
    return {
        "profile": dataclasses.asdict(profile),
        "nodes": MACHINE_NODES,
        "target_baseline_utilization": TARGET_BASELINE_UTILIZATION,
        "utilization_tolerance": UTILIZATION_TOLERANCE,
        "policies": {"oracle": ORACLE, "requeue": REQUEUE, "node_bound": NODE_BOUND},
        "workload_models": {
            **{name: {"family": "cirne-berman", "module": "workloads/cirne_berman.py", **model.describe()}
               for name, model in CIRNE_BERMAN_MODELS.items()},
            LUBLIN_FEITELSON: {"family": "Lublin-Feitelson", "module": "workloads/lublin.py"},
            **{name: {"family": "log-uniform", "module": "workloads/log_uniform.py", **model}
               for name, model in LOG_UNIFORM_MODELS.items()},
        },
        "ledger": {
            "workload": profile.workload,
            "jobs": profile.variants[0][0],
            "reading": profile.readings[0],
            "compared_at": "the grid's n whose mean measured n (wa / wq) is nearest the paper's, per p",
        },
        "fixed_point_tolerance": FIXED_POINT_TOLERANCE,
        "readings": READING_DESCRIPTIONS,
        "workloads": selections,
        "paper_wait_share": PAPER_WAIT_SHARE,
        "missing_regime_traces": list(missing_regime_traces),
    }
