"""User runtime estimates from the model of Tsafrir, Etsion and Feitelson.

D. Tsafrir, Y. Etsion and D. G. Feitelson, "Modeling User Runtime Estimates", Job
Scheduling Strategies for Parallel Processing (JSSPP) 2005, LNCS 3834.  Real users pick
their estimates from a few round values, and the system's maximal estimate is the most
popular of them; the model turns a job count ``n`` and that maximum ``M`` into such a
histogram, then hands the estimates out so that no job runs longer than its estimate.
Restated (numbers from the paper and the authors' reference generator):

Number of distinct estimates
    ``K`` grows piecewise-linearly with ``n`` through (0, 0), (20, 10), (200, 20),
    (1,000, 35), (10,000, 90), (70,000, 340), (250,000, 565); constant beyond.

Head: the 20 most popular values (89 % of jobs)
    ``M`` itself; the round values seen in all four traces the paper studied (5, 10,
    15, 20, 30 min; 1, 2, 3, 4, 5, 6, 8, 10, 12, 18 h) below ``M``; then, to reach 20,
    multiples of 200 h, 100 h, 50 h, 10 h, 5 h, 2 h, 1 h, 20 min, 10 min, 5 min taken
    downwards from ``M`` (coarsest step first).  Popularity rank ``r`` = 2..20 holds
    ``14.0491 exp(-0.177531 r) + 0.462513`` percent of jobs; rank 1 (always ``M``) the
    rest of the 89 %.  Which time gets which rank is drawn at random, guided by the
    ranks each time-ordered position had in the four traces (``TIME_RANK_TO_POPULARITY``):
    a rank must be used by the last position at which any trace used it, and otherwise
    a position draws twice from the ranks its trace rows offer and keeps the more
    popular.
Tail: the other ``K - 20`` values (11 %)
    Times ``M (a - 1) x / (a - x)`` for ``x = i / (K - 20)``, ``a = 1 + 12.1039 K^-0.6026``,
    on whole minutes (moved by 30, 20 or 10 s when they collide with a value already
    taken); popularity ``795.6 r^-2.267`` for ranks ``r`` = 21.., scaled to 11 %; times
    and popularities are matched at random.

Assignment
    Jobs sorted by runtime, longest first, against the estimates sorted likewise: the
    ``j``-th job takes an estimate drawn uniformly among those from position ``j`` to the
    last one still at least its runtime, and the estimate it displaced moves to its
    position.  Every estimate is used once and none is below its job's runtime.

Where this differs from the reference generator (all choices of ours): no site-supplied
bins; with fewer than 20 head values (``M`` below about 5 h) only the ranks that exist
are mapped; percentages become job counts by largest remainders; when the runtimes need
more long estimates than the histogram has, ``M`` takes the fewest extra jobs that cover
them (the reference generator stops and asks for ``M``'s share); a runtime above ``M`` is
refused rather than truncated.
"""

from __future__ import annotations

import numpy as np

from schedlab.errors import SchedlabError

MODEL_NAME = "tsafrir-etsion-feitelson-2005"
CITATION = (
    "D. Tsafrir, Y. Etsion and D. G. Feitelson, Modeling User Runtime Estimates, "
    "JSSPP 2005, LNCS 3834, pp. 1-35"
)
MINUTE = 60
HOUR = 3600

HEAD_SIZE = 20
HEAD_SHARE = 89.0
HEAD_POPULARITY = (14.0491, -0.177531, 0.462513)  # percent = a exp(b rank) + c, ranks 2..20
TAIL_POPULARITY = (795.6, -2.267)  # percent = a rank^b, ranks 21.., then scaled to the tail's share
TAIL_TIME = (12.1039, -0.6026)  # a = 1 + p K^q
TAIL_OFFSETS = (0, 30, -30, 20, -20, 10, -10)
ESTIMATE_COUNT_POINTS = ((0, 0), (20, 10), (200, 20), (1_000, 35), (10_000, 90), (70_000, 340), (250_000, 565))
COMMON_VALUES = tuple(m * MINUTE for m in (5, 15, 10, 20, 30)) + tuple(h * HOUR for h in (1, 2, 3, 4, 5, 6, 8, 10, 12, 18))
ROUND_STEPS = tuple(h * HOUR for h in (200, 100, 50, 10, 5, 2, 1)) + tuple(m * MINUTE for m in (20, 10, 5))

TIME_RANK_TO_POPULARITY = (
    # one row per time-ordered head position (0 is M), one column per trace: SDSC, CTC, KTH, Blue Horizon
    (3, 1, 1, 1), (1, 3, 4, 6), (4, 4, 10, 5), (17, 2, 14, 3), (13, 12, 20, 7),
    (7, 9, 2, 2), (8, 8, 3, 18), (18, 18, 7, 19), (2, 6, 12, 4), (6, 7, 6, 11),
    (16, 11, 19, 20), (10, 20, 5, 9), (5, 16, 18, 10), (15, 5, 16, 14), (14, 14, 9, 13),
    (19, 13, 17, 16), (11, 10, 15, 15), (12, 15, 13, 17), (9, 17, 8, 8), (20, 19, 11, 12),
)


def estimate_count(n_jobs: int) -> int:
    """``K``: how many distinct estimates ``n_jobs`` jobs use."""
    xs, ys = zip(*ESTIMATE_COUNT_POINTS)
    return int(round(np.interp(n_jobs, xs, ys)))


def head_times(max_estimate: int) -> list[int]:
    """The head's values: ``max_estimate`` first, then the others in ascending order."""
    if max_estimate < HOUR:
        raise SchedlabError(f"the estimate model needs a maximal estimate of at least one hour, got {max_estimate} s")
    chosen = [max_estimate] + [t for t in COMMON_VALUES if t < max_estimate]
    for step in ROUND_STEPS:
        for value in range(max_estimate // step * step, 0, -step):
            if len(chosen) == HEAD_SIZE:
                break
            if value not in chosen:
                chosen.append(value)
    return [chosen[0], *sorted(chosen[1:])]


def head_popularity(count: int) -> np.ndarray:
    """Percent of jobs of popularity ranks 1..count (rank 1 takes what ranks 2..20 leave of the head's share)."""
    a, b, c = HEAD_POPULARITY
    others = a * np.exp(b * np.arange(2, count + 1)) + c
    return np.concatenate(([HEAD_SHARE - others.sum()], others))


def time_to_popularity_ranks(rng: np.random.Generator, count: int) -> list[int]:
    """For each head position (0 is M), its popularity rank in 1..count (see the module docstring)."""
    rows = [[r for r in row if r <= count] for row in TIME_RANK_TO_POPULARITY[:count]]
    last_use = {}
    for position, row in enumerate(rows):
        for rank in row:
            last_use[rank] = position
    chosen: list[int] = []
    offered: list[int] = []
    for position, row in enumerate(rows):
        offered += [r for r in row if r not in chosen]
        if position == 0:
            rank = 1
        else:
            due = [r for r in range(1, count + 1) if r not in chosen and last_use.get(r, count) <= position]
            if due:
                rank = min(due)
            else:
                pool = [r for r in offered if r not in chosen] or [r for r in range(1, count + 1) if r not in chosen]
                rank = min(pool[int(rng.integers(len(pool)))] for _ in range(2))
        chosen.append(rank)
    return chosen


def tail_times(max_estimate: int, count: int, total: int, taken: set[int]) -> list[int]:
    """``count`` tail values below ``max_estimate`` for ``total`` distinct estimates, none in ``taken``."""
    p, q = TAIL_TIME
    a = 1.0 + p * total**q
    times = []
    for i in range(1, count + 1):
        x = i / count
        minute = int(round(max_estimate * (a - 1) * x / (a - x) / MINUTE)) * MINUTE
        for offset in TAIL_OFFSETS:
            value = minute + offset
            if 0 < value < max_estimate and value not in taken:
                taken.add(value)
                times.append(value)
                break
    return times


def estimate_shares(rng: np.random.Generator, n_jobs: int, max_estimate: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct estimates (seconds, ascending; the last is ``max_estimate``) and the share of jobs of each."""
    head = head_times(max_estimate)
    popularity = head_popularity(len(head))
    ranks = time_to_popularity_ranks(rng, len(head))
    values = {time: popularity[rank - 1] for time, rank in zip(head, ranks)}
    total = estimate_count(n_jobs)
    tail = tail_times(max_estimate, max(total - len(head), 0), total, set(head))
    if tail:
        a, b = TAIL_POPULARITY
        shares = a * np.arange(HEAD_SIZE + 1, HEAD_SIZE + 1 + len(tail), dtype=float) ** b
        shares *= (100.0 - HEAD_SHARE) / shares.sum()
        values.update(zip(rng.permutation(tail).tolist(), rng.permutation(shares).tolist()))
    times = np.array(sorted(values), dtype=np.int64)
    percent = np.array([values[t] for t in times])
    return times, percent / percent.sum()


def estimate_histogram(rng: np.random.Generator, n_jobs: int, max_estimate: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct estimates (seconds, ascending) and how many of ``n_jobs`` jobs use each."""
    times, shares = estimate_shares(rng, n_jobs, max_estimate)
    return times, _apportion(shares, n_jobs)


def _apportion(shares: np.ndarray, n: int) -> np.ndarray:
    """Whole counts summing to ``n`` in proportion to ``shares`` (largest remainders)."""
    exact = shares * n
    counts = np.floor(exact).astype(np.int64)
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[: n - counts.sum()]] += 1
    return counts


def _with_maximum_count(shares: np.ndarray, n: int, maximum_count: int) -> np.ndarray:
    """Counts in which the maximal estimate (the last value) has ``maximum_count`` jobs, the rest in proportion."""
    counts = np.zeros(shares.size, dtype=np.int64)
    counts[:-1] = _apportion(shares[:-1] / shares[:-1].sum(), n - maximum_count)
    counts[-1] = maximum_count
    return counts


def _covers(times: np.ndarray, counts: np.ndarray, runtimes_longest_first: np.ndarray) -> bool:
    """Whether the k-th longest estimate is at least the k-th longest runtime for every k."""
    return bool(np.all(np.repeat(times, counts)[::-1] >= runtimes_longest_first))


def tsafrir_estimates(rng: np.random.Generator, runtimes: np.ndarray, max_estimate: int) -> np.ndarray:
    """One estimate (seconds) per runtime, never below it and never above ``max_estimate``.

    When the histogram has too few long estimates for the runtimes (the reference
    generator stops there and asks for the maximum's share), the maximum takes the
    smallest number of jobs that covers every runtime, the other values sharing the rest
    in their proportions.
    """
    runtimes = np.asarray(runtimes, dtype=float)
    if runtimes.size == 0:
        return runtimes.copy()
    if runtimes.max() > max_estimate:
        raise SchedlabError(
            f"a runtime of {runtimes.max():.0f} s exceeds the maximal estimate {max_estimate} s of the estimate model"
        )
    n = runtimes.size
    times, shares = estimate_shares(rng, n, max_estimate)
    order = np.argsort(-runtimes, kind="stable")
    sorted_runtimes = runtimes[order]
    counts = _apportion(shares, n)
    if not _covers(times, counts, sorted_runtimes):
        low, high = int(counts[-1]), n  # every job at the maximum always covers
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (low, middle) if _covers(times, _with_maximum_count(shares, n, middle), sorted_runtimes) else (middle, high)
        counts = _with_maximum_count(shares, n, high)
    estimates = np.repeat(times, counts)[::-1].astype(float)  # longest first
    # Job j (longest first) may take any estimate from position j up to the last one still >= its runtime.
    assigned = np.empty(n)
    last = 0
    for j, runtime in enumerate(sorted_runtimes):
        last = max(last, j)
        while last + 1 < n and estimates[last + 1] >= runtime:
            last += 1
        k = j + int(rng.integers(last - j + 1))
        assigned[order[j]] = estimates[k]
        estimates[k] = estimates[j]
    return assigned


EXACT_DESCRIPTION = "exact estimates (requested time = run time for every job)"


def requested_time_source(requested: np.ndarray, runtimes: np.ndarray, declared: str) -> str:
    """How a workload's requested times came about, for its description: ``declared``, unless
    every job's request equals its run time, which is said as exact estimates whatever the source."""
    requested, runtimes = np.asarray(requested), np.asarray(runtimes)
    if requested.size and np.array_equal(requested, runtimes):
        return EXACT_DESCRIPTION
    return declared
