"""Which koala verdicts hang on what the paper does not give (Sonmez, Mohamed, Epema, TPDS 2010).

Three unknowns of the model, each swept from its DEFAULT:

- the execution times the paper lost (Figs. 3 and 4: only Wave's 200 s on one cluster and
  750 s on four survive), stood for by the 2- and 3-cluster weights (``w_2``, ``w_3`` of
  ``schedlab.simulators.koala.execution``): 0 means no penalty below four clusters, 1 the
  latency form alone; every pair of the profile's weights;
- how often KOALA scans its placement queue (Sec. 3.1: "regularly", no interval given;
  ``schedlab.simulators.koala.scheduler``): DEFAULT at every arrival and end, then each period;
- how much latency Delft's 1 GbE adds in config B (the paper's table lost its values;
  ``schedlab.simulators.multicluster.topology.das3``): DEFAULT the table's, then each share.

``write_sensitivity_report(directory, runs, settings, profile_name)`` takes the runs of every
setting (one row per run and setting, as the koala report's ``runs.csv`` with the setting's
index in ``setting``: a run no unknown of the setting changes is listed under each setting
that uses it) and each setting (``settings``: its index, the unknown it moves, its value of
every unknown, Wave's mean time on 2 and 3 clusters, whether it is the profile's DEFAULT).
It judges the whole claims ledger once per setting and writes:

- ``sensitivity.csv/.md/.tex``: one row per simulated claim the runs measure (calibration rows
  and claims needing tables the sweep does not gather are left out), its verdict under every
  setting, whether the verdict depends on the setting, and the settings where it is
  reproduced;
- ``sensitivity.png/.svg``: the same as a matrix, claims by settings, coloured by verdict;
  the column labels give the Wave times each setting stands for, i.e. what the lost
  Fig. 4 values would have to be for a claim to hold;
- ``sensitivity_runs.csv`` and ``index.md`` / ``index.html``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from schedlab.reports.document import BulletList, Document, Figure as FigureBlock, Heading, Link, paragraph, render_html, render_markdown
from schedlab.reports.figures import save_figure
from schedlab.reports.koala_claims import CLAIMS, RUNS
from schedlab.reports.ledger import VERDICTS, ledger
from schedlab.reports.tables import document_table, write_table

RUNS_FILE = "sensitivity_runs.csv"
VERDICT_SHORT = {"reproduced": "repr.", "partial": "partial", "not_reproduced": "not repr.",
                 "inconclusive": "inconcl.", "not_attempted": "n/a"}
VERDICT_COLOURS = {"reproduced": "#4daf4a", "partial": "#ffd92f", "not_reproduced": "#e41a1c",
                   "inconclusive": "#bdbdbd", "not_attempted": "#ffffff"}


def setting_label(setting: dict) -> str:
    default = ", DEFAULT" if setting["default"] else ""
    if setting["unknown"] == "scan period":
        return f"scan every {setting['scan_period']:g} s"
    if setting["unknown"] == "Delft latency":
        return f"Delft latency share {setting['delft_latency_share']:g}"
    return (f"w2={setting['two_cluster_weight']:g} w3={setting['three_cluster_weight']:g}{default} "
            f"(Wave {setting['wave_two_cluster_s']:.0f} s / {setting['wave_three_cluster_s']:.0f} s)")


def verdicts_by_setting(runs: pd.DataFrame, settings: list[dict], profile_name: str) -> pd.DataFrame:
    """One row per simulated claim, one column per setting (its verdict)."""
    columns = {}
    for setting in settings:
        mine = runs[runs["setting"] == setting["setting"]].drop(columns="setting")
        frame = ledger("koala", CLAIMS, {RUNS: mine.reset_index(drop=True)}, profile_name).set_index("claim_id")
        columns[setting_label(setting)] = frame["verdict"]
    table = pd.DataFrame(columns)
    # The runs' results only: calibration rows judge the model itself, and a claim no setting's runs can
    # measure (it needs tables the sweep does not gather) would only fill the matrix with "n/a".
    simulated = [claim.claim_id for claim in CLAIMS if not claim.not_attempted and claim.basis == "result"]
    table = table.loc[simulated]
    table = table[~(table == "not_attempted").all(axis=1)]
    table.insert(0, "depends_on_unknowns", table.nunique(axis=1) > 1)
    table["reproduced_under"] = table.drop(columns="depends_on_unknowns").apply(
        lambda row: "; ".join(label for label, verdict in row.items() if verdict == "reproduced") or "none", axis=1)
    return table.rename_axis("claim_id").reset_index()


def sensitivity_figure(table: pd.DataFrame, settings: list[dict]) -> Figure:
    labels = [setting_label(setting) for setting in settings]
    codes = table[labels].apply(lambda column: column.map(VERDICTS.index)).to_numpy(dtype=float)
    figure = Figure(figsize=(max(7.5, 3.0 + 1.15 * len(labels)), 0.32 * len(table) + 3.2), layout="constrained")
    axes = figure.add_subplot()
    axes.imshow(codes, cmap=ListedColormap([VERDICT_COLOURS[v] for v in VERDICTS]), vmin=-0.5,
                vmax=len(VERDICTS) - 0.5, aspect="auto")
    for (row, column), code in np.ndenumerate(codes):
        axes.text(column, row, VERDICT_SHORT[VERDICTS[int(code)]], ha="center", va="center", fontsize=6)
    axes.set_yticks(range(len(table)), table["claim_id"], fontsize=7)
    axes.set_xticks(range(len(labels)), [label.replace(" (", "\n(") for label in labels], rotation=60,
                    ha="right", fontsize=7)
    axes.set_title("Verdict of each simulated claim under each setting of the model's unknowns\n"
                   "(in brackets: Wave's mean time on 2 / 3 clusters of config A, the lost Fig. 4 values)",
                   fontsize=9)
    return figure


def write_sensitivity_report(directory, runs: pd.DataFrame, settings: list[dict], profile_name: str) -> pd.DataFrame:
    directory = Path(directory)
    runs.to_csv(directory / RUNS_FILE, index=False, lineterminator="\n", float_format="%.10g")
    table = verdicts_by_setting(pd.read_csv(directory / RUNS_FILE), settings, profile_name)
    write_table(directory, "sensitivity", table)
    save_figure(sensitivity_figure(table, settings), directory, "sensitivity")
    default = next(setting_label(s) for s in settings if s["default"])
    dependent = table[table["depends_on_unknowns"]]
    counts = {setting_label(s): int((table[setting_label(s)] == "reproduced").sum()) for s in settings}
    left_out = [claim.claim_id for claim in CLAIMS
                if not claim.not_attempted and claim.claim_id not in set(table["claim_id"])]
    by_unknown = {}
    for setting in settings:
        by_unknown.setdefault(setting["unknown"], []).append(setting_label(setting))
    page = Document("koala: which verdicts depend on what the paper does not give", (
        paragraph(
            f"Profile '{profile_name}'. Three things the runs need are not in the paper, and each is swept here from "
            "its DEFAULT, the others kept at theirs. (1) The 2- and 3-cluster execution times: the paper's Figs. 3 "
            "and 4 lost their values (of Wave's times only 200 s on one cluster and 750 s on four survive); the "
            "execution model's weights w_2 and w_3 stand for them (0: no penalty below four clusters; 1: the "
            "latency form alone). (2) How often KOALA scans its placement queue: the paper says only that it "
            "'regularly scans' it (Sec. 3.1); DEFAULT at every arrival and end. (3) The latency Delft's 1 GbE "
            "adds in config B, whose table lost its values: the share of the DEFAULT table's excess over the "
            "farthest Myri-10G pair. Every setting ran the whole profile on the same seeds; split rule "
            f"'{settings[0]['split_rule']}' throughout; a run that the setting's unknown cannot change (WF or "
            "CCR 0 for the weights, config A for Delft) is the DEFAULT's run."),
        BulletList((
            ("Settings: " + "; ".join(f"{unknown}: {', '.join(labels)}" for unknown, labels in by_unknown.items())
             + ".",),
            (f"{len(dependent)} of {len(table)} simulated claims change verdict across the settings: "
             f"{', '.join(dependent['claim_id']) or 'none'}.",),
            ("Claims reproduced per setting: " + "; ".join(f"{label}: {n}" for label, n in counts.items()) + ".",),
            (f"The report's verdicts are those of the DEFAULT setting, {default}; it was not chosen from this "
             "sweep.",),
            ("Left out (calibration rows judge the model, not the runs; the others need tables the sweep does not "
             f"gather): {', '.join(left_out) or 'none'}.",),
        )),
        FigureBlock("sensitivity", "Verdict per claim and setting"),
        Heading("Table"),
        document_table(table),
        paragraph("Files: ", Link("CSV", "sensitivity.csv"), ", ", Link("Markdown", "sensitivity.md"), ", ",
                  Link("LaTeX", "sensitivity.tex"), ", ", Link(RUNS_FILE, RUNS_FILE), " (every run of every setting)."),
    ))
    (directory / "index.md").write_text(render_markdown(page), encoding="utf-8")
    (directory / "index.html").write_text(render_html(page), encoding="utf-8")
    return table
