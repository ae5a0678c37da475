"""Job sizes (processor counts) as in the Lublin-Feitelson model.

Lublin and Feitelson ("The workload on parallel supercomputers: modeling the
characteristics of rigid jobs", JPDC 63(11), 2003, section 4) split jobs in three classes:

* serial jobs (one processor), with probability ``serial_prob``;
* power-of-two jobs, with probability ``pow2_prob``;
* all other parallel jobs, with the remaining probability.

A parallel job draws ``x = log2(size)`` from a *two-stage uniform* distribution: with
probability ``uprob`` uniform on ``[ulow, umed]``, otherwise uniform on ``[umed, uhi]``
(small jobs are common, big ones rarer but not negligible).  A power-of-two job then
rounds ``x`` to the nearest integer and takes ``2**x``; any other job takes ``2**x``
rounded to the nearest integer.  ``uhi`` is log2 of the machine size and ``ulow`` sits
just under 1, so that the smallest parallel job has 2 processors.

On a machine whose size is not a power of two, rounding can give a power of two above
the machine: such jobs take the largest power of two that fits (they stay power-of-two
jobs).  Every size is at most the machine size.

Because sizes are discrete, the distribution is handled through its exact probability
mass function over ``1..machine_procs``; sampling inverts its CDF, which is what lets
the synthesis couple sizes with runtimes through a copula.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from scipy import optimize

from schedlab.errors import SchedlabError
from schedlab.workloads.gof import discrete_ks_distance

MAX_MACHINE_PROCS = 2**24
"""16,777,216 processors: above the largest machines built (Fugaku: 7.6 million cores); the size
model's arrays then take 128 MiB each, where a damaged size field of 10^12 would ask for terabytes."""


@dataclass(frozen=True)
class SizeModel:
    serial_prob: float
    pow2_prob: float
    ulow: float
    umed: float
    uhi: float
    uprob: float

    def __post_init__(self):
        if not (0 <= self.serial_prob and 0 <= self.pow2_prob and self.serial_prob + self.pow2_prob <= 1):
            raise ValueError("size classes: serial_prob and pow2_prob must be >= 0 and sum to <= 1")
        if not self.ulow < self.umed < self.uhi:
            raise ValueError("two-stage uniform needs ulow < umed < uhi")
        if not 0 <= self.uprob <= 1:
            raise ValueError("two-stage uniform: uprob must be in [0, 1]")

    def as_dict(self) -> dict:
        return asdict(self)

    def for_machine(self, machine_procs: int) -> SizeModel:
        """The same model on another machine: ``uhi`` becomes log2 of its size.

        ``umed`` moves by the same amount (the paper places it a fixed distance below
        ``uhi``), kept strictly between ``ulow`` and ``uhi``; ``ulow`` stays.
        """
        uhi = float(np.log2(machine_procs))
        if uhi <= self.ulow:
            raise ValueError(f"a {machine_procs}-processor machine is too small for this size model")
        umed = self.umed + (uhi - self.uhi)
        margin = 0.01 * (uhi - self.ulow)
        umed = min(max(umed, self.ulow + margin), uhi - margin)
        return SizeModel(self.serial_prob, self.pow2_prob, self.ulow, umed, uhi, self.uprob)

    def log2_cdf(self, x) -> np.ndarray:
        """CDF of the two-stage uniform log2 size of a parallel job."""
        x = np.asarray(x, dtype=float)
        low_part = self.uprob * np.clip((x - self.ulow) / (self.umed - self.ulow), 0, 1)
        high_part = (1 - self.uprob) * np.clip((x - self.umed) / (self.uhi - self.umed), 0, 1)
        return low_part + high_part

    def pmf(self, machine_procs: int) -> np.ndarray:
        """Probability of each size; element ``i`` is the probability of size ``i + 1`` (one element
        per processor, hence ``MAX_MACHINE_PROCS``)."""
        check_machine_size(machine_procs)
        sizes = np.arange(1, machine_procs + 1, dtype=float)
        other = self.log2_cdf(np.log2(sizes + 0.5)) - self.log2_cdf(np.log2(sizes - 0.5))
        other[-1] += 1 - self.log2_cdf(np.log2(machine_procs + 0.5))
        pmf = (1 - self.serial_prob - self.pow2_prob) * other
        pmf[0] += self.serial_prob
        largest_exponent = int(np.floor(np.log2(machine_procs)))
        exponents = np.arange(0, largest_exponent + 1)
        pow2 = self.log2_cdf(exponents + 0.5) - self.log2_cdf(exponents - 0.5)
        pow2[-1] += 1 - self.log2_cdf(largest_exponent + 0.5)
        pmf[2**exponents - 1] += self.pow2_prob * pow2
        return pmf

    def sizes_from_uniforms(self, uniforms, machine_procs: int) -> np.ndarray:
        """Sizes whose CDF value first reaches each uniform (inverse-CDF sampling)."""
        cdf = np.cumsum(self.pmf(machine_procs))
        index = np.searchsorted(cdf, np.asarray(uniforms) * cdf[-1], side="left")
        return np.minimum(index, machine_procs - 1).astype(np.int64) + 1


def size_classes(sizes) -> dict:
    """Observed shares of serial, power-of-two (parallel) and other jobs."""
    sizes = np.asarray(sizes, dtype=np.int64)
    serial = sizes == 1
    pow2 = (sizes > 1) & ((sizes & (sizes - 1)) == 0)
    n = max(sizes.size, 1)
    return {
        "serial": float(serial.sum() / n),
        "power_of_two": float(pow2.sum() / n),
        "other": float((~serial & ~pow2).sum() / n),
    }


def check_machine_size(machine_procs: int) -> None:
    """Refuse a machine larger than ``MAX_MACHINE_PROCS`` (the size model holds a number per processor)."""
    if machine_procs > MAX_MACHINE_PROCS:
        raise SchedlabError(f"a machine of {machine_procs:,} processors is beyond the size model's "
                            f"{MAX_MACHINE_PROCS:,} (it keeps a probability per processor size); a trace with "
                            "such a job size is most likely damaged: check its processor fields")


def fit_sizes(sizes, machine_procs: int) -> tuple[SizeModel, dict]:
    """Fit the size model to observed sizes by maximum likelihood.

    The class shares are the observed shares of serial and power-of-two jobs;
    ``uhi`` is log2 of the machine size; ``ulow``, ``umed`` and ``uprob`` maximise the
    likelihood of the observed sizes under the exact probability mass function.
    Returns the model and its goodness of fit (log-likelihood, KS distance between the
    observed and the model CDF over sizes).
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    if sizes.size == 0:
        raise ValueError("no job sizes to fit")
    if sizes.min() < 1 or sizes.max() > machine_procs:
        raise ValueError(f"job sizes must lie in 1..{machine_procs}")
    if machine_procs < 2:
        raise ValueError("a size model needs a machine of at least 2 processors")
    check_machine_size(machine_procs)
    shares = size_classes(sizes)
    counts = np.bincount(sizes - 1, minlength=machine_procs)
    uhi = float(np.log2(machine_procs))

    def model_from(free) -> SizeModel:
        ulow = 1 - 1 / (1 + np.exp(-free[0]))  # in (0, 1): the smallest parallel job has 2 processors
        fraction_med = 1 / (1 + np.exp(-free[1]))
        umed = ulow + fraction_med * (uhi - ulow)
        uprob = 1 / (1 + np.exp(-free[2]))
        return SizeModel(shares["serial"], shares["power_of_two"], float(ulow), float(umed), uhi, float(uprob))

    def negative_log_likelihood(free) -> float:
        pmf = model_from(free).pmf(machine_procs)
        observed = counts > 0
        return -float(np.sum(counts[observed] * np.log(np.maximum(pmf[observed], 1e-300))))

    starts = [np.array([0.0, fraction, 1.5]) for fraction in (0.3, 0.5, 0.7)]
    best = min(
        (optimize.minimize(negative_log_likelihood, start, method="Nelder-Mead", options={"xatol": 1e-6, "fatol": 1e-9, "maxiter": 4000}) for start in starts),
        key=lambda result: result.fun,
    )
    model = model_from(best.x)
    pmf = model.pmf(machine_procs)
    fit = {
        "log_likelihood": -float(best.fun),
        "ks": discrete_ks_distance(counts / counts.sum(), pmf),
        "observed_classes": shares,
    }
    return model, fit
