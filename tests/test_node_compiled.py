"""The node replay's compiled loop against the interpreted reference: the same start, promise and nodes for
every job of synthetic GPU-cluster workloads and of the hand-written logs, under FCFS and EASY, shared and
exclusive allocation (issue 65, item 3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from schedlab.parsers.accounting import read_sacct
from schedlab.parsers.machine import Machine, read_machine
from schedlab.simulators.nodes.replay import replay_on_nodes
from schedlab.workloads.gpu_cluster import gpu_cluster_jobs

DATA = Path(__file__).parent / "data"
GPU_CLUSTER = read_machine("builtin:gpu-cluster")
EXCLUSIVE = Machine(GPU_CLUSTER.name, GPU_CLUSTER.node_types, GPU_CLUSTER.partitions, "exclusive")


def same_replays(jobs, machine, policy):
    compiled = replay_on_nodes(jobs, machine, policy, engine="compiled")
    reference = replay_on_nodes(jobs, machine, policy, engine="reference")
    assert compiled.schedule.equals(reference.schedule), (compiled.schedule.compare(reference.schedule))
    assert compiled.usage.equals(reference.usage)
    return compiled


@pytest.mark.parametrize("policy", ["fcfs", "easy"])
@pytest.mark.parametrize("seed, load", [(1, 0.7), (2, 0.95)])
@pytest.mark.parametrize("machine", [GPU_CLUSTER, EXCLUSIVE], ids=["shared", "exclusive"])
def test_the_compiled_loop_decides_as_the_reference_on_synthetic_gpu_workloads(policy, seed, load, machine):
    jobs = gpu_cluster_jobs(GPU_CLUSTER, 1500, seed=seed, load=load)
    replay = same_replays(jobs, machine, policy)
    assert (replay.schedule["wait"] > 0).mean() > 0.2  # a loaded machine: the rules were exercised


def test_the_compiled_loop_decides_as_the_reference_on_the_hand_written_log():
    same_replays(read_sacct(DATA / "sacct_gpu_bottleneck.txt").jobs, read_machine(DATA / "small-gpu-cluster.toml"),
                 "easy")


def test_events_and_researchers_policies_run_on_the_reference():
    jobs = gpu_cluster_jobs(GPU_CLUSTER, 50, seed=1)
    with pytest.raises(ValueError, match="the compiled loop runs fcfs and easy without capacity events"):
        replay_on_nodes(jobs, GPU_CLUSTER, f"{Path(__file__).parents[1] / 'examples/policies/fair_share.py'}:FairShareEasy",
                        engine="compiled")
    assert np.isfinite(replay_on_nodes(jobs, GPU_CLUSTER, "easy").schedule["start"]).all()
