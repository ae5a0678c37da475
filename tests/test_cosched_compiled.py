"""The compiled cosched loop against the interpreted reference: the same run, exactly (``==``), on crafted
and random cases: every scheme combination, release on and off, the section IV-E options, deadlocks."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from schedlab.simulators.batch.conventions import CONVENTIONS
from schedlab.simulators.cosched import CoschedSettings, cosimulate
from schedlab.simulators.cosched.compiled import run_compiled
from schedlab.simulators.cosched.run import _mate_indices, _run_reference, baseline_metrics
from tests.conftest import make_jobs, random_jobs

HOUR = 3600
SCHEMES = list(itertools.product(("hold", "yield"), repeat=2))


def _same(x, y) -> bool:
    """Equal, NaN equal to NaN, recursively over what a result holds."""
    if isinstance(x, dict):
        return x.keys() == y.keys() and all(_same(x[k], y[k]) for k in x)
    if isinstance(x, (list, tuple)):
        return len(x) == len(y) and all(_same(a, b) for a, b in zip(x, y))
    if isinstance(x, float) and math.isnan(x):
        return isinstance(y, float) and math.isnan(y)
    return x == y


def assert_outcomes_agree(jobs_a, procs_a, jobs_b, procs_b, pairs, settings):
    """Both engines' outcomes, field for field."""
    conventions = CONVENTIONS["default"]
    batches = [conventions.prepare(jobs, procs, "requested") for jobs, procs in ((jobs_a, procs_a), (jobs_b, procs_b))]
    mates = _mate_indices(batches, pairs if settings is not None else None)
    compiled = run_compiled(batches, (procs_a, procs_b), mates, settings)
    reference = _run_reference(batches, (procs_a, procs_b), mates, settings)
    for field in ("start", "promised", "holds", "first_ready", "yields"):
        for side in range(2):
            np.testing.assert_array_equal(getattr(compiled, field)[side], getattr(reference, field)[side],
                                          err_msg=f"{field} on machine {side}", strict=True)
    assert (compiled.releases, compiled.kind, compiled.time, compiled.stuck, compiled.now, compiled.ended) == \
        (reference.releases, reference.kind, reference.time, reference.stuck, reference.now, reference.ended)


def assert_engines_agree(jobs_a, procs_a, jobs_b, procs_b, pairs, settings):
    """Both engines' outcomes, then ``cosimulate``'s results on each; returns the compiled one."""
    assert_outcomes_agree(jobs_a, procs_a, jobs_b, procs_b, pairs, settings)
    fast = cosimulate(jobs_a, procs_a, jobs_b, procs_b, pairs, settings)
    slow = cosimulate(jobs_a, procs_a, jobs_b, procs_b, pairs, settings, engine="reference")
    assert _same(fast.deadlock, slow.deadlock) and _same(fast.metrics, slow.metrics)
    for name in fast.schedules:
        pd.testing.assert_frame_equal(fast.schedules[name], slow.schedules[name], check_exact=True)
    return fast


def _fig2(release_period, **options):
    jobs = make_jobs([(0, 6, HOUR, HOUR), (10, 6, HOUR, HOUR)])
    pairs = pd.DataFrame({"job_id_a": [1, 2], "job_id_b": [2, 1]})
    return jobs, 10, jobs, 10, pairs, CoschedSettings(("hold", "hold"), release_period=release_period, **options)


def _stall():
    jobs_a = make_jobs([(14, 7, 224, 193), (89, 8, 181, 180), (126, 3, 257, 251), (131, 2, 281, 252),
                        (134, 6, 297, 249), (193, 1, 127, 82)])
    jobs_b = make_jobs([(19, 6, 184, 154), (79, 8, 258, 255), (90, 5, 280, 270), (128, 5, 88, 53),
                        (146, 7, 116, 93), (166, 6, 247, 215)])
    pairs = pd.DataFrame({"job_id_a": [1, 3, 5], "job_id_b": [2, 4, 6]})
    return jobs_a, 10, jobs_b, 10, pairs, CoschedSettings(("hold", "hold"), release_period=None)


def _one_pair(rows_a, rows_b, settings):
    return make_jobs(rows_a), 10, make_jobs(rows_b), 10, pd.DataFrame({"job_id_a": [1], "job_id_b": [1]}), settings


CRAFTED = {
    "circular wait": (_fig2(None), "circular wait"),
    "fig2 resolved by the release": (_fig2(1200.0), None),
    "livelock": (_fig2(1200.0, yield_when_remote_busy=False), "livelock"),
    "stall": (_stall(), "stall"),
    "hold then start together": (_one_pair([(0, 4, 100, 100)], [(50, 4, 100, 100)],
                                           CoschedSettings(("hold", "yield"))), None),
    "held nodes unused": (_one_pair([(0, 6, 100, 100), (10, 6, 50, 50)], [(200, 4, 100, 100)],
                                    CoschedSettings(("hold", "hold"))), None),
    "release hands nodes on": (_one_pair([(0, 6, 100, 100), (10, 6, 50, 50)], [(5000, 4, 100, 100)],
                                         CoschedSettings(("hold", "hold"))), None),
    "held share cap": (_one_pair([(0, 6, 100, 100), (10, 4, 50, 50)], [(300, 4, 100, 100)],
                                 CoschedSettings(("hold", "hold"), max_held_share=0.5)), None),
    "max yields": (_one_pair([(0, 4, 100, 100)], [(300, 4, 100, 100), (0, 10, 200, 200)],
                             CoschedSettings(("yield", "yield"), max_yields=1)), None),
}


@pytest.mark.parametrize("case", list(CRAFTED))
def test_crafted_cases_agree(case):
    arguments, kind = CRAFTED[case]
    assert assert_engines_agree(*arguments).deadlock["kind"] == kind


def _random_case(seed, settings, jobs=None, paired_share=None):
    rng = np.random.default_rng(seed)
    n = jobs or int(rng.integers(30, 300))
    capacity = int(rng.choice([10, 16, 32]))
    tables = [random_jobs(rng, n, span=int(n * rng.integers(40, 200)), max_procs=capacity, runs=(1, 3_000),
                          slack=int(rng.integers(1, 1_500))) for _ in range(2)]
    share = paired_share if paired_share is not None else rng.uniform(0.1, 0.8)
    chosen = np.sort(rng.choice(n, int(share * n), replace=False)) + 1
    pairs = pd.DataFrame({"job_id_a": chosen, "job_id_b": rng.permutation(chosen)})
    return tables[0], capacity, tables[1], capacity, pairs, settings


SETTINGS = [
    CoschedSettings(schemes, release_period=release)
    for schemes in SCHEMES for release in (1200.0, None)
] + [
    CoschedSettings(("hold", "hold"), release_period=600.0, release_after=300.0, max_held_share=0.5),
    CoschedSettings(("yield", "hold"), max_yields=2),
    CoschedSettings(("yield", "yield"), max_yields=1, yield_when_remote_busy=False),
    CoschedSettings(("hold", "yield"), yield_when_remote_busy=False, max_held_share=0.3),
    CoschedSettings(("hold", "hold"), release_period=None, yield_when_remote_busy=False),
    None,
]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: "baseline" if s is None else repr(s))
def test_random_workloads_agree(settings, seed):
    assert_outcomes_agree(*_random_case(seed, settings))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 23))
@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: "baseline" if s is None else repr(s))
def test_many_random_workloads_agree(settings, seed):
    assert_outcomes_agree(*_random_case(seed, settings, paired_share=[0.05, 0.3, 0.6, 0.95][seed % 4]))


@pytest.mark.parametrize("settings", [SETTINGS[0], SETTINGS[3], None], ids=("HH", "HY without release", "baseline"))
def test_random_results_agree(settings):
    assert_engines_agree(*_random_case(4, settings, jobs=200))


def test_a_run_short_of_room_for_its_hold_episodes_runs_again_with_more():
    jobs_a, procs_a, jobs_b, procs_b, pairs, settings = _random_case(0, SETTINGS[0], jobs=200)
    conventions = CONVENTIONS["default"]
    batches = [conventions.prepare(jobs, procs, "requested") for jobs, procs in ((jobs_a, procs_a), (jobs_b, procs_b))]
    mates = _mate_indices(batches, pairs)
    roomy = run_compiled(batches, (procs_a, procs_b), mates, settings)
    short = run_compiled(batches, (procs_a, procs_b), mates, settings, room=1)
    assert sum(len(holds) for holds in roomy.holds) > 1
    for field in ("start", "holds"):
        for side in range(2):
            np.testing.assert_array_equal(getattr(short, field)[side], getattr(roomy, field)[side], strict=True)


def test_baseline_metrics_agree():
    jobs, capacity = _random_case(5, None, jobs=300)[:2]
    assert _same(baseline_metrics(jobs, capacity), baseline_metrics(jobs, capacity, engine="reference"))


def test_compiled_progress_reports_every_job_ended_once_at_the_end():
    arguments = _one_pair([(0, 4, 100, 100), (10, 6, 50, 50)], [(50, 4, 100, 100)], CoschedSettings(("hold", "yield")))
    reports = []
    cosimulate(*arguments, progress=lambda *report: reports.append(report))
    assert reports == [(3, 3)]


def test_unknown_engine_is_refused():
    with pytest.raises(ValueError, match="engine"):
        cosimulate(*_fig2(None), engine="fast")
