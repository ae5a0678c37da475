"""The compiled twin of ``schedlab.simulators.ics.kernel``: the same event loop, under numba.

``kernel.py`` is the reference.  It is readable and object-based, and it defines every
rule of the simulation.  This module replays the same computation on numpy arrays,
fast enough for the paper profile, and must give the same ``KernelOutcome`` to the
last bit (``tests/test_ics_compiled.py`` checks every scheme against the reference).
To get there it:

- does the same floating-point operations in the same order (``settle``, ``steal``,
  the EWMA updates, ENP, the network interface, PROC's ageing), without fastmath;
- takes heap sequence numbers at the same moments: every push, every ``enqueue`` and
  every boost of a READY process, so that events at equal times pop in the same order;
- pops and counts stale segment ends as the reference does;
- keeps every list in the same order: a node's ready queue and its processes (append,
  order-preserving remove) and pending messages (current iteration first, later
  iterations in increasing order, each in arrival order).

Any change to ``kernel.py`` or to a scheme has to be made here too.  The costs, the TS
table and the schemes' numbers are read from the Python modules at every call and
handed to the compiled code as data, so numba's on-disk cache cannot hold a stale
constant.

Layout.  All state lives in the nine arrays of ``Sim``, mostly record arrays
(``g.sequence``, ``nodes[n].resume_at``, ``procs[p].remaining``).  Few arrays matter:
numba passes every array of the tuple to every helper as seven or more machine
arguments, which costs compile time and call overhead.  Processes have global indices
(the job's first process + rank) fixed before the run.  A node's ready queue and
resident processes are small fixed arrays inside its record (MPL <= ``MAX_MPL``).
Pending messages of a process are a ring of ``PENDING_DEPTH`` iterations.  The event
heap is a binary heap of (time, sequence, id) whose payload sits in a pool at row
``id``.  The compiled loop returns to Python when the heap could overflow during the
next event; Python doubles it and calls again, and the loop resumes where it stopped.

The helpers are compiled without numba's reference counting (``_nrt=False``): nothing
here allocates, and counting the references to the arrays made the loop almost twice
as slow.  Only ``_begin`` and ``_simulate`` can be called from Python; the helpers have
no Python wrapper (less to compile).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numba
import numpy as np
from numba import njit, types

from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.ics import kernel as reference
from schedlab.simulators.ics import network, state, tstable
from schedlab.simulators.ics.outcome import KernelOutcome
from schedlab.simulators.ics.schemes import make_scheme
from schedlab.simulators.ics.schemes import base as scheme_base
from schedlab.simulators.ics.schemes import gang as scheme_gang
from schedlab.simulators.ics.schemes import proc as scheme_proc

PENDING_DEPTH = 32
"""Iterations of pending messages a process can hold: its own and 31 ahead.  With one
communication pattern a peer is at most one iteration ahead; NPB MG's nine
nearest-neighbour iterations between all-to-all ones let a distant rank get about ten
ahead.  A message further ahead stops the run with an InvariantError."""
# PENDING_DEPTH must be a power of two: the ring slot of iteration i is i & (depth - 1), not a division.
MAX_MPL = 16
"""Largest MPL the compiled kernel takes (a node's queues are fixed arrays of this size)."""

compiled = njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
"""Every helper: cached on disk, without reference counting (see the module docstring)
and, as only ``_begin`` and ``_simulate`` are called from Python, without wrappers."""
entry_point = njit(cache=True, _nrt=False)
inlined = njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True, inline="always")
"""A helper on the path of most events, called from one place: numba inlines it there."""

# Codes private to this module.  Only the CPU categories, which index the accounts
# columns of the outcome, must agree with the reference (checked below).
EV_ARRIVAL, EV_SEGMENT_END, EV_MESSAGE, EV_IO_DONE, EV_TICK, EV_TIMER, EV_TS_UPDATE = range(7)
READY, RUNNING, BLOCKED, IN_IO, DONE = range(5)
COMPUTE, SEND, RECEIVE, SPIN = range(4)
CAT_COMPUTE, CAT_SPIN, CAT_IDLE, CAT_REAL_IDLE, CAT_SWITCH, CAT_OVERHEAD = range(6)
if (CAT_COMPUTE, CAT_SPIN, CAT_IDLE, CAT_REAL_IDLE, CAT_SWITCH, CAT_OVERHEAD) != (
    state.CAT_COMPUTE, state.CAT_SPIN, state.CAT_IDLE, state.CAT_REAL_IDLE, state.CAT_SWITCH, state.CAT_OVERHEAD
):
    raise ImportError("schedlab.simulators.ics.compiled: CPU categories out of step with schedlab.simulators.ics.state")
ED, ENP, STAMP = 0, 1, 2
"""Columns of a GT row; a PT row uses ENP -> 0 and stamp -> 1 as in ``schemes.proc``."""

WAIT_SPIN, WAIT_BLOCK, WAIT_SPIN_BLOCK = range(3)
ON_MESSAGE_NOTHING, ON_MESSAGE_BOOST, ON_MESSAGE_WAKE, ON_MESSAGE_HYBRID = range(4)
PICK_TS, PICK_HYBRID, PICK_PROC, PICK_GANG = range(4)
TICK_ROUND_ROBIN, TICK_REORDER = range(2)
ALLOCATE_LEAST_LOADED, ALLOCATE_GANG = range(2)

ERR_NONE, ERR_DRY, ERR_MAX_EVENTS, ERR_OLD_MESSAGE, ERR_TOO_FAR_AHEAD, ERR_MPL, ERR_CAPACITY = range(7)

# What each scheme does at the hooks of ``schemes.base.Scheme``; its numbers (spin
# time, switch cost, boost period, MPL, collectives flag) are read from the scheme.
SCHEME_BEHAVIOUR = {  # (on a message for a process not running, pick, boost thread's choice, placement, PROC piggyback)
    "LOCAL": (ON_MESSAGE_NOTHING, PICK_TS, TICK_ROUND_ROBIN, ALLOCATE_LEAST_LOADED, False),
    "DCS": (ON_MESSAGE_BOOST, PICK_TS, TICK_ROUND_ROBIN, ALLOCATE_LEAST_LOADED, False),
    "PB": (ON_MESSAGE_NOTHING, PICK_TS, TICK_ROUND_ROBIN, ALLOCATE_LEAST_LOADED, False),
    "PROC-S": (ON_MESSAGE_NOTHING, PICK_TS, TICK_REORDER, ALLOCATE_LEAST_LOADED, True),
    "SB": (ON_MESSAGE_WAKE, PICK_TS, TICK_ROUND_ROBIN, ALLOCATE_LEAST_LOADED, False),
    "HYBRID": (ON_MESSAGE_HYBRID, PICK_HYBRID, TICK_ROUND_ROBIN, ALLOCATE_LEAST_LOADED, False),
    "PROC-B": (ON_MESSAGE_WAKE, PICK_PROC, TICK_ROUND_ROBIN, ALLOCATE_LEAST_LOADED, True),
    "GS": (ON_MESSAGE_NOTHING, PICK_GANG, TICK_ROUND_ROBIN, ALLOCATE_GANG, False),
    "BATCH": (ON_MESSAGE_NOTHING, PICK_TS, TICK_ROUND_ROBIN, ALLOCATE_LEAST_LOADED, False),
}
WAIT_CODES = {
    reference.SPIN_WAIT: WAIT_SPIN, reference.BLOCK_WAIT: WAIT_BLOCK, reference.SPIN_BLOCK_WAIT: WAIT_SPIN_BLOCK
}

I8, F8 = np.int64, np.float64
LEVELS = tstable.LEVELS
GLOBAL_DTYPE = np.dtype(
    [
        # run state
        ("sequence", I8), ("events", I8), ("finished_jobs", I8), ("sent", I8), ("arrived", I8), ("consumed", I8),
        ("heap_n", I8), ("live", I8), ("stale_n", I8), ("heap_stale", I8), ("free_head", I8), ("queue_head", I8), ("queue_tail", I8), ("gang_row", I8), ("updating", I8),
        ("decision_stamp", I8), ("done", I8), ("error", I8), ("err_a", I8), ("err_b", I8), ("err_c", I8),
        ("now", F8),
        # run parameters
        ("n_nodes", I8), ("n_jobs", I8), ("mpl", I8), ("depth", I8), ("max_events", I8),
        ("start_level", I8), ("top_level", I8),
        # scheme
        ("wait", I8), ("on_message", I8), ("pick", I8), ("tick_choice", I8), ("allocate", I8), ("piggyback", I8),
        ("marks_collectives", I8), ("boost_thread", I8), ("gang_timer", I8), ("time_sharing", I8),
        ("boost_preempts_spinner", I8),
        ("spin_time", F8), ("switch_cost", F8), ("boost_period", F8),
        # costs and constants
        ("interrupt_cost", F8), ("check_cost", F8), ("move_cost", F8), ("upload_cost", F8), ("download_cost", F8),
        ("pt_entry_cost", F8), ("gang_quantum", F8), ("seconds_per_byte", F8), ("startup", F8), ("epsilon", F8),
        ("ewma_weight", F8), ("update_period", F8),
        # the TS table, and GS's count of used cells per row of its matrix
        ("quantum", F8, (LEVELS,)), ("tqexp", I8, (LEVELS,)), ("slpret", I8, (LEVELS,)),
        ("maxwait", I8, (LEVELS,)), ("lwait", I8, (LEVELS,)),
        ("gang_used", I8, (MAX_MPL,)),
    ],
    align=True,
)
PROCESS_DTYPE = np.dtype(
    [
        ("job", I8), ("rank", I8), ("node", I8), ("level", I8), ("state", I8), ("activity", I8), ("iteration", I8),
        ("consumed", I8), ("needed", I8), ("collective", I8), ("queued_at", I8), ("dispwait", I8),
        ("pending", I8),  # pending messages of all iterations (``has_pending``)
        ("quantum_left", F8), ("remaining", F8), ("spin_left", F8), ("cpu_time", F8), ("finished", F8),
        ("own_latency", F8),  # scratch of ``_count_decision``: the least latency of this process's sources
    ],
    align=True,
)
NODE_DTYPE = np.dtype(
    [
        ("running", I8), ("mode", I8), ("token", I8), ("switches", I8), ("decisions", I8), ("conflicts", I8),
        ("false_decisions", I8), ("top_insertions", I8), ("boost_cursor", I8), ("ticking", I8),
        ("n_members", I8), ("n_ready", I8),
        ("resume_at", F8), ("pending_at", F8), ("segment_end_at", F8),
        ("free_at", F8), ("execution_duration", F8), ("arrival_rate", F8),
        ("last_switch", F8), ("enp", F8), ("chance_false", F8),
        ("accounts", F8, (len(state.CPU_CATEGORIES),)),
        ("members", I8, (MAX_MPL,)),  # node.processes
        ("ready", I8, (MAX_MPL,)),  # node.ready
        ("gang_cell", I8, (MAX_MPL,)),  # GS: the job in each row of this node's column, or -1
        # scratch: the oracle's latency cache of ``count_decision``; allocation marks; the
        # k-th node of a placement (row k, not this node)
        ("latency", F8), ("latency_stamp", I8), ("mark", I8), ("placement", I8),
        # the last event of this node's lane (its messages; row n_nodes: the arrivals), or -1
        ("lane_tail", I8),
    ],
    align=True,
)
JOB_DTYPE = np.dtype(
    [
        ("n_ranks", I8), ("n_iterations", I8), ("first_process", I8),
        ("compute_at", I8), ("io_at", I8), ("bytes_at", I8), ("pattern_at", I8),  # offsets into ``data``
        ("done_count", I8), ("row", I8),
        ("fifo", I8),  # the k-th job of the FCFS queue (row k, not this job)
        ("submit", F8), ("start", F8), ("end", F8),
    ],
    align=True,
)
HEAP_DTYPE = np.dtype([("time", F8), ("seq", I8), ("id", I8)], align=True)
EVENT_DTYPE = np.dtype(  # kind, payload, and the next free id while unused; its lane
    [
        ("kind", I8), ("a", I8), ("b", I8), ("source", I8), ("iteration", I8), ("next_free", I8),
        ("ed", F8), ("enp", F8),
        ("lane", I8), ("lane_next", I8), ("time", F8), ("seq", I8),
    ],
    align=True,
)

Sim = namedtuple("Sim", ["g", "procs", "nodes", "jobs", "data", "pending", "tables", "heap", "events"])
Sim.__doc__ = """State of one compiled run.

- ``g``: GLOBAL_DTYPE[1], counters, parameters and costs;
- ``procs``, ``nodes``, ``jobs``: record arrays;
- ``data``: every job's compute and io cells ([rank, iteration], row-major), message
  sizes and all-to-all flags (1.0/0.0), at the offsets of its ``jobs`` row;
- ``pending``: int32 [process, PENDING_DEPTH, 1 + max peers], per ring slot the count
  of messages then their source nodes in arrival order;
- ``tables``: PROC's GT rows (node n, source) -> (ED, ENP, T) at [n, source], then PT
  rows (process p, source) -> (ENP, T) at [n_nodes + p, source];
- ``heap``: HEAP_DTYPE[capacity], the event heap (time, sequence, event id);
- ``events``: EVENT_DTYPE[capacity], the events' kinds and payloads by id, and a free list.
"""


def _sim_type():
    """The numba type of a ``Sim`` (it depends on dtypes and dimensions only, not on sizes)."""
    return numba.typeof(
        Sim(
            g=np.zeros(1, GLOBAL_DTYPE), procs=np.zeros(1, PROCESS_DTYPE), nodes=np.zeros(1, NODE_DTYPE),
            jobs=np.zeros(1, JOB_DTYPE), data=np.zeros(1), pending=np.zeros((1, 1, 1), dtype=np.int32),
            tables=np.zeros((1, 1, 1)), heap=np.zeros(1, HEAP_DTYPE), events=np.zeros(1, EVENT_DTYPE),
        )
    )


SIM = _sim_type()


def typed(*arguments, returns=types.void):
    """Compile with a fixed signature.  Helpers that callers pass constants to need one:
    numba would otherwise compile a copy per constant (``Literal[int](3)``)."""
    return njit(returns(SIM, *arguments), cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)


# --- event heap ---------------------------------------------------------------------


@compiled
def _take(s, kind, a, b):
    """A free event id with its kind and payload set (-1, and ``ERR_CAPACITY``, if none is left)."""
    g = s.g[0]
    eid = g.free_head
    if eid < 0:  # the loop keeps a margin; reaching this is a bug
        g.error = ERR_CAPACITY
        return -1
    event = s.events[eid]
    g.free_head = event.next_free
    g.live += 1
    event.kind = kind
    event.a = a
    event.b = b
    return eid


@compiled
def _insert(s, t, sequence, eid):
    """Put event ``eid`` into the heap at (``t``, ``sequence``)."""
    g = s.g[0]
    n = g.heap_n
    g.heap_n = n + 1
    _climb(s.heap, 0, n, t, sequence, eid)


@inlined
def _move(heap, to, source):
    """Copy heap slot ``source`` into slot ``to``."""
    here = heap[to]
    entry = heap[source]
    here.time = entry.time
    here.seq = entry.seq
    here.id = entry.id


@inlined
def _climb(heap, base, i, t, sequence, eid):
    """Put event ``eid`` at (``t``, ``sequence``) into the heap stored from ``heap[base]``, from its slot ``i``
    (an int64) up: each parent it comes before moves down a level, and the event takes the slot left."""
    while i > 0:
        parent = (i - 1) >> 1
        above = heap[base + parent]
        if above.time < t or (above.time == t and above.seq < sequence):
            break
        _move(heap, base + i, base + parent)
        i = parent
    here = heap[base + i]
    here.time = t
    here.seq = sequence
    here.id = eid


@inlined
def _sink(heap, base, i, n, t, sequence, eid):
    """Put event ``eid`` at (``t``, ``sequence``) into the ``n``-event heap stored from ``heap[base]``, from its
    slot ``i`` down: each child it comes after, the smaller first, moves up a level."""
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        right = child + 1
        if right < n and (
            heap[base + right].time < heap[base + child].time
            or (heap[base + right].time == heap[base + child].time and heap[base + right].seq < heap[base + child].seq)
        ):
            child = right
        below = heap[base + child]
        if not (below.time < t or (below.time == t and below.seq < sequence)):
            break
        _move(heap, base + i, base + child)
        i = child
    here = heap[base + i]
    here.time = t
    here.seq = sequence
    here.id = eid


@typed(types.float64, types.int64, types.int64, types.int64, returns=types.int64)
def _push(s, t, kind, a, b):
    """Push an event; returns its id so that the caller can fill in a message's payload."""
    g = s.g[0]
    g.sequence += 1
    sequence = g.sequence
    eid = _take(s, kind, a, b)
    if eid < 0:
        return 0
    s.events[eid].lane = -1
    _insert(s, t, sequence, eid)
    return eid


@typed(types.int64, types.float64, types.int64, types.int64, types.int64, returns=types.int64)
def _push_lane(s, lane, t, kind, a, b):
    """``_push`` for an event of a lane: a sequence of events each at or after the one before
    (the messages a node sends, in the order its interface sends them; the arrivals).

    Only the first event of a lane waits in the heap; the next one enters it when that
    one is popped, with the time and sequence number it was pushed with.  The events
    pop in the same (time, sequence) order as if all were in the heap, and the heap
    stays a few times the number of nodes deep instead of every message in flight.  An
    event before its lane's last one (not expected) goes into the heap on its own."""
    g = s.g[0]
    g.sequence += 1
    sequence = g.sequence
    eid = _take(s, kind, a, b)
    if eid < 0:
        return 0
    event = s.events[eid]
    holder = s.nodes[lane]
    tail = holder.lane_tail
    if tail >= 0 and not s.events[tail].time <= t:
        event.lane = -1
        _insert(s, t, sequence, eid)
        return eid
    event.lane = lane
    event.lane_next = -1
    event.time = t
    event.seq = sequence
    holder.lane_tail = eid
    if tail >= 0:
        s.events[tail].lane_next = eid
    else:
        _insert(s, t, sequence, eid)
    return eid


@compiled
def _pop(s):
    """Remove the first event by (time, sequence); returns its time and id (still taken).

    Bottom-up: the hole left at the root goes down to a leaf along the smaller child
    (one comparison a level, without a branch), then the last event climbs from there.
    Sequence numbers are unique, so (time, sequence) orders the events totally and the
    pops come in the same order as from any other heap.  Indices are unsigned: no
    negative-index wraparound on the way down."""
    g = s.g[0]
    heap = s.heap
    zero = np.uint64(0)
    one = np.uint64(1)
    top = heap[zero]
    t = top.time
    eid = top.id
    n = np.uint64(g.heap_n - 1)
    g.heap_n = np.int64(n)
    if n > zero:
        last = heap[n]
        last_time = last.time
        last_seq = last.seq
        last_id = last.id
        i = zero
        child = one
        while child + one < n:  # both children are events
            left = heap[child]
            right = heap[child + one]
            right_first = (right.time < left.time) | ((right.time == left.time) & (right.seq < left.seq))
            child += np.uint64(right_first)
            _move(heap, i, child)
            i = child
            child = i + i + one
        if child < n:  # a single child
            _move(heap, i, child)
            i = child
        _climb(heap, 0, np.int64(i), last_time, last_seq, last_id)  # the last event climbs back from the leaf
    return t, eid


@compiled
def _sift_down(s, i, n):
    """Move the event at ``heap[i]`` down to its place among the first ``n`` (``_compact``'s heapify)."""
    item = s.heap[i]
    _sink(s.heap, 0, i, n, item.time, item.seq, item.id)


@compiled
def _stale_insert(s, t, sequence):
    """Add a superseded segment end's (time, sequence) to the stale heap (the upper half of ``heap``; its ids are
    never read)."""
    g = s.g[0]
    i = g.stale_n
    g.stale_n = i + 1
    _climb(s.heap, s.heap.shape[0] >> 1, i, t, sequence, -1)


@compiled
def _stale_pop(s):
    """Remove the first (time, sequence) of the stale heap; returns its time."""
    g = s.g[0]
    heap = s.heap
    base = heap.shape[0] >> 1
    t = heap[base].time
    n = g.stale_n - 1
    g.stale_n = n
    if n > 0:
        last = heap[base + n]
        _sink(heap, base, 0, n, last.time, last.seq, last.id)
    return t


@compiled
def _compact(s):
    """Take the superseded segment ends out of the heap, into the stale heap.

    A superseded segment end does nothing when popped but count as an event (as in
    the reference); most lie a quantum ahead and would otherwise crowd the heap that
    every event pops from.  The loop pops the stale heap's first entry whenever it
    comes before the heap's first event, so every event still counts at its turn."""
    g = s.g[0]
    heap = s.heap
    n = g.heap_n
    j = 0
    for i in range(n):
        entry = heap[i]
        eid = entry.id
        event = s.events[eid]
        if event.kind == EV_SEGMENT_END and event.b != s.nodes[event.a].token:
            _stale_insert(s, entry.time, entry.seq)
            event.next_free = g.free_head  # a segment end is in no lane
            g.free_head = eid
            g.live -= 1
        else:
            if j != i:
                kept = heap[j]
                kept.time = entry.time
                kept.seq = entry.seq
                kept.id = eid
            j += 1
    g.heap_n = j
    for i in range((j - 2) >> 1, -1, -1):
        _sift_down(s, i, j)
    g.heap_stale = 0


@compiled
def _free(s, eid):
    """Return a popped event's id to the free list; the next event of its lane enters the heap."""
    g = s.g[0]
    event = s.events[eid]
    lane = event.lane
    if lane >= 0:
        follower = event.lane_next
        if follower >= 0:
            _insert(s, s.events[follower].time, s.events[follower].seq, follower)
        else:
            s.nodes[lane].lane_tail = -1
    event.next_free = g.free_head
    g.free_head = eid
    g.live -= 1


# --- CPU time -----------------------------------------------------------------------


@compiled
def _settle(s, n, t):
    node = s.nodes[n]
    elapsed = t - node.resume_at
    if elapsed <= 0.0:
        return
    node.accounts[node.mode] += elapsed
    p = node.running
    if p >= 0:
        process = s.procs[p]
        process.quantum_left -= elapsed
        if node.mode == CAT_COMPUTE:
            process.remaining -= elapsed
            process.cpu_time += elapsed
        else:
            process.spin_left -= elapsed
    node.resume_at = t


@compiled
def _plan_segment(s, n):
    node = s.nodes[n]
    process = s.procs[node.running]
    activity = process.activity
    # Python's min(a, b): the first argument unless the second is smaller
    if activity == COMPUTE:
        node.mode = CAT_COMPUTE
        length = process.quantum_left if process.quantum_left < process.remaining else process.remaining
    elif activity == SPIN:
        node.mode = CAT_SPIN
        length = process.quantum_left if process.quantum_left < process.spin_left else process.spin_left
    else:
        node.mode = CAT_COMPUTE
        length = 0.0
    end = node.resume_at + (0.0 if 0.0 > length else length)
    node.segment_end_at = end
    if node.pending_at >= 0.0 and node.pending_at <= end:  # the live event comes first and looks again then
        return
    if node.pending_at >= 0.0:  # the live event is superseded
        s.g[0].heap_stale += 1
    node.token += 1
    node.pending_at = end
    _push(s, end, EV_SEGMENT_END, n, node.token)


@typed(types.int64, types.float64, types.float64, types.int64)
def _steal(s, n, t, seconds, category):
    _settle(s, n, t)
    node = s.nodes[n]
    resume_at = node.resume_at
    # Python's max(resume_at, t): the first argument unless the second is larger
    node.resume_at = (t if t > resume_at else resume_at) + seconds
    node.accounts[category] += seconds
    if node.running >= 0:
        _plan_segment(s, n)


@compiled
def _go_idle(s, n):
    node = s.nodes[n]
    node.running = -1
    if node.pending_at >= 0.0:  # the live event is superseded
        s.g[0].heap_stale += 1
    node.token += 1
    node.pending_at = -1.0
    node.mode = CAT_IDLE if node.n_members > 0 else CAT_REAL_IDLE


# --- the node scheduler -------------------------------------------------------------


@typed(types.int64, types.int64, types.boolean)
def _enqueue(s, n, p, front):
    g = s.g[0]
    process = s.procs[p]
    if process.activity == SPIN:  # a spinner taken off the CPU checks its messages first when back
        process.activity = RECEIVE
    g.sequence += 1
    process.state = READY
    process.queued_at = -g.sequence if front else g.sequence
    if not front:
        process.dispwait = 0
    node = s.nodes[n]
    node.ready[node.n_ready] = p  # ready is a subset of the node's <= MPL processes
    node.n_ready += 1


@compiled
def _remove(queue, count, p):
    """Remove ``p`` from the first ``count`` entries of ``queue``, keeping the others' order."""
    found = False
    for i in range(count):
        if found:
            queue[i - 1] = queue[i]
        elif queue[i] == p:
            found = True
    return count - 1 if found else count


@typed(types.int64, types.boolean, returns=types.int64)
def _highest_priority(s, n, collective_only):
    """``kernel.highest_priority`` (optionally among HYBRID's flagged processes only); -1 if none."""
    node = s.nodes[n]
    best = -1
    best_level = 0
    best_queued = 0
    for i in range(node.n_ready):
        p = node.ready[i]
        candidate = s.procs[p]
        if collective_only and candidate.collective == 0:
            continue
        if best < 0 or candidate.level > best_level or (
            candidate.level == best_level and candidate.queued_at < best_queued
        ):
            best = p
            best_level = candidate.level
            best_queued = candidate.queued_at
    return best


@compiled
def _waiting_with_messages(s, n):
    """How many ready processes have a pending message (``Node.waiting_with_messages``)."""
    node = s.nodes[n]
    count = 0
    for i in range(node.n_ready):
        if s.procs[node.ready[i]].pending > 0:
            count += 1
    return count


@compiled
def _process_reordering(s, n, t):
    """Algorithm 1 (``schemes.proc.process_reordering``) over the ready processes with messages.

    Sources are visited in ``pending_sources`` order; PT entries are aged in place.
    """
    g = s.g[0]
    node = s.nodes[n]
    tables = s.tables
    chosen = -1
    minimum = math.inf
    examined = 0
    for i in range(node.n_ready):
        p = node.ready[i]
        process = s.procs[p]
        row = g.n_nodes + p
        seen = 0
        ahead = 0
        while seen < process.pending:
            slot = (process.iteration + ahead) & (g.depth - 1)
            count = np.int64(s.pending[p, slot, 0])
            for k in range(count):
                source = np.int64(s.pending[p, slot, 1 + k])
                examined += 1
                execution_duration = tables[n, source, ED]
                node_enp = tables[n, source, ENP]
                stamp = tables[n, source, STAMP]
                if tables[row, source, 1] < stamp:
                    if execution_duration > 0.0:  # ED(0) = 0 until the source's first context switch
                        tables[row, source, 0] -= (stamp - tables[row, source, 1]) / execution_duration
                    if tables[row, source, 0] > node_enp:
                        tables[row, source, 0] = node_enp
                    tables[row, source, 1] = stamp
                erl = execution_duration * tables[row, source, 0] - (t - tables[row, source, 1])
                if erl < minimum:
                    minimum = erl
                    chosen = p
            seen += count
            ahead += 1
    return chosen, examined


@compiled
def _reorder(s, n, t):
    """``Piggyback.reorder``: Algorithm 1, charged per PT entry examined."""
    chosen, examined = _process_reordering(s, n, t)
    _steal(s, n, t, s.g[0].pt_entry_cost * examined, CAT_OVERHEAD)
    return chosen


@compiled
def _pick(s, n, t):
    g = s.g[0]
    kind = g.pick
    if kind == PICK_TS:
        return _highest_priority(s, n, False)
    if kind == PICK_HYBRID:  # a process in a collective phase first
        chosen = _highest_priority(s, n, True)
        return chosen if chosen >= 0 else _highest_priority(s, n, False)
    node = s.nodes[n]
    if kind == PICK_GANG:  # the first ready process of the current row
        for i in range(node.n_ready):
            p = node.ready[i]
            if s.jobs[s.procs[p].job].row == g.gang_row:
                return p
        return -1
    # PROC-B: check every process for messages; reorder at a conflict
    default = _highest_priority(s, n, False)
    _steal(s, n, t, g.check_cost * node.n_members, CAT_OVERHEAD)
    if _waiting_with_messages(s, n) < 2:
        return default
    chosen = _reorder(s, n, t)
    if chosen != default:
        _steal(s, n, t, g.move_cost, CAT_OVERHEAD)
    return chosen


@compiled
def _note_run_end(s, n, t):
    node = s.nodes[n]
    weight = s.g[0].ewma_weight
    ran = t - node.last_switch
    node.execution_duration = weight * ran + (1.0 - weight) * node.execution_duration
    if ran > 0.0:
        rate = node.top_insertions / ran
        node.arrival_rate = weight * rate + (1.0 - weight) * node.arrival_rate
    node.top_insertions = 0
    node.enp = _expected_processes(s, n)


@compiled
def _expected_processes(s, n):
    node = s.nodes[n]
    waiting = 0
    for i in range(node.n_members):
        p = node.members[i]
        if p != node.running and s.procs[p].pending > 0:
            waiting += 1
    return waiting * (1.0 + node.arrival_rate * node.execution_duration)


@compiled
def _rescheduling_latency(s, n):
    enp = _expected_processes(s, n)
    return s.nodes[n].execution_duration * enp + (math.floor(enp) + 1) * s.g[0].switch_cost


@compiled
def _best_latency(s, p, stamp, best):
    """Lower ``best`` to the oracle's latency of any source of ``p``'s pending messages."""
    process = s.procs[p]
    mask = s.g[0].depth - 1
    seen = 0
    ahead = 0
    while seen < process.pending:
        slot = (process.iteration + ahead) & mask
        count = np.int64(s.pending[p, slot, 0])
        for k in range(count):
            m = np.int64(s.pending[p, slot, 1 + k])
            source = s.nodes[m]
            if source.latency_stamp != stamp:  # computed once per source and decision
                source.latency_stamp = stamp
                source.latency = _rescheduling_latency(s, m)
            if source.latency < best:
                best = source.latency
        seen += count
        ahead += 1
    return best


@compiled
def _count_decision(s, n, chosen):
    """BCR and FDR bookkeeping (``Kernel.count_decision``)."""
    g = s.g[0]
    node = s.nodes[n]
    node.decisions += 1
    if node.n_ready < 2:
        return
    conflicting = _waiting_with_messages(s, n)
    if conflicting < 2:
        return
    node.conflicts += 1
    g.decision_stamp += 1
    stamp = g.decision_stamp
    best = math.inf
    for i in range(node.n_ready):
        p = node.ready[i]
        own = _best_latency(s, p, stamp, math.inf)
        s.procs[p].own_latency = own
        if own < best:
            best = own
    limit = best + g.epsilon
    if s.procs[chosen].own_latency > limit:  # chosen is ready: its latency is of this decision
        node.false_decisions += 1
    wrong = 0
    for i in range(node.n_ready):
        process = s.procs[node.ready[i]]
        if process.pending > 0 and process.own_latency > limit:
            wrong += 1
    node.chance_false += wrong / conflicting


@typed(types.int64, types.float64, types.int64)
def _dispatch(s, n, t, previous):
    node = s.nodes[n]
    chosen = _pick(s, n, t) if node.n_ready > 0 else -1
    if chosen < 0:
        if previous >= 0:
            _note_run_end(s, n, t)
        _go_idle(s, n)
        return
    _count_decision(s, n, chosen)
    node.n_ready = _remove(node.ready, node.n_ready, chosen)
    s.procs[chosen].state = RUNNING
    node.running = chosen
    if chosen == previous:
        _plan_segment(s, n)
    else:
        node.switches += 1
        if previous >= 0:
            _note_run_end(s, n, t)
        node.last_switch = t
        _steal(s, n, t, s.g[0].switch_cost, CAT_SWITCH)


@compiled
def _preempt_if_higher(s, n, p, t):
    running = s.nodes[n].running
    if running < 0:
        _settle(s, n, t)
        _dispatch(s, n, t, -1)
    elif s.procs[p].level > s.procs[running].level:
        _preempt(s, n, t, True)


@compiled
def _preempt(s, n, t, front):
    _settle(s, n, t)
    node = s.nodes[n]
    running = node.running
    _enqueue(s, n, running, front)
    node.running = -1
    _dispatch(s, n, t, running)


@typed(types.int64, types.int64, types.float64, types.int64, types.boolean)
def _boost(s, n, p, t, level, first):
    g = s.g[0]
    process = s.procs[p]
    if process.state == BLOCKED:
        process.level = level
        process.quantum_left = g.quantum[level]
        _enqueue(s, n, p, False)
        s.nodes[n].top_insertions += 1
    elif process.state == READY:
        process.level = level
        process.quantum_left = g.quantum[level]
        g.sequence += 1
        process.queued_at = -g.sequence if first else g.sequence
    else:
        return
    running = s.nodes[n].running
    if (
        g.boost_preempts_spinner != 0
        and running >= 0
        and s.procs[running].activity == SPIN
        and level >= s.procs[running].level
    ):
        _preempt(s, n, t, False)
    else:
        _preempt_if_higher(s, n, p, t)


# --- process life cycle -------------------------------------------------------------
#
# In the reference a segment end or a message can run a chain of tail calls: after
# compute -> communicate -> receive -> next iteration -> finish process -> try start.
# Here each link returns the next one as a STEP code and ``_continue`` runs the chain:
# the same calls in the same order.  Numba optimises every function again together
# with everything it calls, so a chain this deep would be compiled over and over.

STEP_DONE, STEP_AFTER_COMPUTE, STEP_COMMUNICATE, STEP_RECEIVE, STEP_NEXT_ITERATION, STEP_FINISH = range(6)


@inlined
def _segment_end(s, n, t):
    """The running process's segment ended; returns the next step for it."""
    g = s.g[0]
    _settle(s, n, t)
    p = s.nodes[n].running
    process = s.procs[p]
    activity = process.activity
    if activity == COMPUTE:
        if process.remaining <= g.epsilon:
            return STEP_AFTER_COMPUTE
    elif activity == SEND:
        return STEP_COMMUNICATE
    elif activity == RECEIVE:
        return STEP_RECEIVE
    elif process.spin_left <= g.epsilon:
        _leave_cpu(s, n, p, BLOCKED, t)
        return STEP_DONE
    # quantum used up: one TS step down, back to the queue
    process.level = g.tqexp[process.level]
    process.quantum_left = g.quantum[process.level]
    _enqueue(s, n, p, False)
    s.nodes[n].running = -1
    _dispatch(s, n, t, p)
    return STEP_DONE


@typed(types.int64, types.int64, types.int64, types.float64)
def _leave_cpu(s, n, p, new_state, t):
    process = s.procs[p]
    process.state = new_state
    if new_state == BLOCKED:  # once woken, it first consumes what has arrived
        process.activity = RECEIVE
    s.nodes[n].running = -1
    _dispatch(s, n, t, p)


@inlined
def _after_compute(s, n, p, t):
    process = s.procs[p]
    job = s.jobs[process.job]
    io_time = s.data[job.io_at + process.rank * job.n_iterations + process.iteration]
    process.activity = SEND
    if io_time > 0.0:
        _push(s, t + io_time, EV_IO_DONE, p, 0)
        _leave_cpu(s, n, p, IN_IO, t)
        return STEP_DONE
    return STEP_COMMUNICATE


@compiled
def _io_done(s, p, t):
    g = s.g[0]
    process = s.procs[p]
    n = process.node
    process.level = g.slpret[process.level]
    process.quantum_left = g.quantum[process.level]
    _enqueue(s, n, p, False)
    s.nodes[n].top_insertions += 1
    _preempt_if_higher(s, n, p, t)


@typed(types.int64, types.int64, returns=types.int64)
def _peers(s, j, iteration):
    """How many peers each rank of job ``j`` has in ``iteration`` (``len(Job.peers(...))``)."""
    job = s.jobs[j]
    size = job.n_ranks
    if s.data[job.pattern_at + iteration] != 0.0 or size < 3:
        return size - 1  # all-to-all; or a pair (one neighbour) or a single process (none)
    return 2


@compiled
def _send(s, n, destination, size_bytes, iteration, t):
    """``SendInterface.send`` and the MESSAGE push, with the sender's ED and ENP piggybacked."""
    g = s.g[0]
    node = s.nodes[n]
    start = node.free_at if node.free_at > t else t
    node.free_at = start + size_bytes * g.seconds_per_byte
    eid = _push_lane(s, n, node.free_at + g.startup, EV_MESSAGE, destination, 0)
    event = s.events[eid]
    event.source = n
    event.iteration = iteration
    event.ed = node.execution_duration
    event.enp = node.enp


@inlined
def _communicate(s, n, p, t):
    g = s.g[0]
    process = s.procs[p]
    j = process.job
    job = s.jobs[j]
    iteration = process.iteration
    size_bytes = s.data[job.bytes_at + iteration]
    all_to_all = s.data[job.pattern_at + iteration] != 0.0
    size = job.n_ranks
    rank = process.rank
    first = job.first_process
    # the peers in ``Job.peers`` order: ascending ranks
    if all_to_all:
        for peer in range(size):
            if peer != rank:
                _send(s, n, first + peer, size_bytes, iteration, t)
    elif size == 2:
        _send(s, n, first + 1 - rank, size_bytes, iteration, t)
    elif size >= 3:
        left = (rank - 1 + size) % size
        right = (rank + 1) % size
        _send(s, n, first + min(left, right), size_bytes, iteration, t)
        _send(s, n, first + max(left, right), size_bytes, iteration, t)
    messages = _peers(s, j, iteration)
    g.sent += messages
    if g.marks_collectives != 0 and all_to_all:
        process.collective = 1
    process.activity = RECEIVE
    overhead = g.upload_cost * messages if g.piggyback != 0 else 0.0
    if overhead > 0.0:
        _steal(s, n, t, overhead, CAT_OVERHEAD)
        return STEP_DONE
    return STEP_RECEIVE


@inlined
def _receive(s, n, p, t):
    g = s.g[0]
    process = s.procs[p]
    slot = process.iteration & (g.depth - 1)
    consumed = np.int64(s.pending[p, slot, 0])
    if consumed:
        process.consumed += consumed
        g.consumed += consumed
        s.pending[p, slot, 0] = 0
        process.pending -= consumed
    if process.consumed >= process.needed:
        return STEP_NEXT_ITERATION
    if g.wait == WAIT_BLOCK:
        _leave_cpu(s, n, p, BLOCKED, t)
        return STEP_DONE
    if process.activity != SPIN:
        process.activity = SPIN
        process.spin_left = g.spin_time if g.wait == WAIT_SPIN_BLOCK else math.inf
    _plan_segment(s, n)
    return STEP_DONE


@inlined
def _next_iteration(s, n, p, t):
    process = s.procs[p]
    j = process.job
    job = s.jobs[j]
    process.collective = 0
    process.iteration += 1
    if process.iteration == job.n_iterations:
        return STEP_FINISH
    # the new iteration's early arrivals are already in its ring slot
    process.consumed = 0
    process.needed = _peers(s, j, process.iteration)
    process.remaining = s.data[job.compute_at + process.rank * job.n_iterations + process.iteration]
    process.activity = COMPUTE
    _plan_segment(s, n)
    return STEP_DONE


@inlined
def _deliver(s, p, source, iteration, execution_duration, enp, t):
    """A message arrived for process ``p``; returns the next step for ``p``."""
    g = s.g[0]
    g.arrived += 1
    process = s.procs[p]
    n = process.node
    ahead = iteration - process.iteration
    slot = iteration & (g.depth - 1)
    if ahead < 0 or ahead >= g.depth or s.pending[p, slot, 0] + 1 >= s.pending.shape[2]:
        g.error = ERR_OLD_MESSAGE if ahead < 0 else (ERR_TOO_FAR_AHEAD if ahead >= g.depth else ERR_CAPACITY)
        g.err_a = p
        g.err_b = iteration
        g.err_c = process.iteration
        return STEP_DONE
    count = s.pending[p, slot, 0] + 1
    s.pending[p, slot, 0] = count
    s.pending[p, slot, count] = source
    process.pending += 1
    if g.piggyback != 0:  # Piggyback.note_arrival
        tables = s.tables
        tables[n, source, ED] = execution_duration
        tables[n, source, ENP] = enp
        tables[n, source, STAMP] = t
        tables[g.n_nodes + p, source, 0] = enp
        tables[g.n_nodes + p, source, 1] = t
        _steal(s, n, t, g.download_cost, CAT_OVERHEAD)
    if s.nodes[n].running == p:
        if process.activity == SPIN and ahead == 0:
            _settle(s, n, t)
            return STEP_RECEIVE
    elif g.on_message == ON_MESSAGE_BOOST or (g.on_message == ON_MESSAGE_WAKE and process.state == BLOCKED):
        # DCS whatever does not run, SB and PROC-B a blocked receiver: interrupt, boost to the top
        _steal(s, n, t, g.interrupt_cost, CAT_OVERHEAD)
        _boost(s, n, p, t, g.top_level, False)
    elif g.on_message == ON_MESSAGE_HYBRID and process.state == BLOCKED:  # wake at the TS wake-up level
        _steal(s, n, t, g.interrupt_cost, CAT_OVERHEAD)
        _boost(s, n, p, t, g.slpret[process.level], False)
    return STEP_DONE


@compiled
def _finish_process(s, n, p, t):
    """The process ended its last iteration; ``_continue`` then runs ``_try_start``."""
    g = s.g[0]
    process = s.procs[p]
    process.state = DONE
    process.finished = t
    node = s.nodes[n]
    node.n_members = _remove(node.members, node.n_members, p)
    node.running = -1
    job = s.jobs[process.job]
    job.done_count += 1
    _dispatch(s, n, t, p)
    if job.done_count == job.n_ranks:
        job.end = t
        g.finished_jobs += 1
        if g.allocate == ALLOCATE_GANG:  # Gang.on_job_end frees the job's cells
            for rank in range(job.n_ranks):
                s.nodes[s.procs[job.first_process + rank].node].gang_cell[job.row] = -1
            g.gang_used[job.row] -= job.n_ranks


@inlined
def _continue(s, step, p, t):
    """Run process ``p``'s chain of steps from ``step`` (see the comment above)."""
    n = s.procs[p].node
    while step != STEP_DONE:
        if step == STEP_AFTER_COMPUTE:
            step = _after_compute(s, n, p, t)
        elif step == STEP_COMMUNICATE:
            step = _communicate(s, n, p, t)
        elif step == STEP_RECEIVE:
            step = _receive(s, n, p, t)
        elif step == STEP_NEXT_ITERATION:
            step = _next_iteration(s, n, p, t)
        else:
            _finish_process(s, n, p, t)
            _try_start(s, t)
            step = STEP_DONE


# --- jobs ---------------------------------------------------------------------------


@compiled
def _least_loaded(s, size):
    """``Kernel.least_loaded_nodes`` into ``nodes[k].placement``: fewest processes, then lowest index."""
    g = s.g[0]
    nodes = s.nodes
    free = 0
    for m in range(g.n_nodes):
        if nodes[m].n_members < g.mpl:
            free += 1
    if free < size:
        return False
    taken = 0
    for load in range(g.mpl):
        for m in range(g.n_nodes):
            if taken < size and nodes[m].n_members == load:
                nodes[m].mark = 1
                taken += 1
    k = 0
    for m in range(g.n_nodes):  # the chosen nodes in index order
        if nodes[m].mark != 0:
            nodes[k].placement = m
            k += 1
            nodes[m].mark = 0
    return True


@compiled
def _gang_allocate(s, j, size):
    """``Gang.allocate``: the first row with ``size`` free columns, lowest columns first."""
    g = s.g[0]
    nodes = s.nodes
    for row in range(g.mpl):
        if g.n_nodes - g.gang_used[row] >= size:
            s.jobs[j].row = row
            k = 0
            for column in range(g.n_nodes):
                if k < size and nodes[column].gang_cell[row] < 0:
                    nodes[column].gang_cell[row] = j
                    nodes[k].placement = column
                    k += 1
            g.gang_used[row] += size
            return True
    return False


@compiled
def _try_start(s, t):
    g = s.g[0]
    while g.queue_head < g.queue_tail:
        j = s.jobs[g.queue_head].fifo
        size = s.jobs[j].n_ranks
        if g.allocate == ALLOCATE_GANG:
            placed = _gang_allocate(s, j, size)
        else:
            placed = _least_loaded(s, size)
        if not placed:
            return
        g.queue_head += 1
        _start_job(s, j, t)
        if g.error != ERR_NONE:
            return


@compiled
def _start_job(s, j, t):
    g = s.g[0]
    job = s.jobs[j]
    job.start = t
    if g.time_sharing != 0 and g.updating == 0:  # the next tick of the once-a-second clock
        g.updating = 1
        _push(s, (np.floor(t / g.update_period) + 1.0) * g.update_period, EV_TS_UPDATE, 0, 0)
    first = job.first_process
    size = job.n_ranks
    needed = _peers(s, j, 0)
    for rank in range(size):  # the new Process objects
        process = s.procs[first + rank]
        process.node = s.nodes[rank].placement
        process.level = g.start_level
        process.quantum_left = g.quantum[g.start_level]
        process.state = READY
        process.activity = COMPUTE
        process.remaining = s.data[job.compute_at + rank * job.n_iterations]
        process.spin_left = 0.0
        process.iteration = 0
        process.consumed = 0
        process.needed = needed
        process.collective = 0
        process.queued_at = 0
        process.cpu_time = 0.0
        process.finished = -1.0
    for rank in range(size):
        p = first + rank
        n = s.procs[p].node
        node = s.nodes[n]
        if node.n_members >= g.mpl:
            g.error = ERR_MPL
            g.err_a = n
            return
        node.members[node.n_members] = p
        node.n_members += 1
        _enqueue(s, n, p, False)
        if g.boost_thread != 0 and node.ticking == 0:  # Scheme.on_process_start
            node.ticking = 1
            _push(s, t + g.boost_period, EV_TICK, n, 0)
        _preempt_if_higher(s, n, p, t)


@compiled
def _round_robin(s, n):
    """``PeriodicBoost.choose``: the first candidate at or after the cursor in the node's process order."""
    node = s.nodes[n]
    count = node.n_members
    for step in range(count):
        p = node.members[(node.boost_cursor + step) % count]
        if s.procs[p].pending > 0 and s.procs[p].state == READY:  # a candidate: ready, with messages
            node.boost_cursor = (node.boost_cursor + step + 1) % count
            return p
    return -1  # unreachable: candidates are among the node's processes


@compiled
def _tick(s, n, t):
    """The periodic boost thread of PB and PROC-S (``Kernel.tick`` and ``PeriodicBoost.on_tick``)."""
    g = s.g[0]
    node = s.nodes[n]
    if node.n_members == 0:
        node.ticking = 0
        return
    _steal(s, n, t, g.check_cost * node.n_members, CAT_OVERHEAD)
    if _waiting_with_messages(s, n) > 0:
        if g.tick_choice == TICK_REORDER:
            chosen = _reorder(s, n, t)
        else:
            chosen = _round_robin(s, n)
        _steal(s, n, t, g.move_cost, CAT_OVERHEAD)
        _boost(s, n, chosen, t, g.top_level, g.tick_choice == TICK_REORDER)
    _push(s, t + g.boost_period, EV_TICK, n, 0)


@compiled
def _gang_timer(s, t):
    """``Gang.on_timer``: every node moves to the next row holding a job."""
    g = s.g[0]
    _push(s, t + g.gang_quantum, EV_TIMER, 0, 0)
    count = g.mpl
    candidate = -1
    for step in range(1, count + 1):
        row = (g.gang_row + step) % count
        if g.gang_used[row] > 0:
            candidate = row
            break
    if candidate < 0 or candidate == g.gang_row:
        return
    g.gang_row = candidate
    for n in range(g.n_nodes):
        node = s.nodes[n]
        if node.running >= 0:
            _preempt(s, n, t, True)
        elif node.n_ready > 0:
            _settle(s, n, t)
            _dispatch(s, n, t, -1)


@compiled
def _starvation_update(s, t):
    """``Kernel.starvation_update``: the TS table's once-a-second raise of long-queued processes."""
    g = s.g[0]
    for n in range(g.n_nodes):
        node = s.nodes[n]
        raised = False
        for i in range(node.n_ready):
            process = s.procs[node.ready[i]]
            process.dispwait += 1
            if process.dispwait > g.maxwait[process.level]:
                process.dispwait = 0
                process.level = g.lwait[process.level]
                process.quantum_left = g.quantum[process.level]
                g.sequence += 1
                process.queued_at = g.sequence
                raised = True
        if raised and node.running >= 0:
            best = _highest_priority(s, n, False)
            if s.procs[best].level > s.procs[node.running].level:
                _preempt(s, n, t, True)
    g.updating = 0
    for n in range(g.n_nodes):
        if s.nodes[n].n_members > 0:
            g.updating = 1
            break
    if g.updating != 0:
        _push(s, t + g.update_period, EV_TS_UPDATE, 0, 0)


# --- the loop -----------------------------------------------------------------------


@entry_point
def _begin(s):
    """What ``Kernel.run`` does before the first event: the arrivals, then ``scheme.start``."""
    g = s.g[0]
    for j in range(g.n_jobs):
        _push_lane(s, g.n_nodes, s.jobs[j].submit, EV_ARRIVAL, j, 0)
    if g.gang_timer != 0:
        _push(s, g.gang_quantum, EV_TIMER, 0, 0)


@entry_point
def _simulate(s, margin):
    """Run events until every job has ended (``g.done``), an error, or fewer than ``margin`` free heap slots."""
    g = s.g[0]
    capacity = s.events.shape[0]
    stale_at = s.heap.shape[0] >> 1
    while g.finished_jobs < g.n_jobs:
        if g.heap_n == 0 and g.stale_n == 0:
            g.error = ERR_DRY
            return
        if capacity - g.live - g.stale_n < margin:
            return
        if g.heap_stale >= 64 and 2 * g.heap_stale >= g.heap_n:
            _compact(s)
        if g.stale_n > 0 and (
            g.heap_n == 0
            or s.heap[stale_at].time < s.heap[0].time
            or (s.heap[stale_at].time == s.heap[0].time and s.heap[stale_at].seq < s.heap[0].seq)
        ):  # a superseded segment end's turn: counted, nothing else
            g.now = _stale_pop(s)
            g.events += 1
            if g.max_events >= 0 and g.events > g.max_events:
                g.error = ERR_MAX_EVENTS
                return
            continue
        t, eid = _pop(s)
        event = s.events[eid]
        kind = event.kind
        a = event.a
        b = event.b
        source = event.source
        iteration = event.iteration
        execution_duration = event.ed
        enp = event.enp
        _free(s, eid)
        g.now = t
        g.events += 1
        step = STEP_DONE
        p = -1
        if kind == EV_SEGMENT_END:
            node = s.nodes[a]
            if node.token != b:  # superseded: a stale event, counted and skipped
                if g.heap_stale > 0:
                    g.heap_stale -= 1
            else:
                node.pending_at = -1.0
                if t < node.segment_end_at:  # the segment was pushed back since: wait for its end
                    node.pending_at = node.segment_end_at
                    _push(s, node.segment_end_at, EV_SEGMENT_END, a, b)
                else:
                    step = _segment_end(s, a, t)
                    if step != STEP_DONE:
                        p = s.nodes[a].running
        elif kind == EV_MESSAGE:
            step = _deliver(s, a, source, iteration, execution_duration, enp, t)
            p = a
        elif kind == EV_IO_DONE:
            _io_done(s, a, t)
        elif kind == EV_TICK:
            _tick(s, a, t)
        elif kind == EV_ARRIVAL:
            s.jobs[g.queue_tail].fifo = a
            g.queue_tail += 1
            _try_start(s, t)
        elif kind == EV_TS_UPDATE:
            _starvation_update(s, t)
        else:
            _gang_timer(s, t)
        if step != STEP_DONE:  # the one place ``_continue`` is inlined
            _continue(s, step, p, t)
        if g.error != ERR_NONE:
            return
        if g.max_events >= 0 and g.events > g.max_events:
            g.error = ERR_MAX_EVENTS
            return
    for n in range(g.n_nodes):
        _settle(s, n, g.now)
    g.done = 1


# --- Python side: build the arrays, run, check, report ------------------------------


def _scheme_parameters(scheme, mpl: int) -> tuple:
    """The scheme object (``scheme`` is one, or a name), its behaviour codes and the effective MPL (as
    ``Kernel`` sets it)."""
    if isinstance(scheme, str):
        scheme = make_scheme(scheme)
    try:
        behaviour = SCHEME_BEHAVIOUR[scheme.name]
    except KeyError:
        raise ValueError(f"scheme {scheme.name!r} has no compiled counterpart") from None
    effective_mpl = int(scheme.mpl if scheme.mpl is not None else mpl)
    if not 1 <= effective_mpl <= MAX_MPL:
        raise ValueError(f"the compiled kernel takes an MPL from 1 to {MAX_MPL}, not {effective_mpl}")
    return scheme, behaviour, effective_mpl


def _build(jobs, n_nodes: int, mpl: int, scheme, behaviour, max_events: int | None, capacity: int) -> Sim:
    on_message, pick, tick_choice, allocate, piggyback = behaviour
    if PENDING_DEPTH < 1 or PENDING_DEPTH & (PENDING_DEPTH - 1):
        raise ValueError(f"PENDING_DEPTH must be a power of two, not {PENDING_DEPTH}")
    n_jobs = len(jobs)
    sizes = np.array([job.size for job in jobs], dtype=np.int64)
    iterations = np.array([job.iterations for job in jobs], dtype=np.int64)
    n_procs = int(sizes.sum())

    # data: all compute cells, then all io cells, then message sizes, then patterns
    cells = sizes * iterations
    cell_at = np.cumsum(cells) - cells
    iteration_at = np.cumsum(iterations) - iterations
    total_cells, total_iterations = int(cells.sum()), int(iterations.sum())
    data = np.zeros(2 * total_cells + 2 * total_iterations)
    for j, job in enumerate(jobs):
        shape = (job.size, job.iterations)
        c, i = int(cell_at[j]), int(iteration_at[j])
        data[c: c + shape[0] * shape[1]] = np.asarray(job.compute, dtype=np.float64).reshape(shape).ravel()
        data[total_cells + c: total_cells + c + shape[0] * shape[1]] = (
            np.asarray(job.io, dtype=np.float64).reshape(shape).ravel()
        )
        data[2 * total_cells + i: 2 * total_cells + i + job.iterations] = job.message_bytes[: job.iterations]
        data[2 * total_cells + total_iterations + i: 2 * total_cells + total_iterations + i + job.iterations] = (
            np.asarray(job.all_to_all[: job.iterations], dtype=bool)
        )

    job_rows = np.zeros(max(n_jobs, 1), dtype=JOB_DTYPE)
    job_rows["n_ranks"][:n_jobs] = sizes
    job_rows["n_iterations"][:n_jobs] = iterations
    job_rows["first_process"][:n_jobs] = np.cumsum(sizes) - sizes
    job_rows["compute_at"][:n_jobs] = cell_at
    job_rows["io_at"][:n_jobs] = total_cells + cell_at
    job_rows["bytes_at"][:n_jobs] = 2 * total_cells + iteration_at
    job_rows["pattern_at"][:n_jobs] = 2 * total_cells + total_iterations + iteration_at
    job_rows["row"] = -1
    job_rows["submit"][:n_jobs] = [job.submit for job in jobs]
    job_rows["start"] = -1.0
    job_rows["end"] = -1.0

    procs = np.zeros(max(n_procs, 1), dtype=PROCESS_DTYPE)
    procs["node"] = -1
    procs["finished"] = -1.0
    procs["job"][:n_procs] = np.repeat(np.arange(n_jobs), sizes)
    procs["rank"][:n_procs] = np.concatenate([np.arange(size) for size in sizes]) if n_jobs else []

    nodes = np.zeros(n_nodes + 1, dtype=NODE_DTYPE)  # row n_nodes: the arrivals' lane
    nodes["running"] = -1
    nodes["pending_at"] = -1.0
    nodes["mode"] = CAT_REAL_IDLE
    nodes["members"] = -1
    nodes["ready"] = -1
    nodes["gang_cell"] = -1
    nodes["lane_tail"] = -1

    g = np.zeros(1, dtype=GLOBAL_DTYPE)
    values = dict(
        free_head=0, n_nodes=n_nodes, n_jobs=n_jobs, mpl=mpl, depth=PENDING_DEPTH,
        max_events=-1 if max_events is None else int(max_events),
        start_level=tstable.START_LEVEL, top_level=tstable.TOP_LEVEL,
        wait=WAIT_CODES[scheme.wait], on_message=on_message, pick=pick, tick_choice=tick_choice,
        allocate=allocate, piggyback=int(piggyback), marks_collectives=int(bool(scheme.marks_collectives)),
        boost_thread=int(scheme.boost_period is not None), gang_timer=int(allocate == ALLOCATE_GANG),
        time_sharing=int(bool(scheme.time_sharing)), boost_preempts_spinner=int(bool(scheme.boost_preempts_spinner)),
        update_period=tstable.UPDATE_PERIOD,
        spin_time=scheme.spin_time, switch_cost=scheme.switch_cost,
        boost_period=scheme.boost_period if scheme.boost_period is not None else 0.0,
        interrupt_cost=reference.INTERRUPT_COST, check_cost=scheme_base.CHECK_COST, move_cost=scheme_base.MOVE_COST,
        upload_cost=scheme_proc.UPLOAD_COST, download_cost=scheme_proc.DOWNLOAD_COST,
        pt_entry_cost=scheme_proc.PT_ENTRY_COST, gang_quantum=scheme_gang.GANG_QUANTUM,
        seconds_per_byte=network.SECONDS_PER_BYTE, startup=network.STARTUP, epsilon=reference.EPSILON,
        ewma_weight=reference.EWMA_WEIGHT, quantum=tstable.QUANTUM, tqexp=tstable.TQEXP, slpret=tstable.SLPRET,
        maxwait=tstable.MAXWAIT, lwait=tstable.LWAIT,
    )
    for field, value in values.items():
        g[field] = value

    max_peers = max([int(size) - 1 for size in sizes] + [1])
    table_rows = n_nodes + n_procs if piggyback else 1
    events = np.zeros(capacity, dtype=EVENT_DTYPE)
    events["next_free"] = np.arange(1, capacity + 1)
    events["next_free"][-1] = -1
    return Sim(
        g=g, procs=procs, nodes=nodes, jobs=job_rows, data=data,
        pending=np.zeros((max(n_procs, 1), PENDING_DEPTH, 1 + max_peers), dtype=np.int32),
        tables=np.zeros((table_rows, n_nodes if piggyback else 1, 3)),
        heap=np.zeros(2 * capacity, dtype=HEAP_DTYPE), events=events,
    )


def _grow(s: Sim) -> Sim:
    """Double the heap and the event pool; the loop resumes where it stopped."""
    old = s.events.shape[0]
    heap = np.zeros(4 * old, dtype=HEAP_DTYPE)
    heap[:old] = s.heap[:old]  # the heap, then the stale heap
    heap[2 * old: 3 * old] = s.heap[old:]
    events = np.zeros(2 * old, dtype=EVENT_DTYPE)
    events[:old] = s.events
    events["next_free"][old:] = np.arange(old + 1, 2 * old + 1)
    events["next_free"][-1] = s.g["free_head"][0]  # the new ids, then the old free list
    s.g["free_head"] = old
    return s._replace(heap=heap, events=events)


def _raise_error(s: Sim, jobs, name: str, max_events: int | None) -> None:
    g = s.g[0]
    code = int(g["error"])
    if code == ERR_DRY:
        raise InvariantError(f"{name}: event heap ran dry with jobs unfinished (deadlock)")
    if code == ERR_MAX_EVENTS:
        raise InvariantError(f"{name}: more than {max_events} events; runaway simulation")
    if code in (ERR_OLD_MESSAGE, ERR_TOO_FAR_AHEAD):
        process = s.procs[int(g["err_a"])]
        job = jobs[int(process["job"])]
        iteration, own = int(g["err_b"]), int(g["err_c"])
        where = f"job {job.job_id} rank {int(process['rank'])} in iteration {own}"
        if code == ERR_OLD_MESSAGE:
            raise InvariantError(f"message of iteration {iteration} reached {where}")
        raise InvariantError(
            f"{name}: message of iteration {iteration} reached {where}, {iteration - own} iterations ahead: "
            f"more than the compiled kernel's ring of pending messages holds "
            f"(schedlab.simulators.ics.compiled.PENDING_DEPTH = {PENDING_DEPTH})"
        )
    if code == ERR_MPL:
        raise InvariantError(f"node {int(g['err_a'])} would exceed MPL {int(g['mpl'])}")
    raise InvariantError(f"{name}: compiled kernel error {code}: an internal buffer overflowed")


def _check_invariants(s: Sim, jobs, name: str) -> None:
    """``Kernel.check_invariants`` on the arrays (sums may run in another order: they only need tolerance)."""
    g = s.g[0]
    sent, arrived, consumed = int(g["sent"]), int(g["arrived"]), int(g["consumed"])
    if not (sent == arrived == consumed):
        raise InvariantError(f"{name}: messages sent {sent}, arrived {arrived}, consumed {consumed}")
    now = float(g["now"])
    n_nodes, n_procs = int(g["n_nodes"]), sum(job.size for job in jobs)
    procs, nodes = s.procs[:n_procs], s.nodes[:n_nodes]
    placed = procs["node"] >= 0
    computed = np.zeros(n_nodes)
    np.add.at(computed, procs["node"][placed], procs["cpu_time"][placed])
    for index in range(n_nodes):
        accounts = nodes["accounts"][index].tolist()
        horizon = max(now, float(nodes["resume_at"][index]))
        if abs(sum(accounts) - horizon) > 1e-9 * max(1.0, horizon):
            raise InvariantError(f"{name}: node {index} accounts {sum(accounts)} s of {horizon} s")
        if abs(accounts[CAT_COMPUTE] - computed[index]) > 1e-9 * max(1.0, computed[index]):
            raise InvariantError(f"{name}: node {index} charged {accounts[CAT_COMPUTE]} s of compute, "
                                 f"its processes used {computed[index]} s")
        if nodes["n_members"][index] or nodes["n_ready"][index] or nodes["running"][index] >= 0:
            raise InvariantError(f"{name}: node {index} still holds processes at the end")
    for j, job in enumerate(jobs):
        row = s.jobs[j]
        start, end = float(row["start"]), float(row["end"])
        if not (job.submit <= start <= end):
            raise InvariantError(f"{name}: job {job.job_id} submit {job.submit} start {start} end {end}")
        first = int(row["first_process"])
        cpu = procs["cpu_time"][first: first + job.size]
        demand = np.asarray(job.compute, dtype=np.float64).sum(axis=1)
        wrong = np.abs(cpu - demand) > 1e-9 * np.maximum(1.0, demand) + reference.EPSILON * job.iterations
        if wrong.any():
            rank = int(np.flatnonzero(wrong)[0])
            raise InvariantError(
                f"{name}: job {job.job_id} rank {rank} computed {float(cpu[rank])} s of {float(demand[rank])} s"
            )


def run_compiled(jobs, n_nodes: int, mpl: int, scheme, max_events: int | None = None) -> KernelOutcome:
    """Simulate ``jobs`` as ``Kernel(jobs, n_nodes, mpl, scheme, max_events).run()`` does (``scheme``: a
    ``Scheme`` or the name of one with its default options).

    Returns what ``Kernel.outcome()`` would, bit for bit, and raises the same
    ``InvariantError``s.  The ``Job`` objects are only read.
    """
    scheme, behaviour, effective_mpl = _scheme_parameters(scheme, mpl)
    name = scheme.name
    max_peers = max([job.size - 1 for job in jobs] + [1])
    # free heap slots the loop keeps before each event, more than one event can push:
    # two per free process slot (jobs started), a message to every peer, a segment per
    # node at a gang switch, and a few more
    margin = 4 * n_nodes * effective_mpl + 2 * max_peers + 64
    capacity = 1024
    while capacity < 2 * (len(jobs) + margin + 1):
        capacity *= 2
    s = _build(jobs, n_nodes, effective_mpl, scheme, behaviour, max_events, capacity)
    _begin(s)
    while True:
        _simulate(s, margin)
        g = s.g[0]
        if g["error"] != ERR_NONE:
            _raise_error(s, jobs, name, max_events)
        if g["done"]:
            break
        s = _grow(s)
    _check_invariants(s, jobs, name)
    n_jobs = len(jobs)
    job_rows, procs, nodes = s.jobs[:n_jobs], s.procs, s.nodes[:n_nodes]
    return KernelOutcome(
        end=float(g["now"]),
        events=int(g["events"]),
        messages=int(g["sent"]),
        mpl=effective_mpl,
        job_start=job_rows["start"].copy(),
        job_end=job_rows["end"].copy(),
        process_finish=[
            procs["finished"][first: first + size].copy()
            for first, size in zip(job_rows["first_process"].tolist(), job_rows["n_ranks"].tolist())
        ],
        accounts=nodes["accounts"].copy(),
        switches=nodes["switches"].copy(),
        decisions=nodes["decisions"].copy(),
        conflicts=nodes["conflicts"].copy(),
        false_decisions=nodes["false_decisions"].copy(),
        chance_false=nodes["chance_false"].copy(),
    )
