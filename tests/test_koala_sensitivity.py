"""The koala sensitivity page on constructed runs: a claim whose outcome the weights decide is named."""

from __future__ import annotations

import pandas as pd

from schedlab.reports.koala_sensitivity import setting_label, write_sensitivity_report
from schedlab.simulators.koala.experiments import communication_matters
from tests.test_koala_claims import constructed_runs

WEIGHTS = ("two_cluster_weight", "three_cluster_weight")


def _settings():
    unknowns = {"split_rule": "cluster-set", "scan_period": 0.0, "delft_latency_share": 1.0}
    return [
        {"setting": 0, "unknown": "2-/3-cluster weights", **unknowns, "two_cluster_weight": 0.0,
         "three_cluster_weight": 0.0, "default": False, "wave_two_cluster_s": 200.0, "wave_three_cluster_s": 200.0},
        {"setting": 1, "unknown": "2-/3-cluster weights", **unknowns, "two_cluster_weight": 1.0,
         "three_cluster_weight": 1.0, "default": True, "wave_two_cluster_s": 567.0, "wave_three_cluster_s": 650.0},
    ]


def _runs() -> pd.DataFrame:
    """The default runs (CA 10-18 % faster than FCM) and, with no 2- or 3-cluster penalty, CA 20 % slower;
    the runs no weight changes (WF, CCR 0) the same under both settings."""
    default = constructed_runs(True).assign(setting=1)
    shared = [not communication_matters(a, p) for a, p in zip(default["app"], default["policy"])]
    free = default.assign(setting=0)
    free.loc[~pd.Series(shared, index=free.index), list(WEIGHTS)] = 0.0
    ca = free["policy"] == "CA"
    fcm = free[free.policy == "FCM"].set_index(["app", "config", "sizes", "net_utilization", "seed"])
    keys = free.loc[ca, ["app", "config", "sizes", "net_utilization", "seed"]].itertuples(index=False, name=None)
    free.loc[ca, "mean_response_time"] = [1.2 * fcm.loc[key, "mean_response_time"] for key in keys]
    return pd.concat([default, free], ignore_index=True)


def test_a_claim_the_weights_decide_is_named_and_a_shared_one_is_not(tmp_path):
    settings = _settings()
    table = write_sensitivity_report(tmp_path, _runs(), settings, "tiny").set_index("claim_id")
    free, default = (setting_label(s) for s in settings)
    assert table.loc["fig10-ca-faster", default] == "reproduced"
    assert table.loc["fig10-ca-faster", free] == "not_reproduced"
    assert bool(table.loc["fig10-ca-faster", "depends_on_unknowns"])
    assert table.loc["fig10-ca-faster", "reproduced_under"] == default
    # Prime never communicates: its runs are shared by both settings and its verdict cannot move.
    assert table.loc["fig7a-prime-benefit-grows", free] == table.loc["fig7a-prime-benefit-grows", default]
    assert not bool(table.loc["fig7a-prime-benefit-grows", "depends_on_unknowns"])
    for name in ("sensitivity.png", "sensitivity.svg", "sensitivity.csv", "sensitivity.md", "index.html"):
        assert (tmp_path / name).exists(), name
    # The calibration rows judge the model, and the cluster sets are not gathered by the sweep: left out, named.
    assert not {"fig4-wave-four-clusters", "fig8-wave-matches-ccr4", "sec712-ca-picks-fast-pairs"} & set(table.index)
    page = (tmp_path / "index.md").read_text()
    assert "Left out" in page and "sec712-ca-picks-fast-pairs" in page
    assert "fig10-ca-faster" in page and "w2=1 w3=1, DEFAULT (Wave 567 s / 650 s)" in page


def test_a_scan_period_and_a_delft_share_setting_say_which_unknown_they_move():
    scan = {**_settings()[1], "unknown": "scan period", "scan_period": 60.0, "default": False}
    delft = {**_settings()[1], "unknown": "Delft latency", "delft_latency_share": 0.0, "default": False}
    assert setting_label(scan) == "scan every 60 s"
    assert setting_label(delft) == "Delft latency share 0"
