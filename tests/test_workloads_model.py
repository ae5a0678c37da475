"""Model documents: schema validation, atomic writing, built-in models."""

import copy
import json

import numpy as np
import pytest

from schedlab.parsers.schema import as_job_table
from schedlab.errors import SchedlabError
from schedlab.workloads.fitting import fit_workload
from schedlab.workloads.model import (
    ModelError,
    builtin_lublin_feitelson_model,
    load_model,
    model_json,
    save_model,
    validate_model,
)


def tiny_jobs():
    rng = np.random.default_rng(0)
    n = 600
    return as_job_table(
        {
            "job_id": np.arange(1, n + 1),
            "submit_time": np.cumsum(rng.exponential(200.0, n)).round(),
            "run_time": rng.lognormal(5.0, 1.0, n).round() + 1,
            "allocated_procs": rng.choice([1, 2, 4, 8, 3], n),
            "requested_time": np.full(n, 3600.0),
        }
    )


@pytest.fixture(scope="module")
def fitted():
    return fit_workload(tiny_jobs(), 16, trace_name="tiny.swf", sha256="ab" * 32)


def test_fitting_reports_its_three_slow_parts_as_it_goes():
    reports = []
    fit_workload(tiny_jobs(), 16, trace_name="tiny.swf", sha256="ab" * 32,
                 progress=lambda done, total: reports.append((done, total)))
    assert reports == [(0, 3), (1, 3), (2, 3), (3, 3)]


def without(document, dotted):
    broken = copy.deepcopy(document)
    *parents, last = dotted.split(".")
    target = broken
    for name in parents:
        target = target[name]
    del target[last]
    return broken


def test_fitted_and_builtin_models_validate_and_survive_a_round_trip(tmp_path, fitted):
    for document in (fitted, builtin_lublin_feitelson_model()):
        path = tmp_path / f"{document['kind']}.json"
        save_model(document, path)
        assert load_model(path) == json.loads(model_json(document))
    assert load_model("builtin:lublin-feitelson-1999") == builtin_lublin_feitelson_model()


@pytest.mark.parametrize(
    "field",
    ["schema_version", "arrivals.gaps.chosen", "runtimes.candidates.weibull.params.shape", "sizes.umed",
     "requested_time_accuracy", "size_runtime_correlation.normal_scores", "source.sha256"],
)
def test_a_missing_field_is_named_and_nothing_is_written(tmp_path, fitted, field):
    target = tmp_path / "model.json"
    with pytest.raises(ModelError, match=f"missing field '{field}'"):
        save_model(without(fitted, field), target)
    assert not target.exists()


def test_a_missing_builtin_parameter_is_named():
    with pytest.raises(ModelError, match="missing field 'parameters.runtimes.p_per_proc'"):
        validate_model(without(builtin_lublin_feitelson_model(), "parameters.runtimes.p_per_proc"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(schema_version=3), "unsupported schema_version 3"),
        (lambda d: d.update(schema="other"), "field 'schema'"),
        (lambda d: d.update(kind="poisson"), "field 'kind'"),
        (lambda d: d["arrivals"].update(hour_of_day_weights=[1.0] * 23), "list of 24 numbers"),
        (lambda d: d["arrivals"]["hour_of_day_weights"].__setitem__(3, 0.0), "must lie in"),
        (lambda d: d["runtimes"].update(chosen="pareto"), "field 'runtimes.chosen'"),
        (lambda d: d["sizes"].update(umed=100.0), "ulow.*umed.*uhi"),
        (lambda d: d["sizes"].update(serial_prob=0.9, pow2_prob=0.5), "must not exceed 1"),
        (lambda d: d["runtimes"]["candidates"]["gamma"].update(ks=float("nan")), "finite number"),
        (lambda d: d["size_runtime_correlation"].update(normal_scores=1.0), "normal_scores"),
        (lambda d: d.update(machine_procs=1), "machine_procs"),
    ],
)
def test_wrong_values_are_refused_with_the_field_named(fitted, change, message):
    broken = copy.deepcopy(fitted)
    change(broken)
    with pytest.raises(ModelError, match=message):
        validate_model(broken)


def test_a_failed_save_leaves_an_existing_file_untouched(tmp_path, fitted):
    target = tmp_path / "model.json"
    save_model(fitted, target)
    before = target.read_bytes()
    with pytest.raises(ModelError):
        save_model(without(fitted, "arrivals"), target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["model.json"]


def test_loading_reports_the_file_and_the_problem(tmp_path, fitted):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json")
    with pytest.raises(ModelError, match="bad.json:1: not valid JSON"):
        load_model(bad_json)
    old = tmp_path / "old.json"
    old.write_text(json.dumps({**fitted, "schema_version": 0}))
    with pytest.raises(ModelError, match="old.json: unsupported schema_version 0"):
        load_model(old)
    with pytest.raises(SchedlabError, match="absent.json: no such file"):
        load_model(tmp_path / "absent.json")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ModelError, match=r"deep.json: JSON nested too deeply to be a model"):
        load_model(deep)
    with pytest.raises(ModelError, match="JSON object"):
        validate_model([1, 2])


def test_fitting_refuses_jobs_that_all_run_alike_with_a_reason():
    jobs = tiny_jobs().assign(run_time=600.0)
    with pytest.raises(SchedlabError, match=r"^every usable job has the same run time, 600 s: a distribution fitted "
                                            r"to one value is degenerate"):
        fit_workload(jobs, 16, trace_name="alike.swf", sha256="ab" * 32)


def test_fitting_refuses_a_machine_too_large_for_the_size_model_before_allocating_it():
    jobs = tiny_jobs()
    with pytest.raises(SchedlabError, match=r"a machine of 1,000,000,000,000 processors is beyond the size model's "
                                            r"16,777,216"):
        fit_workload(jobs, 10**12, trace_name="huge.swf", sha256="ab" * 32)
