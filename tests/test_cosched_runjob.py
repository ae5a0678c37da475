"""RunJob (paper Algorithm 1) on hand-built two-machine examples; times worked out by hand.

Both machines have 10 processors unless said otherwise; jobs are (submit, procs,
requested time, run time); pairs name job ids (A's, B's).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.cosched import CoschedSettings, cosimulate
from schedlab.simulators.cosched.invariants import check_machine, check_pairs
from schedlab.simulators.core.jobs import BatchJobs
from tests.conftest import make_jobs, random_jobs


def pairs(*ids):
    return pd.DataFrame({"job_id_a": [a for a, _ in ids], "job_id_b": [b for _, b in ids]})


def starts(result, machine):
    return result.schedules[machine].set_index("job_id")["start"].to_dict()


def test_hold_waits_for_the_mate_then_both_start_together():
    jobs_a = make_jobs([(0, 4, 100, 100)])
    jobs_b = make_jobs([(50, 4, 100, 100)])
    result = cosimulate(jobs_a, 10, jobs_b, 10, pairs((1, 1)), CoschedSettings(("hold", "yield")))
    assert starts(result, "A") == {1: 50.0} and starts(result, "B") == {1: 50.0}
    a = result.metrics["A"]
    assert a["holds"] == 1 and a["su_loss_hours"] == pytest.approx(4 * 50 / 3600)
    assert a["mean_sync"] == 50.0 and result.metrics["B"]["mean_sync"] == 0.0


def test_yield_gives_up_the_turn_and_the_mate_starts_it_through_try_start_mate():
    jobs_a = make_jobs([(0, 4, 100, 100)])
    jobs_b = make_jobs([(50, 4, 100, 100)])
    result = cosimulate(jobs_a, 10, jobs_b, 10, pairs((1, 1)), CoschedSettings(("yield", "yield")))
    assert starts(result, "A") == {1: 50.0} and starts(result, "B") == {1: 50.0}
    assert result.metrics["A"]["yields"] == 1 and result.metrics["A"]["su_loss_hours"] == 0


def paired_job_then_wide_job(schemes):
    """a1 (6 of 10 nodes) at 0 whose mate b1 comes at 100; x (6 nodes, unpaired) at 10."""
    jobs_a = make_jobs([(0, 6, 100, 100), (10, 6, 100, 100)])
    jobs_b = make_jobs([(100, 4, 100, 100)])
    return cosimulate(jobs_a, 10, jobs_b, 10, pairs((1, 1)), CoschedSettings(schemes))


def test_held_nodes_are_not_used_by_other_jobs():
    # a1 holds 6 of 10 from 0; x must wait until a1 and b1 have started together (100)
    # and a1 has ended (200).
    result = paired_job_then_wide_job(("hold", "hold"))
    assert starts(result, "A") == {1: 100.0, 2: 200.0}
    assert starts(result, "B") == {1: 100.0}


def test_yield_lets_others_run_and_the_remote_hold_starts_both_later():
    # a1 yields at 0; x starts at 10; b1 at 100 cannot get a1 started (x runs until 110),
    # so B holds b1; at 110 a1 is ready, finds b1 holding: both start at 110.
    result = paired_job_then_wide_job(("yield", "hold"))
    assert starts(result, "A") == {1: 110.0, 2: 10.0}
    assert starts(result, "B") == {1: 110.0}
    assert result.metrics["B"]["su_loss_hours"] == pytest.approx(4 * 10 / 3600)


def test_periodic_release_hands_held_nodes_to_a_waiting_job():
    # a1 holds 6 nodes from 0 for a mate submitted at 5000; x (6 nodes) waits; at the first
    # release (1200 s, a1 held >= 600 s) a1 goes last, x takes the nodes; a1 returns to the
    # queue; when x ends (2200) a1 holds again, is released and at once re-held at 3600 and
    # 4800 (nobody else wants the nodes), and starts with b1 when b1 arrives (5000).
    jobs_a = make_jobs([(0, 6, 1000, 1000), (10, 6, 1000, 1000)])
    jobs_b = make_jobs([(5000, 4, 100, 100)])
    result = cosimulate(jobs_a, 10, jobs_b, 10, pairs((1, 1)), CoschedSettings(("hold", "hold")))
    assert starts(result, "A") == {1: 5000.0, 2: 1200.0}
    assert result.metrics["A"]["releases"] == 3
    assert result.metrics["A"]["su_loss_hours"] == pytest.approx(6 * (1200 + 5000 - 2200) / 3600)


def test_held_share_cap_turns_a_hold_into_a_yield():
    jobs_a = make_jobs([(0, 6, 100, 100), (10, 6, 100, 100)])
    jobs_b = make_jobs([(100, 4, 100, 100)])
    capped = CoschedSettings(("hold", "hold"), max_held_share=0.5)  # 6 of 10 held would exceed it
    result = cosimulate(jobs_a, 10, jobs_b, 10, pairs((1, 1)), capped)
    assert result.metrics["A"]["holds"] == 0 and result.metrics["A"]["yields"] >= 1
    assert starts(result, "A")[2] == 10.0  # nothing held, x starts on arrival


def test_max_yields_lets_a_yield_machine_hold():
    jobs_a = make_jobs([(0, 4, 100, 100), (30, 1, 10, 10)])  # job 2 gives A a second pass at 30
    jobs_b = make_jobs([(50, 4, 100, 100)])
    result = cosimulate(jobs_a, 10, jobs_b, 10, pairs((1, 1)), CoschedSettings(("yield", "yield"), max_yields=1))
    assert result.metrics["A"]["yields"] == 1 and result.metrics["A"]["holds"] == 1
    assert starts(result, "A")[1] == 50.0 and result.metrics["A"]["su_loss_hours"] == pytest.approx(4 * 20 / 3600)


def test_baseline_ignores_pairs():
    jobs_a = make_jobs([(0, 4, 100, 100)])
    jobs_b = make_jobs([(50, 4, 100, 100)])
    result = cosimulate(jobs_a, 10, jobs_b, 10, pairs((1, 1)), None)
    assert starts(result, "A") == {1: 0.0} and starts(result, "B") == {1: 50.0}


@pytest.mark.parametrize("schemes", [("hold", "hold"), ("hold", "yield"), ("yield", "hold"), ("yield", "yield")])
def test_every_pair_starts_together_on_random_workloads(schemes):
    rng = np.random.default_rng(7)
    tables = [random_jobs(rng, 120, span=20_000, max_procs=10, runs=(1, 2_000), slack=500) for _ in range(2)]
    paired = pairs(*[(k, k) for k in range(1, 121, 3)])
    result = cosimulate(tables[0], 10, tables[1], 10, paired, CoschedSettings(schemes))
    assert not result.deadlock["deadlock"]
    a, b = starts(result, "A"), starts(result, "B")
    assert all(a[i] == b[j] for i, j in zip(paired.job_id_a, paired.job_id_b))
    assert all(not np.isnan(v) for v in (*a.values(), *b.values()))


def _batch(rows):
    submit, procs, actual = (np.array(c, dtype=float) for c in zip(*rows))
    return BatchJobs(np.arange(1, len(rows) + 1), submit, actual, actual, procs.astype(np.int64))


def test_invariant_catches_a_job_running_on_held_nodes():
    batch = _batch([(0, 6, 100), (0, 6, 100)])
    start = np.array([100.0, 0.0])
    holds = np.array([[0, 0.0, 100.0]])  # job 1 held 6 nodes over [0, 100) while job 2 ran on 6
    with pytest.raises(InvariantError, match="held processors"):
        check_machine("A", 10, batch, start, holds, deadlocked=False)


def test_invariant_catches_mates_starting_apart_and_unreported_stalls():
    with pytest.raises(InvariantError, match="did not start together"):
        check_pairs(np.array([5.0]), np.array([6.0]), np.array([0]), np.array([0]), (np.array([1]), np.array([1])))
    with pytest.raises(InvariantError, match="never started"):
        check_machine("A", 10, _batch([(0, 6, 100)]), np.array([np.nan]), np.zeros((0, 3)), deadlocked=False)


def test_progress_reports_jobs_ended_on_both_machines_up_to_all_of_them():
    jobs_a = make_jobs([(0, 4, 100, 100), (10, 6, 50, 50), (20, 10, 30, 30)])
    jobs_b = make_jobs([(50, 4, 100, 100), (60, 2, 10, 10)])
    reports = []
    cosimulate(jobs_a, 10, jobs_b, 10, pairs((1, 1)), CoschedSettings(("hold", "yield")),
               progress=lambda ended, jobs: reports.append((ended, jobs)))
    assert reports[-1] == (5, 5)
    assert all(jobs == 5 for _, jobs in reports)
