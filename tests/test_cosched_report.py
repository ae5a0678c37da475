"""Aggregation over replications, workloads of the study, and the report's figures and tables."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from schedlab.reports.cosched import FIGURES, coscheduling_figure, deadlock_table, latex_table
from schedlab.reports.figures import save_figure
from schedlab.errors import SchedlabError
from schedlab.simulators.cosched.experiments import (
    PROFILES,
    CalibrationMissed,
    calibrate_min_runtime,
    calibrate_width_scale,
    confidence_table,
    grid,
    job_diagnostics,
    summary_rows,
)
from schedlab.simulators.cosched.run import baseline_metrics
from schedlab.simulators.cosched.workloads import (
    analysis_by_load,
    analysis_like,
    analysis_stream,
    INTREPID_PROCS,
    intrepid_standin,
    trace_window,
    widths_on_intrepid,
    window_start_day,
)
from schedlab.workloads.load import offered_load
from schedlab.workloads.model import builtin_lublin_feitelson_model


def summary(series, x, scheme, seed, wait_a, release=True, deadlock=False):
    metrics = {
        "mean_wait": wait_a, "mean_slowdown": 2.0, "mean_bsld": 1.5, "mean_sync": 600.0,
        "su_loss_hours": 10.0, "su_loss_share": 0.01, "paired_share": 0.05,
        "holds": 1.0, "yields": 0.0, "releases": 0.0, "jobs": 100.0, "started": 100.0, "utilization": 0.5,
    }
    workload = {"offered_load": 0.5, "exact_estimate_share": 0.0}
    diagnostics = {"wait_paired": wait_a, "wait_unpaired": wait_a, "shortest_tenth_max_run_time": 60.0,
                   "shortest_tenth_slowdown_share": 0.5, "slowdown_other_nine_tenths": 1.2, "held_jobs": 1.0,
                   "held_mean_procs": 4.0, "held_mean_hours": 0.5}
    return {
        "point": {"series": series, "x": x, "scheme": scheme, "seed": seed, "release": release},
        "workloads": {"A": workload, "B": workload},
        "diagnostics": {"A": diagnostics, "B": diagnostics},
        "metrics": {"A": metrics, "B": {**metrics, "mean_wait": 60.0}},
        "deadlock": {"deadlock": deadlock, "kind": "stall" if deadlock else None, **({"day": 3.5} if deadlock else {}),
                     "last_start_day": {"A": 3.5 if deadlock else 29.0, "B": 3.0 if deadlock else 29.5}, "starved": []},
        "max_pair_start_gap": 0.0,
    }


def test_confidence_interval_is_the_student_t_interval():
    rows = summary_rows([summary("load", 0.5, "HH", seed, wait) for seed, wait in ((1, 60.0), (2, 120.0), (3, 180.0))])
    table = confidence_table(rows)
    a = table[table["machine"] == "A"].iloc[0]
    # mean 120, sample sd 60, t(0.975, 2 dof) = 4.302653
    assert a["mean_wait"] == pytest.approx(120.0)
    assert a["mean_wait_ci"] == pytest.approx(4.302653 * 60 / np.sqrt(3), rel=1e-6)
    assert a["replications"] == 3 and a["deadlocks"] == 0


def test_paper_grid_counts():
    paper = PROFILES["paper"]
    points = grid(paper)
    # (3 loads + 5 ratios) x (4 combinations + baseline) x 20 seeds, + (3 loads + 5 ratios) x 20 hold-hold
    # release-off runs, + the 5 ratios x 5 x 20 of the variant reading of B's arrivals
    assert len(points) == 8 * 5 * 20 + 8 * 20 + 5 * 5 * 20
    assert len(set(points)) == len(points)


def test_analysis_by_load_offers_its_label_over_a_window_like_a():
    reference = pd.DataFrame({"submit_time": np.linspace(5000.0, 5000.0 + 30 * 86400, 400)})
    model = builtin_lublin_feitelson_model()
    for load in (0.25, 0.5, 0.75):
        jobs = analysis_by_load(model, 100, load, reference, seed=4, min_runtime=30)
        assert abs(offered_load(jobs, 100) - load) < 0.001  # exact up to whole-second submit times
        assert jobs["submit_time"].min() == 5000.0
        assert 30 * 86400 <= jobs["submit_time"].max() - 5000.0 < 31 * 86400  # A's span, plus at most one job's
        assert (jobs["run_time"] >= 30).all()


def test_widths_map_a_share_of_the_log_onto_whole_intrepid_partitions():
    jobs = pd.DataFrame({"job_id": [1, 2, 3, 4, 5], "submit_time": [0.0, 1.0, 2.0, 3.0, 4.0],
                         "run_time": [100.0, 200.0, 300.0, 400.0, 500.0],
                         "requested_time": [150.0, 250.0, 350.0, 450.0, 550.0],
                         "allocated_procs": [128, 1000, 4000, -1, 1], "requested_procs": [128, 1000, 4000, 300, 1]})
    mapped = widths_on_intrepid(jobs, 4000, 0.5)
    # 128/4000 x 0.5 x 40,960 = 655.4 nodes -> 2 partitions; 1000 -> 5120 nodes, exactly 10; 4000 -> 20,480,
    # exactly 40; the unknown allocation falls back on the request: 300 -> 1536, exactly 3; 1 node -> 1 partition.
    assert list(mapped["allocated_procs"]) == [1024, 5120, 20480, 1536, 512]
    assert list(mapped["requested_procs"]) == [1024, 5120, 20480, 1536, 512]
    for column in ("submit_time", "run_time", "requested_time"):
        assert (mapped[column] == jobs[column]).all()
    # Never wider than Intrepid's largest job, 64 partitions.
    assert widths_on_intrepid(jobs, 4000, 2.0)["allocated_procs"].max() == 32768


def test_width_calibration_reaches_the_baseline_wait_it_is_asked_for():
    model = builtin_lublin_feitelson_model()
    jobs = analysis_by_load(model, 100, 0.8, pd.DataFrame({"submit_time": [0.0, 30 * 86400.0]}), seed=2)
    for target in (600.0, 1800.0):
        factor, wait = calibrate_width_scale(jobs, 100, target)
        assert wait == pytest.approx(target, rel=0.05)  # a step function of the factor: near, not on
        assert baseline_metrics(widths_on_intrepid(jobs, 100, factor), INTREPID_PROCS)["mean_wait"] == wait


def test_a_calibration_that_cannot_reach_its_target_stops_the_stage_naming_target_value_and_bound():
    model = builtin_lublin_feitelson_model()
    month = pd.DataFrame({"submit_time": [0.0, 30 * 86400.0]})
    jobs = analysis_by_load(model, 100, 0.8, month, seed=2)
    # A wait of ten years is out of reach even with the widest jobs the search allows.
    with pytest.raises(CalibrationMissed) as missed:
        calibrate_width_scale(jobs, 100, target_wait=3e8)
    message = str(missed.value)
    assert "machine A's baseline mean wait is" in message and "against the paper's 3e+08 s (+-10%)" in message
    assert "with the width factor at 2 (searched in [0.02, 2])" in message and "\n" not in message
    # The wait jumps between neighbouring factors: a target inside a jump is missed, not met.
    with pytest.raises(CalibrationMissed, match=r"mean wait is [0-9.]+ s against the paper's 1 s"):
        calibrate_width_scale(jobs, 100, target_wait=1.0)
    # B's slowdown cannot be raised by leaving jobs out: a target far above the uncut one is missed.
    with pytest.raises(CalibrationMissed, match=r"machine B's baseline mean slowdown at load 0.5 is .* against "
                                                r"the paper's 1e\+06 \(\+-10%\), with the shortest run time kept at 0 s"):
        calibrate_min_runtime(model, month, seeds=(1,), target_slowdown=1e6)


@pytest.mark.parametrize("arrivals", ["own_model", "at_a_submits"])
def test_analysis_like_keeps_count_span_and_load(arrivals):
    reference = pd.DataFrame({"submit_time": [1000.0, 1000.0 + 30 * 86400]})
    reference = pd.concat([reference] * 300, ignore_index=True).sort_values("submit_time", ignore_index=True)
    model = builtin_lublin_feitelson_model()
    jobs = analysis_like(model, 100, 0.5, reference, seed=3, arrivals=arrivals)
    if arrivals == "at_a_submits":
        assert (jobs["submit_time"].to_numpy() == reference["submit_time"].to_numpy()).all()
    else:
        # the model's own stream, its gaps stretched by one constant onto A's span (to the second)
        stream = analysis_stream(model, 100, len(reference), 3, 0.0)["submit_time"].to_numpy(dtype=float)
        offsets, own = jobs["submit_time"].to_numpy() - 1000.0, stream - stream[0]
        assert offsets == pytest.approx(own * (30 * 86400 / own[-1]), abs=0.5)
    assert len(jobs) == len(reference)
    assert jobs["submit_time"].min() == 1000.0
    assert jobs["submit_time"].max() == pytest.approx(1000.0 + 30 * 86400, abs=1.0)
    load = (jobs["allocated_procs"] * jobs["run_time"]).sum() / (100 * 30 * 86400)
    assert load == pytest.approx(0.5, rel=0.02)  # runtimes are rounded to whole seconds
    assert (jobs["requested_time"] >= jobs["run_time"]).all()


def test_trace_window_counts_days_from_the_first_submission():
    jobs = pd.DataFrame({"submit_time": [500.0, 500.0 + 86400, 500.0 + 2 * 86400, 500.0 + 3 * 86400]})
    assert list(trace_window(jobs, 1, 2)["submit_time"]) == [500.0 + 86400, 500.0 + 2 * 86400]


def test_the_busiest_window_is_the_one_with_the_most_submissions():
    # days 0..9 from the first submission: one job a day, plus four on day 5 and three on day 2
    days = [*range(10), 5, 5, 5, 5, 2, 2, 2]
    jobs = pd.DataFrame({"submit_time": [1000.0 + 86400 * day + 60 for day in days]})
    # 3-day windows from days 3, 4 and 5 hold 7 jobs each, every other at most 6: the earliest wins
    assert window_start_day(jobs, "busiest", 3) == 3.0
    # 2-day windows from days 4 and 5 hold 6 jobs each, days 1 and 2 five
    assert window_start_day(jobs, "busiest", 2) == 4.0
    assert window_start_day(jobs, "2.5", 3) == 2.5
    assert window_start_day(jobs, "busiest", 30) == 0.0  # a log shorter than the window: its start
    with pytest.raises(SchedlabError, match="start_day must be 'busiest' or a number"):
        window_start_day(jobs, "the fullest", 3)


@pytest.fixture
def full_runs():
    summaries = []
    for (series, xs), scheme, seed in itertools.product(
        (("load", (0.25, 0.5, 0.75)), ("ratio", (0.025, 0.05, 0.1, 0.2, 0.33))), ("HH", "HY", "YH", "YY", "base"), (1, 2)
    ):
        for i, x in enumerate(xs):
            summaries.append(summary(series, x, scheme, seed, 3600.0 + 600 * i + (0 if scheme == "base" else 300) + seed))
    summaries.append(summary("load", 0.75, "HH", 1, 3600.0, release=False, deadlock=True))
    summaries.append(summary("ratio", 0.33, "HH", 1, 3600.0, release=False))
    return summary_rows(summaries)


@pytest.fixture
def full_table(full_runs):
    return confidence_table(full_runs)


def test_quick_profile_decides_on_five_common_seeds():
    quick = PROFILES["quick"]
    assert len(quick.seeds) >= 5 and len(quick.deadlock_seeds) >= 5
    seeds_by_scheme = {}
    for point in grid(quick):
        if point.release:
            seeds_by_scheme.setdefault((point.series, point.x, point.scheme), set()).add(point.seed)
    assert all(seeds == set(quick.seeds) for seeds in seeds_by_scheme.values())


def test_deadlock_table(full_table):
    header, rows = deadlock_table(full_table)
    assert ["HH", "off", "load", "1", "1", "0.75: 1/1 (earliest day 3.5)"] in rows
    assert ["HH", "off", "ratio", "1", "0", "33%: 0/1"] in rows
    assert ["HH", "on", "both", "16", "0", "-"] in rows
    assert r"\hline" in latex_table(header, rows)


def test_latex_tables_escape_every_special_character():
    text = latex_table(["scheme & #", "wait ($)"], [["HH_1 & #2", "5 % of $10"]])
    assert r"scheme \& \#" in text and r"wait (\$)" in text
    assert r"HH\_1 \& \#2 & 5 \% of \$10 \\" in text  # the one raw & is the column separator


def test_each_kind_of_figure_renders_deterministically(full_runs, tmp_path):
    names = {"A": "A", "B": "B"}
    for spec in FIGURES[1:4]:  # Figs. 4, 5, 6: bars, sync, loss
        save_figure(coscheduling_figure(full_runs, spec, names), tmp_path / "one", spec.stem)
        save_figure(coscheduling_figure(full_runs, spec, names), tmp_path / "two", spec.stem)
        for suffix in ("png", "svg"):
            first = (tmp_path / "one" / f"{spec.stem}.{suffix}").read_bytes()
            assert first == (tmp_path / "two" / f"{spec.stem}.{suffix}").read_bytes()


def test_job_diagnostics_split_waits_slowdowns_and_holds_by_hand():
    run_time = np.arange(10.0, 101.0, 10.0)  # jobs 1..10 run 10, 20, ..., 100 s
    wait = np.full(10, 10.0)
    wait[0] = 90.0  # the shortest job waits 90 s: slowdown (90 + 10) / 10 = 10
    held_seconds = np.zeros(10)
    held_seconds[[2, 3]] = (1800.0, 3600.0)
    schedule = pd.DataFrame({
        "job_id": np.arange(1, 11), "submit": np.zeros(10), "start": wait, "run_time": run_time,
        "procs": [1, 1, 4, 2, 1, 1, 1, 1, 1, 1], "held_seconds": held_seconds,
    })
    facts = job_diagnostics(schedule, pd.Series([1, 2]))
    assert facts["wait_paired"] == pytest.approx((90 + 10) / 2) and facts["wait_unpaired"] == pytest.approx(10.0)
    others = [1 + 10 / r for r in range(20, 101, 10)]
    assert facts["shortest_tenth_max_run_time"] == 10.0
    assert facts["shortest_tenth_slowdown_share"] == pytest.approx(10 / (10 + sum(others)))
    assert facts["slowdown_other_nine_tenths"] == pytest.approx(sum(others) / 9)
    assert (facts["held_jobs"], facts["held_mean_procs"], facts["held_mean_hours"]) == (2.0, 3.0, 0.75)


def test_standin_is_intrepid_like():
    # Requested times: the actual one up to ten times it (log10 ratio 0..1), as a fitted model gives.
    accuracy = {"requested_time_accuracy": {"log10_ratio_quantiles": list(np.linspace(0.0, 1.0, 101)),
                                            "max_requested_time": 432_000.0}}  # ten times the longest run: no cap
    jobs = intrepid_standin(accuracy, 0.7, seed=1, days=30.0)
    sizes = jobs["allocated_procs"].to_numpy()
    assert set(np.unique(sizes)) == {512 * 2**k for k in range(7)}  # 512 .. 32,768 nodes in partitions
    assert (jobs["run_time"].between(600, 43_200)).all() and jobs["run_time"].median() > 3600  # hours, not seconds
    assert (jobs["requested_time"] >= jobs["run_time"]).all()
    assert jobs["submit_time"].is_monotonic_increasing and jobs["submit_time"].max() < 30 * 86_400
    assert abs(offered_load(jobs, 40_960) - 0.7) < 0.05
