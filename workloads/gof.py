"""Goodness-of-fit figures: Kolmogorov-Smirnov distances and the AIC."""

from __future__ import annotations

import numpy as np


def ks_distance(sample, cdf) -> float:
    """Largest gap between the empirical CDF of ``sample`` and the function ``cdf``."""
    values = np.sort(np.asarray(sample, dtype=float))
    if values.size == 0:
        raise ValueError("no data for a KS distance")
    model = cdf(values)
    n = values.size
    above = np.arange(1, n + 1) / n - model
    below = model - np.arange(0, n) / n
    return float(max(above.max(), below.max()))


def two_sample_ks_distance(first, second) -> float:
    """Largest gap between the empirical CDFs of two samples."""
    first = np.sort(np.asarray(first, dtype=float))
    second = np.sort(np.asarray(second, dtype=float))
    if first.size == 0 or second.size == 0:
        raise ValueError("no data for a KS distance")
    points = np.concatenate((first, second))
    first_cdf = np.searchsorted(first, points, side="right") / first.size
    second_cdf = np.searchsorted(second, points, side="right") / second.size
    return float(np.abs(first_cdf - second_cdf).max())


def discrete_ks_distance(observed_pmf, model_pmf) -> float:
    """Largest gap between two CDFs given as probability mass over the same points."""
    return float(np.abs(np.cumsum(observed_pmf) - np.cumsum(model_pmf)).max())


def aic(log_likelihood: float, n_params: int) -> float:
    """Akaike information criterion: 2 k - 2 log L (smaller is better)."""
    return 2 * n_params - 2 * log_likelihood


def integer_ks_distance(sample, cdf) -> float:
    """KS distance for a distribution on the whole numbers 1, 2, ...: compared at each of them.

    The continuous formula of :func:`ks_distance` would compare a step of the model's
    CDF with the empirical CDF just below it, and so overstate the distance.
    """
    values = np.sort(np.asarray(sample, dtype=np.int64))
    if values.size == 0:
        raise ValueError("no data for a KS distance")
    points = np.arange(1, values[-1] + 1)
    empirical = np.searchsorted(values, points, side="right") / values.size
    return float(np.abs(empirical - cdf(points)).max())
