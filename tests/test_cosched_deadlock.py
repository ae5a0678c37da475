"""The paper's Fig. 2 deadlock, built by hand, and its resolution by the periodic release.

Machines A and B have 10 nodes.  a1 (A) and b2 (B), both 6 nodes, arrive at 0 with
mates not yet submitted, so under hold-hold both hold.  Their mates a2 (A's job 2,
mate b2) and b1 (B's job 2, mate a1) arrive at 10 needing 6 nodes: 4 are free on each
side, so they queue.  Circular wait: nothing can ever start.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from schedlab.simulators.cosched import CoschedSettings, cosimulate
from tests.conftest import make_jobs, random_jobs

HOUR = 3600


def fig2_run(release_period):
    jobs_a = make_jobs([(0, 6, HOUR, HOUR), (10, 6, HOUR, HOUR)])  # a1, a2
    jobs_b = make_jobs([(0, 6, HOUR, HOUR), (10, 6, HOUR, HOUR)])  # b2, b1
    pairs = pd.DataFrame({"job_id_a": [1, 2], "job_id_b": [2, 1]})
    return cosimulate(jobs_a, 10, jobs_b, 10, pairs, CoschedSettings(("hold", "hold"), release_period=release_period))


def test_without_release_hold_hold_deadlocks_and_says_so():
    result = fig2_run(None)
    assert result.deadlock["deadlock"]
    assert result.deadlock["kind"] == "circular wait"
    assert result.deadlock["time"] == 10  # detected at the pass where the mates arrive
    assert sorted(result.deadlock["stuck"]) == [["A", 1], ["B", 1]]  # a1 and b2 hold forever
    assert result.deadlock["unstarted"] == {"A": 2, "B": 2}


def test_release_resolves_it_as_the_paper_describes():
    # At 1200 s a1 releases (held >= 600 s) and goes last: a2 takes the nodes, finds its
    # mate b2 holding, both start.  When they end (1200 + 3600) a1 is ready again and the
    # extra pass on B starts b1 with it.
    result = fig2_run(1200.0)
    assert not result.deadlock["deadlock"]
    a = result.schedules["A"].set_index("job_id")["start"].to_dict()
    b = result.schedules["B"].set_index("job_id")["start"].to_dict()
    assert a == {1: 4800.0, 2: 1200.0}
    assert b == {1: 1200.0, 2: 4800.0}
    assert result.metrics["A"]["releases"] == 1


def test_fig2_is_resolved_only_when_a_job_yields_while_the_remote_machine_is_mid_pass():
    """The paper's IV-E1 walk-through needs the mid-pass yield: with the local scheme deciding
    instead, b1 (ahead of the released b2 in B's pass) holds b2's nodes, a2 holds in turn,
    and the circle closes again at every release."""
    jobs_a = make_jobs([(0, 6, HOUR, HOUR), (10, 6, HOUR, HOUR)])
    jobs_b = make_jobs([(0, 6, HOUR, HOUR), (10, 6, HOUR, HOUR)])
    pairs = pd.DataFrame({"job_id_a": [1, 2], "job_id_b": [2, 1]})
    strict = CoschedSettings(("hold", "hold"), release_period=1200.0, yield_when_remote_busy=False)
    result = cosimulate(jobs_a, 10, jobs_b, 10, pairs, strict)
    assert result.deadlock["deadlock"] and result.deadlock["unstarted"] == {"A": 2, "B": 2}
    assert result.deadlock["kind"] == "livelock"  # the release is on: not the circular wait of a run without it
    assert result.metrics["B"]["yields"] == 0  # nobody ever gave way
    assert result.metrics["A"]["releases"] >= 2  # the release went round without effect
    assert not fig2_run(1200.0).deadlock["deadlock"]


def test_mid_pass_option_trades_yields_for_holds():
    """On a hold machine, only the mid-pass rule ever makes a job yield: off, the local
    scheme decides and the machine never yields; on, it does, and every run completes."""
    rng = np.random.default_rng(11)
    tables = [random_jobs(rng, 150, span=30_000, max_procs=8, runs=(60, 3_000), slack=600) for _ in range(2)]
    paired = pd.DataFrame({"job_id_a": np.arange(1, 151, 2), "job_id_b": np.arange(1, 151, 2)})
    counts = {}
    for option in (True, False):
        settings = CoschedSettings(("hold", "yield"), yield_when_remote_busy=option)
        result = cosimulate(tables[0], 10, tables[1], 10, paired, settings)
        assert not result.deadlock["deadlock"]
        counts[option] = (result.metrics["A"]["holds"], result.metrics["A"]["yields"])
    (holds_on, yields_on), (holds_off, yields_off) = counts[True], counts[False]
    assert yields_on > 0 and yields_off == 0
    assert holds_on > 0 and holds_off > 0


def test_a_stall_without_release_is_dated_at_the_last_start_not_at_the_first_stuck_arrival():
    """A1 (7 of 10 nodes) holds from 14 for B2 (8 nodes); on B, B4 holds 5 nodes from 128 for
    A3, which never finds 3 free nodes beside A1's hold and A4.  B2 can then never fit; the
    last job to start anywhere is A6 at 193, after which both queues only wait."""
    jobs_a = make_jobs([(14, 7, 224, 193), (89, 8, 181, 180), (126, 3, 257, 251), (131, 2, 281, 252),
                        (134, 6, 297, 249), (193, 1, 127, 82)])
    jobs_b = make_jobs([(19, 6, 184, 154), (79, 8, 258, 255), (90, 5, 280, 270), (128, 5, 88, 53),
                        (146, 7, 116, 93), (166, 6, 247, 215)])
    pairs = pd.DataFrame({"job_id_a": [1, 3, 5], "job_id_b": [2, 4, 6]})
    result = cosimulate(jobs_a, 10, jobs_b, 10, pairs, CoschedSettings(("hold", "hold"), release_period=None))
    verdict = result.deadlock
    assert verdict["deadlock"] and verdict["kind"] == "stall"
    assert verdict["last_start"] == {"A": 193.0, "B": 19.0}
    assert verdict["time"] == 193.0  # not 14, the arrival of the first job that never started
    assert verdict["unstarted"] == {"A": 4, "B": 5}
