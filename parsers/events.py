"""Capacity that changes during a replay: nodes drained, down for maintenance, or failing (issue 65, item 4).

An events file is TOML, one ``[[events]]`` table per event, in Slurm's terms::

    [[events]]
    kind = "drain"            # the nodes take no new job from start to end; running jobs finish
    start = 3600              # seconds from the log's start
    end = 7200
    node_type = "gpu"         # which nodes: node_type (and count: its first so many), partition, or nodes = [0, 3]
    count = 1                 #   (node indexes in the machine file's order); none of them: the whole machine

    [[events]]
    kind = "maintenance"      # an announced reservation (Slurm's flags=maint): no job runs on the nodes from start
    partition = "gpu"         # to end, and backfilling plans around it: a job starts there only if its requested
    start = 86400             # time ends before the window opens
    end = 93600

    [[events]]
    kind = "failure"          # the nodes go down at start, killing the jobs running on them, and come back at end
    nodes = [3]
    start = 5000
    end = 9000
    requeue = true            # killed jobs go back to the queue and run again from the start (Slurm's
                              # JobRequeue=1, --requeue); false: they end, failed, at start

A drain and a failure are not announced: the scheduler learns of them when they happen, and does
not plan on a node's return.  A maintenance window is announced from the start of the replay.
Every key is checked (times in order and not negative, nodes the machine has); a mistake is one line
naming the file and the event.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from schedlab.errors import InputError, require_regular_file
from schedlab.parsers.machine import Machine

EVENT_KINDS = ("drain", "maintenance", "failure")
EVENT_KEYS = {"kind", "start", "end", "nodes", "node_type", "count", "partition", "requeue"}


@dataclass(frozen=True)
class CapacityEvent:
    kind: str
    start: float
    end: float
    nodes: np.ndarray  # node indexes, in the machine file's order
    requeue: bool = False
    label: str = ""  # what the events file said, for a page

    @property
    def announced(self) -> bool:
        return self.kind == "maintenance"


def read_events(path, machine: Machine) -> list[CapacityEvent]:
    """The events of a file, their nodes resolved on ``machine``, in file order."""
    path = Path(path)
    require_regular_file(path, "an events file")
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise InputError(path, None, f"not an events file: {error}") from None
    except UnicodeDecodeError:
        raise InputError(path, None, "not an events file (binary or not UTF-8 text)") from None
    if set(document) - {"events"} or not isinstance(document.get("events", []), list):
        raise InputError(path, None, "an events file holds [[events]] tables only")
    return [_event(table, number, path, machine) for number, table in enumerate(document.get("events", []), start=1)]


def _event(table: dict, number: int, path: Path, machine: Machine) -> CapacityEvent:
    def refuse(problem: str) -> InputError:
        return InputError(path, None, f"event {number}: {problem}")

    unknown = sorted(set(table) - EVENT_KEYS)
    if unknown:
        raise refuse(f"{unknown[0]} is not an event key ({', '.join(sorted(EVENT_KEYS))})")
    kind = table.get("kind")
    if kind not in EVENT_KINDS:
        raise refuse(f"kind {kind!r} is none of {', '.join(EVENT_KINDS)}")
    start, end = table.get("start"), table.get("end")
    for name, value in (("start", start), ("end", end)):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or value < 0:
            raise refuse(f"{name} must be a time in seconds from the log's start, >= 0, not {value!r}")
    if end <= start:
        raise refuse(f"ends ({end:g} s) at or before it starts ({start:g} s)")
    if "requeue" in table and (kind != "failure" or not isinstance(table["requeue"], bool)):
        raise refuse("requeue is a setting of a failure, true or false")
    nodes, label = _nodes(table, machine, refuse)
    return CapacityEvent(kind, float(start), float(end), nodes, bool(table.get("requeue", False)),
                         f"{kind} of {label} from {start:g} s to {end:g} s")


def _nodes(table: dict, machine: Machine, refuse) -> tuple[np.ndarray, str]:
    """The event's nodes and how to say them."""
    kinds = [node.name for node in machine.node_types]
    of_type = np.repeat(np.arange(len(kinds)), [node.count for node in machine.node_types])
    given = [key for key in ("nodes", "node_type", "partition") if key in table]
    if len(given) > 1:
        raise refuse(f"name its nodes one way: {', '.join(given)} given")
    if "count" in table and given != ["node_type"]:
        raise refuse("count goes with node_type (the first so many nodes of that type)")
    if not given:
        return np.arange(len(of_type)), "the whole machine"
    if given == ["nodes"]:
        nodes = table["nodes"]
        if not isinstance(nodes, list) or not nodes or not all(isinstance(n, int) and 0 <= n < len(of_type)
                                                                for n in nodes):
            raise refuse(f"nodes must be a list of node indexes from 0 to {len(of_type) - 1}")
        return np.unique(nodes), f"node(s) {', '.join(map(str, sorted(set(nodes))))}"
    if given == ["partition"]:
        if table["partition"] not in machine.partitions:
            raise refuse(f"no partition {table['partition']!r} (there are {', '.join(machine.partitions)})")
        members = [kinds.index(name) for name in machine.partitions[table["partition"]]]
        return np.flatnonzero(np.isin(of_type, members)), f"partition {table['partition']}"
    if table["node_type"] not in kinds:
        raise refuse(f"no node type {table['node_type']!r} (there are {', '.join(kinds)})")
    nodes = np.flatnonzero(of_type == kinds.index(table["node_type"]))
    count = table.get("count", len(nodes))
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= len(nodes):
        raise refuse(f"count must be 1 to {len(nodes)} ({table['node_type']} nodes), not {count!r}")
    return nodes[:count], f"{count} {table['node_type']} node(s)"
