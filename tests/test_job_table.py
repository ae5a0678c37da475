"""The job table file (Parquet or CSV with named columns): what SWF cannot hold survives a round trip,
and a damaged file is refused naming the file and line (issue 65, item 1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from schedlab.cli import main
from schedlab.errors import InputError
from schedlab.parsers.accounting import read_pbs, read_sacct
from schedlab.parsers.job_table import read_job_table, resources_from_swf, write_job_table
from schedlab.parsers.resources import RESOURCE_COLUMNS
from schedlab.parsers.schema import SWF_FIELDS

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("suffix", ["parquet", "csv"])
@pytest.mark.parametrize("convert", [lambda: read_sacct(DATA / "sacct_gpu.txt"), lambda: read_pbs(DATA / "pbs_gpu.log")],
                         ids=["sacct", "pbs"])
def test_a_converted_log_round_trips_with_its_resources_and_header(tmp_path, suffix, convert):
    conversion = convert()
    path = tmp_path / f"jobs.{suffix}"
    write_job_table(path, conversion.jobs, conversion.header)
    jobs, header = read_job_table(path)
    assert list(jobs.columns) == [*SWF_FIELDS, *RESOURCE_COLUMNS]
    assert jobs.equals(conversion.jobs) and list(jobs.dtypes) == list(conversion.jobs.dtypes)
    assert header == conversion.header


def test_a_csv_job_table_is_readable_by_any_tool_and_says_its_unknowns(tmp_path):
    import pandas as pd

    conversion = read_sacct(DATA / "sacct_gpu.txt")
    path = tmp_path / "jobs.csv"
    write_job_table(path, conversion.jobs, conversion.header)
    plain = pd.read_csv(path, comment="#")
    assert plain["gpus"].tolist() == [2, 0, 4, 1, 8]
    assert plain.loc[4, "wait_time"] == -1  # cancelled before it started


def test_a_table_with_no_resource_columns_reads_them_as_unknown(tmp_path):
    path = tmp_path / "plain.csv"
    path.write_text(",".join(SWF_FIELDS) + "\n" + ",".join(["1"] + ["0"] * 17) + "\n")
    jobs, _ = read_job_table(path)
    assert jobs.loc[0, ["nodes", "gpus", "memory_per_node_mb", "partition", "requeues"]].tolist() == [-1, -1, -1.0, "", 0]


@pytest.mark.parametrize("edit, message", [
    (lambda text: text.replace(",gpus,", ",gpus_count,"), None),  # an unknown column is kept, gpus then unknown
    (lambda text: text.replace("job_id,", "id,"), "not a job table: no column job_id"),
    (lambda text: text.replace("\n3,7200.0,300.0,", "\n3,soon,300.0,"), ":18: submit_time is not a number: 'soon'"),
    (lambda text: text.replace("\n3,7200.0,300.0,7200.0,16,", "\n3,7200.0,300.0,7200.0,16.5,"),
     ":18: allocated_procs must be a whole number: '16.5'"),
    (lambda text: text.replace("# MaxProcs: 32", "# MaxProcs: lots"), ":9: header: "),
])
def test_a_damaged_csv_is_refused_naming_file_and_line(tmp_path, edit, message):
    conversion = read_sacct(DATA / "sacct_gpu.txt")
    path = tmp_path / "jobs.csv"
    write_job_table(path, conversion.jobs, conversion.header)
    path.write_text(edit(path.read_text()))
    if message is None:
        jobs, _ = read_job_table(path)
        assert (jobs["gpus"] == -1).all() and "gpus_count" in jobs.columns
        return
    with pytest.raises(InputError, match=str(path).replace(".", r"\.") + ".*" + message.replace("(", r"\(")):
        read_job_table(path)


def test_swf_gives_the_job_table_its_memory_per_core():
    import pandas as pd

    jobs = pd.DataFrame({name: [1, 2] for name in SWF_FIELDS}).assign(requested_memory=[2048.0, -1.0])
    table = resources_from_swf(jobs)
    assert table["memory_per_core_mb"].tolist() == [2.0, -1.0] and (table["gpus"] == -1).all()


def test_convert_writes_the_job_table_or_says_what_swf_drops(tmp_path, capsys):
    assert main(["convert", str(DATA / "sacct_gpu.txt"), "-o", str(tmp_path / "jobs.parquet")]) == 0
    assert read_job_table(tmp_path / "jobs.parquet")[0]["gpus"].tolist() == [2, 0, 4, 1, 8]
    capsys.readouterr()
    assert main(["convert", str(DATA / "sacct_gpu.txt"), "-o", str(tmp_path / "jobs.swf")]) == 0
    err = capsys.readouterr().err
    assert "warning: SWF cannot hold 4 jobs' GPUs, 5 jobs' node counts, 5 jobs' memory requests" in err
    assert not np.isnan(read_sacct(DATA / "sacct_small.txt").jobs["nodes"]).any()
