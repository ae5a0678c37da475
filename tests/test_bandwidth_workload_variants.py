"""Workloads C and D in both readings: arrivals kept (the paper's default) or offered load kept."""

from __future__ import annotations

import numpy as np
import pytest

from schedlab.simulators.bandwidth.demand import rectangular_sizes
from schedlab.simulators.bandwidth.workload import make_workload

JOBS, PROCS = 1500, 100


def cluster_loads(kind: str, seed: int = 4) -> list[float]:
    """Offered load of each cluster's own stream: rectangular node-seconds per node-second of its arrivals."""
    workload = make_workload(kind, JOBS, seed)
    loads = []
    for cluster in range(4):
        mine = workload.home == cluster
        submit = workload.submit[mine]
        nodes, _ = rectangular_sizes(workload.requested[mine])
        loads.append(float((nodes * workload.base_time[mine]).sum()) / (PROCS * (submit.max() - submit.min())))
    return loads


def test_keeping_the_load_gives_each_cluster_the_realistic_streams_load():
    np.testing.assert_allclose(cluster_loads("C_load"), cluster_loads("realistic"), rtol=1e-9)


def test_keeping_the_arrivals_lets_the_load_fall_with_the_removed_jobs():
    # the removed jobs took their work with them (seed 4: 0.87 -> 0.75 on average)
    assert np.mean(cluster_loads("C")) < np.mean(cluster_loads("realistic")) - 0.05


@pytest.mark.parametrize(("poisson", "source"), [("D", "C"), ("D_load", "C_load")])
def test_d_puts_cs_jobs_on_poisson_arrivals_with_cs_mean_gap(poisson, source):
    d, c = make_workload(poisson, JOBS, 4), make_workload(source, JOBS, 4)
    for cluster in range(4):
        np.testing.assert_array_equal(np.sort(d.base_time[d.home == cluster]), np.sort(c.base_time[c.home == cluster]))
        gaps_d = np.diff(d.submit[d.home == cluster]).mean()
        gaps_c = np.diff(c.submit[c.home == cluster]).mean()
        assert gaps_d == pytest.approx(gaps_c, rel=0.1)


@pytest.mark.parametrize("kind", ["C", "D", "C_load", "D_load"])
def test_small_jobs_are_gone_in_every_reading(kind):
    assert make_workload(kind, JOBS, 4).requested.min() >= 10
