"""The command line loads only what a command uses (issue 23): checked on modules, not on time.

Each command runs in a fresh interpreter that reports ``sys.modules`` at the end:
``schedlab --help`` loads no numeric library and none of the project's domain packages,
``schedlab info`` neither scipy, matplotlib, Luigi nor numba, and ``schedlab replay``
neither matplotlib nor Luigi, and of scipy no more than numba itself loads (numba
imports scipy to check its version and binds BLAS from ``scipy.linalg``; the reference
engine is numba-compiled); under pyss conventions it loads not even pandas.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from schedlab.cli import build_parser, command_module, command_names

DATA = Path(__file__).resolve().parent / "data"
SMALL = DATA / "small_header.swf"
REPO = Path(__file__).resolve().parents[1]

REPORT_MODULES = """
import json, sys
from schedlab.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
with open(sys.argv[0] + ".json", "w") as out:
    json.dump({"code": code, "modules": sorted(sys.modules)}, out)
"""

NUMBA_SCIPY = """
import json, sys
import numba

@numba.njit
def one(x):
    return x + 1

one(1)
with open(sys.argv[0] + ".json", "w") as out:
    json.dump(sorted(m for m in sys.modules if m == "scipy" or m.startswith("scipy.")), out)
"""


def run_python(tmp_path: Path, name: str, source: str, *argv: str):
    script = tmp_path / f"{name}.py"
    script.write_text(source)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(script), *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    report = Path(f"{script}.json")
    assert report.exists(), done.stderr
    return json.loads(report.read_text()), done


def modules_of(tmp_path: Path, *argv: str) -> set[str]:
    report, done = run_python(tmp_path, "command", REPORT_MODULES, *argv)
    assert report["code"] in (0, None), done.stderr
    return set(report["modules"])


def loaded(modules: set[str], *packages: str) -> list[str]:
    """The given top-level packages that are among ``modules``."""
    return sorted(p for p in packages if p in modules or any(m.startswith(p + ".") for m in modules))


def test_help_loads_no_numeric_library_and_no_domain_package(tmp_path):
    modules = modules_of(tmp_path, "--help")
    assert loaded(modules, "numpy", "pandas", "scipy", "matplotlib", "luigi", "numba", "pyarrow", "tqdm") == []
    assert loaded(modules, "parsers", "simulators", "workloads", "reports", "pipeline") == []
    assert {command_module(name) for name in command_names()} <= modules  # listed from their HELP


def test_info_loads_neither_scipy_matplotlib_luigi_nor_numba(tmp_path):
    modules = modules_of(tmp_path, "info", str(SMALL))
    assert "schedlab.parsers.swf" in modules  # it did run
    assert loaded(modules, "scipy", "matplotlib", "luigi", "numba", "simulators", "workloads", "pipeline") == []


def test_replay_loads_no_matplotlib_luigi_or_scipy_beyond_numbas_own(tmp_path):
    modules = modules_of(tmp_path, "replay", str(SMALL), "--policy", "easy")
    assert "schedlab.simulators.batch.replay" in modules  # it did run
    assert loaded(modules, "matplotlib", "luigi", "workloads", "pipeline") == []
    scipy = {m for m in modules if m == "scipy" or m.startswith("scipy.")}
    if scipy:
        assert "numba" in modules, sorted(scipy)
        numbas_own, _ = run_python(tmp_path, "numba_scipy", NUMBA_SCIPY)
        assert sorted(scipy - set(numbas_own)) == []


def test_replay_under_pyss_conventions_loads_no_pandas(tmp_path):
    """Every line is a job under pyss conventions: the columns as read are replayed and pandas,
    whose import alone costs more than a whole KTH replay, stays unloaded (as does numba: the
    compiled loop is C)."""
    modules = modules_of(tmp_path, "replay", str(SMALL), "--conventions", "pyss")
    assert "schedlab.simulators.batch.replay" in modules  # it did run
    assert loaded(modules, "pandas", "pyarrow", "scipy", "numba", "matplotlib", "luigi") == []


@pytest.mark.parametrize("out", [None, "s.csv", "s.swf", "jobs.csv:batsim"])
def test_replay_cleans_and_writes_text_schedules_without_pandas_or_pyarrow(tmp_path, out):
    """The default conventions clean the trace on its numpy columns, and CSV, SWF and Batsim's
    jobs.csv are written from columns: pandas and pyarrow are left for Parquet (issue 64)."""
    argv = ["replay", str(SMALL), "--policy", "easy"]
    if out:
        name, _, form = out.partition(":")
        argv += ["--out", str(tmp_path / name)] + (["--format", form] if form else [])
    modules = modules_of(tmp_path, *argv)
    assert "schedlab.parsers.cleaning" in modules  # it did clean
    assert loaded(modules, "pandas", "pyarrow", "matplotlib", "luigi") == []
    if out:
        assert (tmp_path / out.partition(":")[0]).stat().st_size > 0


def test_replay_writing_parquet_loads_pyarrow(tmp_path):
    modules = modules_of(tmp_path, "replay", str(SMALL), "--out", str(tmp_path / "s.parquet"))
    assert loaded(modules, "pyarrow") == ["pyarrow"]  # the check above can fail: Parquet does load it


def test_every_command_module_has_a_one_line_help():
    import importlib

    for name in command_names():
        module = importlib.import_module(command_module(name))
        assert isinstance(module.HELP, str) and module.HELP and "\n" not in module.HELP, name


@pytest.mark.parametrize(
    "argv",
    [
        ["info", "trace.swf"],
        ["-q", "info", "trace.swf"],
        ["info", "trace.swf", "--quiet"],
        ["--quiet", "bundle", "extract", "b.tar.gz", "dir"],
        ["bundle", "extract", "b.tar.gz", "dir", "-q"],
    ],
)
def test_quiet_is_accepted_before_or_after_the_command(argv):
    args = build_parser(argv).parse_args(argv)
    assert args.quiet is ("-q" in argv or "--quiet" in argv)
    assert args.handler is not None


def test_only_the_selected_command_is_built_in_full():
    parser = build_parser(["info", "trace.swf"])
    commands = next(a for a in parser._actions if a.dest == "command").choices
    assert "--procs" in commands["info"].format_help()
    assert "--policy" not in commands["replay"].format_help()  # listed, not registered
    full = next(a for a in build_parser()._actions if a.dest == "command").choices
    assert "--policy" in full["replay"].format_help()
