"""The node replay through Luigi (issue 65, items 6 and the README's commands): NodeReport builds the page
from NodeReplay's tables; the replay is keyed on the contents of the jobs, machine and events files, so an
edited events file reruns it and an unchanged one reuses it; the page's numbers are the tables'."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[1]


def build(work: Path, jobs: Path, events: Path) -> str:
    environment = {**os.environ, "SCHEDLAB_WORK_DIR": str(work)}
    done = subprocess.run(
        [sys.executable, "-m", "luigi", "--module", "pipeline", "NodeReport", "--jobs", str(jobs),
         "--machine", str(DATA / "small-gpu-cluster.toml"), "--events", str(events), "--local-scheduler"],
        cwd=REPO, env=environment, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def test_the_page_is_built_from_the_replays_tables_and_keyed_on_the_events_file(tmp_path):
    from schedlab.cli import main

    jobs, events = tmp_path / "jobs.csv", tmp_path / "events.toml"
    main(["convert", str(DATA / "sacct_gpu_bottleneck.txt"), "-o", str(jobs)])
    events.write_text((DATA / "small-gpu-cluster-events.toml").read_text())
    work = tmp_path / "work"
    assert "Running 2 tasks (0 already complete)" in build(work, jobs, events)
    [page] = (work / "NodeReport").glob("*/report.md")
    [replay] = (work / "NodeReplay").glob("*/schedule.parquet")
    schedule = pd.read_parquet(replay)
    assert schedule["start"].tolist()[:6] == [3660, 60, 7260, 7800, 10860, 11400]
    text = page.read_text()
    mean_hours = schedule["wait"].mean() / 3600
    assert f"| mean wait | {mean_hours:,.2f} h | 0.00 h |" in text
    assert "| failure of 1 gpu node(s) from 600 s to 7800 s | 1 | 1 |" in text
    assert "| gpu | 6 |" in text and (page.parent / "resource_use.svg").exists()
    first_page = page.read_bytes()

    assert "Running" not in build(work, jobs, events)  # nothing changed: nothing runs
    assert page.read_bytes() == first_page
    events.write_text(events.read_text().replace("requeue = true", "requeue = false"))
    assert "Running 2 tasks (0 already complete)" in build(work, jobs, events)
    pages = sorted((work / "NodeReport").glob("*/report.md"))
    assert len(pages) == 2  # the edited events file made a replay and a page of its own
    edited = next(p for p in pages if p != page).read_text()
    assert "| failure of 1 gpu node(s) from 600 s to 7800 s | 1 | 0 |" in edited
