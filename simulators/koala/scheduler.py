"""KOALA's placement queue (Sonmez, Mohamed, Epema, TPDS 2010, Sec. 3.1).

On submission the scheduler tries to place the job with its placement policy; if the
try fails the job joins the tail of the placement queue.  The paper says the scheduler
"regularly scans" that queue from head to tail, and gives no interval (nor do the KOALA
pages and papers we could read), so when it scans is an unknown, ``scan_period``: by
default (0) whenever a job arrives or ends; a period P > 0 scans at the multiples of P
while the queue holds a job (an arrival still tries its own placement at once).  A scan
places EVERY job that fits, not only the head (so a small job may overtake a large one).  Placement is atomic: all components
get their nodes at once (``ClusterState.allocate``), and the job starts after the
start-up overhead.  Fixed requests go where they ask; the policy decides the others.

A scan would cost one policy call per queued job, which turns quadratic when the
system saturates and the queue grows to thousands.  Policies are deterministic
functions of (request, idle nodes), and within a scan the idle nodes change only when a
job is placed, so a request equal to one that already failed since the last placement
is skipped without asking the policy, and once every distinct request in the queue has
failed the rest of the scan is known to fail.  Both shortcuts give exactly the plain
scan's decisions.  Equal requests share one small number (``_request_key``), so that a scan
compares numbers, not request objects; the policies read the idle nodes as a list, taken
again after each placement.
"""

from __future__ import annotations

import math
from collections import Counter

from schedlab.simulators.koala.execution import ExecutionModel
from schedlab.simulators.multicluster.requests import FixedRequest, check_placement, place_fixed
from schedlab.simulators.multicluster.system import MulticlusterSimulation


class KoalaScheduler:
    def __init__(self, policy, model: ExecutionModel, scan_period: float = 0.0):
        if not scan_period >= 0.0:
            raise ValueError(f"scan_period must be >= 0 s (0: at every arrival and end), got {scan_period}")
        self.policy = policy
        self.model = model
        self.scan_period = scan_period
        self._next_scan: float | None = None
        self.queue: list[tuple[int, int]] = []
        """(job, its request's key) in arrival order."""
        self._queued_requests: Counter = Counter()
        self._request_keys: dict = {}
        self._ever_fits: dict = {}

    def waiting(self) -> int:
        return len(self.queue)

    def on_arrival(self, sim: MulticlusterSimulation, job: int, t: float) -> None:
        request = sim.jobs[job].request
        if not self._fits_empty_system(sim, request):
            raise ValueError(f"job {sim.jobs[job].job_id}: {request} can never fit {sim.topology.name}")
        if not self._try_place(sim, job, sim.state.idle.tolist()):
            key = self._request_keys.setdefault(request, len(self._request_keys))
            self.queue.append((job, key))
            self._queued_requests[key] += 1
        self._scan_now_or_later(sim, t)

    def on_end(self, sim: MulticlusterSimulation, job: int, t: float) -> None:
        self._scan_now_or_later(sim, t)

    def on_wake(self, sim: MulticlusterSimulation, t: float) -> None:
        self._next_scan = None
        self._scan(sim)
        self._scan_now_or_later(sim, t)

    def _scan_now_or_later(self, sim: MulticlusterSimulation, t: float) -> None:
        """Scan now (no period), or make sure the next multiple of the period after ``t`` scans while a job waits."""
        if not self.scan_period:
            self._scan(sim)
        elif self.queue and self._next_scan is None:
            tick = math.floor(t / self.scan_period) + 1
            while tick * self.scan_period <= t:  # t / P rounded down a whole period
                tick += 1
            self._next_scan = tick * self.scan_period
            sim.wake_at(self._next_scan)

    def _place(self, request, idle):
        if isinstance(request, FixedRequest):
            return place_fixed(request, idle)
        return self.policy.place(request, idle)

    def _fits_empty_system(self, sim, request) -> bool:
        if request not in self._ever_fits:
            self._ever_fits[request] = self._place(request, sim.state.capacities.tolist()) is not None
        return self._ever_fits[request]

    def _try_place(self, sim: MulticlusterSimulation, job: int, idle: list[int]) -> bool:
        """Place the job on ``idle`` (the state's idle nodes) if its policy finds room, and start it."""
        request = sim.jobs[job].request
        placement = self._place(request, idle)
        if placement is None:
            return False
        check_placement(request, placement, len(sim.state.idle))
        run_time = self.model.run_time(sim.jobs[job].attributes, placement)
        sim.start(job, placement, run_time, self.model.startup_overhead)
        return True

    def _scan(self, sim: MulticlusterSimulation) -> None:
        failed: set[int] = set()
        kept: list[tuple[int, int]] = []
        idle = sim.state.idle.tolist()
        for position, (job, key) in enumerate(self.queue):
            if key in failed:
                kept.append((job, key))
            elif self._try_place(sim, job, idle):
                failed.clear()
                idle = sim.state.idle.tolist()
                self._queued_requests[key] -= 1
                if not self._queued_requests[key]:
                    del self._queued_requests[key]
            else:
                failed.add(key)
                kept.append((job, key))
                if len(failed) == len(self._queued_requests):  # every request still queued has failed
                    kept.extend(self.queue[position + 1:])
                    break
        self.queue = kept
