"""The fixed-point reading of COSY's W: the search on hand-made wq(W), and on real runs the
paper's identity measured n = wa / wq = policy n, which the running-mean reading misses."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from schedlab.simulators.cosy.experiments import run_point, select_workloads
from schedlab.simulators.cosy.fixed_point import FIXED_POINT_MAX_RUNS, FIXED_POINT_TOLERANCE, solve_fixed_point


def as_run(wq_of_w):
    """A stand-in for one simulation: only its mean queue wait matters to the search."""
    return lambda mean_wait: SimpleNamespace(metrics={"mean_queue_wait": wq_of_w(mean_wait)})


def test_a_contraction_converges_where_the_hand_iteration_does():
    # wq(W) = 100 + W / 2 has its fixed point at 200.  From 0 the iterates are 100, 150, 175,
    # 187.5, 193.75, 196.875: at the last |wq - W| = 1.5625 <= 1 % of W, on the 7th run.
    found = solve_fixed_point(as_run(lambda w: 100 + w / 2), 0.0)
    assert found.converged
    assert found.mean_wait == 196.875
    assert found.runs == 7


def test_a_jump_across_the_diagonal_is_bisected_and_reported_unconverged():
    # wq jumps from 300 to 100 at W = 200: no W within tolerance; the bracket closes on 200.
    found = solve_fixed_point(as_run(lambda w: 300.0 if w < 200 else 100.0), 0.0)
    assert not found.converged
    assert 199.0 < found.mean_wait < 201.0
    assert found.runs < FIXED_POINT_MAX_RUNS


def test_no_wait_is_its_own_fixed_point():
    found = solve_fixed_point(as_run(lambda w: 0.0), 0.0)
    assert found.converged and found.mean_wait == 0.0 and found.runs == 1


def test_the_start_must_be_a_wait():
    with pytest.raises(ValueError, match="finite start"):
        solve_fixed_point(as_run(lambda w: w), math.nan)


@pytest.fixture(scope="module")
def workloads():
    # Lublin-Feitelson workloads, on which the search converges at n = 1 and 3 for most seeds; on the
    # burst Cirne-Berman ones (cirne-berman-burst) 81-92 % of searches converged per share p (the report's readings table), too few
    # for three seeds to test the identity on.
    chosen, _ = select_workloads(3, 100, 32, workload="lublin-feitelson")
    return chosen


@pytest.mark.parametrize("factor", [1.0, 3.0])
def test_measured_n_equals_the_policy_n_at_the_fixed_point(workloads, factor):
    for workload in workloads:
        metrics = run_point(workload, 32, 0.10, "fixed", factor, "fixed-point")
        if metrics["fixed_point_converged"] != 1.0:
            continue  # a jump: reported as such, judged by the ledger's measured n
        # Every reservation waited n x W and W is the run's own wq, within the tolerance.
        assert abs(metrics["notice_wait"] - metrics["mean_queue_wait"]) <= FIXED_POINT_TOLERANCE * metrics["notice_wait"]
        assert metrics["measured_notice"] == pytest.approx(factor, rel=1.1 * FIXED_POINT_TOLERANCE)
    converged = [run_point(w, 32, 0.10, "fixed", factor, "fixed-point")["fixed_point_converged"] for w in workloads]
    assert sum(converged) >= 2


def test_the_running_mean_reading_lags_behind_the_policy_n(workloads):
    # W starts at 0 and trails the final wq, so reservations wait less than n x wq.
    measured = [run_point(w, 32, 0.10, "fixed", 3.0, "running-mean")["measured_notice"] for w in workloads]
    assert sum(measured) / len(measured) < 0.8 * 3.0


def test_only_the_fixed_policy_has_readings(workloads):
    from schedlab.errors import SchedlabError

    adaptive = run_point(workloads[0], 32, 0.10, "adaptive", None)
    assert math.isnan(adaptive["fixed_point_converged"]) and math.isnan(adaptive["notice_wait"])
    with pytest.raises(SchedlabError, match="unknown W reading"):
        run_point(workloads[0], 32, 0.10, "fixed", 1.0, "median")
