"""kill -9 in the middle of a run: no complete-looking output is left, and the next run resumes.

1. A task killed while writing its output directory leaves only a hidden staging
   directory; the task is not complete, and a rerun writes the whole output and removes
   the staging directory the killed writer left.
2. A small FullReport killed after some of its tasks finished: the rerun reuses what
   finished and runs only the rest.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from pipeline.cleanup import task_outputs

from tests.conftest import no_traces

REPOSITORY = Path(__file__).resolve().parents[1]

SLOW_WRITER = textwrap.dedent(
    '''
    """A task that writes two files, pausing between them when told to (outside its parameters)."""
    import os
    import time
    from pathlib import Path

    from pipeline.base import SchedlabTask


    class TwoFileWrite(SchedlabTask):
        def run(self):
            with self.writing_output() as directory:
                (directory / "first.txt").write_text("first half\\n")
                if os.environ.get("PAUSE_MARKER"):
                    Path(os.environ["PAUSE_MARKER"]).touch()
                    time.sleep(120)
                (directory / "second.txt").write_text("second half\\n")
    '''
)


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, **extra}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "modules"), str(REPOSITORY)])
    env["SCHEDLAB_WORK_DIR"] = str(tmp_path / "work")
    env["SCHEDLAB_TRACE_DIRS"] = no_traces(tmp_path)
    env.pop("SCHEDLAB_TRACES", None)
    return env


def luigi(module: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "luigi", "--module", module, *args, "--local-scheduler", "--log-level", "INFO"]


def wait_for(condition, what: str, process: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert process.poll() is None, f"the run ended before {what}"
        assert time.monotonic() < deadline, f"no {what} within {timeout} s"
        time.sleep(0.05)


def kill_hard(process: subprocess.Popen) -> None:
    """kill -9 the build and the workers Luigi forked for its tasks (its process group: a crash of the machine)."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def finished_outputs(work: Path) -> set[Path]:
    return set(task_outputs(work).values()) if work.is_dir() else set()


def test_a_task_killed_mid_write_leaves_no_complete_looking_output(tmp_path):
    (tmp_path / "modules").mkdir()
    (tmp_path / "modules" / "slow_writer.py").write_text(SLOW_WRITER)
    marker = tmp_path / "half-written"
    run = subprocess.Popen(
        luigi("slow_writer", "TwoFileWrite"), cwd=tmp_path, env=environment(tmp_path, PAUSE_MARKER=str(marker)),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    wait_for(marker.exists, "half-written output", run)
    kill_hard(run)

    family = tmp_path / "work" / "TwoFileWrite"
    assert finished_outputs(tmp_path / "work") == set(), "a killed write left an output that looks complete"
    staging = [path for path in family.iterdir() if path.name.startswith(".")]
    assert len(staging) == 1 and (staging[0] / "first.txt").exists() and not (staging[0] / "task.json").exists()

    rerun = subprocess.run(luigi("slow_writer", "TwoFileWrite"), cwd=tmp_path, env=environment(tmp_path),
                           capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    (output,) = finished_outputs(tmp_path / "work")
    assert sorted(path.name for path in output.iterdir()) == ["first.txt", "second.txt", "task.json"]
    assert sorted(path.name for path in family.iterdir()) == [output.name], "the killed write's staging directory stayed"


def test_a_killed_full_report_resumes_where_it_stopped(tmp_path):
    (tmp_path / "modules").mkdir()
    report = ["FullReport", "--stages", "[]", "--synthetic-jobs", "400", "--synthetic-machine-procs", "[16, 32]"]
    run = subprocess.Popen(luigi("pipeline", *report), cwd=tmp_path, env=environment(tmp_path),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    replays = tmp_path / "work" / "ReplayTrace"
    wait_for(lambda: replays.is_dir() and len(finished_outputs(tmp_path / "work")) >= 3, "finished replay", run)
    kill_hard(run)
    before = finished_outputs(tmp_path / "work")
    assert not (tmp_path / "work" / "FullReport").exists() or not any(
        path.name[0] != "." for path in (tmp_path / "work" / "FullReport").iterdir()
    )

    rerun = subprocess.run(luigi("pipeline", *report), cwd=tmp_path, env=environment(tmp_path),
                           capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    after = finished_outputs(tmp_path / "work")
    ran = int(re.search(r"\* (\d+) ran successfully", rerun.stderr).group(1))
    print(f"\nkilled after {len(before)} of {len(after)} tasks had finished; the rerun ran {ran}")
    assert before < after and ran == len(after - before)
    assert f"{len(before)} complete ones were encountered" in rerun.stderr, rerun.stderr[-3000:]
