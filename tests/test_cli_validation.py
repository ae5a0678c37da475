"""Bad options and damaged inputs at the command line: one line naming the option and its range,
or the file and line, exit code 2 for usage and 1 for input, never a traceback (issue 24)."""

from __future__ import annotations

import argparse
import errno
import gzip
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from schedlab.cli import build_parser, command_names, main
from tests.conftest import shared_path

HEADER = "; Version: 2.2\n; MaxProcs: 64\n"


def job(job_id, submit=0, run=100, procs=4, status=1) -> str:
    return f"{job_id} {submit} 0 {run} {procs} -1 -1 {procs} 200 -1 {status} 1 1 -1 1 1 -1 -1"


GOOD_JOBS = [job(i, 10 * i) for i in range(1, 7)]


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``schedlab ARGV`` (argparse's exits included)."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, *fragments: str) -> None:
    lines = err.strip().splitlines()
    assert "Traceback" not in err and "internal error" not in err, err
    assert any(all(fragment in line for fragment in fragments) for line in lines), err


def write(tmp_path: Path, text: str, name: str = "trace.swf") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# --- options out of range: exit 2, the option and its range named ---------------------------

BAD_OPTIONS = [
    (["replay", "{trace}", "--procs", "0"], "--procs", "whole number >= 1", "'0'"),
    (["replay", "{trace}", "--procs", "-5"], "--procs", "whole number >= 1", "'-5'"),
    (["replay", "{trace}", "--procs", "many"], "--procs", "whole number >= 1", "'many'"),
    (["scale", "{trace}", "--load", "-1", "-o", "{out}"], "--load", "> 0", "'-1'"),
    (["scale", "{trace}", "--load", "nan", "-o", "{out}"], "--load", "finite number > 0", "'nan'"),
    (["scale", "{trace}", "--load", "0.5", "--window", "0", "-o", "{out}"], "--window", "> 0", "'0'"),
    (["fit", "{trace}", "--procs", "0", "-o", "{out}"], "--procs", ">= 1", "'0'"),
    (["synth", "builtin:kth-sp2-1996", "--jobs", "0", "--seed", "1", "-o", "{out}"], "--jobs", ">= 1", "'0'"),
    (["synth", "builtin:kth-sp2-1996", "--jobs", "5", "--seed", "-1", "-o", "{out}"], "--seed", ">= 0", "'-1'"),
    (["synth", "builtin:kth-sp2-1996", "--jobs", "5", "--seed", "1", "--load", "inf", "-o", "{out}"], "--load",
     "> 0", "'inf'"),
    (["pair", "{trace}", "{trace}", "--ratio", "2", "-o", "{out}"], "--ratio", "in (0, 1]", "'2'"),
    (["pair", "{trace}", "{trace}", "--window", "-3", "-o", "{out}"], "--window", ">= 0", "'-3'"),
    (["gantt", "{trace}", "-o", "{out}.png", "--hours", "0"], "--hours", "> 0", "'0'"),
    (["cosched", "{trace}", "{trace}", "--procs-a", "0"], "--procs-a", ">= 1", "'0'"),
    (["cosched", "{trace}", "{trace}", "--max-held-share", "1.5"], "--max-held-share", "in (0, 1]", "'1.5'"),
    (["cosched", "{trace}", "{trace}", "--release-period", "0"], "--release-period", "> 0", "'0'"),
    (["cosy", "--jobs", "1"], "--jobs", ">= 2", "'1'"),
    (["cosy", "--share", "1.5"], "--share", "in [0, 1]", "'1.5'"),
    (["cosy", "--regime", "1"], "--regime", ">= 2", "'1'"),
    (["ics", "--nodes", "8"], "--nodes", ">= 32", "'8'"),
    (["ics", "--skew", "1"], "--skew", "in [0, 1)", "'1'"),
    (["ics", "--compression", "0"], "--compression", "> 0", "'0'"),
    (["koala", "--utilization", "0"], "--utilization", "in (0, 1]", "'0'"),
    (["koala", "--sizes", "8,-16"], "--sizes", "whole numbers >= 1", "'8,-16'"),
    (["koala", "--hours", "-1"], "--hours", "> 0", "'-1'"),
    (["bandwidth", "--ppbw", "-1"], "--ppbw", "in [0, 1000]", "'-1'"),
    (["bandwidth", "--ppbw", "1e9"], "--ppbw", "in [0, 1000]", "'1e9'"),
    (["bandwidth", "--information", "2"], "--information", "in [0, 1]", "'2'"),
    (["bandwidth", "--jobs-per-cluster", "1"], "--jobs-per-cluster", ">= 2", "'1'"),
    (["bandwidth", "--load", "0"], "--load", "> 0", "'0'"),
    (["bundle", "create", "--workers", "0"], "--workers", ">= 1", "'0'"),
    (["bundle", "create", "--synthetic-machine-procs", "64,x"], "--synthetic-machine-procs", "whole numbers >= 1",
     "'64,x'"),
]


@pytest.mark.parametrize("argv, option, allowed, given", BAD_OPTIONS, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_an_option_out_of_range_is_a_usage_error_naming_it(tmp_path, capsys, argv, option, allowed, given):
    trace = write(tmp_path, HEADER + "\n".join(GOOD_JOBS) + "\n")
    argv = [a.format(trace=trace, out=tmp_path / "out") for a in argv]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert_one_line_error(err, f"argument {option}", allowed, given)
    assert not (tmp_path / "out").exists()


# --- damaged traces: exit 1, file and line named, no NaN report --------------------------------

def _gzip_truncated(path: Path) -> None:
    path.write_bytes(gzip.compress((HEADER + "\n".join(GOOD_JOBS * 40)).encode())[:-30])


DAMAGED_TRACES = [
    # (kind, the file's text or a function writing it, what the one-line error says)
    ("empty file", "", "no job lines: the trace is empty or has only a header"),
    ("header only", HEADER, "no job lines: the trace is empty or has only a header"),
    ("every job cleaned away", HEADER + job(1, run=0) + "\n" + job(2, 10, status=5, run=-1) + "\n" + job(3, 20, procs=99),
     "no job left after cleaning: 3 in, drop_cancelled_before_start removed 1, drop_nonpositive_runtime removed 1, "
     "drop_nonpositive_size removed 0, drop_oversized removed 1"),
    ("run time 1e300", HEADER + job(1) + "\n" + job(2, 10, run="1e300"), "trace.swf:4: field 4 (run_time) is out of range (|t| < 2**53 s)"),
    ("run time nan", HEADER + job(1) + "\n" + job(2, 10, run="nan"), "trace.swf:4: field 4 (run_time) is not finite"),
    ("submit time beyond int64", HEADER + job(1, "1e19"), "trace.swf:3: field 2 (submit_time) is out of range (|t| < 2**53 s)"),
    ("submit time 9e18, inexact as float64 seconds", HEADER + job(1, "9e18"),
     "trace.swf:3: field 2 (submit_time) is out of range (|t| < 2**53 s)"),
    ("MaxProcs beyond int64", "; MaxProcs: 1" + "0" * 30 + "\n" + job(1), "trace.swf:1: header MaxProcs: 1000"),
    ("processors -7", HEADER + job(1) + "\n" + job(2, 10, procs=-7), "trace.swf:4: field 5 (allocated_procs) is negative"),
    ("truncated line", HEADER + job(1) + "\n2 10 0 100", "trace.swf:4: 4 fields, an SWF job line needs 18"),
    ("text in a number", HEADER + job(1) + "\n" + job(2, "ten"), "trace.swf:4: field 2 (submit_time) is not a number"),
    ("duplicate job id", HEADER + job(1) + "\n" + job(1, 10), "trace.swf:4: duplicate job id 1 (first on line 3)"),
    ("negative submit time", HEADER + job(1, -5), "trace.swf:3: field 2 (submit_time) is negative"),
    ("bad header value", "; MaxProcs: lots\n" + job(1), "trace.swf:1: header MaxProcs: expected an integer"),
    ("binary file", lambda path: path.write_bytes(bytes(range(256)) * 8), "binary content, not an SWF text file"),
    ("corrupt gzip", _gzip_truncated, "corrupt or truncated gzip data"),
    ("directory", lambda path: path.mkdir(), "is a directory, not an SWF trace file"),
    ("missing file", lambda path: None, "no such file"),
    ("CR line endings", "; MaxProcs: 64\r" + job(1) + "\r" + job(2, 10), "lines end in CR alone"),
]


def _writing(path, content) -> None:
    if callable(content):
        content(path)
    else:
        path.write_text(content + "\n")


# info describes a trace with no jobs (or none left after cleaning) instead of refusing it.
DAMAGE_BY_COMMAND = [
    pytest.param(command, kind, content, message, id=f"{command}-{kind}")
    for command in ["replay", "fit", "scale", "pair", "cosched", "info"]
    for kind, content, message in DAMAGED_TRACES
    if not (command == "info" and message.startswith("no job"))
]


@pytest.mark.parametrize("command, kind, content, message", DAMAGE_BY_COMMAND)
def test_a_damaged_trace_is_refused_in_one_line(tmp_path, capsys, command, kind, content, message):
    path = tmp_path / "trace.swf"
    _writing(path, content)
    argv = {
        "replay": [path, "--procs", 64],
        "fit": [path, "--procs", 64, "-o", tmp_path / "m.json"],
        "scale": [path, "--procs", 64, "--load", 0.5, "-o", tmp_path / "s.swf"],
        "pair": [path, path, "--procs-a", 64, "--procs-b", 64, "-o", tmp_path / "p.csv"],
        "cosched": [path, path, "--procs-a", 64, "--procs-b", 64],
        "info": [path],
    }[command]
    code, out, err = run_cli(capsys, command, *argv)
    assert code == 1, (out, err)
    assert "nan" not in out.lower()
    assert_one_line_error(err, f"schedlab {command}: ", message)


def test_the_no_clean_replay_of_an_empty_trace_is_refused_too(tmp_path, capsys):
    code, out, err = run_cli(capsys, "replay", write(tmp_path, HEADER), "--no-clean")
    assert code == 1 and out == ""
    assert_one_line_error(err, "no job lines")


@pytest.mark.parametrize("argv", [
    ["synth", "{binary}", "--jobs", "5", "--seed", "1", "--procs", "8", "-o", "{tmp}/s.swf"],
    ["gantt", "{binary}", "-o", "{tmp}/g.png", "--procs", "8"],
    ["gantt", "{binary}.parquet", "-o", "{tmp}/g.png", "--procs", "8"],
    ["cosy", "--trace", "{binary}"],
    ["info", "{binary}"],
    ["replay", "{binary}"],
])
def test_binary_input_is_refused_in_one_line(tmp_path, capsys, argv):
    binary = tmp_path / "garbage"
    binary.write_bytes(bytes(range(256)) * 8)
    (tmp_path / "garbage.parquet").write_bytes(bytes(range(256)) * 8)
    code, out, err = run_cli(capsys, *[a.format(binary=binary, tmp=tmp_path) for a in argv])
    assert code == 1 and out == ""
    assert_one_line_error(err, "garbage")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="this platform has no FIFOs")
@pytest.mark.parametrize("argv", [
    ["info", "{fifo}"],
    ["replay", "{fifo}"],
    ["fit", "{fifo}", "-o", "{tmp}/m.json"],
    ["sessions", "{fifo}"],
    ["synth", "{fifo}", "--jobs", "5", "--seed", "1", "-o", "{tmp}/s.swf"],
    ["convert", "{fifo}", "-o", "{tmp}/c.swf"],
    ["convert", "--format", "sacct", "{fifo}", "-o", "{tmp}/c.swf"],
    ["convert", "--format", "pbs", "{fifo}", "-o", "{tmp}/c.swf"],
    ["gantt", "{fifo}", "-o", "{tmp}/g.png", "--procs", "8"],
    ["bundle", "verify", "{fifo}"],
])
def test_a_fifo_is_refused_in_one_line_not_waited_on(tmp_path, argv):
    """Issue 69 item 11: a FIFO nothing writes to hung every command (open() waits for a writer)."""
    fifo = tmp_path / "input"
    os.mkfifo(fifo)
    command = [sys.executable, "-m", "schedlab.cli", *[a.format(fifo=fifo, tmp=tmp_path) for a in argv]]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert_one_line_error(done.stderr, f"{fifo}: is not a regular file (a FIFO, device or socket)")


def test_a_schedule_with_text_in_a_time_names_its_line(tmp_path, capsys):
    schedule = write(tmp_path, "job_id,submit,start,end,procs\n1,0,0,10,4\n2,0,soon,10,4\n", "s.csv")
    code, out, err = run_cli(capsys, "gantt", schedule, "-o", tmp_path / "g.png", "--procs", "8")
    assert code == 1
    assert_one_line_error(err, "s.csv:3: start is not a finite number: 'soon'")


def test_a_model_that_is_not_json_names_its_line(tmp_path, capsys):
    model = write(tmp_path, '{\n  "schema": oops\n}\n', "m.json")
    code, out, err = run_cli(capsys, "synth", model, "--jobs", "5", "--seed", "1", "--procs", "8", "-o", tmp_path / "s.swf")
    assert code == 1
    assert_one_line_error(err, "m.json:2: not valid JSON")


# --- a real log with jobs above its header's machine ------------------------------------------------

def test_theta_replays_and_cleaning_drops_its_eight_oversized_jobs_counted(capsys):
    theta = shared_path("traces-extra", "ALCF-Theta-2023H2.swf")
    code, out, err = run_cli(capsys, "-q", "replay", theta, "--policy", "fcfs")
    assert code == 0
    notes = [line for line in err.splitlines() if "ask for more than the machine's 4360 processors" in line]
    assert len(notes) == 1 and notes[0].startswith("note: 8 job(s)") and "up to 4389" in notes[0]
    assert "drop_oversized" in notes[0] and "--procs" in notes[0]
    assert "8401 jobs in, 8393 kept" in err
    assert any(line.split()[:3] == ["drop_oversized", "removed", "8"] for line in err.splitlines())
    assert "simulated 8,393 jobs" in out


# --- one vocabulary: help everywhere, defaults of the quick profile, counts as integers --------------

def _parsers(parser):
    """Every parser under ``parser``, nested subcommands included."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_every_option_of_every_command_has_help():
    missing = [
        f"{parser.prog} {'/'.join(action.option_strings) or action.dest}"
        for parser in _parsers(build_parser())
        for action in parser._actions
        if not action.help and action.dest not in ("help", "command", "action")
    ]
    assert missing == []
    assert len(list(_parsers(build_parser()))) > len(command_names())


def _defaults(command: str) -> dict:
    parser = next(p for p in _parsers(build_parser()) if p.prog == f"schedlab {command}")
    return {action.dest: action.default for action in parser._actions}


def test_one_point_commands_default_to_the_quick_profile():
    # The quick profiles' values, written out here (not read from the code the commands read).
    assert _defaults("ics")["compression"] == 30_000 and _defaults("ics")["jobs"] == 40
    assert _defaults("bandwidth")["jobs_per_cluster"] == 20_000
    assert _defaults("koala")["hours"] == 6.0
    assert _defaults("cosy")["jobs"] == 100
    assert _defaults("cosched")["window"] == 120.0 and _defaults("cosched")["release_period"] == 1200.0


def test_counts_print_as_integers(tmp_path, capsys):
    code, out, err = run_cli(capsys, "cosy", "--jobs", "20")
    assert code == 0
    assert "  jobs " in out and "20.0000" not in out
    assert any(line.split() == ["jobs", "20"] for line in out.splitlines())


def test_pair_cleans_its_input_as_cosched_does(tmp_path, capsys):
    # A's and B's jobs are submitted at the same times, but A's job 2 was cancelled before it started
    # and its job 4 is wider than the machine: cleaning drops both, so 4 of 6 pairs remain.
    a = write(tmp_path, HEADER + "\n".join([job(1, 10), job(2, 20, status=5, run=0), job(3, 30), job(4, 40, procs=99),
                                            job(5, 50), job(6, 60)]) + "\n", "a.swf")
    b = write(tmp_path, HEADER + "\n".join(GOOD_JOBS) + "\n", "b.swf")
    code, out, err = run_cli(capsys, "pair", a, b, "--window", "0", "-o", tmp_path / "p.csv")
    assert code == 0
    assert out.startswith("4 pairs:")
    code, out, err = run_cli(capsys, "cosched", a, b, "--window", "0")
    assert code == 0
    assert any(line.split() == ["pairs", "4"] for line in out.splitlines())


# --- Luigi parameters a user sets: refused at the task's creation, naming the parameter ---------------

def _luigi_tasks():
    from pipeline import FullReport
    from pipeline.synthetic_tasks import SyntheticWorkload
    from pipeline.workload_tasks import PairWorkloads, ScaleTrace, SynthesizeWorkload

    spec = {"kind": "trace", "name": "t"}
    return [
        (lambda: FullReport(synthetic_jobs=1), "FullReport parameter synthetic_jobs", ">= 2"),
        (lambda: FullReport(synthetic_machine_procs=[128, -4]), "FullReport parameter synthetic_machine_procs", ">= 2"),
        (lambda: FullReport(synthetic_seed=-1), "FullReport parameter synthetic_seed", ">= 0"),
        (lambda: SyntheticWorkload(machine_procs=0, n_jobs=5, seed=1), "parameter machine_procs", ">= 2"),
        (lambda: SynthesizeWorkload(model="m", seed=1, n_jobs=10, load=float("nan")), "parameter load", "> 0"),
        (lambda: ScaleTrace(trace="t", target_utilization=-0.5), "parameter target_utilization", "> 0"),
        (lambda: PairWorkloads(a=spec, b=spec, window=-1.0), "parameter window", ">= 0"),
        (lambda: PairWorkloads(a=spec, b=spec, mode="ratio", ratio=1.5), "parameter ratio", "in (0, 1]"),
    ]


@pytest.mark.parametrize("index", range(8))
def test_a_luigi_parameter_out_of_range_is_refused_naming_it(index):
    from schedlab.errors import SchedlabError

    make, name, allowed = _luigi_tasks()[index]
    with pytest.raises(SchedlabError) as raised:
        make()
    assert name in str(raised.value) and allowed in str(raised.value)


def test_info_describes_a_trace_with_no_jobs_instead_of_refusing_it(tmp_path, capsys):
    code, out, err = run_cli(capsys, "info", write(tmp_path, HEADER))
    assert code == 0
    assert "no job lines" in out + err and "nan" not in out.lower()


# --- the machine's problems: exit 1, one line naming the file --------------------------------


def _limit_file_size_to_4_kb() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit then fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_a_full_disk_on_the_command_line_is_one_line_naming_the_file_exit_1(tmp_path):
    """The file size limit (RLIMIT_FSIZE) stands in for a disk that fills while the schedule is written."""
    trace = write(tmp_path, HEADER + "\n".join(job(i, 10 * i) for i in range(1, 400)) + "\n")
    out = tmp_path / "schedule.csv"
    done = subprocess.run(
        [sys.executable, "-m", "schedlab.cli", "replay", str(trace), "--out", str(out)], capture_output=True,
        text=True, timeout=120, preexec_fn=_limit_file_size_to_4_kb, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1] == f"schedlab replay: File too large: {out}"
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert not out.exists() and not list(tmp_path.glob(".schedule*")), "a partial file was left"


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES, errno.EROFS])
def test_no_space_or_no_permission_is_an_environment_error_not_an_internal_one(capsys, monkeypatch, code):
    def refuse(args):
        raise OSError(code, os.strerror(code), "/results/out.csv")

    monkeypatch.setattr("schedlab.commands.info.run", refuse)
    status, _, err = run_cli(capsys, "info", "builtin:kth-sp2-1996")
    assert status == 1 and err == f"schedlab info: {os.strerror(code)}: /results/out.csv\n"


def test_a_replay_without_requested_times_says_its_estimates_are_the_run_times(tmp_path, capsys):
    no_requests = [j.replace(" 200 ", " -1 ") for j in GOOD_JOBS]
    status, out, err = run_cli(capsys, "replay", write(tmp_path, HEADER + "\n".join(no_requests) + "\n"))
    assert status == 0, err
    assert "estimates=actual" in out and "estimates=requested" not in out
    assert "no job has a requested time" in err


def test_negative_times_other_than_minus_one_are_read_with_a_warning(tmp_path, capsys):
    odd = [*GOOD_JOBS[:3], GOOD_JOBS[3].replace("40 0 100", "40 -5 100"), *GOOD_JOBS[4:]]
    status, _, err = run_cli(capsys, "replay", write(tmp_path, HEADER + "\n".join(odd) + "\n"))
    assert status == 0, err
    assert_one_line_error(err, "1 job(s)", "negative field 3 (wait_time)", "-5", "line 6")
