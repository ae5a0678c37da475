"""A researcher's own policy, named by reference: the shipped example, bad references, the CLI."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from schedlab.cli import main
from schedlab.simulators.batch.replay import replay
from tests.conftest import make_jobs, random_jobs, shared_path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "policies" / "largest_first.py"

# A 10-processor machine, busy until t=100 with job 1; then 2 (3 procs, 10 s),
# 3 (8 procs, 50 s) and 4 (5 procs, 20 s) wait, in that order.
#
# EASY, arrival order: at 100, 2 starts (3 procs); 3 does not fit in 7 and gets the
# reservation t=110 (when 2 ends, 10 free); 4 (5 procs to 120) would leave 3 only 5 at
# 110: no backfill.  3 starts at 110, 4 at 160 when 3 ends.
#
# Largest first: at 100 the queue is 3, 4, 2.  3 starts (8 procs); 4 does not fit in 2
# and gets the reservation t=150; 2 (3 procs) does not fit in 2 now.  At 150 3 ends:
# 4 (5) and 2 (3) start.
HAND_WORKED = make_jobs([(0, 10, 100, 100), (1, 3, 10, 10), (2, 8, 50, 50), (3, 5, 20, 20)])
EASY_STARTS = [0, 100, 110, 160]
LARGEST_FIRST_STARTS = [0, 150, 100, 150]


def test_the_example_policy_on_a_hand_worked_case():
    assert replay(HAND_WORKED, 10, policy="easy").schedule["start"].tolist() == EASY_STARTS
    result = replay(HAND_WORKED, 10, policy=f"{EXAMPLE}:LargestFirstEasy")
    assert result.schedule["start"].tolist() == LARGEST_FIRST_STARTS
    assert result.parameters["policy"] == f"{EXAMPLE}:LargestFirstEasy"


def test_a_policy_named_by_module_is_the_built_in_one():
    by_name = replay(HAND_WORKED, 10, policy="easy").schedule
    by_module = replay(HAND_WORKED, 10, policy="schedlab.simulators.batch.easy:EasyBackfilling").schedule
    assert by_module.equals(by_name)


@pytest.fixture
def plugin_dir(tmp_path):
    """Plugin files in a fresh directory; their modules are forgotten afterwards, as a new
    process would (one process holds one module per file name)."""
    (tmp_path / "broken.py").write_text("import no_such_module_anywhere\n")
    (tmp_path / "plain.py").write_text("class NotAPolicy:\n    pass\n\ndef order(machine, t):\n    return []\n")
    yield tmp_path
    for name in ("broken", "plain", "orders", "ranking", "ranked"):
        sys.modules.pop(name, None)
    if str(tmp_path) in sys.path:
        sys.path.remove(str(tmp_path))


@pytest.mark.parametrize(
    "reference, message",
    [
        ("missing.py:Policy", "no such file missing.py"),
        ("{dir}/plain.py:Absent", "defines no 'Absent'"),
        ("{dir}/plain.py:NotAPolicy", "not a policy (a class with a schedule(machine, t, submitted, ended) method)"),
        ("{dir}/plain.py:order", "not a policy"),
        ("{dir}/broken.py:Policy", "importing broken failed: ModuleNotFoundError"),
        ("largest", "unknown policy 'largest': use one of fcfs, easy, conservative"),
        ("{dir}/plain.py:not-a-name", "expected path/to/file.py:Name or package.module:Name"),
        ("no.such.module:Policy", "importing no.such.module failed"),
    ],
)
def test_a_bad_reference_is_a_one_line_error_naming_what_is_wrong(plugin_dir, capsys, reference, message):
    trace = plugin_dir / "t.swf"
    trace.write_text("; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n")
    code = main(["replay", str(trace), "--no-clean", "--policy", reference.format(dir=plugin_dir)])
    error = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(error) == 1 and error[0].startswith("schedlab replay: ") and message in error[0], error


def test_a_queue_order_plugs_in_the_same_way(plugin_dir, capsys):
    (plugin_dir / "orders.py").write_text(
        "def widest(machine, t):\n    return sorted(machine.queue, key=lambda j: -machine.procs[j])\n"
    )
    widest = replay(HAND_WORKED, 10, policy="easy", order=f"{plugin_dir}/orders.py:widest").schedule
    assert widest["start"].tolist() == LARGEST_FIRST_STARTS
    trace = plugin_dir / "t.swf"
    trace.write_text("; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n")
    assert main(["replay", str(trace), "--no-clean", "--order", f"{plugin_dir}/plain.py:NotAPolicy"]) == 1
    assert "not a queue order" in capsys.readouterr().err


def test_the_cli_replays_a_copy_of_the_example_from_outside_the_repository(tmp_path):
    trace = shared_path("traces", "KTH-SP2-1996-2.2.swf")
    shutil.copy(EXAMPLE, tmp_path / "my_policy.py")
    done = subprocess.run(
        [sys.executable, "-m", "schedlab.cli", "replay", str(trace), "--procs", "100",
         "--policy", "my_policy.py:LargestFirstEasy"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"policy={tmp_path / 'my_policy.py'}:LargestFirstEasy" in done.stdout
    assert re.search(r"^\s+jobs\s+28,481$", done.stdout, re.MULTILINE), done.stdout


def test_a_plugins_key_covers_the_modules_it_imports_beside_it(plugin_dir):
    from pipeline import base
    from pipeline.replay_tasks import ReplayTrace

    (plugin_dir / "ranking.py").write_text("def width(machine, job):\n    return -machine.procs[job]\n")
    (plugin_dir / "ranked.py").write_text(
        "from ranking import width\nfrom schedlab.simulators.batch.easy import EasyBackfilling\n\n"
        "class Ranked(EasyBackfilling):\n"
        "    def __init__(self, order):\n"
        "        super().__init__(lambda machine, t: sorted(order(machine, t), key=lambda j: width(machine, j)))\n"
    )

    def versions():
        base.module_code_version.cache_clear()
        base.project_imports.cache_clear()
        return ReplayTrace(trace="any", policy=f"{plugin_dir}/ranked.py:Ranked").code_versions()

    first = versions()
    assert {"ranked", "ranking", "schedlab.simulators.batch.easy", "schedlab.simulators.batch.replay"} <= set(first)
    assert "schedlab.simulators.batch.conservative" not in first
    helper = plugin_dir / "ranking.py"
    helper.write_text("# widest first\n" + helper.read_text())
    assert versions() == first
    helper.write_text(helper.read_text().replace("-machine", "machine"))
    assert versions()["ranking"] != first["ranking"]


DOCS = Path(__file__).resolve().parents[1] / "docs" / "policies.md"
DOCS_EXAMPLE_MARK = "<!-- example: shortest_first_easy.py -->"
DOCS_PRIORITY_MARK = "<!-- example: shortest_first_priority.py -->"


def docs_example(directory: Path, name: str, mark: str = DOCS_EXAMPLE_MARK) -> Path:
    """A worked example of docs/policies.md, as the file ``name``.py (a module name of its own per
    test: one process loads each file module once): the Python block after its ``mark``."""
    text = DOCS.read_text(encoding="utf-8")
    block = re.search(re.escape(mark) + r"\s*```python\n(.*?)```", text, re.S)
    if block is None:
        raise AssertionError(f"docs/policies.md has no Python block after {mark}")
    path = directory / f"{name}.py"
    path.write_text(block.group(1), encoding="utf-8")
    return path


def test_the_docs_worked_example_is_easy_with_the_sjf_order_job_for_job(tmp_path):
    example = docs_example(tmp_path, "docs_example_random")
    jobs = random_jobs(np.random.default_rng(11), 2_000, 200_000, 64, (10, 20_000), 5_000)
    ours = replay(jobs, 64, policy=f"{example}:ShortestFirstEasy").schedule
    built_in = replay(jobs, 64, policy="easy", order="sjf").schedule
    np.testing.assert_array_equal(ours["start"], built_in["start"])


def test_the_docs_worked_example_matches_on_kth(tmp_path):
    from schedlab.parsers.swf import read_swf

    jobs = read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf")).jobs
    example = docs_example(tmp_path, "docs_example_kth")
    # The pyss conventions: a pass after every event, and the log's jobs as they are.
    ours = replay(jobs, 100, policy=f"{example}:ShortestFirstEasy", conventions="pyss").schedule
    built_in = replay(jobs, 100, policy="easy", order="sjf", conventions="pyss").schedule
    np.testing.assert_array_equal(ours["start"], built_in["start"])


def test_the_docs_priority_example_is_easy_with_the_sjf_order_on_kth_on_the_compiled_loop(tmp_path):
    from schedlab.parsers.swf import read_swf

    jobs = read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf")).jobs
    example = docs_example(tmp_path, "docs_priority_kth", DOCS_PRIORITY_MARK)
    ours = replay(jobs, 100, policy=f"{example}:ShortestFirstEasy", conventions="pyss", engine="compiled").schedule
    built_in = replay(jobs, 100, policy="easy", order="sjf", conventions="pyss").schedule
    assert ours.equals(built_in)


def test_a_policy_that_keeps_a_stale_promise_is_told_the_rule_in_one_line(tmp_path, capsys):
    # The worked example without rule 2: an overtaken job keeps a promise it can no longer be given.
    example = docs_example(tmp_path, "docs_example_forgetful")
    source = example.read_text()
    forgetful = re.sub(r"        # Rule 2:.*?\n(        # Start jobs)", r"\1", source, flags=re.S)
    assert forgetful != source and "math.inf" not in forgetful
    example.write_text(forgetful)
    jobs = random_jobs(np.random.default_rng(11), 2_000, 200_000, 64, (10, 20_000), 5_000)
    trace = tmp_path / "jobs.swf"
    from schedlab.parsers.swf import write_swf
    write_swf(trace, jobs)
    code = main(["replay", str(trace), "--procs", "64", "--policy", f"{example}:ShortestFirstEasy"])
    err = capsys.readouterr().err.splitlines()[-1]  # after the cleaning summary, the error: one line
    assert code == 1, err
    assert re.match(r"schedlab replay: policy .*docs_example_forgetful\.py:ShortestFirstEasy broke the rule "
                    r"'a promised job starts by its promise': \d+ job\(s\) started late, the first job \d+, promised "
                    r"t=.* s, started t=.* s; withdraw a promise \(machine\.promised\[job\] = math\.inf\)", err), err
