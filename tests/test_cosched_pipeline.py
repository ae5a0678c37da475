"""The quick profile end to end through Luigi, in the default run so that CI runs it."""

from __future__ import annotations

import json
import os

import luigi
import pandas as pd
import pytest

from tests.conftest import shared_path


def test_quick_profile_report(tmp_path, monkeypatch):
    traces = shared_path("traces", "KTH-SP2-1996-2.2.swf").parent
    machine_a_log = shared_path("traces-extra", "ALCF-Theta-2023H2.swf").parent
    # CI's five-paper build has this very report (same code, parameters and traces, so the same
    # keys): the build below then finds it complete instead of running it again.
    monkeypatch.setenv("SCHEDLAB_WORK_DIR", os.environ.get("SCHEDLAB_FULLREPORT_WORK_DIR", str(tmp_path)))
    monkeypatch.setenv("SCHEDLAB_TRACE_DIRS", f"{traces}{os.pathsep}{machine_a_log}")
    from pipeline.cosched import CoschedReport
    from schedlab.reports.cosched import FIGURES

    report = CoschedReport(profile="quick")
    assert luigi.build([report], local_scheduler=True, workers=2)
    out = report.output_dir()
    for name in ("index.md", "index.html", "claims.csv", "claims.tex", "runs.csv", "parameters.json",
                 "results.csv", "deadlocks.md", "workloads.md"):
        assert (out / name).is_file()
    claims = pd.read_csv(out / "claims.csv")
    assert all((out / link).is_file() for link in claims["link"])
    decided = claims[claims["verdict"].isin(["reproduced", "partial", "not_reproduced"])]
    counts_over_all_runs = {"sec5b-pairs-together", "sec5b-release-no-deadlock", "sec5b-no-starvation"}  # one number
    assert (decided[~decided["claim_id"].isin(counts_over_all_runs)]["seeds"] >= 5).all()
    for spec in FIGURES:
        assert (out / f"{spec.stem}.png").is_file() and (out / f"{spec.stem}.svg").is_file()
    parameters = json.loads((out / "parameters.json").read_text())
    assert parameters["machine_a"]["source"] == "ALCF-Theta-2023H2" and not parameters["machine_a"]["synthetic"]
    # The calibration reached its target, as near as whole 512-node partitions let it (the wait is a step
    # function of the width factor: near the target, not on it).
    assert parameters["machine_a"]["calibrated_base_wait"] / 60 == pytest.approx(61, rel=0.05)
    assert parameters["machine_a"]["procs"] == 40960 and parameters["machine_a"]["source_procs"] == 4360
    a_jobs = pd.read_parquet(report.requires()["a"].output_file("jobs.parquet"))
    assert (a_jobs["allocated_procs"] % 512 == 0).all() and a_jobs["allocated_procs"].between(512, 32768).all()
    runs = pd.read_csv(out / "runs.csv")
    b_loads = runs[(runs["series"] == "load") & (runs["machine"] == "B")]
    assert ((b_loads["offered_load"] - b_loads["x"]).abs() <= 0.03).all()  # points are what their labels say
    deadlocks = pd.read_csv(out / "deadlocks.csv")
    released = deadlocks[deadlocks["release"] == "on"]
    assert (released["deadlocked runs"] == 0).all()
