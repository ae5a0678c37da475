"""Every command the README shows works as written.

The README's fenced blocks are read from the file itself.  Each block is either run by CI
(``.ci/run`` holds the same command) or run here as a bash script with only its paths made
concrete (``../shared``, ``path/to/``, ``~``, ``/home/me``), in a temporary directory (the pipeline
example with ``--stages '[]'`` added: the stages are CI's builds' to run);
``publish_ledger``'s paper-profile build (about an hour) is run end to end, shrunk, by
``tests/test_publish_ledger.py``.  A block added to the README without a runner fails
``test_every_readme_block_has_a_runner``.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import SHARED, shared_path

ROOT = Path(__file__).resolve().parents[1]


def readme_blocks() -> dict[str, str]:
    """The README's fenced blocks as written, keyed by their text with continued lines joined
    and spaces collapsed."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.M | re.S)
    return {" ".join(block.replace("\\\n", " ").split()): block for block in blocks}


def ci_script() -> str:
    scripts = (ROOT / ".ci" / "run").read_text() + (ROOT / ".ci" / "wheel-check").read_text()
    return " ".join(scripts.replace("\\\n", " ").split())


RUN_BY_CI = {
    "pip install -c constraints.txt -e '.[test]' luigi --module pipeline FullReport --local-scheduler":
        ("pip install -c constraints.txt -e '.[test]'", "luigi --module pipeline FullReport --local-scheduler"),
    "SCHEDLAB_TRACE_DIRS=../shared/traces SCHEDLAB_TRACES=KTH-SP2-1996-2.2,lublin_256 luigi --module pipeline "
    "FullReport --local-scheduler --workers 2":
        ("SCHEDLAB_TRACE_DIRS=../shared/traces SCHEDLAB_TRACES=KTH-SP2-1996-2.2,lublin_256 luigi --module pipeline "
         "FullReport --local-scheduler --workers 2",),
    "pytest": ("pytest",),
}
"""README block -> the commands of it that ``.ci/run`` (or the wheel check it calls) runs."""
RUN_SHRUNK_ELSEWHERE = {
    "SCHEDLAB_TRACE_DIRS=../shared/traces:../shared/traces-extra python -m pipeline.publish_ledger --workers 2":
        "tests/test_publish_ledger.py::test_one_timed_full_report_publishes_the_ledger_and_the_times",
}
RUN_HERE = {
    "cosy_trace_slices": "SCHEDLAB_TRACE_DIRS=../shared/traces luigi --module pipeline.cosy CosyReport --profile quick "
                         "--trace-slices '[\"KTH-SP2-1996-2.2\", \"MetaCentrum-wagap-2013.extended\"]' --local-scheduler",
    "gpu_cluster": "schedlab convert tests/data/sacct_gpu_bottleneck.txt -o jobs.parquet schedlab replay jobs.parquet "
                   "--machine tests/data/small-gpu-cluster.toml --policy easy --out schedule.csv schedlab replay "
                   "jobs.parquet --machine tests/data/small-gpu-cluster.toml --events "
                   "tests/data/small-gpu-cluster-events.toml luigi --module pipeline NodeReport --jobs "
                   "\"$PWD/jobs.parquet\" --machine \"$PWD/tests/data/small-gpu-cluster.toml\" --events "
                   "\"$PWD/tests/data/small-gpu-cluster-events.toml\" --local-scheduler",
    "pyss_replay": "schedlab replay ../shared/traces/KTH-SP2-1996-2.2.swf --procs 100 --policy easy --conventions pyss "
                   "--out easy.csv",
    "own_policy": "cp examples/policies/largest_first.py ~/my_policy.py cd ~ && schedlab replay "
                  "path/to/KTH-SP2-1996-2.2.swf --procs 100 --policy my_policy.py:LargestFirstEasy --out largest.swf "
                  "--format swf schedlab gantt largest.swf -o largest.png --start 2000000 --hours 48",
    "own_policy_in_the_pipeline": "luigi --module pipeline FullReport --local-scheduler --policies "
                                  "'[\"easy\", \"/home/me/my_policy.py:LargestFirstEasy\"]'",
}  # fmt: skip


def test_every_readme_block_has_a_runner():
    assert sorted(readme_blocks()) == sorted([*RUN_BY_CI, *RUN_SHRUNK_ELSEWHERE, *RUN_HERE.values()])
    ci = ci_script()
    for commands in RUN_BY_CI.values():
        for command in commands:
            assert command in ci, f"the README's {command!r} is not run by .ci/run"
    for test in RUN_SHRUNK_ELSEWHERE.values():
        path, _, name = test.partition("::")
        assert f"def {name}(" in (ROOT / path).read_text()


def run_block(name: str, home: Path, *extra: str) -> subprocess.CompletedProcess:
    """The README block ``name`` as written, with its paths made concrete and ``extra`` arguments
    appended to its last command, run by bash in ``home`` (also ``~``)."""
    block = readme_blocks()[RUN_HERE[name]]
    script = (block.replace("../shared", str(SHARED)).replace("path/to/", f"{SHARED}/traces/")
              .replace("/home/me/", f"{home}/").replace("examples/", f"{ROOT}/examples/")
              .replace(" tests/data/", f" {ROOT}/tests/data/").replace("$PWD/tests/data/", f"{ROOT}/tests/data/"))
    script = script.rstrip() + "".join(f" {argument}" for argument in extra)
    env = {**os.environ, "HOME": str(home), "SCHEDLAB_WORK_DIR": str(home / "work")}
    return subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=home, env=env, capture_output=True,
                          text=True, timeout=900)


def test_the_pyss_replay_example_writes_its_schedule(tmp_path):
    shared_path("traces", "KTH-SP2-1996-2.2.swf")
    done = run_block("pyss_replay", tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert len((tmp_path / "easy.csv").read_text().splitlines()) > 28_000  # KTH-SP2's jobs, one row each


def test_the_gpu_cluster_example_converts_replays_and_builds_its_page(tmp_path):
    done = run_block("gpu_cluster", tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "mean_wait             2,088                0" in done.stdout
    assert "event: failure of 1 gpu node(s) from 600 s to 7800 s: 1 job(s) killed, 1 requeued" in done.stdout
    assert (tmp_path / "schedule.csv").is_file() and list((tmp_path / "work" / "NodeReport").glob("*/report.html"))


def test_the_own_policy_example_replays_and_draws(tmp_path):
    shared_path("traces", "KTH-SP2-1996-2.2.swf")
    done = run_block("own_policy", tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "my_policy.py").is_file() and (tmp_path / "largest.swf").stat().st_size > 0
    assert (tmp_path / "largest.png").read_bytes()[:4] == b"\x89PNG"


def test_the_own_policy_runs_in_the_pipeline(tmp_path):
    (tmp_path / "my_policy.py").write_text((ROOT / "examples" / "policies" / "largest_first.py").read_text())
    # The stages are CI's builds' to run; the policy's part is the replays and the pages.
    done = run_block("own_policy_in_the_pipeline", tmp_path, "--stages '[]'", "--synthetic-jobs 300")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    metrics = next((tmp_path / "work" / "TraceReport").glob("*/metrics.csv")).read_text()
    assert "my_policy.py:LargestFirstEasy" in metrics


@pytest.mark.shared
def test_the_cosy_trace_slices_example_builds_its_report(tmp_path):
    shared_path("traces", "MetaCentrum-wagap-2013.extended.swf")
    done = run_block("cosy_trace_slices", tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    page = next((tmp_path / "work" / "CosyReport").glob("*/index.md")).read_text()
    assert "KTH-SP2-1996-2.2" in page and "MetaCentrum-wagap-2013.extended" in page
