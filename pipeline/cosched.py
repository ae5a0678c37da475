"""Coscheduling stage (spec 000): one task per experiment point, one per figure, the report.

    CleanTrace(A's log) or B's model (stand-in) ---------> CoschedMachineA --+
    FitWorkloadModel(B's source trace) or BuiltinModel --> CoschedMachineB --+--> CoschedRuns (x grid, seeds)
                                                                                --> CoschedFigure (Figs. 3-10)
                                                                                --> CoschedReport

``CoschedReport(profile="quick" | "paper")`` writes ``index.md``, ``index.html``, every
figure (PNG + SVG), the tables (CSV, Markdown, LaTeX), the per-seed ``runs.csv`` the claims
ledger is judged on, ``ratio_arrivals_runs.csv`` (the ratio series under the variant reading of
where B's jobs arrive, judged beside it), the ledger (``claims.csv``/``.md``/``.tex``) and ``parameters.json``
(the profile, workloads, calibrations and coscheduling rules the runs used, from which the
page's setup is generated).  Machine A is, with ``machine_a="auto"`` (default),
``PUBLISHED_MACHINE_A`` (the log the published ledger used) when the trace directories hold
it, else the synthetic Intrepid stand-in; any other log is chosen by name.  A window of the
profile's length from ``start_day`` (by default its busiest: the window with the most
submissions) is used.  B's jobs come from a model fitted
on ``analysis_model`` (a 100-node trace, KTH-SP2 by default; where that trace is not in the trace
directories, the fit of it shipped with schedlab, and the page says so).  Both
machines are calibrated on their no-coscheduling baselines only, each by one constant
(``CoschedMachineA``, ``CoschedMachineB``); no coscheduling result chooses anything.
"""

from __future__ import annotations

from dataclasses import asdict

import luigi
import pandas as pd

from schedlab.parsers.schema import read_jobs, write_jobs
from pipeline import settings
from pipeline.base import SchedlabTask, read_json, seed_series, write_json
from pipeline.report_tasks import write_csv
from pipeline.trace_tasks import CleanTrace, ParseTrace, find_traces
from pipeline.workload_tasks import BuiltinModel, trace_model
from schedlab.reports.cosched import FIGURES, FIGURES_BY_NUMBER, coscheduling_figure, write_report
from schedlab.reports.figures import save_figure
from schedlab.simulators.cosched.coscheduler import CoschedSettings
from schedlab.simulators.cosched.experiments import (
    ANALYSIS_PROCS,
    CALIBRATION_LOAD,
    COMBINATIONS,
    PAIRING_WINDOW_SECONDS,
    PAPER_A_BASE_WAIT,
    PAPER_B_BASE_SLOWDOWN,
    PROFILES,
    DEFAULT_RATIO_ARRIVALS,
    RATIO_PAIRING,
    RATIO_SERIES_LOAD,
    VARIANT_RATIO_ARRIVALS,
    SCHEMES,
    SERIES,
    Point,
    CalibrationMissed,
    calibrate_min_runtime,
    calibrate_width_scale,
    confidence_table,
    grid,
    summary_rows,
)
from schedlab.simulators.cosched.run import cosimulate
from schedlab.simulators.cosched.simulate import simulate
from schedlab.simulators.cosched.workloads import (
    BUSIEST,
    INTREPID_LARGEST_PARTITIONS,
    INTREPID_PARTITION,
    INTREPID_PROCS,
    RATIO_ARRIVALS,
    STANDIN_RUN_TIME_RANGE,
    intrepid_standin,
    trace_window,
    widths_on_intrepid,
    window_start_day,
)
from schedlab.workloads.load import offered_load
from schedlab.workloads.model import load_model

STANDIN = "intrepid-standin"
AUTO = "auto"
PUBLISHED_MACHINE_A = "ALCF-Theta-2023H2"
"""Machine A's log in the published paper-profile ledger: Theta (ALCF, run by Cobalt like the
paper's Intrepid: capability jobs of 128+ nodes for hours).  ``auto`` takes it and no other, so
that which logs happen to be found never changes the machine; Intrepid's own log
(ANL-Intrepid-2009-1) or another is chosen by name."""
DEFAULT_ANALYSIS_MODEL = "KTH-SP2-1996-2.2"
STANDIN_LOAD = 0.9
"""The stand-in's offered load before calibration: heavy enough that the calibration narrows its jobs
(a job already one partition wide cannot widen by less than a partition, so widening is coarse)."""


def machine_a_source(machine_a: str) -> str:
    """The trace (or the stand-in) machine A runs: ``auto`` takes ``PUBLISHED_MACHINE_A`` when
    the trace directories hold it, the synthetic stand-in if not."""
    if machine_a != AUTO:
        return machine_a
    return PUBLISHED_MACHINE_A if PUBLISHED_MACHINE_A in find_traces(settings.trace_dirs()) else STANDIN


class CoschedSetup:
    """Parameters every coscheduling task shares: the profile and where the two workloads come from."""

    profile = luigi.ChoiceParameter(choices=tuple(PROFILES), default="quick")
    machine_a = luigi.Parameter(default=AUTO, description=f"'{AUTO}' ({PUBLISHED_MACHINE_A}, the log the published "
                                f"ledger used, when found; else the synthetic stand-in), '{STANDIN}' or a trace name")
    start_day = luigi.Parameter(default=BUSIEST, description=f"trace mode: first day of A's window, counted from "
                                f"the log's first submission, or '{BUSIEST}' (the window with the most submissions)")
    analysis_model = luigi.Parameter(default=DEFAULT_ANALYSIS_MODEL, description="trace B's model is fitted on")

    def setup(self) -> dict:
        return {
            "profile": self.profile,
            "machine_a": self.machine_a,
            "start_day": self.start_day,
            "analysis_model": self.analysis_model,
        }


class CoschedMachineA(CoschedSetup, SchedlabTask):
    """Machine A's workload, calibrated on its baseline: ``jobs.parquet`` and ``machine.json``.

    A window of the profile's length from the log (or the stand-in), its jobs' widths mapped
    onto Intrepid's 40,960 nodes with the one factor whose no-coscheduling mean wait is the
    paper's 61 minutes (``calibrate_width_scale``).  No coscheduling run is involved.
    """

    code_modules = ("schedlab.simulators.cosched.workloads", "schedlab.simulators.cosched.experiments")  # the profile's days, the calibration

    def source(self) -> str:
        return machine_a_source(self.machine_a)

    def requires(self):
        if self.source() == STANDIN:
            return {"model": trace_model(self.analysis_model)}
        return {"clean": CleanTrace(trace=self.source()), "parse": ParseTrace(trace=self.source())}

    def run(self):
        profile, source = PROFILES[self.profile], self.source()
        if source == STANDIN:
            model = load_model(self.requires()["model"].output_file("model.json"))
            jobs = intrepid_standin(model, STANDIN_LOAD, seed=1, days=profile.days)
            procs = INTREPID_PROCS
            shortest, longest = STANDIN_RUN_TIME_RANGE
            description = (
                f"synthetic, Intrepid-like: jobs of {INTREPID_PARTITION:,} to "
                f"{INTREPID_PARTITION * INTREPID_LARGEST_PARTITIONS:,} nodes (each doubling half as frequent), run "
                f"times log-uniform from {shortest / 60:g} min to {longest / 3600:g} h, Poisson arrivals at expected "
                f"offered load {STANDIN_LOAD} ({PUBLISHED_MACHINE_A}, the published ledger's machine A, is not in "
                f"the trace directories)"
            )
            estimate_source = f"drawn from {self.analysis_model}'s requested/actual ratios"
        else:
            procs = read_json(self.requires()["parse"].output_file("header.json"))["machine_procs"]
            log = read_jobs(self.requires()["clean"].output_file("jobs.parquet"))
            start_day = window_start_day(log, self.start_day, profile.days)
            jobs = trace_window(log, start_day, profile.days)
            chosen = (f", the {profile.days:g}-day window with the most submissions" if self.start_day == BUSIEST
                      else "")
            description = (f"{profile.days:g} days from day {start_day:g} of the log{chosen} "
                           f"(real jobs, submit times kept)")
            estimate_source = "from the log (SWF field 9)"
        self.set_status_message("calibrating A's job widths on its baseline")
        try:
            factor, base_wait = calibrate_width_scale(jobs, procs)
        except CalibrationMissed as missed:
            raise CalibrationMissed(f"cosched machine A from {source}: {missed}; choose another --machine-a "
                                    f"(e.g. {PUBLISHED_MACHINE_A} or {STANDIN})") from None
        calibrated = widths_on_intrepid(jobs, procs, factor)
        with self.writing_output() as directory:
            write_jobs(calibrated, directory / "jobs.parquet")
            write_json(directory / "machine.json", {
                "source": source, "synthetic": source == STANDIN, "procs": INTREPID_PROCS,
                "source_procs": int(procs), "jobs": len(jobs), "description": description,
                "estimate_source": estimate_source, "offered_load_of_source": offered_load(jobs, procs),
                "width_scale": factor, "partition_nodes": INTREPID_PARTITION,
                "largest_job_nodes": INTREPID_PARTITION * INTREPID_LARGEST_PARTITIONS,
                "calibration_target_wait": PAPER_A_BASE_WAIT,
                "calibrated_base_wait": base_wait,
            })


class CoschedMachineB(CoschedSetup, SchedlabTask):
    """Machine B's calibration on its baseline: ``machine.json`` with the shortest run time kept.

    B's jobs come from the model fitted on ``analysis_model``; those shorter than the cut
    are left out, the cut being the one whose no-coscheduling mean slowdown at load 0.50,
    over the profile's seeds, is the paper's 12.5 (``calibrate_min_runtime``).
    """

    code_modules = ("schedlab.simulators.cosched.workloads", "schedlab.simulators.cosched.experiments")

    def requires(self):
        return {"a": CoschedMachineA(**self.setup()), "model": trace_model(self.analysis_model)}

    def run(self):
        jobs_a = read_jobs(self.requires()["a"].output_file("jobs.parquet"))
        model = load_model(self.requires()["model"].output_file("model.json"))
        seeds = PROFILES[self.profile].seeds
        self.set_status_message("calibrating B's shortest run time on its baseline")
        try:
            cut, slowdown = calibrate_min_runtime(model, jobs_a, seeds)
        except CalibrationMissed as missed:
            raise CalibrationMissed(f"cosched machine B from {self.analysis_model}'s model: {missed}; choose "
                                    f"another --analysis-model (a 100-node trace, e.g. {DEFAULT_ANALYSIS_MODEL})") from None
        builtin = isinstance(self.requires()["model"], BuiltinModel)
        with self.writing_output() as directory:
            write_json(directory / "machine.json", {
                "procs": ANALYSIS_PROCS, "model_trace": self.analysis_model, "model_builtin": builtin,
                "estimate_source": f"drawn from {self.analysis_model}'s requested/actual ratios",
                "min_runtime": cut, "calibration_load": CALIBRATION_LOAD,
                "calibration_target_slowdown": PAPER_B_BASE_SLOWDOWN, "calibrated_base_slowdown": slowdown,
                "calibration_seeds": list(seeds),
            })


class CoschedRuns(CoschedSetup, SchedlabTask):
    """One experiment point on each of ``seeds``: ``summaries.json`` (per seed, in the task's order:
    metrics per machine, pairing, deadlock) and ``schedule.parquet`` (both machines' schedules, with
    ``seed``).  One task per series of seeds, A's month and B's model read once for them all."""

    series = luigi.ChoiceParameter(choices=SERIES)
    x = luigi.FloatParameter(description="B utilization (load series) or paired share (ratio series)")
    scheme = luigi.ChoiceParameter(choices=SCHEMES)
    seeds = luigi.ListParameter(description="the seeds, one run each")
    release = luigi.BoolParameter(default=True, parsing=luigi.BoolParameter.EXPLICIT_PARSING)
    ratio_arrivals = luigi.ChoiceParameter(choices=RATIO_ARRIVALS, default=DEFAULT_RATIO_ARRIVALS,
                                           description="ratio series: where B's jobs arrive")
    nonempty_parameters = ("seeds",)
    code_modules = ("schedlab.simulators.cosched.simulate",)

    def requires(self):
        return {
            "a": CoschedMachineA(**self.setup()),
            "b": CoschedMachineB(**self.setup()),
            "model": trace_model(self.analysis_model),
        }

    def points(self) -> list[Point]:
        return [Point(self.series, self.x, self.scheme, int(seed), self.release, self.ratio_arrivals)
                for seed in self.seeds]

    @classmethod
    def warm_up(cls) -> None:
        # The compiled loop every run calls, and the run's invariant checks, from numba's cache: one pair.
        one = pd.DataFrame({"job_id": [1], "submit_time": [0], "allocated_procs": [1], "requested_procs": [1],
                            "requested_time": [1.0], "run_time": [1.0]})
        cosimulate(one, 1, one, 1, pd.DataFrame({"job_id_a": [1], "job_id_b": [1]}), CoschedSettings(("hold", "hold")))

    def run(self):
        machine = read_json(self.requires()["a"].output_file("machine.json"))
        jobs_a = read_jobs(self.requires()["a"].output_file("jobs.parquet"))
        model = load_model(self.requires()["model"].output_file("model.json"))
        min_runtime = read_json(self.requires()["b"].output_file("machine.json"))["min_runtime"]
        schedules, summaries = [], []
        for done, point in enumerate(self.points()):
            self.set_progress_percentage(100 * done // len(self.seeds))
            schedule, summary = simulate(point, jobs_a, machine["procs"], model, min_runtime)
            schedules.append(schedule.assign(seed=point.seed))
            summaries.append(summary)
        with self.writing_output() as directory:
            pd.concat(schedules, ignore_index=True).to_parquet(directory / "schedule.parquet", index=False,
                                                               write_page_checksum=True)
            write_json(directory / "summaries.json", summaries)

    def summaries(self) -> list[dict]:
        return read_json(self.output_file("summaries.json"))


def run_tasks(setup: dict, points) -> list[CoschedRuns]:
    """The tasks that run ``points``: one per point but for the seed, its seeds in ascending order."""
    return [
        CoschedRuns(**setup, series=p.series, x=p.x, scheme=p.scheme, seeds=seeds, release=p.release,
                    ratio_arrivals=p.ratio_arrivals) for p, seeds in seed_series(points).items()
    ]


def read_as_default(point: Point) -> bool:
    """Whether a point is of the default reading of the ratio series' arrivals (every load-series point is)."""
    return point.ratio_arrivals == DEFAULT_RATIO_ARRIVALS


def runs_of(tasks, days: float) -> pd.DataFrame:
    """The per-seed runs table (one row per run and machine), A's window length on every row."""
    rows = summary_rows([summary for task in tasks for summary in task.summaries()])
    keys = ["series", "x", "scheme", "release", "seed", "machine"]
    return rows.assign(window_days=days).sort_values(keys, ignore_index=True)


class CoschedFigure(CoschedSetup, SchedlabTask):
    """One of the paper's Figs. 3-10: ``<stem>.png``, ``<stem>.svg`` and, in ``<stem>.csv``, the
    per-seed values it plots (the runs of its series, its metric only)."""

    figure = luigi.ChoiceParameter(choices=tuple(str(spec.number) for spec in FIGURES))
    code_modules = ("schedlab.reports.cosched",)

    def spec(self):
        return FIGURES_BY_NUMBER[int(self.figure)]

    def requires(self):
        points = [p for p in grid(PROFILES[self.profile])
                  if p.series == self.spec().series and p.release and read_as_default(p)]
        return {"a": CoschedMachineA(**self.setup()), "points": run_tasks(self.setup(), points)}

    def run(self):
        spec = self.spec()
        runs = runs_of(self.requires()["points"], PROFILES[self.profile].days)
        machine = read_json(self.requires()["a"].output_file("machine.json"))
        names = {"A": f"A: {machine['procs']:,}-node compute machine ({machine['source']}'s jobs)",
                 "B": "B: 100-node analysis cluster"}
        with self.writing_output() as directory:
            save_figure(coscheduling_figure(runs, spec, names), directory, spec.stem)
            write_csv(directory / f"{spec.stem}.csv", runs[["series", "x", "scheme", "seed", "machine", spec.metric]])


class CoschedReport(CoschedSetup, SchedlabTask):
    """The stage report: ``index.md`` / ``index.html``, the figures, the tables (CSV, MD, LaTeX),
    ``runs.csv``, ``parameters.json`` and the claims ledger judged on them."""

    code_modules = ("schedlab.reports.cosched", "schedlab.reports.cosched_claims", "schedlab.reports.cosched_causes")

    def requires(self):
        return {
            "a": CoschedMachineA(**self.setup()),
            "b": CoschedMachineB(**self.setup()),
            "figures": [CoschedFigure(**self.setup(), figure=str(spec.number)) for spec in FIGURES],
            "points": run_tasks(self.setup(), [p for p in grid(PROFILES[self.profile]) if read_as_default(p)]),
            "ratio_arrivals_variant": run_tasks(self.setup(), [p for p in grid(PROFILES[self.profile])
                                                                 if not read_as_default(p)]),
        }

    def parameters(self, machine: dict, machine_b: dict) -> dict:
        """What the runs used, for the page's generated setup: nothing on the page is typed by hand."""
        rules = asdict(CoschedSettings(COMBINATIONS["HH"]))
        del rules["schemes"]  # varies by run: the four combinations and the baseline
        return {
            "profile": asdict(PROFILES[self.profile]),
            "machine_a": machine,
            "machine_b": machine_b,
            "pairing_window_seconds": PAIRING_WINDOW_SECONDS,
            "ratio_series_load": RATIO_SERIES_LOAD,
            "ratio_series_arrivals": {"default": DEFAULT_RATIO_ARRIVALS, "variant": VARIANT_RATIO_ARRIVALS,
                                      "pairing": RATIO_PAIRING},
            "policy": "WFP priority + EASY backfilling, one event loop for both machines",
            "coscheduling": rules,
        }

    def run(self):
        profile = PROFILES[self.profile]
        machine = read_json(self.requires()["a"].output_file("machine.json"))
        machine_b = read_json(self.requires()["b"].output_file("machine.json"))
        runs = runs_of(self.requires()["points"], profile.days)
        variant_tasks = self.requires()["ratio_arrivals_variant"]
        results = {"runs": runs, "confidence": confidence_table(runs),
                   "ratio_arrivals_runs": runs_of(variant_tasks, profile.days) if variant_tasks else runs.iloc[:0]}
        with self.writing_output() as directory:
            for task in self.requires()["figures"]:
                stem = task.spec().stem
                for suffix in ("png", "svg"):
                    (directory / f"{stem}.{suffix}").write_bytes(task.output_file(f"{stem}.{suffix}").read_bytes())
            write_report(directory, results, self.parameters(machine, machine_b))
