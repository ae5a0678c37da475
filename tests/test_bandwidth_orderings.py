"""Orderings the paper states, on the quick profile's synthetic workload (Sec. 5.1, Table 1)."""

from __future__ import annotations

import pytest

from simulators.bandwidth.experiments import PROFILES
from simulators.bandwidth.simulate import run_workload, summarise
from simulators.bandwidth.workload import make_workload

QUICK = PROFILES["quick"]


def turnaround(workload, strategy):
    return summarise(run_workload(workload, strategy))["mean_turnaround"]


@pytest.fixture(scope="module")
def limits():
    # Zero Comm. and Migration Only ignore PPBW: one run each serves the whole sweep
    workload = make_workload("synthetic", QUICK.jobs_per_cluster, QUICK.seed, ppbw=None)
    return {strategy: turnaround(workload, strategy) for strategy in ("zero_comm", "migration_only", "no_share")}


@pytest.mark.parametrize("ppbw", QUICK.ppbws)
def test_zero_beats_ics_beats_migration_at_every_ppbw(limits, ppbw):
    workload = make_workload("synthetic", QUICK.jobs_per_cluster, QUICK.seed, ppbw=ppbw)
    assert turnaround(workload, "zero_comm") == limits["zero_comm"]
    ics = turnaround(workload, "ics")
    assert limits["zero_comm"] <= ics <= limits["migration_only"]


def test_migration_only_beats_no_share(limits):
    assert limits["migration_only"] < limits["no_share"]


def test_lslt_strategies_beat_migration_at_low_ppbw_and_lose_at_high():
    low = make_workload("synthetic", QUICK.jobs_per_cluster, QUICK.seed, ppbw=min(QUICK.ppbws))
    high = make_workload("synthetic", QUICK.jobs_per_cluster, QUICK.seed, ppbw=max(QUICK.ppbws))
    migration = turnaround(low, "migration_only")
    assert migration < turnaround(high, "first_fit")
    for strategy in ("lslt", "lslt_cs"):
        assert turnaround(low, strategy) < migration < turnaround(high, strategy)
