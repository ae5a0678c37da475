"""Replay one workload under one batch policy: ReplayTrace.

A workload is named either by a trace name (``CleanTrace``) or by a synthetic workload
name (``SyntheticWorkload``); ``workload_task`` tells which.  Both write
``jobs.parquet`` and ``workload.json``, so what follows does not care.
"""

from __future__ import annotations

import luigi
import pandas as pd

from pipeline.base import (
    SchedlabTask,
    module_source,
    project_imports,
    read_json,
    write_json,
)
from pipeline.synthetic_tasks import SyntheticWorkload
from pipeline.trace_tasks import CleanTrace
from simulators.batch import POLICIES, replay
from simulators.batch.conventions import ESTIMATES
from simulators.batch.order import QUEUE_ORDERS


def workload_task(name: str) -> SchedlabTask:
    """The task producing workload ``name``: a synthetic one if the name says so, else a trace."""
    return SyntheticWorkload.from_name(name) or CleanTrace(trace=name)


def policy_modules(module_name: str) -> set[str]:
    """A policy module and the modules it imports, directly or not, not counting packages.

    Packages are left out because importing ``simulators.batch.fcfs`` runs
    ``simulators.batch``, which imports every policy: following it would tie each
    policy to all the others.
    """
    seen: set[str] = set()
    pending = [module_name]
    while pending:
        name = pending.pop()
        if name not in seen and module_source(name).name != "__init__.py":
            seen.add(name)
            pending.extend(project_imports(name))
    return seen


class ReplayTrace(SchedlabTask):
    """Replay a workload with ``simulators.batch.replay``.

    Outputs ``schedule.parquet`` (one row per job: submit, start, end, procs, times),
    ``series.parquet`` (queue length and busy processors after each event time) and
    ``summary.json`` (workload, replay parameters and metrics).
    """

    trace = luigi.Parameter(description="workload: a trace name or a synthetic workload name")
    policy = luigi.ChoiceParameter(choices=tuple(POLICIES), default="easy")
    order = luigi.ChoiceParameter(choices=tuple(QUEUE_ORDERS), default="fcfs")
    estimates = luigi.ChoiceParameter(choices=ESTIMATES, default="requested")
    code_modules = ("simulators.batch",)

    def requires(self):
        return workload_task(self.trace)

    def code_versions(self) -> dict[str, str]:
        """The base's versions minus the other policies' modules.

        ``simulators.batch`` imports every policy, but a replay runs only its own
        policy's code (and what that imports), so editing conservative backfilling must
        not rerun the EASY replays.
        """
        others = {policy.__module__ for policy in POLICIES.values()} - policy_modules(POLICIES[self.policy].__module__)
        return {name: version for name, version in super().code_versions().items() if name not in others}

    def run(self):
        workload = read_json(self.requires().output_file("workload.json"))
        jobs = pd.read_parquet(self.requires().output_file("jobs.parquet"))
        self.set_status_message(f"replaying {len(jobs):,} jobs of {self.trace} under {self.policy}")
        result = replay(
            jobs, workload["machine_procs"], policy=self.policy, order=self.order, estimates=self.estimates
        )
        with self.writing_output() as directory:
            result.schedule.to_parquet(directory / "schedule.parquet", index=False)
            result.series.to_parquet(directory / "series.parquet", index=False)
            write_json(
                directory / "summary.json",
                {"workload": self.trace, "parameters": result.parameters, "metrics": result.metrics},
            )
