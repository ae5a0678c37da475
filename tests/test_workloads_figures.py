"""Workload figures: data against model, PNG and SVG, byte-identical across runs."""

import numpy as np
import pytest

from schedlab.parsers.schema import as_job_table
from schedlab.reports.workload_figures import fit_figures, save_figures, synthesis_figures
from tests.conftest import layout_faults
from schedlab.workloads.diagnostics import (
    ks_to_model,
    model_cdfs,
    synthesis_sample,
    trace_sample,
)
from schedlab.workloads.fitting import fit_workload
from schedlab.workloads.model import builtin_lublin_feitelson_model
from schedlab.workloads.synthesis import synthesize_with_details

STEMS = {"interarrival_cdf", "size_cdf", "runtime_cdf", "hourly_arrivals"}


@pytest.fixture(scope="module")
def trace_and_model():
    rng = np.random.default_rng(6)
    n = 800
    jobs = as_job_table(
        {
            "job_id": np.arange(1, n + 1),
            "submit_time": np.cumsum(rng.exponential(600.0, n)).round(),
            "run_time": rng.gamma(0.8, 3000.0, n).round() + 1,
            "allocated_procs": rng.choice([1, 2, 4, 8, 5], n),
        }
    )
    return jobs, fit_workload(jobs, 16, trace_name="small.swf", sha256="1" * 64)


def test_fit_figures_show_data_against_model_with_ks_in_the_legend(trace_and_model):
    jobs, model = trace_and_model
    figures = fit_figures(model, jobs)
    assert set(figures) == STEMS
    distances = ks_to_model(trace_sample(model, jobs), model_cdfs(model, 16))
    legend = [t.get_text() for t in figures["runtime_cdf"].legends[0].get_texts()]
    assert legend == [f"small.swf (KS {distances['runtimes']:.3f})", "model fitted on small.swf"]
    for stem, figure in figures.items():  # each legend under the axes, covering no plot and no title
        assert figure.axes[0].get_legend() is None and layout_faults(figure) == [], stem
    assert figures["size_cdf"].axes[0].get_xlabel() == "processors"


def test_figures_are_written_as_png_and_svg_identically_twice(tmp_path, trace_and_model):
    jobs, model = trace_and_model
    first = save_figures(fit_figures(model, jobs), tmp_path / "first")
    second = save_figures(fit_figures(model, jobs), tmp_path / "second")
    assert sorted(p.name for p in first) == sorted(f"{s}.{e}" for s in STEMS for e in ("png", "svg"))
    for one, other in zip(first, second):
        assert one.read_bytes() == other.read_bytes(), one.name


@pytest.mark.parametrize("kind", ["fitted", "lublin-feitelson-1999"])
def test_a_synthesized_workload_follows_its_model(trace_and_model, kind):
    model = trace_and_model[1] if kind == "fitted" else builtin_lublin_feitelson_model()
    synthesis = synthesize_with_details(model, 4000, 16, 0.6, seed=2)
    distances = ks_to_model(synthesis_sample(model, synthesis), model_cdfs(model, 16))
    assert max(distances.values()) < 0.05
    assert set(synthesis_figures(model, synthesis, 16)) == STEMS
