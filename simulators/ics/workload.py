"""Jobs for the ICS experiments: the synthetic J1-J4 / wl1-wl5 family and NPB-like jobs.

Synthetic jobs (Yu, Kim and Maeng, Sect. 4.2, Fig. 6).  Each process loops
compute -> I/O -> communicate.  The communication pattern is nearest neighbour on a
ring (NN) or all-to-all (AA), half of the jobs each, always 16 KB messages.  The
communication time of one iteration is what it takes on a dedicated machine: the sends
of one process leave its interface one after another, so it is the one-way latency of
the last one.  The job type's percentages then give the compute and I/O times per
iteration (J1 85/15/0 ... J4 30/30/40); task skew multiplies each process's compute and
I/O time of each iteration by 1 + U(-v, v).

Arrivals, sizes and run times.  The paper fits them on the SDSC SP2 trace, which is not
available offline; we use the paper's published means instead: exponential
inter-arrival times of mean 1554.42 s (heavy load) or 2480 s (light load), exponential
dedicated run times of mean 3228.05 s, and sizes uniform on 2..32 ("each job requires
a set of nodes ranging from 2 to 32").  With these the offered load on 32 nodes is
about 1.1 (heavy) or 0.7 (light) times the dedicated capacity.

Time compression.  An hour-long job exchanges millions of messages, far too many to
simulate one by one for hundreds of runs.  We divide every job's run time AND every
inter-arrival time by the factor ``compression``: the number of iterations shrinks by
that factor while each iteration (and every microsecond cost, quantum and latency)
stays as it is, and the offered load is unchanged.  Reported times are in compressed
seconds; multiplied by the factor they read as full-length seconds.  ``tests`` and the
report's compression check show that the ranking of schemes does not depend on it.

NPB-like jobs (Sect. 4.2, Table 2): 64 processes, each application's message count per
process, pattern and size mix from Table 2.  Table 2 gives no computation times (the
paper measured them on its cluster); we assume that communication takes 15 % (BT, low
intensity), 35 % (MG, FT, medium) or 60 % (IS, CG, high) of a dedicated run.  MG mixes
patterns: one iteration in ten is all-to-all.  Compression divides the iteration count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulators.ics.network import BYTES_16K, SECONDS_PER_BYTE, STARTUP
from simulators.ics.state import Job

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
    n_jobs: int = 40
    skew: float = 0.10
    compression: float = 1000.0
    simultaneous: bool = False
    """All jobs submitted at time 0 (the skew experiment, Sect. 5.4)."""
    seed: int = 1


def synthetic_jobs(spec: SyntheticSpec) -> list[Job]:
    attributes_rng, skew_rng = (np.random.default_rng(s) for s in np.random.SeedSequence(spec.seed).spawn(2))
    n = spec.n_jobs
    kinds = attributes_rng.choice(WORKLOADS[spec.workload], size=n)
    all_to_all = attributes_rng.random(n) < 0.5
    sizes = attributes_rng.integers(MIN_SIZE, MAX_SIZE + 1, size=n)
    runtimes = attributes_rng.exponential(MEAN_RUNTIME, size=n) / spec.compression
    gaps = attributes_rng.exponential(MEAN_INTERARRIVAL[spec.load], size=n) / spec.compression
    submits = np.zeros(n) if spec.simultaneous else np.cumsum(gaps)
    jobs = []
    for i in range(n):
        comp_share, comm_share, io_share = JOB_TYPES[kinds[i]]
        size = int(sizes[i])
        comm = communication_time(peer_count(size, bool(all_to_all[i])), BYTES_16K)
        compute = comm * comp_share / comm_share
        io = comm * io_share / comm_share
        iteration = compute + io + comm
        iterations = max(2, int(round(runtimes[i] / iteration)))
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
    compression: float = 100.0
    skew: float = 0.10
    mean_interarrival: float = 0.0
    """0: every job at time 0 (Fig. 13); else exponential gaps of this mean (Fig. 14), compressed seconds."""
    seed: int = 1


def npb_job(index: int, name: str, submit: float, spec: NpbSpec, rng: np.random.Generator) -> Job:
    app = NPB_APPS[name]
    size = NPB_NODES
    if app.pattern == "mixed":
        pattern = np.arange(10**6) % MG_ALL_TO_ALL_EVERY == MG_ALL_TO_ALL_EVERY - 1
    else:
        pattern = np.full(10**6, app.pattern == "AA")
    peers = np.where(pattern, size - 1, 2)
    full_iterations = int(np.searchsorted(np.cumsum(peers), app.messages_per_process)) + 1
    iterations = max(2, int(round(full_iterations / spec.compression)))
    all_to_all = pattern[:iterations]
    lows, highs, shares = (np.array(column, dtype=float) for column in zip(*app.size_mix))
    bins = rng.choice(len(shares), size=iterations, p=shares / shares.sum())
    message_bytes = np.rint(rng.uniform(lows[bins], highs[bins]))
    comm = STARTUP + peers[:iterations] * message_bytes * SECONDS_PER_BYTE
    compute = comm * (1.0 - app.communication_share) / app.communication_share
    skew = 1.0 + rng.uniform(-spec.skew, spec.skew, size=(size, iterations)) if spec.skew > 0 else 1.0
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
    choice_rng, job_rng = (np.random.default_rng(s) for s in np.random.SeedSequence(spec.seed).spawn(2))
    names = choice_rng.choice(spec.apps, size=spec.n_jobs)
    if spec.mean_interarrival > 0:
        submits = np.cumsum(choice_rng.exponential(spec.mean_interarrival, size=spec.n_jobs))
    else:
        submits = np.zeros(spec.n_jobs)
    return [npb_job(i, str(names[i]), submits[i], spec, job_rng) for i in range(spec.n_jobs)]
