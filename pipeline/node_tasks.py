"""A cluster's log replayed on its machine of nodes, and its page: NodeReplay -> NodeReport (issue 65).

    luigi --module pipeline NodeReport --jobs jobs.parquet --machine cluster.toml --events events.toml \\
          --local-scheduler

``--jobs`` is a job table (``schedlab convert -o jobs.parquet``) or an SWF trace; ``--machine`` a machine
file or a shipped one (``builtin:gpu-cluster``), empty for the machine the jobs imply; ``--events`` an
events file or empty.  The replay is keyed on the contents of all three files (their SHA-256), so an
edited machine or events file reruns it and the page, and nothing else.
"""

from __future__ import annotations

import dataclasses

import luigi
import pandas as pd

from pipeline.base import SchedlabTask, read_json, write_json
from pipeline.report_tasks import write_csv, write_document
from pipeline.trace_tasks import file_sha256
from schedlab.parsers.events import read_events
from schedlab.parsers.job_table import is_job_table_path, read_job_table, resources_from_swf
from schedlab.parsers.machine import BUILTIN_PREFIX, SHIPPED_MACHINES, infer_machine, read_machine
from schedlab.parsers.swf import read_swf
from schedlab.reports.figures import save_figure
from schedlab.reports.nodes import node_figures, node_page, partition_waits
from schedlab.simulators.nodes.replay import cpu_only, pool_policy, replay_on_nodes


def machine_file(machine: str):
    """The file a machine parameter names (a shipped one's too), or None for the machine the jobs imply."""
    if not machine:
        return None
    if machine.startswith(BUILTIN_PREFIX):
        return SHIPPED_MACHINES / f"{machine.removeprefix(BUILTIN_PREFIX)}.toml"
    return machine


class NodeReplay(SchedlabTask):
    """Replay a log on a machine of nodes under one node policy, and the same jobs on one pool of its cores.

    Outputs ``schedule.parquet`` (one row per job: its start, nodes and wait, its CPU-only start and wait
    beside), ``usage.parquet`` (cores, GPUs and memory in use over time) and ``summary.json`` (the machine
    and the events as the run used them, the jobs left out and why)."""

    jobs = luigi.Parameter(description="a job table (.parquet, .csv) or an SWF trace")
    machine = luigi.Parameter(default="", description="a machine file, builtin:NAME, or empty: inferred from the jobs")
    events = luigi.Parameter(default="", description="a capacity events file, or empty")
    policy = luigi.Parameter(default="easy", description="fcfs, easy, conservative, or your own as path/to/file.py:Class")
    code_modules = ("schedlab.simulators.nodes.replay", "schedlab.simulators.nodes.compiled", "schedlab.parsers.job_table",
                    "schedlab.parsers.events")

    def input_fingerprint(self):
        files = {"jobs": self.jobs, "machine": machine_file(self.machine), "events": self.events or None}
        return {name: file_sha256(path) if path else None for name, path in files.items()}

    def run(self):
        if is_job_table_path(self.jobs):
            jobs, _ = read_job_table(self.jobs)
        else:
            jobs = resources_from_swf(read_swf(self.jobs).jobs)
        jobs = jobs.sort_values("submit_time", kind="stable").reset_index(drop=True)
        name = str(self.jobs).rsplit("/", 1)[-1]
        machine = read_machine(self.machine) if self.machine else infer_machine(jobs, name)
        events = read_events(self.events, machine) if self.events else []
        self.set_status_message(f"replaying {len(jobs):,} jobs on {machine.name}")
        replay = replay_on_nodes(jobs, machine, self.policy, events)
        pool = cpu_only(replay)
        rows = replay.jobs.row
        schedule = replay.schedule.assign(user=jobs["user"].to_numpy()[rows], cpu_only_start=pool["start"].to_numpy(),
                                          cpu_only_wait=pool["wait"].to_numpy())
        node_types = [dataclasses.asdict(node) for node in machine.node_types]
        summary = {
            "workload": name, "policy": self.policy, "pool_policy": pool_policy(replay),
            "machine": {"name": machine.name, "source": machine.source, "allocation": machine.allocation,
                        "node_types": node_types, "partitions": {k: list(v) for k, v in machine.partitions.items()}},
            "capacity": {"cores": float(machine.cores), "gpus": float(machine.gpus),
                         "memory_mb": float(sum(n.count * n.memory_mb for n in machine.node_types))},
            "events": replay.events, "left_out": replay.left_out,
        }
        with self.writing_output() as directory:
            schedule.to_parquet(directory / "schedule.parquet", index=False, write_page_checksum=True)
            replay.usage.to_parquet(directory / "usage.parquet", index=False, write_page_checksum=True)
            write_json(directory / "summary.json", summary)


class NodeReport(SchedlabTask):
    """The page of a NodeReplay: ``report.html`` and ``report.md``, its figures (PNG and SVG) and
    ``partition_waits.csv``."""

    jobs = luigi.Parameter(description="a job table (.parquet, .csv) or an SWF trace")
    machine = luigi.Parameter(default="", description="a machine file, builtin:NAME, or empty: inferred from the jobs")
    events = luigi.Parameter(default="", description="a capacity events file, or empty")
    policy = luigi.Parameter(default="easy", description="fcfs, easy, conservative, or your own as path/to/file.py:Class")
    code_modules = ("schedlab.reports.nodes",)

    def requires(self):
        return NodeReplay(jobs=self.jobs, machine=self.machine, events=self.events, policy=self.policy)

    def run(self):
        source = self.requires()
        schedule = pd.read_parquet(source.output_file("schedule.parquet"))
        usage = pd.read_parquet(source.output_file("usage.parquet"))
        summary = read_json(source.output_file("summary.json"))
        with self.writing_output() as directory:
            for stem, figure in node_figures(schedule, usage, summary).items():
                save_figure(figure, directory, stem)
            write_document(directory, "report", node_page(schedule, summary))
            write_csv(directory / "partition_waits.csv", partition_waits(schedule))
