"""The log-uniform workload generator (schedlab.workloads.log_uniform)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from schedlab.errors import SchedlabError
from schedlab.workloads.load import offered_load
from schedlab.workloads.log_uniform import log_uniform_jobs


def test_same_seed_same_table_other_seed_other_table():
    first = log_uniform_jobs(500, 32, seed=4, target_utilization=0.8)
    pd.testing.assert_frame_equal(first, log_uniform_jobs(500, 32, seed=4, target_utilization=0.8))
    assert not first["run_time"].equals(log_uniform_jobs(500, 32, seed=5, target_utilization=0.8)["run_time"])


def test_runtimes_are_log_uniform_in_their_range():
    jobs = log_uniform_jobs(20_000, 32, seed=1, runtime_range=(60.0, 6_000.0))
    runtimes = jobs["run_time"].to_numpy()
    assert runtimes.min() >= 60 and runtimes.max() <= 6_000
    # log(runtime) uniform on [log 60, log 6000]; whole-second rounding barely moves it.
    log_values = np.log(runtimes)
    assert stats.kstest(log_values, stats.uniform(np.log(60), np.log(100)).cdf).statistic < 0.02
    assert np.array_equal(jobs["requested_time"], jobs["run_time"])


def test_sizes_fit_the_machine_and_favour_powers_of_two():
    sizes = log_uniform_jobs(20_000, 32, seed=2)["allocated_procs"].to_numpy()
    assert sizes.min() >= 1 and sizes.max() <= 32
    power_of_two = (sizes & (sizes - 1)) == 0
    # 75 % are rounded to a power of two; some of the others land on one too.
    assert 0.75 <= power_of_two.mean() <= 0.9
    # log2(size) is spread over [0, 5]: each whole-number bin of the power-of-two jobs is used.
    assert set(np.log2(sizes[power_of_two]).astype(int)) == {0, 1, 2, 3, 4, 5}


def test_target_load_is_met_exactly():
    jobs = log_uniform_jobs(300, 32, seed=3, target_utilization=0.9)
    assert offered_load(jobs, 32) == pytest.approx(0.9, rel=1e-3)
    assert np.all(np.diff(jobs["submit_time"].to_numpy()) >= 0) and jobs["submit_time"].iloc[0] == 0


@pytest.mark.parametrize(
    "arguments",
    [dict(runtime_range=(0.5, 10.0)), dict(runtime_range=(100.0, 10.0)), dict(power_of_two_share=1.5), dict(target_utilization=-1.0)],
)
def test_bad_arguments_are_refused(arguments):
    with pytest.raises(SchedlabError):
        log_uniform_jobs(10, 32, seed=0, **arguments)
