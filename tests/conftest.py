"""Shared fixtures: where the shared traces and reference schedules live, and job tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from schedlab.parsers.schema import as_job_table

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def shared_path(*parts: str) -> Path:
    """A file under ../shared, or a visible skip when a fresh clone has no ../shared."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the shared traces and references beside the repository)")
    return path


def random_jobs(rng, n: int, span: int, max_procs: int, runs: tuple[int, int], slack: int):
    """``n`` jobs submitted uniformly over ``span`` s, 1..``max_procs`` processors, run times
    uniform on ``runs``, each requested time its run time plus up to ``slack``."""
    submit = np.sort(rng.integers(0, span, n))
    procs = rng.integers(1, max_procs + 1, n)
    run = rng.integers(runs[0], runs[1], n)
    return make_jobs(list(zip(submit, procs, run + rng.integers(0, slack, n), run)))


def make_jobs(rows):
    """Job table from (submit, procs, requested_time, run_time) tuples; ids from 1."""
    return as_job_table(
        {
            "job_id": [i + 1 for i in range(len(rows))],
            "submit_time": [r[0] for r in rows],
            "allocated_procs": [r[1] for r in rows],
            "requested_procs": [r[1] for r in rows],
            "requested_time": [r[2] for r in rows],
            "run_time": [r[3] for r in rows],
        }
    )


def both_engines(jobs, capacity, **options):
    """One replay on the compiled event loop and the same on the reference engine."""
    from schedlab.simulators.batch.replay import replay

    compiled = replay(jobs, capacity, engine="compiled", **options)
    reference = replay(jobs, capacity, engine="reference", **options)
    return compiled, reference


def assert_same_run(compiled, reference):
    assert compiled.schedule.equals(reference.schedule)
    assert compiled.series.equals(reference.series)
    assert compiled.metrics == reference.metrics
    assert compiled.parameters == reference.parameters


def layout_faults(figure) -> list[str]:
    """What a reader cannot see whole, once drawn: a legend over an axes (its title and tick labels
    included) or over the figure's title, and a title cut by the figure's edge."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    legends = [*figure.legends, *(axes.get_legend() for axes in figure.axes if axes.get_legend())]
    covered = [(f"axes {axes.get_title()!r}", axes.get_tightbbox(renderer)) for axes in figure.axes if axes.get_visible()]
    titles = [axes.title for axes in figure.axes] + ([figure._suptitle] if figure._suptitle else [])
    covered += [(f"title {title.get_text()!r}", title.get_window_extent(renderer)) for title in titles if title.get_text()]
    faults = [f"a legend covers {name}" for legend in legends for name, box in covered
              if legend.get_window_extent(renderer).overlaps(box)]
    page = figure.bbox
    faults += [f"title {title.get_text()!r} is cut" for title in titles if title.get_text()
               and not (page.x0 - 1 <= title.get_window_extent(renderer).x0 and title.get_window_extent(renderer).x1 <= page.x1 + 1)]
    return faults


def no_traces(directory: Path) -> str:
    """An empty trace directory below ``directory``: a build pointed at it runs on the synthetic workloads
    (a trace directory that does not exist is refused, pipeline.settings.check_trace_dirs)."""
    path = directory / "no-traces"
    path.mkdir(parents=True, exist_ok=True)
    return str(path)


@pytest.fixture
def work_dir(tmp_path):
    """An empty work directory, set as the ``[schedlab] work_dir`` setting for the test."""
    from pipeline import settings

    with settings.overridden(work_dir=str(tmp_path / "work")):
        yield tmp_path / "work"
