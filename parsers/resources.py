"""What a job asks of a machine beyond processors, as accounting logs write it (issue 65).

Today's logs say more than SWF can hold: a job's nodes, GPUs, memory, partition and QOS.  The
job table keeps SWF's 18 fields (``schedlab.parsers.schema``) and adds these columns
(``RESOURCE_COLUMNS``), each with its unknown value:

==================== ======= ============================================================== =======
column               type    meaning                                                        unknown
==================== ======= ============================================================== =======
nodes                int64   nodes the job ran on (asked for, if it never ran)              -1
gpus                 int64   GPUs of the whole job                                          -1
memory_per_node_mb   float64 memory asked per node, MiB                                     -1
memory_per_core_mb   float64 memory asked per core, MiB                                     -1
partition            string  the partition (Slurm) or queue (PBS) the job ran in            ''
qos                  string  Slurm's quality of service                                     ''
user, group          string  who submitted it                                               ''
requeues             int64   times the job was requeued before the run the table holds      0
==================== ======= ============================================================== =======

A job asks for memory per node or per core, as its log says, never both: the other column is
-1.  GPUs are -1 for every job of a log that cannot say (no TRES or GRES column, or a TRES that
never names ``gres/gpu``: a site tracks GPUs in TRES only when ``AccountingStorageTRES`` lists
them) and 0 for a job without GPUs in a log that tracks them.

The readers here are the pieces both converters share: Slurm's TRES strings and sizes, PBS's
sizes, ``select`` chunks and ``exec_host`` lists.  Each raises ``ValueError`` naming what it
could not read, which the converters turn into ``file:line: problem``.
"""

from __future__ import annotations

import re

import numpy as np

from schedlab.parsers.schema import UNKNOWN

RESOURCE_COLUMNS: dict[str, np.dtype | type] = {
    "nodes": np.dtype("int64"),
    "gpus": np.dtype("int64"),
    "memory_per_node_mb": np.dtype("float64"),
    "memory_per_core_mb": np.dtype("float64"),
    "partition": str,
    "qos": str,
    "user": str,
    "group": str,
    "requeues": np.dtype("int64"),
}
"""The columns a job table has beyond SWF's 18, and their types (``str`` for text columns)."""

RESOURCE_UNKNOWN = {name: "" if kind is str else (0 if name == "requeues" else UNKNOWN)
                    for name, kind in RESOURCE_COLUMNS.items()}
"""Each resource column's value for a job its log says nothing about."""

#: Binary multiples of a MiB, as Slurm's sizes print them (``16G``, ``1.50T``, ``512K``).
_SLURM_UNITS = {"K": 1 / 1024, "M": 1.0, "G": 1024.0, "T": 1024.0**2, "P": 1024.0**3}
_SLURM_SIZE = re.compile(r"(\d+(?:\.\d+)?)([KMGTP]?)")
#: PBS sizes: a whole number with a unit of bytes (``16gb``, ``512mb``; bytes when none).
_PBS_UNITS = {"b": 1 / 1024**2, "kb": 1 / 1024, "mb": 1.0, "gb": 1024.0, "tb": 1024.0**2, "pb": 1024.0**3}
_PBS_SIZE = re.compile(r"(\d+)(b|kb|mb|gb|tb|pb)?", re.IGNORECASE)


def slurm_size_mb(text: str) -> float:
    """MiB of a Slurm size: a number with an optional binary unit, MiB when it has none (``16G`` is 16,384)."""
    match = _SLURM_SIZE.fullmatch(text.strip())
    if not match:
        raise ValueError(f"not a Slurm memory size: {text!r}")
    return float(match.group(1)) * _SLURM_UNITS[match.group(2) or "M"]


def tres(text: str) -> dict[str, float]:
    """A TRES string (``billing=4,cpu=4,gres/gpu=2,mem=16G,node=1``) as counts; ``mem`` in MiB.

    ``gres/gpu`` is the job's GPUs of every type: Slurm writes the total beside each typed count
    (``gres/gpu=2,gres/gpu:a100=2``), and only typed counts when the site tracks types alone, which
    are then summed.
    """
    counts: dict[str, float] = {}
    typed_gpus = 0.0
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, equals, value = item.partition("=")
        if not equals:
            raise ValueError(f"not a TRES entry (name=count): {item!r}")
        try:
            count = slurm_size_mb(value) if name == "mem" else float(value)
        except ValueError:
            raise ValueError(f"TRES {name}={value!r} is not a count") from None
        if name.startswith("gres/gpu:"):
            typed_gpus += count
        else:
            counts[name] = count
    if typed_gpus and "gres/gpu" not in counts:
        counts["gres/gpu"] = typed_gpus
    return counts


def slurm_memory_request(text: str, tres_memory_mb: float | None, nodes: int) -> tuple[float, float]:
    """(MiB per node, MiB per core) a Slurm job asked for, one of them -1.

    Slurm before 21.08 printed ``ReqMem`` with a suffix, ``n`` per node or ``c`` per core (``4000Mn``,
    ``2Gc``); since 21.08 it prints the ``mem`` of the job's requested TRES, the job's total, with a unit
    only.  A total is per node over the job's nodes (Slurm's ``--mem`` asks per node); it is unknown for
    a job whose nodes are unknown.  ``tres_memory_mb`` (ReqTRES's ``mem``) serves when ReqMem is absent.
    """
    text = text.strip()
    if text and text[-1] in "nc" and text[:-1]:
        size = slurm_size_mb(text[:-1])
        return (size, float(UNKNOWN)) if text[-1] == "n" else (float(UNKNOWN), size)
    total = slurm_size_mb(text) if text else tres_memory_mb
    if total is None or nodes <= 0:
        return float(UNKNOWN), float(UNKNOWN)
    return total / nodes, float(UNKNOWN)


def slurm_gres_gpus(text: str) -> int:
    """GPUs in a GRES list (``gpu:2``, ``gpu:tesla:2,mps:100``), as ``AllocGRES`` wrote them before 20.11."""
    gpus = 0
    for item in filter(None, (part.strip() for part in text.split(","))):
        parts = item.split("(")[0].split(":")
        if parts[0] != "gpu":
            continue
        count = parts[-1] if len(parts) > 1 else "1"
        if not count.isdigit():
            raise ValueError(f"GRES {item!r} has no GPU count")
        gpus += int(count)
    return gpus


def pbs_size_mb(text: str) -> float:
    """MiB of a PBS size: a whole number with a unit of bytes (``16gb``, ``512mb``, ``100kb``), bytes when none."""
    match = _PBS_SIZE.fullmatch(text.strip())
    if not match:
        raise ValueError(f"not a PBS size: {text!r}")
    return int(match.group(1)) * _PBS_UNITS[(match.group(2) or "b").lower()]


def pbs_select(text: str) -> dict[str, float]:
    """The totals of a PBS Pro ``select`` statement (``2:ncpus=16:ngpus=2:mem=64gb+1:ncpus=4``):
    ``chunks``, ``ncpus`` (1 a chunk unless said), ``ngpus`` and ``mem`` (MiB), each chunk counted its
    number of times."""
    totals = {"chunks": 0.0, "ncpus": 0.0, "ngpus": 0.0, "mem": 0.0}
    for chunk in text.split("+"):
        parts = chunk.strip().split(":")
        repeat = int(parts.pop(0)) if parts and parts[0].isdigit() else 1
        values = {"ncpus": 1.0, "ngpus": 0.0, "mem": 0.0}
        for part in parts:
            name, equals, value = part.partition("=")
            if not equals:
                raise ValueError(f"not a select chunk (N:name=value:...): {chunk!r}")
            if name == "mem":
                values["mem"] = pbs_size_mb(value)
            elif name in ("ncpus", "ngpus"):
                if not value.isdigit():
                    raise ValueError(f"select {name}={value!r} is not a count")
                values[name] = float(value)
        totals["chunks"] += repeat
        for name, value in values.items():
            totals[name] += repeat * value
    return totals


def exec_host_slots(text: str) -> tuple[int, int]:
    """(processors, hosts) of a PBS ``exec_host`` list.

    Torque writes each host's slots as a list of ranges (``n001/0-15+n002/0-15``: 32 slots on 2 hosts;
    ``g01/0,2,4-7``: 6); PBS Pro writes one entry per chunk with its processor count
    (``n1/0*4+n2/0*4``: 8).  A host named twice counts once.
    """
    processors, hosts = 0, set()
    for entry in filter(None, text.split("+")):
        host, _, slots = entry.partition("/")
        hosts.add(host)
        slots, star, count = slots.partition("*")
        if star:
            if not count.isdigit():
                raise ValueError(f"exec_host entry {entry!r} has no processor count after '*'")
            processors += int(count)
            continue
        for part in slots.split(",") if slots else ["0"]:
            first, dash, last = part.partition("-")
            if not first.isdigit() or (dash and not last.isdigit()):
                raise ValueError(f"exec_host entry {entry!r}: {part!r} is not a slot or a range of slots")
            if dash and int(last) < int(first):
                raise ValueError(f"exec_host entry {entry!r}: the range {part!r} runs backwards")
            processors += int(last) - int(first) + 1 if dash else 1
    return processors, len(hosts)
