"""A bad parameter on the ``luigi`` command line is one line on stderr and exit code 2, before
anything runs, as with the ``schedlab`` command (pipeline.console)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("arguments, message", [
    (["FullReport", "--synthetic-jobs", "-5"], "luigi: FullReport parameter synthetic_jobs: must be a whole number >= 2, got '-5'"),
    (["FullReport", "--synthetic-jobs", "abc"], "luigi: --synthetic-jobs: invalid literal for int() with base 10: 'abc'"),
    (["FullReport", "--stages", '["nosuch"]'],
     "luigi: FullReport parameter stages: must be one of cosched, ics, cosy, koala, bandwidth, got 'nosuch'"),
    (["FullReport", "--stages", "nosuch"], "luigi: --stages: "),
    (["FullReport", "--estimates", "bogus"],
     "luigi: FullReport parameter estimates: must be one of requested, actual, got 'bogus'"),
    (["FullReport", "--policies", "[]"], "luigi: FullReport parameter policies: must name at least one, got []"),
    (["FullReport", "--synthetic-machine-procs", "[]"],
     "luigi: FullReport parameter synthetic_machine_procs: must name at least one, got []"),
    (["FullReport", "--synthetic-machine-procs", "[1]"],
     "luigi: FullReport parameter synthetic_machine_procs: must be a whole number >= 2, got '1'"),
    (["FullReport", "--synthetic-jobs", "1"], "luigi: FullReport parameter synthetic_jobs: must be a whole number >= 2, got '1'"),
    (["FullReport", "--workers", "0"], "luigi: --workers 0: must be a whole number >= 1"),
], ids=["out of range", "not a number", "no such stage", "not a list", "no such estimates", "no policy",
        "no machine", "a one-processor machine", "one job", "no worker"])
def test_a_bad_parameter_is_one_line_and_exit_code_2(tmp_path, arguments, message):
    done = subprocess.run(
        [sys.executable, "-m", "luigi", "--module", "pipeline", *arguments, "--local-scheduler"],
        cwd=REPOSITORY, env={**os.environ, "SCHEDLAB_WORK_DIR": str(tmp_path)}, capture_output=True, text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.stderr
    assert not any(tmp_path.iterdir())  # nothing ran


def test_a_task_failing_with_a_schedlab_error_fails_the_build_and_nothing_more(monkeypatch, tmp_path):
    import luigi

    import pipeline  # noqa: F401 - installs the one-line usage errors
    from pipeline.base import SchedlabTask
    from schedlab.errors import SchedlabError

    class Refusing(SchedlabTask):
        def run(self):
            raise SchedlabError("refused on purpose")

    monkeypatch.setenv("SCHEDLAB_WORK_DIR", str(tmp_path))
    assert not luigi.build([Refusing()], local_scheduler=True, workers=1, log_level="CRITICAL")


@pytest.mark.parametrize("variables, message", [
    ({"SCHEDLAB_TRACE_DIRS": "{file}"}, "luigi: SCHEDLAB_TRACE_DIRS: {file} is a file, not a directory"),
    ({"SCHEDLAB_TRACE_DIRS": "{missing}"}, "luigi: SCHEDLAB_TRACE_DIRS: {missing} does not exist"),
    ({"SCHEDLAB_TRACE_DIRS": ":::"}, "luigi: SCHEDLAB_TRACE_DIRS=':::' names no directory"),
    ({"SCHEDLAB_TRACE_DIRS": "{traces}", "SCHEDLAB_TRACES": "KTH-SP2-typo"},
     "luigi: trace 'KTH-SP2-typo' not found in {traces} (traces there: small_header)"),
], ids=["a file", "a missing directory", "no directory", "a misspelt trace"])
def test_a_bad_trace_setting_is_one_line_and_exit_code_2(tmp_path, variables, message):
    places = {"file": tmp_path / "a-file", "missing": tmp_path / "missing", "traces": tmp_path / "traces"}
    places["file"].write_text("not a directory")
    places["traces"].mkdir()
    (places["traces"] / "small_header.swf").write_text((REPOSITORY / "tests" / "data" / "small_header.swf").read_text())
    work = tmp_path / "work"
    environment = {key: value for key, value in os.environ.items() if not key.startswith("SCHEDLAB_")}
    environment.update({name: value.format(**places) for name, value in variables.items()}, SCHEDLAB_WORK_DIR=str(work))
    done = subprocess.run([sys.executable, "-m", "luigi", "--module", "pipeline", "FullReport", "--local-scheduler"],
                          cwd=REPOSITORY, env=environment, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(message.format(**places)) and done.stderr.count("\n") == 1, done.stderr
    assert not work.exists()  # nothing ran


@pytest.mark.parametrize("work", ["a-file", "a-file/below"])
def test_a_work_directory_that_is_a_file_is_one_line_and_exit_code_2(tmp_path, work):
    (tmp_path / "a-file").write_text("not a directory")
    environment = {key: value for key, value in os.environ.items() if not key.startswith("SCHEDLAB_")}
    done = subprocess.run([sys.executable, "-m", "luigi", "--module", "pipeline", "FullReport", "--local-scheduler"],
                          cwd=REPOSITORY, env={**environment, "SCHEDLAB_WORK_DIR": str(tmp_path / work)},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"luigi: work directory {tmp_path / work}: " * (work != "a-file") + (
        f"luigi: work directory {tmp_path / work} is a file, not a directory\n" if work == "a-file"
        else f"{tmp_path / 'a-file'} is a file, not a directory\n"), done.stderr


def test_an_empty_trace_fails_its_parse_naming_the_file(monkeypatch, tmp_path):
    import luigi

    from pipeline import settings
    from pipeline.trace_tasks import ParseTrace
    from schedlab.errors import InputError

    (tmp_path / "traces").mkdir()
    (tmp_path / "traces" / "empty.swf").write_text("; Version: 2.2\n")
    with settings.overridden(work_dir=str(tmp_path / "work"), trace_dirs=[str(tmp_path / "traces")]):
        task = ParseTrace(trace="empty")
        luigi.build([task.requires()], local_scheduler=True, workers=1, log_level="CRITICAL")
        task.set_status_message = lambda message: None  # set by a Luigi worker, absent when run directly
        with pytest.raises(InputError, match=r"empty\.swf: no job lines: an empty trace has nothing to replay$"):
            task.run()


@pytest.mark.parametrize("task", ["TraceReport", "ReplayTrace", "ParseTrace", "CleanTrace", "FitWorkloadModel"])
def test_an_unknown_trace_is_one_line_and_exit_code_2_from_every_task(tmp_path, task):
    """Found in a task's ``complete()``, where Luigi would log a traceback and exit 35 (issue 64)."""
    traces = tmp_path / "traces"
    traces.mkdir()
    environment = {key: value for key, value in os.environ.items() if not key.startswith("SCHEDLAB_")}
    environment.update(SCHEDLAB_TRACE_DIRS=str(traces), SCHEDLAB_WORK_DIR=str(tmp_path / "work"))
    done = subprocess.run([sys.executable, "-m", "luigi", "--module", "pipeline", task, "--trace", "no-such",
                           "--local-scheduler"], cwd=REPOSITORY, env=environment, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"luigi: trace 'no-such' not found in {traces} (traces there: none)\n"


def test_in_python_an_unknown_trace_fails_the_build_as_luigi_reports_it(tmp_path):
    import luigi

    from pipeline import ParseTrace, settings

    with settings.overridden(trace_dirs=[str(tmp_path)], work_dir=str(tmp_path / "work")):
        assert not luigi.build([ParseTrace(trace="no-such")], local_scheduler=True, workers=1, log_level="CRITICAL")


HOLD_OTHER_CODE = '''
import fcntl, sys, time
from pathlib import Path
locks = Path(sys.argv[1]) / ".locks" / "builds"
locks.mkdir(parents=True, exist_ok=True)
with open(locks / "0123456789abcdef.lock", "a") as lock:
    fcntl.flock(lock, fcntl.LOCK_SH)
    print("holding", flush=True)
    time.sleep(60)
'''


def test_a_build_refuses_a_work_directory_another_code_version_is_building(tmp_path):
    """Issue 69 item 10: started in the same second, two code versions on one work directory were both accepted."""
    work = tmp_path / "work"
    other = subprocess.Popen([sys.executable, "-c", HOLD_OTHER_CODE, str(work)], stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "holding"
        environment = {key: value for key, value in os.environ.items() if not key.startswith("SCHEDLAB_")}
        environment.update(SCHEDLAB_WORK_DIR=str(tmp_path / "link-to-work"), SCHEDLAB_TRACE_DIRS=str(tmp_path))
        (tmp_path / "link-to-work").symlink_to(work)  # the same directory by another path is the same build
        done = subprocess.run([sys.executable, "-m", "luigi", "--module", "pipeline", "FullReport", "--stages", "[]",
                               "--local-scheduler"], cwd=REPOSITORY, env=environment, capture_output=True, text=True,
                              timeout=120)
    finally:
        other.kill()
        other.wait()
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"luigi: {work} is being built by other code (sources 0123456789abcdef; these are ")
    assert [path.name for path in work.iterdir()] == [".locks"]  # nothing built
