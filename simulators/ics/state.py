"""What the kernel simulates: jobs, their processes, and the nodes they run on.

Plain ``__slots__`` classes rather than arrays: a node holds at most MPL (<= 5)
processes, so every per-node decision is a scan of a handful of objects, and the
kernel's cost is dominated by the event heap, not by these scans (see bench/bench_ics.py).
"""

from __future__ import annotations

import numpy as np

from schedlab.simulators.ics.network import SendInterface
from schedlab.simulators.ics.tstable import QUANTUM, START_LEVEL

# Process states
READY, RUNNING, BLOCKED, IN_IO, DONE = range(5)
# What a process does with the CPU once it has it
COMPUTE, SEND, RECEIVE, SPIN = range(4)
# CPU profile categories (Sect. 4.2, "Performance Profile")
CPU_CATEGORIES = ("compute", "spin", "idle", "real_idle", "switch", "overhead")
CAT_COMPUTE, CAT_SPIN, CAT_IDLE, CAT_REAL_IDLE, CAT_SWITCH, CAT_OVERHEAD = range(6)


class Job:
    """One parallel job: ``size`` processes looping compute -> I/O -> communicate.

    Per iteration ``k``: ``message_bytes[k]`` is the size of every message sent and
    ``all_to_all[k]`` the pattern (else nearest neighbour on a ring).  ``compute`` and
    ``io`` (shape size x iterations, seconds) already include the task skew.  ``lengthened``:
    the workload gave the job more iterations than its model run time asks
    (``workload.MIN_ITERATIONS``).
    """

    __slots__ = (
        "index", "job_id", "kind", "submit", "size", "compute", "io", "message_bytes", "all_to_all",
        "iterations", "dedicated_time", "lengthened", "start", "end", "nodes", "processes", "done_count", "row", "_peers",
    )

    def __init__(self, index, job_id, kind, submit, compute, io, message_bytes, all_to_all, dedicated_time,
                 lengthened=False):
        self.index = index
        self.job_id = job_id
        self.kind = kind
        self.submit = float(submit)
        self.compute = np.asarray(compute, dtype=np.float64)
        self.io = np.asarray(io, dtype=np.float64)
        self.size, self.iterations = self.compute.shape
        self.message_bytes = np.asarray(message_bytes, dtype=np.float64)
        self.all_to_all = np.asarray(all_to_all, dtype=bool)
        self.dedicated_time = float(dedicated_time)
        self.lengthened = bool(lengthened)
        self.start = -1.0
        self.end = -1.0
        self.nodes: list[int] = []
        self.processes: list[Process] = []
        self.done_count = 0
        self.row = -1
        self._peers: dict[tuple[int, bool], list[int]] = {}

    def peers(self, rank: int, iteration: int) -> list[int]:
        """Ranks that ``rank`` sends to, and receives from, in ``iteration`` (cached per pattern)."""
        all_to_all = bool(self.all_to_all[iteration])
        key = (rank, all_to_all)
        peers = self._peers.get(key)
        if peers is None:
            if all_to_all:
                peers = [r for r in range(self.size) if r != rank]
            else:
                peers = sorted({(rank - 1) % self.size, (rank + 1) % self.size} - {rank})
            self._peers[key] = peers
        return peers


class Process:
    """One process of a job, resident on one node from job start to job end."""

    __slots__ = (
        "job", "rank", "node", "level", "quantum_left", "state", "activity", "remaining", "spin_left",
        "iteration", "pending_now", "pending_later", "consumed", "needed", "collective", "queued_at",
        "peer_table", "cpu_time", "messages_received", "finished", "dispwait",
    )

    def __init__(self, job: Job, rank: int, node: Node):
        self.job = job
        self.rank = rank
        self.node = node
        self.level = START_LEVEL
        self.quantum_left = QUANTUM[START_LEVEL]
        self.dispwait = 0
        """Starvation updates counted while queued (Solaris ``ts_dispwait``)."""
        self.state = READY
        self.activity = COMPUTE
        self.remaining = float(job.compute[rank, 0])
        self.spin_left = 0.0
        self.iteration = 0
        self.pending_now: list[int] = []
        """Source nodes of arrived, unconsumed messages of the current iteration."""
        self.pending_later: dict[int, list[int]] = {}
        """... and of later iterations, by iteration: with one pattern a peer is at most one
        iteration ahead, but nearest-neighbour phases let distant ranks run further ahead
        before an all-to-all phase (NPB MG)."""
        self.consumed = 0
        self.needed = len(job.peers(rank, 0))
        self.collective = False
        self.queued_at = 0
        self.peer_table: dict[int, list[float]] = {}
        """PROC's PT row: source node -> [ENP, T] (Sect. 3.3)."""
        self.cpu_time = 0.0
        self.messages_received = 0
        self.finished = -1.0

    def has_pending(self) -> bool:
        return bool(self.pending_now or self.pending_later)

    def pending_sources(self) -> list[int]:
        """Source node of every pending message, current iteration first."""
        if not self.pending_later:
            return self.pending_now
        return [*self.pending_now, *(s for k in sorted(self.pending_later) for s in self.pending_later[k])]


class Node:
    """One cluster node: one CPU, a TS ready queue and a network interface."""

    __slots__ = (
        "index", "processes", "ready", "running", "resume_at", "mode", "token", "pending_at", "segment_end_at",
        "accounts", "interface",
        "switches", "decisions", "conflicts", "false_decisions", "chance_false", "execution_duration", "top_insertions",
        "arrival_rate",
        "last_switch", "enp", "global_table", "boost_cursor", "ticking", "run_started",
    )

    def __init__(self, index: int):
        self.index = index
        self.processes: list[Process] = []
        self.ready: list[Process] = []
        self.running: Process | None = None
        self.resume_at = 0.0
        """Time from which the current activity progresses (later than now while the CPU is stolen)."""
        self.mode = CAT_REAL_IDLE
        self.token = 0
        """Version of the node's pending CPU event; a stale event carries an older one."""
        self.pending_at = -1.0
        """Time of the live CPU event (the one carrying ``token``), or -1 when there is none."""
        self.segment_end_at = 0.0
        """When the running process's current segment ends (never before ``pending_at``)."""
        self.accounts = [0.0] * len(CPU_CATEGORIES)
        self.interface = SendInterface()
        self.switches = 0
        self.decisions = 0
        """Dispatches that picked a process (BCR's denominator), context switch or not."""
        self.conflicts = 0
        self.false_decisions = 0
        self.chance_false = 0.0
        """Sum over conflicts of the share of conflicting processes a pick would be false with: the false
        decisions a uniformly random pick among them would expect (FDR's chance level)."""
        self.execution_duration = 0.0
        """ED: EWMA of the CPU time a process runs between context switches (Sect. 3.2)."""
        self.top_insertions = 0
        self.arrival_rate = 0.0
        """lambda: EWMA rate of wake-ups into the top queues (Sect. 3.2)."""
        self.last_switch = 0.0
        self.enp = 0.0
        self.global_table: dict[int, list[float]] = {}
        """PROC's GT: source node -> [ED, ENP, T] (Sect. 3.3)."""
        self.boost_cursor = 0
        self.ticking = False
        self.run_started = 0.0

    def waiting_with_messages(self) -> list[Process]:
        return [p for p in self.ready if p.pending_now or p.pending_later]
