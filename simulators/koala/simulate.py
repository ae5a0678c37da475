"""One experiment point: build the system, the workload and the policy, run, summarize.

Policy names: ``WF`` (jobs are single-component non-fixed requests: no coallocation, the
paper's baseline), ``FCM``, ``FCM2`` (FCM combining at most two clusters) and ``CA``
(jobs are flexible requests).

Engines (``ENGINES``): ``compiled`` (the default) runs the point on ``schedlab.simulators.koala.compiled``,
which mirrors the reference decision for decision and gives the same run to the last bit, and falls back
to the reference where it cannot (``compiled.supports``); ``reference`` runs ``MulticlusterSimulation``
with ``KoalaScheduler``, the readable definition of every rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from schedlab.simulators.koala import compiled
from schedlab.simulators.koala.cluster_minimization import FlexibleClusterMinimization
from schedlab.simulators.koala.communication_aware import CommunicationAware
from schedlab.simulators.koala.execution import CLUSTER_SET, CommunicationModel, ExecutionModel, application
from schedlab.simulators.koala.metrics import summarize
from schedlab.simulators.koala.scheduler import KoalaScheduler
from schedlab.simulators.koala.worst_fit import WorstFit
from schedlab.simulators.koala.workload import poisson_workload
from schedlab.simulators.multicluster.system import MulticlusterResult, MulticlusterSimulation
from schedlab.simulators.multicluster.topology import das3
from schedlab.workloads.cycle import SECONDS_PER_HOUR

POLICIES = {
    "WF": (lambda topology: WorstFit(), "single"),
    "FCM": (lambda topology: FlexibleClusterMinimization(), "flexible"),
    "FCM2": (lambda topology: FlexibleClusterMinimization(max_clusters=2), "flexible"),
    "CA": (lambda topology: CommunicationAware(topology), "flexible"),
}

ENGINES = ("compiled", "reference")


@dataclass(frozen=True)
class Point:
    app: str
    """prime, poisson, wave or ccr-<value> (``schedlab.simulators.koala.execution.application``)."""
    policy: str
    net_utilization: float
    seed: int
    config: str = "A"
    sizes: tuple[int, ...] = (8, 16, 32)
    hours: float = 24.0
    slowest_processor: bool = False
    startup_overhead: float = 0.0
    split_rule: str = CLUSTER_SET  # the execution model's unknowns: ``CommunicationModel``
    two_cluster_weight: float = 1.0
    three_cluster_weight: float = 1.0
    scan_period: float = 0.0
    """Seconds between KOALA's scans of its placement queue; 0: at every arrival and end (``KoalaScheduler``)."""
    delft_latency_share: float = 1.0
    """How much of Delft's extra wide-area latency config B has (``das3``): 1 the DEFAULT table, 0 none."""

    def communication(self) -> CommunicationModel:
        return CommunicationModel(self.split_rule, self.two_cluster_weight, self.three_cluster_weight)


def simulate(point: Point, engine: str = "compiled") -> tuple[MulticlusterResult, dict]:
    if point.policy not in POLICIES:
        raise ValueError(f"unknown policy {point.policy!r}; one of {sorted(POLICIES)}")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; one of {', '.join(ENGINES)}")
    make_policy, request_kind = POLICIES[point.policy]
    topology = das3(point.config, delft_latency_share=point.delft_latency_share)
    app = application(point.app)
    duration = point.hours * SECONDS_PER_HOUR
    jobs = poisson_workload(
        app,
        sizes=point.sizes,
        net_utilization=point.net_utilization,
        total_nodes=topology.total_nodes,
        duration=duration,
        seed=point.seed,
        request_kind=request_kind,
    )
    model = ExecutionModel(topology, communication=point.communication(), slowest_processor=point.slowest_processor,
                           startup_overhead=point.startup_overhead)
    scheduler = KoalaScheduler(make_policy(topology), model, point.scan_period)
    if engine == "compiled" and compiled.supports(scheduler, jobs):
        result = compiled.run(topology, jobs, scheduler)
    else:
        result = MulticlusterSimulation(topology, jobs, scheduler).run()
    summary = summarize(
        result, total_nodes=topology.total_nodes, duration=duration, single_cluster_time=app.single_cluster_time
    )
    return result, summary
