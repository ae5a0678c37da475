"""Every stage has the same shape (docs/architecture.md, "Anatomy of a stage"): a newcomer who learned one knows all.

For each stage of ``pipeline.stages.STAGES``:

- ``schedlab.simulators.<stage>.experiments`` holds its ``PROFILES``, ``quick`` and ``paper`` among them;
- ``schedlab.simulators.<stage>.simulate.simulate(point, ...)`` runs one point of the experiment (the stage's
  ``Point``), what earlier tasks computed for it after the point;
- ``schedlab.reports.<stage>.write_report(directory, results, parameters)`` writes its whole report and
  returns the claims ledger;
- ``schedlab.reports.<stage>_claims.CLAIMS`` is the stage's claims;
- ``schedlab.reports.<stage>_causes`` has ``CAUSES`` (for claims of the stage only) and
  ``causes_frame(claims, results, parameters)``.
"""

from __future__ import annotations

import importlib
import inspect

import pytest

from pipeline.stages import STAGES


@pytest.mark.parametrize("stage", STAGES, ids=lambda stage: stage.name)
def test_every_stage_has_the_one_shape(stage):
    experiments = importlib.import_module(f"schedlab.simulators.{stage.name}.experiments")
    assert {"quick", "paper"} <= set(experiments.PROFILES)

    simulate = importlib.import_module(f"schedlab.simulators.{stage.name}.simulate").simulate
    point = next(iter(inspect.signature(simulate).parameters.values()))
    assert point.name == "point" and point.annotation == "Point"

    report = importlib.import_module(f"schedlab.reports.{stage.name}")
    assert list(inspect.signature(report.write_report).parameters) == ["directory", "results", "parameters"]

    claims = importlib.import_module(f"schedlab.reports.{stage.name}_claims")
    assert claims.CLAIMS == stage.claims

    causes = importlib.import_module(f"schedlab.reports.{stage.name}_causes")
    assert set(causes.CAUSES) <= {claim.claim_id for claim in stage.claims}
    assert list(inspect.signature(causes.causes_frame).parameters) == ["claims", "results", "parameters"]


def test_a_stage_without_the_shape_is_caught(monkeypatch):
    report = importlib.import_module("schedlab.reports.koala")
    monkeypatch.setattr(report, "write_report", lambda directory, runs, parameters, cluster_use=None: None)
    with pytest.raises(AssertionError):
        test_every_stage_has_the_one_shape(next(stage for stage in STAGES if stage.name == "koala"))
