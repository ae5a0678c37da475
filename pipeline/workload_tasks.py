"""Workload modeling tasks: fit, synthesize, scale, pair (domain code in ``workloads``).

    CleanTrace --> FitWorkloadModel --> SynthesizeWorkload --+
    CleanTrace --> ScaleTrace -------------------------------+--> PairWorkloads
    (any workload task) -------------------------------------+

``SynthesizeWorkload`` and ``ScaleTrace`` write ``jobs.parquet`` and ``workload.json`` like
``CleanTrace`` and ``SyntheticWorkload``, so that whatever reads a workload reads them the
same way, plus the workload as SWF.  ``PairWorkloads`` names its two workloads by a
*workload spec*, a dict with the task family and its parameters, e.g.
``{"task": "ScaleTrace", "trace": "KTH-SP2-1996-2.2", "target_utilization": 0.5}``.
"""

from __future__ import annotations

from collections.abc import Mapping

import luigi

from schedlab.parsers.header import SwfHeader
from schedlab.parsers.schema import read_jobs, write_jobs
from schedlab.parsers.swf import write_swf
from pipeline import settings
from pipeline.base import SchedlabTask, read_json, write_json
from pipeline.synthetic_tasks import SyntheticWorkload
from pipeline.trace_tasks import CleanTrace, ParseTrace, find_traces
from schedlab.reports.workload_figures import fit_figures, save_figures, synthesis_figures
from schedlab.errors import SchedlabError
from schedlab.options import COUNT, DURATION, LOAD, POSITIVE_DURATION, SEED, number
from schedlab.progress import reporter
from schedlab.workloads.diagnostics import ks_to_model, model_cdfs, synthesis_sample
from schedlab.workloads.fitting import fit_workload
from schedlab.workloads.model import BUILTIN_FITS, BUILTIN_MODELS, FITTED, load_model, save_model
from schedlab.workloads.pairing import DEFAULT_WINDOW_SECONDS, pair_by_ratio, pair_by_window
from schedlab.workloads.scaling import RESIZE_MODES, scale_trace, scaled_header
from schedlab.workloads.synthesis import synthesize_with_details, synthetic_header


class FitWorkloadModel(SchedlabTask):
    """Fit a workload model to a cleaned trace.

    Outputs ``model.json`` (:mod:`schedlab.workloads.model`) and the figures of the model against
    the trace (``interarrival_cdf``, ``size_cdf``, ``runtime_cdf``, ``hourly_arrivals``,
    PNG and SVG).
    """

    trace = luigi.Parameter(description="trace name: file name without .swf or .swf.gz")
    code_modules = ("schedlab.workloads.fitting", "schedlab.reports.workload_figures")

    def requires(self):
        return {"clean": CleanTrace(trace=self.trace), "parse": ParseTrace(trace=self.trace)}

    def run(self):
        parsed = read_json(self.requires()["parse"].output_file("header.json"))
        cleaning = read_json(self.requires()["clean"].output_file("cleaning.json"))
        jobs = read_jobs(self.requires()["clean"].output_file("jobs.parquet"))
        header = parsed["header"]
        self.set_status_message(f"fitting {len(jobs):,} jobs")
        model = fit_workload(
            jobs,
            parsed["machine_procs"],
            trace_name=parsed["file_name"],
            sha256=parsed["content_sha256"],
            unix_start_time=header["unix_start_time"],
            time_zone=header["time_zone_string"] or header["time_zone"],
            cleaning={step["name"]: step["removed"] for step in cleaning["steps"]},
            progress=reporter("fit"),
        )
        with self.writing_output() as directory:
            save_model(model, directory / "model.json")
            save_figures(fit_figures(model, jobs), directory)


class BuiltinModel(SchedlabTask):
    """A built-in model as a task's output, ``model.json``, where a trace's own fit would be.

    The shipped model files count as code of ``schedlab.workloads.model``, so an edited one reruns
    whatever was drawn from it.
    """

    model = luigi.ChoiceParameter(choices=tuple(BUILTIN_MODELS), description="a built-in model")
    code_modules = ("schedlab.workloads.model",)

    def run(self):
        with self.writing_output() as directory:
            save_model(load_model(self.model), directory / "model.json")


def trace_model(trace: str) -> SchedlabTask:
    """The task whose ``model.json`` is ``trace``'s workload model: its fit where the trace is in the
    trace directories, else the built-in fit of it where one is shipped (``BUILTIN_FITS``), else
    the fit (which then says, in one line, that the trace is missing)."""
    if trace in BUILTIN_FITS and trace not in find_traces(settings.trace_dirs()):
        return BuiltinModel(model=BUILTIN_FITS[trace])
    return FitWorkloadModel(trace=trace)


class SynthesizeWorkload(SchedlabTask):
    """Draw ``n_jobs`` jobs from a model: a trace's fitted model, or a built-in one.

    ``model`` is a trace name (its ``FitWorkloadModel`` runs first) or
    ``builtin:lublin-feitelson-1999``.  ``load`` is the target offered load (none: the
    model's own rate); ``procs`` the machine size (none: the fitted model's machine).
    Outputs ``jobs.parquet``, ``workload.json``, ``workload.swf``, ``synthesis.json``
    (offered load, gap scale, KS distance to the model per quantity) and the figures
    of the workload against its model.
    """

    model = luigi.Parameter(description="trace name, or builtin:lublin-feitelson-1999")
    parameter_ranges = {"seed": SEED, "n_jobs": COUNT, "load": LOAD, "procs": COUNT}
    seed = luigi.IntParameter(description="seed of the synthesis' random streams")
    n_jobs = luigi.IntParameter(description="number of jobs")
    load = luigi.OptionalFloatParameter(default=None, description="target offered load")
    procs = luigi.OptionalIntParameter(default=None, description="machine size in processors")
    code_modules = ("schedlab.workloads.synthesis", "schedlab.workloads.diagnostics", "schedlab.reports.workload_figures")

    def requires(self):
        return [] if self.model in BUILTIN_MODELS else FitWorkloadModel(trace=self.model)

    def load_model_document(self) -> dict:
        if self.model in BUILTIN_MODELS:
            return load_model(self.model)
        return load_model(self.requires().output_file("model.json"))

    def run(self):
        model = self.load_model_document()
        procs = self.procs if self.procs is not None else model.get("machine_procs")
        if procs is None:
            raise SchedlabError(f"model {self.model} describes no machine: give procs")
        self.set_status_message(f"drawing {self.n_jobs:,} jobs")
        synthesis = synthesize_with_details(model, self.n_jobs, procs, self.load, self.seed)
        name = f"synth-{self.model.removeprefix('builtin:')}-{procs}p-{self.n_jobs}j-load{self.load}-seed{self.seed}"
        source = {"kind": "synthetic", "model": self.model, "model_kind": model["kind"], "seed": self.seed,
                  "n_jobs": self.n_jobs, "target_load": self.load}
        if model["kind"] == FITTED:
            source["model_source"] = model["source"]
        summary = {
            "offered_load": synthesis.offered_load,
            "gap_scale": synthesis.gap_scale,
            "ks_to_model": ks_to_model(synthesis_sample(model, synthesis), model_cdfs(model, procs)),
        }
        with self.writing_output() as directory:
            write_jobs(synthesis.jobs, directory / "jobs.parquet")
            write_json(directory / "workload.json", {"name": name, "machine_procs": procs, "jobs": len(synthesis.jobs), "source": source})
            write_swf(directory / "workload.swf", synthesis.jobs, synthetic_header(model, synthesis, procs, self.load, self.seed))
            write_json(directory / "synthesis.json", summary)
            save_figures(synthesis_figures(model, synthesis, procs), directory)


class ScaleTrace(SchedlabTask):
    """A cleaned trace with its arrival gaps scaled to a target load (:mod:`schedlab.workloads.scaling`).

    ``window`` (seconds) keeps only that much of the scaled trace; ``resize_procs`` and
    ``resize_mode`` move the jobs to a smaller machine.  Outputs ``jobs.parquet``,
    ``workload.json`` and ``workload.swf``.
    """

    trace = luigi.Parameter(description="trace name: file name without .swf or .swf.gz")
    parameter_ranges = {"target_utilization": LOAD, "window": POSITIVE_DURATION, "resize_procs": COUNT}
    target_utilization = luigi.FloatParameter(description="target offered load")
    window = luigi.OptionalFloatParameter(default=None, description="seconds of the scaled trace to keep")
    resize_procs = luigi.OptionalIntParameter(default=None, description="processors of a smaller machine")
    resize_mode = luigi.ChoiceParameter(choices=RESIZE_MODES, default="clip")
    code_modules = ("schedlab.workloads.scaling",)

    def requires(self):
        return {"clean": CleanTrace(trace=self.trace), "parse": ParseTrace(trace=self.trace)}

    def run(self):
        parsed = read_json(self.requires()["parse"].output_file("header.json"))
        jobs = read_jobs(self.requires()["clean"].output_file("jobs.parquet"))
        scaled = scale_trace(
            jobs, parsed["machine_procs"], self.target_utilization, window_seconds=self.window,
            resize_procs=self.resize_procs, resize_mode=self.resize_mode,
        )
        header = scaled_header(SwfHeader(**parsed["header"]), scaled, self.target_utilization, self.window)
        workload = {
            "name": f"{self.trace}-load{self.target_utilization}" + (f"-window{self.window:g}s" if self.window else ""),
            "machine_procs": scaled.machine_procs,
            "jobs": len(scaled.jobs),
            "source": {"kind": "scaled trace", "trace": self.trace, "file_sha256": parsed["file_sha256"],
                       "gap_scale": scaled.gap_scale, "offered_load": scaled.offered_load,
                       "window_seconds": self.window, "resize_procs": self.resize_procs, "resize_mode": self.resize_mode},
        }
        with self.writing_output() as directory:
            write_jobs(scaled.jobs, directory / "jobs.parquet")
            write_json(directory / "workload.json", workload)
            write_swf(directory / "workload.swf", scaled.jobs, header)


WORKLOAD_TASKS = {task.__name__: task for task in (CleanTrace, SyntheticWorkload, SynthesizeWorkload, ScaleTrace)}


def workload_from_spec(spec: Mapping) -> SchedlabTask:
    """The task of a workload spec: ``{"task": family, **parameters}``."""
    parameters = dict(spec)
    family = parameters.pop("task", None)
    if family not in WORKLOAD_TASKS:
        raise SchedlabError(f"workload spec needs 'task', one of {', '.join(WORKLOAD_TASKS)}; got {family!r}")
    return WORKLOAD_TASKS[family](**parameters)


class PairWorkloads(SchedlabTask):
    """Pair the jobs of workloads ``a`` and ``b`` (:mod:`schedlab.workloads.pairing`).

    ``mode`` is ``window`` (submit times at most ``window`` seconds apart, nearest first)
    or ``ratio`` (every round(1/``ratio``)-th job by submit order).  Outputs
    ``pairs.parquet``, ``pairs.csv`` and ``pairing.json`` (pair count and paired share
    of each side).
    """

    a = luigi.DictParameter(description="workload spec of machine A's workload")
    b = luigi.DictParameter(description="workload spec of machine B's workload")
    mode = luigi.ChoiceParameter(choices=("window", "ratio"), default="window")
    parameter_ranges = {"window": DURATION, "ratio": number(0, 1, low_open=True)}
    window = luigi.FloatParameter(default=DEFAULT_WINDOW_SECONDS, description="window mode: seconds")
    ratio = luigi.OptionalFloatParameter(default=None, description="ratio mode: share of jobs to pair")
    code_modules = ("schedlab.workloads.pairing",)

    def requires(self):
        return {"a": workload_from_spec(self.a), "b": workload_from_spec(self.b)}

    def run(self):
        jobs_a = read_jobs(self.requires()["a"].output_file("jobs.parquet"))
        jobs_b = read_jobs(self.requires()["b"].output_file("jobs.parquet"))
        if self.mode == "ratio":
            if self.ratio is None:
                raise SchedlabError("ratio mode needs a ratio")
            pairing = pair_by_ratio(jobs_a, jobs_b, self.ratio)
        else:
            pairing = pair_by_window(jobs_a, jobs_b, self.window)
        with self.writing_output() as directory:
            pairing.pairs.to_parquet(directory / "pairs.parquet", index=False, write_page_checksum=True)
            pairing.pairs.to_csv(directory / "pairs.csv", index=False, lineterminator="\n")
            write_json(directory / "pairing.json", {"mode": self.mode, **pairing.summary()})
