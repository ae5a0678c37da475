"""Job sizes: the two-stage uniform size model against a direct simulation of its rules."""

import numpy as np
import pytest

from schedlab.workloads.sizes import SizeModel, fit_sizes, size_classes


def simulate_rules(model: SizeModel, machine_procs: int, n: int, rng) -> np.ndarray:
    """The model's rules, one job at a time, written independently of schedlab.workloads.sizes."""
    sizes = []
    largest_power = 2 ** int(np.floor(np.log2(machine_procs)))
    for _ in range(n):
        u = rng.random()
        if u < model.serial_prob:
            sizes.append(1)
            continue
        if rng.random() < model.uprob:
            x = rng.uniform(model.ulow, model.umed)
        else:
            x = rng.uniform(model.umed, model.uhi)
        if u < model.serial_prob + model.pow2_prob:
            size = 2 ** int(np.floor(x + 0.5))
            sizes.append(min(size, largest_power))
        else:
            sizes.append(min(int(np.floor(2**x + 0.5)), machine_procs))
    return np.array(sizes)


MODEL_100 = SizeModel(serial_prob=0.3, pow2_prob=0.45, ulow=0.8, umed=4.0, uhi=np.log2(100), uprob=0.8)


def test_pmf_matches_a_simulation_of_the_rules():
    pmf = MODEL_100.pmf(100)
    assert pmf.sum() == pytest.approx(1.0)
    simulated = simulate_rules(MODEL_100, 100, 40_000, np.random.default_rng(1))
    observed = np.bincount(simulated - 1, minlength=100) / simulated.size
    assert np.abs(observed - pmf).max() < 0.01
    assert pmf[127:].size == 0 and pmf[100 - 1] > 0  # nothing above the machine


def test_inverse_cdf_sampling_follows_the_pmf():
    sizes = MODEL_100.sizes_from_uniforms(np.random.default_rng(2).random(40_000), 100)
    assert sizes.min() >= 1 and sizes.max() <= 100
    observed = np.bincount(sizes - 1, minlength=100) / sizes.size
    assert np.abs(np.cumsum(observed) - np.cumsum(MODEL_100.pmf(100))).max() < 0.01


def test_fit_recovers_the_model_from_simulated_sizes():
    simulated = simulate_rules(MODEL_100, 100, 30_000, np.random.default_rng(3))
    model, fit = fit_sizes(simulated, 100)
    classes = size_classes(simulated)
    assert model.serial_prob == classes["serial"] == pytest.approx(0.3, abs=0.01)
    assert model.uhi == pytest.approx(np.log2(100))
    assert model.umed == pytest.approx(4.0, abs=0.25)
    assert model.uprob == pytest.approx(0.8, abs=0.05)
    assert fit["ks"] < 0.02
    assert fit["log_likelihood"] < 0


def test_moving_to_another_machine_keeps_umed_below_uhi_by_the_same_distance():
    model = SizeModel(0.2, 0.5, 0.8, 4.5, 7.0, 0.86).for_machine(1024)
    assert model.uhi == pytest.approx(10.0) and model.umed == pytest.approx(7.5)
    small = SizeModel(0.2, 0.5, 0.8, 4.5, 7.0, 0.86).for_machine(4)
    assert small.ulow < small.umed < small.uhi == pytest.approx(2.0)


def test_size_classes_count_serial_power_of_two_and_other_jobs():
    assert size_classes([1, 2, 3, 4, 6, 8, 1, 64]) == {"serial": 0.25, "power_of_two": 0.5, "other": 0.25}
