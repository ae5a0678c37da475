"""The paper's experiments as lists of points (Jones et al., ICPADS 2006, Sec. 5).

- Communication intensity (Figs. 5, 6, 10-13): every job of a run has one PPBW, swept;
  ICS knows every job.  The strategies that read PPBW (First-Fit, LSLT, LSLT+CS, ICS) run
  at every PPBW; Zero Comm., Migration Only and No Share do not depend on it (the
  workload's arrivals, sizes and runtimes do not change with PPBW), so they run once and
  are drawn as horizontal limits, as in the paper.
- Mixed PPBW (Tables 1, 2): PPBW ~ U[0, 300] Mb/s per job (``ppbw=None``).
- Information availability (Figs. 7, 8): ICS with PPBW ~ U[0, 300] and a share of jobs
  exposing (PPBW, rho).
- Queue depth by hour of day (Fig. 9): read from the Migration Only runs.
- Named variants, reported beside the paper's reading and judged by no claim: C and D with
  the realistic stream's offered load kept (``C_load``, ``D_load``: the limits and ICS at
  mixed PPBW), and the other reading of the pass order, whole jobs first for every strategy as
  the paper states it for ICS alone (every co-allocating strategy it changes, at mixed PPBW on
  the realistic and synthetic workloads; ``Profile.pass_order_variant``).
- Sensitivity, judged by no claim either (``SENSITIVITY``: the limits and ICS at mixed
  PPBW): the realistic workload and those drawn from it with Poisson arrivals (A, D) at
  other offered loads (``Profile.loads``; the paper gives none, ours is the fitted
  trace's), which measures how far a room for improvement the paper reports is a matter
  of load, and the realistic and synthetic workloads at fewer jobs per cluster
  (``Profile.convergence``), which shows how far a short run's room for improvement is
  from the converged one.

``paper`` runs 400,000 jobs per cluster as the paper did (its convergence argument), on
five seeds, with a coarser PPBW and information grid than the paper's figures so that it
runs in minutes.  ``quick`` runs fewer jobs per cluster, which one seed does not settle:
the realistic workload's mean turnaround moves by tens of per cent from seed to seed, and
the paired gap between two strategies by several, more than the gaps the orderings are
about near the ends of the sweep (ICS places like Zero Comm. where no link binds and
approaches Migration Only as PPBW grows).  So every point of every profile runs on five
seeds, the same seeds for every strategy and PPBW (common random numbers: a seed fixes
arrivals, sizes, runtimes and rho), and the claims ledger (``schedlab.reports.bandwidth_claims``)
judges every claim on the per-seed paired statistics.
"""

from __future__ import annotations

from dataclasses import dataclass

from schedlab.simulators.bandwidth.placement import PASS_ORDERS, STRATEGIES, places_whole_jobs_first
from schedlab.simulators.bandwidth.simulate import Point

SWEPT = ("first_fit", "lslt", "lslt_cs", "ics")
LIMITS = ("zero_comm", "migration_only", "no_share")
MODIFIED = ("A", "B", "C", "D")
LOAD_KEPT = ("C_load", "D_load")
SENSITIVITY = (*LIMITS, "ics")
"""The runs of the load and convergence sweeps (mixed PPBW): the room for improvement, ICS's gain and
Migration Only's over No Share."""
LOAD_SWEPT = ("realistic", "A", "D")
"""The workloads run at ``Profile.loads``: the realistic stream and its Poisson-arrival variants."""
WORKLOADS = ("realistic", "synthetic", *MODIFIED, *LOAD_KEPT)
"""Every workload run, in report order (the paper's orderings cover all but the load-kept variants)."""
PAPER_PASS_ORDER, VARIANT_PASS_ORDER, _ = PASS_ORDERS
VARIANT_STRATEGIES = tuple(strategy for strategy in (*SWEPT, "zero_comm")
                           if places_whole_jobs_first(PAPER_PASS_ORDER, STRATEGIES[strategy])
                           != places_whole_jobs_first(VARIANT_PASS_ORDER, STRATEGIES[strategy]))
"""The co-allocating strategies the variant pass order places otherwise (ICS places alike in both)."""


@dataclass(frozen=True)
class Profile:
    jobs_per_cluster: int
    ppbws: tuple[float, ...]
    information: tuple[float, ...]
    seeds: tuple[int, ...] = (1,)
    loads: tuple[float, ...] = ()
    """Offered loads of the realistic stream swept for sensitivity, for each of ``LOAD_SWEPT`` (the
    default run: the fitted trace's)."""
    convergence: tuple[int, ...] = ()
    """Jobs per cluster of the convergence runs, besides ``jobs_per_cluster``."""
    pass_order_variant: bool = True
    """Run the variant pass order beside the paper's (``VARIANT_STRATEGIES`` at mixed PPBW on the
    realistic and synthetic workloads)."""


SEEDS = (1, 2, 3, 4, 5)
PROFILES = {
    # The paper profile sweeps two loads so that it runs within about 20 minutes on two workers.
    "paper": Profile(400_000, (10.0, 50.0, 200.0, 1000.0), (0.0, 0.1, 0.2, 0.3, 0.5, 1.0), seeds=SEEDS,
                     loads=(0.8, 0.9), convergence=(3_000, 10_000, 30_000, 100_000)),
    "quick": Profile(20_000, (10.0, 50.0, 100.0, 200.0, 500.0, 1000.0), (0.0, 0.1, 0.2, 0.3, 0.5, 1.0),
                     seeds=SEEDS, loads=(0.5, 0.6, 0.8, 0.9)),
}


def points(profile: Profile) -> list[Point]:
    """Every run of a profile, each once per seed."""
    chosen = []
    for seed in profile.seeds:
        def point(workload, strategy, ppbw, information=1.0, pass_order=PAPER_PASS_ORDER):
            return Point(workload, strategy, ppbw, information, profile.jobs_per_cluster, seed, pass_order)

        for workload in WORKLOADS:
            swept = SWEPT if workload in ("realistic", "synthetic") else ("ics",)
            chosen += [point(workload, strategy, None) for strategy in LIMITS + swept]
            if workload not in LOAD_KEPT:
                chosen += [point(workload, strategy, ppbw) for strategy in swept for ppbw in profile.ppbws]
            if workload in ("realistic", "synthetic"):
                chosen += [point(workload, "ics", None, share) for share in profile.information if share != 1.0]
                if profile.pass_order_variant:
                    chosen += [point(workload, strategy, None, pass_order=VARIANT_PASS_ORDER)
                               for strategy in VARIANT_STRATEGIES]
                chosen += [Point(workload, strategy, None, 1.0, jobs, seed) for jobs in profile.convergence
                           for strategy in SENSITIVITY if jobs != profile.jobs_per_cluster]
        chosen += [Point(workload, strategy, None, 1.0, profile.jobs_per_cluster, seed, load=load)
                   for workload in LOAD_SWEPT for load in profile.loads for strategy in SENSITIVITY]
    return chosen
