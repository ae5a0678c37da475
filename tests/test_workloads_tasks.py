"""The workload tasks of the pipeline, on a tiny trace in a temporary work directory."""

import json

import luigi
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from schedlab.parsers.header import SwfHeader
from schedlab.parsers.schema import as_job_table, read_jobs
from schedlab.parsers.swf import read_swf, write_swf
from pipeline import settings
from pipeline.workload_tasks import (
    FitWorkloadModel,
    PairWorkloads,
    ScaleTrace,
    SynthesizeWorkload,
    workload_from_spec,
)
from schedlab.cli import main
from schedlab.errors import SchedlabError
from schedlab.workloads.model import load_model

from tests.conftest import no_traces


def build(*tasks) -> None:
    assert luigi.build(list(tasks), local_scheduler=True, workers=1, log_level="WARNING")


@pytest.fixture
def trace_dir(tmp_path):
    rng = np.random.default_rng(3)
    n = 400
    jobs = as_job_table(
        {
            "job_id": np.arange(1, n + 1),
            "submit_time": np.cumsum(rng.exponential(900.0, n)).round(),
            "run_time": rng.gamma(0.7, 2000.0, n).round() + 1,
            "allocated_procs": rng.choice([1, 2, 4, 8, 6], n),
            "requested_time": np.full(n, 7200.0),
            "status": np.ones(n),
        }
    )
    directory = tmp_path / "traces"
    directory.mkdir()
    write_swf(directory / "tiny.swf", jobs, SwfHeader(version="2.2", max_procs=16))
    return directory


def test_fit_synthesize_scale_and_pair(tmp_path, trace_dir):
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[str(trace_dir)]):
        fit = FitWorkloadModel(trace="tiny")
        synth = SynthesizeWorkload(model="tiny", seed=1, n_jobs=600, load=0.5)
        scaled = ScaleTrace(trace="tiny", target_utilization=0.5)
        pair = PairWorkloads(
            a={"task": "CleanTrace", "trace": "tiny"},
            b={"task": "SynthesizeWorkload", "model": "tiny", "seed": 1, "n_jobs": 600, "load": 0.5},
            mode="ratio", ratio=0.1,
        )
        build(fit, synth, scaled, pair)

        model = load_model(fit.output_file("model.json"))
        assert model["source"]["trace"] == "tiny.swf"
        assert {p.name for p in fit.output_dir().glob("*.svg")} >= {"runtime_cdf.svg", "hourly_arrivals.svg"}
        # the task and the command line fit the same model from the same file
        assert main(["fit", str(trace_dir / "tiny.swf"), "-o", str(tmp_path / "cli.json")]) == 0
        assert (tmp_path / "cli.json").read_bytes() == fit.output_file("model.json").read_bytes()

        jobs = read_jobs(synth.output_file("jobs.parquet"))
        pd.testing.assert_frame_equal(read_swf(synth.output_file("workload.swf")).jobs, jobs)
        # a synthetic workload records no waits: SWF's -1 in the text file, null in Parquet
        assert (jobs["wait_time"] == -1).all()
        assert pq.read_table(synth.output_file("jobs.parquet")).column("wait_time").null_count == len(jobs)
        summary = json.loads(synth.output_file("synthesis.json").read_text())
        assert summary["offered_load"] == pytest.approx(0.5, abs=0.02)
        assert json.loads(synth.output_file("workload.json").read_text())["machine_procs"] == 16

        assert json.loads(scaled.output_file("workload.json").read_text())["source"]["offered_load"] == pytest.approx(0.5, rel=0.01)
        pairing = json.loads(pair.output_file("pairing.json").read_text())
        assert pairing["pairs"] == 40 and pairing["jobs_a"] == 400 and pairing["jobs_b"] == 600

        other_seed = SynthesizeWorkload(model="tiny", seed=2, n_jobs=600, load=0.5)
        assert other_seed.output_dir() != synth.output_dir()
        assert other_seed.requires().output_dir() == fit.output_dir()  # the fit is shared, not redone


def test_builtin_model_needs_no_trace_and_workload_specs_are_checked(tmp_path):
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[no_traces(tmp_path)]):
        synth = SynthesizeWorkload(model="builtin:lublin-feitelson-1999", seed=1, n_jobs=300, procs=64)
        build(synth)
        assert len(pd.read_parquet(synth.output_file("jobs.parquet"))) == 300
    with pytest.raises(SchedlabError, match="workload spec needs 'task'"):
        workload_from_spec({"trace": "tiny"})
