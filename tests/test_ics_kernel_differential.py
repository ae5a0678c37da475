"""Generated workloads: the compiled ICS kernel decides exactly as the reference kernel.

``schedlab.simulators.ics.compiled`` replays the rules of the readable pure-Python
``schedlab.simulators.ics.kernel.Kernel`` on numpy arrays and promises the same
``KernelOutcome`` to the last bit: every figure of the ICS stage comes from the compiled
kernel, and only the reference one is read and reviewed.  tests/test_ics_compiled.py holds
the promise on fixed workloads; here Hypothesis draws small random ones, so that the
corners those miss (one-process jobs, I/O, patterns that change per iteration, compute
times equal to a TS quantum, submissions at equal times and after a starvation update,
MPL 1, a job wider than the cluster, an event limit hit mid-run) are tried too.

Every example runs the same jobs (fresh ``Job`` objects built from the same drawn data)
through both kernels via ``run.run_kernel`` (``engine="python"`` and ``"compiled"``), under
the schemes both kernels support (all of them in turn for the hand-drawn jobs, a drawn one
for the generators), a drawn MPL and, but for NPB, a drawn ``boost_preempts_spinner`` rule,
and compares:

- every field of ``KernelOutcome`` (end, event and message counts, effective MPL, each job's
  start and end, each rank's finish, the per-node CPU accounts, switches, decisions, boost
  conflicts, false decisions and their chance level), bit for bit (same dtype, shape and
  bytes): the fixed-case tests use no tolerance and neither does this file, as the compiled
  kernel does the same floating-point operations in the same order;
- the per-job table and the summary metrics computed from each outcome
  (``metrics.job_table``, ``metrics.summarize``), bit for bit too;
- when the run fails (a job too wide for the cluster, an event limit), the same
  ``InvariantError`` message.

Three families of workloads:

- hand-drawn jobs (80 examples x 9 schemes, MPL 1-6): 1 to 5 jobs of 1 to 4 iterations on 1 to
  6 nodes, compute, I/O, message size and pattern per rank and iteration from small sets of
  values (equal times are common), submitted between 0 and 1.2 s; half the cases crowded
  (3 to 5 jobs of 2 or more ranks on 2 to 4 nodes, submitted together).  A further 60
  examples let a job be one node wider than the cluster and draw an event limit;
- the synthetic wl1..wl5 generator (``SyntheticSpec``, 30 examples): 1 to 4 jobs on 32 nodes,
  compression 4e4 to 3e5, skew 0 to 0.6, either load, either reading of the stated means,
  simultaneous or not, MPL 1-5;
- the NPB generator (``NpbSpec``, 12 examples): 1 or 2 jobs of 64 ranks of up to 3
  applications, iteration share 5e-4 or 1e-3, MPL 1-3.

Hypothesis runs derandomized and without its example database, so CI sees the same
examples every time; the file takes about 30 s of CPU on one core (most of it the
reference kernel) once numba's cache is warm.

The NPB generator's first example without task skew found a bug (its jobs had one process,
not 64); its minimal case is kept as a test of its own.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from schedlab.simulators.core.invariants import InvariantError
from schedlab.simulators.ics import compiled
from schedlab.simulators.ics.kernel import Kernel
from schedlab.simulators.ics.metrics import job_table, summarize
from schedlab.simulators.ics.network import BYTES_16K
from schedlab.simulators.ics.outcome import KernelOutcome
from schedlab.simulators.ics.run import run_kernel
from schedlab.simulators.ics.schemes import SCHEMES, make_scheme
from schedlab.simulators.ics.state import Job
from schedlab.simulators.ics.workload import (
    MEAN_INTERARRIVAL,
    MEAN_READINGS,
    NPB_APPS,
    NPB_NODES,
    WORKLOADS,
    NpbSpec,
    SyntheticSpec,
    communication_time,
    npb_jobs,
    peer_count,
    synthetic_jobs,
)

SUPPORTED_SCHEMES = sorted(set(SCHEMES) & set(compiled.SCHEME_BEHAVIOUR))
"""The schemes both kernels run (all nine today; a scheme without a compiled twin would drop out)."""
OUTCOME_FIELDS = tuple(field.name for field in dataclasses.fields(KernelOutcome))

# --- comparing outcomes ----------------------------------------------------------------


def _same_bits(a, b) -> bool:
    """Bit-for-bit equality of two numbers or arrays: same dtype, shape and bytes (so 0.0 is not -0.0)."""
    x, y = np.asarray(a), np.asarray(b)
    if x.dtype.kind in "iub" and y.dtype.kind in "iub" and x.ndim == y.ndim == 0:
        return int(x) == int(y)  # a Python int against a numpy one
    if x.ndim == y.ndim == 0 and x.dtype.kind == y.dtype.kind == "f":
        x, y = x.astype(np.float64), y.astype(np.float64)  # a Python float against a numpy one
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


def _describe(a, b) -> str:
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape or x.dtype != y.dtype:
        return f"{x.dtype}{x.shape} against {y.dtype}{y.shape}"
    unequal = np.flatnonzero(x.ravel() != y.ravel())
    if not len(unequal):
        return "equal values, different bits (signed zero or NaN payload)"
    first = int(unequal[0])
    difference = np.abs(x.ravel().astype(float) - y.ravel().astype(float)).max()
    return (f"{len(unequal)} value(s) differ, first at flat index {first}: {x.ravel()[first].item()!r} against "
            f"{y.ravel()[first].item()!r}, largest difference {difference.item()!r}")


def outcome_differences(got: KernelOutcome, expected: KernelOutcome) -> list[str]:
    """One line per field of ``KernelOutcome`` that is not bit-for-bit equal; empty when the outcomes agree.

    Walks ``dataclasses.fields``, so a field added to the outcome is compared without editing this."""
    wrong = []
    for name in OUTCOME_FIELDS:
        a, b = getattr(got, name), getattr(expected, name)
        if name == "process_finish":
            if len(a) != len(b):
                wrong.append(f"process_finish: {len(a)} jobs against {len(b)}")
                continue
            wrong += [f"process_finish[{j}]: {_describe(x, y)}" for j, (x, y) in enumerate(zip(a, b))
                      if not _same_bits(x, y)]
        elif not _same_bits(a, b):
            wrong.append(f"{name}: {_describe(a, b)}")
    return wrong


def summary_differences(got: dict, expected: dict) -> list[str]:
    """Keys of two ``metrics.summarize`` dicts whose values are not bit-for-bit equal (None only equals None)."""
    wrong = [f"{key}: only in one summary" for key in sorted(set(got) ^ set(expected))]
    for key in sorted(set(got) & set(expected)):
        a, b = got[key], expected[key]
        if a is None or b is None or isinstance(a, str) or isinstance(b, str):
            same = a == b if type(a) is type(b) else False
        else:
            same = _same_bits(a, b)
        if not same:
            wrong.append(f"{key}: {a!r} against {b!r}")
    return wrong


def assert_same_runs(make_jobs, n_nodes: int, mpl: int, scheme: str, boost_preempts_spinner: bool = True,
                     max_events: int | None = None) -> KernelOutcome | str:
    """Run fresh jobs through both kernels; assert the same outcome and metrics, or the same failure.

    Returns the reference outcome, or the error message both kernels raised."""
    results = {}
    for engine in ("python", "compiled"):
        jobs = make_jobs()
        try:
            outcome = run_kernel(jobs, scheme, n_nodes, mpl, max_events=max_events, engine=engine,
                                 boost_preempts_spinner=boost_preempts_spinner)
        except InvariantError as error:
            results[engine] = ("error", str(error))
        else:
            results[engine] = ("outcome", outcome, jobs)
    reference, twin = results["python"], results["compiled"]
    where = f"{scheme} on {n_nodes} nodes, MPL {mpl}, boost_preempts_spinner={boost_preempts_spinner}"
    assert reference[0] == twin[0], f"{where}: reference gave {reference[:2]!r}, compiled {twin[:2]!r}"
    if reference[0] == "error":
        assert twin[1] == reference[1], f"{where}: the kernels fail differently"
        return reference[1]
    expected, got = reference[1], twin[1]
    wrong = outcome_differences(got, expected)
    assert not wrong, f"{where}: the compiled outcome differs from the reference in\n  " + "\n  ".join(wrong)
    # the metrics, from the outcome and the (reference's) jobs; the compiled kernel only reads its jobs
    reference_jobs = reference[2]
    table_expected, table_got = job_table(reference_jobs, expected), job_table(reference_jobs, got)
    assert table_got.equals(table_expected), f"{where}: job tables differ"
    summary_wrong = summary_differences(summarize(table_got, got, n_nodes),
                                        summarize(table_expected, expected, n_nodes))
    assert not summary_wrong, f"{where}: summaries differ in\n  " + "\n  ".join(summary_wrong)
    return expected


# --- hand-drawn jobs -------------------------------------------------------------------

COMPUTE_TIMES = (5e-4, 1e-3, 2.5e-3, 0.02, 0.04, 0.12, 0.25)
"""Seconds of compute per rank and iteration; 20, 40 and 120 ms are TS quanta (levels 59, 40-58, 20-29),
so a segment often ends exactly as its quantum runs out."""
IO_TIMES = (0.0, 0.0, 0.0, 1e-3, 0.03)
MESSAGE_BYTES = (4.0, 800.0, float(BYTES_16K), 65536.0)
SUBMIT_TIMES = (0.0, 0.0, 1e-3, 0.05, 0.3, 1.2)
"""Equal submissions are common; 1.2 s comes after the first once-a-second starvation update."""
MAX_NODES, MAX_JOBS, MAX_ITERATIONS = 6, 5, 4


@st.composite
def job_data(draw, sizes, submits, compute_times):
    """One job as plain data: (type, submit, compute rows, io rows, message bytes, all-to-all flags)."""
    size = draw(sizes)
    iterations = draw(st.integers(1, MAX_ITERATIONS))

    def rows(values):
        cells = draw(st.lists(st.sampled_from(values), min_size=size * iterations, max_size=size * iterations))
        return tuple(tuple(cells[rank * iterations: (rank + 1) * iterations]) for rank in range(size))

    return (
        draw(st.sampled_from(("J1", "J2", "J3", "J4"))),
        draw(st.sampled_from(submits)),
        rows(compute_times),
        rows(IO_TIMES),
        tuple(draw(st.lists(st.sampled_from(MESSAGE_BYTES), min_size=iterations, max_size=iterations))),
        tuple(draw(st.lists(st.booleans(), min_size=iterations, max_size=iterations))),
    )


@st.composite
def small_cases(draw, too_wide: bool = False):
    """(nodes, jobs as plain data); with ``too_wide`` a job may need one node more than the cluster has.

    Half the cases are crowded: 3 to 5 jobs of 2 or more ranks on 2 to 4 nodes, submitted together, with short
    computations, so that several processes of a node wait with messages (boost conflicts, PROC's choices)."""
    if draw(st.booleans()):
        n_nodes, n_jobs = draw(st.integers(2, 4)), draw(st.integers(3, MAX_JOBS))
        sizes = st.integers(2, n_nodes + 1 if too_wide else n_nodes)
        submits, compute_times = (0.0, 1e-3), COMPUTE_TIMES[:4]
    else:
        n_nodes, n_jobs = draw(st.integers(1, MAX_NODES)), draw(st.integers(1, MAX_JOBS))
        sizes = st.integers(1, n_nodes + 1 if too_wide else n_nodes)
        submits, compute_times = SUBMIT_TIMES, COMPUTE_TIMES
    return n_nodes, tuple(draw(job_data(sizes, submits, compute_times)) for _ in range(n_jobs))


def build_jobs(data) -> list[Job]:
    """Fresh ``Job`` objects from drawn data (each kernel needs its own: the reference one writes to them)."""
    jobs = []
    for index, (kind, submit, compute, io, message_bytes, all_to_all) in enumerate(data):
        compute, io = np.array(compute, dtype=float), np.array(io, dtype=float)
        size = compute.shape[0]
        dedicated = sum(
            float((compute[:, k] + io[:, k]).max())
            + (communication_time(peer_count(size, all_to_all[k]), message_bytes[k]) if size > 1 else 0.0)
            for k in range(compute.shape[1])
        )
        jobs.append(Job(index, index + 1, f"{kind}-{'AA' if all_to_all[0] else 'NN'}", submit, compute, io,
                        list(message_bytes), list(all_to_all), dedicated))
    return jobs


schemes = st.sampled_from(SUPPORTED_SCHEMES)
mpls = st.integers(1, 6)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(small_cases(), mpls, st.booleans())
def test_compiled_kernel_equals_reference_on_drawn_jobs(case, mpl, boost_preempts_spinner):
    """Each drawn workload under every scheme (drawing the scheme would favour the first ones)."""
    n_nodes, data = case
    outcomes = [assert_same_runs(lambda: build_jobs(data), n_nodes, mpl, scheme, boost_preempts_spinner)
                for scheme in SUPPORTED_SCHEMES]
    failed = [o for o in outcomes if isinstance(o, str)]
    assert not failed, f"both kernels failed alike on a workload that fits: {failed}"
    # what the examples reach (``--hypothesis-show-statistics`` lists the shares)
    event("past a starvation update" if max(o.end for o in outcomes) > 1.0 else "ends within the first second")
    event("boost conflicts" if any(o.conflicts.any() for o in outcomes) else "no boost conflict")
    event("false decisions" if any(o.false_decisions.any() for o in outcomes) else "no false decision")
    event("some node switches >= 10 times" if any(o.switches.max() >= 10 for o in outcomes) else "few switches")


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(small_cases(too_wide=True), schemes, mpls, st.data())
def test_both_kernels_fail_alike_at_an_event_limit_or_on_a_job_too_wide(case, scheme, mpl, data):
    """Under an event limit drawn below or at the run's length, and with jobs that may not fit (SB and the
    like run dry, GS's timer ticks on until the limit): the same outcome, or the same error message."""
    n_nodes, jobs = case
    try:
        kernel = Kernel(build_jobs(jobs), n_nodes, mpl, make_scheme(scheme), max_events=3000)
        kernel.run()
        length = kernel.events
    except InvariantError:
        length = 3000
    limit = data.draw(st.integers(1, length), label="max_events")
    outcome = assert_same_runs(lambda: build_jobs(jobs), n_nodes, mpl, scheme, max_events=limit)
    if isinstance(outcome, str):
        event("both ran dry" if "ran dry" in outcome else "both stopped at the event limit"
              if "events; runaway" in outcome else outcome)
    else:
        event("both ran to the end")


# --- the workload generators -----------------------------------------------------------


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(
    st.builds(
        SyntheticSpec,
        workload=st.sampled_from(sorted(WORKLOADS)),
        load=st.sampled_from(sorted(MEAN_INTERARRIVAL)),
        n_jobs=st.integers(1, 4),
        skew=st.sampled_from((0.0, 0.1, 0.6)),
        compression=st.sampled_from((4e4, 1e5, 3e5)),
        simultaneous=st.booleans(),
        seed=st.integers(1, 10_000),
        means=st.sampled_from(MEAN_READINGS),
    ),
    schemes,
    st.integers(1, 5),
    st.booleans(),
)
def test_compiled_kernel_equals_reference_on_synthetic_workloads(spec, scheme, mpl, boost_preempts_spinner):
    """wl1..wl5 jobs of 2 to 32 processes on the paper's 32 nodes, a few compressed iterations each."""
    outcome = assert_same_runs(lambda: synthetic_jobs(spec), 32, mpl, scheme, boost_preempts_spinner)
    event("boost conflicts" if outcome.conflicts.any() else "no boost conflict")
    event("false decisions" if outcome.false_decisions.any() else "no false decision")


@settings(max_examples=12, deadline=None, derandomize=True, database=None)
@given(
    st.builds(
        NpbSpec,
        apps=st.lists(st.sampled_from(sorted(NPB_APPS)), min_size=1, max_size=3, unique=True).map(tuple),
        n_jobs=st.integers(1, 2),
        iteration_share=st.sampled_from((5e-4, 1e-3)),
        skew=st.sampled_from((0.0, 0.05, 0.1)),
        mean_interarrival=st.sampled_from((0.0, 0.02)),
        seed=st.integers(1, 10_000),
    ),
    schemes,
    st.integers(1, 3),
)
def test_compiled_kernel_equals_reference_on_npb_workloads(spec, scheme, mpl):
    """64-process NPB jobs (MG's nearest-neighbour phases let ranks run iterations ahead)."""
    assert_same_runs(lambda: npb_jobs(spec), NPB_NODES, mpl, scheme)


def test_compiled_kernel_equals_reference_on_unskewed_npb_jobs():
    """The case the generated test found when it first drew skew 0: npb_job gave the unskewed compute one row, so
    the job had one process instead of 64 (the reference kernel ran it so; the compiled one raised ValueError)."""
    spec = NpbSpec(apps=("BT",), n_jobs=1, iteration_share=5e-4, skew=0.0, mean_interarrival=0.0, seed=1)
    assert [job.size for job in npb_jobs(spec)] == [NPB_NODES]
    assert_same_runs(lambda: npb_jobs(spec), NPB_NODES, 1, "BATCH")


# --- the comparison can fail -----------------------------------------------------------

SANITY_CASE = (3, (
    ("J1", 0.0, ((2e-3, 0.02), (1e-3, 0.04)), ((0.0, 1e-3), (0.0, 0.0)), (16384.0, 8.0), (False, True)),
    ("J2", 0.0, ((0.02, 0.02, 5e-4),), ((0.0, 0.0, 0.0),), (8.0, 8.0, 8.0), (False, False, False)),
    ("J3", 1e-3, ((1e-3,), (2.5e-3,), (0.12,)), ((0.0,), (1e-3,), (0.0,)), (65536.0,), (True,)),
))


def _nudged(value):
    """The smallest change of ``value``: one ulp up for floats, one up for integers."""
    array = np.array(value, copy=True)
    flat = array.reshape(-1)
    flat[0] = np.nextafter(flat[0], np.inf) if array.dtype.kind == "f" else flat[0] + 1
    return array if array.ndim else array.item()


@pytest.mark.parametrize("field", OUTCOME_FIELDS)
def test_the_comparison_reports_a_one_ulp_change_of_any_outcome_field(field):
    n_nodes, data = SANITY_CASE
    outcome = assert_same_runs(lambda: build_jobs(data), n_nodes, 2, "PROC-B")
    assert isinstance(outcome, KernelOutcome) and outcome_differences(outcome, dataclasses.replace(outcome)) == []
    if field == "process_finish":
        changed = [_nudged(outcome.process_finish[0]), *outcome.process_finish[1:]]
    else:
        changed = _nudged(getattr(outcome, field))
    wrong = outcome_differences(dataclasses.replace(outcome, **{field: changed}), outcome)
    assert len(wrong) == 1 and wrong[0].startswith(field), wrong
    # and so does the summary comparison, for a one-ulp change of one metric
    summary = summarize(job_table(build_jobs(data), outcome), outcome, n_nodes)
    assert summary_differences(summary, dict(summary)) == []
    nudged = {**summary, "mean_response": _nudged(summary["mean_response"])}
    assert summary_differences(nudged, summary) == [f"mean_response: {nudged['mean_response']!r} against "
                                                    f"{summary['mean_response']!r}"]


def test_assert_same_runs_fails_when_the_kernels_disagree(monkeypatch):
    """Swap in a 'compiled' kernel that ends every job a picosecond late: the check must fail, naming job_end."""
    from schedlab.simulators.ics import run

    n_nodes, data = SANITY_CASE
    honest = run.run_kernel

    def late(jobs, scheme, n, mpl, max_events=None, engine="compiled", boost_preempts_spinner=True):
        outcome = honest(jobs, scheme, n, mpl, max_events, engine, boost_preempts_spinner)
        if engine == "compiled":
            outcome = dataclasses.replace(outcome, job_end=outcome.job_end + 1e-12)
        return outcome

    monkeypatch.setitem(globals(), "run_kernel", late)
    with pytest.raises(AssertionError, match=r"differs from the reference in\s+job_end: 3 value\(s\) differ"):
        assert_same_runs(lambda: build_jobs(data), n_nodes, 2, "SB")
