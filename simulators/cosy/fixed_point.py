"""The notice rule's W read as a fixed point of the run (Cao and Zimmermann, IPDPS 2004, 4.3).

Two readings of ``W`` in "accept only if start - now >= n x W":

``running-mean``
    W is the mean wait of the queue jobs started so far, recomputed at every request: the
    paper's "statistics ... feedback to COSY for the runtime configuration of the notice
    time constraint" that "adapt[s] to the workload of queued jobs in real time".
``fixed-point``
    W is one constant per run, equal to that same run's final mean queue wait ``wq``.  The
    paper reports its n as "the ratio of mean wait time of advance reservations (wa) to
    that of queue jobs (wq) after experiments, because all advance reservations are
    configured with an exact start time that just meets the notice time constraint", and
    says n was "refined using statistical results": that identity holds only when W is
    the run's own ``wq``.  Every reservation then asks for ``submit + n x W``, waits
    exactly ``n x W``, and measured ``wa / wq = n x W / wq = n`` at the fixed point.

``solve_fixed_point`` finds W by iterating ``W <- wq(W)`` from the baseline's mean queue
wait.  ``wq(W)`` is a step function of W (schedules change at discrete W), so an exact
fixed point need not exist: once the iterates have crossed it (``wq(W) - W`` seen with
both signs), the search bisects between the last W of each sign instead.  It stops when
``|wq(W) - W| <= tolerance x W`` (``converged``), or when the bracket has shrunk to a jump
of ``wq(W)`` across W, or after ``max_runs`` runs; the last two keep the run of smallest
relative gap and say ``converged=False``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from schedlab.simulators.cosy.run import CosyResult

RUNNING_MEAN, FIXED_POINT = "running-mean", "fixed-point"
WAIT_READINGS = (RUNNING_MEAN, FIXED_POINT)
READING_DESCRIPTIONS = {
    RUNNING_MEAN: "W = mean wait of the queue jobs started so far, recomputed at every request",
    FIXED_POINT: "W = the run's own final mean queue wait wq (one constant per run, found by iteration), so that "
                 "measured wa / wq equals the policy n",
}
FIXED_POINT_TOLERANCE = 0.01
"""Relative: measured n = wa / wq then lies within 1 % of the policy n."""
FIXED_POINT_MAX_RUNS = 40
JUMP_WIDTH = 1e-3
"""Relative: a bisection bracket this narrow with both signs still in it is a jump of wq(W)."""
NO_WAIT = 1.0
"""Seconds: a mean queue wait this short counts as no wait (W = 0 is then its own fixed point)."""


@dataclass(frozen=True)
class FixedPoint:
    mean_wait: float  # the W the kept run used
    runs: int  # simulations the search made
    converged: bool
    result: CosyResult


def relative_gap(mean_wait: float, result: CosyResult) -> float:
    """|wq(W) - W| / W; 0 when both are (near) zero."""
    wq = result.metrics["mean_queue_wait"]
    if math.isnan(wq):
        return math.inf
    if mean_wait < NO_WAIT:
        return 0.0 if wq < NO_WAIT else math.inf
    return abs(wq - mean_wait) / mean_wait


def solve_fixed_point(
    run: Callable[[float], CosyResult], start: float, tolerance: float = FIXED_POINT_TOLERANCE,
    max_runs: int = FIXED_POINT_MAX_RUNS,
) -> FixedPoint:
    """The W (seconds) at which ``run(W)``'s mean queue wait equals W, searched from ``start``."""
    if not (start >= 0 and math.isfinite(start)):
        raise ValueError(f"the fixed-point search needs a finite start W >= 0, got {start}")
    wq_above = wq_below = None  # the last W with wq(W) > W, and with wq(W) < W
    best = None
    mean_wait = start
    for runs in range(1, max_runs + 1):
        result = run(mean_wait)
        gap = relative_gap(mean_wait, result)
        if best is None or gap < best[0]:
            best = (gap, mean_wait, result)
        wq = result.metrics["mean_queue_wait"]
        if gap <= tolerance or math.isnan(wq):
            return FixedPoint(mean_wait, runs, gap <= tolerance, result)
        if wq > mean_wait:
            wq_above = mean_wait
        else:
            wq_below = mean_wait
        crossed = wq_above is not None and wq_below is not None
        if crossed and abs(wq_above - wq_below) <= JUMP_WIDTH * mean_wait:
            break  # wq(W) jumps across W here: no W within the tolerance
        mean_wait = (wq_above + wq_below) / 2 if crossed else wq
    gap, mean_wait, result = best
    return FixedPoint(mean_wait, runs, False, result)
