"""The Tsafrir-Etsion-Feitelson user-estimate model: its published numbers and its guarantees."""

import numpy as np
import pytest

from schedlab.errors import SchedlabError
from schedlab.workloads.estimates import (
    estimate_count,
    estimate_histogram,
    head_popularity,
    head_times,
    time_to_popularity_ranks,
    tsafrir_estimates,
)
from schedlab.workloads.lublin import lublin_feitelson_jobs
from schedlab.workloads.model import EXACT_ESTIMATES, builtin_lublin_feitelson_model, validate_model, ModelError
from schedlab.workloads.synthesis import synthesize

HOUR, MINUTE = 3600, 60


def test_number_of_distinct_estimates_follows_the_published_points():
    assert estimate_count(20) == 10
    assert estimate_count(200) == 20
    assert estimate_count(600) == 28  # halfway between (200, 20) and (1000, 35): 27.5, rounded
    assert estimate_count(10_000) == 90
    assert estimate_count(1_000_000) == 565


def test_head_of_an_18_hour_maximum():
    # 18 h is the maximum; below it the 14 other common values; then multiples of 10 h (10 h is taken)
    # and of 5 h downwards from 15 h: 15 h, then 5 h is taken, so the 1-hour step adds 17 h... until 20 values.
    times = head_times(18 * HOUR)
    assert times[0] == 18 * HOUR and len(times) == 20
    common = [5, 10, 15, 20, 30]
    assert [t // MINUTE for t in times[1:6]] == common
    assert {1, 2, 3, 4, 5, 6, 8, 10, 12} <= {t // HOUR for t in times[1:] if t % HOUR == 0}
    assert 15 * HOUR in times and 17 * HOUR in times and 16 * HOUR in times
    assert times[1:] == sorted(times[1:]) and len(set(times)) == 20


def test_a_maximum_below_one_hour_is_refused():
    with pytest.raises(SchedlabError, match="at least one hour"):
        head_times(30 * MINUTE)


def test_head_popularity_sums_to_89_percent_and_decreases():
    shares = head_popularity(20)
    assert shares.sum() == pytest.approx(89.0)
    assert shares[1] == pytest.approx(14.0491 * np.exp(-0.177531 * 2) + 0.462513)
    assert np.all(np.diff(shares) < 0)


def test_the_maximum_is_most_popular_and_every_rank_is_used_once():
    for seed in range(20):
        ranks = time_to_popularity_ranks(np.random.default_rng(seed), 20)
        assert ranks[0] == 1 and sorted(ranks) == list(range(1, 21))


def test_histogram_counts_sum_to_the_jobs():
    times, counts = estimate_histogram(np.random.default_rng(2), 5_000, 48 * HOUR)
    assert counts.sum() == 5_000 and (counts >= 0).all()
    assert times.max() == 48 * HOUR and len(times) == estimate_count(5_000)
    assert counts[times == 48 * HOUR][0] == counts.max()  # the maximum is the most popular estimate


def test_estimates_cover_their_runtimes_and_stay_under_the_maximum():
    runtimes = np.random.default_rng(0).integers(1, 40 * HOUR, 3_000).astype(float)
    estimates = tsafrir_estimates(np.random.default_rng(1), runtimes, 48 * HOUR)
    assert (estimates >= runtimes).all() and estimates.max() <= 48 * HOUR
    assert np.mean(estimates != runtimes) > 0.9
    assert len(np.unique(estimates)) <= estimate_count(3_000)


def test_too_small_a_maximum_is_refused_with_the_reason():
    with pytest.raises(SchedlabError, match="exceeds the maximal estimate"):
        tsafrir_estimates(np.random.default_rng(1), np.array([5 * HOUR]), 4 * HOUR)


def test_many_long_jobs_push_jobs_to_the_maximum_just_enough():
    # Every job runs 3.9 h under a 4 h maximum: only the maximum covers them, so every job gets it.
    assert (tsafrir_estimates(np.random.default_rng(1), np.full(1_000, 3.9 * HOUR), 4 * HOUR) == 4 * HOUR).all()
    # Half the jobs that long: the other half keep smaller estimates.
    runtimes = np.concatenate([np.full(500, 3.9 * HOUR), np.full(500, 60.0)])
    estimates = tsafrir_estimates(np.random.default_rng(1), runtimes, 4 * HOUR)
    assert (estimates >= runtimes).all() and (estimates[500:] < 4 * HOUR).any()


def test_same_seed_same_estimates():
    runtimes = np.arange(1, 501, dtype=float) * 60
    first = tsafrir_estimates(np.random.default_rng(9), runtimes, 24 * HOUR)
    assert np.array_equal(first, tsafrir_estimates(np.random.default_rng(9), runtimes, 24 * HOUR))


def test_builtin_model_writes_estimates_exact_only_when_asked():
    modelled = synthesize(builtin_lublin_feitelson_model(), 2_000, 100, 0.7, 3)
    exact = synthesize(builtin_lublin_feitelson_model(EXACT_ESTIMATES), 2_000, 100, 0.7, 3)
    assert np.mean(modelled["requested_time"] != modelled["run_time"]) > 0.5
    assert modelled["requested_time"].max() <= 46 * HOUR
    assert (exact["requested_time"] == exact["run_time"]).all()
    # the estimates draw from a stream of their own: every other column is the same
    columns = [c for c in modelled.columns if c != "requested_time"]
    assert modelled[columns].equals(exact[columns])


def test_estimate_choice_is_validated():
    document = builtin_lublin_feitelson_model()
    document["requested_times"] = "guess"
    with pytest.raises(ModelError, match="requested_times"):
        validate_model(document)


def test_exact_estimates_keep_the_old_table():
    jobs = lublin_feitelson_jobs(500, 64, 2, exact_estimates=True)
    assert (jobs["requested_time"] == jobs["run_time"]).all()
