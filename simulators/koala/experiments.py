"""The paper's simulation experiments as lists of points, and how their results combine.

Sonmez, Mohamed, Epema, TPDS 2010:

- ``coallocation`` (Sec. 6.3, Fig. 7, Table 4): Prime, Poisson and Wave workloads, job
  sizes uniform on {8, 16, 32}, DAS-3 config A, WF (no coallocation) versus FCM, and Wave
  versus FCM limited to two clusters; net utilization 10..90 % step 5.
- ``ccr`` (Fig. 8): the synthetic application at several CCRs, WF versus FCM.
- ``policies`` (Sec. 7.2, Fig. 10): Wave, sizes {32, 48, 64}, FCM versus CA on config A
  (without Delft) and B (with Delft); net utilization 20..80 % step 5.

A profile says which utilizations, CCRs, seeds and simulated hours; ``paper`` follows the
paper (24 h; the paper does not say how many runs it averaged, we take 5 seeds),
``quick`` is a coarse grid over 6 h on the same 5 seeds (the fewest on which the claims
ledger decides a claim), small enough for CI.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simulators.koala.simulate import Point


def _percent_grid(low: int, high: int, step: int) -> tuple[float, ...]:
    return tuple(round(u / 100.0, 2) for u in range(low, high + 1, step))


@dataclass(frozen=True)
class Profile:
    coallocation_utilizations: tuple[float, ...]
    policies_utilizations: tuple[float, ...]
    ccrs: tuple[float, ...]
    seeds: tuple[int, ...]
    hours: float


PROFILES = {
    "paper": Profile(
        coallocation_utilizations=_percent_grid(10, 90, 5),
        policies_utilizations=_percent_grid(20, 80, 5),
        ccrs=(0.1, 0.25, 0.5, 1.0, 2.0, 4.0),
        seeds=(1, 2, 3, 4, 5),
        hours=24.0,
    ),
    "quick": Profile(
        coallocation_utilizations=_percent_grid(10, 90, 20),
        policies_utilizations=_percent_grid(20, 80, 20),
        ccrs=(0.1, 0.25, 0.5, 1.0, 4.0),
        seeds=(1, 2, 3, 4, 5),
        hours=6.0,
    ),
}

MPI_APPS = {"prime": "Prime", "poisson": "Poisson", "wave": "Wave"}
POLICY_LABELS = {"WF": "WF", "FCM": "FCM", "FCM2": "FCM<=2", "CA": "CA"}
"""How the report names each policy (``FCM2`` is FCM combining at most two clusters)."""
LARGE_JOBS = (32, 48, 64)


@dataclass(frozen=True)
class Comparison:
    """One line of a figure: ``treatment`` against ``baseline`` on the same workloads."""

    experiment: str
    label: str
    app: str
    baseline: str
    treatment: str
    config: str = "A"
    sizes: tuple[int, ...] = (8, 16, 32)


def comparisons(profile: Profile) -> list[Comparison]:
    lines = [Comparison("coallocation", label, app, "WF", "FCM") for app, label in MPI_APPS.items()]
    lines.append(Comparison("coallocation", "Wave (FCM<=2)", "wave", "WF", "FCM2"))
    lines += [Comparison("ccr", f"CCR-{ccr:g}", f"ccr-{ccr:g}", "WF", "FCM") for ccr in profile.ccrs]
    lines += [
        Comparison("policies", f"config {config}", "wave", "FCM", "CA", config, LARGE_JOBS) for config in ("A", "B")
    ]
    return lines


def utilizations(profile: Profile, experiment: str) -> tuple[float, ...]:
    return profile.policies_utilizations if experiment == "policies" else profile.coallocation_utilizations


def points(profile: Profile) -> list[Point]:
    """Every simulation the profile needs, each once, in a fixed order."""
    unique: dict[Point, None] = {}
    for line in comparisons(profile):
        for utilization in utilizations(profile, line.experiment):
            for seed in profile.seeds:
                for policy in (line.baseline, line.treatment):
                    point = Point(line.app, policy, utilization, seed, line.config, line.sizes, profile.hours)
                    unique[point] = None
    return list(unique)


RUN_KEYS = ["app", "policy", "config", "sizes", "net_utilization"]


def mean_over_seeds(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per (app, policy, config, sizes, utilization): means over seeds; saturated by majority."""
    runs = runs.assign(sizes=runs["sizes"].map(_sizes_key))
    grouped = runs.groupby(RUN_KEYS, sort=True)
    table = grouped[
        ["mean_response_time", "mean_wait_time", "mean_run_time", "observed_utilization",
         "coallocated_fraction", "net_utilization_realized"]
    ].mean()
    table["saturated_runs"] = grouped["saturated"].sum()
    table["runs"] = grouped["saturated"].size()
    table["saturated"] = table["saturated_runs"] * 2 > table["runs"]
    return table.reset_index()


def comparison_table(means: pd.DataFrame, line: Comparison) -> pd.DataFrame:
    """Per utilization: both policies' mean response times and the % change (treatment vs baseline)."""
    sizes = _sizes_key(line.sizes)
    mine = means[(means.app == line.app) & (means.config == line.config) & (means.sizes == sizes)]
    columns = ["net_utilization", "mean_response_time", "observed_utilization", "saturated", "coallocated_fraction"]
    base = mine[mine.policy == line.baseline][columns].set_index("net_utilization")
    treated = mine[mine.policy == line.treatment][columns].set_index("net_utilization")
    joined = base.merge(treated, left_index=True, right_index=True, suffixes=("_baseline", "_treatment"))
    joined["percent_change"] = 100.0 * (
        joined["mean_response_time_treatment"] / joined["mean_response_time_baseline"] - 1.0
    )
    return joined.reset_index().assign(experiment=line.experiment, label=line.label)


def saturation_interval(utilization: np.ndarray, saturated: np.ndarray) -> tuple[float | None, float | None]:
    """(highest utilization below the first saturated one, first saturated one); None where open."""
    order = np.argsort(utilization)
    utilization, saturated = np.asarray(utilization)[order], np.asarray(saturated)[order]
    hits = np.flatnonzero(saturated)
    if hits.size == 0:
        return (float(utilization[-1]), None) if utilization.size else (None, None)
    first = hits[0]
    return (float(utilization[first - 1]) if first > 0 else None, float(utilization[first]))


def format_interval(interval: tuple[float | None, float | None]) -> str:
    low, high = interval
    if high is None:
        return f"> {100 * low:.0f} %" if low is not None else "n/a"
    if low is None:
        return f"<= {100 * high:.0f} %"
    return f"{100 * low:.0f}-{100 * high:.0f} %"


def _sizes_key(sizes) -> str:
    return "/".join(map(str, sizes))


def line_tables(means: pd.DataFrame, profile: Profile) -> dict[str, pd.DataFrame]:
    return {line.label: comparison_table(means, line) for line in comparisons(profile)}


def saturation_intervals(means: pd.DataFrame, profile: Profile) -> dict[tuple[str, str], tuple]:
    """(comparison label, policy) -> saturation interval of that policy on that line's workloads."""
    intervals = {}
    for line in comparisons(profile):
        for policy in (line.baseline, line.treatment):
            rows = means[
                (means.app == line.app) & (means.config == line.config)
                & (means.sizes == _sizes_key(line.sizes)) & (means.policy == policy)
            ]
            intervals[(line.label, policy)] = saturation_interval(
                rows["net_utilization"].to_numpy(), rows["saturated"].to_numpy()
            )
    return intervals
