"""Distribution families: parameters recovered from data drawn with known ones, and the GoF figures."""

import numpy as np
import pytest
from scipy import stats

from schedlab.workloads.distributions import (
    FAMILY_PARAMETERS,
    distribution,
    fit_candidates,
    fit_family,
    weighted_gamma_mle,
)
from schedlab.workloads.gof import aic, integer_ks_distance, ks_distance, two_sample_ks_distance

N = 20_000

# (family, true parameters, scipy distribution to draw from, relative tolerance)
KNOWN = [
    ("exponential", {"scale": 300.0}, stats.expon(scale=300.0), 0.03),
    ("gamma", {"shape": 0.6, "scale": 2000.0}, stats.gamma(0.6, scale=2000.0), 0.05),
    ("lognormal", {"mu": 5.0, "sigma": 1.7}, stats.lognorm(1.7, scale=np.exp(5.0)), 0.03),
    ("weibull", {"shape": 0.7, "scale": 900.0}, stats.weibull_min(0.7, scale=900.0), 0.05),
]


@pytest.mark.parametrize(("family", "truth", "source", "tolerance"), KNOWN, ids=[k[0] for k in KNOWN])
def test_each_family_recovers_the_parameters_it_was_drawn_with(family, truth, source, tolerance):
    data = source.rvs(N, random_state=np.random.default_rng(11))
    fitted = fit_family(family, data)
    assert set(fitted) == set(FAMILY_PARAMETERS[family])
    for name, value in truth.items():
        assert fitted[name] == pytest.approx(value, rel=tolerance), name


def test_hyper_gamma_recovers_both_components_and_orders_them_by_mean():
    rng = np.random.default_rng(5)
    from_first = rng.random(N) < 0.35
    data = np.where(from_first, rng.gamma(3.0, 20.0, N), rng.gamma(2.0, 4000.0, N))
    fitted = fit_family("hyper-gamma", data)
    assert fitted["p"] == pytest.approx(0.35, abs=0.02)
    assert fitted["shape1"] == pytest.approx(3.0, rel=0.1)
    assert fitted["scale1"] == pytest.approx(20.0, rel=0.1)
    assert fitted["shape2"] == pytest.approx(2.0, rel=0.1)
    assert fitted["scale2"] == pytest.approx(4000.0, rel=0.1)


def test_hyper_gamma_distribution_is_the_mixture_of_its_gammas():
    params = {"p": 0.3, "shape1": 2.0, "scale1": 5.0, "shape2": 4.0, "scale2": 100.0}
    mixture = distribution("hyper-gamma", params)
    x = np.array([1.0, 10.0, 300.0, 1000.0])
    expected = 0.3 * stats.gamma.cdf(x, 2.0, scale=5.0) + 0.7 * stats.gamma.cdf(x, 4.0, scale=100.0)
    assert mixture.cdf(x) == pytest.approx(expected)
    density = 0.3 * stats.gamma.pdf(x, 2.0, scale=5.0) + 0.7 * stats.gamma.pdf(x, 4.0, scale=100.0)
    assert np.exp(mixture.logpdf(x)) == pytest.approx(density)
    draws = mixture.rvs(size=N, random_state=np.random.default_rng(2))
    assert stats.kstest(draws, mixture.cdf).statistic < 0.015


def test_weighted_gamma_fit_equals_the_fit_of_repeated_data():
    rng = np.random.default_rng(3)
    x = rng.gamma(1.5, 10.0, 400)
    counts = rng.integers(1, 4, 400)
    shape, scale = weighted_gamma_mle(x, np.log(x), counts.astype(float))
    reference_shape, _, reference_scale = stats.gamma.fit(np.repeat(x, counts), floc=0)
    assert shape == pytest.approx(reference_shape, rel=1e-4)
    assert scale == pytest.approx(reference_scale, rel=1e-4)


def test_candidates_report_likelihood_aic_and_ks_and_choose_the_smallest_aic():
    data = stats.lognorm(1.2, scale=100.0).rvs(3000, random_state=np.random.default_rng(8))
    result = fit_candidates(data)
    assert set(result["candidates"]) == set(FAMILY_PARAMETERS)
    for family, candidate in result["candidates"].items():
        fitted = distribution(family, candidate["params"])
        log_likelihood = float(np.sum(fitted.logpdf(data)))
        assert candidate["log_likelihood"] == pytest.approx(log_likelihood)
        assert candidate["aic"] == pytest.approx(2 * len(FAMILY_PARAMETERS[family]) - 2 * log_likelihood)
        assert candidate["ks"] == pytest.approx(stats.kstest(data, fitted.cdf).statistic)
    assert result["chosen"] == min(result["candidates"], key=lambda f: result["candidates"][f]["aic"])
    assert result["candidates"]["lognormal"]["ks"] < result["candidates"]["exponential"]["ks"]


@pytest.mark.parametrize("bad", [[1.0], [1.0, 0.0, 2.0], [1.0, -3.0], [1.0, np.inf]])
def test_fitting_refuses_data_that_is_not_positive_and_finite(bad):
    with pytest.raises(ValueError):
        fit_family("gamma", bad)


def test_ks_distances_agree_with_scipy():
    rng = np.random.default_rng(4)
    first, second = rng.normal(size=500), rng.normal(0.2, 1.0, size=700)
    assert ks_distance(first, stats.norm.cdf) == pytest.approx(stats.kstest(first, stats.norm.cdf).statistic)
    assert two_sample_ks_distance(first, second) == pytest.approx(stats.ks_2samp(first, second).statistic)
    assert aic(-10.0, 3) == 26.0


def test_integer_ks_distance_compares_step_functions_at_whole_numbers():
    # sample: 1, 1, 2, 4 -> empirical CDF at 1..4 = .5, .75, .75, 1; model: uniform on 1..4 -> .25, .5, .75, 1
    uniform_cdf = lambda x: np.minimum(np.asarray(x) / 4.0, 1.0)
    assert integer_ks_distance([1, 1, 2, 4], uniform_cdf) == pytest.approx(0.25)
    assert integer_ks_distance([1, 2, 3, 4], uniform_cdf) == pytest.approx(0.0)
