"""Coscheduling of paired jobs across two machines: the paper's RunJob, hold and yield.

Tang, Desai, Buettner, Lan, "Job Coscheduling on Coupled High-End Computing Systems"
(Argonne), section IV.  Each machine keeps its own queue and its own scheduler (here
WFP priority with EASY backfilling, the engine's ``EasyBackfilling``); a job paired with
one on the other machine must start at the same instant as its mate.

When the local scheduler picks a job and assigns it processors (as a queue head or as
a backfill), the start goes through ``RunJob`` (Algorithm 1), installed as the
machine's start gate:

- no mate, or the mate has already started or ended: start normally;
- the mate is holding: start both now;
- the mate is queuing: ``try_start_mate`` runs one extra scheduling pass on the remote
  machine; if that pass started the mate, start the job too;
- otherwise (mate still queuing, or not yet submitted) apply the local scheme:
  *hold* books the assigned processors from now on without running the job, so no
  other job can use them, until the mate is ready; *yield* gives up this turn and lets
  the local scheduler go on with other jobs.

Section IV-E enhancements, all parameters:

- periodic release (deadlock breaker): every ``release_period`` seconds of the
  simulated clock, each job that has held for at least ``release_after`` seconds gives
  its processors back and has the lowest priority for that pass; if others take them it
  stays queued, else it holds again (``release_period=None`` turns this off, and
  hold-hold can then deadlock: paper Fig. 2);
- ``max_held_share``: a job that would push the held share of the machine above this
  yields instead of holding;
- ``max_yields``: on a yield machine, a job that has yielded that many times holds.

Modelling choices the paper leaves open (spec 000 DEFAULTs):

- A held job's booking runs from its hold to "now + its estimate" and is extended at
  every pass on its machine, as if it were about to start: the scheduler sees held
  processors as busy for as long as the job could still run once started.  Under EASY
  every booking starts at or before the present, so the extension always fits.
- An extra pass is never nested inside a pass on the same machine: when the remote
  machine is in the middle of its own pass, its mate cannot be started now, and the
  remote machine gets one more pass at the same instant once the current passes are
  over (repeated while they start or hold anything).  What the job does meanwhile is
  ``yield_when_remote_busy``: by default (True) it yields whatever its scheme, so that
  the remote pass can still start the job that asked.  The paper states no such rule,
  but its resolution of the Fig. 2 deadlock (IV-E1: a1 releases, "a2 can get the nodes
  to start; so can b2") needs it: b1, ahead of the released b2 in B's pass, would
  otherwise hold the nodes b2 needs and close the circle again (tested).  The price is
  that a hold machine yields where the other machine is busy; runs report holds and
  yields per machine, and ``False`` (the local scheme decides) is the named variant.
- Both machines release on one clock: at a release instant the due holds of both go
  before either machine's pass, so each machine's extra passes see the other's freed
  processors.  Should release rounds still go round without any start while both
  machines are idle and every job has arrived, the run stops with ``Deadlock`` (a
  guard; the paper reports no such case).
- With the release off, the run stops at the end of the first pass after which holds
  can never end: a set of held jobs whose mates are submitted and can never fit beside
  the holds of that set on their machine (the circular wait of the paper's Fig. 2).
  ``Deadlock`` carries the verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

HOLD, YIELD = "hold", "yield"
SCHEMES = (HOLD, YIELD)
UNSUBMITTED, QUEUING, HOLDING, STARTED = "unsubmitted", "queuing", "holding", "started"

DEFAULT_RELEASE_PERIOD = 20 * 60.0
DEFAULT_RELEASE_AFTER = 10 * 60.0


@dataclass(frozen=True)
class CoschedSettings:
    """How each machine answers a paired job whose mate is not ready (first = machine A)."""

    schemes: tuple[str, str]
    release_period: float | None = DEFAULT_RELEASE_PERIOD
    release_after: float = DEFAULT_RELEASE_AFTER
    max_held_share: float = 1.0
    max_yields: int | None = None
    yield_when_remote_busy: bool = True

    def __post_init__(self):
        if len(self.schemes) != 2 or any(s not in SCHEMES for s in self.schemes):
            raise ValueError(f"schemes must be two of {SCHEMES}, got {self.schemes!r}")
        if self.release_period is not None and not self.release_period > 0:
            raise ValueError(f"release_period must be > 0 seconds or None, got {self.release_period}")
        if not 0 < self.max_held_share <= 1:
            raise ValueError(f"max_held_share must lie in (0, 1], got {self.max_held_share}")

    @property
    def label(self) -> str:
        """HH, HY, YH or YY: the paper's names, machine A first."""
        return "".join(s[0].upper() for s in self.schemes)


class Deadlock(Exception):
    """Holds that can never end: raised inside the event loop to stop the run.  ``kind``:
    "circular wait" (release off) or "livelock" (release rounds that change nothing)."""

    def __init__(self, t: float, stuck: list[tuple[int, int]], kind: str):
        super().__init__(f"{kind} at t={t}: {len(stuck)} held job(s) wait for mates that can never start")
        self.t = t
        self.stuck = stuck  # (machine index, job index) of each permanently held job
        self.kind = kind


@dataclass
class Hold:
    since: float
    booked_until: float


@dataclass
class MachineState:
    """What the coscheduler knows of one machine besides the machine itself."""

    scheme: str
    held: dict[int, Hold] = field(default_factory=dict)
    held_procs: int = 0
    released: list[int] = field(default_factory=list)  # lowest priority in the current pass
    in_pass: bool = False
    needs_pass: bool = False
    next_release: float | None = None
    first_ready: dict[int, float] = field(default_factory=dict)
    yields: dict[int, int] = field(default_factory=dict)
    holds: list[tuple[int, float, float]] = field(default_factory=list)  # (job, from, to), closed episodes
    releases: int = 0


class CoscheduledPolicy:
    """A machine's policy with coscheduling around it: every pass goes through the coscheduler."""

    def __init__(self, coscheduler: Coscheduler, inner):
        self.coscheduler = coscheduler
        self.inner = inner

    def schedule(self, machine, t: float, submitted, ended) -> None:
        self.coscheduler.scheduling_pass(machine, t)


class Coscheduler:
    """RunJob for two machines that share one engine (see the module docstring).

    ``mates[m][j]`` is the index, on the other machine, of job ``j``'s mate on machine
    ``m``, or -1.  Each machine's policy must be a ``CoscheduledPolicy`` whose inner
    scheduler takes its queue order from :meth:`queue_order`; ``base_order`` is the
    priority that order starts from (WFP).
    """

    def __init__(self, machines, mates, settings: CoschedSettings, base_order):
        self.machines = list(machines)
        self.mates = [list(m) for m in mates]
        self.settings = settings
        self.base_order = base_order
        self.states = [MachineState(scheme) for scheme in settings.schemes]
        self._callers: set[tuple[int, int]] = set()  # jobs waiting on a remote try_start_mate
        self._starting: set[tuple[int, int]] = set()  # jobs the coscheduler itself is starting
        self._progress = 0  # starts and holds so far, to tell whether a round of passes did anything
        self._last_start = self._last_busy = -math.inf
        self._last_submit = max(max(machine.submit, default=-math.inf) for machine in self.machines)
        for machine in self.machines:
            machine.start_gate = self.run_job

    # --- status --------------------------------------------------------------------------

    def status(self, side: int, job: int, t: float) -> str:
        machine = self.machines[side]
        if not math.isnan(machine.start_time[job]):
            return STARTED
        if job in self.states[side].held:
            return HOLDING
        return UNSUBMITTED if machine.submit[job] > t else QUEUING

    # --- Algorithm 1 ---------------------------------------------------------------------

    def run_job(self, machine, job: int, t: float) -> bool:
        """The start gate: True lets ``job`` start now; False when it held or yielded."""
        side = machine.index
        if (side, job) in self._starting:
            return True
        state = self.states[side]
        state.first_ready.setdefault(job, t)
        mate = self.mates[side][job]
        if mate < 0:
            return self._started(t)
        remote = 1 - side
        if (remote, mate) in self._callers:  # our mate is ready and asked us through try_start_mate
            return self._started(t)
        mate_status = self.status(remote, mate, t)
        if mate_status == HOLDING:
            self._start_held(remote, mate, t)
            return self._started(t)
        if mate_status == STARTED:
            return self._started(t)
        if mate_status == QUEUING:
            if self.states[remote].in_pass:
                # The remote machine is mid-pass (this pass was itself asked for by one of its
                # jobs): its scheduler cannot be asked now.  It gets a further pass at this
                # instant, which will find this job holding (or queued again, if it yielded).
                self.states[remote].needs_pass = True
                if self.settings.yield_when_remote_busy:
                    return self._yield(state, job)
            elif self._try_start_mate(remote, mate, (side, job), t):
                return self._started(t)
        if not self._may_hold(side, job):
            return self._yield(state, job)
        self._hold(side, job, t)
        return False

    @staticmethod
    def _yield(state: MachineState, job: int) -> bool:
        """Give up this turn: nothing is booked, the scheduler goes on with other jobs."""
        state.yields[job] = state.yields.get(job, 0) + 1
        return False

    def _started(self, t: float) -> bool:
        self._progress += 1
        self._last_start = t
        return True

    def _try_start_mate(self, remote: int, mate: int, caller: tuple[int, int], t: float) -> bool:
        """One extra scheduling pass on the remote machine; True if it started ``mate``."""
        self._callers.add(caller)
        try:
            self._pass(remote, t)
        finally:
            self._callers.discard(caller)
        return self.status(remote, mate, t) == STARTED

    def _may_hold(self, side: int, job: int) -> bool:
        state, machine, settings = self.states[side], self.machines[side], self.settings
        if state.scheme == YIELD and (settings.max_yields is None or state.yields.get(job, 0) < settings.max_yields):
            return False
        return state.held_procs + machine.procs[job] <= settings.max_held_share * machine.capacity

    # --- hold, start of a held job, release -------------------------------------------

    def _hold(self, side: int, job: int, t: float) -> None:
        machine, state = self.machines[side], self.states[side]
        until = t + machine.estimate[job]
        machine.profile.book(t, until, machine.procs[job])
        state.held[job] = Hold(since=t, booked_until=until)
        state.held_procs += machine.procs[job]
        self._progress += 1
        self._arm_release(side, t)

    def _extend_hold(self, side: int, job: int, hold: Hold, t: float) -> None:
        machine = self.machines[side]
        until = t + machine.estimate[job]
        if until > hold.booked_until:
            # No pass ran on this machine since the booking ran out, so nothing took the
            # processors meanwhile; the profile may have forgotten that past already.
            machine.profile.book(max(hold.booked_until, t), until, machine.procs[job])
            hold.booked_until = until

    def _end_hold(self, side: int, job: int, t: float) -> Hold:
        machine, state = self.machines[side], self.states[side]
        hold = state.held.pop(job)
        state.held_procs -= machine.procs[job]
        state.holds.append((job, hold.since, t))
        return hold

    def _start_held(self, side: int, job: int, t: float) -> None:
        """Run a held job from ``t`` on the processors it holds."""
        machine = self.machines[side]
        self._extend_hold(side, job, self.states[side].held[job], t)
        self._end_hold(side, job, t)
        self._starting.add((side, job))
        try:
            machine.start(job, t, booked=True)
        finally:
            self._starting.discard((side, job))

    def _release_due_holds(self, side: int, t: float) -> None:
        machine, state = self.machines[side], self.states[side]
        for job, hold in list(state.held.items()):
            if t - hold.since >= self.settings.release_after:
                self._end_hold(side, job, t)
                machine.profile.release(t, hold.booked_until, machine.procs[job])
                state.released.append(job)
                state.releases += 1

    def _arm_release(self, side: int, t: float) -> None:
        """Ask the engine for the next periodic release pass, if holds exist and none is pending."""
        period, state = self.settings.release_period, self.states[side]
        if period is None or not state.held or (state.next_release is not None and state.next_release > t):
            return
        state.next_release = (math.floor(t / period) + 1) * period
        self.machines[side].engine.schedule_pass(self.machines[side], state.next_release)

    # --- passes --------------------------------------------------------------------------

    def queue_order(self, machine, t: float) -> list[int]:
        """The base order (WFP) without held jobs; jobs released in this pass come last."""
        state = self.states[machine.index]
        held, released = state.held, state.released
        ranked = [job for job in self.base_order(machine, t) if job not in held]
        if not released:
            return ranked
        last = set(released)
        return [job for job in ranked if job not in last] + [job for job in ranked if job in last]

    def _pass(self, side: int, t: float) -> None:
        machine, state = self.machines[side], self.states[side]
        state.in_pass = True
        try:
            for job, hold in state.held.items():
                self._extend_hold(side, job, hold, t)
            for other, other_state in enumerate(self.states):
                # Both machines release on one clock: what B frees at this instant is free
                # for the extra passes A's pass asks B for, and the other way round.
                if other_state.next_release is not None and t >= other_state.next_release:
                    other_state.next_release = None
                    self._release_due_holds(other, t)
            machine.policy.inner.schedule(machine, t, (), ())
        finally:
            state.released.clear()
            state.in_pass = False
        self._arm_release(side, t)

    def scheduling_pass(self, machine, t: float) -> None:
        """A pass asked for by the engine, then the passes it deferred, while they do anything."""
        self._pass(machine.index, t)
        while any(state.needs_pass for state in self.states):
            before = self._progress
            for side, state in enumerate(self.states):
                if state.needs_pass:
                    state.needs_pass = False
                    self._pass(side, t)
            if self._progress == before:
                for state in self.states:
                    state.needs_pass = False
        if any(state.held for state in self.states):
            if self.settings.release_period is None:
                self._check_deadlock(t)
            else:
                self._check_livelock(t)

    # --- deadlock ------------------------------------------------------------------------

    def _check_livelock(self, t: float) -> None:
        """Raise ``Deadlock`` when releases go round without effect: every job submitted,
        nothing running on either machine, and no start, no arrival and no running job for
        two release periods after the release delay.  From then on each release round repeats the previous one."""
        if any(machine.busy for machine in self.machines):
            self._last_busy = t
            return
        quiet_since = max(self._last_start, self._last_submit, self._last_busy)
        if t - quiet_since > 2 * self.settings.release_period + self.settings.release_after:
            raise Deadlock(t, sorted((side, job) for side, state in enumerate(self.states) for job in state.held),
                           "livelock")

    def _check_deadlock(self, t: float) -> None:
        """Raise ``Deadlock`` if some holds can never end (only meaningful without release).

        Start from every held job and drop, until nothing changes, each one whose mate
        could still start: submitted later, or narrow enough to fit on its machine beside
        the holds still in the set.  What is left waits in a circle.
        """
        stuck = {(side, job) for side, state in enumerate(self.states) for job in state.held}
        changed = True
        while changed and stuck:
            changed = False
            locked = [0, 0]
            for side, job in stuck:
                locked[side] += self.machines[side].procs[job]
            for side, job in sorted(stuck):
                remote, mate = 1 - side, self.mates[side][job]
                machine = self.machines[remote]
                if machine.submit[mate] > t or machine.procs[mate] <= machine.capacity - locked[remote]:
                    stuck.discard((side, job))
                    changed = True
                    break
        if stuck:
            raise Deadlock(t, sorted(stuck), "circular wait")
