"""The synthetic GPU-cluster workload (issue 65, item 7): reproducible, every job runnable on the shipped
GPU cluster, its offered load the one asked for; and a replay of it is byte-identical from run to run."""

from __future__ import annotations

import numpy as np
import pytest

from schedlab.parsers.machine import read_machine
from schedlab.simulators.nodes.replay import replay_on_nodes
from schedlab.workloads.gpu_cluster import balanced_gpu_share, gpu_cluster_jobs

MACHINE = read_machine("builtin:gpu-cluster")


def test_the_same_seed_gives_the_same_table_and_another_seed_another():
    first, again, other = (gpu_cluster_jobs(MACHINE, 500, seed=s) for s in (7, 7, 8))
    assert first.equals(again) and not first.equals(other)


@pytest.mark.parametrize("load", [0.5, 0.9])
def test_the_offered_load_is_the_one_asked_for(load):
    jobs = gpu_cluster_jobs(MACHINE, 20_000, seed=3, load=load)
    span = jobs["submit_time"].iloc[-1] - jobs["submit_time"].iloc[0]
    offered = (jobs["allocated_procs"] * jobs["run_time"]).sum() / (MACHINE.cores * span)
    assert offered == pytest.approx(load, rel=0.05)
    assert (jobs["gpus"] > 0).mean() == pytest.approx(0.5, abs=0.02)


def test_the_balanced_share_offers_each_partition_the_same_load_and_the_default_overloads_the_gpus():
    """Offered load per partition: the jobs' core-seconds over the partition's cores and the span (the GPU
    partition has 16 nodes of 32 cores, the CPU one 64 of 48)."""
    def offered(jobs, partition, cores):
        span = jobs["submit_time"].iloc[-1] - jobs["submit_time"].iloc[0]
        mine = jobs[jobs["partition"] == partition]
        return (mine["allocated_procs"] * mine["run_time"]).sum() / (cores * span)

    balanced = gpu_cluster_jobs(MACHINE, 40_000, seed=4, load=0.8, gpu_share=balanced_gpu_share(MACHINE))
    assert offered(balanced, "gpu", 512) == pytest.approx(0.8, rel=0.06)
    assert offered(balanced, "cpu", 3072) == pytest.approx(0.8, rel=0.06)
    assert offered(gpu_cluster_jobs(MACHINE, 40_000, seed=4, load=0.8), "gpu", 512) > 1.5


def test_every_job_runs_and_a_replay_is_identical_run_to_run():
    jobs = gpu_cluster_jobs(MACHINE, 800, seed=5)
    first, again = (replay_on_nodes(jobs, MACHINE, "easy") for _ in range(2))
    assert first.left_out == {} and len(first.schedule) == 800
    assert first.schedule.equals(again.schedule) and first.usage.equals(again.usage)
    assert np.isfinite(first.schedule["start"]).all()
