"""Scheme decisions: PROC's reordering (Algorithm 1, Fig. 2) and the gang matrix."""

from __future__ import annotations

import pytest

from schedlab.simulators.ics.kernel import Kernel
from schedlab.simulators.ics.schemes import make_scheme
from schedlab.simulators.ics.schemes.proc import process_reordering
from schedlab.simulators.ics.state import Job


class Candidate:
    """What Algorithm 1 reads of a process: its pending messages' sources and its PT row."""

    def __init__(self, name, sources, peer_table):
        self.name = name
        self.sources = list(sources)
        self.peer_table = {source: list(entry) for source, entry in peer_table.items()}

    def pending_sources(self):
        return self.sources


NJ, NM, NL = 1, 2, 3  # the paper's Fig. 2: Nj heavily contended, Nm idle, Nl in between


def figure_2_table(t0):
    ed = 1e-3
    return {NJ: [ed, 4.0, t0], NM: [ed, 0.0, t0], NL: [ed, 1.0, t0]}


def test_proc_schedules_the_process_whose_correspondent_is_on_the_idle_node():
    t0 = 0.010
    gt = figure_2_table(t0)
    p1 = Candidate("P1k", [NJ], {NJ: [4.0, t0]})
    p3 = Candidate("P3k", [NM], {NM: [0.0, t0]})
    chosen, examined = process_reordering([p1, p3], gt, t0 + 1e-4)
    assert chosen is p3 and examined == 2
    # at t': P2k (correspondent on Nl, ENP 1) goes before P1k (Nj, ENP 4)
    p2 = Candidate("P2k", [NL], {NL: [1.0, t0]})
    chosen, _ = process_reordering([p1, p2], gt, t0 + 2e-4)
    assert chosen is p2


def test_stale_pt_entries_are_aged_with_the_newer_global_entry():
    ed = 1e-3
    gt = {NJ: [ed, 1.0, 0.004]}
    stale = Candidate("P", [NJ], {NJ: [5.0, 0.0]})
    chosen, _ = process_reordering([stale], gt, 0.004)
    # ENP drops by one per ED elapsed (4 ms / 1 ms = 4) to 1.0, then is capped by GT's 1.0
    assert chosen is stale and stale.peer_table[NJ] == [pytest.approx(1.0), 0.004]


def test_ties_go_to_the_first_candidate_and_no_candidate_gives_none():
    gt = {NM: [1e-3, 0.0, 0.0]}
    a = Candidate("a", [NM], {NM: [0.0, 0.0]})
    b = Candidate("b", [NM], {NM: [0.0, 0.0]})
    assert process_reordering([a, b], gt, 0.0)[0] is a
    assert process_reordering([], gt, 0.0) == (None, 0)


def sized_job(index, size):
    return Job(index, index + 1, "J1-NN", 0.0, [[1e-3]] * size, [[0.0]] * size, [16384.0], [False], 1e-3)


def test_gang_matrix_places_every_job_in_one_row():
    scheme = make_scheme("GS")
    kernel = Kernel([], 32, 2, scheme)
    scheme.start(kernel)
    big, medium, small, too_many = sized_job(0, 20), sized_job(1, 16), sized_job(2, 12), sized_job(3, 20)
    assert scheme.allocate(kernel, big) == list(range(20)) and big.row == 0
    # 12 columns are free in row 0 and 32 in row 1: a 16-process job must go to row 1 whole
    assert scheme.allocate(kernel, medium) == list(range(16)) and medium.row == 1
    assert scheme.allocate(kernel, small) == list(range(20, 32)) and small.row == 0
    assert scheme.allocate(kernel, too_many) is None  # 16 free columns in row 1, 0 in row 0
    big.nodes = list(range(20))
    scheme.on_job_end(kernel, big)
    assert scheme.allocate(kernel, too_many) == list(range(20)) and too_many.row == 0


def test_batch_runs_one_process_per_node():
    scheme = make_scheme("BATCH")
    kernel = Kernel([], 4, 5, scheme)
    assert kernel.mpl == 1
