"""Fitting a model to a trace and synthesizing workloads from it."""

import hashlib
import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from schedlab.parsers.cleaning import clean
from schedlab.parsers.schema import as_job_table
from schedlab.parsers.swf import read_swf
from schedlab.errors import SchedlabError
from tests.conftest import shared_path
from schedlab.workloads.fitting import fit_trace, fit_workload, local_week_seconds
from schedlab.workloads.gof import two_sample_ks_distance
from schedlab.workloads.model import ModelError, builtin_lublin_feitelson_model, load_model
from schedlab.workloads.synthesis import synthesize, synthesize_with_details

PROCS = 64


def offered_load(jobs: pd.DataFrame, procs: int) -> float:
    work = (jobs["allocated_procs"] * jobs["run_time"]).sum()
    return work / (procs * (jobs["submit_time"].max() - jobs["submit_time"].min()))


@pytest.fixture(scope="module")
def trace_jobs():
    """3000 jobs: runtimes grow with size, requested/actual = 10**U(0, 1), busy afternoons."""
    rng = np.random.default_rng(42)
    n = 3000
    sizes = rng.choice([1, 1, 1, 2, 4, 4, 8, 16, 32, 6, 12], n)
    runtimes = np.round(np.exp(5.0 + 0.5 * np.log2(sizes) + rng.normal(0, 1.2, n))) + 1
    days = np.sort(rng.integers(0, 60, n))
    hours = np.where(rng.random(n) < 0.8, rng.uniform(9, 18, n), rng.uniform(0, 24, n))
    submits = np.sort(days * 86_400 + np.round(hours * 3600))
    return as_job_table(
        {
            "job_id": np.arange(1, n + 1),
            "submit_time": submits,
            "run_time": runtimes,
            "allocated_procs": sizes,
            "requested_procs": sizes,
            "requested_time": np.ceil(runtimes * 10 ** rng.uniform(0, 1, n)),
        }
    )


@pytest.fixture(scope="module")
def model(trace_jobs):
    return fit_workload(trace_jobs, PROCS, trace_name="made-up.swf", sha256="0" * 64)


def test_the_fit_describes_the_trace(model, trace_jobs):
    assert model["source"]["jobs_used"] == len(trace_jobs)
    hours = np.array(model["arrivals"]["hour_of_day_weights"])
    assert hours[9:18].min() > hours[:6].max()
    assert model["sizes"]["serial_prob"] == pytest.approx((trace_jobs["allocated_procs"] == 1).mean())
    spearman = stats.spearmanr(trace_jobs["allocated_procs"], trace_jobs["run_time"]).statistic
    assert model["size_runtime_correlation"]["spearman"] == pytest.approx(spearman)
    quantiles = model["requested_time_accuracy"]["log10_ratio_quantiles"]
    assert quantiles[50] == pytest.approx(0.5, abs=0.05) and quantiles[0] >= 0


def test_synthesis_hits_the_target_load_by_scaling_arrivals_only(model):
    for target in (0.3, 0.7):
        jobs = synthesize(model, 5000, PROCS, target, seed=1)
        assert offered_load(jobs, PROCS) == pytest.approx(target, abs=0.02)
    low, high = synthesize(model, 5000, PROCS, 0.3, seed=1), synthesize(model, 5000, PROCS, 0.7, seed=1)
    for column in ("run_time", "allocated_procs", "requested_time"):
        assert (low[column] == high[column]).all()
    gaps_ratio = np.diff(low["submit_time"]).sum() / np.diff(high["submit_time"]).sum()
    assert gaps_ratio == pytest.approx(0.7 / 0.3, rel=0.01)


def test_synthesized_jobs_look_like_the_trace(model, trace_jobs):
    jobs = synthesize(model, 5000, PROCS, 0.5, seed=2)
    assert jobs["submit_time"].is_monotonic_increasing
    assert two_sample_ks_distance(jobs["run_time"], trace_jobs["run_time"]) < 0.06
    # the made-up sizes are not two-stage uniform: synthesis is as far from them as the fitted model is
    size_distance = two_sample_ks_distance(jobs["allocated_procs"], trace_jobs["allocated_procs"])
    assert size_distance < model["sizes"]["ks"] + 0.03
    trace_rho = stats.spearmanr(trace_jobs["allocated_procs"], trace_jobs["run_time"]).statistic
    synthetic_rho = stats.spearmanr(jobs["allocated_procs"], jobs["run_time"]).statistic
    assert synthetic_rho == pytest.approx(trace_rho, abs=0.06)
    assert (jobs["requested_time"] >= jobs["run_time"]).all()
    log_ratio = np.log10(jobs["requested_time"] / jobs["run_time"])
    assert stats.kstest(log_ratio, stats.uniform(0, 1).cdf).statistic < 0.06
    hour = (jobs["submit_time"] % 86_400) // 3600
    assert hour.between(9, 17).mean() > 0.6


def test_same_seed_same_jobs_other_seed_other_jobs(model):
    first = synthesize(model, 1000, PROCS, 0.5, seed=7)
    pd.testing.assert_frame_equal(first, synthesize(model, 1000, PROCS, 0.5, seed=7))
    assert not first.equals(synthesize(model, 1000, PROCS, 0.5, seed=8))


def test_a_larger_machine_gets_larger_jobs(model):
    small = synthesize(model, 3000, PROCS, 0.5, seed=3)
    large = synthesize(model, 3000, 4 * PROCS, 0.5, seed=3)
    assert large["allocated_procs"].max() <= 4 * PROCS
    assert large["allocated_procs"].mean() > small["allocated_procs"].mean()


def test_bad_requests_and_models_are_refused(model):
    with pytest.raises(SchedlabError, match="number of jobs"):
        synthesize(model, 0, PROCS, 0.5, seed=1)
    with pytest.raises(SchedlabError, match="target load"):
        synthesize(model, 10, PROCS, -0.1, seed=1)
    broken = {key: value for key, value in model.items() if key != "runtimes"}
    with pytest.raises(ModelError, match="missing field 'runtimes'"):
        synthesize(broken, 10, PROCS, 0.5, seed=1)


def test_builtin_model_synthesis_equals_the_lublin_feitelson_generator():
    from schedlab.workloads.lublin import lublin_feitelson_jobs

    via_document = synthesize_with_details(builtin_lublin_feitelson_model(), 800, 128, 0.5, 5)
    pd.testing.assert_frame_equal(via_document.jobs, lublin_feitelson_jobs(800, 128, 5, 0.5))
    assert via_document.offered_load == pytest.approx(0.5, abs=0.01)


def test_local_clock_follows_the_time_zone_and_daylight_saving():
    # 1996-09-23 12:00 UTC is a Monday, 14:00 in Stockholm (summer time); 1996-12-02 12:00 UTC is 13:00 there.
    monday_noon_utc = 843_480_000 - 843_480_000 % 86_400 + 12 * 3600
    seconds = local_week_seconds(np.array([0.0, 70 * 86_400.0]), monday_noon_utc, "Europe/Stockholm")
    assert seconds[0] == 14 * 3600
    assert (seconds[1] % 86_400) == 13 * 3600
    fixed = local_week_seconds(np.array([0.0]), monday_noon_utc, 3600)
    assert fixed[0] == 13 * 3600


@pytest.fixture(scope="module")
def kth():
    path = shared_path("traces", "KTH-SP2-1996-2.2.swf")
    trace = read_swf(path)
    return path, trace, fit_trace(trace, path.name)


def test_kth_fit_then_20000_jobs_at_load_0_6(kth):
    """The issue's acceptance: utilization 0.58-0.62 and runtime KS to the trace below 0.1."""
    path, trace, kth_model = kth
    assert kth_model["source"]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert kth_model["machine_procs"] == 100
    jobs = synthesize(kth_model, 20_000, 100, 0.6, seed=1)
    assert 0.58 <= offered_load(jobs, 100) <= 0.62
    cleaned, _ = clean(trace.jobs, 100)
    assert two_sample_ks_distance(jobs["run_time"], cleaned["run_time"]) < 0.1
    chosen = kth_model["runtimes"]["chosen"]
    assert kth_model["runtimes"]["candidates"][chosen]["ks"] < 0.1


def same_up_to_float_rounding(shipped, refit, path="model"):
    """Equal structures, every float within 1e-12 relative: a numerical library's release may move the last
    bits of a sum (numpy 2.4.6 moved a correlation by 3e-17), which is not an edit of the model."""
    if isinstance(shipped, dict):
        assert isinstance(refit, dict) and shipped.keys() == refit.keys(), path
        for key in shipped:
            same_up_to_float_rounding(shipped[key], refit[key], f"{path}.{key}")
    elif isinstance(shipped, list):
        assert isinstance(refit, list) and len(shipped) == len(refit), path
        for index, (a, b) in enumerate(zip(shipped, refit)):
            same_up_to_float_rounding(a, b, f"{path}[{index}]")
    elif isinstance(shipped, float):
        assert refit == pytest.approx(shipped, rel=1e-12, abs=1e-15), path
    else:
        assert shipped == refit, path


def test_the_shipped_kth_model_is_what_fitting_the_trace_gives(kth):
    """builtin:kth-sp2-1996 is ``schedlab fit``'s output on the PWA file, unedited (refit here)."""
    _, trace, kth_model = kth
    same_up_to_float_rounding(load_model("builtin:kth-sp2-1996"), json.loads(json.dumps(kth_model)))
    cleaned, _ = clean(trace.jobs, 100)
    assert kth_model["source"]["offered_load"] == pytest.approx(offered_load(cleaned, 100), rel=1e-12)


def test_the_request_cap_redraws_only_the_requests_above_it():
    from schedlab.workloads.synthesis import requested_times

    runtimes = np.geomspace(1, 50_000, 2_000).round()
    accuracy = {"log10_ratio_quantiles": list(np.linspace(-0.5, 4.0, 101)), "max_requested_time": 1e12}
    uncapped = requested_times(np.random.default_rng(7), accuracy, runtimes)
    assert uncapped.max() > 100_000  # ratios up to 1e4: the cap below binds
    capped = requested_times(np.random.default_rng(7), {**accuracy, "max_requested_time": 100_000.0}, runtimes)
    within = uncapped <= 100_000
    assert (capped[within] == uncapped[within]).all()
    assert (capped <= 100_000).all() and (capped >= runtimes).all()
    assert len(np.unique(capped[~within])) > 0.9 * (~within).sum()  # redrawn, not set to the cap
