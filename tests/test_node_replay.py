"""Replays on a machine of nodes (issue 65, item 3): hand-worked schedules where GPUs, memory, partitions
and whole-node allocation decide; the same as the one-pool engine, start for start, when every node is
one core; and a schedule that breaks a node's capacity caught by the checker."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from schedlab.parsers.job_table import resources_from_swf
from schedlab.parsers.machine import Machine, NodeType, read_machine
from schedlab.parsers.schema import SWF_FIELDS
from schedlab.parsers.swf import read_swf
from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.nodes.replay import check_node_schedule, cpu_only, replay_on_nodes, wait_summary
from tests.conftest import SHARED

GPU_NODES = Machine("two-gpu-nodes", (NodeType("gpu", 2, 32, 256 * 1024.0, 4),), {"gpu": ("gpu",)})


def table(*jobs: dict) -> pd.DataFrame:
    """A job table: each job's submit, cores, run and requested time, GPUs, nodes, memory, partition."""
    rows = []
    for number, job in enumerate(jobs, start=1):
        row = {name: -1 for name in SWF_FIELDS} | {"job_id": number, "submit_time": float(job["submit"]),
                                                     "run_time": float(job["run"]), "allocated_procs": job["cores"],
                                                     "requested_procs": job["cores"],
                                                     "requested_time": float(job.get("requested", job["run"]))}
        row |= {"nodes": job.get("nodes", -1), "gpus": job.get("gpus", 0),
                "memory_per_node_mb": float(job.get("memory", -1)), "memory_per_core_mb": -1.0,
                "partition": job.get("partition", ""), "qos": "", "user": "", "group": "", "requeues": 0}
        rows.append(row)
    return pd.DataFrame(rows)


def starts(replay) -> list[float]:
    return replay.schedule["start"].tolist()


@pytest.mark.parametrize("policy", ["fcfs", "easy"])
def test_jobs_wait_for_gpus_that_a_cpu_only_replay_does_not_see(policy):
    """Two nodes of 4 GPUs: two 4-GPU jobs take both, a third waits for one to end at t=100, while 56 of 64
    cores stand idle; the CPU-only replay starts it at once.  Under EASY a short CPU job backfills at t=2;
    under FCFS it waits behind the GPU job."""
    jobs = table({"submit": 0, "cores": 4, "gpus": 4, "run": 100}, {"submit": 0, "cores": 4, "gpus": 4, "run": 100},
                 {"submit": 1, "cores": 4, "gpus": 4, "run": 100}, {"submit": 2, "cores": 4, "run": 50})
    replay = replay_on_nodes(jobs, GPU_NODES, policy)
    assert starts(replay) == [0, 0, 100, 2 if policy == "easy" else 100]
    assert replay.schedule["node_list"].tolist()[:3] == ["0", "1", "0"]
    assert cpu_only(replay)["start"].tolist() == [0, 0, 1, 2]
    resource_aware, pool = wait_summary(replay.schedule["wait"].to_numpy()), wait_summary(cpu_only(replay)["wait"].to_numpy())
    assert resource_aware["max_wait"] == 99 and pool["max_wait"] == 0


def test_memory_per_node_keeps_a_third_job_off_two_nodes():
    jobs = table(*({"submit": 0, "cores": 4, "memory": 200 * 1024, "run": 60} for _ in range(3)))
    assert starts(replay_on_nodes(jobs, GPU_NODES, "easy")) == [0, 0, 60]


def test_a_job_runs_only_on_its_partitions_nodes_and_one_that_cannot_is_left_out_counted():
    machine = read_machine("builtin:gpu-cluster")  # 64 cpu nodes (0-63) of 48 cores, then 16 gpu nodes of 32
    jobs = table({"submit": 0, "cores": 48, "partition": "cpu", "run": 10},
                 {"submit": 0, "cores": 8, "gpus": 1, "partition": "gpu", "run": 10},
                 {"submit": 0, "cores": 40, "nodes": 1, "partition": "gpu", "run": 10},
                 {"submit": 0, "cores": 4, "partition": "nowhere", "run": 10})
    replay = replay_on_nodes(jobs, machine, "easy")
    assert replay.schedule["node_list"].tolist() == ["0", "64"]
    assert replay.left_out == {"more cores, GPUs or memory per node than partition 'gpu''s nodes have": 1,
                               "partition 'nowhere', which the machine does not have": 1}


@pytest.mark.parametrize("allocation, expected", [("shared", [0, 0, 0]), ("exclusive", [0, 0, 30])])
def test_whole_node_allocation_gives_each_job_its_own_node(allocation, expected):
    machine = Machine("m", (NodeType("n", 2, 4, 8 * 1024.0, 0),), {"p": ("n",)}, allocation)
    jobs = table(*({"submit": 0, "cores": 1, "run": 30} for _ in range(3)))
    assert starts(replay_on_nodes(jobs, machine, "fcfs")) == expected


def test_a_job_without_a_node_count_takes_the_fewest_nodes_that_hold_it():
    jobs = table({"submit": 0, "cores": 40, "gpus": 6, "run": 10})
    replay = replay_on_nodes(jobs, GPU_NODES, "easy")
    assert replay.schedule.loc[0, ["nodes", "cores_per_node", "gpus_per_node"]].tolist() == [2, 20, 3]


@pytest.mark.parametrize("trace, procs", [("KTH-SP2-1996-2.2.swf", 100), ("lublin_256.swf", 256)])
@pytest.mark.parametrize("policy", ["fcfs", "easy"])
def test_one_core_nodes_schedule_as_one_pool_start_for_start(trace, procs, policy):
    """With every node one core and nothing else to ask, the node replay is the one-pool engine's replay:
    the reservation and backfilling rules give the same start to every one of 3,000 real jobs."""
    path = SHARED / "traces" / trace
    if not path.exists():
        pytest.skip(f"needs {path} (../shared beside the repository)")
    jobs = resources_from_swf(read_swf(path).jobs).head(3000)
    jobs = jobs[(jobs.run_time > 0) & (jobs.allocated_procs > 0) & (jobs.allocated_procs <= procs)]
    jobs = jobs.assign(memory_per_core_mb=-1.0).reset_index(drop=True)
    pool = Machine("pool", (NodeType("core", procs, 1, 1024.0, 0),), {"all": ("core",)})
    replay = replay_on_nodes(jobs, pool, policy)
    assert np.array_equal(replay.schedule["start"].to_numpy(), cpu_only(replay)["start"].to_numpy())


def test_the_checker_catches_a_node_given_more_than_it_has():
    jobs = table({"submit": 0, "cores": 20, "nodes": 1, "run": 50}, {"submit": 0, "cores": 20, "nodes": 1, "run": 50})
    replay_on_nodes(jobs, GPU_NODES, "fcfs")  # on nodes 0 and 1: fine
    from schedlab.simulators.core.engine import Engine
    from schedlab.simulators.nodes.demand import node_jobs
    from schedlab.simulators.nodes.easy import NodeEasyBackfilling
    from schedlab.simulators.nodes.machine import NodeMachine, Runs
    from schedlab.simulators.nodes.replay import run_times

    demands = node_jobs(jobs, GPU_NODES, *run_times(jobs))
    machine = NodeMachine("nodes", GPU_NODES, demands, NodeEasyBackfilling())
    Engine([machine]).run()
    job, begin, end, _ = machine.runs[1]
    machine.runs[1] = (job, begin, end, machine.runs[0][3])  # both jobs on node 0: 40 cores of 32
    with pytest.raises(InvariantError, match=r"node 0 gives 40 cores at t=0, more than its 32"):
        check_node_schedule(machine, Runs.of(machine.runs), np.array(machine.start_time), np.array(machine.promised))


def test_the_command_shows_a_gpu_bottleneck_beside_what_a_cpu_only_replay_says(tmp_path, capsys):
    """Hand-worked: six 4-GPU jobs a minute apart, an hour each, on two 4-GPU nodes: two start at once, two
    wait 3,480 s, two 6,960 s (mean over the ten jobs 2,088 s); on one pool of the 128 cores none waits."""
    from schedlab.cli import main

    data = Path(__file__).parent / "data"
    assert main(["convert", str(data / "sacct_gpu_bottleneck.txt"), "-o", str(tmp_path / "jobs.csv")]) == 0
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "jobs.csv"), "--machine", str(data / "small-gpu-cluster.toml"),
                 "--out", str(tmp_path / "schedule.csv")]) == 0
    out = capsys.readouterr().out
    assert "easy on 4 nodes, and the same 10 jobs on one pool of its 128 cores" in out
    assert "resource-aware  CPU-only (easy)" in out
    assert "  mean_wait             2,088                0" in out and "  max_wait              6,960                0" in out
    schedule = pd.read_csv(tmp_path / "schedule.csv")
    assert schedule["wait"].tolist()[:6] == [0, 0, 3480, 3480, 6960, 6960] and (schedule["cpu_only_wait"] == 0).all()


def test_options_of_the_one_pool_replay_are_refused_on_nodes(tmp_path, capsys):
    from schedlab.cli import main

    data = Path(__file__).parent / "data"
    code = main(["replay", str(data / "pbs_gpu.log"), "--machine", "builtin:gpu-cluster", "--conventions", "pyss"])
    assert code == 2
    assert "--conventions: not options of a replay on nodes" in capsys.readouterr().err


def test_the_hand_written_gpu_log_replays_with_its_gpus_on_gpu_nodes():
    """tests/data/sacct_gpu.txt on the shipped GPU cluster (nodes 64-79 have the GPUs): each GPU job runs on GPU
    nodes with its GPUs spread over them, the CPU job on a CPU node; the job cancelled before it started has no
    run time and is left out, counted."""
    from schedlab.parsers.accounting import read_sacct

    jobs = read_sacct(Path(__file__).parent / "data" / "sacct_gpu.txt").jobs
    replay = replay_on_nodes(jobs, read_machine("builtin:gpu-cluster"), "easy")
    schedule = replay.schedule
    assert schedule[["job_id", "partition", "nodes", "gpus_per_node"]].values.tolist() == [
        [1, "gpu", 1, 2], [2, "cpu", 1, 0], [3, "gpu", 2, 2], [4, "gpu", 1, 1]]
    first_nodes = [int(nodes.split("-")[0].split(",")[0]) for nodes in schedule["node_list"]]
    assert [node >= 64 for node in first_nodes] == [True, False, True, True]
    assert replay.left_out == {"no run time or no processors in the log": 1}
