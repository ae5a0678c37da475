"""The ICS report: every file written from simulated results, deterministic bytes, every point on every seed."""

from __future__ import annotations

import math
from dataclasses import replace
from types import SimpleNamespace

import pandas as pd
import pytest

from pipeline.ics import IcsReport, IcsRuns, model_parameters, report_inputs, run_row
from schedlab.reports import ics as report
from schedlab.simulators.ics.experiments import PROFILES, Profile, figure_points, means_variant_points, profile_points
from schedlab.simulators.ics.simulate import simulate
from tests.conftest import layout_faults

TINY = Profile(
    name="tiny", n_jobs=5, compression=80000.0, npb_jobs=2, npb_mix_jobs=3, npb_share=1 / 2048, npb_gaps=(0.1,),
    compression_factors=(80000.0,), figures=("fig8", "fig12", "fig13"), seeds=(1, 2), npb_seeds=(1, 2),
)


def run_table(figures: dict) -> pd.DataFrame:
    return pd.DataFrame([run_row(figure, key, simulate(point)[1])
                         for figure, points in figures.items() for key, point in points.items()])


@pytest.fixture(scope="module")
def runs():
    return run_table(profile_points(TINY))


@pytest.fixture(scope="module")
def means_runs():
    return run_table(means_variant_points(TINY))


def test_report_files_are_complete_and_deterministic(runs, means_runs, tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    for directory in (first, second):
        directory.mkdir()
        report.write_report(directory, *report_inputs(TINY, runs, means_runs))
    names = sorted(p.name for p in first.iterdir())
    for stem in ("fig8_response", "fig8_profile", "fig12_slowdown", "fig13_turnaround"):
        assert f"{stem}.png" in names and f"{stem}.svg" in names
    for stem in ("fig8_results", "fig8_bcr_fdr", "fig12_fairness", "fig13_vs_batch", "claims"):
        assert {f"{stem}.csv", f"{stem}.md", f"{stem}.tex"} <= set(names)
    assert {"index.md", "index.html", "runs.csv", "means_runs.csv", "schemes.csv", "parameters.json"} <= set(names)
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    # Fig. 8 under both readings of the stated means: each sample meets 1554.42 s; the model's expectation does not
    means = pd.read_csv(first / "means_workloads.csv")
    assert list(means["stated means met"]) == ["per_sample", "expected"] and set(means["figure"]) == {"fig8"}
    assert means["mean gap (s)"].iloc[0] == "1,554" and means["mean gap (s)"].iloc[1] != "1,554"
    assert "stated means: met by each sample ('per_sample', the default)" in (first / "index.md").read_text()
    index = (first / "index.md").read_text()
    assert "Claims ledger" in index and "fig8-proc-cuts" in index
    assert "nan %" not in index
    # two seeds cannot decide a stochastic claim: no claim measured here is decided either way
    claims = pd.read_csv(first / "claims.csv")
    measured = claims[claims["verdict"] != "not_attempted"]
    assert len(measured) and set(measured["verdict"]) == {"inconclusive"}


def test_runs_table_has_one_row_per_figure_group_scheme_and_seed(runs):
    assert not runs.duplicated(["figure", "group", "scheme", "seed"]).any()
    per_point = runs.groupby(["figure", "group", "scheme"])["seed"].apply(lambda s: tuple(sorted(s)))
    assert set(per_point) == {TINY.seeds}
    heavy = runs[runs["figure"] == "fig8"]
    assert heavy["offered_load"].notna().all()
    assert runs.loc[runs["figure"] == "fig13", "offered_load"].isna().all()  # every NPB job at time 0


def test_every_profile_runs_every_point_on_at_least_five_common_seeds():
    for profile in PROFILES.values():
        assert len(profile.seeds) >= 5 and len(profile.npb_seeds) >= 5
        for figure in profile.figures:
            keys = figure_points(profile, figure)
            seeds = profile.npb_seeds if figure in ("fig13", "fig14") else profile.seeds
            assert {seed for _, _, seed in keys} == set(seeds)
            assert all(point.seed == key[2] for key, point in keys.items())
            # every scheme of a group on every seed: common random numbers
            groups = {}
            for group, scheme, seed in keys:
                groups.setdefault(group, {}).setdefault(scheme, set()).add(seed)
            assert all(set(s) == set(seeds) for per_scheme in groups.values() for s in per_scheme.values())


def test_the_compression_check_reruns_fig8_heavy_arrivals_at_lower_factors():
    profile = PROFILES["paper"]
    check = figure_points(profile, "compression")
    heavy = figure_points(profile, "fig8")
    for factor in (profile.compression, *profile.arrival_compression_factors):
        for (group, scheme, seed), point in check.items():
            if group == f"heavy arrivals, factor {factor:g}":
                assert point == replace(heavy[("heavy", scheme, seed)], compression=factor)
    # at the profile's own factor the check IS Fig. 8's heavy point: the pipeline runs it once
    assert check[(f"heavy arrivals, factor {profile.compression:g}", "SB", 1)] == heavy[("heavy", "SB", 1)]
    assert min(profile.arrival_compression_factors) < profile.compression


def test_report_task_requires_each_point_once():
    task = IcsReport(profile="paper")
    required = task.requires()
    assert len({t.task_id for t in required}) == len(required)
    assert all(isinstance(t, IcsRuns) for t in required)
    points = list(figure_points(PROFILES["paper"], "fig13").values())
    covering = IcsRuns.covering(points)
    assert set(covering) == set(points)
    for point, task in covering.items():
        assert point in task.points() and list(task.seeds) == sorted(task.seeds)
    # One task per point but for its seed: the paper's NPB seeds of each point in one series.
    assert len(set(covering.values())) == len(points) // len(PROFILES["paper"].npb_seeds)


def test_tables_show_headers_in_words_and_figures_keep_legends_clear(runs, tmp_path, monkeypatch):
    drawn = {}
    monkeypatch.setattr(report, "save_figure", lambda figure, directory, stem: drawn.setdefault(stem, figure))
    report.write_report(tmp_path, *report_inputs(TINY, runs))
    assert "fig8_response" in drawn
    assert {stem: faults for stem, figure in drawn.items() if (faults := layout_faults(figure))} == {}
    header = next(line for line in (tmp_path / "fig8_results.md").read_text().splitlines() if line.startswith("| group"))
    assert "| mean response (compressed s) |" in header and "| FDR: false decisions / conflicts |" in header
    assert "fairness_cv" not in header and "| fdr |" not in header and "share_spin" not in header
    assert {"mean_response", "fairness_cv", "fdr"} <= set(pd.read_csv(tmp_path / "fig8_results.csv").columns)


def test_the_boost_rule_is_named_per_scheme_when_the_runs_mix_rules():
    def text(rules: dict[str, list[bool]]) -> str:
        rows = [{"scheme": scheme, "boost_preempts_spinner": rule} for scheme, values in rules.items() for rule in values]
        return report.boost_rule_text(pd.DataFrame(rows))

    assert "the plain TS rule" not in text({"PB": [True, True], "SB": [True]})
    assert "(the plain TS rule)" in text({"PB": [False, False], "SB": [False]})
    mixed = text({"PB": [False, False], "SB": [False], "GS": [True, True]})
    assert "In the runs of PB, SB only that" in mixed and "In the runs of GS also a busy-waiting runner" in mixed
    assert "in 2 of 4 runs" in text({"PB": [False, True], "GS": [True, False]})


def test_the_setup_says_which_process_each_scheme_wakes_on_a_message():
    text = report.message_handling_text(model_parameters()["scheduler"]["message_handling"])
    assert "SB, PROC-B: if the process is blocked, an interrupt wakes it with a boost to the top level, else nothing" \
        in text
    assert "DCS: an interrupt, then a boost to the top level, whatever the process is doing" in text
    assert "HYBRID: if the process is blocked" in text and "LOCAL, GS, BATCH: nothing" in text


def test_the_fig12_legend_names_only_the_job_types_the_workload_has():
    # runs.csv has a slowdown column for every job type of every figure; wl5's rows fill J1, J3 and J4 only
    kinds = ("J1", "J2", "J3", "J4", "BT", "MG", "FT", "IS", "CG")
    frame = pd.DataFrame({"scheme": ["GS", "LOCAL"],
                          **{f"slowdown_{k}": [1.0, 2.0] if k in ("J1", "J3", "J4") else [math.nan] * 2 for k in kinds}})
    figure = report.slowdown_by_type_figure(frame, "Fig. 12")
    assert [text.get_text() for text in figure.legends[0].get_texts()] == ["J1", "J3", "J4"]


def test_a_workload_is_measured_from_its_jobs_at_full_length():
    # arrivals at 10, 30, 60 compressed s: mean gap 60 / 3 = 20, times a compression of 100 = 2000 s; dedicated
    # 1, 2, 3 s: mean 2 x 100 = 200 s; offered load (2 x 1 + 4 x 2 + 8 x 3) / (4 nodes x 60 s) = 34 / 240
    jobs = [SimpleNamespace(submit=t, dedicated_time=d, size=n) for t, d, n in ((10, 1, 2), (30, 2, 4), (60, 3, 8))]
    measured = report.measure_workload(jobs, nodes=4, compression=100.0)
    assert measured == pytest.approx({"jobs": 3, "mean_gap_s": 2000.0, "mean_runtime_s": 200.0,
                                      "mean_size": 14 / 3, "offered_load": 34 / 240})
    at_once = report.measure_workload([SimpleNamespace(submit=0.0, dedicated_time=1.0, size=2)] * 2, 4, 100.0)
    assert math.isnan(at_once["mean_gap_s"]) and math.isnan(at_once["offered_load"])


def test_the_redrawn_workloads_are_the_ones_the_runs_used(runs):
    # the pipeline measured each run's offered load from the jobs it simulated; the report's redraw agrees
    workloads = report.workload_inputs(runs).set_index(["figure", "group", "seed"])
    simulated = runs.drop_duplicates(["figure", "group", "seed"]).set_index(["figure", "group", "seed"])
    assert workloads.index.equals(simulated.index)
    arriving = simulated["offered_load"].notna()
    assert (workloads.loc[arriving, "offered_load"] == simulated.loc[arriving, "offered_load"]).all()
    assert workloads.loc[~arriving, "offered_load"].isna().all()
    assert (workloads["jobs"] == simulated["n_jobs"]).all()
