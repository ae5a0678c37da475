"""Orderings the paper states (Sec. 5.1-5.3, Tables 1-2), checked on the quick profile as properties of the model.

The quick profile's ordering runs (Zero Comm., Migration Only and No Share, and ICS at every swept PPBW, for
every workload and seed) are compared on paired per-seed gaps: a point fails only if it is ``broken`` (the whole
95 % interval of the gaps on the wrong side).  The ledger judges the paper's claims on the same runs with its own
rules (``schedlab.reports.bandwidth_claims``); these tests guard the model's shape.  The paper profile's runs are
under ``slow``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from schedlab.reports.ledger import interval
from schedlab.simulators.bandwidth.experiments import LIMITS, LOAD_KEPT, PAPER_PASS_ORDER, PROFILES, WORKLOADS, points
from schedlab.simulators.bandwidth.simulate import run_workload, simulate, summarise
from schedlab.simulators.bandwidth.workload import make_workload

QUICK = PROFILES["quick"]
HOLDS, WITHIN_NOISE, BROKEN = "holds", "within noise", "broken"


def ordering_points(profile):
    """The limits and the ICS sweep at the profile's own size, load and pass order."""
    return [point for point in points(profile) if point.pass_order == PAPER_PASS_ORDER and point.load is None
            and point.jobs_per_cluster == profile.jobs_per_cluster
            and (point.strategy in LIMITS or (point.strategy == "ics" and point.ppbw is not None))]


def ordering_runs(profile) -> pd.DataFrame:
    rows = [{**dataclasses.asdict(point), **simulate(point)[1]} for point in ordering_points(profile)]
    return pd.DataFrame(rows).astype({"ppbw": float})


def by_seed(runs: pd.DataFrame, workload: str, strategy: str, ppbw: float | None = None) -> np.ndarray:
    """Mean turnaround per seed, in seed order (``ppbw`` None: the runs with PPBW ~ U[0, 300])."""
    chosen = runs[(runs.workload == workload) & (runs.strategy == strategy)
                  & (runs.ppbw.isna() if ppbw is None else np.isclose(runs.ppbw, ppbw)) & (runs.information == 1.0)]
    assert chosen.seed.tolist() == sorted(set(chosen.seed)) and len(chosen), (workload, strategy, ppbw)
    return chosen.mean_turnaround.to_numpy()


def side(differences) -> str:
    """Where differences the ordering wants >= 0 fall: ``holds`` (mean >= 0), ``within noise``, ``broken``."""
    mean, _, high = interval(differences)
    return HOLDS if mean >= 0 else WITHIN_NOISE if high >= 0 else BROKEN


def orderings(runs: pd.DataFrame, workloads) -> pd.DataFrame:
    """Zero Comm. <= ICS <= Migration Only at every swept PPBW, per workload, on per-seed gaps over T_mig.
    Zero Comm. and Migration Only ignore PPBW: their runs with PPBW ~ U[0, 300] serve every point."""
    rows = []
    for workload in workloads:
        zero, migration = by_seed(runs, workload, "zero_comm"), by_seed(runs, workload, "migration_only")
        swept = runs[(runs.workload == workload) & (runs.strategy == "ics") & runs.ppbw.notna()]
        for ppbw in np.sort(swept.ppbw.unique()):
            ics = by_seed(runs, workload, "ics", ppbw)
            verdicts = (side((ics - zero) / migration), side((migration - ics) / migration))
            rows.append({"workload": workload, "ppbw": float(ppbw), "seeds": len(ics), "zero_comm": zero.mean(),
                         "ics": ics.mean(), "zero_le_ics": verdicts[0], "ics_le_migration": verdicts[1],
                         "verdict": BROKEN if BROKEN in verdicts else WITHIN_NOISE if WITHIN_NOISE in verdicts else HOLDS})
    return pd.DataFrame(rows)


def no_share_ordering(runs: pd.DataFrame, workloads) -> pd.DataFrame:
    """Migration Only below No Share, per workload: the gain ``(T_noshare - T_mig) / T_noshare`` over seeds."""
    rows = []
    for workload in workloads:
        no_share = by_seed(runs, workload, "no_share")
        rows.append({"workload": workload, "verdict": side((no_share - by_seed(runs, workload, "migration_only")) / no_share)})
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def quick_runs():
    return ordering_runs(QUICK)


@pytest.fixture(scope="module")
def quick_orderings(quick_runs):
    return orderings(quick_runs, WORKLOADS)


def test_the_quick_profile_covers_every_workload_ppbw_and_seed(quick_orderings):
    assert len(QUICK.seeds) >= 5
    assert sorted(set(quick_orderings.workload)) == sorted(set(WORKLOADS) - set(LOAD_KEPT))  # no PPBW sweep
    for _, group in quick_orderings.groupby("workload"):
        assert group.ppbw.tolist() == list(QUICK.ppbws)
        assert (group.seeds == len(QUICK.seeds)).all()


@pytest.mark.parametrize("workload", WORKLOADS)
def test_zero_le_ics_le_migration_at_every_ppbw(quick_orderings, workload):
    chosen = quick_orderings[quick_orderings.workload == workload]
    broken = chosen[chosen.verdict == BROKEN]
    assert broken.empty, broken.to_string()


@pytest.mark.parametrize("workload", WORKLOADS)
def test_migration_only_beats_no_share(quick_runs, workload):
    assert no_share_ordering(quick_runs, [workload]).verdict.tolist() == [HOLDS]


def test_ics_places_like_zero_comm_where_no_link_binds(quick_orderings):
    # at the lowest PPBW no ICS split saturates a link: the same placements as First-Fit on free links
    lowest = quick_orderings[quick_orderings.ppbw == min(QUICK.ppbws)]
    assert (lowest.ics == lowest.zero_comm).all()


def test_lslt_strategies_beat_migration_at_low_ppbw_and_lose_at_high():
    # In the paper's order for them (as_stated: job by job, Sec. 4.1), where a waiting job may be
    # co-allocated before a later one is placed whole.  With whole placements first (the variant)
    # LSLT+CS on this seed still beats Migration Only at 1000 Mb/s (995 s vs 1071 s).
    seed = QUICK.seeds[0]
    low = make_workload("synthetic", QUICK.jobs_per_cluster, seed, ppbw=min(QUICK.ppbws))
    high = make_workload("synthetic", QUICK.jobs_per_cluster, seed, ppbw=max(QUICK.ppbws))

    def turnaround(workload, strategy):
        return summarise(run_workload(workload, strategy))["mean_turnaround"]

    migration = turnaround(low, "migration_only")
    assert migration < turnaround(high, "first_fit")
    for strategy in ("lslt", "lslt_cs"):
        assert turnaround(low, strategy) < migration < turnaround(high, strategy)


@pytest.fixture(scope="module")
def paper_runs():
    return ordering_runs(dataclasses.replace(PROFILES["paper"], ppbws=(50.0, 1000.0)))


@pytest.mark.slow
def test_ics_beats_migration_and_migration_beats_no_share_at_the_paper_scale(paper_runs):
    assert (orderings(paper_runs, WORKLOADS).ics_le_migration == HOLDS).all()
    assert (no_share_ordering(paper_runs, WORKLOADS).verdict == HOLDS).all()


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="measured at 400,000 jobs per cluster: ICS is 0.3 % faster than Zero Comm. on "
                   "the realistic workload at 50 Mb/s (holding back a job whose split would saturate a link helps "
                   "the jobs behind it; Zero Comm. is greedy First-Fit, not a bound); see the bandwidth report")
def test_zero_comm_bounds_ics_at_the_paper_scale(paper_runs):
    assert (orderings(paper_runs, WORKLOADS).zero_le_ics == HOLDS).all()
