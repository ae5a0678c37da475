"""Cached outputs prove their bytes: a truncated, deleted, flipped or edited file never feeds a result.

Each damage is made by hand on a real output (bytes changed with the file's size and time kept,
as bit rot would), and the check is what the pipeline does with it: run the task again, or refuse
the file with its path.
"""

import hashlib
import json
import os
import random

import luigi
import pandas as pd
import pytest

from pipeline.base import SchedlabTask
from schedlab.output_digests import DamagedOutput, damage


class WritesTables(SchedlabTask):
    rows = luigi.IntParameter()

    def run(self):
        frame = pd.DataFrame({"job": range(self.rows), "wait": [1.5 * i for i in range(self.rows)]})
        with self.writing_output() as directory:
            frame.to_csv(directory / "runs.csv", index=False)
            frame.to_parquet(directory / "schedule.parquet", index=False)
            (directory / "figures").mkdir()
            (directory / "figures" / "wait.txt").write_text("a figure")


def rewrite_keeping_size_and_time(path, change):
    """Change a file's bytes in place as bit rot would: same size, same modification time."""
    status = path.stat()
    data = bytearray(path.read_bytes())
    change(data)
    path.write_bytes(bytes(data))
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))


def built(rows=50) -> WritesTables:
    task = WritesTables(rows=rows)
    task.run()
    assert task.complete()
    return task


def test_task_json_records_size_and_digest_of_every_file_written(work_dir):
    task = built()
    outputs = json.loads((task.output_dir() / "task.json").read_text())["outputs"]
    assert sorted(outputs) == ["figures/wait.txt", "runs.csv", "schedule.parquet"]
    assert outputs["figures/wait.txt"] == {"bytes": 8, "sha256": hashlib.sha256(b"a figure").hexdigest()}
    assert damage(task.output_dir(), outputs) == []


def test_a_changed_digit_is_refused_with_the_file_named(work_dir):
    task = built()
    path = task.output_dir() / "runs.csv"
    text = path.read_text()
    rewrite_keeping_size_and_time(path, lambda data: data.__setitem__(slice(len(data) - 2, len(data) - 1), b"7"))
    assert path.read_text() != text
    assert not task.complete()  # the build runs the task again: its new output replaces the damaged one
    with pytest.raises(DamagedOutput, match=r"runs\.csv: damaged cached output: its SHA-256 differs"):
        task.output_file("runs.csv")  # and nothing reads the changed file meanwhile
    task.run()
    assert task.complete() and task.output_file("runs.csv").read_text() == text


def test_a_truncated_or_deleted_file_makes_the_task_run_again_and_replaces_the_output(work_dir):
    for damage_file in (lambda p: p.write_bytes(p.read_bytes()[:-10]), lambda p: p.unlink()):
        task = built()
        damage_file(task.output_dir() / "schedule.parquet")
        assert not task.complete()
        task.run()
        assert task.complete()
        assert damage(task.output_dir(), json.loads((task.output_dir() / "task.json").read_text())["outputs"]) == []
        assert [p.name for p in task.output_dir().parent.iterdir()] == [task.output_dir().name]


def test_an_output_without_a_record_is_not_complete(work_dir):
    task = built()
    (task.output_dir() / "task.json").unlink()
    assert not task.complete()
    with pytest.raises(DamagedOutput, match="no task.json"):
        task.output_file("runs.csv")


@pytest.mark.parametrize("field, change", [
    ("parameters", lambda record: record["parameters"].update(rows="51")),
    ("environment", lambda record: record["environment"].update(pandas="0.0.1")),
    ("outputs", lambda record: record["outputs"]["runs.csv"].update(sha256="0" * 64)),
    ("key", lambda record: record.update(key="0" * 16)),
])
def test_an_edited_record_is_no_record_and_the_task_runs_again(work_dir, field, change):
    """Issue 69 item 7: task.json is sealed, so a digit edited in it is seen (the provenance table is built from it)."""
    task = built()
    path = task.output_dir() / "task.json"
    record = json.loads(path.read_text())
    change(record)
    path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    assert not task.complete()
    with pytest.raises(DamagedOutput, match="task.json (was changed after it was written|is the record of another)"):
        task.record()
    with pytest.raises(DamagedOutput, match=r"runs\.csv: "):
        task.output_file("runs.csv")
    task.run()
    assert task.complete() and task.record()["parameters"]["rows"] == "50"


def test_swapped_or_copied_directories_are_refused_and_rebuilt_with_their_own_results(work_dir):
    """Issue 69 item 2: two outputs of one family swapped (FCFS's and conservative's, say) read as no record."""
    import shutil

    first, second = built(50), built(60)
    a, b = first.output_dir(), second.output_dir()
    a.rename(a.with_name("swap")), b.rename(a), a.with_name("swap").rename(b)
    for task in (first, second):
        assert not task.complete()
        with pytest.raises(DamagedOutput, match="is the record of another task"):
            task.output_file("runs.csv")
        task.run()
        assert len(pd.read_csv(task.output_file("runs.csv"))) == task.rows
    shutil.rmtree(b)
    shutil.copytree(a, b)  # a copy under another task's name
    assert not second.complete()
    assert damage(b, None) == [f"task.json is the record of another task (key {first.task_key()}): the directory "
                               "was copied, renamed or swapped"]


def test_every_single_bit_flip_in_a_parquet_file_is_caught(work_dir):
    task = built(rows=400)
    path = task.output_dir() / "schedule.parquet"
    original = path.read_bytes()
    flips = random.Random(7).sample(range(8 * len(original)), 200)
    for bit in flips:
        rewrite_keeping_size_and_time(path, lambda data: data.__setitem__(bit // 8, data[bit // 8] ^ (1 << bit % 8)))
        with pytest.raises(DamagedOutput, match=r"schedule\.parquet"):
            task.output_file("schedule.parquet")
        path.write_bytes(original)


def test_a_file_added_after_the_write_is_reported(work_dir):
    task = built()
    (task.output_dir() / "extra.csv").write_text("x\n")
    outputs = json.loads((task.output_dir() / "task.json").read_text())["outputs"]
    assert damage(task.output_dir(), outputs) == ["extra.csv: not written by its task"]
    with pytest.raises(DamagedOutput, match="not a file its task wrote"):
        task.output_file("extra.csv")
    assert not task.complete()  # a page listing its directory would show it: the task runs again
    task.run()
    assert task.complete() and not (task.output_dir() / "extra.csv").exists()


def test_verify_cache_lists_each_damaged_output_and_removes_it_on_request(work_dir, capsys):
    from schedlab.cli import main

    intact, edited, truncated = built(10), built(20), built(30)
    rewrite_keeping_size_and_time(edited.output_dir() / "runs.csv", lambda data: data.__setitem__(-2, ord("9")))
    (truncated.output_dir() / "schedule.parquet").write_bytes(b"PAR1")
    assert main(["verify-cache", "--work-dir", str(work_dir)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"WritesTables/{edited.output_dir().name}: runs.csv: its SHA-256 differs from the one "
                      "recorded when it was written (same size: changed in place)")
    assert out[1].startswith(f"WritesTables/{truncated.output_dir().name}: schedule.parquet: 4 bytes where ")
    assert out[-1].endswith("2 damaged (--remove-damaged removes them)")

    assert main(["verify-cache", "--work-dir", str(work_dir), "--remove-damaged"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("2 damaged, removed (the next build recomputes them)")
    assert [p.name for p in (work_dir / "WritesTables").iterdir()] == [intact.output_dir().name]
    assert main(["verify-cache", "--work-dir", str(work_dir)]) == 0
    assert capsys.readouterr().out.strip().endswith("every file as its task wrote it")


def test_verify_cache_lists_links_where_outputs_belong_and_a_dangling_latest(work_dir, capsys):
    """Issue 69 item 9: a symlinked output directory was invisible to verify-cache."""
    from schedlab.cli import main

    first, second = built(10), built(20)
    family = work_dir / "WritesTables"
    second.output_dir().rename(work_dir / "elsewhere")
    second.output_dir().symlink_to(work_dir / "elsewhere", target_is_directory=True)
    (family / "latest").symlink_to("gone", target_is_directory=True)
    assert main(["verify-cache", "--work-dir", str(work_dir)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"WritesTables/latest: a link (dangling: gone) where the newest output belongs" in out
    assert f"WritesTables/{second.output_dir().name}: a link (an output: {work_dir / 'elsewhere'}) where an output directory belongs" in out
    assert main(["verify-cache", "--work-dir", str(work_dir), "--remove-damaged"]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in family.iterdir()) == [first.output_dir().name]
    (family / "latest").symlink_to(first.output_dir().name, target_is_directory=True)  # a family's newest: fine
    assert main(["verify-cache", "--work-dir", str(work_dir)]) == 0


def test_a_build_finding_its_report_complete_repairs_a_dangling_latest(work_dir):
    from pipeline import FullReport

    report = FullReport(stages=[], synthetic_jobs=60, synthetic_machine_procs=[16])
    assert luigi.build([report], local_scheduler=True, workers=1, log_level="WARNING")
    latest = work_dir / "FullReport" / "latest"
    latest.unlink()
    latest.symlink_to("gone", target_is_directory=True)
    assert luigi.build([report], local_scheduler=True, workers=1, log_level="WARNING")
    assert latest.resolve() == report.output_dir().resolve()
