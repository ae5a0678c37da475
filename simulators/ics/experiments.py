"""The paper's experiments as lists of points, for the ``quick`` and ``paper`` profiles.

A point is one simulation: a workload (synthetic or NPB-like), a cluster, a scheme.
Figures group points; identical points in two figures (Fig. 8 and the MPL-5 bars of
Fig. 10, say) are the same point and run once.  Every point of a figure runs once per
seed of the profile, and every scheme on the same seeds (common random numbers: a seed
fixes the workload, so schemes compared on one seed see the same jobs).  Both profiles
run every experiment of Sect. 5 on the same seeds; they differ in how many jobs a
workload has, how strongly job lengths are compressed, the share of each NPB
application's iterations, the NPB mix's arrival rates and the compression check's factors.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from schedlab.simulators.ics.workload import MEAN_READINGS, NpbSpec, SyntheticSpec, npb_jobs, synthetic_jobs

ALL_SCHEMES = ("LOCAL", "DCS", "PB", "PROC-S", "SB", "HYBRID", "PROC-B", "GS", "BATCH")
MPL_SCHEMES = ("PB", "PROC-S", "SB", "PROC-B", "HYBRID", "GS")  # Sect. 5.3
FAIRNESS_SCHEMES = ("LOCAL", "DCS", "PB", "PROC-S", "SB", "PROC-B", "HYBRID", "GS")  # Fig. 12
MIX_SCHEMES = ("PB", "PROC-S", "SB", "PROC-B", "HYBRID", "GS", "BATCH")  # Fig. 14
ICS_SCHEMES = ("PB", "PROC-S", "SB", "PROC-B", "HYBRID")  # Tables 3 and 4
NPB_APPS = ("BT", "MG", "FT", "IS", "CG")
DEFAULT_MEANS, VARIANT_MEANS = MEAN_READINGS
"""Each sample meets the paper's stated means (Sect. 5.1 gives means, not a model); the model's expectation meeting
them is the named variant, run for ``Profile.means_variant_figures``."""
RUNAWAY_EVENTS = 1_500_000_000
"""A run with more events fails as a runaway (a few minutes compiled) rather than hold a worker for hours: the
heaviest paper-profile run needs about 1.6e8 (PB on NPB CG at full length)."""


@dataclass(frozen=True)
class Point:
    scheme: str
    family: str = "synthetic"  # or "npb"
    workload: str = "wl4"
    load: str = "heavy"
    n_jobs: int = 160
    skew: float = 0.10
    compression: float = 8000.0
    """Synthetic jobs only: job lengths and gaps divided by this factor (``workload``)."""
    iteration_share: float = 1.0
    """NPB jobs only: share of each application's iterations run (1 = all)."""
    simultaneous: bool = False
    nodes: int = 32
    mpl: int = 5
    apps: tuple[str, ...] = ()
    mean_interarrival: float = 0.0
    seed: int = 1
    boost_preempts_spinner: bool = True
    """A boost takes the CPU from a same-level busy-waiting runner (``Scheme.boost_preempts_spinner``)."""
    means: str = DEFAULT_MEANS
    """Synthetic jobs only: how the stated means are met (``workload.MEAN_READINGS``)."""

    def jobs(self):
        if self.family == "npb":
            spec = NpbSpec(self.apps, self.n_jobs, self.iteration_share, self.skew, self.mean_interarrival, self.seed)
            return npb_jobs(spec)
        spec = SyntheticSpec(
            self.workload, self.load, self.n_jobs, self.skew, self.compression, self.simultaneous, self.seed, self.means
        )
        return synthetic_jobs(spec)

    def parameters(self) -> dict:
        values = asdict(self)
        values["apps"] = list(self.apps)
        return values


@dataclass(frozen=True)
class Profile:
    name: str
    n_jobs: int
    """Jobs of a synthetic workload arriving over time (the steady-state metrics skip the first and last fifth)."""
    compression: float
    npb_jobs: int
    """Jobs of a Fig. 13 workload (all at time 0; 5 fill every node to MPL 5 once)."""
    npb_mix_jobs: int
    """Jobs of a Fig. 14 mix (arriving over time)."""
    npb_share: float
    """Share of each NPB application's iterations run (1 = the application's own count)."""
    npb_gaps: tuple[float, ...]
    """Fig. 14: mean inter-arrival times (seconds) of the NPB mix, one series point each."""
    compression_factors: tuple[float, ...]
    """The compression check's factors for its workload submitted at time 0."""
    figures: tuple[str, ...]
    seeds: tuple[int, ...] = (1, 2, 3, 4, 5)
    """Every synthetic point runs once per seed; at least five, so that each claim can be judged."""
    npb_seeds: tuple[int, ...] = (1, 2, 3, 4, 5)
    """Every NPB point (Figs. 13 and 14) runs once per seed: at least five too."""
    arrival_compression_factors: tuple[float, ...] = ()
    """Lower factors at which the compression check also runs Fig. 8's heavy arrivals (beside the profile's own
    factor, whose runs are Fig. 8's): does less compression change what PROC gains?"""
    means_variant_figures: tuple[str, ...] = ("fig7", "fig8")
    """The figures also run with the variant reading of the stated means (``VARIANT_MEANS``), to show the claims
    they judge under both readings: Sect. 5.1's light and heavy loads, the loads the two readings differ in."""


ALL_FIGURES = ("fig7", "fig8", "fig9", "fig10", "fig11", "fig12", "fig13", "fig14", "compression")
PROFILES = {
    # every experiment at reduced size: fewer, more compressed jobs and 1/64 of each NPB application
    "quick": Profile(
        name="quick", n_jobs=40, compression=30000.0, npb_jobs=5, npb_mix_jobs=8, npb_share=1 / 64, npb_gaps=(0.6, 0.15),
        compression_factors=(30000.0, 60000.0, 120000.0), figures=ALL_FIGURES, arrival_compression_factors=(15000.0,),
    ),
    # Ten seeds for the synthetic points, five for the NPB ones (about 70 % of the work): what the 20-minute budget
    # affords.
    "paper": Profile(
        name="paper", n_jobs=160, compression=8000.0, npb_jobs=5, npb_mix_jobs=8, npb_share=1.0, npb_gaps=(20.0, 10.0, 5.0),
        compression_factors=(8000.0, 16000.0, 32000.0), figures=ALL_FIGURES,
        seeds=tuple(range(1, 11)), arrival_compression_factors=(4000.0, 2000.0),
    ),
}


def closed_batch_jobs(profile: Profile) -> int:
    """Jobs of the experiments that submit every job at time 0 (skew, compression check): a quarter of the
    profile's count, at least 8.  At 17 processes a job on average, the paper profile's 40 fill the 32 x 5
    process slots about four times over; the quick profile's 10 about once."""
    return max(8, profile.n_jobs // 4)


def figure_points(profile: Profile, figure: str) -> dict[tuple, Point]:
    """The points of one figure, keyed by the figure's own coordinates and the seed (group, scheme, seed)."""
    return {
        (*key, seed): replace(point, seed=seed)
        for key, point in _figure_layout(profile, figure).items()
        for seed in figure_seeds(profile, figure)
    }


NPB_FIGURES = ("fig13", "fig14")


def figure_seeds(profile: Profile, figure: str) -> tuple[int, ...]:
    """The seeds every point of ``figure`` runs on: the NPB seeds for Figs. 13 and 14, else the synthetic ones."""
    return profile.npb_seeds if figure in NPB_FIGURES else profile.seeds


def _figure_layout(profile: Profile, figure: str) -> dict[tuple, Point]:
    """The points of one figure for one seed, keyed by (group, scheme)."""
    base = Point(scheme="", n_jobs=profile.n_jobs, compression=profile.compression)
    points: dict[tuple, Point] = {}
    if figure in ("fig7", "fig8"):
        load = "light" if figure == "fig7" else "heavy"
        for scheme in ALL_SCHEMES:
            points[(load, scheme)] = replace(base, scheme=scheme, load=load)
    elif figure == "fig9":
        for workload in ("wl1", "wl2", "wl3"):
            for scheme in ALL_SCHEMES:
                points[(workload, scheme)] = replace(base, scheme=scheme, workload=workload)
    elif figure == "fig10":
        for mpl in (2, 3, 5):
            for scheme in MPL_SCHEMES:
                points[(f"MPL {mpl}", scheme)] = replace(base, scheme=scheme, mpl=mpl)
    elif figure == "fig11":
        batch = replace(base, n_jobs=closed_batch_jobs(profile), simultaneous=True)
        for skew in (0.0, 0.6):
            for scheme in ALL_SCHEMES:
                points[(f"v = {skew:.0%}", scheme)] = replace(batch, scheme=scheme, skew=skew)
    elif figure == "fig12":
        for scheme in FAIRNESS_SCHEMES:
            points[("wl5", scheme)] = replace(base, scheme=scheme, workload="wl5", skew=0.0)
    elif figure == "fig13":
        npb = replace(base, family="npb", nodes=64, n_jobs=profile.npb_jobs, compression=1.0, iteration_share=profile.npb_share)
        for app in NPB_APPS:
            for scheme in ALL_SCHEMES:
                points[(app, scheme)] = replace(npb, scheme=scheme, apps=(app,))
    elif figure == "fig14":
        npb = replace(base, family="npb", nodes=64, n_jobs=profile.npb_mix_jobs, compression=1.0, iteration_share=profile.npb_share)
        for gap in profile.npb_gaps:
            for scheme in MIX_SCHEMES:
                points[(f"1/{gap:g} jobs/s", scheme)] = replace(
                    npb, scheme=scheme, apps=NPB_APPS, mean_interarrival=gap
                )
    elif figure == "compression":
        # all jobs at time 0, so that the nodes are contended at every factor
        small = replace(base, n_jobs=closed_batch_jobs(profile), simultaneous=True)
        for factor in profile.compression_factors:
            for scheme in ICS_SCHEMES:
                points[(f"at time 0, factor {factor:g}", scheme)] = replace(small, scheme=scheme, compression=factor)
        if profile.arrival_compression_factors:
            for factor in (profile.compression, *profile.arrival_compression_factors):
                for scheme in ICS_SCHEMES:
                    points[(f"heavy arrivals, factor {factor:g}", scheme)] = replace(
                        base, scheme=scheme, load="heavy", compression=factor
                    )
    else:
        raise ValueError(f"unknown figure {figure!r}")
    return points


def profile_points(profile: Profile) -> dict[str, dict[tuple, Point]]:
    return {figure: figure_points(profile, figure) for figure in profile.figures}


def means_variant_points(profile: Profile) -> dict[str, dict[tuple, Point]]:
    """The points of ``Profile.means_variant_figures``, their workloads meeting the means as ``VARIANT_MEANS``."""
    return {figure: {key: replace(point, means=VARIANT_MEANS) for key, point in figure_points(profile, figure).items()}
            for figure in profile.means_variant_figures if figure in profile.figures}
