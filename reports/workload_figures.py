"""Figures of workload models: data against model for arrivals, sizes and runtimes.

For a fitted model and its trace, or for a synthesized workload and the model it came
from, four figures compare the data with the model (:mod:`schedlab.workloads.diagnostics`):

* ``interarrival_cdf``: inter-arrival gaps on the model's warped clock (the daily and
  weekly cycle factored out), empirical CDF against the model CDF;
* ``size_cdf``: job sizes (processors), empirical CDF against the model CDF;
* ``runtime_cdf``: runtimes, empirical CDF against the model CDF;
* ``hourly_arrivals``: share of arrivals in each hour of the day, data against model.

Each legend gives the KS distance.  Figures use matplotlib's object API (no pyplot,
no global state, the Agg canvas) and are saved as PNG and SVG by
:func:`schedlab.reports.figures.save_figure`, byte-identical from run to run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from schedlab.reports.figures import legend_below, save_figure
from schedlab.workloads.diagnostics import (
    ModelCdfs,
    WorkloadSample,
    ks_to_model,
    model_cdfs,
    synthesis_sample,
    trace_sample,
)
from schedlab.workloads.synthesis import Synthesis

CDF_POINTS = 1001  # empirical CDFs are drawn through this many quantiles, whatever the data size
MODEL_POINTS = 400


def _model_label(model: dict) -> str:
    if model["kind"] == "fitted":
        return "model fitted on " + model["source"]["trace"]
    return model["kind"] + " model"


def cdf_figure(
    sample: np.ndarray,
    model_cdf: Callable[[np.ndarray], np.ndarray],
    *,
    data_label: str,
    model_label: str,
    ks: float,
    title: str,
    xlabel: str,
    integer_valued: bool = False,
) -> Figure:
    """Empirical CDF of ``sample`` (steps) against ``model_cdf`` on a log x axis.

    Zeros, which a log axis cannot show, are counted in the CDF and noted in the title.
    """
    figure = Figure(figsize=(7.0, 4.5), layout="constrained")
    axes = figure.add_subplot()
    sample = np.asarray(sample, dtype=float)
    probabilities = np.linspace(0.0, 1.0, CDF_POINTS)
    quantiles = np.quantile(sample, probabilities, method="inverted_cdf")
    positive = sample[sample > 0]
    low = max(float(positive.min()) if positive.size else 1.0, 1.0 if integer_valued else 1e-3)
    high = max(float(sample.max()), low * 10)
    shown = quantiles > 0
    axes.plot(quantiles[shown], probabilities[shown], drawstyle="steps-post", label=f"{data_label} (KS {ks:.3f})")
    grid = np.arange(1, int(high) + 1) if integer_valued and high <= 4096 else np.geomspace(low, high, MODEL_POINTS)
    axes.plot(grid, model_cdf(grid), drawstyle="steps-post" if integer_valued else "default", label=model_label)
    axes.set_xscale("log", base=2 if integer_valued else 10)
    axes.set_xlim(low, high)
    axes.set_ylim(0, 1)
    zeros = np.mean(sample == 0)
    axes.set_title(title + (f" ({zeros:.1%} are 0)" if zeros > 0 else ""))
    axes.set_xlabel(xlabel)
    axes.set_ylabel("fraction")
    axes.grid(True, alpha=0.3)
    legend_below(figure, axes)
    return figure


def hourly_profile_figure(data_shares: np.ndarray, model_shares: np.ndarray, *, data_label: str, model_label: str, title: str) -> Figure:
    """Share of arrivals per hour of the day: data as bars, model as a line."""
    figure = Figure(figsize=(7.0, 4.0), layout="constrained")
    axes = figure.add_subplot()
    hours = np.arange(24)
    axes.bar(hours + 0.5, data_shares, width=0.9, alpha=0.6, label=data_label)
    axes.step(np.append(hours, 24), np.append(model_shares, model_shares[-1]), where="post", color="black", label=model_label)
    axes.set_xlim(0, 24)
    axes.set_xticks(range(0, 25, 3))
    axes.set_xlabel("hour of the day (local time)")
    axes.set_ylabel("share of arrivals")
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    legend_below(figure, axes)
    return figure


def comparison_figures(sample: WorkloadSample, cdfs: ModelCdfs, *, data_label: str, model_label: str) -> dict[str, Figure]:
    """The four figures (see the module docstring) by file stem."""
    distances = ks_to_model(sample, cdfs)
    common = {"data_label": data_label, "model_label": model_label}
    return {
        "interarrival_cdf": cdf_figure(
            sample.interarrival, cdfs.interarrival, ks=distances["interarrival"], **common,
            title="Inter-arrival gaps, daily and weekly cycle factored out", xlabel="gap (seconds on the cycle's clock)",
        ),
        "size_cdf": cdf_figure(
            sample.sizes, cdfs.sizes, ks=distances["sizes"], integer_valued=True, **common,
            title="Job sizes", xlabel="processors",
        ),
        "runtime_cdf": cdf_figure(
            sample.runtimes, cdfs.runtimes, ks=distances["runtimes"], **common,
            title="Runtimes", xlabel="runtime (seconds)",
        ),
        "hourly_arrivals": hourly_profile_figure(
            sample.hourly_shares, cdfs.hourly_shares, **common, title="Arrivals by hour of the day",
        ),
    }


def fit_figures(model: dict, jobs: pd.DataFrame) -> dict[str, Figure]:
    """A fitted model against the (cleaned) jobs it was fitted on."""
    return comparison_figures(
        trace_sample(model, jobs), model_cdfs(model, model["machine_procs"]),
        data_label=model["source"]["trace"], model_label=_model_label(model),
    )


def synthesis_figures(model: dict, synthesis: Synthesis, machine_procs: int) -> dict[str, Figure]:
    """A synthesized workload against the model it was drawn from."""
    return comparison_figures(
        synthesis_sample(model, synthesis), model_cdfs(model, machine_procs),
        data_label=f"synthesized ({len(synthesis.jobs):,} jobs)", model_label=_model_label(model),
    )


def save_figures(figures: dict[str, Figure], directory, prefix: str = "") -> list[Path]:
    """Save each figure as PNG and SVG named ``prefix + stem``; returns the files written."""
    Path(directory).mkdir(parents=True, exist_ok=True)
    return [path for stem, figure in figures.items() for path in save_figure(figure, directory, prefix + stem)]
