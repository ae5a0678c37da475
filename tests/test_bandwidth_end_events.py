"""The kernel's end-event heap: moved ends leave stale entries behind, and a full heap drops them
(``kernel._compact``) rather than grow.  Whatever the heap's layout after that, the live ends must pop
in (time, push order), each once, as a sort of the live entries gives them."""

import numpy as np
import pytest

from schedlab.simulators.bandwidth.kernel import _pop, _push


@pytest.mark.parametrize("seed", range(20))
def test_live_ends_pop_in_time_then_push_order_through_compactions(seed):
    rng = np.random.default_rng(seed)
    capacity, n_jobs = 12, 6  # at most 6 live entries: a full heap always has stale ones to drop
    times, sequence = np.empty(capacity), np.empty(capacity, dtype=np.int64)
    jobs, versions = np.empty(capacity, dtype=np.int64), np.empty(capacity, dtype=np.int64)
    version = np.zeros(n_jobs, dtype=np.int64)
    live = {}  # job -> (time, push order) of its current end
    size = pushes = 0
    for _ in range(400):  # move ends many times over: far more pushes than the heap holds
        job = int(rng.integers(n_jobs))
        version[job] += 1
        live[job] = (float(rng.integers(0, 20)), pushes)  # equal times: push order decides
        size = _push(times, sequence, jobs, versions, version, size, live[job][0], pushes, job)
        pushes += 1
        assert size <= capacity
    popped = []
    while size:
        if versions[0] == version[jobs[0]]:
            popped.append((float(times[0]), int(sequence[0]), int(jobs[0])))
        size = _pop(times, sequence, jobs, versions, size)
    assert popped == sorted((time, order, job) for job, (time, order) in live.items())


def test_a_heap_of_live_ends_only_cannot_take_another():
    times, sequence = np.empty(2), np.empty(2, dtype=np.int64)
    jobs, versions = np.empty(2, dtype=np.int64), np.empty(2, dtype=np.int64)
    version = np.zeros(3, dtype=np.int64)
    size = _push(times, sequence, jobs, versions, version, 0, 1.0, 0, 0)
    size = _push(times, sequence, jobs, versions, version, size, 2.0, 1, 1)
    with pytest.raises(RuntimeError, match="more end events"):
        _push(times, sequence, jobs, versions, version, size, 3.0, 2, 2)
