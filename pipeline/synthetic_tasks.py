"""The embedded default workload: jobs drawn from the Lublin-Feitelson model.

It lets the pipeline run on a fresh clone with no trace at all.  A synthetic workload
has a name, like a trace, so that replays and reports treat both alike::

    lublin-feitelson-<machine_procs>p-<n_jobs>j-seed<seed>

``SyntheticWorkload.name`` builds it and ``SyntheticWorkload.from_name`` reads it back.
"""

from __future__ import annotations

import re

import luigi

from schedlab.parsers.schema import write_jobs
from pipeline.base import SchedlabTask, write_json
from schedlab.options import SEED, SYNTHETIC_MACHINE_PROCS, WORKLOAD_JOBS
from schedlab.workloads.estimates import CITATION as ESTIMATE_CITATION
from schedlab.workloads.estimates import requested_time_source
from schedlab.workloads.load import offered_load
from schedlab.workloads.lublin import CITATION, DEFAULT_PARAMETERS, MODEL_NAME, lublin_feitelson_jobs, max_estimate

NAME_PATTERN = re.compile(r"lublin-feitelson-(?P<machine_procs>\d+)p-(?P<n_jobs>\d+)j-seed(?P<seed>\d+)")


class SyntheticWorkload(SchedlabTask):
    """``n_jobs`` Lublin-Feitelson jobs for a machine of ``machine_procs`` processors.

    Writes ``jobs.parquet`` (canonical job table) and ``workload.json``, the same two
    files as ``CleanTrace``, so that a replay reads either the same way.
    """

    parameter_ranges = {"machine_procs": SYNTHETIC_MACHINE_PROCS, "n_jobs": WORKLOAD_JOBS, "seed": SEED}
    machine_procs = luigi.IntParameter(description="processors of the modelled machine")
    n_jobs = luigi.IntParameter(description="number of jobs to draw")
    seed = luigi.IntParameter(description="seed of the model's random streams")
    code_modules = ("schedlab.workloads.lublin",)

    @property
    def name(self) -> str:
        return f"lublin-feitelson-{self.machine_procs}p-{self.n_jobs}j-seed{self.seed}"

    @classmethod
    def from_name(cls, name: str) -> SyntheticWorkload | None:
        """The task a synthetic workload name stands for, or None if ``name`` is not one."""
        match = NAME_PATTERN.fullmatch(name)
        if match is None:
            return None
        return cls(**{key: int(value) for key, value in match.groupdict().items()})

    def label(self) -> str:
        return self.name

    def run(self):
        self.set_status_message(f"drawing {self.n_jobs:,} jobs")
        jobs = lublin_feitelson_jobs(self.n_jobs, self.machine_procs, self.seed)
        estimates = f"{ESTIMATE_CITATION}, maximal estimate {max_estimate(DEFAULT_PARAMETERS['runtimes']) // 3600} h"
        workload = {
            "name": self.name,
            "machine_procs": self.machine_procs,
            "jobs": len(jobs),
            "offered_load": offered_load(jobs, self.machine_procs),
            "requested_times": requested_time_source(jobs["requested_time"], jobs["run_time"], estimates),
            "source": {
                "kind": "synthetic",
                "model": MODEL_NAME,
                "citation": CITATION,
                "seed": self.seed,
            },
        }
        with self.writing_output() as directory:
            write_jobs(jobs, directory / "jobs.parquet")
            write_json(directory / "workload.json", workload)
