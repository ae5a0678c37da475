"""Shared fixtures: where the shared traces and reference schedules live, and job tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers.schema import as_job_table

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def shared_path(*parts: str) -> Path:
    """A file under ../shared, or a visible skip when a fresh clone has no ../shared."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the shared traces and references beside the repository)")
    return path


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
