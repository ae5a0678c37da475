"""Random small workloads: every policy yields a valid schedule (the engine checks its
invariants itself), FCFS matches a naive independent re-implementation, and the
schedule is deterministic."""

from hypothesis import given, settings
from hypothesis import strategies as st

from schedlab.simulators.batch.replay import replay
from tests.conftest import make_jobs

CAPACITY = 8

job_rows = st.lists(
    st.tuples(
        st.integers(0, 200),  # submit
        st.integers(1, CAPACITY),  # procs
        st.integers(1, 60),  # requested
        st.integers(1, 60),  # run
    ),
    min_size=1,
    max_size=25,
)


def naive_fcfs(rows, capacity):
    """Time-ordered FCFS written for the test: jobs in submit order (stable), each
    starts at the first instant >= max(submit, previous start) when enough processors
    are free, given the jobs already placed."""
    order = sorted(range(len(rows)), key=lambda i: rows[i][0])
    placed = []  # (start, end, procs)
    starts = {}
    earliest = 0
    for i in order:
        submit, procs, requested, run = rows[i]
        actual = min(requested, run)
        t = max(submit, earliest)
        candidates = sorted({t} | {end for _, end, _ in placed if end > t})
        for c in candidates:
            # the machine only frees processors after c, so fitting at c suffices
            used = sum(p for s, e, p in placed if s <= c < e)
            if used + procs <= capacity:
                t = c
                break
        starts[i + 1] = t
        placed.append((t, t + actual, procs))
        earliest = t
    return starts


@settings(max_examples=60, deadline=None)
@given(job_rows)
def test_fcfs_matches_a_naive_implementation(rows):
    result = replay(make_jobs(rows), CAPACITY, policy="fcfs")
    got = dict(zip(result.schedule["job_id"], result.schedule["start"]))
    assert got == naive_fcfs(rows, CAPACITY)


@settings(max_examples=60, deadline=None)
@given(job_rows, st.sampled_from(["easy", "conservative"]), st.sampled_from(["default", "pyss"]),
       st.sampled_from(["fcfs", "wfp", "sjf"]))
def test_backfilling_schedules_are_valid_and_deterministic(rows, policy, conventions, order):
    jobs = make_jobs(rows)
    first = replay(jobs, CAPACITY, policy=policy, conventions=conventions, order=order)
    second = replay(jobs, CAPACITY, policy=policy, conventions=conventions, order=order)
    assert first.schedule.equals(second.schedule)
    assert (first.schedule["start"] >= first.schedule["submit"]).all()


@settings(max_examples=40, deadline=None)
@given(job_rows)
def test_conservative_with_exact_estimates_never_lets_a_later_job_delay_an_earlier_one(rows):
    """With exact estimates nothing ends early, so no compression happens: each job
    starts at the slot it was given at submission, computed before any later job
    existed. Re-placing the jobs one by one in arrival order must give the same starts."""
    exact = [(s, p, run, run) for s, p, _, run in rows]
    result = replay(make_jobs(exact), CAPACITY, policy="conservative", estimates="actual")
    got = dict(zip(result.schedule["job_id"], result.schedule["start"]))
    placed = []
    for i in sorted(range(len(exact)), key=lambda i: exact[i][0]):
        submit, procs, _, run = exact[i]
        for c in sorted({submit} | {e for _, e, _ in placed if e > submit}):
            if all(
                sum(p for s, e, p in placed if s <= x < e) + procs <= CAPACITY
                for x in {c} | {s for s, _, _ in placed if c < s < c + run}
            ):
                placed.append((c, c + run, procs))
                assert got[i + 1] == c
                break
