"""The koala stage's event loop compiled (numba): ``MulticlusterSimulation`` running a ``KoalaScheduler``.

The reference (``simulators/multicluster/system.py`` with ``simulators/koala/scheduler.py`` and the
policies) is the readable one and defines every rule; this loop replays it on arrays, decision for
decision, and the run it returns is the reference's to the last bit (``tests/test_koala_compiled.py``):

- events come in the reference's order, (time, rank, push order): ends, then arrivals, then the
  scheduler's wake-ups.  Arrivals are not on the heap: the reference pushes them first, in job
  order, so their sequence numbers come before every later push and a cursor over the jobs gives
  the same order;
- the scheduler does what ``KoalaScheduler`` does at an arrival, an end and a wake-up, with the same
  scan and its two shortcuts (a request that failed since the last placement is skipped; once every
  request still queued has failed the scan stops), each request object known by a small number, and
  periodic scans at the same multiples of ``scan_period``;
- the policies are the same functions of (request, idle nodes): Worst Fit, FCM with its
  ``max_clusters``, CA with the two orders its object computed from the topology; ties go to the
  cluster listed first, sorts are stable;
- run times are not computed here.  Under the ``cluster-set`` split rule a job's run time depends
  only on its application and on the SET of clusters it runs on (f(S), the slowest processor of S),
  so ``ExecutionModel.run_time`` itself fills a table per application and cluster set (a bit mask)
  before the run, and the loop reads the very floats the reference computes; the start-up overhead is
  one constant;
- the allocation log is recorded as ``ClusterState`` records it, and every run is checked from it by
  ``check_multicluster_run``, as the reference's is.

What it cannot mirror runs on the reference (``supports``): the ``node-shares`` split rule (the run
time depends on how the nodes are split, through numpy's sums, which a loop would not reproduce to
the bit), a policy other than the three, fixed requests (no workload of the stage makes one) and a
workload without jobs (the reference's frames of nothing).
"""

from __future__ import annotations

from operator import attrgetter

import numpy as np
import pandas as pd
from numba import njit

from schedlab.simulators.core.event_heap import helper, pop, push
from schedlab.simulators.koala.cluster_minimization import FlexibleClusterMinimization
from schedlab.simulators.koala.communication_aware import CommunicationAware
from schedlab.simulators.koala.execution import CLUSTER_SET, ExecutionModel
from schedlab.simulators.koala.scheduler import KoalaScheduler
from schedlab.simulators.koala.worst_fit import WorstFit
from schedlab.simulators.multicluster.invariants import check_multicluster_run
from schedlab.simulators.multicluster.requests import FlexibleRequest, NonFixedRequest
from schedlab.simulators.multicluster.system import (
    ARRIVAL_RANK,
    END_RANK,
    WAKE_RANK,
    MulticlusterJob,
    MulticlusterResult,
)
from schedlab.simulators.multicluster.topology import Topology

WF, FCM, CA = 0, 1, 2
BUSY, HEAP_SIZE, SEQUENCE, LOG_SIZE, QUEUED, REQUESTS_QUEUED, SCAN_STAMP, WAKE_PENDING = range(8)
"""The loop's counters, one small array the helpers share: nodes taken, events on the heap, the last sequence
number pushed, log entries, jobs in the placement queue, distinct requests among them, the number that marks
the requests failed since the scan began or last placed a job, and whether a wake-up is on the heap."""
WAKE = -1
"""The job of a wake-up event."""



def supports(scheduler: KoalaScheduler, jobs) -> bool:
    """Whether the compiled loop can run ``jobs`` under ``scheduler`` (the module docstring says what it cannot)."""
    return (type(scheduler.policy) in (WorstFit, FlexibleClusterMinimization, CommunicationAware)
            and scheduler.model.communication.split_rule == CLUSTER_SET and len(jobs) > 0
            and set(map(type, map(attrgetter("request"), jobs))) <= {NonFixedRequest, FlexibleRequest})


def run(topology: Topology, jobs: list[MulticlusterJob], scheduler: KoalaScheduler) -> MulticlusterResult:
    """``MulticlusterSimulation(topology, jobs, scheduler).run()`` on the compiled loop, for a fresh
    ``scheduler`` and jobs that it ``supports``."""
    capacities = np.asarray(topology.capacities, dtype=np.int64)
    n_clusters = len(capacities)
    request_of, first_job = _numbered(list(map(attrgetter("request"), jobs)))
    requests = [jobs[j].request for j in first_job]
    for j, request in zip(first_job, requests):  # in job order, as the reference meets them
        if scheduler.policy.place(request, capacities.tolist()) is None:
            raise ValueError(f"job {jobs[j].job_id}: {request} can never fit {topology.name}")
    app_of, first_job = _numbered(list(map(attrgetter("attributes"), jobs)))
    run_times = _run_times(scheduler.model, [jobs[j].attributes for j in first_job], n_clusters)
    policy, single_order, coallocation_order = _policy(scheduler.policy, n_clusters)
    sizes, n_sizes, total, min_take, most = _request_arrays(requests, scheduler.policy, n_clusters)
    submit = np.fromiter(map(attrgetter("submit"), jobs), dtype=np.float64, count=len(jobs))
    placed, start, end, nodes, in_set, log, series = _run(
        submit, request_of, len(requests), run_times, app_of, capacities, float(scheduler.model.startup_overhead),
        float(scheduler.scan_period), policy, single_order, coallocation_order, sizes, n_sizes, total, min_take, most)
    result = _result(topology, jobs, submit, placed, start, end, nodes, in_set, series)
    check_multicluster_run(capacities=capacities, totals=total[request_of], jobs=result.jobs,
                           log=dict(zip(("time", "job", "cluster", "delta"), log)))
    return result


def _numbered(objects: list) -> tuple[np.ndarray, np.ndarray]:
    """A number per object, the same for the same object (by identity: equal requests under two numbers would
    only make the scan's shortcut skip less), in order of first appearance; and where each first appears."""
    identity = np.fromiter(map(id, objects), dtype=np.uint64, count=len(objects))
    _, first, inverse = np.unique(identity, return_index=True, return_inverse=True)
    by_appearance = np.argsort(first)
    number = np.empty(len(first), dtype=np.int64)
    number[by_appearance] = np.arange(len(first))
    return number[inverse], first[by_appearance]


def _policy(policy, n_clusters: int) -> tuple[int, np.ndarray, np.ndarray]:
    """The policy's number and CA's two orders (the cluster order for the others, which do not read them)."""
    if isinstance(policy, CommunicationAware):
        return CA, np.array(policy.single_cluster_order, dtype=np.int64), np.array(policy.coallocation_order,
                                                                                   dtype=np.int64)
    in_order = np.arange(n_clusters, dtype=np.int64)
    return (FCM if isinstance(policy, FlexibleClusterMinimization) else WF), in_order, in_order


def _request_arrays(requests, policy, n_clusters: int):
    """Per request: its component sizes largest first (WF's order; a flexible request has none), its total,
    the smallest component a fill takes and the most components it may have (``fill_in_order``)."""
    width = max([len(r.sizes) for r in requests if isinstance(r, NonFixedRequest)], default=1)
    sizes = np.zeros((len(requests), width), dtype=np.int64)
    n_sizes = np.zeros(len(requests), dtype=np.int64)
    total = np.array([r.total for r in requests], dtype=np.int64)
    min_take = np.ones(len(requests), dtype=np.int64)
    most = np.full(len(requests), n_clusters, dtype=np.int64)
    max_clusters = getattr(policy, "max_clusters", None)
    for number, request in enumerate(requests):
        if isinstance(request, NonFixedRequest):
            n_sizes[number] = len(request.sizes)
            sizes[number, : len(request.sizes)] = sorted(request.sizes, reverse=True)
        else:
            min_take[number] = max(request.min_component, 1)
            limits = [limit for limit in (request.max_components, max_clusters) if limit is not None]
            most[number] = min(limits) if limits else n_clusters
    return sizes, n_sizes, total, min_take, most


def _run_times(model: ExecutionModel, applications, n_clusters: int) -> np.ndarray:
    """``run_times[a, S]``: ``model.run_time`` of application ``a`` on the cluster set whose bit mask is ``S``
    (a node on each; the ``cluster-set`` rule does not read the split)."""
    table = np.full((len(applications), 1 << n_clusters), np.nan)
    for a, app in enumerate(applications):
        for in_set in range(1, 1 << n_clusters):
            placement = tuple((c, 1) for c in range(n_clusters) if in_set >> c & 1)
            table[a, in_set] = model.run_time(app, placement)
    return table


def _result(topology, jobs, submit, placed, start, end, nodes, in_set, series) -> MulticlusterResult:
    """The reference's frames (``MulticlusterSimulation._result``): the same columns, dtypes and rows."""
    names = topology.names
    n_clusters = len(names)
    ids = np.fromiter(map(attrgetter("job_id"), jobs), dtype=np.int64, count=len(jobs))
    labels = np.array(["+".join(names[c] for c in range(n_clusters) if s >> c & 1) for s in range(1 << n_clusters)],
                      dtype=object)
    frame = pd.DataFrame({
        "job_id": ids,
        "submit": submit,
        "placed": placed,
        "start": start,
        "end": end,
        "procs": nodes.sum(axis=1),
        "n_clusters": (nodes > 0).sum(axis=1),
        "clusters": labels[in_set],
    })
    job, cluster = np.nonzero(nodes)
    components = pd.DataFrame({
        "job_id": ids[job],
        "cluster": np.array(names, dtype=object)[cluster],
        "nodes": nodes[job, cluster],
        "start": start[job],
        "end": end[job],
    })
    time, waiting, busy = series
    return MulticlusterResult(frame, components, pd.DataFrame({"time": time, "waiting": waiting, "busy": busy}))


@helper
def _fill_in_order(idle, order, total, min_take, most, taken):
    """``fill_in_order``: components as large as each cluster's idle nodes, in ``order``, until ``total``."""
    missing = total
    components = 0
    for i in range(order.shape[0]):
        if missing == 0 or components == most:
            break
        c = order[i]
        take = min(idle[c], missing)
        if take >= min_take:
            taken[c] += take
            missing -= take
            components += 1
    return missing == 0


@helper
def _place(r, idle, taken, order, policy, single_order, coallocation_order, sizes, n_sizes, total, min_take, most):
    """The policy's placement of request ``r`` on ``idle`` as nodes per cluster in ``taken`` (zero on entry);
    False if it does not fit now."""
    n_clusters = idle.shape[0]
    if policy == WF:
        for i in range(n_sizes[r]):
            roomiest = 0
            for c in range(1, n_clusters):
                if idle[c] - taken[c] > idle[roomiest] - taken[roomiest]:
                    roomiest = c
            if idle[roomiest] - taken[roomiest] < sizes[r, i]:
                return False
            taken[roomiest] += sizes[r, i]
        return True
    if policy == CA:
        for i in range(n_clusters):
            c = single_order[i]
            if idle[c] >= total[r]:
                taken[c] = total[r]
                return True
        return _fill_in_order(idle, coallocation_order, total[r], min_take[r], most[r], taken)
    for c in range(n_clusters):  # FCM's order, by decreasing idle nodes: an insertion sort is stable
        i = c
        while i > 0 and idle[order[i - 1]] < idle[c]:
            order[i] = order[i - 1]
            i -= 1
        order[i] = c
    return _fill_in_order(idle, order, total[r], min_take[r], most[r], taken)


@helper
def _push(h_time, h_rank, h_seq, h_job, counters, time, rank, job):
    """Push an event under the next sequence number, as ``EventQueue.push`` numbers them."""
    counters[SEQUENCE] += 1
    counters[HEAP_SIZE] = push(h_time, h_rank, h_seq, h_job, counters[HEAP_SIZE], time, rank, counters[SEQUENCE], job)


@helper
def _log(log_time, log_job, log_cluster, log_delta, counters, t, job, cluster, delta):
    k = counters[LOG_SIZE]
    log_time[k], log_job[k], log_cluster[k], log_delta[k] = t, job, cluster, delta
    counters[LOG_SIZE] += 1


@helper
def _try_place(job, t, request_of, run_times, app_of, overhead, idle, taken, order, policy, single_order,
               coallocation_order, sizes, n_sizes, total, min_take, most, placed, start, nodes, in_set, h_time,
               h_rank, h_seq, h_job, log_time, log_job, log_cluster, log_delta, counters):
    """``KoalaScheduler._try_place`` and ``MulticlusterSimulation.start``: place the job if its policy finds
    room, take its nodes (logged per cluster in cluster order) and push its end."""
    for c in range(idle.shape[0]):
        taken[c] = 0
    if not _place(request_of[job], idle, taken, order, policy, single_order, coallocation_order, sizes, n_sizes,
                  total, min_take, most):
        return False
    for c in range(idle.shape[0]):
        if taken[c]:
            idle[c] -= taken[c]
            counters[BUSY] += taken[c]
            nodes[job, c] = taken[c]
            in_set[job] |= 1 << c
            _log(log_time, log_job, log_cluster, log_delta, counters, t, job, c, taken[c])
    placed[job] = t
    start[job] = t + overhead
    _push(h_time, h_rank, h_seq, h_job, counters, start[job] + run_times[app_of[job], in_set[job]], END_RANK, job)
    return True


@helper
def _scan(queue, queued, failed_at, t, request_of, run_times, app_of, overhead, idle, taken, order, policy,
          single_order, coallocation_order, sizes, n_sizes, total, min_take, most, placed, start, nodes, in_set,
          h_time, h_rank, h_seq, h_job, log_time, log_job, log_cluster, log_delta, counters):
    """``KoalaScheduler._scan``: every queued job that fits is placed, in queue order; the rest keep their order."""
    counters[SCAN_STAMP] += 1
    failed = 0
    kept = 0
    length = counters[QUEUED]
    for position in range(length):
        job = queue[position]
        r = request_of[job]
        if failed_at[r] == counters[SCAN_STAMP]:
            queue[kept] = job
            kept += 1
        elif _try_place(job, t, request_of, run_times, app_of, overhead, idle, taken, order, policy, single_order,
                        coallocation_order, sizes, n_sizes, total, min_take, most, placed, start, nodes, in_set,
                        h_time, h_rank, h_seq, h_job, log_time, log_job, log_cluster, log_delta, counters):
            counters[SCAN_STAMP] += 1
            failed = 0
            queued[r] -= 1
            if queued[r] == 0:
                counters[REQUESTS_QUEUED] -= 1
        else:
            failed_at[r] = counters[SCAN_STAMP]
            failed += 1
            queue[kept] = job
            kept += 1
            if failed == counters[REQUESTS_QUEUED]:  # every request still queued has failed
                if kept == position + 1:  # nothing placed before: the rest stays where it is
                    kept = length
                else:
                    for rest in range(position + 1, length):
                        queue[kept] = queue[rest]
                        kept += 1
                break
    counters[QUEUED] = kept


@njit(cache=True)
def _run(submit, request_of, n_requests, run_times, app_of, capacities, overhead, scan_period, policy,
         single_order, coallocation_order, sizes, n_sizes, total, min_take, most):
    """The run: each job's placement, start and end times, nodes per cluster and cluster set; the allocation
    log (time, job, cluster, delta); the series (time, waiting, busy) after every event."""
    n_jobs, n_clusters = submit.shape[0], capacities.shape[0]
    idle = capacities.copy()
    taken = np.zeros(n_clusters, dtype=np.int64)
    order = np.zeros(n_clusters, dtype=np.int64)
    counters = np.zeros(8, dtype=np.int64)
    counters[SEQUENCE] = n_jobs  # the arrivals' sequence numbers, pushed first in the reference
    placed = np.full(n_jobs, np.nan)
    start = np.full(n_jobs, np.nan)
    end = np.full(n_jobs, np.nan)
    nodes = np.zeros((n_jobs, n_clusters), dtype=np.int64)
    in_set = np.zeros(n_jobs, dtype=np.int64)
    h_time = np.empty(n_jobs + 1)  # the running jobs' ends and at most one wake-up
    h_rank = np.empty(n_jobs + 1, dtype=np.int64)
    h_seq = np.empty(n_jobs + 1, dtype=np.int64)
    h_job = np.empty(n_jobs + 1, dtype=np.int64)
    log_time = np.empty(2 * n_jobs * n_clusters)
    log_job = np.empty(2 * n_jobs * n_clusters, dtype=np.int64)
    log_cluster = np.empty(2 * n_jobs * n_clusters, dtype=np.int64)
    log_delta = np.empty(2 * n_jobs * n_clusters, dtype=np.int64)
    queue = np.empty(n_jobs, dtype=np.int64)
    queued = np.zeros(n_requests, dtype=np.int64)
    failed_at = np.full(n_requests, -1, dtype=np.int64)
    series_time = np.empty(2 * n_jobs + 16)  # arrivals and ends, and room for wake-ups (grown if need be)
    series_waiting = np.empty(2 * n_jobs + 16, dtype=np.int64)
    series_busy = np.empty(2 * n_jobs + 16, dtype=np.int64)
    n_events = 0
    arrival = 0
    while counters[HEAP_SIZE] or arrival < n_jobs:
        if counters[HEAP_SIZE] and (arrival == n_jobs or h_time[0] < submit[arrival]
                                    or (h_time[0] == submit[arrival] and h_rank[0] < ARRIVAL_RANK)):
            t, rank = h_time[0], h_rank[0]
            job, counters[HEAP_SIZE] = pop(h_time, h_rank, h_seq, h_job, counters[HEAP_SIZE])
        else:
            t, rank, job = submit[arrival], ARRIVAL_RANK, arrival
            arrival += 1
        if rank == END_RANK:
            for c in range(n_clusters):
                if nodes[job, c]:
                    idle[c] += nodes[job, c]
                    counters[BUSY] -= nodes[job, c]
                    _log(log_time, log_job, log_cluster, log_delta, counters, t, job, c, -nodes[job, c])
            end[job] = t
        elif rank == ARRIVAL_RANK:
            if not _try_place(job, t, request_of, run_times, app_of, overhead, idle, taken, order, policy,
                              single_order, coallocation_order, sizes, n_sizes, total, min_take, most, placed, start,
                              nodes, in_set, h_time, h_rank, h_seq, h_job, log_time, log_job, log_cluster,
                              log_delta, counters):
                queue[counters[QUEUED]] = job
                counters[QUEUED] += 1
                queued[request_of[job]] += 1
                if queued[request_of[job]] == 1:
                    counters[REQUESTS_QUEUED] += 1
        else:
            counters[WAKE_PENDING] = 0
            _scan(queue, queued, failed_at, t, request_of, run_times, app_of, overhead, idle, taken, order, policy,
                  single_order, coallocation_order, sizes, n_sizes, total, min_take, most, placed, start, nodes,
                  in_set, h_time, h_rank, h_seq, h_job, log_time, log_job, log_cluster, log_delta, counters)
        if scan_period == 0.0:  # KoalaScheduler._scan_now_or_later
            _scan(queue, queued, failed_at, t, request_of, run_times, app_of, overhead, idle, taken, order, policy,
                  single_order, coallocation_order, sizes, n_sizes, total, min_take, most, placed, start, nodes,
                  in_set, h_time, h_rank, h_seq, h_job, log_time, log_job, log_cluster, log_delta, counters)
        elif counters[QUEUED] and not counters[WAKE_PENDING]:
            tick = np.floor(t / scan_period) + 1.0
            while tick * scan_period <= t:  # t / P rounded down a whole period
                tick += 1.0
            _push(h_time, h_rank, h_seq, h_job, counters, tick * scan_period, WAKE_RANK, WAKE)
            counters[WAKE_PENDING] = 1
        if n_events == series_time.shape[0]:
            series_time = np.concatenate((series_time, np.empty(n_events)))
            series_waiting = np.concatenate((series_waiting, np.empty(n_events, dtype=np.int64)))
            series_busy = np.concatenate((series_busy, np.empty(n_events, dtype=np.int64)))
        series_time[n_events], series_waiting[n_events], series_busy[n_events] = t, counters[QUEUED], counters[BUSY]
        n_events += 1
    n_log = counters[LOG_SIZE]
    return (placed, start, end, nodes, in_set, (log_time[:n_log], log_job[:n_log], log_cluster[:n_log],
            log_delta[:n_log]), (series_time[:n_events], series_waiting[:n_events], series_busy[:n_events]))
