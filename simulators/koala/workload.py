"""The paper's synthetic workloads: Poisson arrivals of one application at a target net utilization.

Sonmez, Mohamed, Epema, TPDS 2010, Sec. 6.3.1 and 7.2.1: job sizes uniform over a small
set ({8, 16, 32} nodes, or {32, 48, 64}), Poisson arrivals for 24 simulated hours at
the rate that gives the wanted NET utilization, i.e. computed with single-cluster
execution times:

    lambda = U x N_total / (E[size] x T1)

Sizes and inter-arrival times come from two independent streams of one seed, so that a
workload is the same job for job whatever request type or policy it is run with (common
random numbers make the WF-versus-FCM differences less noisy).
"""

from __future__ import annotations

import numpy as np

from schedlab.simulators.koala.execution import Application
from schedlab.simulators.multicluster.requests import FlexibleRequest, NonFixedRequest
from schedlab.simulators.multicluster.system import MulticlusterJob
from schedlab.workloads.jobs import independent_streams

REQUEST_KINDS = ("single", "flexible")
"""single: one non-fixed component (no coallocation); flexible: the scheduler splits the total."""


def arrival_rate(net_utilization: float, total_nodes: int, sizes, app: Application) -> float:
    return net_utilization * total_nodes / (float(np.mean(sizes)) * app.single_cluster_time)


def poisson_workload(
    app: Application,
    *,
    sizes,
    net_utilization: float,
    total_nodes: int,
    duration: float,
    seed: int,
    request_kind: str,
) -> list[MulticlusterJob]:
    """Jobs arriving in [0, duration) as a Poisson process, each running ``app``."""
    if request_kind not in REQUEST_KINDS:
        raise ValueError(f"request kind must be one of {REQUEST_KINDS}, got {request_kind!r}")
    if not 0.0 < net_utilization:
        raise ValueError(f"net utilization must be positive, got {net_utilization}")
    rate = arrival_rate(net_utilization, total_nodes, sizes, app)
    arrivals_rng, sizes_rng = independent_streams(seed, 2)
    # Draw enough gaps to pass ``duration`` with overwhelming probability, then cut.
    expected = rate * duration
    gaps = arrivals_rng.exponential(1.0 / rate, size=int(expected + 10.0 * np.sqrt(expected) + 100))
    submits = np.cumsum(gaps)
    if submits[-1] < duration:
        raise RuntimeError("drew too few inter-arrival gaps")  # ~10 sigma: never in practice
    submits = submits[submits < duration]
    drawn = sizes_rng.choice(np.asarray(sizes, dtype=np.int64), size=len(gaps))[: len(submits)]

    # one request object per size: requests are frozen, and jobs of one size ask for the same thing
    kind = NonFixedRequest if request_kind == "single" else FlexibleRequest
    request = {int(size): kind((int(size),) if kind is NonFixedRequest else int(size)) for size in sizes}
    return [
        MulticlusterJob(job_id=i + 1, submit=float(t), request=request[int(s)], attributes=app)
        for i, (t, s) in enumerate(zip(submits, drawn))
    ]
