"""Workload model documents: a versioned JSON schema, its validation, reading and writing.

A model is one JSON object.  Every model has

* ``schema``: ``"schedlab-workload-model"`` and ``schema_version``: ``2`` (version 2 added
  ``requested_time_accuracy.max_requested_time``; refit a version-1 model with ``schedlab fit``);
* ``kind``: ``"fitted"`` (fitted on a trace by :mod:`schedlab.workloads.fitting`) or
  ``"lublin-feitelson-1999"`` (the built-in model of :mod:`schedlab.workloads.lublin`);
* ``source``: where it comes from (for a fitted model, the trace's name and the
  SHA-256 of its decompressed content, its machine size and how many jobs were used).

A ``lublin-feitelson-1999`` model holds ``parameters`` with the sections ``sizes``,
``runtimes`` and ``arrivals`` of :data:`schedlab.workloads.lublin.DEFAULT_PARAMETERS`, and may say
where requested times come from in ``requested_times``: ``"tsafrir-etsion-feitelson-2005"``
(the user-estimate model of :mod:`schedlab.workloads.estimates`; the built-in model's default) or
``"exact"`` (requested time = runtime; also what a document without the field means).

A ``fitted`` model holds:

``machine_procs``
    processors of the source machine.
``arrivals``
    ``hour_of_day_weights`` (24, Monday-Sunday independent) and ``day_of_week_weights``
    (7, Monday first), both > 0; ``zero_gap_share``, the share of jobs submitted in the
    same second as the previous one; ``gaps``, a *family fit* of the non-zero gaps
    measured on the warped clock of those weights (:mod:`schedlab.workloads.cycle`).
``sizes``
    the parameters of :class:`schedlab.workloads.sizes.SizeModel` plus ``log_likelihood``,
    ``ks`` and the ``observed_classes`` shares.
``runtimes``
    a family fit of the runtimes in seconds.
``size_runtime_correlation``
    ``normal_scores`` (in (-1, 1): the correlation of the normal scores of size and
    runtime ranks, the parameter of the Gaussian copula used by the synthesis) and
    ``spearman`` (the trace's rank correlation, for reference).
``requested_time_accuracy``
    ``null`` when the trace has no requested times; else ``log10_ratio_quantiles``
    (101 non-decreasing values: the 0th..100th percentiles of log10(requested / actual
    runtime)), ``share_below_one``, ``jobs`` and ``max_requested_time`` (the trace's longest
    requested time in seconds: no synthetic request exceeds it).

A *family fit* is ``{"chosen": family, "upper_limit": largest observed value,
"candidates": {family: {"params", "log_likelihood", "aic", "ks"}}}`` with every family of
:data:`schedlab.workloads.distributions.FAMILY_PARAMETERS` among the candidates.

Documents are validated completely before use and before writing, so that a model with
a missing field or a wrong schema version is refused with a message naming the field,
and a file on disk is always a valid model.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

from schedlab.atomic import write_text
from schedlab.errors import SchedlabError, require_regular_file
from schedlab.workloads import estimates, lublin
from schedlab.workloads.distributions import FAMILY_PARAMETERS

SCHEMA_NAME = "schedlab-workload-model"
SCHEMA_VERSION = 2
FITTED = "fitted"
SIZE_PARAMETERS = ("serial_prob", "pow2_prob", "ulow", "umed", "uhi", "uprob")
PERCENTILES = 101


class ModelError(SchedlabError):
    """A workload model document that does not follow the schema."""


EXACT_ESTIMATES = "exact"
REQUESTED_TIME_MODELS = (estimates.MODEL_NAME, EXACT_ESTIMATES)


def builtin_lublin_feitelson_model(requested_times: str = estimates.MODEL_NAME) -> dict:
    """The Lublin-Feitelson model with its published default parameters, as a document;
    requested times from ``requested_times`` (one of ``REQUESTED_TIME_MODELS``)."""
    return {
        "schema": SCHEMA_NAME,
        "schema_version": SCHEMA_VERSION,
        "kind": lublin.MODEL_NAME,
        "source": {"citation": lublin.CITATION},
        "parameters": {section: dict(values) for section, values in lublin.DEFAULT_PARAMETERS.items()},
        "requested_times": requested_times,
    }


def exact_estimates(document: dict) -> bool:
    """Whether a Lublin-Feitelson document asks for requested times equal to runtimes."""
    return document.get("requested_times", EXACT_ESTIMATES) == EXACT_ESTIMATES


CODE_DATA_FILES = ("models/*.json",)
"""The shipped models are part of this module's code: a task that reads them is keyed on them too
(``pipeline.base.DATA_FILES``)."""

FITTED_MODELS = Path(__file__).parent / "models"
"""Models fitted by ``schedlab fit`` to Parallel Workloads Archive traces and shipped with the package
(the traces are not): each file is the command's output, unedited."""


def builtin_fitted_model(file_name: str):
    def load() -> dict:
        return validate_model(json.loads((FITTED_MODELS / file_name).read_text(encoding="utf-8")))

    load.__doc__ = f"The model ``schedlab fit`` makes of {file_name.removesuffix('.json')} (shipped, validated on load)."
    return load


BUILTIN_MODELS = {f"builtin:{lublin.MODEL_NAME}": builtin_lublin_feitelson_model,
                  "builtin:kth-sp2-1996": builtin_fitted_model("kth-sp2-1996-2.2.json")}

BUILTIN_FITS = {"KTH-SP2-1996-2.2": "builtin:kth-sp2-1996"}
"""Trace name -> the built-in model ``schedlab fit`` made of it: what stands in for the trace's own
fit where the trace is not at hand."""


def _field(document, path: str):
    """The value at a dotted ``path``, or ModelError naming the first missing part."""
    value = document
    walked = []
    for name in path.split("."):
        walked.append(name)
        if not isinstance(value, dict):
            raise ModelError(f"field '{'.'.join(walked[:-1])}' must be a JSON object")
        if name not in value:
            raise ModelError(f"missing field '{'.'.join(walked)}'")
        value = value[name]
    return value


def _number(document, path: str, low=-math.inf, high=math.inf, *, low_open=False, high_open=False) -> float:
    value = _field(document, path)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ModelError(f"field '{path}' must be a finite number, got {value!r}")
    too_low = value <= low if low_open else value < low
    too_high = value >= high if high_open else value > high
    if too_low or too_high:
        opening = "(" if low_open else "["
        closing = ")" if high_open else "]"
        raise ModelError(f"field '{path}' must lie in {opening}{low}, {high}{closing}, got {value!r}")
    return value


def _positive(document, path: str) -> float:
    return _number(document, path, 0, low_open=True)


def _integer(document, path: str, low: int) -> int:
    value = _field(document, path)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ModelError(f"field '{path}' must be a whole number >= {low}, got {value!r}")
    return value


def _number_list(document, path: str, length: int, *, positive: bool = False) -> list:
    values = _field(document, path)
    if not isinstance(values, list) or len(values) != length:
        raise ModelError(f"field '{path}' must be a list of {length} numbers")
    for index in range(length):
        if positive:
            _positive({"item": values[index]}, "item")
        else:
            _number({"item": values[index]}, "item")
    return values


def _check_family_params(document, path: str, family: str) -> None:
    for name in FAMILY_PARAMETERS[family]:
        if family == "lognormal" and name == "mu":
            _number(document, f"{path}.{name}")
        elif name == "p":
            _number(document, f"{path}.{name}", 0, 1, low_open=True, high_open=True)
        else:
            _positive(document, f"{path}.{name}")


def _check_family_fit(document, path: str) -> None:
    chosen = _field(document, f"{path}.chosen")
    candidates = _field(document, f"{path}.candidates")
    if not isinstance(candidates, dict):
        raise ModelError(f"field '{path}.candidates' must be a JSON object")
    if chosen not in FAMILY_PARAMETERS:
        raise ModelError(f"field '{path}.chosen' must be one of {', '.join(FAMILY_PARAMETERS)}, got {chosen!r}")
    _positive(document, f"{path}.upper_limit")
    for family in FAMILY_PARAMETERS:
        candidate = f"{path}.candidates.{family}"
        _check_family_params(document, f"{candidate}.params", family)
        _number(document, f"{candidate}.log_likelihood")
        _number(document, f"{candidate}.aic")
        _number(document, f"{candidate}.ks", 0, 1)


def _check_size_model(document, path: str) -> None:
    values = {name: _number(document, f"{path}.{name}") for name in SIZE_PARAMETERS}
    for name in ("serial_prob", "pow2_prob", "uprob"):
        _number(document, f"{path}.{name}", 0, 1)
    if values["serial_prob"] + values["pow2_prob"] > 1:
        raise ModelError(f"fields '{path}.serial_prob' + '{path}.pow2_prob' must not exceed 1")
    if not values["ulow"] < values["umed"] < values["uhi"]:
        raise ModelError(f"fields '{path}.ulow' < '{path}.umed' < '{path}.uhi' must hold")
    if values["ulow"] < 0:
        raise ModelError(f"field '{path}.ulow' must be >= 0")


def _check_fitted(document) -> None:
    _field(document, "source.trace")
    sha256 = _field(document, "source.sha256")
    if not (isinstance(sha256, str) and len(sha256) == 64 and all(c in "0123456789abcdef" for c in sha256)):
        raise ModelError("field 'source.sha256' must be 64 lowercase hexadecimal digits")
    _integer(document, "machine_procs", 2)
    _number_list(document, "arrivals.hour_of_day_weights", 24, positive=True)
    _number_list(document, "arrivals.day_of_week_weights", 7, positive=True)
    _number(document, "arrivals.zero_gap_share", 0, 1, high_open=True)
    _check_family_fit(document, "arrivals.gaps")
    _check_size_model(document, "sizes")
    _check_family_fit(document, "runtimes")
    _number(document, "size_runtime_correlation.normal_scores", -1, 1, low_open=True, high_open=True)
    _number(document, "size_runtime_correlation.spearman", -1, 1)
    if _field(document, "requested_time_accuracy") is not None:
        quantiles = _number_list(document, "requested_time_accuracy.log10_ratio_quantiles", PERCENTILES)
        if any(later < earlier for earlier, later in itertools.pairwise(quantiles)):
            raise ModelError("field 'requested_time_accuracy.log10_ratio_quantiles' must not decrease")
        _number(document, "requested_time_accuracy.share_below_one", 0, 1)
        _integer(document, "requested_time_accuracy.jobs", 2)
        _positive(document, "requested_time_accuracy.max_requested_time")


def _check_lublin_feitelson(document) -> None:
    for section, defaults in lublin.DEFAULT_PARAMETERS.items():
        for name in defaults:
            _number(document, f"parameters.{section}.{name}")
    _check_size_model(document, "parameters.sizes")
    runtimes = "parameters.runtimes"
    for name in ("shape1", "scale1", "shape2", "scale2", "max_log_runtime"):
        _positive(document, f"{runtimes}.{name}")
    arrivals = "parameters.arrivals"
    for name in ("log_gap_shape", "rush_to_all_ratio", "log_gap_scale", "max_log_gap", "daily_cycle_shape", "daily_cycle_scale"):
        _positive(document, f"{arrivals}.{name}")
    requested = document.get("requested_times", EXACT_ESTIMATES)
    if requested not in REQUESTED_TIME_MODELS:
        raise ModelError(f"field 'requested_times' must be one of {REQUESTED_TIME_MODELS}, got {requested!r}")


def validate_model(document) -> dict:
    """Check ``document`` against the schema; return it, or raise :class:`ModelError`."""
    if not isinstance(document, dict):
        raise ModelError("a workload model must be a JSON object")
    schema = _field(document, "schema")
    if schema != SCHEMA_NAME:
        raise ModelError(f"field 'schema' must be {SCHEMA_NAME!r}, got {schema!r}")
    version = _field(document, "schema_version")
    if version != SCHEMA_VERSION:
        raise ModelError(f"unsupported schema_version {version!r}: this schedlab reads version {SCHEMA_VERSION} "
                         "(refit the trace with 'schedlab fit')")
    kind = _field(document, "kind")
    _field(document, "source")
    if kind == FITTED:
        _check_fitted(document)
    elif kind == lublin.MODEL_NAME:
        _check_lublin_feitelson(document)
    else:
        raise ModelError(f"field 'kind' must be {FITTED!r} or {lublin.MODEL_NAME!r}, got {kind!r}")
    return document


def load_model(source) -> dict:
    """A validated model from a JSON file, or a built-in one by name (``builtin:...``)."""
    if str(source) in BUILTIN_MODELS:
        return BUILTIN_MODELS[str(source)]()
    path = Path(source)
    require_regular_file(path, "a model JSON file")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SchedlabError(f"cannot read model {path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        line = path.read_bytes().count(b"\n", 0, error.start) + 1
        raise ModelError(f"{path}:{line}: not a model JSON file (binary or not UTF-8 text)") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ModelError(f"{path}:{error.lineno}: not valid JSON ({error.msg})") from None
    except RecursionError:
        raise ModelError(f"{path}: JSON nested too deeply to be a model (a model is a few levels deep)") from None
    try:
        return validate_model(document)
    except ModelError as error:
        raise ModelError(f"{path}: {error}") from None


def model_json(document) -> str:
    """The canonical text of a model: validated, indented, keys in schema order, no NaN."""
    validate_model(document)
    return json.dumps(document, indent=2, allow_nan=False) + "\n"


def save_model(document, path) -> None:
    """Validate, then write atomically: an invalid model never reaches the disk."""
    write_text(path, model_json(document))
