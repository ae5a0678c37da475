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

from schedlab.simulators.core.event_heap import helper, pop, push

FCFS, EASY = 0, 1
DONE, NO_FIT = 0, 1


@helper
def _holds(n, job, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, exclusive):
    if exclusive:
        return (free_c[n] == cap_c[n] and free_g[n] == cap_g[n] and free_m[n] == cap_m[n]
                and cap_c[n] >= dc[job] and cap_g[n] >= dg[job] and cap_m[n] >= dm[job])
    return ((dc[job] <= 0 or free_c[n] >= dc[job]) and (dg[job] <= 0 or free_g[n] >= dg[job])
            and (dm[job] <= 0 or free_m[n] >= dm[job]))


@helper
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
    for i in range(1, wanted):  # in node order: the preferred nodes came first
        node, j = out[i], i
        while j > 0 and out[j - 1] > node:
            out[j] = out[j - 1]
            j -= 1
        out[j] = node
    return True


@helper
def _take(job, placed, offset, sign, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, exclusive, room,
          part_mask):
    """Take (``sign`` 1) or give back (-1) the job's share of its nodes; ``room`` follows the cores."""
    for i in range(offset[job], offset[job + 1]):
        n = placed[i]
        cores = cap_c[n] if exclusive else dc[job]
        free_c[n] -= sign * cores
        if exclusive:
            free_g[n] -= sign * cap_g[n]
            free_m[n] -= sign * cap_m[n]
        else:
            free_g[n] -= sign * dg[job]
            free_m[n] -= sign * dm[job]
        for p in range(part_mask.shape[0]):
            if part_mask[p, n]:
                room[p] -= sign * cores


@njit(cache=True)
def run_nodes(policy, submit, estimate, actual, k, dc, dg, dm, part, cap_c, cap_g, cap_m, part_mask, exclusive,
              demand_id, demands):
    """``demand_id[j]`` numbers job j's (partition, nodes, per-node demand), ``demands`` of them: a demand that
    found no nodes in a pass is not tried again in it (starts only take room), as the reference does.

    Two things make a pass cheap without changing what it decides.  The running jobs are kept in the order
    the head's reservation releases them (estimated end, then job), so no pass sorts them.  And a pass in
    which nothing ended, after a pass that started nothing, finds what the previous one found: the same
    free nodes, the same head and so the same reservation, and every job it already tried still does not
    fit (a later ``t`` can only turn a job that would end before the head's promise into one that must keep
    off the head's nodes); only the jobs that arrived since are tried."""
    n_jobs, n_nodes = submit.shape[0], cap_c.shape[0]
    unplaced = np.zeros((2, demands), dtype=np.int64)  # the pass in which a demand last found no nodes
    passes = 0
    free_c, free_g, free_m = cap_c.copy(), cap_g.copy(), cap_m.copy()
    room = np.zeros(part_mask.shape[0], dtype=np.int64)
    _room(room, free_c, part_mask)
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
    later_c, later_g, later_m = free_c.copy(), free_g.copy(), free_m.copy()
    protected = -1
    releasing_end = np.empty(n_jobs)  # the running jobs by estimated end, then job
    releasing_job = np.empty(n_jobs, dtype=np.int64)
    running = 0
    reserved_head = -1  # the head whose reservation ``shadow`` and ``head_nodes`` hold
    shadow = np.inf
    unchanged = False  # nothing started or ended since that reservation was made
    tried = 0  # the queue's length after the last pass: its jobs from 1 on were tried and did not fit
    while next_submit < n_jobs or heap_size > 0:
        t = np.inf
        if heap_size > 0:
            t = heap_end[0]
        if next_submit < n_jobs and submit[next_submit] < t:
            t = submit[next_submit]
        while heap_size > 0 and heap_end[0] == t:
            job, heap_size = pop(heap_end, heap_start, heap_seq, heap_job, heap_size)
            _take(job, placed, offset, -1, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, exclusive, room,
                  part_mask)
            running = _unlist(releasing_end, releasing_job, running, start[job] + estimate[job], job)
            unchanged = False
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
            sequence = _start(job, t, out, placed, offset, start, actual, free_c, free_g, free_m, cap_c,
                              cap_g, cap_m, dc, dg, dm, exclusive, room, part_mask, heap_end, heap_start, heap_seq,
                              heap_job, heap_size, sequence)
            heap_size += 1
            running = _enlist(releasing_end, releasing_job, running, start[job] + estimate[job], job)
            unchanged = False
            first += 1
        queue[:queue_size - first] = queue[first:queue_size]
        queue_size -= first
        if policy == FCFS or queue_size == 0:
            tried = queue_size
            continue
        head = queue[0]
        if protected != -1 and protected != head and np.isnan(start[protected]):
            promised[protected] = np.inf
        protected = head
        if unchanged and reserved_head == head:
            kept = max(tried, 1)
        else:
            shadow = _reservation(head, t, releasing_end, releasing_job, running, free_c, free_g, free_m,
                                  later_c, later_g, later_m, cap_c, cap_g, cap_m, dc, dg, dm, k, part, part_mask,
                                  exclusive, placed, offset, head_nodes)
            if shadow == np.inf:
                return NO_FIT, head, start, promised, placed, offset
            promised[head] = min(promised[head], shadow)
            reserved_head = head
            unchanged = True
            kept = 1
        for i in range(k[head]):
            excluded[head_nodes[i]] = True
            preferred[head_nodes[i]] = True
        passes += 1
        for position in range(kept, queue_size):
            job = queue[position]
            ends_in_time = t + estimate[job] <= shadow
            if k[job] * dc[job] > room[part[job]] or unplaced[int(ends_in_time), demand_id[job]] == passes:
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
                sequence = _start(job, t, out, placed, offset, start, actual, free_c, free_g, free_m,
                                  cap_c, cap_g, cap_m, dc, dg, dm, exclusive, room, part_mask, heap_end, heap_start,
                                  heap_seq, heap_job, heap_size, sequence)
                heap_size += 1
                running = _enlist(releasing_end, releasing_job, running, start[job] + estimate[job], job)
                unchanged = False
            else:
                unplaced[int(ends_in_time), demand_id[job]] = passes
                queue[kept] = job
                kept += 1
        queue_size = kept
        tried = queue_size
        for i in range(k[head]):
            excluded[head_nodes[i]] = False
            preferred[head_nodes[i]] = False
    return DONE, -1, start, promised, placed, offset


@helper
def _reservation(head, t, releasing_end, releasing_job, running, free_c, free_g, free_m, later_c, later_g, later_m,
                 cap_c, cap_g, cap_m, dc, dg, dm, k, part, part_mask, exclusive, placed, offset, head_nodes):
    """The head's promised start (infinity if it never fits) and, in ``head_nodes[:k[head]]``, its nodes: running
    jobs released in order until it fits; of the nodes that then hold it, those that cannot hold it now first."""
    n_nodes = free_c.shape[0]
    for n in range(n_nodes):
        later_c[n], later_g[n], later_m[n] = free_c[n], free_g[n], free_m[n]
    # how many of the head's partition's nodes would hold it, kept up to date node by node as jobs end
    holding = 0
    for n in range(n_nodes):
        if part_mask[part[head], n] and _holds(n, head, later_c, later_g, later_m, cap_c, cap_g, cap_m,
                                               dc, dg, dm, exclusive):
            holding += 1
    shadow = np.inf
    released = 0
    while released < running:
        at = releasing_end[released]
        while released < running and releasing_end[released] <= at:
            job = releasing_job[released]
            for i in range(offset[job], offset[job + 1]):
                n = placed[i]
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
        return shadow
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
    return shadow


@helper
def _position(releasing_end, releasing_job, running, end, job):
    """Where (``end``, ``job``) goes in the release order: the first place whose entry does not come before it."""
    low, high = 0, running
    while low < high:
        middle = (low + high) // 2
        if releasing_end[middle] < end or (releasing_end[middle] == end and releasing_job[middle] < job):
            low = middle + 1
        else:
            high = middle
    return low


@helper
def _enlist(releasing_end, releasing_job, running, end, job):
    at = _position(releasing_end, releasing_job, running, end, job)
    for i in range(running, at, -1):
        releasing_end[i], releasing_job[i] = releasing_end[i - 1], releasing_job[i - 1]
    releasing_end[at], releasing_job[at] = end, job
    return running + 1


@helper
def _unlist(releasing_end, releasing_job, running, end, job):
    at = _position(releasing_end, releasing_job, running, end, job)
    for i in range(at, running - 1):
        releasing_end[i], releasing_job[i] = releasing_end[i + 1], releasing_job[i + 1]
    return running - 1


@helper
def _room(room, free_c, part_mask):
    """Per partition, the cores free on its nodes (a job asking more cannot start)."""
    for p in range(part_mask.shape[0]):
        total = 0
        for n in range(free_c.shape[0]):
            if part_mask[p, n]:
                total += free_c[n]
        room[p] = total


@helper
def _start(job, t, out, placed, offset, start, actual, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg,
           dm, exclusive, room, part_mask, heap_end, heap_start, heap_seq, heap_job, heap_size, sequence):
    for i in range(offset[job + 1] - offset[job]):
        placed[offset[job] + i] = out[i]
    _take(job, placed, offset, 1, free_c, free_g, free_m, cap_c, cap_g, cap_m, dc, dg, dm, exclusive, room, part_mask)
    start[job] = t
    sequence += 1
    push(heap_end, heap_start, heap_seq, heap_job, heap_size, t + actual[job], t, sequence, job)
    return sequence
