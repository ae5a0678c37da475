"""Capacity that changes (issue 65, item 4): a drain, an announced maintenance window and a failure, each
hand-worked to delay, kill or requeue exactly the jobs it should; the events file checked key by key."""

from __future__ import annotations

import numpy as np
import pytest

from schedlab.errors import InputError
from schedlab.parsers.events import read_events
from schedlab.parsers.machine import Machine, NodeType
from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.nodes.replay import replay_on_nodes
from tests.test_node_replay import table

TWO_NODES = Machine("two", (NodeType("n", 2, 4, 16 * 1024.0, 0),), {"p": ("n",)})
ONE_NODE = Machine("one", (NodeType("n", 1, 4, 16 * 1024.0, 0),), {"p": ("n",)})


def events(tmp_path, machine, text: str):
    path = tmp_path / "events.toml"
    path.write_text(text)
    return read_events(path, machine)


def starts(jobs, machine, policy, capacity_events=()):
    replay = replay_on_nodes(jobs, machine, policy, capacity_events)
    return replay.schedule["start"].tolist(), replay


@pytest.mark.parametrize("policy", ["fcfs", "easy"])
def test_a_drain_delays_exactly_the_job_that_needed_the_drained_node(tmp_path, policy):
    """Node 0 drained from 100 s to 500 s: B (150 s) takes node 1; C (160 s) would have taken node 0 at once
    and waits instead for B to end at 250 s; A ended before the drain, D comes after it."""
    jobs = table({"submit": 0, "cores": 4, "run": 50}, {"submit": 150, "cores": 4, "run": 100},
                 {"submit": 160, "cores": 4, "run": 100}, {"submit": 600, "cores": 4, "run": 10})
    drain = events(tmp_path, TWO_NODES, '[[events]]\nkind = "drain"\nnodes = [0]\nstart = 100\nend = 500\n')
    assert starts(jobs, TWO_NODES, policy)[0] == [0, 150, 160, 600]
    drained, replay = starts(jobs, TWO_NODES, policy, drain)
    assert drained == [0, 150, 250, 600]
    assert replay.schedule["node_list"].tolist() == ["0", "1", "1", "0"]
    assert replay.events == [{"event": "drain of node(s) 0 from 100 s to 500 s", "jobs_killed": 0, "jobs_requeued": 0}]


@pytest.mark.parametrize("policy, expected", [("fcfs", [0, 2000, 2100]), ("easy", [0, 2000, 800])])
def test_an_announced_maintenance_window_is_planned_around(tmp_path, policy, expected):
    """The whole machine reserved from 1,000 s to 2,000 s: A (requested 500 s) starts at 0 and is done by
    then; B (700 s, requested 500 s) would run into the window and waits for its end; C (800 s, requested
    100 s) ends before it opens, so EASY backfills it at once while FCFS keeps it behind B."""
    jobs = table({"submit": 0, "cores": 4, "run": 400, "requested": 500},
                 {"submit": 700, "cores": 4, "run": 100, "requested": 500},
                 {"submit": 800, "cores": 4, "run": 100, "requested": 100})
    window = events(tmp_path, ONE_NODE, '[[events]]\nkind = "maintenance"\nstart = 1000\nend = 2000\n')
    assert starts(jobs, ONE_NODE, policy, window)[0] == expected


@pytest.mark.parametrize("requeue, expected_starts, expected_ends, requeued", [
    ("true", [300, 500], [500, 510], 1),  # A killed at 100 s, runs again when the node is back at 300 s
    ("false", [0, 300], [100, 310], 0),  # A ends, failed, at 100 s
])
def test_a_failure_kills_the_jobs_on_its_node_requeued_or_not(tmp_path, requeue, expected_starts, expected_ends,
                                                               requeued):
    jobs = table({"submit": 0, "cores": 4, "run": 200, "requested": 400}, {"submit": 50, "cores": 4, "run": 10})
    failure = events(tmp_path, ONE_NODE,
                     f'[[events]]\nkind = "failure"\nnodes = [0]\nstart = 100\nend = 300\nrequeue = {requeue}\n')
    replay = replay_on_nodes(jobs, ONE_NODE, "easy", failure)
    assert replay.schedule["start"].tolist() == expected_starts
    assert replay.schedule["end"].tolist() == expected_ends
    assert replay.schedule["killed"].tolist() == [1, 0]
    assert replay.events[0]["jobs_killed"] == 1 and replay.events[0]["jobs_requeued"] == requeued


def test_the_checker_catches_a_run_into_a_maintenance_window(tmp_path):
    from schedlab.simulators.nodes.machine import Runs
    from schedlab.simulators.nodes.replay import check_node_schedule

    jobs = table({"submit": 0, "cores": 4, "run": 400, "requested": 500})
    window = events(tmp_path, ONE_NODE, '[[events]]\nkind = "maintenance"\nstart = 1000\nend = 2000\n')
    replay = replay_on_nodes(jobs, ONE_NODE, "easy", window)
    assert replay.schedule["start"].tolist() == [0]
    late = events(tmp_path, ONE_NODE, '[[events]]\nkind = "maintenance"\nstart = 100\nend = 2000\n')
    from schedlab.simulators.core.engine import Engine
    from schedlab.simulators.nodes.demand import node_jobs
    from schedlab.simulators.nodes.fcfs import NodeFirstComeFirstServed
    from schedlab.simulators.nodes.machine import NodeMachine
    from schedlab.simulators.nodes.replay import run_times

    machine = NodeMachine("nodes", ONE_NODE, node_jobs(jobs, ONE_NODE, *run_times(jobs)), NodeFirstComeFirstServed())
    Engine([machine]).run()  # told nothing of the window, it starts the job at 0, running to 400 s
    with pytest.raises(InvariantError, match=r"job 1 ran into the maintenance of the whole machine from 100 s"):
        check_node_schedule(machine, Runs.of(machine.runs), np.array(machine.start_time), np.array(machine.promised), late)


@pytest.mark.parametrize("text, message", [
    ('[[events]]\nkind = "outage"\nstart = 1\nend = 2\n', "event 1: kind 'outage' is none of drain, maintenance, failure"),
    ('[[events]]\nkind = "drain"\nstart = 5\nend = 2\n', "event 1: ends (2 s) at or before it starts (5 s)"),
    ('[[events]]\nkind = "drain"\nstart = -1\nend = 2\n', "event 1: start must be a time in seconds"),
    ('[[events]]\nkind = "drain"\nstart = 1\nend = 2\nnodes = [7]\n', "event 1: nodes must be a list of node indexes from 0 to 1"),
    ('[[events]]\nkind = "drain"\nstart = 1\nend = 2\npartition = "q"\n', "event 1: no partition 'q' (there are p)"),
    ('[[events]]\nkind = "drain"\nstart = 1\nend = 2\nnode_type = "n"\ncount = 3\n', "event 1: count must be 1 to 2"),
    ('[[events]]\nkind = "drain"\nstart = 1\nend = 2\nrequeue = true\n', "event 1: requeue is a setting of a failure"),
    ('[[events]]\nkind = "drain"\nstart = 1\nend = 2\nwhen = 3\n', "event 1: when is not an event key"),
])
def test_a_mistake_in_an_events_file_is_one_line_naming_the_event(tmp_path, text, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        events(tmp_path, TWO_NODES, text)


def test_the_command_replays_a_failure_and_says_what_it_did(tmp_path, capsys):
    """Hand-worked: the first GPU node fails at 600 s, killing job 1, which runs again on the other GPU node
    when job 2 ends (3,660 s); the failed node takes job 4 when it is back at 7,800 s."""
    import pandas as pd

    from schedlab.cli import main
    from tests.test_node_replay import Path

    data = Path(__file__).parent / "data"
    main(["convert", str(data / "sacct_gpu_bottleneck.txt"), "-o", str(tmp_path / "jobs.csv")])
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "jobs.csv"), "--machine", str(data / "small-gpu-cluster.toml"),
                 "--events", str(data / "small-gpu-cluster-events.toml"), "--out", str(tmp_path / "s.csv")]) == 0
    out = capsys.readouterr().out
    assert "event: failure of 1 gpu node(s) from 600 s to 7800 s: 1 job(s) killed, 1 requeued" in out
    schedule = pd.read_csv(tmp_path / "s.csv")
    assert schedule["start"].tolist()[:6] == [3660, 60, 7260, 7800, 10860, 11400]
    assert schedule["killed"].tolist()[:2] == [1, 0] and schedule["node_list"].tolist()[:4] == [3, 3, 3, 2]
