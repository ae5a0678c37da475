"""Kernels compiled ahead: a cold family compiles in a background process that fills numba's
cache, a warm one starts nothing, and every family's warm-up compiles all its numba code."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from pipeline import base, compile_ahead
from pipeline.full_report import FullReport


def families():
    return base._families_reached(FullReport)


def test_a_full_report_reaches_every_stage_family_with_a_warm_up():
    names = {family.__name__ for family in families()}
    assert {"CoschedRuns", "CosyRuns", "IcsRuns", "KoalaRuns"} <= names


@pytest.mark.parametrize("family", families(), ids=lambda family: family.__name__)
def test_after_its_warm_up_no_numba_function_of_a_family_is_cold(family):
    """The criterion of ``compile_ahead.cold``: a function its warm-up leaves uncompiled would
    start a background compile in every build."""
    family.warm_up()
    modules = base._family_modules(family)
    uncached = [f"{module}.{dispatcher.__name__}"
                for module, dispatchers in compile_ahead.cached_dispatchers(modules).items()
                for dispatcher in dispatchers if not dispatcher._cache._cache_file._load_index()]
    assert not uncached
    assert compile_ahead.cached_dispatchers(modules), f"{family.__name__} reaches no numba code"


def test_a_warm_family_starts_no_background_process(monkeypatch):
    family = next(family for family in families() if family.__name__ == "KoalaRuns")
    family.warm_up()
    monkeypatch.setattr(compile_ahead, "_handled", set())
    monkeypatch.setattr(compile_ahead, "_compiling", {})
    compile_ahead.start([family], base._family_modules)
    assert compile_ahead._compiling == {}


def test_a_cold_family_compiles_in_the_background_into_numbas_cache(tmp_path):
    """In a process whose numba cache is empty, COSY's family is cold; its background warm-up
    fills the cache, after which it is warm and its own warm-up compiles nothing."""
    script = textwrap.dedent("""
        from pipeline import base, compile_ahead
        from pipeline.cosy import CosyRuns
        lines = []
        compile_ahead.announce = lines.append
        modules = base._family_modules(CosyRuns)
        assert compile_ahead.cold(modules)
        compile_ahead.start([CosyRuns], base._family_modules)
        assert CosyRuns in compile_ahead._compiling and len(lines) == 1 and "CosyRuns" in lines[0], lines
        assert compile_ahead._compiling[CosyRuns].poll() is None  # still compiling: it runs beside this process
        compile_ahead.wait_for(CosyRuns)
        assert compile_ahead._compiling == {}
        assert not compile_ahead.cold(modules)
        CosyRuns.warm_up()
        from schedlab.simulators.cosy import compiled
        misses = sum(sum(d.stats.cache_misses.values()) for d in vars(compiled).values() if hasattr(d, "stats"))
        hits = sum(sum(d.stats.cache_hits.values()) for d in vars(compiled).values() if hasattr(d, "stats"))
        assert misses == 0 and hits > 0, (misses, hits)
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                            env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")})
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().endswith("ok")
