"""A machine of node types and partitions, as a small TOML file (issue 65, item 2).

Today's clusters are not one pool of processors: they have node types (so many nodes of so many
cores, GPUs and memory) and partitions, each a set of node types a job may run on.  A machine
file says so in Slurm's terms::

    name = "gpu-cluster"
    allocation = "shared"        # or "exclusive"

    [node_types.gpu]
    count = 16                   # nodes of this type
    cores = 32                   # CPUs per node (Slurm's CPUs)
    memory_gb = 512              # memory per node, GiB (Slurm's RealMemory / 1024)
    gpus = 4                     # GPUs per node (Slurm's Gres=gpu:4)

    [partitions]
    gpu = ["gpu"]                # the node types each partition's jobs may use

``allocation`` follows Slurm's node selection: ``shared`` (select/cons_tres, Slurm's default)
lets jobs share a node, each taking its cores, GPUs and memory on it; ``exclusive``
(select/linear, or a partition's OverSubscribe=EXCLUSIVE) gives a job whole nodes.  Every number
is checked (a whole count of at least one node and core, no negative GPUs, memory above zero)
and every partition must name node types the file defines; a mistake is one line naming the
file and the key.

``parsers/machines/`` ships two examples (``builtin:cpu-cluster``, ``builtin:gpu-cluster``).
When a log comes without a machine file, :func:`infer_machine` builds the smallest one its jobs
fit, one node type per partition, and says so in ``Machine.source``.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from schedlab.atomic import write_text
from schedlab.errors import InputError, require_regular_file

if TYPE_CHECKING:
    import pandas as pd

ALLOCATIONS = ("shared", "exclusive")
SHIPPED_MACHINES = Path(__file__).parent / "machines"
BUILTIN_PREFIX = "builtin:"
NODE_TYPE_KEYS = ("count", "cores", "memory_gb", "gpus")
#: The partition a job that names none runs in, when the machine was inferred from its log.
UNNAMED_PARTITION = "default"


@dataclass(frozen=True)
class NodeType:
    name: str
    count: int
    cores: int
    memory_mb: float
    gpus: int


@dataclass(frozen=True)
class Machine:
    name: str
    node_types: tuple[NodeType, ...]
    partitions: dict[str, tuple[str, ...]]
    allocation: str = "shared"
    source: str = ""  # where the description came from, as a page says it

    @property
    def cores(self) -> int:
        return sum(node.count * node.cores for node in self.node_types)

    @property
    def gpus(self) -> int:
        return sum(node.count * node.gpus for node in self.node_types)

    def node_type(self, name: str) -> NodeType:
        return next(node for node in self.node_types if node.name == name)


def builtin_machines() -> list[str]:
    return sorted(f"{BUILTIN_PREFIX}{path.stem}" for path in SHIPPED_MACHINES.glob("*.toml"))


def read_machine(source) -> Machine:
    """A machine from a TOML file, or a shipped one by name (``builtin:gpu-cluster``)."""
    text_source = str(source)
    if text_source.startswith(BUILTIN_PREFIX):
        path = SHIPPED_MACHINES / f"{text_source.removeprefix(BUILTIN_PREFIX)}.toml"
        if not path.is_file():
            raise InputError(text_source, None, f"no such shipped machine (there are {', '.join(builtin_machines())})")
    else:
        path = Path(source)
        require_regular_file(path, "a machine file")
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise InputError(path, getattr(error, "lineno", None), f"not a machine file: {error}") from None
    except UnicodeDecodeError:
        raise InputError(path, None, "not a machine file (binary or not UTF-8 text)") from None
    return _machine(document, path, source=text_source if text_source.startswith(BUILTIN_PREFIX) else str(path))


def _machine(document: dict, path: Path, source: str) -> Machine:
    def refuse(key: str, problem: str) -> InputError:
        return InputError(path, None, f"{key}: {problem}")

    unknown = sorted(set(document) - {"name", "allocation", "node_types", "partitions"})
    if unknown:
        raise refuse(unknown[0], "not a machine key (name, allocation, node_types, partitions)")
    allocation = document.get("allocation", "shared")
    if allocation not in ALLOCATIONS:
        raise refuse("allocation", f"{allocation!r} is neither of {', '.join(ALLOCATIONS)}")
    tables = document.get("node_types")
    if not isinstance(tables, dict) or not tables:
        raise refuse("node_types", "the file defines no node type ([node_types.NAME] with count, cores, memory_gb)")
    node_types = tuple(_node_type(name, table, refuse) for name, table in tables.items())
    partitions = document.get("partitions")
    if not isinstance(partitions, dict) or not partitions:
        raise refuse("partitions", "the file defines no partition ([partitions] NAME = [node types])")
    for name, members in partitions.items():
        if not isinstance(members, list) or not members or not all(isinstance(m, str) for m in members):
            raise refuse(f"partitions.{name}", "must be a list of node type names")
        for member in members:
            if member not in tables:
                raise refuse(f"partitions.{name}", f"no node type {member!r} (there are {', '.join(tables)})")
    return Machine(str(document.get("name", path.stem)), node_types,
                   {name: tuple(members) for name, members in partitions.items()}, allocation, source)


def _node_type(name: str, table, refuse) -> NodeType:
    key = f"node_types.{name}"
    if not isinstance(table, dict):
        raise refuse(key, "must be a table of count, cores, memory_gb and gpus")
    unknown = sorted(set(table) - set(NODE_TYPE_KEYS))
    if unknown:
        raise refuse(f"{key}.{unknown[0]}", f"not a node type key ({', '.join(NODE_TYPE_KEYS)})")
    values = {}
    for field, least in (("count", 1), ("cores", 1), ("gpus", 0)):
        value = table.get(field, 0 if field == "gpus" else None)
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise refuse(f"{key}.{field}", f"must be a whole number of at least {least}, not {value!r}")
        values[field] = value
    memory = table.get("memory_gb")
    if not isinstance(memory, (int, float)) or isinstance(memory, bool) or not math.isfinite(memory) or memory <= 0:
        raise refuse(f"{key}.memory_gb", f"must be a number of GiB above 0, not {memory!r}")
    return NodeType(name, values["count"], values["cores"], float(memory) * 1024.0, values["gpus"])


def machine_toml(machine: Machine) -> str:
    """The machine as a file :func:`read_machine` reads back equal (but for ``source``)."""
    lines = [f"# {machine.source}" if machine.source else "", f"name = {_quoted(machine.name)}",
             f"allocation = {_quoted(machine.allocation)}"]
    for node in machine.node_types:
        lines += ["", f"[node_types.{_quoted(node.name)}]", f"count = {node.count}", f"cores = {node.cores}",
                  f"memory_gb = {node.memory_mb / 1024.0!r}", f"gpus = {node.gpus}"]
    lines += ["", "[partitions]"]
    lines += [f"{_quoted(name)} = [{', '.join(_quoted(m) for m in members)}]"
              for name, members in machine.partitions.items()]
    return "\n".join(line for i, line in enumerate(lines) if line or i) + "\n"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def save_machine(machine: Machine, path) -> None:
    write_text(path, machine_toml(machine))


def infer_machine(jobs: pd.DataFrame, name: str) -> Machine:
    """The smallest machine a job table's jobs fit: per partition (``default`` for jobs naming none), one node
    type of the largest per-node cores, GPUs and memory any of its jobs used, as many nodes as its largest job
    spread over.  What a log cannot say stays out: which nodes partitions share (each gets its own) and nodes
    no job filled (the counts are lower bounds).  Needs the resource columns (``parsers.resources``)."""
    import numpy as np

    partitions = jobs["partition"].where(jobs["partition"] != "", UNNAMED_PARTITION)
    node_types = []
    for partition in sorted(partitions.unique()):
        part = jobs[partitions == partition]
        nodes = np.maximum(part["nodes"].to_numpy(), 1)
        cores = np.maximum(part["allocated_procs"].to_numpy(), part["requested_procs"].to_numpy())
        per_node_cores = np.ceil(np.maximum(cores, 1) / nodes)
        per_node_gpus = np.ceil(np.maximum(part["gpus"].to_numpy(), 0) / nodes)
        per_core = part["memory_per_core_mb"].to_numpy()
        memory = np.maximum(part["memory_per_node_mb"].to_numpy(), np.where(per_core > 0, per_core * per_node_cores, 0))
        node_types.append(NodeType(partition, int(nodes.max()), int(per_node_cores.max()),
                                   float(max(memory.max(), 1024.0)), int(per_node_gpus.max())))
    return Machine(name, tuple(node_types), {node.name: (node.name,) for node in node_types}, "shared",
                   source=f"inferred from {name}'s jobs: one node type per partition, each the smallest its jobs "
                          "fit (node counts are lower bounds; which nodes partitions share is not in the log)")
