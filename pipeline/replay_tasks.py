"""Replay one workload under one batch policy (ReplayTrace), its users' sessions (TraceSessions) and
its policies over resampled workloads (ResampledReplays).

A workload is named either by a trace name (``CleanTrace``) or by a synthetic workload
name (``SyntheticWorkload``); ``workload_task`` tells which.  Both write
``jobs.parquet`` and ``workload.json``, so what follows does not care.
"""

from __future__ import annotations

import luigi
import pandas as pd

from schedlab.parsers.schema import read_jobs
from pipeline.base import SchedlabTask, read_json, write_json
from pipeline.synthetic_tasks import SyntheticWorkload
from pipeline.trace_tasks import CleanTrace
from schedlab.reports.exports import write_schedule
from schedlab.progress import reporter
from schedlab.references import make_importable
from schedlab.simulators.batch.conventions import ESTIMATES
from schedlab.simulators.batch.policies import (
    BUILT_IN_ORDERS,
    BUILT_IN_POLICIES,
    canonical_name,
    order_reference,
    policy_reference,
)
from schedlab.simulators.batch.replay import replay


def workload_task(name: str) -> SchedlabTask:
    """The task producing workload ``name``: a synthetic one if the name says so, else a trace."""
    return SyntheticWorkload.from_name(name) or CleanTrace(trace=name)


SYNTHETIC_HAS_NO_USERS = "a synthetic workload has no users"


def trace_clock(workload: dict) -> tuple:
    """The Unix start time and time zone of a trace's header as ``workload.json`` records it
    (what ``schedlab.workloads.fitting.header_clock`` reads from a parsed header)."""
    header = workload["source"]["header"]
    return header.get("unix_start_time"), header.get("time_zone_string") or header.get("time_zone")


class TraceSessions(SchedlabTask):
    """A workload's user sessions and which wait for which (``schedlab.workloads.sessions.sessions_of``):
    the three tables ``session_*.parquet`` with ``sessions_found.json``, and ``sessions.json`` (whether
    sessions were found, else why not in one line; the summary ``schedlab sessions`` prints)."""

    trace = luigi.Parameter(description="workload: a trace name or a synthetic workload name")
    code_modules = ("schedlab.workloads.sessions",)

    def requires(self):
        return workload_task(self.trace)

    def run(self):
        from schedlab.errors import SchedlabError
        from schedlab.workloads.sessions import sessions_of, summarize_sessions, write_sessions

        workload = read_json(self.requires().output_file("workload.json"))
        status, sessions = {"found": False}, None
        if workload["source"]["kind"] != "trace":
            status["reason"] = SYNTHETIC_HAS_NO_USERS
        else:
            jobs = read_jobs(self.requires().output_file("jobs.parquet"))
            try:
                sessions = sessions_of(jobs, source=self.trace)
                status = {"found": True, "summary": summarize_sessions(sessions, *trace_clock(workload))}
            except SchedlabError as refused:
                status["reason"] = str(refused)
        with self.writing_output() as directory:
            if sessions is not None:
                write_sessions(sessions, directory)
            write_json(directory / "sessions.json", status)

    def sessions(self):
        """The sessions, or None and the reason there are none."""
        from schedlab.workloads.sessions import read_sessions

        status = read_json(self.output_file("sessions.json"))
        return (read_sessions(self.output_file), "") if status["found"] else (None, status["reason"])


def policy_modules(policies, order: str) -> tuple[str, ...]:
    """The modules of ``policies`` and ``order`` (a built-in's or a researcher's), made importable: a
    task that runs them keys on their code, so editing one reruns what ran it and nothing else."""
    references = (*(policy_reference(policy) for policy in policies), order_reference(order))
    for reference in references:
        make_importable(reference)
    return tuple(dict.fromkeys(reference.module for reference in references))


class PolicyParameter(luigi.Parameter):
    """A built-in policy name or a reference to a researcher's policy class, normalised
    so that one file has one name (its absolute path) whatever the working directory."""

    def normalize(self, x):
        return canonical_name(x, BUILT_IN_POLICIES, "policy")


class OrderParameter(luigi.Parameter):
    """A built-in queue order or a reference to a researcher's order function, normalised."""

    def normalize(self, x):
        return canonical_name(x, BUILT_IN_ORDERS, "queue order")


class ReplayTrace(SchedlabTask):
    """Replay a workload with ``schedlab.simulators.batch.replay``.

    Outputs ``schedule.parquet`` (one row per job: submit, start, end, procs, times),
    the same schedule as ``schedule.swf`` (the workload's SWF fields with simulated
    waits) and as Batsim's ``batsim_jobs.csv`` (with processor ids, for evalys; see
    ``schedlab.reports.exports``), ``series.parquet`` (queue length and busy processors after
    each event time) and ``summary.json`` (workload, replay parameters and metrics).
    """

    trace = luigi.Parameter(description="workload: a trace name or a synthetic workload name")
    policy = PolicyParameter(
        default="easy", description="fcfs, easy, conservative, or path/to/file.py:Class or package.module:Class"
    )
    order = OrderParameter(default="fcfs", description="fcfs, wfp, sjf, or a reference to an order function")
    estimates = luigi.ChoiceParameter(choices=ESTIMATES, default="requested")
    feedback = luigi.BoolParameter(default=False, parsing=luigi.BoolParameter.EXPLICIT_PARSING,
                                   description="closed-loop: users' dependent sessions arrive after the sessions "
                                   "they waited for end (docs/sessions.md); open-loop where the trace has no users")

    @property
    def code_modules(self) -> tuple[str, ...]:
        """The replay engine, and the modules of the policy and order this replay runs
        (with what they import): editing another policy reruns nothing here."""
        return ("schedlab.simulators.batch.replay", "schedlab.simulators.batch.feedback",
                "schedlab.reports.exports", *policy_modules([self.policy], self.order))

    def label(self) -> str:
        """Trace, policy, order and estimates, a policy or order of one's own by its name alone
        (its path would crowd out the rest; the key tells files apart)."""
        policy, order = (value.rpartition(":")[2] for value in (self.policy, self.order))
        return "_".join((self.trace, policy, order, self.estimates, *(("closed-loop",) if self.feedback else ())))

    def requires(self):
        return {"workload": workload_task(self.trace), **({"sessions": TraceSessions(trace=self.trace)}
                                                           if self.feedback else {})}

    def run(self):
        workload = read_json(self.requires()["workload"].output_file("workload.json"))
        jobs = read_jobs(self.requires()["workload"].output_file("jobs.parquet"))
        self.set_status_message(f"replaying {len(jobs):,} jobs of {self.trace} under {self.policy}")
        sessions, refused = self.requires()["sessions"].sessions() if self.feedback else (None, "")
        result = replay(
            jobs, workload["machine_procs"], policy=self.policy, order=self.order, estimates=self.estimates,
            progress=reporter("replay"), sessions=sessions,
        )
        if refused:
            result.parameters["arrivals"] = f"open-loop (closed-loop asked for, but {refused})"
        with self.writing_output() as directory:
            result.schedule.to_parquet(directory / "schedule.parquet", index=False, write_page_checksum=True)
            for name, fmt in (("schedule.swf", "swf"), ("batsim_jobs.csv", "batsim")):
                write_schedule(
                    result.schedule, directory / name, fmt, jobs=jobs, machine_procs=workload["machine_procs"],
                    produced_by=f"schedlab's ReplayTrace of {self.trace} ({result.settings()})", workload_name=self.trace,
                )
            result.series.to_parquet(directory / "series.parquet", index=False, write_page_checksum=True)
            write_json(
                directory / "summary.json",
                {"workload": self.trace, "parameters": result.parameters, "metrics": result.metrics},
            )


DEFAULT_RESAMPLES = 5
DEFAULT_RESAMPLE_MAX_JOBS = 400_000  # every shared trace; CEA-Curie's 295,540 jobs take about a minute


class ResampledReplays(SchedlabTask):
    """A workload's policies on user-based resamples of it, open- and closed-loop
    (``schedlab.simulators.batch.resampled``): ``runs.csv`` (one row per seed, policy and arrivals
    mode) and ``resampled.json`` (whether it ran, and if not, why in one line).

    Runs only on a trace with user ids and at most ``max_jobs`` jobs after cleaning; a larger trace
    gets the reason instead (the time grows with the jobs: see ``docs/sessions.md``).
    """

    trace = luigi.Parameter(description="workload: a trace name or a synthetic workload name")
    policies = luigi.ListParameter(default=("fcfs", "easy", "conservative"))
    order = OrderParameter(default="fcfs")
    estimates = luigi.ChoiceParameter(choices=ESTIMATES, default="requested")
    resamples = luigi.IntParameter(default=DEFAULT_RESAMPLES, description="how many resampled workloads (seeds 1..N)")
    max_jobs = luigi.IntParameter(default=DEFAULT_RESAMPLE_MAX_JOBS,
                                  description="largest trace (jobs after cleaning) the comparison runs on")
    @property
    def code_modules(self) -> tuple[str, ...]:
        """The resampling and replay, and the modules of the policies and order it runs (issue 69: a
        researcher's edited policy left these intervals stale)."""
        return ("schedlab.simulators.batch.resampled", "schedlab.workloads.resampling",
                "schedlab.workloads.fitting", *policy_modules(self.policies, self.order))

    def requires(self):
        return workload_task(self.trace)

    def run(self):
        from schedlab.errors import SchedlabError
        from schedlab.simulators.batch.resampled import resampled_runs
        from schedlab.workloads.fitting import local_week_seconds
        from schedlab.workloads.resampling import user_activity

        workload = read_json(self.requires().output_file("workload.json"))
        jobs = read_jobs(self.requires().output_file("jobs.parquet"))
        seeds = list(range(1, self.resamples + 1))
        status = {"seeds": seeds, "policies": list(self.policies), "max_jobs": self.max_jobs, "ran": False}
        runs = None
        if workload["source"]["kind"] != "trace":
            status["reason"] = SYNTHETIC_HAS_NO_USERS
        elif len(jobs) > self.max_jobs:
            status["reason"] = (f"{len(jobs):,} jobs, over the {self.max_jobs:,} set for this report (FullReport "
                                f"--resample-max-jobs); 'schedlab resample' writes the resamples of {self.trace} "
                                "for a run of one's own")
        else:
            clock = local_week_seconds(jobs["submit_time"].to_numpy(float), *trace_clock(workload))
            try:
                activity = user_activity(jobs, clock, source=self.trace)
                runs = resampled_runs(activity, workload["machine_procs"], list(self.policies), seeds, self.order,
                                      self.estimates, progress=lambda done, total: self.set_progress_percentage(
                                          100 * done // total))
                status["ran"] = True
            except SchedlabError as refused:
                status["reason"] = str(refused)
        with self.writing_output() as directory:
            (runs if runs is not None else pd.DataFrame()).to_csv(directory / "runs.csv", index=False,
                                                                  lineterminator="\n")
            write_json(directory / "resampled.json", status)
