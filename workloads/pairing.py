"""Pairing the jobs of two workloads for coscheduling (spec 000, after the Argonne paper).

Two jobs, one on machine A and one on machine B, form a pair when they must start
together.  Real logs do not say which jobs belong together, so pairs are made up in
one of two ways, as in the paper:

Window mode (:func:`pair_by_window`)
    A job of A and a job of B may pair when their submit times differ by at most
    ``window_seconds`` (default 120 s).  Pairs are one-to-one and chosen greedily,
    nearest first: of all candidate pairs, the one with the smallest submit-time
    difference is taken, its two jobs leave the pool, and so on.  Ties go to the job
    of A that comes first in submit order (then table order), then likewise on B.

Ratio mode (:func:`pair_by_ratio`)
    To pair a fixed share of jobs: both workloads are sorted by submit time (stable)
    and the k-th, 2k-th, 3k-th ... job of A is paired with the job of the same rank in
    B, ``k = round(1 / ratio)`` (halves round up); so ratios 2.5, 5, 10, 20, 33 % give k = 40, 20, 10, 5,
    3.  Ranks that do not exist in the smaller workload give no pair: when ``k``
    exceeds it, there is none at all.  The paper uses B workloads with the same job
    count and span as A, where this pairs close to ``ratio`` of each side.

Ratio within the window (:func:`pair_by_ratio_within_window`)
    A fixed share of jobs, for workloads whose arrivals are independent (a B drawn at
    its own model's pace): as many pairs as ratio mode would make, spread evenly by
    submit-order rank over the jobs of A that have a job of B within the window; each
    of them, in submit order, takes the nearest job of B within the window not yet
    taken (the earlier one on a tie), or none if every one is taken.

Either way the result lists the pairs (job ids, submit times, B's submit minus A's) and
the share of each workload's jobs that got a mate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from schedlab.errors import SchedlabError

DEFAULT_WINDOW_SECONDS = 120.0
PAIR_COLUMNS = ("job_id_a", "job_id_b", "submit_time_a", "submit_time_b", "submit_gap")


@dataclass(frozen=True)
class Pairing:
    pairs: pd.DataFrame  # PAIR_COLUMNS, one row per pair, in order of A's submit time
    jobs_a: int
    jobs_b: int

    @property
    def paired_share_a(self) -> float:
        return len(self.pairs) / self.jobs_a if self.jobs_a else 0.0

    @property
    def paired_share_b(self) -> float:
        return len(self.pairs) / self.jobs_b if self.jobs_b else 0.0

    def summary(self) -> dict:
        return {
            "pairs": len(self.pairs),
            "jobs_a": self.jobs_a,
            "jobs_b": self.jobs_b,
            "paired_share_a": self.paired_share_a,
            "paired_share_b": self.paired_share_b,
        }


def _in_submit_order(jobs: pd.DataFrame) -> pd.DataFrame:
    return jobs[["job_id", "submit_time"]].sort_values("submit_time", kind="stable").reset_index(drop=True)


def _pairing(a: pd.DataFrame, b: pd.DataFrame, rank_a: np.ndarray, rank_b: np.ndarray) -> Pairing:
    """Pairs of the jobs at ranks ``rank_a`` of ``a`` and ``rank_b`` of ``b`` (both in submit order)."""
    order = np.argsort(rank_a, kind="stable")
    rank_a, rank_b = rank_a[order], rank_b[order]
    submit_a = a["submit_time"].to_numpy()[rank_a]
    submit_b = b["submit_time"].to_numpy()[rank_b]
    pairs = pd.DataFrame(
        {
            "job_id_a": a["job_id"].to_numpy()[rank_a],
            "job_id_b": b["job_id"].to_numpy()[rank_b],
            "submit_time_a": submit_a,
            "submit_time_b": submit_b,
            "submit_gap": submit_b - submit_a,
        }
    )
    return Pairing(pairs, len(a), len(b))


def pair_by_window(jobs_a: pd.DataFrame, jobs_b: pd.DataFrame, window_seconds: float = DEFAULT_WINDOW_SECONDS) -> Pairing:
    """One-to-one pairs of jobs submitted at most ``window_seconds`` apart, nearest first."""
    _check_window(window_seconds)
    a, b = _in_submit_order(jobs_a), _in_submit_order(jobs_b)
    submit_a, submit_b = a["submit_time"].to_numpy(float), b["submit_time"].to_numpy(float)
    first, last = _window_bounds(submit_a, submit_b, window_seconds)
    counts = last - first
    candidate_a = np.repeat(np.arange(len(a)), counts)
    candidate_b = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(first, counts)
    distance = np.abs(submit_b[candidate_b] - submit_a[candidate_a])
    used_a = np.zeros(len(a), dtype=bool)
    used_b = np.zeros(len(b), dtype=bool)
    chosen_a, chosen_b = [], []
    for index in np.lexsort((candidate_b, candidate_a, distance)):
        job_a, job_b = candidate_a[index], candidate_b[index]
        if not used_a[job_a] and not used_b[job_b]:
            used_a[job_a] = used_b[job_b] = True
            chosen_a.append(job_a)
            chosen_b.append(job_b)
    return _pairing(a, b, np.array(chosen_a, dtype=np.int64), np.array(chosen_b, dtype=np.int64))


def _ratio_ranks(ratio: float, count: int) -> np.ndarray:
    """Ranks k - 1, 2k - 1, ... below ``count``, k = round(1/ratio) (halves up)."""
    if not (np.isfinite(ratio) and 0 < ratio <= 1):
        raise SchedlabError(f"the pairing ratio must lie in (0, 1], got {ratio}")
    k = int(np.floor(1 / ratio + 0.5))
    return np.arange(k - 1, count, k)


def _check_window(window_seconds: float) -> None:
    if not (np.isfinite(window_seconds) and window_seconds >= 0):
        raise SchedlabError(f"the pairing window must be >= 0 seconds, got {window_seconds}")


def _window_bounds(submit_a: np.ndarray, submit_b: np.ndarray, window_seconds: float) -> tuple[np.ndarray, np.ndarray]:
    """For each job of A, the first and one-past-last rank of B's jobs submitted within the window."""
    return (np.searchsorted(submit_b, submit_a - window_seconds, side="left"),
            np.searchsorted(submit_b, submit_a + window_seconds, side="right"))


def pair_by_ratio(jobs_a: pd.DataFrame, jobs_b: pd.DataFrame, ratio: float) -> Pairing:
    """Pair every k-th job (k = round(1/ratio)) of A and B by submit-order rank."""
    a, b = _in_submit_order(jobs_a), _in_submit_order(jobs_b)
    ranks = _ratio_ranks(ratio, min(len(a), len(b)))
    return _pairing(a, b, ranks, ranks)


def pair_by_ratio_within_window(jobs_a: pd.DataFrame, jobs_b: pd.DataFrame, ratio: float,
                                window_seconds: float = DEFAULT_WINDOW_SECONDS) -> Pairing:
    """Ratio mode's number of pairs, each job of A taking the nearest free job of B within the window."""
    _check_window(window_seconds)
    a, b = _in_submit_order(jobs_a), _in_submit_order(jobs_b)
    submit_a, submit_b = a["submit_time"].to_numpy(float), b["submit_time"].to_numpy(float)
    first, last = _window_bounds(submit_a, submit_b, window_seconds)
    candidates = np.flatnonzero(last > first)
    count = min(len(_ratio_ranks(ratio, min(len(a), len(b)))), len(candidates))
    spread = ((np.arange(count) + 0.5) * len(candidates) / count).astype(np.int64) if count else np.zeros(0, np.int64)
    taken = np.zeros(len(b), dtype=bool)
    chosen_a, chosen_b = [], []
    for job_a in candidates[spread]:
        options = np.arange(first[job_a], last[job_a])
        options = options[~taken[options]]
        if options.size:
            job_b = options[np.argmin(np.abs(submit_b[options] - submit_a[job_a]))]
            taken[job_b] = True
            chosen_a.append(job_a)
            chosen_b.append(job_b)
    return _pairing(a, b, np.array(chosen_a, dtype=np.int64), np.array(chosen_b, dtype=np.int64))
