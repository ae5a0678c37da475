"""User-based workload resampling: many statistically similar workloads from one trace.

One log gives one replay, so a comparison of policies on it has no interval.  Zakay and
Feitelson ("Workload resampling for performance evaluation of parallel job schedulers",
ICPE 2013; CCPE 2014) make many logs out of one by resampling its users, keeping what a
user does within a week intact.  Per resample, over the log's weeks (7 days from the Monday
00:00, in the log's time zone, before its first submission):

* **Long-term users** -- active over at least ``long_term_share`` of the log's weeks, first
  to last submission -- stay, at their place in the log: the weeks from their first to their
  last are shuffled (a seeded permutation), each week's jobs moved whole to its new week at
  the same time of week.  Each keeps exactly its jobs.
* **Temporary users** -- the others -- are drawn anew: each week of the resample starts as
  many temporary users as the log started on average per week (a Poisson number), each a
  random temporary user of the log (with replacement) whose whole activity is copied from
  that week on, at the same times of week, cut at the resample's end.
* **Load.** Temporary users are then added (at random weeks) or removed (random ones of
  those drawn) one at a time until the resample's offered load over its whole weeks (work over
  the machine's capacity for that many weeks, ``weekly_load``) is within ``load_tolerance`` of
  the target, by default the log's own over its weeks.  Over whole weeks, not from the first to
  the last submission: shuffling a long-term user's weeks can move its first or last job and
  stretch the span, which would otherwise read as a lower load and draw in users to fill it.

Every job keeps its time of week, so the daily and weekly cycles are the log's; sizes, run
and requested times are the log's jobs'.  Jobs are renumbered 1, 2, ... in submit order, and
each resampled user gets its own id (a temporary user drawn twice is two users).  The same
trace, parameters and seed give the same resample.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from schedlab.errors import SchedlabError
from schedlab.workloads.cycle import SECONDS_PER_WEEK
from schedlab.workloads.sessions import check_users

DEFAULT_LONG_TERM_SHARE = 0.5
DEFAULT_LOAD_TOLERANCE = 0.02
MAX_LOAD_STEPS = 100_000


@dataclass(frozen=True)
class UserActivity:
    """A log's users by week: each job's week index and time of week, and the users' classes."""

    jobs: pd.DataFrame  # the log's jobs, in the log's order
    week: np.ndarray  # each job's week index
    week_offset: np.ndarray  # each job's seconds into its week
    work: np.ndarray  # each job's processor-seconds
    rows_of: dict  # user id -> the user's rows, in the log's order
    weeks: int
    long_term: np.ndarray  # user ids
    temporary: np.ndarray  # user ids
    new_temporary_per_week: float


def user_activity(jobs: pd.DataFrame, week_seconds: np.ndarray | None = None,
                  long_term_share: float = DEFAULT_LONG_TERM_SHARE, source: str = "trace") -> UserActivity:
    """Classify the log's users; ``week_seconds`` is each job's time since the Monday 00:00 before the first
    submission (``schedlab.workloads.fitting.local_week_seconds``), the trace's own clock when None."""
    check_users(jobs, source)
    if not 0 < long_term_share <= 1:
        raise SchedlabError(f"the long-term share must lie in (0, 1], got {long_term_share}")
    jobs = jobs.reset_index(drop=True)
    submits = jobs["submit_time"].to_numpy(dtype=float)
    clock = submits - submits.min() if week_seconds is None else np.asarray(week_seconds, dtype=float)
    week = (clock // SECONDS_PER_WEEK).astype(np.int64)
    work = np.clip(jobs["allocated_procs"].to_numpy(dtype=float), 0, None) * np.clip(
        jobs["run_time"].to_numpy(dtype=float), 0, None)
    users = jobs["user_id"].to_numpy()
    order = np.argsort(users, kind="stable")
    bounds = np.flatnonzero(np.r_[True, users[order][1:] != users[order][:-1], True])
    rows_of = {users[order[a]]: order[a:b] for a, b in zip(bounds[:-1], bounds[1:])}
    weeks = int(week.max()) + 1
    active = {user: week[rows].max() - week[rows].min() + 1 for user, rows in rows_of.items()}
    long_term = np.array(sorted(u for u, n in active.items() if n >= long_term_share * weeks))
    temporary = np.array(sorted(u for u, n in active.items() if n < long_term_share * weeks))
    return UserActivity(jobs, week, clock - week * SECONDS_PER_WEEK, work, rows_of, weeks, long_term, temporary,
                        len(temporary) / weeks)


@dataclass
class _Part:
    """Some of the log's rows placed in the resample's weeks (those before its end), with their work."""

    rows: np.ndarray
    weeks: np.ndarray
    work: float

    @classmethod
    def of(cls, activity: UserActivity, rows: np.ndarray, new_weeks: np.ndarray, weeks: int) -> _Part:
        inside = new_weeks < weeks
        rows, new_weeks = rows[inside], new_weeks[inside]
        return cls(rows, new_weeks, float(activity.work[rows].sum()))


def _long_term_parts(activity: UserActivity, rng: np.random.Generator, weeks: int) -> list[_Part]:
    """Each long-term user's jobs, its weeks from its first to its last shuffled; in a longer resample its
    last active week moves out by the added weeks, filled with weeks drawn from its own."""
    parts = []
    for user in activity.long_term:
        rows = activity.rows_of[user]
        own_weeks = activity.week[rows]
        first, last = int(own_weeks.min()), int(own_weeks.max())
        sources = first + rng.permutation(last - first + 1)
        extra = max(weeks - activity.weeks, 0)
        if extra:
            sources = np.concatenate([sources, rng.choice(sources, extra)])
        placed_rows, placed_weeks = [], []
        for new_week, source in enumerate(sources.tolist(), start=first):
            chosen = rows[own_weeks == source]
            placed_rows.append(chosen)
            placed_weeks.append(np.full(len(chosen), new_week))
        parts.append(_Part.of(activity, np.concatenate(placed_rows), np.concatenate(placed_weeks), weeks))
    return parts


def _temporary_part(activity: UserActivity, user, start_week: int, weeks: int) -> _Part:
    """A temporary user's whole activity, its first week moved to ``start_week``."""
    rows = activity.rows_of[user]
    own_weeks = activity.week[rows]
    return _Part.of(activity, rows, own_weeks - own_weeks.min() + start_week, weeks)


def weekly_load(work: float, machine_procs: int, weeks: int) -> float:
    """Offered load over whole weeks: work over the capacity of ``weeks`` weeks of the machine."""
    return work / (machine_procs * weeks * SECONDS_PER_WEEK)


def resample(activity: UserActivity, machine_procs: int, seed: int, weeks: int | None = None,
             target_load: float | None = None, load_tolerance: float = DEFAULT_LOAD_TOLERANCE) -> pd.DataFrame:
    """One resampled workload of ``weeks`` weeks (the log's by default) as a canonical job table in submit
    order, offering ``target_load`` over its whole weeks (the log's by default) within ``load_tolerance``; see
    the module docstring.
    Its submit times count from the Monday 00:00 that starts week 0, so each is the log's time of week."""
    weeks = weeks or activity.weeks
    if not len(activity.temporary):
        raise SchedlabError("the log has no temporary users to resample (every user is long-term)")
    rng = np.random.default_rng([seed, 2013])
    target = (weekly_load(float(activity.work.sum()), machine_procs, activity.weeks) if target_load is None
              else target_load)
    fixed = _long_term_parts(activity, rng, weeks)

    def temporary(week: int) -> _Part:
        return _temporary_part(activity, rng.choice(activity.temporary), week, weeks)

    drawn = [temporary(week) for week in range(weeks) for _ in range(rng.poisson(activity.new_temporary_per_week))]
    low, high = target * (1 - load_tolerance), target * (1 + load_tolerance)
    for _ in range(MAX_LOAD_STEPS):
        load = weekly_load(sum(part.work for part in fixed + drawn), machine_procs, weeks)
        if low <= load <= high:
            break
        if load < low:
            drawn.append(temporary(int(rng.integers(weeks))))
        elif drawn:
            drawn.pop(int(rng.integers(len(drawn))))
        else:
            raise SchedlabError(f"the long-term users alone offer load {load:.3f}, above the target {target:.3f}")
    else:
        raise SchedlabError(f"no resample within {100 * load_tolerance:g} % of load {target:.3f} after "
                            f"{MAX_LOAD_STEPS} steps")
    parts = fixed + drawn
    rows = np.concatenate([part.rows for part in parts])
    new_weeks = np.concatenate([part.weeks for part in parts])
    users = np.repeat(np.arange(1, len(parts) + 1), [len(part.rows) for part in parts])
    jobs = activity.jobs.iloc[rows].assign(
        submit_time=new_weeks * SECONDS_PER_WEEK + activity.week_offset[rows], user_id=users)
    jobs = jobs.sort_values(["submit_time", "user_id"], kind="stable").reset_index(drop=True)
    jobs["job_id"] = np.arange(1, len(jobs) + 1)
    jobs["preceding_job_id"], jobs["think_time"] = -1, -1.0
    return jobs
