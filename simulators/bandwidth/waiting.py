"""The waiting queue as a min-tree over arrival order, so a scan visits only jobs that may fit.

The paper's scheduler is FPFS (Jones et al., ICPADS 2006, Sec. 4): every scan walks the
waiting jobs in arrival order and starts each one that fits.  With thousands of jobs
waiting at a weekday peak, most of which fit nowhere, walking them after every job end was
most of a run's time.  Here every job has a leaf, indexed by its arrival order, holding its
size in the column of its home cluster while it waits (``NOT_WAITING`` otherwise); an inner
node holds, per home cluster, the smallest waiting size below it.  ``next_candidate`` jumps
to the next waiting job whose size is within a per-home-cluster bound, skipping in one step
every run of jobs that cannot fit, so a scan costs a logarithm per job it tries instead of
one step per job that waits.  The jobs tried, and their order, are those the walk tried:
a job above the bound is one the walk would have tried and failed to place.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from schedlab.simulators.bandwidth.jit import uncounted

NOT_WAITING = np.iinfo(np.int16).max
"""A leaf's value while its job is not waiting; above every job's size (a job has at most 400 nodes)."""


@njit(cache=True)
def new_tree(n_jobs, n_clusters):
    """An empty queue for jobs 0 .. n_jobs - 1: (tree, leaves), the leaves' count a power of two."""
    leaves = 1
    while leaves < max(n_jobs, 1):
        leaves *= 2
    return np.full((2 * leaves, n_clusters), NOT_WAITING, dtype=np.int16), leaves


@uncounted
def set_size(tree, leaves, job, cluster, size):
    """Job ``job`` of home ``cluster`` now waits with ``size`` nodes (``NOT_WAITING``: it no longer waits)."""
    node = leaves + job
    tree[node, cluster] = size
    node //= 2
    while node >= 1:
        smallest = min(tree[2 * node, cluster], tree[2 * node + 1, cluster])
        if tree[node, cluster] == smallest:
            return  # nothing above changes either
        tree[node, cluster] = smallest
        node //= 2


@uncounted
def _within(tree, node, bound):
    for cluster in range(tree.shape[1]):
        if tree[node, cluster] <= bound[cluster]:
            return True
    return False


@uncounted
def next_candidate(tree, leaves, first, bound):
    """The first waiting job at or after ``first`` (arrival order) whose size is at most
    ``bound[home]``, or -1."""
    if first >= leaves:
        return -1
    node = 1 if first == 0 else leaves + first  # from the start of the queue: straight down from the root
    if node == 1 and not _within(tree, 1, bound):
        return -1
    if node > 1 and not _within(tree, node, bound):
        while True:  # climb to the nearest subtree on the right that holds a candidate
            while node % 2 == 1:
                node //= 2
            if node == 0:
                return -1
            node += 1
            if _within(tree, node, bound):
                break
    while node < leaves:  # descend to its leftmost candidate
        node = 2 * node if _within(tree, 2 * node, bound) else 2 * node + 1
    return node - leaves


@uncounted
def smallest_waiting(tree, cluster):
    """The smallest waiting job's size among those of home ``cluster`` (``NOT_WAITING`` if none waits)."""
    return tree[1, cluster]
