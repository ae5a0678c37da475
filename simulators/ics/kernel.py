"""The discrete-event kernel: processes, messages and CPUs of a time-shared cluster.

One heap of ``(time, sequence, kind, a, b)`` tuples drives everything; the sequence
number breaks ties in insertion order, so a run is deterministic.  A node has at most
one live CPU event (the end of its running process's current segment); instead of
removing a superseded one from the heap, the node's ``token`` is bumped and the stale
event is skipped when popped.  A segment that only ends later than planned (kernel work
stolen from it, as every boost-thread tick does) keeps its event: when that event comes
due before the segment's new end it is pushed again for that end, so a 20 ms quantum
spun through 1 ms ticks costs one or two heap events rather than twenty.

CPU time is accounted exactly: ``settle`` charges the time since ``resume_at`` to the
node's current category (compute, spin, idle or real-idle) and to the running process,
and ``steal`` charges a cost (context switch, interrupt, PROC bookkeeping) by pushing
``resume_at`` forward, which delays whatever the CPU was doing.  At the end the
categories of every node add up to the simulated time, and every process has received
exactly the compute time its job asked for; ``check_invariants`` raises otherwise.

The scheme (``schedlab.simulators.ics.schemes``) decides the message-waiting action, what
happens when a message arrives for a process that is not running, which ready process
runs next, and where jobs are placed; everything else is common to all schemes.
"""

from __future__ import annotations

import heapq
import math
from collections import deque

import numpy as np

from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.ics.outcome import KernelOutcome
from schedlab.simulators.ics.state import (
    BLOCKED,
    CAT_COMPUTE,
    CAT_IDLE,
    CAT_OVERHEAD,
    CAT_REAL_IDLE,
    CAT_SPIN,
    CAT_SWITCH,
    COMPUTE,
    DONE,
    IN_IO,
    READY,
    RECEIVE,
    RUNNING,
    SEND,
    SPIN,
    Job,
    Node,
    Process,
)
from schedlab.simulators.ics.tstable import LWAIT, MAXWAIT, QUANTUM, SLPRET, TOP_LEVEL, TQEXP, UPDATE_PERIOD

ARRIVAL, SEGMENT_END, MESSAGE, IO_DONE, TICK, TIMER, TS_UPDATE = range(7)
EPSILON = 1e-12
"""Seconds below which a remaining amount of work counts as done (float round-off)."""
EWMA_WEIGHT = 0.2
"""w of Sect. 3.2 for ED (and, by our choice, for the wake-up rate lambda)."""
INTERRUPT_COST = 50e-6

SPIN_WAIT, BLOCK_WAIT, SPIN_BLOCK_WAIT = "spin", "block", "spin-block"


def highest_priority(ready: list[Process]) -> Process:
    """The TS choice: highest level first, then first queued."""
    best = ready[0]
    for candidate in ready:
        if candidate.level > best.level or (candidate.level == best.level and candidate.queued_at < best.queued_at):
            best = candidate
    return best


class Kernel:
    """Simulate ``jobs`` on ``n_nodes`` nodes under ``scheme`` until every job has ended."""

    def __init__(self, jobs: list[Job], n_nodes: int, mpl: int, scheme, max_events: int | None = None):
        self.jobs = jobs
        self.nodes = [Node(i) for i in range(n_nodes)]
        self.scheme = scheme
        self.mpl = scheme.mpl if scheme.mpl is not None else mpl
        self.max_events = max_events
        self.heap: list = []
        self.sequence = 0
        self.queue: deque[Job] = deque()
        self.finished_jobs = 0
        self.now = 0.0
        self.events = 0
        self.messages_sent = 0
        self.messages_arrived = 0
        self.messages_consumed = 0
        self.updating = False
        """A starvation update is pending (they run while any process is resident, so a stuck run still ends)."""

    # --- event heap -------------------------------------------------------------------

    def push(self, t: float, kind: int, a, b=None) -> None:
        self.sequence += 1
        heapq.heappush(self.heap, (t, self.sequence, kind, a, b))

    def run(self) -> float:
        """Run to the end of the last job; returns that time (the makespan end)."""
        for job in self.jobs:
            self.push(job.submit, ARRIVAL, job)
        self.scheme.start(self)
        heap = self.heap
        pop = heapq.heappop
        total = len(self.jobs)
        while self.finished_jobs < total:
            if not heap:
                raise InvariantError(f"{self.scheme.name}: event heap ran dry with jobs unfinished (deadlock)")
            t, _, kind, a, b = pop(heap)
            self.now = t
            self.events += 1
            if kind == SEGMENT_END:
                if a.token == b:  # else superseded: a stale event, skipped
                    a.pending_at = -1.0
                    if t < a.segment_end_at:  # the segment was pushed back since: wait for its end
                        a.pending_at = a.segment_end_at
                        self.push(a.segment_end_at, SEGMENT_END, a, b)
                    else:
                        self.segment_end(a, t)
            elif kind == MESSAGE:
                self.deliver(a, b, t)
            elif kind == IO_DONE:
                self.io_done(a, t)
            elif kind == TICK:
                self.tick(a, t)
            elif kind == ARRIVAL:
                self.queue.append(a)
                self.try_start(t)
            elif kind == TS_UPDATE:
                self.starvation_update(t)
            else:
                self.scheme.on_timer(self, t, a)
            if self.max_events is not None and self.events > self.max_events:
                raise InvariantError(f"{self.scheme.name}: more than {self.max_events} events; runaway simulation")
        for node in self.nodes:
            self.settle(node, self.now)
        self.check_invariants()
        return self.now

    # --- CPU time ---------------------------------------------------------------------

    def settle(self, node: Node, t: float) -> None:
        """Charge the time since ``node.resume_at`` to the node's current activity."""
        elapsed = t - node.resume_at
        if elapsed <= 0.0:
            return
        node.accounts[node.mode] += elapsed
        process = node.running
        if process is not None:
            process.quantum_left -= elapsed
            if node.mode == CAT_COMPUTE:
                process.remaining -= elapsed
                process.cpu_time += elapsed
            else:
                process.spin_left -= elapsed
        node.resume_at = t

    def steal(self, node: Node, t: float, seconds: float, category: int = CAT_OVERHEAD) -> None:
        """The CPU spends ``seconds`` on kernel work; the current activity resumes afterwards."""
        self.settle(node, t)
        node.resume_at = max(node.resume_at, t) + seconds
        node.accounts[category] += seconds
        if node.running is not None:
            self.plan_segment(node)

    def plan_segment(self, node: Node) -> None:
        """Schedule the end of what the running process does next on the CPU."""
        process = node.running
        activity = process.activity
        if activity == COMPUTE:
            node.mode = CAT_COMPUTE
            length = min(process.remaining, process.quantum_left)
        elif activity == SPIN:
            node.mode = CAT_SPIN
            length = min(process.spin_left, process.quantum_left)
        else:
            node.mode = CAT_COMPUTE
            length = 0.0
        end = node.resume_at + max(length, 0.0)
        node.segment_end_at = end
        if node.pending_at >= 0.0 and node.pending_at <= end:  # the live event comes first and looks again then
            return
        node.token += 1
        node.pending_at = end
        self.push(end, SEGMENT_END, node, node.token)

    def go_idle(self, node: Node) -> None:
        node.running = None
        node.token += 1
        node.pending_at = -1.0
        node.mode = CAT_IDLE if node.processes else CAT_REAL_IDLE

    # --- the node scheduler -----------------------------------------------------------

    def enqueue(self, node: Node, process: Process, front: bool = False) -> None:
        if process.activity == SPIN:  # a spinner taken off the CPU checks its messages first when back
            process.activity = RECEIVE
        self.sequence += 1
        process.state = READY
        process.queued_at = -self.sequence if front else self.sequence
        if not front:  # back in a queue after a used-up quantum or a sleep; a preemption keeps the count
            process.dispwait = 0
        node.ready.append(process)

    def starvation_update(self, t: float) -> None:
        """The TS table's once-a-second update (``ts_update``): a queued process that has waited more than
        its level's ``maxwait`` is raised to ``lwait``, behind the processes already at that level."""
        for node in self.nodes:
            raised = False
            for process in node.ready:
                process.dispwait += 1
                if process.dispwait > MAXWAIT[process.level]:
                    process.dispwait = 0
                    process.level = LWAIT[process.level]
                    process.quantum_left = QUANTUM[process.level]
                    self.sequence += 1
                    process.queued_at = self.sequence
                    raised = True
            if raised and node.running is not None and highest_priority(node.ready).level > node.running.level:
                self.preempt(node, t)
        self.updating = any(node.processes for node in self.nodes)
        if self.updating:
            self.push(t + UPDATE_PERIOD, TS_UPDATE, None)

    def dispatch(self, node: Node, t: float, previous: Process | None) -> None:
        """Give the (settled, free) CPU to the process the scheme picks, or idle."""
        chosen = self.scheme.pick(self, node, t) if node.ready else None
        if chosen is None:
            if previous is not None:
                self.note_run_end(node, t)
            self.go_idle(node)
            return
        self.count_decision(node, chosen, t)
        node.ready.remove(chosen)
        chosen.state = RUNNING
        node.running = chosen
        if chosen is previous:
            self.plan_segment(node)
        else:
            node.switches += 1
            if previous is not None:
                self.note_run_end(node, t)
            node.last_switch = t
            self.steal(node, t, self.scheme.switch_cost, CAT_SWITCH)

    def note_run_end(self, node: Node, t: float) -> None:
        """A process leaves the CPU: update ED, lambda and ENP of Sect. 3.2.

        ED averages the time from one context switch to the next; time the CPU spent
        idle is not a process's execution duration, so a run that ends in idling
        restarts the clock only at the next dispatch.
        """
        ran = t - node.last_switch
        node.execution_duration = EWMA_WEIGHT * ran + (1.0 - EWMA_WEIGHT) * node.execution_duration
        if ran > 0.0:
            rate = node.top_insertions / ran
            node.arrival_rate = EWMA_WEIGHT * rate + (1.0 - EWMA_WEIGHT) * node.arrival_rate
        node.top_insertions = 0
        node.enp = self.expected_processes(node)

    def expected_processes(self, node: Node) -> float:
        """ENP = CNP + ANP, ANP = CNP * lambda * ED (Sect. 3.2)."""
        waiting = sum(1 for p in node.processes if p is not node.running and p.has_pending())
        return waiting * (1.0 + node.arrival_rate * node.execution_duration)

    def rescheduling_latency(self, node: Node) -> float:
        """The oracle's view of a node's contention: resched_lat of Sect. 3.2 from live state."""
        enp = self.expected_processes(node)
        return node.execution_duration * enp + (math.floor(enp) + 1) * self.scheme.switch_cost

    def count_decision(self, node: Node, chosen: Process, t: float) -> None:
        """BCR and FDR bookkeeping at a scheduling decision (Sect. 4.2).

        Every dispatch that picks a process is a decision, whether the runner changes or
        the scheme keeps it: PROC-B keeping the runner at a conflict decided just as much
        as SB switching away.  A boost conflict: two or more ready processes (the one just
        taken off the CPU included) have pending messages.  The choice is false unless the
        chosen process has a pending message from the node that the oracle (live
        rescheduling latencies) finds least contended among all sources.  Beside it, the chance
        level: the share of the conflicting processes whose pick would be false, what a uniformly
        random choice among them would score.
        """
        node.decisions += 1
        if len(node.ready) < 2:
            return
        conflicting = node.waiting_with_messages()
        if len(conflicting) < 2:
            return
        node.conflicts += 1
        latency = {}
        for process in conflicting:
            for source in process.pending_sources():
                if source not in latency:
                    latency[source] = self.rescheduling_latency(self.nodes[source])
        best = min(latency.values())

        def right(process: Process) -> bool:
            return any(latency.get(source, math.inf) <= best + EPSILON for source in process.pending_sources())

        if not right(chosen):
            node.false_decisions += 1
        wrong = sum(1 for process in conflicting if not right(process))
        node.chance_false += wrong / len(conflicting)

    def preempt_if_higher(self, node: Node, process: Process, t: float) -> None:
        """A process just became ready: run it now if the CPU is idle or runs a lower level."""
        running = node.running
        if running is None:
            self.settle(node, t)
            self.dispatch(node, t, None)
        elif process.level > running.level:
            self.preempt(node, t)

    def preempt(self, node: Node, t: float, front: bool = True) -> None:
        """Take the CPU from the runner: back to the front of its level (preempted), or to the back
        (``front=False``: it yields its turn)."""
        self.settle(node, t)
        running = node.running
        self.enqueue(node, running, front=front)
        node.running = None
        self.dispatch(node, t, running)

    def boost(self, node: Node, process: Process, t: float, level: int = TOP_LEVEL, first: bool = False) -> None:
        """Raise a waiting process to ``level`` (waking it if blocked) and preempt if it outranks the runner.

        A ready process goes to the back of its new level, or to the front with ``first`` (the process
        a reordering chose to run next).

        With the scheme's ``boost_preempts_spinner`` a boost also takes the CPU from a runner of the
        same level that is busy-waiting: the boost exists to run the process whose message is here now,
        so the spinner yields its turn (back of its level) rather than being put first again.
        """
        if process.state == BLOCKED:
            process.level = level
            process.quantum_left = QUANTUM[level]
            self.enqueue(node, process)
            node.top_insertions += 1
        elif process.state == READY:
            process.level = level
            process.quantum_left = QUANTUM[level]
            self.sequence += 1
            process.queued_at = -self.sequence if first else self.sequence
        else:
            return
        running = node.running
        if (
            self.scheme.boost_preempts_spinner
            and running is not None
            and running.activity == SPIN
            and process.level >= running.level
        ):
            self.preempt(node, t, front=False)
        else:
            self.preempt_if_higher(node, process, t)

    def interrupt(self, node: Node, t: float) -> None:
        self.steal(node, t, INTERRUPT_COST)

    # --- process life cycle -----------------------------------------------------------

    def segment_end(self, node: Node, t: float) -> None:
        self.settle(node, t)
        process = node.running
        activity = process.activity
        if activity == COMPUTE:
            if process.remaining <= EPSILON:
                self.after_compute(node, process, t)
                return
        elif activity == SEND:
            self.communicate(node, process, t)
            return
        elif activity == RECEIVE:
            self.receive(node, process, t)
            return
        elif process.spin_left <= EPSILON:
            self.leave_cpu(node, process, BLOCKED, t)
            return
        # quantum used up: one TS step down, back to the queue
        process.level = TQEXP[process.level]
        process.quantum_left = QUANTUM[process.level]
        self.enqueue(node, process)
        node.running = None
        self.dispatch(node, t, process)

    def leave_cpu(self, node: Node, process: Process, state: int, t: float) -> None:
        process.state = state
        if state == BLOCKED:  # once woken, it first consumes what has arrived
            process.activity = RECEIVE
        node.running = None
        self.dispatch(node, t, process)

    def after_compute(self, node: Node, process: Process, t: float) -> None:
        io_time = process.job.io[process.rank, process.iteration]
        process.activity = SEND
        if io_time > 0.0:
            self.push(t + io_time, IO_DONE, process)
            self.leave_cpu(node, process, IN_IO, t)
        else:
            self.communicate(node, process, t)

    def io_done(self, process: Process, t: float) -> None:
        node = process.node
        process.level = SLPRET[process.level]
        process.quantum_left = QUANTUM[process.level]
        self.enqueue(node, process)
        node.top_insertions += 1
        self.preempt_if_higher(node, process, t)

    def communicate(self, node: Node, process: Process, t: float) -> None:
        """Send this iteration's messages (16 KB each in the synthetic jobs), then receive."""
        job = process.job
        iteration = process.iteration
        size = job.message_bytes[iteration]
        peers = job.peers(process.rank, iteration)
        payload = (node.index, iteration, node.execution_duration, node.enp)
        for rank in peers:
            arrival = node.interface.send(t, size)
            self.push(arrival, MESSAGE, job.processes[rank], payload)
        self.messages_sent += len(peers)
        if self.scheme.marks_collectives and job.all_to_all[iteration]:
            process.collective = True
        process.activity = RECEIVE
        overhead = self.scheme.send_overhead(len(peers))
        if overhead > 0.0:
            self.steal(node, t, overhead)
        else:
            self.receive(node, process, t)

    def receive(self, node: Node, process: Process, t: float) -> None:
        """The running process consumes its arrived messages; it waits if some are missing."""
        consumed = len(process.pending_now)
        if consumed:
            process.consumed += consumed
            self.messages_consumed += consumed
            process.pending_now = []
        if process.consumed >= process.needed:
            self.next_iteration(node, process, t)
            return
        wait = self.scheme.wait
        if wait == BLOCK_WAIT:
            self.leave_cpu(node, process, BLOCKED, t)
            return
        if process.activity != SPIN:
            process.activity = SPIN
            process.spin_left = self.scheme.spin_time if wait == SPIN_BLOCK_WAIT else math.inf
        self.plan_segment(node)

    def next_iteration(self, node: Node, process: Process, t: float) -> None:
        job = process.job
        process.collective = False
        process.iteration += 1
        if process.iteration == job.iterations:
            self.finish_process(node, process, t)
            return
        process.pending_now = process.pending_later.pop(process.iteration, [])
        process.consumed = 0
        process.needed = len(job.peers(process.rank, process.iteration))
        process.remaining = job.compute[process.rank, process.iteration]
        process.activity = COMPUTE
        self.plan_segment(node)

    def deliver(self, process: Process, payload, t: float) -> None:
        source, iteration, execution_duration, enp = payload
        self.messages_arrived += 1
        process.messages_received += 1
        node = process.node
        if iteration == process.iteration:
            process.pending_now.append(source)
        elif iteration > process.iteration:
            process.pending_later.setdefault(iteration, []).append(source)
        else:
            raise InvariantError(
                f"message of iteration {iteration} reached job {process.job.job_id} rank {process.rank} "
                f"in iteration {process.iteration}"
            )
        self.scheme.note_arrival(self, node, process, source, execution_duration, enp, t)
        if node.running is process:
            if process.activity == SPIN and iteration == process.iteration:
                self.settle(node, t)
                self.receive(node, process, t)
        else:
            self.scheme.on_message(self, node, process, t)

    def finish_process(self, node: Node, process: Process, t: float) -> None:
        process.state = DONE
        process.finished = t
        node.processes.remove(process)
        node.running = None
        job = process.job
        job.done_count += 1
        self.dispatch(node, t, process)
        if job.done_count == job.size:
            job.end = t
            self.finished_jobs += 1
            self.scheme.on_job_end(self, job)
        self.try_start(t)

    # --- jobs -------------------------------------------------------------------------

    def least_loaded_nodes(self, size: int) -> list[int] | None:
        """FCFS allocation: ``size`` nodes with fewer than MPL processes, least loaded first."""
        free = [node for node in self.nodes if len(node.processes) < self.mpl]
        if len(free) < size:
            return None
        free.sort(key=lambda node: (len(node.processes), node.index))
        return sorted(node.index for node in free[:size])

    def try_start(self, t: float) -> None:
        while self.queue:
            job = self.queue[0]
            placement = self.scheme.allocate(self, job)
            if placement is None:
                return
            self.queue.popleft()
            self.start_job(job, placement, t)

    def start_job(self, job: Job, placement: list[int], t: float) -> None:
        if len(placement) != job.size or len(set(placement)) != job.size:
            raise InvariantError(f"job {job.job_id} placed on {placement}, needs {job.size} distinct nodes")
        job.start = t
        job.nodes = list(placement)
        if self.scheme.time_sharing and not self.updating:  # the next tick of the once-a-second clock
            self.updating = True
            self.push((math.floor(t / UPDATE_PERIOD) + 1) * UPDATE_PERIOD, TS_UPDATE, None)
        job.processes = [Process(job, rank, self.nodes[index]) for rank, index in enumerate(placement)]
        for process in job.processes:
            node = process.node
            if len(node.processes) >= self.mpl:
                raise InvariantError(f"node {node.index} would exceed MPL {self.mpl}")
            node.processes.append(process)
            self.enqueue(node, process)
            self.scheme.on_process_start(self, node, t)
            self.preempt_if_higher(node, process, t)

    def tick(self, node: Node, t: float) -> None:
        """The periodic boost thread of PB and PROC-S; it stops while the node is empty."""
        if not node.processes:
            node.ticking = False
            return
        self.scheme.on_tick(self, node, t)
        self.push(t + self.scheme.boost_period, TICK, node)

    def outcome(self) -> KernelOutcome:
        nodes = self.nodes
        return KernelOutcome(
            end=self.now,
            events=self.events,
            messages=self.messages_sent,
            mpl=self.mpl,
            job_start=np.array([job.start for job in self.jobs]),
            job_end=np.array([job.end for job in self.jobs]),
            process_finish=[np.array([p.finished for p in job.processes]) for job in self.jobs],
            accounts=np.array([node.accounts for node in nodes]),
            switches=np.array([node.switches for node in nodes], dtype=np.int64),
            decisions=np.array([node.decisions for node in nodes], dtype=np.int64),
            conflicts=np.array([node.conflicts for node in nodes], dtype=np.int64),
            false_decisions=np.array([node.false_decisions for node in nodes], dtype=np.int64),
            chance_false=np.array([node.chance_false for node in nodes]),
        )

    # --- invariants -------------------------------------------------------------------

    def check_invariants(self) -> None:
        name = self.scheme.name
        if not (self.messages_sent == self.messages_arrived == self.messages_consumed):
            raise InvariantError(
                f"{name}: messages sent {self.messages_sent}, arrived {self.messages_arrived}, "
                f"consumed {self.messages_consumed}"
            )
        for node in self.nodes:
            horizon = max(self.now, node.resume_at)
            if abs(sum(node.accounts) - horizon) > 1e-9 * max(1.0, horizon):
                raise InvariantError(f"{name}: node {node.index} accounts {sum(node.accounts)} s of {horizon} s")
            computed = sum(p.cpu_time for job in self.jobs for p in job.processes if p.node is node)
            if abs(node.accounts[CAT_COMPUTE] - computed) > 1e-9 * max(1.0, computed):
                raise InvariantError(f"{name}: node {node.index} charged {node.accounts[CAT_COMPUTE]} s of compute, "
                                     f"its processes used {computed} s")
            if node.processes or node.ready or node.running is not None:
                raise InvariantError(f"{name}: node {node.index} still holds processes at the end")
        for job in self.jobs:
            if not (job.submit <= job.start <= job.end):
                raise InvariantError(f"{name}: job {job.job_id} submit {job.submit} start {job.start} end {job.end}")
            for process in job.processes:
                demand = float(job.compute[process.rank].sum())
                if abs(process.cpu_time - demand) > 1e-9 * max(1.0, demand) + EPSILON * job.iterations:
                    raise InvariantError(
                        f"{name}: job {job.job_id} rank {process.rank} computed {process.cpu_time} s of {demand} s"
                    )
