"""A replay's schedule in SWF, Batsim and table form: processor ids, round trips, evalys."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from schedlab.parsers.swf import read_swf
from schedlab.reports.exports import assign_processors, batsim_jobs, interval_text, write_schedule
from schedlab import __version__
from schedlab.cli import main
from schedlab.errors import SchedlabError
from schedlab.simulators.batch.replay import replay
from tests.conftest import random_jobs, shared_path


def schedule_of(rows):
    """A schedule table from (start, end, procs) rows."""
    return pd.DataFrame(
        {
            "job_id": np.arange(1, len(rows) + 1),
            "submit": [0.0] * len(rows),
            "start": [float(r[0]) for r in rows],
            "end": [float(r[1]) for r in rows],
            "procs": [r[2] for r in rows],
            "requested_time": [float(r[1] - r[0]) for r in rows],
            "run_time": [float(r[1] - r[0]) for r in rows],
        }
    )


def test_processors_are_assigned_lowest_free_ids_first_ends_before_starts():
    # 8 processors, by hand: 1 [0,10) x3 takes 0-2; 2 [0,20) x2 takes 3-4; 3 [5,15) x3
    # takes 5-7; 4 [10,30) x3 starts as 1 ends and takes 0-2; 5 [15,25) x2 takes 5-6
    # (3 ended); 6 [20,40) x3 takes 3-4 and 7 (2 ended); 7 [25,30) x2 takes 5-6; at 30 4
    # and 7 end and 8 [30,35) x5 takes 0-2 and 5-6.
    rows = [(0, 10, 3), (0, 20, 2), (5, 15, 3), (10, 30, 3), (15, 25, 2), (20, 40, 3), (25, 30, 2), (30, 35, 5)]
    assigned = assign_processors(schedule_of(rows), 8)
    assert [interval_text(r) for r in assigned] == ["0-2", "3-4", "5-7", "0-2", "5-6", "3-4 7", "5-6", "0-2 5-6"]


def test_an_infeasible_schedule_is_refused():
    with pytest.raises(SchedlabError, match="not feasible"):
        assign_processors(schedule_of([(0, 10, 5), (5, 15, 4)]), 8)


def test_assigned_processors_never_overlap_on_a_replay():
    jobs = random_jobs(np.random.default_rng(7), 400, 20_000, 32, (10, 2_000), 500)
    schedule = replay(jobs, 32, policy="conservative").schedule
    assigned = assign_processors(schedule, 32)
    owner = {}  # processor -> (start, end) intervals held
    for (start, end, procs), ranges in zip(schedule[["start", "end", "procs"]].to_numpy(), assigned):
        ids = [p for first, last in ranges for p in range(first, last + 1)]
        assert len(ids) == procs and all(0 <= p < 32 for p in ids)
        for p in ids:
            for other_start, other_end in owner.get(p, []):
                assert end <= other_start or start >= other_end
            owner.setdefault(p, []).append((start, end))


def test_the_swf_schedule_reparses_with_the_simulated_waits(tmp_path):
    jobs = random_jobs(np.random.default_rng(3), 200, 10_000, 16, (5, 900), 300)
    result = replay(jobs, 16, policy="easy")
    path = tmp_path / "schedule.swf"
    write_schedule(result.schedule, path, "swf", jobs=jobs, machine_procs=16, produced_by="a test")
    trace = read_swf(path)
    schedule = result.schedule
    assert trace.header.max_procs == 16
    assert trace.header.comments[0] == "Schedule produced by a test"
    assert trace.jobs["job_id"].tolist() == schedule["job_id"].tolist()
    np.testing.assert_array_equal(trace.jobs["wait_time"], schedule["start"] - schedule["submit"])
    np.testing.assert_array_equal(trace.jobs["run_time"], schedule["end"] - schedule["start"])
    np.testing.assert_array_equal(trace.jobs["requested_time"], jobs["requested_time"])


def test_the_cli_writes_every_format_and_refuses_a_format_without_a_file(tmp_path, capsys):
    trace = shared_path("traces", "KTH-SP2-1996-2.2.swf")
    for fmt in ("swf", "batsim", "csv", "parquet"):
        assert main(["replay", str(trace), "--procs", "100", "--format", fmt, "--out", str(tmp_path / f"s.{fmt}")]) == 0
    table = pd.read_parquet(tmp_path / "s.parquet")
    assert pd.read_csv(tmp_path / "s.csv").equals(table)
    waits = read_swf(tmp_path / "s.swf").jobs["wait_time"].to_numpy()
    np.testing.assert_array_equal(waits, table["start"] - table["submit"])
    assert pd.read_csv(tmp_path / "s.batsim")["waiting_time"].tolist() == waits.tolist()
    capsys.readouterr()
    assert main(["replay", str(trace), "--format", "swf"]) == 2  # a usage error
    assert "give --out FILE too" in capsys.readouterr().err


def test_a_replay_of_the_columns_as_read_writes_what_a_replay_of_the_table_writes(tmp_path):
    """'schedlab replay --conventions pyss' replays the parser's numpy columns, never a DataFrame."""
    path = shared_path("traces", "KTH-SP2-1996-2.2.swf")
    trace = read_swf(path)
    assert main(["replay", str(path), "--conventions", "pyss", "--out", str(tmp_path / "cli.swf")]) == 0
    from_table = replay(trace.jobs, 100, conventions="pyss")
    write_schedule(from_table.schedule, tmp_path / "table.swf", "swf", jobs=trace.jobs, machine_procs=100,
                   produced_by=f"schedlab {__version__} replay of {path.name} ({from_table.settings()})",
                   workload_name="KTH-SP2-1996-2.2", source_header=trace.header)
    assert (tmp_path / "cli.swf").read_bytes() == (tmp_path / "table.swf").read_bytes()
    from_columns = replay(trace.columns, 100, conventions="pyss")
    pd.testing.assert_frame_equal(from_columns.schedule, from_table.schedule)
    pd.testing.assert_frame_equal(from_columns.series, from_table.series)


def test_evalys_loads_the_batsim_jobs_and_finds_our_utilization(tmp_path):
    pytest.importorskip("evalys", reason="evalys is not installed (pip install evalys, or the test extra)")
    from evalys.jobset import JobSet
    from evalys.metrics import load_mean

    jobs = random_jobs(np.random.default_rng(11), 300, 30_000, 64, (30, 3_000), 600)
    result = replay(jobs, 64, policy="easy")
    path = tmp_path / "jobs.csv"
    pd.DataFrame(batsim_jobs(result.schedule, 64, "random")).to_csv(path, index=False)
    jobset = JobSet.from_csv(str(path), resource_bounds=(0, 63))
    frame = jobset.df
    assert len(frame) == len(jobs) and (frame["proc_alloc"] == result.schedule["procs"].to_numpy()).all()
    first_start, last_end = frame["starting_time"].min(), frame["finish_time"].max()
    area = load_mean(jobset.utilisation) * (last_end - first_start)
    ours = result.metrics["utilization"]
    assert area / (64 * (last_end - frame["submission_time"].min())) == pytest.approx(ours, rel=1e-9)


def test_gantt_draws_a_window_of_any_exported_schedule(tmp_path, capsys):
    jobs = random_jobs(np.random.default_rng(5), 100, 5_000, 16, (10, 900), 100)
    schedule = replay(jobs, 16, policy="easy").schedule
    for fmt, name in (("swf", "s.swf"), ("batsim", "b.csv"), ("parquet", "s.parquet")):
        write_schedule(schedule, tmp_path / name, fmt, jobs=jobs, machine_procs=16, produced_by="a test")
    assert main(["gantt", str(tmp_path / "s.swf"), "-o", str(tmp_path / "g.png"), "--hours", "2"]) == 0
    assert (tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["gantt", str(tmp_path / "b.csv"), "--procs", "16", "-o", str(tmp_path / "b.svg")]) == 0
    assert main(["gantt", str(tmp_path / "s.parquet"), "-o", str(tmp_path / "p.png")]) == 2  # a usage error: give --procs
    assert "give --procs" in capsys.readouterr().err


def test_gantt_refuses_a_schedule_no_machine_could_have_run(tmp_path, capsys):
    """Issue 69 item 11: gantt drew jobs ending before they start, and a bit-flipped Parquet file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    bad = tmp_path / "bad.csv"
    bad.write_text("job_id,submit,start,end,procs\n1,0,10,50,4\n2,0,20,15,4\n")
    assert main(["gantt", str(bad), "--procs", "8", "-o", str(tmp_path / "g.png")]) == 1
    assert capsys.readouterr().err.strip() == (f"schedlab gantt: {bad}: job 2 ends before it starts (submit 0, start 20, "
                                               "end 15, 4 processors)")
    wide = tmp_path / "wide.csv"
    wide.write_text("job_id,submit,start,end,procs\n1,0,10,50,4\n")
    assert main(["gantt", str(wide), "--procs", "3", "-o", str(tmp_path / "g.png")]) == 1
    assert "job 1 needs no processor or more than the machine's 3" in capsys.readouterr().err
    table = pa.table({"job_id": list(range(200)), "submit": [0.0] * 200, "start": [float(i) for i in range(200)],
                      "end": [i + 10.0 for i in range(200)], "procs": [2] * 200})
    flipped = tmp_path / "flipped.parquet"
    pq.write_table(table, flipped, write_page_checksum=True, compression="none")
    data = bytearray(flipped.read_bytes())
    data[len(data) // 3] ^= 0x01  # inside a data page: the values still decode, the checksum does not hold
    flipped.write_bytes(bytes(data))
    assert main(["gantt", str(flipped), "--procs", "8", "-o", str(tmp_path / "f.png")]) == 1
    assert f"schedlab gantt: {flipped}: not a readable Parquet schedule" in capsys.readouterr().err
    assert not (tmp_path / "g.png").exists() and not (tmp_path / "f.png").exists()


def test_an_swf_export_writes_its_own_note_and_keeps_the_inputs_as_a_comment(tmp_path):
    from schedlab.parsers.header import SwfHeader

    jobs = random_jobs(np.random.default_rng(4), 20, 1_000, 8, (5, 90), 30)
    result = replay(jobs, 8, policy="fcfs")
    source = SwfHeader(notes=["The system uses the EASY scheduler"])
    path = tmp_path / "schedule.swf"
    write_schedule(result.schedule, path, "swf", jobs=jobs, machine_procs=8, produced_by="schedlab replay, policy fcfs",
                   source_header=source)
    header = read_swf(path).header
    assert header.notes == ["Schedule simulated by schedlab replay, policy fcfs"]
    assert "Note of the input log: The system uses the EASY scheduler" in header.comments


@pytest.mark.parametrize("fmt", ["csv", "batsim"])
def test_csv_is_written_without_pandas_byte_for_byte_as_pandas_writes_it(tmp_path, fmt):
    from schedlab.reports.exports import whole_seconds_as_integers

    jobs = random_jobs(np.random.default_rng(7), 500, 50_000, 32, (10, 5_000), 900)
    jobs["submit_time"] = jobs["submit_time"] + 0.25 * (jobs["job_id"] % 3)  # fractional times too
    result = replay(jobs, 32, policy="easy")
    columns = dict(result.schedule_columns, recorded_wait=np.where(jobs["job_id"] % 5 == 0, np.nan, 3.5))
    write_schedule(columns, tmp_path / "ours.csv", fmt, jobs=jobs, machine_procs=32, produced_by="a test",
                   workload_name='a "quoted", name')
    table = columns if fmt == "csv" else batsim_jobs(columns, 32, 'a "quoted", name')
    pd.DataFrame(whole_seconds_as_integers(table)).to_csv(tmp_path / "pandas.csv", index=False, lineterminator="\n")
    assert (tmp_path / "ours.csv").read_bytes() == (tmp_path / "pandas.csv").read_bytes()


def test_replay_with_out_imports_no_pandas(tmp_path):
    # Under pyss conventions nothing is cleaned (cleaning reads a job table), so nothing else needs pandas.
    import subprocess
    import sys

    trace = tmp_path / "t.swf"
    trace.write_text("; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n")
    for name in ("s.csv", "s.swf", "b.csv"):
        fmt = ["--format", "batsim"] if name == "b.csv" else []
        probe = ("import sys; from schedlab.cli import main; code = main(['replay', sys.argv[1], '--conventions', 'pyss', '--quiet', '--out', "
                 f"sys.argv[2], *{fmt!r}]); assert code == 0; print('pandas' in sys.modules)")
        done = subprocess.run([sys.executable, "-c", probe, str(trace), str(tmp_path / name)], capture_output=True,
                              text=True, check=True)
        assert done.stdout.strip().splitlines()[-1] == "False", (name, done.stdout, done.stderr)
