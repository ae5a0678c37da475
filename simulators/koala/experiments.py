"""The paper's simulation experiments as lists of points, and how their results combine.

Sonmez, Mohamed, Epema, TPDS 2010:

- ``coallocation`` (Sec. 6.3, Fig. 7, Table 4): Prime, Poisson and Wave workloads, job
  sizes uniform on {8, 16, 32}, DAS-3 config A, WF (no coallocation) versus FCM, and Wave
  versus FCM limited to two clusters; net utilization 10..90 % step 5 in the paper, which our
  paper profile extends to 95 % so that Table 4's 90-95 % saturation interval can be tested.
- ``ccr`` (Fig. 8): the synthetic application at several CCRs, WF versus FCM.
- ``policies`` (Sec. 7.2, Fig. 10): Wave, sizes {32, 48, 64}, FCM versus CA on config A
  (without Delft) and B (with Delft); net utilization 20..80 % step 5.

A profile says which utilizations, CCRs, seeds and simulated hours, and the execution
model's unknowns (``CommunicationModel``, DEFAULT unless a profile says otherwise) every
run uses; ``paper`` follows the
paper (24 h; the paper does not say how many runs it averaged, we take 5 seeds),
``quick`` is a coarse grid over 6 h on the same 5 seeds (the fewest on which the claims
ledger decides a claim), small enough for CI.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from schedlab.simulators.koala.execution import CommunicationModel, application
from schedlab.simulators.koala.simulate import POLICIES, Point
from schedlab.simulators.multicluster.topology import das3


def _percent_grid(low: int, high: int, step: int) -> tuple[float, ...]:
    return tuple(round(u / 100.0, 2) for u in range(low, high + 1, step))


@dataclass(frozen=True)
class Profile:
    coallocation_utilizations: tuple[float, ...]
    policies_utilizations: tuple[float, ...]
    ccrs: tuple[float, ...]
    seeds: tuple[int, ...]
    hours: float
    communication: CommunicationModel = field(default_factory=CommunicationModel)
    scan_period: float = 0.0
    """Seconds between scans of the placement queue; 0 (DEFAULT): at every arrival and end."""
    delft_latency_share: float = 1.0
    """Share of Delft's DEFAULT extra latency in config B (``das3``)."""
    sensitivity_weights: tuple[float, ...] = (0.0, 0.5, 1.0)
    """The 2- and 3-cluster weights the sensitivity study sweeps (each, every pair): from no penalty below
    four clusters (0) to the latency form alone (1)."""
    sensitivity_scan_periods: tuple[float, ...] = (30.0, 60.0)
    """Scan periods the sensitivity study runs besides the DEFAULT (the other unknowns at theirs)."""
    sensitivity_delft_latency_shares: tuple[float, ...] = (0.0, 0.5)
    """Shares of Delft's extra latency the sensitivity study runs besides the DEFAULT 1."""


PROFILES = {
    "paper": Profile(
        coallocation_utilizations=_percent_grid(10, 95, 5),
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
        sensitivity_weights=(0.0, 1.0),
        sensitivity_scan_periods=(60.0,),
        sensitivity_delft_latency_shares=(0.0,),
    ),
}

def sensitivity_profiles(profile: Profile) -> list[Profile]:
    """``profile`` under every pair of its ``sensitivity_weights`` as 2- and 3-cluster weights (split rule
    kept), then under each of its other scan periods and Delft latency shares, one unknown at a time."""
    by_weights = [
        dataclasses.replace(profile, communication=dataclasses.replace(
            profile.communication, two_cluster_weight=two, three_cluster_weight=three))
        for two in profile.sensitivity_weights for three in profile.sensitivity_weights
    ]
    by_scan = [dataclasses.replace(profile, scan_period=period) for period in profile.sensitivity_scan_periods
               if period != profile.scan_period]
    by_delft = [dataclasses.replace(profile, delft_latency_share=share)
                for share in profile.sensitivity_delft_latency_shares if share != profile.delft_latency_share]
    return by_weights + by_scan + by_delft


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


def communication_matters(app: str, policy: str) -> bool:
    """Whether f(S) can change a run: not under WF (every job on one cluster) nor for an application
    that does not communicate (CCR 0); such runs take the DEFAULT model, so that profiles differing in
    it share them."""
    return POLICIES[policy][1] != "single" and application(app).ccr > 0.0


def delft_matters(config: str) -> bool:
    """Whether Delft's latency can change a run: only on a configuration that holds Delft."""
    return "Delft" in das3(config).names


def points(profile: Profile) -> list[Point]:
    """Every simulation the profile needs, each once, in a fixed order."""
    unique: dict[Point, None] = {}
    for line in comparisons(profile):
        delft_share = profile.delft_latency_share if delft_matters(line.config) else Profile.delft_latency_share
        for utilization in utilizations(profile, line.experiment):
            for seed in profile.seeds:
                for policy in (line.baseline, line.treatment):
                    model = profile.communication if communication_matters(line.app, policy) else CommunicationModel()
                    point = Point(line.app, policy, utilization, seed, line.config, line.sizes, profile.hours,
                                  split_rule=model.split_rule, two_cluster_weight=model.two_cluster_weight,
                                  three_cluster_weight=model.three_cluster_weight, scan_period=profile.scan_period,
                                  delft_latency_share=delft_share)
                    unique[point] = None
    return list(unique)


@dataclass(frozen=True)
class Batch:
    """The points that differ only in net utilization: ``template`` (its own load unused) at each load."""

    template: Point
    net_utilizations: tuple[float, ...]


def batches(profile: Profile) -> list[Batch]:
    """``points(profile)`` grouped by everything but the load, in a fixed order."""
    loads: dict[Point, list[float]] = {}
    for point in points(profile):
        loads.setdefault(dataclasses.replace(point, net_utilization=0.0), []).append(point.net_utilization)
    return [Batch(template, tuple(grid)) for template, grid in loads.items()]
