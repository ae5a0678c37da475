"""The keyed-output base task and the settings, without running a Luigi scheduler."""

import json
from pathlib import Path

import luigi
import pytest

from pipeline import base, settings
from pipeline.base import SchedlabTask, code_closure, normalized_code, project_imports
from pipeline.workload_tasks import BuiltinModel
from schedlab.errors import SchedlabError


class KeyedUpstream(SchedlabTask):
    size = luigi.IntParameter()
    code_modules = ("schedlab.reports.pages",)

    def run(self):
        with self.writing_output() as directory:
            (directory / "value.txt").write_text(str(self.size))


class KeyedDownstream(SchedlabTask):
    size = luigi.IntParameter()
    name = luigi.Parameter(default="a/b c")

    def requires(self):
        return KeyedUpstream(size=self.size)


class NotKeyed(luigi.Task):
    pass


class RequiresNotKeyed(SchedlabTask):
    def requires(self):
        return NotKeyed()


def test_output_dir_is_family_label_and_key_under_the_work_dir(work_dir):
    task = KeyedDownstream(size=3)
    key = task.task_key()
    assert len(key) == base.KEY_LENGTH
    assert task.output_dir() == work_dir / "KeyedDownstream" / f"3_a_b_c-{key}"
    assert task.output().path == str(task.output_dir())
    assert task.output_file("x.csv") == task.output_dir() / "x.csv"


def test_key_changes_with_own_and_upstream_parameters_only(work_dir):
    key = KeyedDownstream(size=3).task_key()
    assert KeyedDownstream(size=3).task_key() == key
    assert KeyedDownstream(size=3, name="other").task_key() != key
    assert KeyedDownstream(size=4).task_key() != key  # through the requirement's key
    assert KeyedUpstream(size=3).task_key() == KeyedUpstream(size=3).task_key()


def fake_change(monkeypatch, changed_module):
    original = base.module_code_version
    monkeypatch.setattr(
        base, "module_code_version", lambda name: original(name) + ("+changed" if name == changed_module else "")
    )


def test_key_changes_with_the_code_of_a_module_the_declared_one_imports(work_dir, monkeypatch):
    upstream_key = KeyedUpstream(size=3).task_key()
    downstream_key = KeyedDownstream(size=3).task_key()
    fake_change(monkeypatch, "schedlab.reports.metrics")  # imported by the declared schedlab.reports.pages
    assert KeyedUpstream(size=3).task_key() != upstream_key
    assert KeyedDownstream(size=3).task_key() != downstream_key


def test_key_ignores_code_the_task_does_not_use(work_dir, monkeypatch):
    key = KeyedDownstream(size=3).task_key()
    fake_change(monkeypatch, "schedlab.simulators.batch.easy")
    assert KeyedDownstream(size=3).task_key() == key


def test_key_does_not_depend_on_the_work_dir(work_dir, tmp_path):
    key = KeyedDownstream(size=3).task_key()
    with settings.overridden(work_dir=str(tmp_path / "elsewhere")):
        assert KeyedDownstream(size=3).output_dir().parent.parent == tmp_path / "elsewhere"
        assert KeyedDownstream(size=3).task_key() == key


def test_requirements_must_be_keyed_tasks(work_dir):
    with pytest.raises(TypeError, match="not a SchedlabTask"):
        RequiresNotKeyed().task_key()


def test_writing_output_renames_a_complete_directory_with_its_identity(work_dir):
    task = KeyedUpstream(size=5)
    assert not task.complete()
    task.run()
    assert task.complete()
    assert task.output_file("value.txt").read_text() == "5"
    identity = json.loads(task.output_file("task.json").read_text())
    assert identity["key"] == task.task_key()
    assert identity["parameters"] == {"size": "5"}
    assert set(identity["code_versions"]) >= {__name__, "schedlab.reports.pages", "schedlab.reports.metrics"}
    assert [p.name for p in task.output_dir().parent.iterdir()] == [task.output_dir().name]


def test_a_failed_or_killed_write_leaves_no_complete_looking_output(work_dir):
    task = KeyedUpstream(size=6)
    with pytest.raises(RuntimeError):
        with task.writing_output() as directory:
            (directory / "half.txt").write_text("half")
            raise RuntimeError("crash")
    assert not task.complete()
    assert list(task.output_dir().parent.iterdir()) == []

    # A kill (no exception handler runs) leaves the hidden staging directory behind only.
    killed = task.writing_output()
    staging = killed.__enter__()
    (staging / "half.txt").write_text("half")
    assert not task.complete()
    assert staging.name.startswith(".") and staging.parent == task.output_dir().parent


def test_project_imports_follows_modules_not_their_parent_packages():
    imports = project_imports("schedlab.reports.pages")
    assert {"schedlab.reports.document", "schedlab.reports.metrics"} <= imports
    assert "reports" not in imports  # the package's __init__ runs, but pages uses the modules
    assert not any(name.startswith(("pandas", "collections")) for name in imports)
    # "from schedlab import __version__" takes a name from the package: the package counts.
    assert "schedlab" in project_imports("schedlab.commands.replay")


def test_code_closure_follows_imports_transitively_and_only_what_is_used():
    closure = code_closure(["schedlab.simulators.batch.replay"])
    assert "schedlab.simulators.core.engine" in closure  # imported by schedlab.simulators.batch.replay
    assert "schedlab.errors" in closure
    assert closure == sorted(closure)
    # A policy is loaded by name, and COSY's scheduler imports EASY alone.
    assert "schedlab.simulators.batch.conservative" not in closure
    cosy = code_closure(["schedlab.simulators.cosy.scheduler"])
    assert "schedlab.simulators.batch.easy" in cosy and "schedlab.simulators.batch.conservative" not in cosy


NORMALISATION_CASES = {
    "a comment": ("def f(x):\n    return x + 1\n", "def f(x):\n    # add one\n    return x + 1  # why\n", True),
    "a docstring": ("def f(x):\n    return x + 1\n", 'def f(x):\n    """Add one."""\n    return x + 1\n', True),
    "an attribute docstring": ("LIMIT = 3\n", 'LIMIT = 3\n"""The limit."""\n', True),
    "layout": ("def f(x):\n    return x + 1\n", "def f( x ):\n\n    return (x+1)\n", True),
    "quotes": ("A = 'a'\n", 'A = "a"\n', True),
    "a constant": ("LIMIT = 3\n", "LIMIT = 4\n", False),
    "an operator": ("def f(x):\n    return x + 1\n", "def f(x):\n    return x - 1\n", False),
    "a string value": ("A = 'a'\n", "A = 'b'\n", False),
    "a statement": ("def f(x):\n    return x\n", "def f(x):\n    x.sort()\n    return x\n", False),
}


@pytest.mark.parametrize("change", NORMALISATION_CASES)
def test_normalised_code_ignores_comments_docstrings_and_layout_only(change):
    before, after, same = NORMALISATION_CASES[change]
    assert (normalized_code(before) == normalized_code(after)) is same


def test_settings_precedence_config_then_environment_then_default(monkeypatch):
    for variable in ("SCHEDLAB_WORK_DIR", "SCHEDLAB_TRACE_DIRS", "SCHEDLAB_TRACES"):
        monkeypatch.delenv(variable, raising=False)
    assert str(settings.work_dir()) == settings.DEFAULT_WORK_DIR
    assert [str(d) for d in settings.trace_dirs()] == list(settings.DEFAULT_TRACE_DIRS)
    assert settings.selected_traces() == []

    monkeypatch.setenv("SCHEDLAB_WORK_DIR", "/from/env")
    monkeypatch.setenv("SCHEDLAB_TRACE_DIRS", "a:b")
    monkeypatch.setenv("SCHEDLAB_TRACES", "x, y,")
    assert str(settings.work_dir()) == "/from/env"
    assert [str(d) for d in settings.trace_dirs()] == ["a", "b"]
    assert settings.selected_traces() == ["x", "y"]

    with settings.overridden(work_dir="/from/config", trace_dirs=["c"], traces=["z"]):
        assert str(settings.work_dir()) == "/from/config"
        assert [str(d) for d in settings.trace_dirs()] == ["c"]
        assert settings.selected_traces() == ["z"]
    assert str(settings.work_dir()) == "/from/env"  # restored


def test_own_packages_are_the_top_level_names_the_project_installs():
    import importlib.metadata

    installed = importlib.metadata.distribution("schedlab").read_text("top_level.txt").split()
    assert set(installed) == base.OWN_PACKAGES == {"schedlab", "pipeline"}


def test_the_compiled_event_loop_is_versioned_by_its_c_source(tmp_path, monkeypatch):
    from schedlab.simulators.batch import compiled

    if not compiled.available():
        pytest.skip("the C event loop was not built (no compiler at install)")
    assert "schedlab.simulators.batch._event_loop" in code_closure(["schedlab.simulators.batch.replay"])
    assert project_imports("schedlab.simulators.batch._event_loop") == frozenset()
    source = base._source_file("schedlab.simulators.batch._event_loop")
    assert source.name == "_event_loop.c"
    before = base.module_code_version("schedlab.simulators.batch._event_loop")
    edited = tmp_path / source.name
    edited.write_bytes(source.read_bytes().replace(b"lo = mid + 1;", b"lo = mid + 2;"))
    monkeypatch.setattr(base, "_source_file", lambda name: edited)
    base.module_code_version.cache_clear()
    try:
        assert base.module_code_version("schedlab.simulators.batch._event_loop") != before
    finally:
        base.module_code_version.cache_clear()


def test_an_extension_not_built_here_keys_as_where_it_is_built(monkeypatch):
    find_spec = base.importlib.util.find_spec
    monkeypatch.setattr(base.importlib.util, "find_spec",
                        lambda name: None if name == "schedlab.simulators.batch._event_loop" else find_spec(name))
    source = base._source_file("schedlab.simulators.batch._event_loop")
    assert source is not None and source.name == "_event_loop.c"


def test_data_files_a_module_declares_are_versioned_with_its_code(tmp_path, monkeypatch):
    """Issue 69 item 4: editing a shipped model file changes the key of every task that reads it."""
    from schedlab.workloads import model

    copy = tmp_path / "model.py"
    copy.write_bytes(Path(model.__file__).read_bytes())
    (tmp_path / "models").mkdir()
    shipped = Path(model.__file__).with_name("models") / "kth-sp2-1996-2.2.json"
    data = tmp_path / "models" / shipped.name
    data.write_bytes(shipped.read_bytes())
    monkeypatch.setattr(base, "_source_file", lambda name: copy)

    def version() -> str:
        base.module_code_version.cache_clear()
        return base.module_code_version("schedlab.workloads.model")

    try:
        before = version()
        data.write_bytes(shipped.read_bytes().replace(b'"machine_procs": 100', b'"machine_procs": 101', 1))
        edited = version()
        data.write_bytes(shipped.read_bytes())
        assert edited != before and version() == before
        (tmp_path / "models" / "another.json").write_text("{}")  # a file added under the pattern counts too
        assert version() != before
        for path in (tmp_path / "models").iterdir():
            path.unlink()
        with pytest.raises(SchedlabError, match="matches no file"):
            version()
    finally:
        base.module_code_version.cache_clear()


def test_the_shipped_models_are_declared_where_they_are_read():
    from schedlab.workloads import model

    assert model.CODE_DATA_FILES == ("models/*.json",)
    assert base._declared_data_files(Path(model.__file__).read_bytes(), model.__file__) == ("models/*.json",)
    assert "schedlab.workloads.model" in BuiltinModel(model="builtin:kth-sp2-1996").code_versions()
    assert "schedlab.workloads.model" in code_closure(["schedlab.simulators.bandwidth.simulate"])  # its realistic workload


HOLD_LOCK = '''
import fcntl, sys, time
with open(sys.argv[1], "a") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    print("holding", flush=True)
    time.sleep(60)
'''


def test_a_staging_directory_is_judged_by_its_outputs_lock_not_by_host_and_process(work_dir):
    """Issue 69 item 10: two hosts of one name removed each other's live staging directories."""
    import os
    import socket
    import subprocess
    import sys

    family = work_dir / "Family"
    family.mkdir(parents=True)
    # Named as this host's live process would name it: another host of the same name, say.
    staging = family / f".out-0123456789abcdef.@{socket.gethostname()}@{os.getpid()}.k3j.tmp"
    staging.mkdir()
    lock = work_dir / ".locks" / "Family" / "out-0123456789abcdef.lock"
    lock.parent.mkdir(parents=True)
    lock.touch()
    assert base.dead_writer(staging)  # its output's lock is free: nobody writes it
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(lock)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        assert not base.dead_writer(staging)  # a writer holds the lock, whatever its name says
    finally:
        holder.kill()
        holder.wait()
    assert base.dead_writer(staging)
