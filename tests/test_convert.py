"""Slurm and PBS/Torque accounting logs to SWF: the hand-written logs of tests/data, field by field,
a round trip through the SWF writer and reader, unreadable lines, and the command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from schedlab.errors import SchedlabError
from schedlab.parsers.accounting import detect_format, pbs_processors, read_pbs, read_sacct, slurm_duration
from schedlab.parsers.swf import read_swf, write_swf

DATA = Path(__file__).parent / "data"
FIELDS = ["job_id", "submit_time", "wait_time", "run_time", "allocated_procs", "requested_procs", "requested_time",
          "status", "user_id", "group_id", "executable_id", "queue_id"]


def test_slurm_durations():
    assert slurm_duration("5") == 300 and slurm_duration("30:00") == 1800 and slurm_duration("02:00:00") == 7200
    assert slurm_duration("1-00:00:00") == 86_400 and slurm_duration("2-03") == 2 * 86_400 + 3 * 3600
    assert slurm_duration("1-02:03") == 86_400 + 2 * 3600 + 3 * 60
    assert slurm_duration("UNLIMITED") is None and slurm_duration("Partition_Limit") is None
    with pytest.raises(ValueError):
        slurm_duration("soon")


def test_sacct_jobs_field_by_field():
    conversion = read_sacct(DATA / "sacct_small.txt", time_zone="Europe/Paris", machine_procs=64)
    rows = conversion.jobs[FIELDS].astype(int).values.tolist()
    # In submit order: 1002 at 08:30 local (07:30 UTC, time 0), 1001 at 09:00, the array tasks 1003_1 and 1003_2 at
    # 09:10, 1004 at 11:00. Users alice 1, bob 2, carol 3 (first appearance); groups chem 1, phys 2; job names
    # relax 1, scf 2, sweep 3, md 4; partitions batch 1, debug 2.
    assert rows == [
        [1, 0, 10, 900, 4, 4, 1800, 0, 2, 2, 2, 2],  # FAILED -> 0, limit 30:00
        [2, 1800, 300, 3600, 32, 32, 7200, 1, 1, 1, 1, 1],  # COMPLETED -> 1
        [3, 2400, 600, 86_400, 16, 16, 86_400, 0, 1, 1, 3, 1],  # TIMEOUT -> 0 (killed at its limit)
        [4, 2400, 900, 60, 16, 16, 86_400, 5, 1, 1, 3, 1],  # CANCELLED by 1234 -> 5
        [5, 9000, -1, -1, -1, 8, -1, 5, 3, 2, 4, 1],  # cancelled before it started: no start, no CPUs, UNLIMITED
    ]
    header = conversion.header
    assert header.unix_start_time == 1_709_278_200 and header.time_zone_string == "Europe/Paris"
    assert header.max_procs == 64 and header.max_jobs == 5 and header.version == "2.2"
    assert conversion.skip_summary() == ["2 job steps (not jobs)", "1 array tasks not yet started (line 8)",
                                         "1 jobs not finished (RUNNING) (line 10)"]


def test_pbs_jobs_field_by_field():
    conversion = read_pbs(DATA / "pbs_small.log")
    rows = conversion.jobs[FIELDS].astype(int).values.tolist()
    assert rows == [
        [1, 0, 10, 900, 4, 4, 1800, 0, 2, 2, 2, 2],  # Exit_status 1 -> failed; exec_host n3/0*4: 4 CPUs
        [2, 1800, 300, 3600, 4, 4, 7200, 1, 1, 1, 1, 1],  # exec_host of four entries
        [3, 2400, 600, 1260, 2, 2, 86_400, 5, 1, 1, 3, 1],  # an array task deleted while running: cancelled
    ]
    assert conversion.header.max_procs == 4  # the largest job, said so in a note
    assert any("largest job seen" in note for note in conversion.header.notes)
    assert "1 jobs deleted before they started (no E record)" in conversion.skip_summary()


def test_pbs_processor_counts():
    assert pbs_processors({"exec_host": "n1/0+n1/1+n2/0"}) == 3
    assert pbs_processors({"exec_host": "n1/0*8+n2/0*8"}) == 16
    assert pbs_processors({"Resource_List.ncpus": "12"}) == 12
    assert pbs_processors({"Resource_List.nodes": "3:ppn=4"}) == 12
    assert pbs_processors({}) == -1


@pytest.mark.parametrize("convert", [lambda: read_sacct(DATA / "sacct_small.txt", "Europe/Paris", 64),
                                     lambda: read_pbs(DATA / "pbs_small.log")])
def test_round_trip_through_the_swf_writer(tmp_path, convert):
    conversion = convert()
    write_swf(tmp_path / "log.swf", conversion.jobs, conversion.header)
    trace = read_swf(tmp_path / "log.swf")
    assert trace.jobs[FIELDS].equals(conversion.jobs[FIELDS])
    assert trace.header == conversion.header


def test_unreadable_lines_name_file_and_line_or_are_counted(tmp_path):
    log = tmp_path / "bad.txt"
    lines = (DATA / "sacct_small.txt").read_text().splitlines()
    lines[1] = lines[1].replace("2024-03-01T09:05:00", "yesterday")
    lines.insert(3, "1009|x|y")
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(SchedlabError, match=r"bad.txt:2: .*yesterday"):
        read_sacct(log)
    lenient = read_sacct(log, strict=False)
    assert "2 unreadable lines (lines 2, 4)" in lenient.skip_summary()
    assert len(lenient.jobs) == 4


def test_a_log_without_the_needed_fields_or_format_is_refused(tmp_path):
    missing = tmp_path / "short.txt"
    missing.write_text("JobID|Submit|State\n1|2024-03-01T09:00:00|COMPLETED\n")
    with pytest.raises(SchedlabError, match="missing Start, End, Timelimit, the processor count"):
        read_sacct(missing)
    other = tmp_path / "other.txt"
    other.write_text("hello\n")
    with pytest.raises(SchedlabError, match="give --format"):
        detect_format(other)
    assert detect_format(DATA / "sacct_small.txt") == "sacct" and detect_format(DATA / "pbs_small.log") == "pbs"
    with pytest.raises(SchedlabError, match="unknown time zone"):
        read_sacct(DATA / "sacct_small.txt", time_zone="Mars/Olympus")


def test_the_command_writes_swf_and_counts_skips(tmp_path, capsys):
    from schedlab.cli import main

    assert main(["convert", str(DATA / "sacct_small.txt"), "-o", str(tmp_path / "s.swf"), "--procs", "64"]) == 0
    out, err = capsys.readouterr()
    assert "5 jobs written" in out and "skipped 2 job steps (not jobs)" in err
    assert len(read_swf(tmp_path / "s.swf").jobs) == 5
    assert main(["convert", str(DATA / "pbs_small.log"), "-o", str(tmp_path / "p.swf.gz")]) == 0
    assert len(read_swf(tmp_path / "p.swf.gz").jobs) == 3


SACCT_HEADER = "JobID|Submit|Start|End|State|AllocCPUS|Timelimit|ReqCPUS"
SACCT_TIMES = "2024-03-01T08:00:00|2024-03-01T08:00:10|2024-03-01T09:00:00|COMPLETED"


@pytest.mark.parametrize("cpus, requested, message", [
    ("100000000000000000000000", "", "AllocCPUS 100000000000000000000000 is not a processor count"),
    ("-16", "", "AllocCPUS -16 is not a processor count"),
    ("4", "-2", "ReqCPUS -2 is not a processor count"),
    ("4294967294", "", "AllocCPUS 4294967294 is not a processor count"),  # Slurm's NO_VAL printed as a number
])
def test_a_sacct_processor_count_no_job_has_is_refused_naming_the_line(tmp_path, cpus, requested, message):
    log = tmp_path / "sacct.txt"
    log.write_text(f"{SACCT_HEADER}\n1|{SACCT_TIMES}|4|01:00:00|4\n2|{SACCT_TIMES}|{cpus}|01:00:00|{requested}\n")
    with pytest.raises(SchedlabError, match=rf"^{log}:3: {message} \(0 to 2,147,483,647\)$"):
        read_sacct(log)
    lenient = read_sacct(log, strict=False)
    assert len(lenient.jobs) == 1 and lenient.skip_summary() == ["1 unreadable lines (line 3)"]


PBS_TIMES = "qtime=1709280000 start=1709280010 end=1709283600"


@pytest.mark.parametrize("attributes, message", [
    ("qtime=1e20 start=1e20 end=1e20 exec_host=n1/0", "qtime 1e20 is not a Unix time"),
    ("qtime=1709280000 start=nan end=1709283600 exec_host=n1/0", "start nan is not a Unix time"),
    ("qtime=1709280000 start=1709280010 end=-5 exec_host=n1/0", "end -5 is not a Unix time"),
    (f"{PBS_TIMES} exec_host=n1/0*99999999999999", "exec_host's processors 99999999999999 is not a processor count"),
    (f"{PBS_TIMES} Resource_List.ncpus=-8", "Resource_List.ncpus -8 is not a processor count"),
    (f"{PBS_TIMES} Resource_List.nodes=100000:ppn=100000", "Resource_List.nodes 10000000000 is not a processor count"),
])
def test_a_pbs_time_or_count_no_job_has_is_refused_naming_the_line(tmp_path, attributes, message):
    log = tmp_path / "pbs.log"
    log.write_text(f"03/01/2024 09:00:00;E;1.srv;user=a {PBS_TIMES} exec_host=n1/0\n"
                   f"03/01/2024 09:00:00;E;2.srv;user=a {attributes}\n")
    with pytest.raises(SchedlabError, match=rf"^{log}:2: job 2.srv: {message}"):
        read_pbs(log)
    assert len(read_pbs(log, strict=False).jobs) == 1


def test_counts_and_times_a_log_can_hold_still_convert(tmp_path):
    log = tmp_path / "pbs.log"
    log.write_text(f"03/01/2024 09:00:00;E;1.srv;user=a {PBS_TIMES} exec_host=n1/0*2147483647\n")
    assert read_pbs(log).jobs["allocated_procs"].tolist() == [2_147_483_647]


RESOURCES = ["allocated_procs", "requested_procs", "nodes", "gpus", "memory_per_node_mb", "memory_per_core_mb",
             "partition", "qos", "user", "requeues"]


def test_a_gpu_cluster_sacct_log_converts_with_its_resources():
    """Hand-worked: NCPUS for AllocCPUS, GPUs from TRES (a total beside a typed count; typed counts alone),
    ReqMem after 21.08 (the job's total: per node over its nodes) and before (``Mc`` per core, ``Gn`` per node),
    a requeued job listed with sacct -D (its first submit time kept, its requeue counted), a step and an array
    range skipped, a job cancelled before it started (what it asked for, from ReqTRES)."""
    conversion = read_sacct(DATA / "sacct_gpu.txt")
    jobs = conversion.jobs
    assert jobs[["submit_time", "wait_time", "run_time"]].values.tolist() == [
        [0, 3600, 7200],  # 2003 submitted at 08:00 (its REQUEUED record), last run 09:00-11:00
        [3600, 30, 1800],  # 2002
        [7200, 300, 7200],  # 2001
        [7200, 1800, 900],  # 2004_1
        [10800, -1, -1],  # 2005, cancelled before it started
    ]
    assert jobs[RESOURCES].values.tolist() == [
        [8, 8, 1, 2, 32768.0, -1.0, "gpu", "high", "carol", 1],
        [4, 4, 1, 0, -1.0, 2000.0, "cpu", "normal", "bob", 0],
        [16, 16, 2, 4, 32768.0, -1.0, "gpu", "normal", "alice", 0],
        [2, 2, 1, 1, 4096.0, -1.0, "gpu", "normal", "alice", 0],
        [-1, 32, 4, 8, 32768.0, -1.0, "gpu", "normal", "dave", 0],
    ]
    assert conversion.skip_summary() == [
        "1 job steps (not jobs)", "1 earlier runs of requeued jobs (REQUEUED records, sacct -D) (line 5)",
        "1 array tasks not yet started (line 8)"]


def test_gpus_are_unknown_where_the_log_cannot_say_them():
    assert read_sacct(DATA / "sacct_small.txt").jobs["gpus"].tolist() == [-1] * 5  # no TRES column
    assert read_pbs(DATA / "pbs_small.log").jobs["gpus"].tolist() == [-1] * 3  # no record names ngpus


def test_a_torque_and_pbs_pro_log_converts_with_its_resources():
    """Hand-worked: Torque's ranged exec_host (two 16-slot hosts: 32 processors, not 2), its pmem per process,
    PBS Pro's select chunks, ngpus and nodect."""
    jobs = read_pbs(DATA / "pbs_gpu.log").jobs
    assert jobs[RESOURCES].values.tolist() == [
        [32, 32, 2, 0, 32768.0, -1.0, "batch", "", "alice", 0],  # mem=64gb over 2 nodes
        [8, 8, 1, 0, -1.0, 2048.0, "long", "", "bob", 0],  # pmem=2gb a process
        [32, 32, 2, 4, 65536.0, -1.0, "gpu", "", "carol", 0],  # select 2 x (16 cpus, 2 gpus, 64gb)
    ]


@pytest.mark.parametrize("text, processors, hosts", [
    ("n001/0-15+n002/0-15", 32, 2), ("g01/0-7", 8, 1), ("n1/0,2,4-7", 6, 1), ("n1/0*4+n2/0*4", 8, 2),
    ("n1/0+n1/1+n2/0", 3, 2),
])
def test_exec_host_lists_count_every_slot(text, processors, hosts):
    from schedlab.parsers.resources import exec_host_slots

    assert exec_host_slots(text) == (processors, hosts)


@pytest.mark.parametrize("header, message", [
    ("JobID|Submit|Start|End|State|Timelimit", "missing the processor count (AllocCPUS, NCPUS or AllocTRES)"),
    ("JobID|Submit|State|NCPUS", "missing Start, End, Timelimit (see docs/convert.md"),
])
def test_a_missing_field_is_one_line_naming_it_and_its_alternatives(tmp_path, header, message):
    log = tmp_path / "sacct.txt"
    log.write_text(header + "\n")
    with pytest.raises(SchedlabError, match=re.escape(f"{log}:1: not sacct --parsable2 output with the fields "
                                                      f"convert needs: {message}")):
        read_sacct(log)
