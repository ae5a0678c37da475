"""Researchers' own policies on nodes (issue 65, item 5): the two examples of docs/policies.md, hand-worked
against the built-in EASY, and an error in a policy's own code reported as its file and line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from schedlab.errors import SchedlabError
from schedlab.parsers.machine import Machine, NodeType
from schedlab.simulators.nodes.replay import replay_on_nodes
from tests.test_node_replay import table

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "policies"
CPU_AND_GPU = Machine("m", (NodeType("cpu", 1, 4, 16 * 1024.0, 0), NodeType("gpu", 1, 4, 64 * 1024.0, 4)),
                      {"all": ("cpu", "gpu")})


def starts(jobs, machine, policy):
    return replay_on_nodes(jobs, machine, policy).schedule["start"].tolist()


def test_gpu_nodes_kept_for_gpu_jobs_let_a_gpu_job_start_that_easy_keeps_waiting():
    """C1 fills the CPU node; under EASY, C2 takes the GPU node's cores and G1 (4 GPUs) waits for it to end
    at 1,001 s; kept off the GPU node, C2 waits for the CPU node (1,000 s) and G1 starts at once."""
    jobs = table({"submit": 0, "cores": 4, "run": 1000}, {"submit": 1, "cores": 4, "run": 1000},
                 {"submit": 2, "cores": 4, "gpus": 4, "run": 100})
    assert starts(jobs, CPU_AND_GPU, "easy") == [0, 1, 1001]
    assert starts(jobs, CPU_AND_GPU, f"{EXAMPLES / 'gpu_nodes_for_gpu_jobs.py'}:GpuNodesForGpuJobs") == [0, 1000, 2]


def test_fair_share_puts_the_user_who_used_least_first():
    """One 4-core node: alice's A1 runs 0-100 s; at 100 s alice has used 400 core-seconds and bob none, so
    bob's B1 (submitted after alice's A2) goes first."""
    jobs = table({"submit": 0, "cores": 4, "run": 100}, {"submit": 10, "cores": 4, "run": 100},
                 {"submit": 20, "cores": 4, "run": 100}).assign(user=["alice", "alice", "bob"])
    one_node = Machine("one", (NodeType("n", 1, 4, 16 * 1024.0, 0),), {"p": ("n",)})
    assert starts(jobs, one_node, "easy") == [0, 100, 200]
    assert starts(jobs, one_node, f"{EXAMPLES / 'fair_share.py'}:FairShareEasy") == [0, 200, 100]


@pytest.mark.parametrize("name, body, message", [
    ("wrong_node_policy", "machine.start(job, t, machine.fitting_nodes(job, t) + 99)",
     "InvariantError in the policy's schedule at t=0: nodes: job 1 placed on a node its partition excludes"),
    ("dividing_policy", "machine.start(job, t, 1 / len(submitted[1:]))",
     "ZeroDivisionError in the policy's schedule at t=0: "),
])
def test_an_error_in_a_policy_is_one_line_naming_its_file_and_line(tmp_path, name, body, message):
    policy = tmp_path / f"{name}.py"  # one module name per file: a process imports a name once
    policy.write_text(textwrap.dedent(f"""\
        class Broken:
            def schedule(self, machine, t, submitted, ended):
                for job in list(machine.queue):
                    {body}
    """))
    jobs = table({"submit": 0, "cores": 4, "run": 100})
    with pytest.raises(SchedlabError, match=rf"^{policy}:4: {message}"):
        replay_on_nodes(jobs, CPU_AND_GPU, f"{policy}:Broken")


def test_an_unknown_node_policy_names_the_ones_there_are():
    with pytest.raises(SchedlabError, match="unknown node policy 'sjf': use one of fcfs, easy, conservative"):
        replay_on_nodes(table({"submit": 0, "cores": 4, "run": 100}), CPU_AND_GPU, "sjf")
