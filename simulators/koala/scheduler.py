"""KOALA's placement queue (Sonmez, Mohamed, Epema, TPDS 2010, Sec. 3.1).

On submission the scheduler tries to place the job with its placement policy; if the
try fails the job joins the tail of the placement queue.  Whenever a job arrives or
ends, the queue is scanned from head to tail and EVERY job that fits is placed, not only
the head (so a small job may overtake a large one).  Placement is atomic: all components
get their nodes at once (``ClusterState.allocate``), and the job starts after the
start-up overhead.  Fixed requests go where they ask; the policy decides the others.

A scan would cost one policy call per queued job, which turns quadratic when the
system saturates and the queue grows to thousands.  Policies are deterministic
functions of (request, idle nodes), and within a scan the idle nodes change only when a
job is placed, so a request equal to one that already failed since the last placement
is skipped without asking the policy, and once every distinct request in the queue has
failed the rest of the scan is known to fail.  Both shortcuts give exactly the plain
scan's decisions.
"""

from __future__ import annotations

from collections import Counter

from schedlab.simulators.koala.execution import ExecutionModel
from schedlab.simulators.multicluster.requests import FixedRequest, check_placement, place_fixed
from schedlab.simulators.multicluster.system import MulticlusterSimulation


class KoalaScheduler:
    def __init__(self, policy, model: ExecutionModel):
        self.policy = policy
        self.model = model
        self.queue: list[int] = []
        self._queued_requests: Counter = Counter()
        self._ever_fits: dict = {}

    def waiting(self) -> int:
        return len(self.queue)

    def on_arrival(self, sim: MulticlusterSimulation, job: int, t: float) -> None:
        request = sim.jobs[job].request
        if not self._fits_empty_system(sim, request):
            raise ValueError(f"job {sim.jobs[job].job_id}: {request} can never fit {sim.topology.name}")
        if not self._try_place(sim, job):
            self.queue.append(job)
            self._queued_requests[request] += 1
        self._scan(sim)

    def on_end(self, sim: MulticlusterSimulation, job: int, t: float) -> None:
        self._scan(sim)

    def _place(self, request, idle):
        if isinstance(request, FixedRequest):
            return place_fixed(request, idle)
        return self.policy.place(request, idle)

    def _fits_empty_system(self, sim, request) -> bool:
        if request not in self._ever_fits:
            self._ever_fits[request] = self._place(request, sim.state.capacities) is not None
        return self._ever_fits[request]

    def _try_place(self, sim: MulticlusterSimulation, job: int) -> bool:
        request = sim.jobs[job].request
        placement = self._place(request, sim.state.idle)
        if placement is None:
            return False
        check_placement(request, placement, len(sim.state.idle))
        run_time = self.model.run_time(sim.jobs[job].attributes, placement)
        sim.start(job, placement, run_time, self.model.startup_overhead)
        return True

    def _scan(self, sim: MulticlusterSimulation) -> None:
        failed: set = set()
        kept: list[int] = []
        for position, job in enumerate(self.queue):
            if len(failed) == len(self._queued_requests):
                kept.extend(self.queue[position:])
                break
            request = sim.jobs[job].request
            if request in failed:
                kept.append(job)
            elif self._try_place(sim, job):
                failed.clear()
                self._queued_requests[request] -= 1
                if not self._queued_requests[request]:
                    del self._queued_requests[request]
            else:
                failed.add(request)
                kept.append(job)
        self.queue = kept
