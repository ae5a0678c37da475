"""Jobs for the ICS experiments: the synthetic J1-J4 / wl1-wl5 family and NPB-like jobs.

Synthetic jobs (Yu, Kim and Maeng, Sect. 4.2, Fig. 6).  Each process loops
compute -> I/O -> communicate.  The communication pattern is nearest neighbour on a
ring (NN) or all-to-all (AA), half of the jobs each, always 16 KB messages.  The
communication time of one iteration is what it takes on a dedicated machine: the sends
of one process leave its interface one after another, so it is the one-way latency of
the last one.  The job type's percentages then give the compute and I/O times per
iteration (J1 85/15/0 ... J4 30/30/40); task skew multiplies each process's compute and
I/O time of each iteration by 1 + U(-v, v).

Arrivals, sizes and run times.  The paper fits them on the SDSC SP2 trace (128 nodes),
which is not available offline, and publishes only their means: 1554.42 s between
arrivals under heavy load, about 2480 s under light load, 3228.05 s of execution.  We
draw them from the Lublin-Feitelson model, whose published defaults describe a
128-node machine like SDSC SP2 (``schedlab.workloads.lublin``), and scale them to those means:

- sizes: uniform on the paper's range 2..32 ("each job requires a set of nodes ranging
  from 2 to 32"), mean 17: the paper gives the range and no distribution over it;
- run times: the model's size-dependent hyper-gamma (bigger jobs run longer), times the
  constant that makes the model's expected run time over those sizes 3228.05 s;
- gaps: the model's rush-hour gap distribution (no daily cycle: compressed, a day
  lasts seconds), times the constant that makes its expected gap the paper's mean.

How the stated means are met (``MEAN_READINGS``).  The paper states the means its
workloads have (Sect. 5.1), so by default (``per_sample``) each sample is scaled to
them: its gaps by the constant that makes their mean 1554.42 s (or 2480 s), its run
times by the one that makes their mean 3228.05 s.  The other reading (``expected``)
scales by the constants that make the model's expectations those means
(``model_means``): a 160-job sample of the heavy-tailed gaps then realises a mean well
below the stated one, and a higher load.  Neither constant comes from a result.  What a
workload realises (its gaps, run times after rounding to whole iterations, and load) is
measured per workload and seed in the report's setup; time sharing stretches each job,
and the processes held per node are measured per point (``metrics.processes_per_node``).

Time compression.  An hour-long job exchanges millions of messages, far too many to
simulate one by one for hundreds of runs.  We divide every job's run time AND every
inter-arrival time by the factor ``compression``: the number of iterations shrinks by
that factor while each iteration (and every microsecond cost, quantum and latency)
stays as it is, and the offered load is unchanged.  Reported times are in compressed
seconds; multiplied by the factor they read as full-length seconds.  ``tests`` and the
report's compression check show that the ranking of schemes does not depend on it.

NPB-like jobs (Sect. 4.2, Table 2): 64 processes, each application's message count per
process, pattern and size mix from Table 2.  A job runs the application's real number of
iterations (the fewest that send its messages per process: BT 9,600, MG 710,
FT 160, IS 120, CG 18,975) at real length: the message count, not the length, sets the
cost of simulating it, so there is nothing to gain from compressing time.  A reduced
size (``iteration_share`` < 1, the quick profile) runs that share of the iterations,
never fewer than one period of the pattern (MG: nine nearest-neighbour iterations and
one all-to-all).  Table 2 gives no computation times (the paper measured them on its
cluster); we assume that communication takes 15 % (BT, low intensity), 35 % (MG, FT,
medium) or 60 % (IS, CG, high) of a dedicated run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from schedlab.simulators.ics.network import BYTES_16K, SECONDS_PER_BYTE, STARTUP
from schedlab.simulators.ics.state import Job
from schedlab.workloads.jobs import independent_streams

JOB_TYPES = {  # comp / comm / io fractions of a dedicated iteration, Fig. 6a
    "J1": (0.85, 0.15, 0.0),
    "J2": (0.50, 0.50, 0.0),
    "J3": (0.35, 0.65, 0.0),
    "J4": (0.30, 0.30, 0.40),
}
WORKLOADS = {
    "wl1": ("J1",),
    "wl2": ("J2",),
    "wl3": ("J3",),
    "wl4": ("J1", "J2", "J3"),
    "wl5": ("J1", "J3", "J4"),
}
MEAN_INTERARRIVAL = {"heavy": 1554.42, "light": 2480.0}
MEAN_RUNTIME = 3228.05
MIN_SIZE, MAX_SIZE = 2, 32
MIN_ITERATIONS = 2
"""A synthetic job runs at least this many iterations: compressed, the model's shortest run times round to
none, and such a job is lengthened (``Job.lengthened``; the share per run is in the metrics)."""
CLUSTER_NODES = 32
MEAN_READINGS = ("per_sample", "expected")
"""How the stated means are met: by each sample's own mean (the default), or by the model's expectation."""


def size_distribution() -> np.ndarray:
    """Probability of each size 1..MAX_SIZE: uniform on the paper's range 2..32."""
    pmf = np.zeros(MAX_SIZE)
    pmf[MIN_SIZE - 1:] = 1.0
    return pmf / pmf.sum()


def _truncated_exp_moment(shape: float, scale: float, cap: float) -> tuple[float, float]:
    """E[exp(X); X <= cap] and P(X <= cap) for X ~ gamma(shape, scale)."""
    from scipy import stats  # here, not at import: `schedlab --help` lists the ics command without scipy

    moment = stats.gamma.expect(np.exp, args=(shape,), scale=scale, lb=0.0, ub=cap)
    return float(moment), float(stats.gamma.cdf(cap, shape, scale=scale))


@cache
def model_means() -> dict:
    """The unscaled model's expected run time (over the restricted sizes) and gap, and the offered loads.

    ln(run time) is a two-gamma mixture whose weight depends on the size, redrawn above
    its cap; ln(gap) a gamma redrawn above its cap (``schedlab.workloads.lublin``).
    """
    from schedlab.workloads.lublin import DEFAULT_PARAMETERS

    runtimes, arrivals = DEFAULT_PARAMETERS["runtimes"], DEFAULT_PARAMETERS["arrivals"]
    cap = runtimes["max_log_runtime"]
    short_moment, short_mass = _truncated_exp_moment(runtimes["shape1"], runtimes["scale1"], cap)
    long_moment, long_mass = _truncated_exp_moment(runtimes["shape2"], runtimes["scale2"], cap)
    sizes = np.arange(1, MAX_SIZE + 1)
    short_share = np.clip(runtimes["p_per_proc"] * sizes + runtimes["p_intercept"], 0.0, 1.0)
    by_size = (short_share * short_moment + (1 - short_share) * long_moment) / (
        short_share * short_mass + (1 - short_share) * long_mass
    )
    weights = size_distribution()
    mean_runtime = float(np.sum(weights * by_size))
    gap_moment, gap_mass = _truncated_exp_moment(
        arrivals["log_gap_shape"] * arrivals["rush_to_all_ratio"], arrivals["log_gap_scale"], arrivals["max_log_gap"]
    )
    runtime_scale = MEAN_RUNTIME / mean_runtime
    offered = {
        load: float(np.sum(weights * sizes * by_size)) * runtime_scale / (CLUSTER_NODES * gap)
        for load, gap in MEAN_INTERARRIVAL.items()
    }
    return {
        "mean_size": float(np.sum(weights * sizes)),
        "model_mean_runtime": mean_runtime,
        "model_mean_gap": gap_moment / gap_mass,
        "runtime_scale": runtime_scale,
        "offered_load": offered,
    }


def scaled_to_mean(values: np.ndarray, mean: float) -> np.ndarray:
    """``values`` times the one constant that makes their mean ``mean``."""
    return values * (mean / values.mean())


def job_attributes(
    n: int, load: str, size_rng: np.random.Generator, runtime_rng: np.random.Generator, gap_rng: np.random.Generator,
    means: str = "per_sample",
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sizes, run times and gaps (uncompressed seconds) of ``n`` jobs, their means met as ``means`` reads them."""
    if means not in MEAN_READINGS:
        raise ValueError(f"unknown reading of the stated means {means!r}: one of {', '.join(MEAN_READINGS)}")
    from schedlab.workloads.lublin import DEFAULT_PARAMETERS, lublin_runtimes, truncated_gamma

    cdf = np.cumsum(size_distribution())
    sizes = np.minimum(np.searchsorted(cdf, size_rng.random(n) * cdf[-1], side="left"), MAX_SIZE - 1) + 1
    model = model_means()
    runtimes = lublin_runtimes(runtime_rng, sizes, DEFAULT_PARAMETERS["runtimes"]) * model["runtime_scale"]
    arrivals = DEFAULT_PARAMETERS["arrivals"]
    log_gaps = truncated_gamma(
        gap_rng, arrivals["log_gap_shape"] * arrivals["rush_to_all_ratio"], arrivals["log_gap_scale"],
        arrivals["max_log_gap"], n,
    )
    gaps = np.exp(log_gaps) * (MEAN_INTERARRIVAL[load] / model["model_mean_gap"])
    if means == "per_sample":
        return sizes, scaled_to_mean(runtimes, MEAN_RUNTIME), scaled_to_mean(gaps, MEAN_INTERARRIVAL[load])
    return sizes, runtimes, gaps


def communication_time(messages: int, size_bytes: float) -> float:
    """Seconds until the last of ``messages`` sends of ``size_bytes``, queued together, arrives."""
    return STARTUP + messages * size_bytes * SECONDS_PER_BYTE


def peer_count(size: int, all_to_all: bool) -> int:
    if all_to_all:
        return size - 1
    return 1 if size == 2 else 2


def skewed(rng: np.random.Generator, base: float, shape: tuple[int, int], skew: float) -> np.ndarray:
    return base * (1.0 + rng.uniform(-skew, skew, size=shape)) if skew > 0 else np.full(shape, base)


@dataclass(frozen=True)
class SyntheticSpec:
    workload: str = "wl4"
    load: str = "heavy"
    n_jobs: int = 80
    skew: float = 0.10
    compression: float = 1000.0
    simultaneous: bool = False
    """All jobs submitted at time 0 (the skew experiment, Sect. 5.4)."""
    seed: int = 1
    means: str = "per_sample"
    """How the stated means are met (``MEAN_READINGS``)."""


def synthetic_jobs(spec: SyntheticSpec) -> list[Job]:
    kind_rng, size_rng, runtime_rng, gap_rng, skew_rng = independent_streams(spec.seed, 5)
    n = spec.n_jobs
    kinds = kind_rng.choice(WORKLOADS[spec.workload], size=n)
    all_to_all = kind_rng.random(n) < 0.5
    sizes, runtimes, gaps = job_attributes(n, spec.load, size_rng, runtime_rng, gap_rng, spec.means)
    runtimes = runtimes / spec.compression
    submits = np.zeros(n) if spec.simultaneous else np.cumsum(gaps / spec.compression)
    jobs = []
    for i in range(n):
        comp_share, comm_share, io_share = JOB_TYPES[kinds[i]]
        size = int(sizes[i])
        comm = communication_time(peer_count(size, bool(all_to_all[i])), BYTES_16K)
        compute = comm * comp_share / comm_share
        io = comm * io_share / comm_share
        iteration = compute + io + comm
        asked = int(round(runtimes[i] / iteration))
        iterations = max(MIN_ITERATIONS, asked)
        jobs.append(
            Job(
                index=i,
                job_id=i + 1,
                kind=f"{kinds[i]}-{'AA' if all_to_all[i] else 'NN'}",
                submit=submits[i],
                compute=skewed(skew_rng, compute, (size, iterations), spec.skew),
                io=skewed(skew_rng, io, (size, iterations), spec.skew),
                message_bytes=np.full(iterations, BYTES_16K),
                all_to_all=np.full(iterations, bool(all_to_all[i])),
                dedicated_time=iterations * iteration,
                lengthened=iterations > asked,
            )
        )
    return jobs


@dataclass(frozen=True)
class NpbApp:
    pattern: str  # "NN", "AA" or "mixed"
    messages_per_process: int
    size_mix: tuple[tuple[float, float, float], ...]  # (low bytes, high bytes, share)
    communication_share: float


NPB_APPS = {  # Table 2 (64 nodes, CLASS B); communication shares are our assumption
    "BT": NpbApp("NN", 19200, ((6760, 6760, 0.438), (40560, 40560, 0.438), (90480, 91520, 0.124)), 0.15),
    "MG": NpbApp("mixed", 5702, ((8, 800, 0.316), (2048, 9248, 0.117), (32768, 69696, 0.567)), 0.35),
    "FT": NpbApp("AA", 10080, ((24, 24, 0.5), (49152, 49152, 0.5)), 0.35),
    "IS": NpbApp("AA", 7560, ((4, 4, 1 / 3), (4116, 4116, 1 / 3), (32768, 32768, 1 / 3)), 0.60),
    "CG": NpbApp("NN", 37950, ((8, 8, 0.593), (16, 16, 0.012), (75000, 75000, 0.395)), 0.60),
}
NPB_NODES = 64
MG_ALL_TO_ALL_EVERY = 10


@dataclass(frozen=True)
class NpbSpec:
    apps: tuple[str, ...] = ("CG",)
    n_jobs: int = 10
    iteration_share: float = 1.0
    """Share of each application's iterations run: 1 = all of them (the paper profile)."""
    skew: float = 0.10
    mean_interarrival: float = 0.0
    """0: every job at time 0 (Fig. 13); else exponential gaps of this mean in seconds (Fig. 14)."""
    seed: int = 1


def npb_pattern(app: NpbApp, iterations: int) -> np.ndarray:
    """Whether each iteration is all-to-all."""
    if app.pattern == "mixed":
        return np.arange(iterations) % MG_ALL_TO_ALL_EVERY == MG_ALL_TO_ALL_EVERY - 1
    return np.full(iterations, app.pattern == "AA")


def npb_iterations(name: str) -> int:
    """The application's iteration count: the fewest iterations sending its messages per process."""
    app = NPB_APPS[name]
    period = npb_pattern(app, MG_ALL_TO_ALL_EVERY)
    per_period = int(np.where(period, NPB_NODES - 1, 2).sum())
    full_periods, rest = divmod(app.messages_per_process, per_period)
    sent, iterations = 0, 0
    while sent < rest:
        sent += NPB_NODES - 1 if period[iterations] else 2
        iterations += 1
    return full_periods * MG_ALL_TO_ALL_EVERY + iterations


def run_iterations(name: str, share: float) -> int:
    if share >= 1.0:
        return npb_iterations(name)
    pattern_period = MG_ALL_TO_ALL_EVERY if NPB_APPS[name].pattern == "mixed" else 1
    return max(pattern_period, int(round(npb_iterations(name) * share)))


def npb_job(index: int, name: str, submit: float, spec: NpbSpec, rng: np.random.Generator) -> Job:
    app = NPB_APPS[name]
    size = NPB_NODES
    iterations = run_iterations(name, spec.iteration_share)
    all_to_all = npb_pattern(app, iterations)
    peers = np.where(all_to_all, size - 1, 2)
    lows, highs, shares = (np.array(column, dtype=float) for column in zip(*app.size_mix))
    bins = rng.choice(len(shares), size=iterations, p=shares / shares.sum())
    message_bytes = np.rint(rng.uniform(lows[bins], highs[bins]))
    comm = STARTUP + peers * message_bytes * SECONDS_PER_BYTE
    compute = comm * (1.0 - app.communication_share) / app.communication_share
    skew = skewed(rng, 1.0, (size, iterations), spec.skew)
    return Job(
        index=index,
        job_id=index + 1,
        kind=name,
        submit=submit,
        compute=compute[np.newaxis, :] * skew,
        io=np.zeros((size, iterations)),
        message_bytes=message_bytes,
        all_to_all=all_to_all,
        dedicated_time=float((compute + comm).sum()),
    )


def npb_jobs(spec: NpbSpec) -> list[Job]:
    choice_rng, job_rng = independent_streams(spec.seed, 2)
    names = choice_rng.choice(spec.apps, size=spec.n_jobs)
    if spec.mean_interarrival > 0:
        submits = np.cumsum(choice_rng.exponential(spec.mean_interarrival, size=spec.n_jobs))
    else:
        submits = np.zeros(spec.n_jobs)
    return [npb_job(i, str(names[i]), submits[i], spec, job_rng) for i in range(spec.n_jobs)]
