"""The compiled ICS kernel (schedlab.simulators.ics.compiled) gives the reference kernel's outcome bit for bit.

Every scheme runs on every workload twice, each time on fresh jobs built from the same
spec: once in the readable pure-Python ``Kernel`` and once in ``run_compiled``; the two
``KernelOutcome``s must be equal to the last bit.  The workloads cover the synthetic
wl1..wl5 under both loads and several seeds, all jobs at time 0 with and without task
skew, MPL 2, 3 and 5, the NPB mix and NPB MG alone (whose nearest-neighbour phases let
ranks run up to ten iterations ahead, so messages of later iterations arrive early),
and hand-made jobs of one, two and three processes with I/O and a changing pattern.
wl2-light-s4 and wl5-heavy-s2 run past several once-a-second TS starvation updates, which
raise queued processes and preempt runners under LOCAL, PB and PROC-S.
They are kept small (about 15 s of reference runs in all); numba's first compile
takes another 15 s or so and is cached on disk afterwards.
"""

from __future__ import annotations

import numpy as np
import pytest

from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.ics import compiled
from schedlab.simulators.ics.compiled import run_compiled
from schedlab.simulators.ics.kernel import Kernel
from schedlab.simulators.ics.outcome import KernelOutcome
from schedlab.simulators.ics.schemes import SCHEMES, boosts_a_spinner, make_scheme
from schedlab.simulators.ics.state import Job
from schedlab.simulators.ics.workload import NpbSpec, SyntheticSpec, npb_jobs, synthetic_jobs


def synthetic(workload: str, load: str, seed: int, n_jobs: int = 8, compression: float = 40000.0, **extra):
    spec = SyntheticSpec(workload=workload, load=load, n_jobs=n_jobs, compression=compression, seed=seed, **extra)
    return lambda: synthetic_jobs(spec)


def npb(**fields):
    spec = NpbSpec(**fields)
    return lambda: npb_jobs(spec)


def handmade():
    """A lone process (no peers), a pair with I/O, and a trio switching from ring to all-to-all."""
    single = Job(0, 1, "J1-NN", 0.0, [[2e-3, 1e-3, 3e-3]], [[0.0, 0.0, 0.0]], [16384.0] * 3, [False] * 3, 6e-3)
    pair = Job(1, 2, "J4-NN", 1e-4, [[1e-3, 2e-3], [3e-3, 5e-4]], [[5e-4, 0.0], [0.0, 2e-3]], [16384.0] * 2,
               [False] * 2, 7e-3)
    trio = Job(2, 3, "mixed", 2e-4, np.full((3, 4), 1.5e-3), np.zeros((3, 4)), [8.0, 16384.0, 800.0, 65536.0],
               [False, True, False, True], 8e-3)
    return [single, pair, trio]


WORKLOADS = {  # name: (fresh jobs, nodes, MPL)
    "wl1-heavy-s1": (synthetic("wl1", "heavy", 1), 32, 5),
    "wl1-light-s2": (synthetic("wl1", "light", 2), 32, 5),
    "wl2-heavy-s1": (synthetic("wl2", "heavy", 1), 32, 5),
    "wl2-light-s4": (synthetic("wl2", "light", 4, n_jobs=6), 32, 5),
    "wl3-heavy-s1": (synthetic("wl3", "heavy", 1), 32, 5),
    "wl3-light-s5": (synthetic("wl3", "light", 5, n_jobs=6), 32, 5),
    "wl4-heavy-s3": (synthetic("wl4", "heavy", 3), 32, 5),
    "wl4-light-s1": (synthetic("wl4", "light", 1), 32, 5),
    "wl5-heavy-s2": (synthetic("wl5", "heavy", 2), 32, 5),
    "wl5-light-s1": (synthetic("wl5", "light", 1, compression=20000.0), 32, 5),
    "simultaneous-skew0.0": (synthetic("wl4", "heavy", 6, skew=0.0, simultaneous=True), 32, 5),
    "simultaneous-skew0.6": (synthetic("wl4", "heavy", 6, skew=0.6, simultaneous=True), 32, 5),
    "mpl2": (synthetic("wl4", "heavy", 1), 32, 2),
    "mpl3": (synthetic("wl4", "heavy", 1), 32, 3),
    "mpl5": (synthetic("wl4", "heavy", 1), 32, 5),
    "npb-mix": (npb(apps=("BT", "MG", "FT", "IS", "CG"), n_jobs=4, iteration_share=0.002, mean_interarrival=0.05),
                64, 5),
    "npb-mg": (npb(apps=("MG",), n_jobs=3, iteration_share=0.03), 64, 5),
    "handmade": (handmade, 3, 2),
}


def reference(make_jobs, nodes: int, mpl: int, scheme: str, max_events: int | None = None) -> KernelOutcome:
    kernel = Kernel(make_jobs(), nodes, mpl, make_scheme(scheme), max_events=max_events)
    kernel.run()
    return kernel.outcome()


def differences(a: KernelOutcome, b: KernelOutcome) -> list[str]:
    fields = ("end", "events", "messages", "mpl", "job_start", "job_end", "accounts", "switches", "decisions",
              "conflicts", "false_decisions")
    wrong = [name for name in fields if not np.array_equal(getattr(a, name), getattr(b, name))]
    if len(a.process_finish) != len(b.process_finish) or not all(
        np.array_equal(x, y) for x, y in zip(a.process_finish, b.process_finish)
    ):
        wrong.append("process_finish")
    return wrong


@pytest.mark.parametrize("workload", sorted(WORKLOADS))
@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_compiled_outcome_equals_reference(scheme, workload):
    make_jobs, nodes, mpl = WORKLOADS[workload]
    expected = reference(make_jobs, nodes, mpl, scheme)
    jobs = make_jobs()
    got = run_compiled(jobs, nodes, mpl, scheme)
    assert got.equals(expected), f"{scheme} on {workload}: differs in {differences(got, expected)}"
    # the Job objects are only read
    assert all(job.start == -1.0 and job.end == -1.0 and job.processes == [] for job in jobs)


@pytest.mark.parametrize("workload", ["wl4-heavy-s3", "mpl5", "npb-mg"])
@pytest.mark.parametrize("scheme", ["DCS", "PB", "PROC-S", "SB"])
def test_compiled_equals_reference_under_the_plain_ts_boost_rule(scheme, workload):
    """The schemes that boost while a process may spin, with boosts preempting only a lower level."""
    make_jobs, nodes, mpl = WORKLOADS[workload]
    kernel = Kernel(make_jobs(), nodes, mpl, make_scheme(scheme, boost_preempts_spinner=False))
    kernel.run()
    expected = kernel.outcome()
    got = run_compiled(make_jobs(), nodes, mpl, make_scheme(scheme, boost_preempts_spinner=False))
    assert got.equals(expected), f"{scheme} on {workload}: differs in {differences(got, expected)}"
    assert not got.equals(run_compiled(make_jobs(), nodes, mpl, scheme)), "the rule changed nothing"


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_the_boost_rule_changes_exactly_the_schemes_said_to_boost_a_spinner(scheme):
    make_jobs, nodes, mpl = WORKLOADS["wl4-heavy-s3"]
    plain = run_compiled(make_jobs(), nodes, mpl, make_scheme(scheme, boost_preempts_spinner=False))
    default = run_compiled(make_jobs(), nodes, mpl, make_scheme(scheme))
    assert plain.equals(default) is not boosts_a_spinner(scheme)


def test_max_events_fails_at_the_same_event_count_as_the_reference():
    make_jobs, nodes, mpl = WORKLOADS["wl1-heavy-s1"]
    events = reference(make_jobs, nodes, mpl, "SB").events
    assert run_compiled(make_jobs(), nodes, mpl, "SB", max_events=events).events == events
    for engine in (lambda limit: reference(make_jobs, nodes, mpl, "SB", limit),
                   lambda limit: run_compiled(make_jobs(), nodes, mpl, "SB", max_events=limit)):
        with pytest.raises(InvariantError, match=f"SB: more than {events - 1} events; runaway simulation"):
            engine(events - 1)
    with pytest.raises(InvariantError, match="more than 100 events"):
        run_compiled(make_jobs(), nodes, mpl, "PROC-S", max_events=100)


def test_a_job_wider_than_the_cluster_fails_as_in_the_reference():
    """The trio never fits on two nodes: the heap runs dry, or GS's timer runs on until max_events."""
    for scheme, limit, message in (("SB", None, "SB: event heap ran dry with jobs unfinished"),
                                   ("GS", 2000, "GS: more than 2000 events")):
        for engine in (lambda: reference(handmade, 2, 2, scheme, limit),
                       lambda: run_compiled(handmade(), 2, 2, scheme, max_events=limit)):
            with pytest.raises(InvariantError, match=message):
                engine()


def test_messages_further_ahead_than_the_ring_holds_fail_loudly(monkeypatch):
    """MG lets DCS ranks get seven iterations ahead; a ring of four pending iterations must refuse, not wrap."""
    make_jobs, nodes, mpl = WORKLOADS["npb-mg"]
    monkeypatch.setattr(compiled, "PENDING_DEPTH", 4)
    with pytest.raises(InvariantError, match="7 iterations ahead.*PENDING_DEPTH = 4"):
        run_compiled(make_jobs(), nodes, mpl, "DCS")


def test_unknown_scheme_and_too_large_mpl_are_refused():
    with pytest.raises(ValueError, match="unknown scheme"):
        run_compiled(handmade(), 3, 2, "FIFO")
    with pytest.raises(ValueError, match="MPL"):
        run_compiled(handmade(), 3, compiled.MAX_MPL + 1, "SB")
