"""Conservative backfilling on nodes (issue 65, item 3): hand-worked schedules where a reservation per
waiting job keeps a later job from delaying an earlier one (which EASY allows), compression moves
reservations earlier when a job ends early, GPUs and cores are shared beside a reservation, and a drain
or a maintenance window is planned around; and random workloads that keep every promise."""

from __future__ import annotations

import numpy as np
import pytest

from schedlab.parsers.events import read_events
from schedlab.parsers.machine import Machine, NodeType, read_machine
from schedlab.simulators.nodes.replay import cpu_only, replay_on_nodes
from schedlab.workloads.gpu_cluster import gpu_cluster_jobs
from tests.test_node_replay import GPU_NODES, table

THREE_NODES = Machine("three", (NodeType("n", 3, 4, 16 * 1024.0, 0),), {"p": ("n",)})
TWO_NODES = Machine("two", (NodeType("n", 2, 4, 16 * 1024.0, 0),), {"p": ("n",)})
ONE_NODE = Machine("one", (NodeType("n", 1, 4, 16 * 1024.0, 0),), {"p": ("n",)})


def schedule(jobs, machine, policy, events=()):
    return replay_on_nodes(jobs, machine, policy, events).schedule


def a_long_job_behind_a_wide_one(a_runs: float = 100):
    """A holds nodes 0-1 (requested 100 s); B, at the head, needs two nodes for 100 s; C needs all three for
    100 s; D, one node for 1,000 s, fits now on node 2."""
    return table({"submit": 0, "cores": 8, "nodes": 2, "run": a_runs, "requested": 100},
                 {"submit": 1, "cores": 8, "nodes": 2, "run": 100},
                 {"submit": 2, "cores": 12, "nodes": 3, "run": 100},
                 {"submit": 3, "cores": 4, "nodes": 1, "run": 1000})


def test_a_later_job_cannot_delay_an_earlier_one_as_easy_lets_it():
    """EASY protects only the head (B, promised t=100 on nodes 0-1), so D starts at once on node 2 and holds
    it until 1,003 s: C, which needs all three nodes, waits until then.  Conservative backfilling has
    reserved node 2 for C from 200 s, so D's 1,000 s do not fit before C's end (300 s)."""
    jobs = a_long_job_behind_a_wide_one()
    easy = schedule(jobs, THREE_NODES, "easy")
    assert easy["start"].tolist() == [0, 100, 1003, 3]
    conservative = schedule(jobs, THREE_NODES, "conservative")
    assert conservative["start"].tolist() == [0, 100, 200, 300]
    assert conservative["node_list"].tolist() == ["0-1", "0-1", "0-2", "0"]


def test_a_job_ending_early_moves_every_reservation_earlier():
    """A ends at 50 s instead of its requested 100 s: B moves from 100 s to 50 s, C from 200 s to 150 s and D
    from 300 s to 250 s, each no later than it was promised."""
    replay = replay_on_nodes(a_long_job_behind_a_wide_one(a_runs=50), THREE_NODES, "conservative")
    assert replay.schedule["start"].tolist() == [0, 50, 150, 250]


def test_cores_and_gpus_are_shared_beside_a_reservation():
    """Two nodes of 32 cores and 4 GPUs: A takes node 0's GPUs until 100 s, so B (4 GPUs on each node) is
    reserved both nodes from 100 s.  C asks for 16 cores and no GPU for 1,000 s: it fits beside A and B on
    node 0 and starts at once; D asks for one GPU, which every node has reserved until B ends at 200 s."""
    jobs = table({"submit": 0, "cores": 4, "gpus": 4, "nodes": 1, "run": 100},
                 {"submit": 1, "cores": 8, "gpus": 8, "nodes": 2, "run": 100},
                 {"submit": 2, "cores": 16, "nodes": 1, "run": 1000},
                 {"submit": 3, "cores": 1, "gpus": 1, "nodes": 1, "run": 1000})
    result = schedule(jobs, GPU_NODES, "conservative")
    assert result["start"].tolist() == [0, 100, 2, 200]
    assert result["node_list"].tolist() == ["0", "0-1", "0", "0"]


def test_a_drain_voids_the_reservation_on_its_node_and_the_job_is_planned_again(tmp_path):
    """A holds both nodes until 100 s; B is reserved node 0 from 100 s.  Node 0 is drained at 50 s (until
    500 s, which the scheduler is not told): B's reservation is void, and B is planned again on node 1."""
    jobs = table({"submit": 0, "cores": 8, "nodes": 2, "run": 100}, {"submit": 10, "cores": 4, "nodes": 1, "run": 100})
    assert schedule(jobs, TWO_NODES, "conservative")["node_list"].tolist() == ["0-1", "0"]
    path = tmp_path / "events.toml"
    path.write_text('[[events]]\nkind = "drain"\nnodes = [0]\nstart = 50\nend = 500\n')
    drained = schedule(jobs, TWO_NODES, "conservative", read_events(path, TWO_NODES))
    assert drained["start"].tolist() == [0, 100]
    assert drained["node_list"].tolist() == ["0-1", "1"]


def test_an_announced_maintenance_window_is_planned_around(tmp_path):
    """The node is reserved from 1,000 s to 2,000 s: B (requested 500 s, at 700 s) would run into it and is
    reserved its end; C (requested 100 s, at 800 s) ends before it opens and starts at once."""
    jobs = table({"submit": 0, "cores": 4, "run": 400, "requested": 500},
                 {"submit": 700, "cores": 4, "run": 100, "requested": 500},
                 {"submit": 800, "cores": 4, "run": 100, "requested": 100})
    path = tmp_path / "events.toml"
    path.write_text('[[events]]\nkind = "maintenance"\nstart = 1000\nend = 2000\n')
    assert schedule(jobs, ONE_NODE, "conservative", read_events(path, ONE_NODE))["start"].tolist() == [0, 2000, 800]


@pytest.mark.parametrize("allocation", ["shared", "exclusive"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_promise_holds_on_a_loaded_gpu_cluster(seed, allocation):
    """400 jobs at offered load 0.9: the replay's own check (which fails a job started after its first
    reservation, or any node over its capacity) passes, jobs do wait, and the CPU-only replay of the same
    jobs runs one-pool conservative backfilling."""
    shipped = read_machine("builtin:gpu-cluster")
    machine = Machine(shipped.name, shipped.node_types, shipped.partitions, allocation)
    replay = replay_on_nodes(gpu_cluster_jobs(shipped, 400, seed=seed, load=0.9), machine, "conservative")
    waits = replay.schedule["wait"].to_numpy()
    assert (waits > 0).mean() > 0.1
    assert np.isfinite(cpu_only(replay)["start"]).all()
