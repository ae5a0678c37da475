"""User sessions of a trace, and which sessions wait for which (the input of feedback-aware replay).

A log keeps every job's submit time fixed, though its user submitted it after seeing earlier
jobs end.  Zakay and Feitelson ("Preserving user behavior characteristics in trace-based
simulation of parallel job scheduling", MASCOTS 2014) recover that feedback from the log
itself, per user:

Sessions
    A user's jobs, in submit order, are cut into sessions of work done in one sitting.  Two
    ways of cutting (``DELIMITATIONS``), the threshold a parameter (default 60 minutes):

    ``arrival`` (Zakay and Feitelson's activity-based delimitation)
        a new session starts when a job is submitted more than the threshold after the
        user's previous submission;
    ``termination`` (the classical one)
        a new session starts when a job is submitted more than the threshold after every
        earlier job of the user had ended (its think time, the time since the last of them
        ended, exceeds the threshold); a job submitted while earlier ones still run stays in
        their session.

Dependencies
    A session depends on the user's earlier sessions all of whose jobs had ended before its
    first submission: the user saw them finish.  Only the ones not already implied through
    another are kept (if A ended before B started and B before C, C waits for B, and so for
    A too: B cannot end before A did).  A dependent session's think time is its first
    submission minus the last end among its predecessors; its jobs keep their offsets from
    its first submission.  Sessions without predecessors are independent: their submit
    times are the log's.

Time of day
    ``keeping_time_of_day`` marks the sessions so that a closed-loop replay never starts a
    dependent session earlier in its day than the log did (a user who came in at 9:00 does not
    come at 3:00 because the night's jobs ended early): an option, off by default.

Recorded dependencies
    SWF fields 17 and 18 (preceding job, think time) say it directly where a log has them:
    ``recorded_sessions`` makes each job its own session, dependent on its recorded
    preceding job's with the recorded think time.  None of the shared traces has them (all
    -1, or constant), which ``has_recorded_dependencies`` tells.

A trace without user ids, or with a single one, has no sessions to find: ``find_sessions``
refuses it in one line.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from schedlab.errors import SchedlabError
from schedlab.workloads.cycle import SECONDS_PER_DAY

DELIMITATIONS = ("arrival", "termination")
DEFAULT_THRESHOLD_SECONDS = 3600.0
SESSION_COLUMNS = ("session_id", "user_id", "first_submit", "jobs", "end", "think_time")


@dataclass(frozen=True)
class Sessions:
    """The sessions of a trace.

    ``jobs``: the trace's jobs in submit order with ``session_id`` and ``offset`` (submit
    minus the session's first submit) added.  ``sessions``: ``SESSION_COLUMNS``, one row per
    session in order of first submission (``end`` its last job's end in the log,
    ``think_time`` NaN for an independent session).  ``predecessors``: one row per
    (``session_id``, ``predecessor_id``) kept.
    """

    jobs: pd.DataFrame
    sessions: pd.DataFrame
    predecessors: pd.DataFrame
    delimitation: str
    threshold: float
    day_clock: float | None = None  # set by keeping_time_of_day: trace time + this = seconds after a local midnight

    @property
    def dependent(self) -> np.ndarray:
        return self.sessions["think_time"].notna().to_numpy()

    def describe(self) -> str:
        """How the sessions were found, for a replay's settings line."""
        if self.delimitation == "recorded":
            return "sessions recorded in SWF fields 17-18"
        return f"{self.delimitation} sessions, threshold {self.threshold:g} s"


def job_ends(jobs: pd.DataFrame) -> np.ndarray:
    """Each job's end in the log: submit + wait + run (a wait or run unknown counts as 0)."""
    wait = np.maximum(jobs["wait_time"].to_numpy(dtype=float), 0.0)
    run = np.maximum(jobs["run_time"].to_numpy(dtype=float), 0.0)
    return jobs["submit_time"].to_numpy(dtype=float) + wait + run


def check_users(jobs: pd.DataFrame, source: str) -> None:
    """Refuse, in one line, a trace whose user ids cannot delimit sessions."""
    users = jobs["user_id"].to_numpy()
    known = users[users >= 0]
    if known.size == 0:
        raise SchedlabError(f"{source}: no user ids (SWF field 12 is -1 for every job), so no sessions to find")
    if np.unique(known).size < 2:
        raise SchedlabError(f"{source}: a single user id for every job, so sessions cannot tell users apart")
    if known.size < users.size:
        raise SchedlabError(f"{source}: {users.size - known.size:,} jobs without a user id (SWF field 12 is -1); "
                            "clean them out first")


def _session_starts(submits: np.ndarray, ends: np.ndarray, delimitation: str, threshold: float) -> np.ndarray:
    """For one user's jobs in submit order: whether each starts a new session."""
    starts = np.ones(len(submits), dtype=bool)
    if delimitation == "arrival":
        starts[1:] = np.diff(submits) > threshold
    else:
        latest_end = np.maximum.accumulate(ends)
        starts[1:] = submits[1:] - latest_end[:-1] > threshold
    return starts


def _predecessors(first: np.ndarray, end: np.ndarray) -> list[np.ndarray]:
    """For one user's sessions in order of first submission: the earlier sessions each waits for,
    without those implied through another (see the module docstring), as indices."""
    kept = []
    for i in range(len(first)):
        ended = np.flatnonzero(end[:i] <= first[i])
        if ended.size == 0:
            kept.append(ended)
            continue
        latest = ended[-1]  # the last to start of those that ended: every other one ending before it started is implied
        kept.append(ended[(ended == latest) | (end[ended] > first[latest])])
    return kept


def find_sessions(jobs: pd.DataFrame, delimitation: str = "arrival", threshold: float = DEFAULT_THRESHOLD_SECONDS,
                  source: str = "trace") -> Sessions:
    """The sessions of ``jobs`` (a canonical job table) and their dependencies; see the module docstring."""
    if delimitation not in DELIMITATIONS:
        raise SchedlabError(f"session delimitation must be one of {', '.join(DELIMITATIONS)}, got {delimitation!r}")
    if not (np.isfinite(threshold) and threshold >= 0):
        raise SchedlabError(f"the session threshold must be >= 0 seconds, got {threshold}")
    check_users(jobs, source)
    ordered = jobs.sort_values(["user_id", "submit_time"], kind="stable").reset_index(drop=True)
    submits, ends = ordered["submit_time"].to_numpy(dtype=float), job_ends(ordered)
    users = ordered["user_id"].to_numpy()
    user_starts = np.flatnonzero(np.r_[True, users[1:] != users[:-1]])
    bounds = np.r_[user_starts, len(ordered)]
    starts = np.concatenate([_session_starts(submits[a:b], ends[a:b], delimitation, threshold)
                             for a, b in zip(bounds[:-1], bounds[1:])])
    starts[user_starts] = True
    local_session = np.cumsum(starts) - 1
    first = submits[starts]
    session_end = np.maximum.reduceat(ends, np.flatnonzero(starts))
    counts = np.diff(np.r_[np.flatnonzero(starts), len(ordered)])
    session_user = users[starts]

    # Number sessions by first submission (user id, then order within the user, on ties).
    order = np.lexsort((np.arange(len(first)), first))
    number = np.empty(len(first), dtype=np.int64)
    number[order] = np.arange(1, len(first) + 1)

    think = np.full(len(first), np.nan)
    pairs = []
    session_bounds = np.r_[np.flatnonzero(np.r_[True, session_user[1:] != session_user[:-1]]), len(first)]
    for a, b in zip(session_bounds[:-1], session_bounds[1:]):
        for offset, kept in enumerate(_predecessors(first[a:b], session_end[a:b])):
            if kept.size:
                i = a + offset
                think[i] = first[i] - session_end[a + kept].max()
                pairs.extend((number[i], number[a + k]) for k in kept)

    jobs_out = ordered.assign(session_id=number[local_session], offset=submits - first[local_session])
    jobs_out = jobs_out.sort_values(["submit_time", "session_id"], kind="stable").reset_index(drop=True)
    sessions = pd.DataFrame({"session_id": number, "user_id": session_user, "first_submit": first, "jobs": counts,
                             "end": session_end, "think_time": think}).sort_values("session_id").reset_index(drop=True)
    predecessors = pd.DataFrame(sorted(pairs), columns=["session_id", "predecessor_id"], dtype=np.int64)
    return Sessions(jobs_out, sessions, predecessors, delimitation, float(threshold))


def keeping_time_of_day(sessions: Sessions, unix_start_time=None, time_zone=None) -> Sessions:
    """The same sessions, marked so that a closed-loop replay never starts a dependent session earlier in
    its day than the log did (``schedlab.simulators.batch.feedback``): days in the trace header's time zone
    (UTC, or the trace's own clock from time 0, where the header does not say)."""
    from dataclasses import replace

    from schedlab.workloads.fitting import local_week_seconds

    first = sessions.sessions["first_submit"].to_numpy(dtype=float)
    local = local_week_seconds(first[:1], unix_start_time, time_zone)
    return replace(sessions, day_clock=float((local[0] - first[0]) % SECONDS_PER_DAY))


def has_recorded_dependencies(jobs: pd.DataFrame) -> bool:
    """Whether SWF fields 17-18 name, for some job, a preceding job of the trace and a think time >= 0."""
    preceding = jobs["preceding_job_id"].to_numpy()
    usable = (preceding > 0) & np.isin(preceding, jobs["job_id"].to_numpy()) & (jobs["think_time"].to_numpy() >= 0)
    return bool(usable.any())


def recorded_sessions(jobs: pd.DataFrame) -> Sessions:
    """Each job its own session, dependent on its recorded preceding job's with the recorded think time
    (SWF fields 17-18) where that job is in the trace and the think time known; independent otherwise."""
    ordered = jobs.sort_values("submit_time", kind="stable").reset_index(drop=True)
    number = np.arange(1, len(ordered) + 1)
    session_of = pd.Series(number, index=ordered["job_id"].to_numpy())
    preceding = ordered["preceding_job_id"].to_numpy()
    recorded = ordered["think_time"].to_numpy(dtype=float)
    usable = (preceding > 0) & np.isin(preceding, ordered["job_id"].to_numpy()) & (recorded >= 0)
    sessions = pd.DataFrame({"session_id": number, "user_id": ordered["user_id"].to_numpy(),
                             "first_submit": ordered["submit_time"].to_numpy(dtype=float), "jobs": 1,
                             "end": job_ends(ordered), "think_time": np.where(usable, recorded, np.nan)})
    predecessors = pd.DataFrame({"session_id": number[usable],
                                 "predecessor_id": session_of.loc[preceding[usable]].to_numpy()}, dtype=np.int64)
    return Sessions(ordered.assign(session_id=number, offset=0.0), sessions, predecessors, "recorded", float("nan"))


def sessions_of(jobs: pd.DataFrame, delimitation: str = "arrival", threshold: float = DEFAULT_THRESHOLD_SECONDS,
                source: str = "trace") -> Sessions:
    """The sessions a closed-loop replay of ``jobs`` uses: the log's own (SWF fields 17-18) where it
    records them, else those ``find_sessions`` delimits."""
    if has_recorded_dependencies(jobs):
        return recorded_sessions(jobs)
    return find_sessions(jobs, delimitation, threshold, source)


SESSION_TABLES = ("jobs", "sessions", "predecessors")


def write_sessions(sessions: Sessions, directory) -> None:
    """The three tables as ``session_<name>.parquet`` in ``directory``, how they were found in
    ``sessions_found.json`` (``read_sessions`` reads them back)."""
    import json
    from pathlib import Path

    directory = Path(directory)
    for name in SESSION_TABLES:
        getattr(sessions, name).to_parquet(directory / f"session_{name}.parquet", index=False,
                                           write_page_checksum=True)
    (directory / "sessions_found.json").write_text(json.dumps(
        {"delimitation": sessions.delimitation, "threshold": sessions.threshold, "day_clock": sessions.day_clock},
        sort_keys=True) + "\n")


def read_sessions(path_of) -> Sessions:
    """The sessions ``write_sessions`` wrote, ``path_of(file name)`` giving each file's path: a task's
    ``output_file``, which proves the file's bytes before it is read, or a directory's ``joinpath``."""
    import json

    found = json.loads(path_of("sessions_found.json").read_text())
    tables = {name: pd.read_parquet(path_of(f"session_{name}.parquet")) for name in SESSION_TABLES}
    return Sessions(**tables, delimitation=found["delimitation"], threshold=float(found["threshold"]),
                    day_clock=found["day_clock"])


THINK_QUANTILES = (0.10, 0.25, 0.50, 0.75, 0.90)


def overnight(sessions: Sessions, unix_start_time=None, time_zone=None) -> np.ndarray:
    """Per session, whether its think time spans a night: its predecessors' last end and its first
    submission fall on different local days (the trace's time zone; UTC, or the trace's own clock
    from time 0, where the header does not say).  False for an independent session."""
    from schedlab.workloads.fitting import local_week_seconds

    table = sessions.sessions
    first = table["first_submit"].to_numpy(dtype=float)
    ended = first - table["think_time"].fillna(0.0).to_numpy(dtype=float)
    clock = local_week_seconds(np.r_[first, ended], unix_start_time, time_zone) // SECONDS_PER_DAY
    return sessions.dependent & (clock[: len(first)] != clock[len(first):])


def summarize_sessions(sessions: Sessions, unix_start_time=None, time_zone=None) -> dict:
    """What ``schedlab sessions`` prints, as plain data (times in seconds)."""
    table = sessions.sessions
    per_session = table["jobs"].to_numpy()
    consecutive = [
        (group["first_submit"].to_numpy()[1:] >= group["end"].to_numpy()[:-1])
        for _, group in table.groupby("user_id", sort=False)
    ]
    consecutive = np.concatenate(consecutive) if consecutive else np.zeros(0, dtype=bool)
    think = table["think_time"].to_numpy(dtype=float)
    night = overnight(sessions, unix_start_time, time_zone)

    def quantiles(values: np.ndarray) -> list[float]:
        return [float(v) for v in np.quantile(values, THINK_QUANTILES)] if values.size else []

    return {
        "delimitation": sessions.delimitation,
        "threshold": sessions.threshold,
        "users": int(table["user_id"].nunique()),
        "jobs": int(per_session.sum()),
        "sessions": len(table),
        "jobs_per_session": {"mean": float(per_session.mean()), "median": float(np.median(per_session)),
                             "p90": float(np.quantile(per_session, 0.9)), "max": int(per_session.max())},
        "dependent_share": float(sessions.dependent.mean()),
        "consecutive_after_end_share": float(consecutive.mean()) if consecutive.size else float("nan"),
        "think_time_quantiles": {"all": quantiles(think[sessions.dependent]),
                                 "without_overnight": quantiles(think[sessions.dependent & ~night])},
        "overnight_share": float(night[sessions.dependent].mean()) if sessions.dependent.any() else float("nan"),
    }


def _duration(seconds: float) -> str:
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * SECONDS_PER_DAY:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / SECONDS_PER_DAY:.1f} d"


def format_summary(name: str, summary: dict) -> str:
    """The summary as ``schedlab sessions`` prints it."""
    per = summary["jobs_per_session"]
    how = ("recorded in SWF fields 17-18" if summary["delimitation"] == "recorded" else
           f"{summary['delimitation']} delimitation, threshold {_duration(summary['threshold'])}")
    lines = [
        f"{name}: {summary['jobs']:,} jobs of {summary['users']:,} users in {summary['sessions']:,} sessions ({how})",
        f"  jobs per session: mean {per['mean']:.2f}, median {per['median']:g}, 90th percentile {per['p90']:g}, "
        f"max {per['max']:,}",
        f"  dependent sessions (submitted after every job of an earlier session of the user had ended): "
        f"{100 * summary['dependent_share']:.1f} %",
        f"  a user's next session starts after the previous one ended: {100 * summary['consecutive_after_end_share']:.1f} %",
    ]
    labels = "/".join(f"{100 * q:g}" for q in THINK_QUANTILES)
    for key, label in (("all", "all dependent sessions"), ("without_overnight", "without overnight breaks")):
        values = summary["think_time_quantiles"][key]
        shown = ", ".join(_duration(v) for v in values) if values else "none"
        lines.append(f"  think time {labels} %, {label}: {shown}")
    lines.append(f"  think times spanning a night: {100 * summary['overnight_share']:.1f} % of dependent sessions")
    return "\n".join(lines)
