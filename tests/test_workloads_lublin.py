"""The built-in Lublin-Feitelson model: rules, reproducibility, load targeting, the authors' output."""

import numpy as np
import pandas as pd
import pytest

from schedlab.parsers.schema import DTYPES, SWF_FIELDS
from schedlab.errors import SchedlabError
from tests.conftest import shared_path
from schedlab.workloads.gof import two_sample_ks_distance
from schedlab.workloads.lublin import lublin_feitelson_jobs


def offered_load(jobs: pd.DataFrame, procs: int) -> float:
    work = (jobs["allocated_procs"] * jobs["run_time"]).sum()
    return work / (procs * (jobs["submit_time"].max() - jobs["submit_time"].min()))


@pytest.fixture(scope="module")
def jobs_128():
    return lublin_feitelson_jobs(20_000, 128, seed=4)


def test_the_table_is_canonical_sorted_and_numbered(jobs_128):
    assert list(jobs_128.columns) == list(SWF_FIELDS)
    assert dict(jobs_128.dtypes) == DTYPES
    assert (jobs_128["job_id"] == np.arange(1, 20_001)).all()
    assert jobs_128["submit_time"].is_monotonic_increasing and jobs_128["submit_time"].iloc[0] == 0
    assert (jobs_128["requested_time"] >= jobs_128["run_time"]).all()
    assert jobs_128["requested_time"].max() <= 46 * 3600  # the smallest whole hour above e^12 s
    assert (jobs_128["requested_procs"] == jobs_128["allocated_procs"]).all()
    assert jobs_128["allocated_procs"].between(1, 128).all()
    assert jobs_128["run_time"].between(1, np.exp(12) + 1).all()
    assert (jobs_128[["submit_time", "run_time"]] % 1 == 0).all().all()


def test_serial_share_and_power_of_two_preference_follow_the_paper(jobs_128):
    sizes = jobs_128["allocated_procs"]
    assert (sizes == 1).mean() == pytest.approx(0.244, abs=0.01)
    parallel = sizes[sizes > 1]
    power_of_two = (parallel & (parallel - 1)) == 0
    assert power_of_two.mean() > 0.7  # 0.576 of all jobs are forced to a power of two, of 0.756 parallel


def test_big_jobs_run_longer(jobs_128):
    log_runtime = np.log(jobs_128["run_time"])
    sizes = jobs_128["allocated_procs"]
    assert log_runtime[sizes >= 32].median() > log_runtime[sizes == 1].median() + 1


def test_arrivals_follow_a_daily_cycle(jobs_128):
    hour = (jobs_128["submit_time"] % 86_400) // 3600
    assert hour.between(10, 16).mean() > 2 * hour.between(0, 6).mean()


def test_same_seed_same_jobs_other_seed_other_jobs():
    first = lublin_feitelson_jobs(500, 64, seed=9)
    pd.testing.assert_frame_equal(first, lublin_feitelson_jobs(500, 64, seed=9))
    assert not first.equals(lublin_feitelson_jobs(500, 64, seed=10))


@pytest.mark.parametrize(("procs", "target"), [(128, 0.6), (100, 0.25), (1024, 0.9)])
def test_target_load_is_met_within_two_percent(procs, target):
    jobs = lublin_feitelson_jobs(5000, procs, seed=1, target_utilization=target)
    assert offered_load(jobs, procs) == pytest.approx(target, abs=0.02)


def test_target_load_changes_arrivals_only():
    natural = lublin_feitelson_jobs(2000, 128, seed=3)
    loaded = lublin_feitelson_jobs(2000, 128, seed=3, target_utilization=0.3)
    for column in ("run_time", "allocated_procs", "requested_time"):
        assert (natural[column] == loaded[column]).all()
    assert not (natural["submit_time"] == loaded["submit_time"]).all()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 128, 1, None), "number of jobs"),
        ((10, 1, 1, None), "machine"),
        ((10, 128, -1, None), "seed"),
        ((10, 128, 1, -0.5), "target load"),
        ((10, 128, 1, 0.0), "target load"),
        ((1, 128, 1, 0.5), "at least two jobs"),
    ],
)
def test_bad_requests_are_refused(args, message):
    with pytest.raises(SchedlabError, match=message):
        lublin_feitelson_jobs(*args)


def test_matches_the_authors_generator_output():
    """lublin_256.swf was written by Lublin and Feitelson's own generator (256 nodes)."""
    reference = np.loadtxt(shared_path("traces", "lublin_256.swf"), comments=";")
    ours = lublin_feitelson_jobs(len(reference), 256, seed=2)
    assert two_sample_ks_distance(reference[:, 3], ours["run_time"]) < 0.03
    assert two_sample_ks_distance(reference[:, 4], ours["allocated_procs"]) < 0.03
    assert two_sample_ks_distance(np.diff(reference[:, 1]), np.diff(ours["submit_time"])) < 0.03


@pytest.mark.parametrize("seed", range(5))
def test_target_load_is_exact_even_for_a_short_workload(seed):
    """Spec 003's 100-job week: the span is a few days, so the daily cycle must be accounted for."""
    jobs = lublin_feitelson_jobs(100, 32, seed=seed, target_utilization=0.74)
    assert offered_load(jobs, 32) == pytest.approx(0.74, rel=0.002)
