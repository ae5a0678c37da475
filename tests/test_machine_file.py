"""The machine file: node types and partitions in Slurm's terms, checked key by key, written and read back
equal, and a machine inferred from a log's jobs (issue 65, item 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schedlab.errors import InputError
from schedlab.parsers.accounting import read_sacct
from schedlab.parsers.machine import builtin_machines, infer_machine, machine_toml, read_machine, save_machine

DATA = Path(__file__).parent / "data"


def test_the_shipped_machines_read_as_their_files_say():
    assert builtin_machines() == ["builtin:cpu-cluster", "builtin:gpu-cluster"]
    gpu = read_machine("builtin:gpu-cluster")
    assert [(n.name, n.count, n.cores, n.memory_mb, n.gpus) for n in gpu.node_types] == [
        ("cpu", 64, 48, 192 * 1024.0, 0), ("gpu", 16, 32, 512 * 1024.0, 4)]
    assert gpu.partitions == {"cpu": ("cpu",), "gpu": ("gpu",), "all": ("cpu", "gpu")}
    assert (gpu.cores, gpu.gpus, gpu.allocation) == (64 * 48 + 16 * 32, 64, "shared")


@pytest.mark.parametrize("name", ["builtin:cpu-cluster", "builtin:gpu-cluster"])
def test_a_machine_written_reads_back_equal(tmp_path, name):
    machine = read_machine(name)
    save_machine(machine, tmp_path / "m.toml")
    again = read_machine(tmp_path / "m.toml")
    assert (again.name, again.node_types, again.partitions, again.allocation) == (
        machine.name, machine.node_types, machine.partitions, machine.allocation)


GOOD = '''name = "m"
[node_types.a]
count = 2
cores = 8
memory_gb = 16
[partitions]
p = ["a"]
'''


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("count = 2", "count = 0"), "node_types.a.count: must be a whole number of at least 1, not 0"),
    (lambda t: t.replace("cores = 8", "cores = 8.5"), "node_types.a.cores: must be a whole number of at least 1"),
    (lambda t: t.replace("memory_gb = 16", "memory_gb = -1"), "node_types.a.memory_gb: must be a number of GiB above 0"),
    (lambda t: t.replace("memory_gb = 16", "memory_gb = 16\ngpus = -2"), "node_types.a.gpus: must be a whole number of at least 0"),
    (lambda t: t.replace("memory_gb = 16", "memory_gb = 16\nmemory = 3"), "node_types.a.memory: not a node type key"),
    (lambda t: t.replace('p = ["a"]', 'p = ["b"]'), "partitions.p: no node type 'b' (there are a)"),
    (lambda t: t.replace('p = ["a"]', "p = []"), "partitions.p: must be a list of node type names"),
    (lambda t: t.replace('name = "m"', 'name = "m"\nallocation = "whole"'), "allocation: 'whole' is neither of shared, exclusive"),
    (lambda t: t.replace("[partitions]\np = [\"a\"]\n", ""), "partitions: the file defines no partition"),
    (lambda t: t.replace("count = 2", "count = "), "not a machine file"),
])
def test_a_mistake_in_a_machine_file_is_one_line_naming_its_key(tmp_path, edit, message):
    path = tmp_path / "m.toml"
    path.write_text(edit(GOOD))
    with pytest.raises(InputError, match=f"^{path}(:\\d+)?: " + message.replace("(", r"\(").replace(")", r"\)")):
        read_machine(path)


def test_an_unknown_shipped_machine_names_those_there_are():
    with pytest.raises(InputError, match="no such shipped machine .there are builtin:cpu-cluster, builtin:gpu-cluster"):
        read_machine("builtin:frontier")


def test_a_machine_inferred_from_a_gpu_log_fits_every_job_and_says_so():
    """Hand-worked from tests/data/sacct_gpu.txt: the gpu partition's largest job spreads 32 cores, 8 GPUs and
    128 GiB over 4 nodes (8 cores, 2 GPUs, 32 GiB a node); 2001 takes 16 cores and 4 GPUs on 2 nodes (8, 2);
    2003 takes 8 cores and 2 GPUs on 1 node; the cpu partition's one job 4 cores at 2,000 MiB a core."""
    jobs = read_sacct(DATA / "sacct_gpu.txt").jobs
    machine = infer_machine(jobs, "sacct_gpu")
    assert [(n.name, n.count, n.cores, n.memory_mb, n.gpus) for n in machine.node_types] == [
        ("cpu", 1, 4, 8000.0, 0), ("gpu", 4, 8, 32768.0, 2)]
    assert machine.partitions == {"cpu": ("cpu",), "gpu": ("gpu",)}
    assert "inferred from sacct_gpu's jobs" in machine.source and "lower bounds" in machine.source
    assert machine_toml(machine).startswith("# inferred from sacct_gpu's jobs")
