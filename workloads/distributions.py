"""Candidate distribution families for positive quantities (runtimes, arrival gaps).

Five families, all supported on x > 0 and fitted by maximum likelihood:

==============  ======================================  ==================================
family          parameters                              density
==============  ======================================  ==================================
exponential     scale                                   exp(-x/scale) / scale
gamma           shape, scale                            x^(shape-1) e^(-x/scale) / (Gamma(shape) scale^shape)
lognormal       mu, sigma (of ln x)                     normal density of ln x, divided by x
weibull         shape, scale                            (shape/scale) (x/scale)^(shape-1) e^(-(x/scale)^shape)
hyper-gamma     p, shape1, scale1, shape2, scale2       p gamma(shape1, scale1) + (1-p) gamma(shape2, scale2)
==============  ======================================  ==================================

The hyper-gamma (a two-gamma mixture) is the runtime family of Lublin and Feitelson
(JPDC 63(11), 2003): one component for short jobs, one for long ones.  It is fitted by
expectation-maximisation; component 1 is the one with the smaller mean.

:func:`fit_candidates` fits every family, ranks them by the Akaike information
criterion (AIC = 2 k - 2 log L: likelihood, penalised by the parameter count) and
reports each one's Kolmogorov-Smirnov distance to the data.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from schedlab.workloads.gof import aic, ks_distance

FAMILY_PARAMETERS: dict[str, tuple[str, ...]] = {
    "exponential": ("scale",),
    "gamma": ("shape", "scale"),
    "lognormal": ("mu", "sigma"),
    "weibull": ("shape", "scale"),
    "hyper-gamma": ("p", "shape1", "scale1", "shape2", "scale2"),
}

EM_MAX_ITERATIONS = 1000
EM_TOLERANCE = 1e-8  # stop when the log-likelihood per point improves by less than this


class HyperGamma:
    """Mixture of two gamma distributions, with the same methods as a frozen scipy distribution."""

    def __init__(self, p, shape1, scale1, shape2, scale2):
        self.p = p
        self.first = stats.gamma(shape1, scale=scale1)
        self.second = stats.gamma(shape2, scale=scale2)

    def cdf(self, x):
        return self.p * self.first.cdf(x) + (1 - self.p) * self.second.cdf(x)

    def logpdf(self, x):
        return np.logaddexp(np.log(self.p) + self.first.logpdf(x), np.log1p(-self.p) + self.second.logpdf(x))

    def rvs(self, size: int, random_state: np.random.Generator):
        from_first = random_state.random(size) < self.p
        return np.where(
            from_first,
            self.first.rvs(size, random_state=random_state),
            self.second.rvs(size, random_state=random_state),
        )


def distribution(family: str, params: dict):
    """The distribution of ``family`` with ``params``: an object with cdf, logpdf and rvs."""
    if family == "exponential":
        return stats.expon(scale=params["scale"])
    if family == "gamma":
        return stats.gamma(params["shape"], scale=params["scale"])
    if family == "lognormal":
        return stats.lognorm(params["sigma"], scale=np.exp(params["mu"]))
    if family == "weibull":
        return stats.weibull_min(params["shape"], scale=params["scale"])
    if family == "hyper-gamma":
        return HyperGamma(**params)
    raise ValueError(f"unknown distribution family {family!r}")


def weighted_gamma_mle(x: np.ndarray, log_x: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """Maximum-likelihood gamma (shape, scale) for data ``x`` (and its log) with per-point weights.

    The shape solves ln(shape) - digamma(shape) = ln(weighted mean) - weighted mean of ln x
    (Newton's method on ln shape, from the Minka approximation); scale = mean / shape.
    """
    total = weights.sum()
    mean = float((weights * x).sum() / total)
    mean_log = float((weights * log_x).sum() / total)
    gap = max(np.log(mean) - mean_log, 1e-12)
    shape = (3 - gap + np.sqrt((gap - 3) ** 2 + 24 * gap)) / (12 * gap)
    for _ in range(100):
        residual = np.log(shape) - special.digamma(shape) - gap
        slope = 1 - shape * special.zeta(2, shape)  # d residual / d ln(shape); zeta(2, k) is the trigamma function
        step = residual / slope
        shape *= np.exp(-np.clip(step, -5, 5))
        if abs(step) < 1e-12:
            break
    return float(shape), mean / float(shape)


def gamma_log_density(x: np.ndarray, log_x: np.ndarray, shape: float, scale: float) -> np.ndarray:
    """Log of the gamma density at ``x``, reusing its precomputed logarithm."""
    return (shape - 1) * log_x - x / scale - special.gammaln(shape) - shape * np.log(scale)


def fit_hyper_gamma(x: np.ndarray) -> dict:
    """Two-gamma mixture by expectation-maximisation, best of a few starting splits."""
    log_x = np.log(x)
    best, best_log_likelihood = None, -np.inf
    for split_quantile in (0.25, 0.5, 0.75):
        in_second = (log_x > np.quantile(log_x, split_quantile)).astype(float)
        if in_second.sum() in (0, x.size):
            continue
        params, log_likelihood = _expectation_maximisation(x, log_x, in_second)
        if log_likelihood > best_log_likelihood:
            best, best_log_likelihood = params, log_likelihood
    if best is None:
        raise ValueError("a hyper-gamma fit needs data with at least two distinct values")
    if best["shape1"] * best["scale1"] > best["shape2"] * best["scale2"]:
        best = {
            "p": 1 - best["p"],
            "shape1": best["shape2"],
            "scale1": best["scale2"],
            "shape2": best["shape1"],
            "scale2": best["scale1"],
        }
    return best


def _expectation_maximisation(x: np.ndarray, log_x: np.ndarray, second_share: np.ndarray) -> tuple[dict, float]:
    """EM iterations from an initial responsibility of component 2 for each point."""
    previous = -np.inf
    for _ in range(EM_MAX_ITERATIONS):
        p = float(np.clip(1 - second_share.mean(), 1e-9, 1 - 1e-9))
        shape1, scale1 = weighted_gamma_mle(x, log_x, 1 - second_share + 1e-300)
        shape2, scale2 = weighted_gamma_mle(x, log_x, second_share + 1e-300)
        log_first = np.log(p) + gamma_log_density(x, log_x, shape1, scale1)
        log_second = np.log1p(-p) + gamma_log_density(x, log_x, shape2, scale2)
        log_density = np.logaddexp(log_first, log_second)
        second_share = np.exp(log_second - log_density)
        log_likelihood = float(log_density.sum())
        if log_likelihood - previous < EM_TOLERANCE * x.size:
            break
        previous = log_likelihood
    params = {"p": p, "shape1": shape1, "scale1": scale1, "shape2": shape2, "scale2": scale2}
    return params, log_likelihood


def fit_family(family: str, data) -> dict:
    """Maximum-likelihood parameters of ``family`` for positive ``data``."""
    x = np.asarray(data, dtype=float)
    if x.size < 2 or np.any(x <= 0) or not np.all(np.isfinite(x)):
        raise ValueError("fitting needs at least two finite values, all > 0")
    if family == "exponential":
        return {"scale": float(x.mean())}
    if family == "gamma":
        shape, scale = weighted_gamma_mle(x, np.log(x), np.ones_like(x))
        return {"shape": shape, "scale": scale}
    if family == "lognormal":
        log_x = np.log(x)
        return {"mu": float(log_x.mean()), "sigma": float(log_x.std())}
    if family == "weibull":
        shape, _, scale = stats.weibull_min.fit(x, floc=0)
        return {"shape": float(shape), "scale": float(scale)}
    if family == "hyper-gamma":
        return fit_hyper_gamma(x)
    raise ValueError(f"unknown distribution family {family!r}")


def fit_candidates(data) -> dict:
    """Fit every family to positive ``data``; choose the one with the smallest AIC.

    Returns ``{"chosen": family, "candidates": {family: {"params", "log_likelihood",
    "aic", "ks"}}}`` where ``ks`` is the Kolmogorov-Smirnov distance between the data's
    empirical CDF and the fitted CDF.
    """
    x = np.asarray(data, dtype=float)
    candidates = {}
    for family, names in FAMILY_PARAMETERS.items():
        params = fit_family(family, x)
        fitted = distribution(family, params)
        log_likelihood = float(np.sum(fitted.logpdf(x)))
        candidates[family] = {
            "params": params,
            "log_likelihood": log_likelihood,
            "aic": aic(log_likelihood, len(names)),
            "ks": ks_distance(x, fitted.cdf),
        }
    chosen = min(candidates, key=lambda family: candidates[family]["aic"])
    return {"chosen": chosen, "candidates": candidates}
