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

``paper`` runs 400,000 jobs per cluster as the paper did; ``quick`` a few thousand.  One
seed each (the paper's large runs are its convergence argument; it reports no repeats).
"""

from __future__ import annotations

from dataclasses import dataclass

from simulators.bandwidth.simulate import Point

SWEPT = ("first_fit", "lslt", "lslt_cs", "ics")
LIMITS = ("zero_comm", "migration_only", "no_share")
MODIFIED = ("A", "B", "C", "D")


@dataclass(frozen=True)
class Profile:
    jobs_per_cluster: int
    ppbws: tuple[float, ...]
    information: tuple[float, ...]
    seed: int = 1


PROFILES = {
    "paper": Profile(400_000, (10.0, 25.0, 50.0, 100.0, 150.0, 200.0, 300.0, 400.0, 500.0, 1000.0),
                     (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0)),
    "quick": Profile(3_000, (10.0, 50.0, 100.0, 200.0, 300.0, 500.0, 1000.0), (0.0, 0.1, 0.25, 0.5, 1.0)),
}


def points(profile: Profile) -> list[Point]:
    """Every run of a profile, each once."""
    def point(workload, strategy, ppbw, information=1.0):
        return Point(workload, strategy, ppbw, information, profile.jobs_per_cluster, profile.seed)

    chosen = []
    for workload in ("realistic", "synthetic", *MODIFIED):
        swept = SWEPT if workload in ("realistic", "synthetic") else ("ics",)
        chosen += [point(workload, strategy, None) for strategy in LIMITS + swept]
        chosen += [point(workload, strategy, ppbw) for strategy in swept for ppbw in profile.ppbws]
        if workload in ("realistic", "synthetic"):
            chosen += [point(workload, "ics", None, share) for share in profile.information if share != 1.0]
    return chosen
