"""Replay a job table on a machine of nodes, and the same jobs on one pool of its processors (issue 65).

``replay_on_nodes`` runs the jobs under a node policy (``fcfs``, ``easy``) with every resource honoured,
then checks the schedule on its own (``check_node_schedule``) before returning it.  Beside it,
``cpu_only`` replays the very same jobs (same submit times, estimates, run times) on one pool of all
the machine's cores under the batch engine's policy of the same name: what a replay that ignores
GPUs, memory, nodes and partitions would have said.

Run times follow the batch replay's default conventions: a job holds its nodes for its logged run
time; the scheduler believes its requested time, or its run time when it asked for none or ran past
it (Slurm's OverTimeLimit).  A job the log gives no run time or processors is left out and counted.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from schedlab.errors import SchedlabError
from schedlab.parsers.events import CapacityEvent
from schedlab.parsers.machine import Machine
from schedlab.simulators.core.engine import Engine, EventOrder
from schedlab.references import parse_reference
from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.core.tails import wait_tails
from schedlab.simulators.nodes.demand import NodeJobs, node_jobs
from schedlab.simulators.nodes.events import WithCapacityEvents
from schedlab.simulators.nodes.machine import RESOURCES, NodeMachine, Runs

BUILT_IN_NODE_POLICIES = {
    "fcfs": "schedlab.simulators.nodes.fcfs:NodeFirstComeFirstServed",
    "easy": "schedlab.simulators.nodes.easy:NodeEasyBackfilling",
    "conservative": "schedlab.simulators.nodes.conservative:NodeConservativeBackfilling",
}
COMPILED_POLICIES = ("fcfs", "easy")


@dataclass
class NodeReplay:
    schedule: "object"  # pandas.DataFrame: one row per job replayed
    jobs: NodeJobs
    machine: Machine
    policy: str
    left_out: dict = field(default_factory=dict)
    events: list = field(default_factory=list)  # per capacity event: what it was, jobs it killed and requeued
    usage: "object" = None  # pandas.DataFrame: time and the cores, GPUs and MiB in use from then on


def run_times(jobs) -> tuple[np.ndarray, np.ndarray]:
    """(estimate, actual) per row of a job table: see the module docstring."""
    actual = jobs["run_time"].to_numpy(float)
    requested = jobs["requested_time"].to_numpy(float)
    estimate = np.where(requested >= actual, requested, actual)
    return estimate, actual


ENGINES = ("auto", "compiled", "reference")


def replay_on_nodes(jobs, machine: Machine, policy: str = "easy", events: list[CapacityEvent] = (),
                    engine: str = "auto") -> NodeReplay:
    """Replay a job table (sorted by submit time) on ``machine`` under ``policy`` with its capacity ``events``;
    the schedule is checked.  ``engine``: the compiled loop (``simulators.nodes.compiled``: FCFS or EASY, no
    events), the interpreted reference, or ``auto``, the compiled loop where it applies."""
    import pandas as pd

    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    policy_class, user_file = load_node_policy(policy)
    estimate, actual = run_times(jobs)
    demands = node_jobs(jobs, machine, estimate, actual)
    decider = WithCapacityEvents(policy_class(), list(events), user_file)
    windows = [(event.start, event.end, event.nodes) for event in events if event.announced]
    nodes = NodeMachine("nodes", machine, demands, decider, windows)
    compiled = str(policy) in COMPILED_POLICIES and not events
    if engine == "compiled" and not compiled:
        raise ValueError(f"the compiled loop runs {' and '.join(COMPILED_POLICIES)} without capacity events")
    if compiled and engine != "reference":
        runs = _run_compiled(nodes, str(policy))
    else:
        loop = Engine([nodes], EventOrder("terminations_first", "per_timestamp"))
        for t in decider.pass_times():
            loop.schedule_pass(nodes, t)
        loop.run()
        runs = Runs.of(nodes.runs)
    start, end = np.array(nodes.start_time), np.array(nodes.end_time)
    check_node_schedule(nodes, runs, start, np.array(nodes.promised), list(events))
    partitions = list(machine.partitions)
    schedule = pd.DataFrame({
        "job_id": demands.job_id, "submit": demands.submit, "start": start, "end": end,
        "wait": start - demands.submit, "partition": [partitions[p] for p in demands.partition],
        "nodes": demands.nodes, "cores_per_node": demands.cores, "gpus_per_node": demands.gpus,
        "memory_per_node_mb": demands.memory_mb,
        "node_list": node_lists(runs.last_of_each(len(demands))), "killed": nodes.kills,
    })
    summary = [{"event": event.label, "jobs_killed": killed, "jobs_requeued": requeued}
               for event, killed, requeued in zip(events, decider.killed, decider.requeued)]
    return NodeReplay(schedule, demands, machine, policy, dict(demands.left_out), summary, usage_series(nodes, runs))


def _run_compiled(nodes: NodeMachine, policy: str) -> Runs:
    """Run the compiled loop, put the starts and promises it decided where the reference engine leaves them,
    and return its runs (one per job)."""
    from schedlab.simulators.nodes import compiled

    demands = nodes.jobs
    demand_id = _numbered([demands.partition, demands.nodes, demands.cores, demands.gpus, demands.memory_mb])
    status, failed, start, promised, placed, offset = compiled.run_nodes(
        compiled.EASY if policy == "easy" else compiled.FCFS, demands.submit, demands.estimate, demands.actual,
        demands.nodes, demands.cores, demands.gpus, demands.memory_mb, demands.partition,
        nodes.capacity["cores"].astype(np.int64), nodes.capacity["gpus"].astype(np.int64),
        nodes.capacity["memory_mb"].astype(np.float64), np.array(nodes.partition_masks), nodes.exclusive,
        demand_id.astype(np.int64), int(demand_id.max()) + 1 if len(demand_id) else 1)
    if status != compiled.DONE:
        raise InvariantError(f"{nodes.name}: job {demands.job_id[failed]} fits nowhere even on an empty machine")
    end = start + demands.actual
    nodes.start_time, nodes.end_time, nodes.promised = start.tolist(), end.tolist(), promised.tolist()
    return Runs(np.arange(len(demands), dtype=np.int64), start, end, offset, placed)


def _numbered(columns: list[np.ndarray]) -> np.ndarray:
    """Per row, a number that rows with the same values in every column share, from 0 up."""
    if not len(columns[0]):
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort(columns[::-1])
    differs = np.zeros(len(order), dtype=bool)
    for column in columns:
        differs[1:] |= column[order][1:] != column[order][:-1]
    numbers = np.empty(len(order), dtype=np.int64)
    numbers[order] = np.cumsum(differs)
    return numbers


def usage_series(machine: NodeMachine, runs: Runs) -> "object":
    """What the machine's ``runs`` held at each time a run started or ended, every run counted (killed ones
    too): a pandas.DataFrame of time and cores, GPUs and memory (MiB) in use from that time on."""
    import pandas as pd

    if not len(runs):
        return pd.DataFrame({"time": [], **{name: [] for name in RESOURCES}})
    times = np.concatenate([runs.start, runs.end])
    order = np.argsort(times, kind="stable")
    columns = {}
    for name in RESOURCES:
        if machine.exclusive:
            held = np.add.reduceat(machine.capacity[name][runs.nodes].astype(float), runs.offset[:-1])
        else:
            held = (machine.demand[name][runs.job] * runs.counts).astype(float)
        columns[name] = np.cumsum(np.concatenate([held, -held])[order])
    frame = pd.DataFrame({"time": times[order], **columns})
    return frame.groupby("time", as_index=False).last()


def load_node_policy(name: str) -> tuple[type, Path | None]:
    """The node policy ``name`` gives (a built-in name, ``path/to/file.py:Class`` or ``module:Class``), and the
    file of a researcher's own (None for ours): an error in that file is theirs to read, in one line."""
    text = str(name)
    if text not in BUILT_IN_NODE_POLICIES and ":" not in text:
        raise SchedlabError(f"unknown node policy {text!r}: use one of {', '.join(BUILT_IN_NODE_POLICIES)} or your "
                            "own as path/to/file.py:Class (docs/policies.md, 'Policies on nodes')")
    reference = parse_reference(BUILT_IN_NODE_POLICIES.get(text, text), "node policy")
    policy = reference.load("node policy")
    if not isinstance(policy, type) or not callable(getattr(policy, "schedule", None)):
        raise SchedlabError(f"node policy {reference}: not a policy (a class with a schedule(machine, t, submitted, "
                            "ended) method)")
    if text in BUILT_IN_NODE_POLICIES:
        return policy, None
    return policy, Path(sys.modules[policy.__module__].__file__).resolve()


def pool_policy(replay: NodeReplay) -> str:
    """The one-pool policy the CPU-only replay runs: the node policy's namesake, or EASY beside one of a
    researcher's own."""
    return replay.policy if replay.policy in BUILT_IN_NODE_POLICIES else "easy"


def cpu_only(replay: NodeReplay) -> "object":
    """The same jobs on one pool of the machine's cores under the batch policy ``pool_policy`` names: their
    waits (a pandas.DataFrame of job_id, submit, start, wait)."""
    import pandas as pd

    from schedlab.simulators.batch.conservative import ConservativeBackfilling
    from schedlab.simulators.batch.easy import EasyBackfilling
    from schedlab.simulators.batch.fcfs import FirstComeFirstServed
    from schedlab.simulators.batch.order import fcfs
    from schedlab.simulators.core.jobs import BatchJobs
    from schedlab.simulators.core.machine import Machine as PoolMachine

    demands = replay.jobs
    batch = BatchJobs(demands.job_id, demands.submit, demands.estimate, demands.actual, demands.total_cores)
    policy = {"fcfs": FirstComeFirstServed, "easy": EasyBackfilling,
              "conservative": ConservativeBackfilling}[pool_policy(replay)](fcfs)
    pool = PoolMachine("cores", replay.machine.cores, batch, policy)
    Engine([pool], EventOrder("terminations_first", "per_timestamp")).run()
    start = np.array(pool.start_time)
    return pd.DataFrame({"job_id": demands.job_id, "submit": demands.submit, "start": start,
                         "wait": start - demands.submit})


def wait_summary(waits: np.ndarray) -> dict[str, float]:
    """The waits a comparison needs: the job count and mean wait, then the tails of
    ``schedlab.simulators.core.tails.wait_tails`` (95th and 99th percentile, longest, over a day, over a week)."""
    if not len(waits):
        return {"jobs": 0}
    return {"jobs": int(len(waits)), "mean_wait": float(np.mean(waits)), **wait_tails(waits)}


def check_node_schedule(machine: NodeMachine, runs: Runs, start: np.ndarray, promised: np.ndarray,
                        events: list[CapacityEvent] = ()) -> None:
    """On the ``runs`` alone: every job ran (its last run after its submission and within its promise) on nodes of
    its partition; no node ever gave more of a resource than it has (ends free a node before starts at the
    same time take it); no run started on a node drained or down, outlived a failure of its node, or
    touched a maintenance window."""
    jobs = machine.jobs
    ids = jobs.job_id
    for what, bad in (("never started", np.isnan(start)), ("started before submission", start < jobs.submit),
                      ("started after its reservation", start > promised)):
        if bad.any():
            raise InvariantError(f"{machine.name}: {what}: job(s) {', '.join(map(str, ids[bad][:10]))}")
    if len(runs) < len(jobs):
        raise InvariantError(f"{machine.name}: {len(jobs) - len(runs)} job(s) never ended")
    node, run_of = runs.nodes, runs.run_of_node
    job_of = runs.job[run_of]
    in_partition = np.array(machine.partition_masks)[jobs.partition[job_of], node]
    wrong = (runs.counts != jobs.nodes[runs.job]) | ~np.logical_and.reduceat(in_partition, runs.offset[:-1])
    if wrong.any():
        job = runs.job[np.flatnonzero(wrong)[0]]
        raise InvariantError(f"{machine.name}: job {ids[job]} is not on {jobs.nodes[job]} nodes of its partition")
    for run in range(len(runs)) if events else ():
        job, begin, finish, nodes = runs.job[run], runs.start[run], runs.end[run], runs.nodes_of(run)
        for event in events:
            if not np.isin(nodes, event.nodes).any():
                continue
            if event.announced and begin < event.end and finish > event.start:
                raise InvariantError(f"{machine.name}: job {ids[job]} ran into the {event.label}")
            if not event.announced and event.start <= begin < event.end:
                raise InvariantError(f"{machine.name}: job {ids[job]} started at t={begin:g} during the {event.label}")
            if event.kind == "failure" and begin < event.start < finish:
                raise InvariantError(f"{machine.name}: job {ids[job]} outlived the {event.label}")
    times = np.concatenate([runs.end[run_of], runs.start[run_of]])
    nodes = np.concatenate([node, node])
    # Node by node in time, and at one time a node's ends before its starts: its use then only grows through
    # that time's starts, so it is over its capacity at one of them if and only if it is after the last, in
    # whatever order they come; one order serves every resource.
    order = np.lexsort((np.repeat([0, 1], len(node)), times, nodes))
    for name in RESOURCES:
        take = machine.capacity[name][node] if machine.exclusive else machine.demand[name][job_of]
        deltas = np.concatenate([-take, take]).astype(float)
        in_use = np.cumsum(deltas[order])  # each node's events sum to zero, so the sum restarts at every node
        over = in_use > machine.capacity[name][nodes[order]] + 1e-9
        if over.any():
            first = int(np.flatnonzero(over)[0])
            raise InvariantError(f"{machine.name}: node {nodes[order][first]} gives {in_use[first]:g} {name} at "
                                 f"t={times[order][first]:g}, more than its {machine.capacity[name][nodes[order][first]]:g}")


def node_lists(runs: Runs) -> list[str]:
    """Each run's nodes as Slurm writes a node list (``_ranges``), the usual cases (one node, or one run of
    consecutive nodes) at once."""
    offset, nodes = runs.offset, runs.nodes
    if not len(nodes):
        return []
    first, last = nodes[offset[:-1]], nodes[offset[1:] - 1]
    breaks = np.concatenate([[0], np.cumsum(np.diff(nodes) != 1)])  # steps other than +1, up to each entry
    consecutive = breaks[offset[1:] - 1] == breaks[offset[:-1]]
    lists = np.where(first == last, first.astype(str), np.char.add(np.char.add(first.astype(str), "-"),
                                                                   last.astype(str))).astype(object)
    for job in np.flatnonzero(~consecutive):
        lists[job] = _ranges(runs.nodes_of(job))
    return lists.tolist()


def _ranges(nodes: np.ndarray) -> str:
    """Node indexes as ranges (``0-3,7``), as Slurm writes a node list."""
    parts, values = [], [int(n) for n in nodes]
    while values:
        first = last = values.pop(0)
        while values and values[0] == last + 1:
            last = values.pop(0)
        parts.append(str(first) if first == last else f"{first}-{last}")
    return ",".join(parts)
