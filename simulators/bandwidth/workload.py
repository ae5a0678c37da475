"""The jobs of one run: four arrival streams, rectangular sizes, communication attributes.

Jones et al., ICPADS 2006, Sec. 5 (workloads).  Every cluster gets its own stream:

- ``synthetic``: Poisson arrivals (mean gap 150 s), ``T_E0 ~ Exp(mean 450 s)``, sizes
  uniform on the integers 10..50;
- ``realistic``: jobs drawn from a model fitted by ``schedlab.workloads.fitting`` (the paper's own
  structure, Sec. 3: weekly warped arrival clock with daily and weekly cycles, serial /
  power-of-two / other sizes with a two-stage uniform, a runtime family chosen by AIC,
  size-runtime correlation) to a Parallel Workloads Archive trace, on 100-processor clusters
  at the trace's own offered load.  The paper fitted five PWA traces it no longer names;
  we use KTH-SP2 (``REALISTIC_MODEL``), a 100-processor machine like each of the paper's
  clusters, at its offered load, 0.689 (``realistic_load()``).  ``load`` replaces that
  load for a sensitivity sweep;
- the paper's modified workloads: ``A`` realistic with Poisson arrivals; ``B`` synthetic
  sizes and runtimes with realistic arrival times (the fitted model's arrival process,
  daily and weekly cycles, placed at the synthetic stream's offered load); ``C`` realistic without
  the jobs of fewer than 10 processors; ``D`` C with Poisson arrivals.  Poisson arrivals
  in A and D keep the mean gap of the arrivals they replace.  Realistic arrival times
  start at Monday 00:00 local time of the trace (hour 0 is midnight for Fig. 9).
- C and D in two readings.  The paper (Sec. 5.3) "removes" the small jobs from the
  realistic stream and says nothing of arrival times, so ``C`` and ``D`` keep the arrival
  times of the jobs left (the offered load falls with the removed work); the named
  variants ``C_load`` and ``D_load`` instead compress the kept jobs' arrival times so
  their offered load equals the realistic stream's they came from.

Sizes are then made rectangular (``schedlab.simulators.bandwidth.demand``).  Every job draws
``rho ~ U[0, 1]``, ``PPBW`` (one value for the run, or ``U[0, 300]`` Mb/s when ``ppbw`` is
None) and ``exposed = u < information`` with its own ``u ~ U[0, 1]``, so runs at several
information levels expose nested sets of jobs.  Each attribute and each cluster has its
own random stream of the one seed: changing PPBW or the information level leaves
arrivals, sizes and runtimes unchanged (common random numbers across a sweep).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache

import numpy as np

from schedlab.simulators.bandwidth.demand import rectangular_sizes
from schedlab.workloads import synthesis
from schedlab.workloads.model import load_model
from schedlab.workloads.synthesis import fitted_arrivals

SYNTHETIC_MEAN_GAP = 150.0
SYNTHETIC_MEAN_RUNTIME = 450.0
SYNTHETIC_SIZES = (10, 50)
PPBW_RANGE = (0.0, 300.0)
REALISTIC_MODEL = "builtin:kth-sp2-1996"
SMALL_JOB = 10
"""Workloads C and D drop the jobs asking for fewer processors than this."""
OVERSAMPLING = 8
"""Jobs generated per job kept in C and D: 18.6 % of KTH-SP2's jobs have 10+ processors."""
WORKLOADS = ("synthetic", "realistic", "A", "B", "C", "D", "C_load", "D_load")
LOAD_SET = ("realistic", "A", "C", "D", "C_load", "D_load")
"""The workloads drawn from the realistic stream, whose offered load a run may choose."""
SMALL_JOBS_REMOVED = ("C", "D", "C_load", "D_load")
POISSON_ARRIVALS = ("A", "D", "D_load")
LOAD_KEPT = ("C_load", "D_load")


@dataclass(frozen=True)
class Workload:
    submit: np.ndarray
    home: np.ndarray
    requested: np.ndarray
    nodes: np.ndarray
    columns: np.ndarray
    base_time: np.ndarray
    """T_E0, the run time with all the bandwidth the job wants."""
    ppbw: np.ndarray
    rho: np.ndarray
    exposed: np.ndarray
    ppbw_draws: np.ndarray
    """Each job's own PPBW ~ U[0, 300], used when a run gives no single PPBW."""
    exposure_draws: np.ndarray
    """Each job's u ~ U[0, 1]: it exposes (PPBW, rho) at information levels above u."""

    def __len__(self) -> int:
        return len(self.submit)

    def with_communication(self, ppbw: float | None = None, information: float = 1.0) -> Workload:
        """The same jobs with one PPBW for all (None: each its own draw) and the share ``information`` exposed."""
        if not 0.0 <= information <= 1.0:
            raise ValueError(f"information must be in [0, 1], got {information}")
        rates = self.ppbw_draws if ppbw is None else np.full(len(self), float(ppbw))
        return dataclasses.replace(self, ppbw=rates, exposed=self.exposure_draws < information)


def _streams(seed: int, cluster: int) -> dict[str, np.random.Generator]:
    names = ("arrivals", "sizes", "runtimes", "ppbw", "rho", "exposure", "model")
    children = np.random.SeedSequence([seed, cluster]).spawn(len(names))
    return {name: np.random.default_rng(child) for name, child in zip(names, children, strict=True)}


def _poisson_submits(rng: np.random.Generator, n: int, mean_gap: float) -> np.ndarray:
    return np.cumsum(rng.exponential(mean_gap, n))


@cache
def realistic_model() -> dict:
    return load_model(REALISTIC_MODEL)


def realistic_load() -> float:
    """The offered load of the trace the realistic model was fitted to."""
    return float(realistic_model()["source"]["offered_load"])


def _realistic_jobs(n: int, procs: int, seed: int, load: float, drop_small: bool,
                    keep_load: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(submit, size, runtime) of ``n`` jobs of the realistic model at offered load ``load``.

    Without the small jobs (C, D), the first ``n`` jobs of 10+ processors of a longer
    sample: at their own arrival times (the offered load falls with the removed jobs), or,
    with ``keep_load``, at those times compressed towards the first so that the jobs left
    offer the load of the realistic stream they stand in for (same seed, same length).
    """
    def sample(count):
        return fitted_columns(realistic_model(), count, procs, load, seed)

    if not drop_small:
        return sample(n)
    submit, size, runtime = sample(OVERSAMPLING * n)
    kept = np.flatnonzero(size >= SMALL_JOB)
    if len(kept) < n:
        raise ValueError(f"only {len(kept)} of {OVERSAMPLING * n} realistic jobs have {SMALL_JOB}+ processors")
    submit, size, runtime = submit[kept[:n]], size[kept[:n]], runtime[kept[:n]]
    if keep_load:
        squeeze = _stream_load(submit, size, runtime, procs) / _stream_load(*sample(n), procs)
        submit = submit[0] + (submit - submit[0]) * squeeze
    return submit, size, runtime


def fitted_columns(model: dict, n_jobs: int, machine_procs: int, target_utilization: float | None,
                   seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(submit time, allocated processors, run time) of ``synthesize_fitted``'s job table, drawn without the job
    table and the requested times, which the stage never reads, in the job table's dtypes (float64 times, int64
    counts: ``schedlab.parsers.schema.as_job_table``)."""
    submit_times, sizes, runtimes, _ = synthesis.fitted_columns(model, n_jobs, machine_procs, target_utilization, seed)
    return (np.asarray(submit_times).astype(np.float64), np.asarray(sizes).astype(np.int64),
            np.asarray(runtimes).astype(np.float64))


def offered_load(submit, nodes, base_time, total_nodes: int) -> float:
    """Node-seconds the jobs hold (their rectangular ``nodes`` for ``T_E0``) per node-second between the
    first and the last arrival."""
    return float(np.sum(nodes * base_time)) / (total_nodes * float(np.max(submit) - np.min(submit)))


def _stream_load(submit, size, runtime, procs: int) -> float:
    """``offered_load`` of one cluster's stream before its sizes are made rectangular."""
    return offered_load(submit, rectangular_sizes(np.minimum(size, procs))[0], runtime, procs)


def _realistic_arrivals(rng, size, runtime, procs: int, load: float) -> np.ndarray:
    """Arrival times from the realistic model's arrival process (daily and weekly cycles) for these jobs at ``load``."""
    submit, _ = fitted_arrivals(realistic_model(), rng, len(size), float(np.sum(size * runtime)), procs, load)
    return submit.astype(np.float64)


def _cluster_stream(kind: str, n: int, procs: int, load: float | None,
                    streams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    model_seed = int(streams["model"].integers(2**31))
    if kind in ("synthetic", "B"):
        size = streams["sizes"].integers(SYNTHETIC_SIZES[0], SYNTHETIC_SIZES[1] + 1, n)
        runtime = streams["runtimes"].exponential(SYNTHETIC_MEAN_RUNTIME, n)
        if kind == "synthetic":
            return _poisson_submits(streams["arrivals"], n, SYNTHETIC_MEAN_GAP), size, runtime
        load = float(np.sum(size * runtime)) / (procs * SYNTHETIC_MEAN_GAP * n)
        return _realistic_arrivals(streams["arrivals"], size, runtime, procs, load), size, runtime
    submit, size, runtime = _realistic_jobs(n, procs, model_seed, realistic_load() if load is None else load,
                                            drop_small=kind in SMALL_JOBS_REMOVED,
                                            keep_load=kind in LOAD_KEPT)
    if kind in POISSON_ARRIVALS:
        submit = _poisson_submits(streams["arrivals"], n, (submit[-1] - submit[0]) / max(n - 1, 1))
    return submit, size, runtime


def generate_jobs(kind: str, jobs_per_cluster: int, seed: int, *, load: float | None = None, n_clusters: int = 4,
                  procs: int = 100) -> Workload:
    """All clusters' jobs merged in arrival order (ties: lower cluster first), each with its own
    PPBW draw, every job exposed: ``Workload.with_communication`` picks a run's PPBW and exposure.
    ``load``: the realistic stream's offered load per cluster (None: the fitted trace's), for the
    workloads drawn from it (``LOAD_SET``)."""
    if kind not in WORKLOADS:
        raise ValueError(f"workload must be one of {WORKLOADS}, got {kind!r}")
    if load is not None and (kind not in LOAD_SET or not 0.0 < load):
        raise ValueError(f"a load (> 0) can be chosen for the workloads {LOAD_SET} only, got {load!r} for {kind!r}")
    parts = []
    for cluster in range(n_clusters):
        streams = _streams(seed, cluster)
        submit, requested, runtime = _cluster_stream(kind, jobs_per_cluster, procs, load, streams)
        n = len(submit)
        parts.append((submit, np.full(n, cluster), np.minimum(requested, procs), np.maximum(runtime, 1.0),
                      streams["ppbw"].uniform(*PPBW_RANGE, n), streams["rho"].random(n),
                      streams["exposure"].random(n)))
    columns = [np.concatenate(values) for values in zip(*parts, strict=True)]
    order = np.lexsort((columns[1], columns[0]))
    submit, home, requested, runtime, rates, rho, exposure = (values[order] for values in columns)
    nodes, grid_columns = rectangular_sizes(requested)
    rates = rates.astype(np.float64)
    return Workload(submit.astype(np.float64), home.astype(np.int64), requested.astype(np.int64), nodes,
                    grid_columns, runtime.astype(np.float64), rates, rho, np.ones(len(submit), dtype=bool), rates,
                    exposure)


def make_workload(kind: str, jobs_per_cluster: int, seed: int, *, ppbw: float | None = None,
                  information: float = 1.0, load: float | None = None, n_clusters: int = 4,
                  procs: int = 100) -> Workload:
    """``generate_jobs`` with one run's PPBW and information level."""
    return generate_jobs(kind, jobs_per_cluster, seed, load=load, n_clusters=n_clusters,
                         procs=procs).with_communication(ppbw, information)
