"""Measured causes of the koala claims our runs do not reproduce.

A claim judged anything but reproduced gets one sentence of what our runs measure behind
its statistic, every number a mean over the replication seeds of ``runs.csv``: a change in
mean response time split into its queue-wait and execution parts, with the share of jobs
the coallocating policy split (a split job runs longer by the communication factor, a
job that need not wait for one cluster starts sooner); a saturation point beside the
utilization the system observed at the last load no seed saturated (coallocated jobs
stretched by the communication factor occupy more node-time than the net load offers); the
cluster sets each policy's coallocated jobs used most; the CCR the model gives each MPI
application.  An undecided claim's cause starts with its seeds' spread (``schedlab.reports.causes``).
"""

from __future__ import annotations

import pandas as pd

from schedlab.reports.causes import Cause, column_mean, combined, measured_causes, row_causes
from schedlab.reports.koala_claims import (
    CLAIMS,
    CLUSTER_USE,
    COALLOCATION_MATTERS,
    LARGE_JOBS,
    PAPER_CCR_MATCH,
    RUNS,
    SMALL_JOBS,
    first_saturated_load,
    percent,
    rows_where,
)
from schedlab.reports.ledger import NotMeasured, Results

LARGE_JOB_CONFIGS = ("A", "B")
"""Sec. 7.2's configurations: A without Delft, B with it."""


def config_name(parameters: dict, config: str) -> str:
    """``config A (VU, UvA, ...)``: the clusters come from the parameters the runs used."""
    clusters = parameters.get("configs", {}).get(config, {}).get("clusters", [])
    return f"config {config}" + (f" ({', '.join(cluster['name'] for cluster in clusters)})" if clusters else "")


def unsaturated_loads(runs: pd.DataFrame, where: dict, policies) -> list[float]:
    """The grid loads at which no seed of any of ``policies`` saturated."""
    rows = rows_where(runs, where)
    loads = sorted(float(load) for load in rows["net_utilization"].unique())
    mine = rows[rows["policy"].isin(policies)]
    hit = set(mine.loc[mine["saturated"].astype(bool), "net_utilization"].astype(float))
    return [load for load in loads if load not in hit]


def response_split(runs: pd.DataFrame, where: dict, treatment: str, baseline: str, load: float, label: str) -> str:
    """``treatment``'s mean response time against ``baseline``'s at ``load``: the difference split into
    queue wait and execution, and the share of ``treatment``'s jobs it coallocated."""
    def mean(policy: str, column: str) -> float:
        return column_mean(rows_where(runs, {**where, "policy": policy, "net_utilization": load}), column)

    return (f"{label}{percent(load)}: {treatment} {mean(treatment, 'mean_response_time'):.0f} s against {baseline} "
            f"{mean(baseline, 'mean_response_time'):.0f} s, wait "
            f"{mean(treatment, 'mean_wait_time') - mean(baseline, 'mean_wait_time'):+.1f} s and execution "
            f"{mean(treatment, 'mean_run_time') - mean(baseline, 'mean_run_time'):+.1f} s "
            f"({100 * mean(treatment, 'coallocated_fraction'):.0f} % of its jobs coallocated)")


def saturation_split(runs: pd.DataFrame, where: dict, policy: str, label: str) -> str:
    """Per seed, where ``policy`` first saturated, and the utilization observed at the last load no seed did."""
    first, grid = first_saturated_load(runs, {**where, "policy": policy})
    seeds = ", ".join(f">{100 * grid[-1]:.0f}" if pd.isna(load) else f"{100 * load:.0f}" for load in first)
    stable = [load for load in unsaturated_loads(runs, where, (policy,)) if not load >= first.min()]
    text = f"{label}{policy} first saturates at {seeds} % (per seed)"
    if not stable:
        return text + ", already at the grid's lowest load"
    load = stable[-1]
    at = rows_where(runs, {**where, "policy": policy, "net_utilization": load})
    return (f"{text}; at {percent(load)} net, the last load no seed saturated, it keeps "
            f"{100 * column_mean(at, 'observed_utilization'):.0f} % of the nodes busy, its jobs running "
            f"{column_mean(at, 'mean_run_time'):.0f} s on average ({100 * column_mean(at, 'coallocated_fraction'):.0f} % "
            "coallocated)")


# --- one cause per claim -------------------------------------------------------------------------


def split_at(app: str, treatment: str, baseline: str, pick) -> Cause:
    """Response splits of ``app`` (Sec. 6.3 jobs) at the loads ``pick`` chooses from the stable ones."""
    def cause(results: Results, parameters: dict) -> str:
        runs = results[RUNS]
        where = {**SMALL_JOBS, "app": app}
        loads = pick(unsaturated_loads(runs, where, (treatment, baseline)))
        return "; ".join(response_split(runs, where, treatment, baseline, load, f"{app} ") for load in loads) + "."
    return cause


def _first_and_last(loads: list[float]) -> list[float]:
    return sorted({loads[0], loads[-1]}) if loads else []


def _above_40(up_to: float = 1.0):
    """The first and last of the loads above 40 % (where coallocation starts to matter) up to ``up_to``."""
    def pick(loads: list[float]) -> list[float]:
        return _first_and_last([load for load in loads if COALLOCATION_MATTERS + 1e-9 < load <= up_to + 1e-9])
    return pick


def _first_above_40(loads: list[float]) -> list[float]:
    return _above_40()(loads)[:1]


def no_difference_up_to_40(results: Results, parameters: dict) -> str:
    """Each application's split at the highest load of the grid up to 40 %, where the claim's range ends."""
    runs = results[RUNS]
    parts = []
    for app in ("prime", "poisson", "wave"):
        where = {**SMALL_JOBS, "app": app}
        loads = sorted(load for load in rows_where(runs, where)["net_utilization"].unique()
                       if load <= COALLOCATION_MATTERS + 1e-9)
        if loads:
            parts.append(response_split(runs, where, "FCM", "WF", loads[-1], f"{app} "))
    if not parts:
        raise NotMeasured("no load up to 40 % in the grid")
    return "; ".join(parts) + "."


def saturation(where: dict, policies, label: str = "") -> Cause:
    def cause(results: Results, parameters: dict) -> str:
        return "; ".join(saturation_split(results[RUNS], where, policy, label) for policy in policies) + "."
    return cause


def large_jobs_saturation(config: str) -> Cause:
    def cause(results: Results, parameters: dict) -> str:
        label = f"Wave 32/48/64 in {config_name(parameters, config)}: "
        return saturation({**LARGE_JOBS, "config": config}, ("FCM", "CA"), label)(results, parameters)
    return cause


def ca_against_fcm(pick) -> Cause:
    """CA's response split against FCM's for the large Wave jobs of each configuration."""
    def cause(results: Results, parameters: dict) -> str:
        runs = results[RUNS]
        parts = []
        for config in LARGE_JOB_CONFIGS:
            where = {**LARGE_JOBS, "config": config}
            parts += [response_split(runs, where, "CA", "FCM", load, f"{config_name(parameters, config)} ")
                      for load in pick(unsaturated_loads(runs, where, ("CA", "FCM")))]
        return "; ".join(parts) + "."
    return cause


def model_ccrs(results: Results, parameters: dict) -> str:
    """The CCR each MPI application has in the model, beside the synthetic one the paper matches it with."""
    apps = parameters.get("applications", {})
    known = [app for app in PAPER_CCR_MATCH if app in apps]
    if not known:
        raise NotMeasured("the parameters name no MPI application")
    return "The model's CCRs: " + "; ".join(
        f"{apps[app]['name']} {apps[app]['ccr']:.3g} (the paper matches it with CCR {PAPER_CCR_MATCH[app]:g})"
        for app in known) + "."


def split_sets(results: Results, parameters: dict) -> str:
    """Per configuration and policy, the cluster sets its coallocated Wave 32/48/64 jobs used most."""
    if CLUSTER_USE not in results:
        raise NotMeasured("no cluster use table")
    use = results[CLUSTER_USE]
    parts = []
    for config in LARGE_JOB_CONFIGS:
        for policy in ("CA", "FCM"):
            mine = rows_where(use, {**LARGE_JOBS, "config": config, "policy": policy})
            split = mine[mine["clusters"].astype(str).str.contains("+", regex=False)]
            by_set = split.groupby("clusters")["jobs"].sum().sort_values(ascending=False, kind="stable")
            if by_set.empty:
                parts.append(f"{config_name(parameters, config)}, {policy}: no job coallocated")
                continue
            top = ", ".join(f"{name} {100 * jobs / by_set.sum():.0f} %" for name, jobs in by_set.head(3).items())
            parts.append(f"{config_name(parameters, config)}, {policy}: {top} of its coallocated jobs")
    return "; ".join(parts) + "."


NUMBER_CAUSES: dict[str, Cause] = {
    "fig7a-no-difference-up-to-40": no_difference_up_to_40,
    "table4-prime-wf-saturation": saturation({**SMALL_JOBS, "app": "prime"}, ("WF", "FCM"), "prime: "),
    "table4-prime-fcm-saturation": saturation({**SMALL_JOBS, "app": "prime"}, ("WF", "FCM"), "prime: "),
    "fig7a-poisson-fcm-turns-at-75": combined(split_at("poisson", "FCM", "WF", _above_40(0.75)),
                                              saturation({**SMALL_JOBS, "app": "poisson"}, ("WF", "FCM"), "poisson: ")),
    "fig7a-wave-fcm-slower": combined(split_at("wave", "FCM", "WF", _first_above_40),
                                     saturation({**SMALL_JOBS, "app": "wave"}, ("WF", "FCM"), "wave: ")),
    "table4-wave-fcm-saturates-early": saturation({**SMALL_JOBS, "app": "wave"}, ("WF", "FCM"), "wave: "),
    "fig7a-wave-two-cluster-limit": combined(split_at("wave", "FCM", "FCM2", _above_40()),
                                            split_at("wave", "FCM2", "WF", _above_40()),
                                            saturation({**SMALL_JOBS, "app": "wave"}, ("FCM", "FCM2"), "wave: ")),
    "fig7b-wave-observed-above-net": saturation({**SMALL_JOBS, "app": "wave"}, ("FCM",), "wave: "),
    "fig8-mpi-apps-match-ccr": model_ccrs,
    "fig8-wave-matches-ccr4": model_ccrs,
    "fig8-ccr-010-benefits": split_at("ccr-0.1", "FCM", "WF", _above_40()),
    "fig8-ccr-025-050-benefit-then-loss": combined(split_at("ccr-0.25", "FCM", "WF", _first_above_40),
                                                  split_at("ccr-0.5", "FCM", "WF", _first_above_40)),
    "fig8-ccr-above-050-loses": saturation({**SMALL_JOBS, "app": "ccr-1"}, ("WF", "FCM"), "ccr-1: "),
    "sec712-ca-picks-fast-pairs": split_sets,
    "fig10-ca-faster": combined(ca_against_fcm(_first_and_last), large_jobs_saturation("A"),
                               large_jobs_saturation("B")),
    "fig10-gap-widens": combined(ca_against_fcm(_first_and_last), large_jobs_saturation("A"),
                                large_jobs_saturation("B")),
    "fig10-saturation-without-delft": large_jobs_saturation("A"),
    "fig10-saturation-with-delft": large_jobs_saturation("B"),
    "fig10-lead-larger-with-delft": combined(ca_against_fcm(lambda loads: loads[:1]), large_jobs_saturation("A"),
                                            large_jobs_saturation("B")),
}
"""The numbers a decomposition explains, by id (every one a claim of ``NUMBERS``)."""

CAUSES = row_causes(CLAIMS, NUMBER_CAUSES)
"""The ledger's rows a decomposition explains, by id: a sentence of several numbers gives its numbers' causes."""


def causes_frame(claims: pd.DataFrame, results: Results, parameters: dict) -> pd.DataFrame:
    """One row per claim not reproduced (nor left unattempted): its verdict and measured cause."""
    return measured_causes(claims, CLAIMS, CAUSES, results, parameters)
