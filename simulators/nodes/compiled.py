"""The node replay's common case on a compiled loop: built-in FCFS or EASY, jobs in arrival order, no
capacity events (issue 65, item 3).

It runs the same rules as the interpreted reference (``NodeMachine`` with ``NodeFirstComeFirstServed``
or ``NodeEasyBackfilling`` under the engine's default conventions: ends before starts at one time,
one pass per timestamp), decision for decision: the same first-fit placement in node order, the same
reservation for the head (running jobs released in the order of their estimated ends, ties by job;
the nodes busy now taken first) and the same backfilling rule.  ``tests/test_node_compiled.py``
compares the two start for start and node for node.  It returns each job's start, promise and nodes,
from which the replay rebuilds its schedule and checks it as it checks the reference's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

FCFS, EASY = 0, 1
DONE, NO_FIT = 0, 1


@njit(cache=True)
def _holds(n, job, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, exclusive):
    if exclusive:
        return (free_c[n] == cap_c[n] and free_g[n] == cap_g[n] and free_m[n] == cap_m[n]
                and cap_c[n] >= dc[job] and cap_g[n] >= dg[job] and cap_m[n] >= dm[job])
    return ((dc[job] <= 0 or free_c[n] >= dc[job]) and (dg[job] <= 0 or free_g[n] >= dg[job])
            and (dm[job] <= 0 or free_m[n] >= dm[job]))


@njit(cache=True)
def _fit(job, out, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, k, part, part_mask, exclusive,
         excluded, preferred, use_excluded, use_preferred):
    """Fill ``out[:k[job]]`` with the job's nodes, preferred ones first, then sorted; False if too few."""
    wanted = k[job]
    found = 0
    passes = 2 if use_preferred else 1
    for round_ in range(passes):
        for n in range(free_c.shape[0]):
            if found == wanted:
                break
            if not part_mask[part[job], n] or (use_excluded and excluded[n]):
                continue
            if use_preferred and (preferred[n] != (round_ == 0)):
                continue
            if _holds(n, job, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, exclusive):
                out[found] = n
                found += 1
    if found < wanted:
        return False
    out[:wanted].sort()
    return True


@njit(cache=True)
def _take(job, nodes, sign, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, exclusive):
    for n in nodes:
        if exclusive:
            free_c[n] -= sign * cap_c[n]
            free_g[n] -= sign * cap_g[n]
            free_m[n] -= sign * cap_m[n]
        else:
            free_c[n] -= sign * dc[job]
            free_g[n] -= sign * dg[job]
            free_m[n] -= sign * dm[job]


@njit(cache=True)
def _before(heap_end, heap_start, heap_seq, a, b):
    """Whether termination ``a`` comes before ``b``: by end, then start, then the order of the starts."""
    if heap_end[a] != heap_end[b]:
        return heap_end[a] < heap_end[b]
    if heap_start[a] != heap_start[b]:
        return heap_start[a] < heap_start[b]
    return heap_seq[a] < heap_seq[b]


@njit(cache=True)
def _swap(heap_end, heap_start, heap_seq, heap_job, a, b):
    heap_end[a], heap_end[b] = heap_end[b], heap_end[a]
    heap_start[a], heap_start[b] = heap_start[b], heap_start[a]
    heap_seq[a], heap_seq[b] = heap_seq[b], heap_seq[a]
    heap_job[a], heap_job[b] = heap_job[b], heap_job[a]


@njit(cache=True)
def _push(heap_end, heap_start, heap_seq, heap_job, size, end, start, seq, job):
    i = size
    heap_end[i], heap_start[i], heap_seq[i], heap_job[i] = end, start, seq, job
    while i > 0:
        parent = (i - 1) // 2
        if not _before(heap_end, heap_start, heap_seq, i, parent):
            break
        _swap(heap_end, heap_start, heap_seq, heap_job, i, parent)
        i = parent
    return size + 1


@njit(cache=True)
def _pop(heap_end, heap_start, heap_seq, heap_job, size):
    job = heap_job[0]
    size -= 1
    heap_end[0], heap_start[0], heap_seq[0], heap_job[0] = heap_end[size], heap_start[size], heap_seq[size], heap_job[size]
    i = 0
    while True:
        left, right, smallest = 2 * i + 1, 2 * i + 2, i
        if left < size and _before(heap_end, heap_start, heap_seq, left, smallest):
            smallest = left
        if right < size and _before(heap_end, heap_start, heap_seq, right, smallest):
            smallest = right
        if smallest == i:
            break
        _swap(heap_end, heap_start, heap_seq, heap_job, i, smallest)
        i = smallest
    return job, size


@njit(cache=True)
def run_nodes(policy, submit, estimate, actual, k, dc, dg, dm, part, cap_c, cap_g, cap_m, part_mask, exclusive,
              demand_id, demands):
    """``demand_id[j]`` numbers job j's (partition, nodes, per-node demand), ``demands`` of them: a demand that
    found no nodes in a pass is not tried again in it (starts only take room), as the reference does."""
    n_jobs, n_nodes = submit.shape[0], cap_c.shape[0]
    unplaced = np.zeros((2, demands), dtype=np.bool_)
    room = np.zeros(part_mask.shape[0], dtype=np.int64)
    free_c, free_g, free_m = cap_c.copy(), cap_g.copy(), cap_m.copy()
    start = np.full(n_jobs, np.nan)
    promised = np.full(n_jobs, np.inf)
    offset = np.zeros(n_jobs + 1, dtype=np.int64)
    for j in range(n_jobs):
        offset[j + 1] = offset[j] + k[j]
    placed = np.zeros(offset[n_jobs], dtype=np.int64)
    queue = np.empty(n_jobs, dtype=np.int64)
    queue_size = 0
    heap_end, heap_start = np.empty(n_jobs), np.empty(n_jobs)
    heap_seq, heap_job = np.empty(n_jobs, dtype=np.int64), np.empty(n_jobs, dtype=np.int64)
    heap_size = 0
    sequence = 0
    next_submit = 0
    out = np.empty(n_nodes, dtype=np.int64)
    excluded = np.zeros(n_nodes, dtype=np.bool_)
    preferred = np.zeros(n_nodes, dtype=np.bool_)
    head_nodes = np.empty(n_nodes, dtype=np.int64)
    protected = -1
    running = np.empty(n_jobs, dtype=np.int64)
    while next_submit < n_jobs or heap_size > 0:
        t = np.inf
        if heap_size > 0:
            t = heap_end[0]
        if next_submit < n_jobs and submit[next_submit] < t:
            t = submit[next_submit]
        while heap_size > 0 and heap_end[0] == t:
            job, heap_size = _pop(heap_end, heap_start, heap_seq, heap_job, heap_size)
            _take(job, placed[offset[job]:offset[job + 1]], -1, free_c, free_g, free_m, cap_c, cap_g, cap_m,
                  dc, dg, dm, exclusive)
        while next_submit < n_jobs and submit[next_submit] == t:
            queue[queue_size] = next_submit
            queue_size += 1
            next_submit += 1
        # FCFS: queue heads while they fit
        first = 0
        while first < queue_size:
            job = queue[first]
            if not _fit(job, out, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, k, part, part_mask,
                        exclusive, excluded, preferred, False, False):
                break
            sequence = _start(job, t, out, placed, offset, start, actual, free_c, free_g, free_m, cap_c, cap_g, cap_m,
                              dc, dg, dm, exclusive, heap_end, heap_start, heap_seq, heap_job, heap_size, sequence)
            heap_size += 1
            first += 1
        queue[:queue_size - first] = queue[first:queue_size]
        queue_size -= first
        if policy == FCFS or queue_size == 0:
            continue
        head = queue[0]
        if protected != -1 and protected != head and np.isnan(start[protected]):
            promised[protected] = np.inf
        protected = head
        # the head's reservation: release running jobs by estimated end until it fits
        count = heap_size
        running[:count] = np.sort(heap_job[:count])
        ends = np.empty(count)
        for i in range(count):
            ends[i] = start[running[i]] + estimate[running[i]]
        order = np.argsort(ends, kind="mergesort")  # stable: equal ends in job order
        later_c, later_g, later_m = free_c.copy(), free_g.copy(), free_m.copy()
        # how many of the head's partition's nodes would hold it, kept up to date node by node as jobs end
        holding = 0
        for n in range(n_nodes):
            if part_mask[part[head], n] and _holds(n, head, later_c, later_g, later_m, cap_c, cap_g, cap_m,
                                                   dc, dg, dm, exclusive):
                holding += 1
        shadow = np.inf
        released = 0
        while released < count:
            at = ends[order[released]]
            while released < count and ends[order[released]] <= at:
                job = running[order[released]]
                for n in placed[offset[job]:offset[job + 1]]:
                    before = part_mask[part[head], n] and _holds(n, head, later_c, later_g, later_m, cap_c, cap_g,
                                                                 cap_m, dc, dg, dm, exclusive)
                    if exclusive:
                        later_c[n] += cap_c[n]
                        later_g[n] += cap_g[n]
                        later_m[n] += cap_m[n]
                    else:
                        later_c[n] += dc[job]
                        later_g[n] += dg[job]
                        later_m[n] += dm[job]
                    after = part_mask[part[head], n] and _holds(n, head, later_c, later_g, later_m, cap_c, cap_g,
                                                                cap_m, dc, dg, dm, exclusive)
                    holding += int(after) - int(before)
                released += 1
            if at > t and holding >= k[head]:
                shadow = at
                break
        if shadow == np.inf:
            return NO_FIT, head, start, promised, placed, offset
        # its nodes: of those that hold it then, the ones that cannot hold it now first
        wanted, found = k[head], 0
        for round_ in range(2):
            for n in range(n_nodes):
                if found == wanted:
                    break
                if not part_mask[part[head], n]:
                    continue
                if not _holds(n, head, later_c, later_g, later_m, cap_c, cap_g, cap_m, dc, dg, dm, exclusive):
                    continue
                now = _holds(n, head, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, exclusive)
                if now == (round_ == 1):
                    head_nodes[found] = n
                    found += 1
        head_set = head_nodes[:wanted]
        promised[head] = min(promised[head], shadow)
        excluded[:] = False
        preferred[:] = False
        for n in head_set:
            excluded[n] = True
            preferred[n] = True
        kept = 1
        unplaced[:, :] = False
        _room(room, free_c, part_mask)
        for position in range(1, queue_size):
            job = queue[position]
            ends_in_time = t + estimate[job] <= shadow
            if k[job] * dc[job] > room[part[job]] or unplaced[int(ends_in_time), demand_id[job]]:
                queue[kept] = job
                kept += 1
                continue
            if ends_in_time:
                fits = _fit(job, out, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, k, part, part_mask,
                            exclusive, excluded, preferred, False, True)
            else:
                fits = _fit(job, out, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, k, part, part_mask,
                            exclusive, excluded, preferred, True, False)
            if fits:
                sequence = _start(job, t, out, placed, offset, start, actual, free_c, free_g, free_m, cap_c, cap_g,
                                  cap_m, dc, dg, dm, exclusive, heap_end, heap_start, heap_seq, heap_job, heap_size,
                                  sequence)
                heap_size += 1
                _room(room, free_c, part_mask)
            else:
                unplaced[int(ends_in_time), demand_id[job]] = True
                queue[kept] = job
                kept += 1
        queue_size = kept
        excluded[:] = False
        preferred[:] = False
    return DONE, -1, start, promised, placed, offset


@njit(cache=True)
def _room(room, free_c, part_mask):
    """Per partition, the cores free on its nodes (a job asking more cannot start)."""
    for p in range(part_mask.shape[0]):
        total = 0
        for n in range(free_c.shape[0]):
            if part_mask[p, n]:
                total += free_c[n]
        room[p] = total


@njit(cache=True)
def _start(job, t, out, placed, offset, start, actual, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm,
           exclusive, heap_end, heap_start, heap_seq, heap_job, heap_size, sequence):
    nodes = placed[offset[job]:offset[job + 1]]
    nodes[:] = out[:nodes.shape[0]]
    _take(job, nodes, 1, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, exclusive)
    start[job] = t
    sequence += 1
    _push(heap_end, heap_start, heap_seq, heap_job, heap_size, t + actual[job], t, sequence, job)
    return sequence
