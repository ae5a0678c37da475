"""The event loop of one run, compiled (numba): FPFS over one queue, moving end events.

Jones et al., ICPADS 2006, Sec. 4: each cluster has its own arrival stream; waiting jobs
are considered first-come-first-served, and the scan starts every job that fits
(FPFS: a job that fits may pass one that does not; nothing is reserved).  We keep the
four streams in one queue in arrival order (simultaneous arrivals: lower cluster first)
and scan it after every timestamp's events: ends first, then arrivals.  Placing whole jobs
first (``whole_first``, the paper's ICS, Sec. 4.2: co-allocation considers "the remaining jobs"
once local execution and migration have placed as many as they can), one scan places whole jobs
only and a second co-allocates what is left; otherwise (the paper's First-Fit, LSLT and
LSLT+CS, Sec. 4.1) a single scan tries local, migration and co-allocation on each job before the
next (``placement.places_whole_jobs_first``).

Why not ``schedlab.simulators.multicluster.MulticlusterSimulation``: the paper's size (4 x 400,000
jobs, several strategies, a sweep) needs a compiled loop.  The run still goes through the
substrate's invariant checks afterwards (``schedlab.simulators.bandwidth.simulate``), and this loop
raises on its own invariants: idle nodes never negative, no link over capacity under ICS,
no job finishing before ``T_E0`` after its start.

A strategy that makes the system unstable (First-Fit at high PPBW: co-allocated jobs
slow each other down until the queue grows without bound) would make every scan of an
ever longer queue slower; the loop stops when more jobs wait than
``min(wait_cap, max(wait_floor, ceil(wait_share * jobs arrived so far)))`` and reports the run
as saturated, as the paper leaves unstable configurations off its charts.

End events live in a binary heap keyed by (time, push order); moving an end pushes a
fresh entry and bumps the job's version so the stale one is skipped when popped.  The heap has
room for four entries per node (at most one live entry per running job, and a job takes a node
or more); when it fills, the stale entries are dropped in place (``_compact``).  The helpers
allocate nothing and count no references (``schedlab.simulators.bandwidth.jit``); the loop
allocates its arrays once, here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from schedlab.simulators.bandwidth.demand import link_demands
from schedlab.simulators.bandwidth.jit import uncounted
from schedlab.simulators.bandwidth.placement import (
    COALLOCATED, ICS, MIGRATION_ONLY, NO_SHARE, ZERO_COMM, new_scratch, place,
)
from schedlab.simulators.bandwidth.sharing import duration, progressive_filling
from schedlab.simulators.bandwidth.waiting import NOT_WAITING, new_tree, next_candidate, set_size, smallest_waiting

HOUR = 3600.0
TOLERANCE = 1e-9


@uncounted
def _less(times, sequence, a, b):
    return times[a] < times[b] or (times[a] == times[b] and sequence[a] < sequence[b])


@uncounted
def _swap(times, sequence, jobs, versions, a, b):
    times[a], times[b] = times[b], times[a]
    sequence[a], sequence[b] = sequence[b], sequence[a]
    jobs[a], jobs[b] = jobs[b], jobs[a]
    versions[a], versions[b] = versions[b], versions[a]


@uncounted
def _sift_up(times, sequence, jobs, versions, i):
    while i > 0:
        parent = (i - 1) // 2
        if not _less(times, sequence, i, parent):
            break
        _swap(times, sequence, jobs, versions, i, parent)
        i = parent


@uncounted
def _sift_down(times, sequence, jobs, versions, size):
    i = 0
    while True:
        smallest, left, right = i, 2 * i + 1, 2 * i + 2
        if left < size and _less(times, sequence, left, smallest):
            smallest = left
        if right < size and _less(times, sequence, right, smallest):
            smallest = right
        if smallest == i:
            return
        _swap(times, sequence, jobs, versions, i, smallest)
        i = smallest


@uncounted
def _compact(times, sequence, jobs, versions, version, size):
    """Drop the stale entries (moved ends) and restore the heap order; returns the new size.  Entries
    pop in (time, push order), a total order, so which layout the heap has never changes a run."""
    kept = 0
    for i in range(size):
        if versions[i] == version[jobs[i]]:
            times[kept], sequence[kept], jobs[kept], versions[kept] = times[i], sequence[i], jobs[i], versions[i]
            kept += 1
    for i in range(1, kept):
        _sift_up(times, sequence, jobs, versions, i)
    return kept


@uncounted
def _push(times, sequence, jobs, versions, version, size, time, order, job):
    """Add the end event of ``job``'s current version at ``time``; ``order`` (the push count) breaks ties
    between equal times.  A full heap is first compacted: it holds at most one live entry per running
    job, and ``run_kernel`` gives it room for several times more than can run."""
    if size == len(times):
        size = _compact(times, sequence, jobs, versions, version, size)
        if size == len(times):
            raise RuntimeError("more end events pending than running jobs")
    times[size], sequence[size], jobs[size], versions[size] = time, order, job, version[job]
    _sift_up(times, sequence, jobs, versions, size)
    return size + 1


@uncounted
def _pop(times, sequence, jobs, versions, size):
    """Drop the earliest event (read it from index 0 first); returns the new size."""
    size -= 1
    _swap(times, sequence, jobs, versions, 0, size)
    _sift_down(times, sequence, jobs, versions, size)
    return size


@uncounted
def _reachable(strategy, idle):
    """The most nodes the strategy could give one job now, its home cluster included: the most idle
    cluster's with migration only, all clusters' together when co-allocating."""
    reachable = 0
    for cluster in range(len(idle)):
        if strategy == MIGRATION_ONLY:
            reachable = max(reachable, idle[cluster])
        else:
            reachable += idle[cluster]
    return reachable


@uncounted
def _may_start(strategy, idle, queue, fresh_smallest):
    """False only if no waiting job can start: too few idle nodes where the strategy may look.  The waiting
    jobs are those of ``queue`` and this timestamp's arrivals, not in it yet (``fresh_smallest``: their
    smallest size per home cluster, ``NOT_WAITING`` if none)."""
    if strategy == NO_SHARE:
        for cluster in range(len(idle)):
            if idle[cluster] >= min(smallest_waiting(queue, cluster), fresh_smallest[cluster]):
                return True
        return False
    reachable = _reachable(strategy, idle)
    for cluster in range(len(idle)):
        if reachable >= min(smallest_waiting(queue, cluster), fresh_smallest[cluster]):
            return True
    return False


@uncounted
def _fitting_bound(strategy, idle, bound):
    """Per home cluster, the largest job ``strategy`` could place now (on its home only without
    sharing, whole on any cluster with migration only, over all clusters when co-allocating)."""
    reachable = _reachable(strategy, idle)
    for cluster in range(len(idle)):
        bound[cluster] = idle[cluster] if strategy == NO_SHARE else reachable


@uncounted
def _queue_area(t0, t1, waiting, area, observed):
    """Add ``waiting`` jobs over [t0, t1) to the hour-of-day bins (Fig. 9)."""
    while t0 < t1:
        hour_start = np.floor(t0 / HOUR) * HOUR
        segment = min(t1, hour_start + HOUR) - t0
        hour = int(hour_start / HOUR) % 24
        area[hour] += waiting * segment
        observed[hour] += segment
        t0 += segment


@uncounted
def waiting_limit(arrived, share, floor, cap):
    """Waiting jobs beyond which a run is saturated once ``arrived`` jobs have arrived."""
    return min(cap, max(floor, int(np.ceil(share * arrived))))


@njit(cache=True)
def run_kernel(submit, home, nodes, columns, base_time, ppbw, rho, exposed, capacities, link_capacity,
               strategy, lslt_threshold, chunk_share, subsets, subset_sizes, max_coallocated, wait_share,
               wait_floor, wait_cap, whole_first):
    n_jobs, n_clusters = len(submit), len(capacities)
    start = np.full(n_jobs, np.nan)
    end = np.full(n_jobs, np.nan)
    kind = np.zeros(n_jobs, dtype=np.int8)
    allocation = np.zeros((n_jobs, n_clusters), dtype=np.int16)
    layout = np.full((n_jobs, n_clusters), -1, dtype=np.int8)  # clusters in rank order of the job's grid
    queue_area, queue_observed = np.zeros(24), np.zeros(24)
    idle = capacities.astype(np.int64).copy()
    load = np.zeros(n_clusters)
    capacity_vector = np.full(n_clusters, link_capacity)
    # running co-allocated jobs, one slot each
    slot_job = np.empty(max_coallocated, dtype=np.int64)
    slot_demand = np.zeros((max_coallocated, n_clusters))
    slot_fraction = np.ones(max_coallocated)
    slot_work = np.ones(max_coallocated)  # share of the job's work still to do
    slot_since = np.zeros(max_coallocated)
    new_fraction = np.ones(max_coallocated)
    frozen, link_used = np.zeros(max_coallocated, dtype=np.bool_), np.zeros(n_clusters)  # progressive filling's
    slot_of = np.full(n_jobs, -1, dtype=np.int64)
    coallocated = 0
    # end-event heap
    heap_capacity = 4 * (int(capacities.sum()) + 1)  # live entries: one per running job, each on 1+ nodes
    heap_time = np.empty(heap_capacity)
    heap_sequence = np.empty(heap_capacity, dtype=np.int64)
    heap_job = np.empty(heap_capacity, dtype=np.int64)
    heap_version = np.empty(heap_capacity, dtype=np.int64)
    heap_size, pushes = 0, 0
    version = np.zeros(n_jobs, dtype=np.int64)
    planned_end = np.zeros(n_jobs)
    # waiting jobs, arrival order
    queue, leaves = new_tree(n_jobs, n_clusters)
    waiting = 0
    bound = np.empty(n_clusters, dtype=np.int64)
    fresh_smallest = np.empty(n_clusters, dtype=np.int64)
    order = np.empty(n_clusters, dtype=np.int64)
    pieces = np.empty(n_clusters, dtype=np.int64)
    scratch = new_scratch(n_clusters)
    demand = np.empty(n_clusters)
    next_arrival, now = 0, 0.0
    sharing = strategy != ZERO_COMM
    saturated = False

    while next_arrival < n_jobs or heap_size > 0:
        # the next timestamp: ends before arrivals
        while heap_size > 0 and heap_version[0] != version[heap_job[0]]:
            heap_size = _pop(heap_time, heap_sequence, heap_job, heap_version, heap_size)
        t = np.inf
        if heap_size > 0:
            t = heap_time[0]
        if next_arrival < n_jobs and submit[next_arrival] < t:
            t = submit[next_arrival]
        if t == np.inf:
            break
        _queue_area(now, t, waiting, queue_area, queue_observed)
        now = t
        reshare, freed = False, False
        while heap_size > 0 and heap_time[0] == now:
            job, stale = heap_job[0], heap_version[0] != version[heap_job[0]]
            heap_size = _pop(heap_time, heap_sequence, heap_job, heap_version, heap_size)
            if stale:
                continue
            end[job] = now
            freed = True
            for cluster in range(n_clusters):
                idle[cluster] += allocation[job, cluster]
            slot = slot_of[job]
            if slot >= 0:
                for cluster in range(n_clusters):
                    load[cluster] -= slot_demand[slot, cluster]
                last = coallocated - 1
                if slot != last:
                    moved = slot_job[last]
                    slot_job[slot] = moved
                    slot_demand[slot, :] = slot_demand[last, :]
                    slot_fraction[slot] = slot_fraction[last]
                    slot_work[slot] = slot_work[last]
                    slot_since[slot] = slot_since[last]
                    slot_of[moved] = slot
                slot_of[job] = -1
                coallocated -= 1
                reshare = True
        # This timestamp's arrivals wait too, but enter the queue's tree only after the first scan has tried
        # them (``fresh``, below): most start at once, and a job's leaf set and cleared again is two walks
        # up the tree for nothing.  The tree is the min-tree of its leaves whatever the order of the updates.
        first_new = next_arrival
        for cluster in range(n_clusters):
            fresh_smallest[cluster] = NOT_WAITING
        while next_arrival < n_jobs and submit[next_arrival] == now:
            fresh_smallest[home[next_arrival]] = min(fresh_smallest[home[next_arrival]], nodes[next_arrival])
            waiting += 1
            next_arrival += 1
        if waiting > wait_floor and waiting > waiting_limit(next_arrival, wait_share, wait_floor, wait_cap):
            saturated = True
            break

        # FPFS scan.  Without an end at this timestamp no idle node or link capacity came
        # back, so the jobs that waited before still cannot start: only arrivals are tried.
        # The queue's tree skips every job larger than the strategy could place anywhere.
        if _may_start(strategy, idle, queue, fresh_smallest):
            scan_from = 0 if freed else first_new
            # The paper's order places every waiting job that fits whole (local or migrated)
            # before it co-allocates any; the per-job order tries all three on each job in turn.
            scans = 2 if whole_first and strategy != NO_SHARE and strategy != MIGRATION_ONLY else 1
            for scan in range(scans):
                scan_strategy = MIGRATION_ONLY if scan == 0 and scans == 2 else strategy
                _fitting_bound(scan_strategy, idle, bound)
                # The jobs in arrival order from ``scan_from`` whose size is within the bound: those of the
                # tree (the first scan: those that arrived before this timestamp, every one of which comes
                # before this timestamp's), then, in the first scan, this timestamp's arrivals.
                if scan == 0:
                    job = next_candidate(queue, leaves, scan_from, bound) if scan_from < first_new else -1
                    fresh = first_new
                else:
                    job = next_candidate(queue, leaves, scan_from, bound)
                    fresh = next_arrival
                while True:
                    in_tree = job >= 0
                    if not in_tree:
                        while fresh < next_arrival and nodes[fresh] > bound[home[fresh]]:
                            fresh += 1
                        if fresh == next_arrival:
                            break
                        job = fresh
                        fresh += 1
                    placement_kind, k = place(scan_strategy, home[job], nodes[job], columns[job], ppbw[job],
                                              rho[job], exposed[job], idle, load, link_capacity,
                                              lslt_threshold, chunk_share, subsets, subset_sizes, scratch, order,
                                              pieces)
                    if placement_kind != 0:
                        if in_tree:
                            set_size(queue, leaves, job, home[job], NOT_WAITING)
                        waiting -= 1
                        start[job] = now
                        kind[job] = placement_kind
                        for i in range(k):
                            layout[job, i] = order[i]
                            idle[order[i]] -= pieces[i]
                            allocation[job, order[i]] += pieces[i]
                            if idle[order[i]] < 0:
                                raise RuntimeError("a cluster has fewer than zero idle nodes")
                        planned_end[job] = now + base_time[job]
                        if placement_kind == COALLOCATED and sharing:
                            if coallocated == max_coallocated:
                                raise RuntimeError("more co-allocated jobs running than slots")
                            link_demands(nodes[job], columns[job], ppbw[job], rho[job], order[:k], pieces[:k], demand)
                            slot = coallocated
                            coallocated += 1
                            slot_job[slot] = job
                            slot_demand[slot, :] = demand
                            slot_fraction[slot] = 1.0
                            slot_work[slot] = 1.0
                            slot_since[slot] = now
                            slot_of[job] = slot
                            load += demand
                            reshare = True
                        heap_size = _push(heap_time, heap_sequence, heap_job, heap_version, version, heap_size,
                                          planned_end[job], pushes, job)
                        pushes += 1
                        _fitting_bound(scan_strategy, idle, bound)
                    job = next_candidate(queue, leaves, job + 1, bound) if in_tree else -1
                if scan == 0:  # the arrivals left waiting join the tree
                    for fresh in range(first_new, next_arrival):
                        if kind[fresh] == 0:
                            set_size(queue, leaves, fresh, home[fresh], nodes[fresh])
        else:
            for fresh in range(first_new, next_arrival):
                set_size(queue, leaves, fresh, home[fresh], nodes[fresh])

        # re-share the links and move the ends that change
        if reshare and coallocated > 0:
            progressive_filling(slot_demand, capacity_vector, coallocated, new_fraction, frozen, link_used)
            for slot in range(coallocated):
                job = slot_job[slot]
                if strategy == ICS and new_fraction[slot] < 1.0 - TOLERANCE:
                    raise RuntimeError("ICS saturated a link")
                if new_fraction[slot] == slot_fraction[slot]:
                    continue
                slot_work[slot] -= (now - slot_since[slot]) / duration(base_time[job], slot_fraction[slot])
                slot_work[slot] = max(slot_work[slot], 0.0)
                slot_since[slot] = now
                slot_fraction[slot] = new_fraction[slot]
                planned_end[job] = now + slot_work[slot] * duration(base_time[job], new_fraction[slot])
                version[job] += 1
                heap_size = _push(heap_time, heap_sequence, heap_job, heap_version, version, heap_size,
                                  planned_end[job], pushes, job)
                pushes += 1

    if waiting > 0 and not saturated:
        raise RuntimeError("jobs left waiting at the end of the run")
    return start, end, kind, allocation, layout, queue_area, queue_observed, saturated
