"""The pages of the replay report: one per workload, and the index that links them.

Pages are ``schedlab.reports.document.Document`` values, rendered to Markdown and HTML by the
caller.  They are built from plain data: the workload description (``workload.json``
in the pipeline, which carries a trace's parser warnings), metrics tables
(``schedlab.reports.metrics``) and the cleaning report.

A workload description is a dict::

    {"name": str, "machine_procs": int, "jobs": int (jobs replayed),
     "source": {"kind": "trace", "file_name": str, "file_sha256": str,
                "jobs_parsed": int, "header": {...SWF header fields...},
                "warnings": [str, ...] (the parser's)}
            or {"kind": "synthetic", "model": str, "seed": int, ...model parameters}}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from schedlab.reports.document import (
    BulletList,
    Code,
    Document,
    Figure,
    Heading,
    Inline,
    Link,
    paragraph,
    table,
)
from schedlab.reports.ledger import MIN_SEEDS, interval_text, number_text
from schedlab.reports.metrics import format_metric, headline_rows, metric_label, metrics_by_policy
from schedlab.reports.tails import tails_rows

WARNINGS_SHOWN = 50
"""A page lists at most this many parser warnings; the rest are counted."""

_HEADER_FIELDS = (("computer", "computer"), ("installation", "installation"))


def _settings_sentence(settings: Mapping[str, object]) -> str:
    policies = ", ".join(settings["policies"])
    return (
        f"Policies replayed: {policies}; queue order {settings['order']}; "
        f"run-time estimates: {settings['estimates']}"
        + (" (where each workload's requested times come from: see its input)" if settings["estimates"] == "requested" else "")
        + (f"; arrivals: {settings['arrivals']}" if settings.get("arrivals") else "") + "."
    )


def _load_text(workload: Mapping) -> str:
    load = workload.get("offered_load")
    return "" if load is None else f"{load:.3f}"


def _source_rows(workload: Mapping) -> list[tuple[str, Inline]]:
    return [*_origin_rows(workload), ("offered load", _load_text(workload)),
            ("requested times", workload.get("requested_times", ""))]


def _origin_rows(workload: Mapping) -> list[tuple[str, Inline]]:
    source = workload["source"]
    machine = f"{workload['machine_procs']:,} processors"
    if source["kind"] == "trace":
        rows: list[tuple[str, Inline]] = [
            ("trace file", source["file_name"]),
            ("SHA-256 of the file", Code(source["file_sha256"])),
            ("jobs in the file", f"{source['jobs_parsed']:,}"),
            ("jobs replayed (after cleaning)", f"{workload['jobs']:,}"),
            ("machine", machine),
        ]
        header = source.get("header", {})
        rows += [(label, str(header[key])) for key, label in _HEADER_FIELDS if header.get(key)]
        return rows
    parameters = [(key, str(value)) for key, value in source.items() if key not in ("kind", "model")]
    return [("model", source["model"]), *parameters, ("jobs", f"{workload['jobs']:,}"), ("machine", machine)]


def _cleaning_blocks(cleaning: Mapping | None) -> list:
    if cleaning is None:
        return [paragraph("Synthetic workloads come out of the model clean; no filter ran.")]
    steps = cleaning["steps"]
    rows = [(step["name"], step["description"], f"{step['removed']:,}") for step in steps]
    return [
        paragraph(
            f"{len(steps)} filters ran, in this order; {cleaning['jobs_in']:,} jobs in, "
            f"{cleaning['jobs_out']:,} jobs out."
        ),
        table(("filter", "what it removes", "jobs removed"), rows, right_aligned={2}),
    ]


def _warning_blocks(warnings: Sequence[str]) -> list:
    if not warnings:
        return [paragraph("The parser reported no warnings.")]
    shown = warnings[:WARNINGS_SHOWN]
    blocks = [BulletList(tuple((Code(text),) for text in shown))]
    if len(warnings) > len(shown):
        blocks.append(
            paragraph(f"... and {len(warnings) - len(shown):,} more (all in the parse output's header.json).")
        )
    return blocks


def _recorded_wait_blocks(comparison: pd.DataFrame) -> list:
    if comparison.empty:
        return [paragraph("The workload records no wait times (a synthetic workload, or a log without "
                          "them), so there is nothing to set the replay's waits against.")]
    metrics = [name for name in comparison.columns if name != "source"]
    rows = [[row["source"], *(format_metric(name, row[name]) for name in metrics)] for _, row in comparison.iterrows()]
    return [
        paragraph("The waits the log recorded (first row) beside each policy's simulated waits of the same "
                  "jobs, those the log records a wait for; the wait-time figure draws the log's dashed."),
        table(["waits", *(metric_label(name) for name in metrics)], rows, right_aligned=range(1, len(metrics) + 1)),
    ]


def trace_page(
    workload: Mapping,
    metrics: pd.DataFrame,
    settings: Mapping[str, object],
    cleaning: Mapping | None,
    figures: Sequence[tuple[str, str]],
    recorded_waits: pd.DataFrame,
    resampled: Mapping | None = None,
    tails: pd.DataFrame | None = None,
) -> Document:
    """The report page of one workload replayed under several policies.

    ``metrics`` is a ``schedlab.reports.metrics.metrics_table``; ``settings`` holds ``policies``,
    ``order`` and ``estimates``; ``cleaning`` is ``None`` for a synthetic workload;
    ``figures`` are (stem, caption) pairs of figures saved next to the page;
    ``recorded_waits`` is a ``schedlab.reports.metrics.recorded_wait_comparison``; ``resampled``, when
    given, the status of the comparison over resampled workloads with its ``paired`` table
    (``schedlab.reports.resampled``), or the reason it did not run; ``tails``, when given, a
    ``schedlab.reports.tails.tails_table`` shown beside the means.
    """
    header, rows = metrics_by_policy(metrics)
    return Document(
        title=f"Replay of {workload['name']}",
        blocks=(
            paragraph(_settings_sentence(settings)),
            Heading("Input"),
            table(("field", "value"), _source_rows(workload)),
            Heading("Metrics"),
            table(header, rows, right_aligned=range(1, len(header))),
            paragraph("Every value at full precision: ", Link("metrics.csv", "metrics.csv"), "."),
            *_tail_blocks(tails),
            Heading("Waits in the log and in the replay"),
            *_recorded_wait_blocks(recorded_waits),
            Heading("Figures"),
            *(Figure(stem, caption) for stem, caption in figures),
            *_resampled_blocks(resampled),
            Heading("Cleaning"),
            *_cleaning_blocks(cleaning),
            Heading("Trace warnings"),
            *_warning_blocks(workload["source"].get("warnings", [])),
        ),
    )


def _tail_blocks(tails: pd.DataFrame | None) -> list:
    if tails is None or tails.empty:
        return []
    header, rows = tails_rows(tails)
    return [Heading("Tails"),
            paragraph("How long the worst-served jobs and users waited, beside the means above: every value at "
                      "full precision in ", Link("tails.csv", "tails.csv"), "."),
            table(header, rows, right_aligned=range(1, len(header)))]


def _resampled_blocks(resampled: Mapping | None) -> list:
    if resampled is None:
        return []
    blocks = [Heading("Policies over resampled workloads, open- and closed-loop")]
    if not resampled["ran"]:
        return blocks + [paragraph(f"Not run: {resampled['reason']}.")]
    paired = resampled["paired"]
    seeds = len(resampled["seeds"])
    rows = [
        (row.arrivals, row.metric, f"{row.policy} - {row.baseline}", number_text(row.policy_mean),
         number_text(row.baseline_mean), interval_text(row.difference, row.low, row.high, ""), row.verdict)
        for row in paired.itertuples(index=False)
    ]
    return blocks + [
        paragraph(
            f"The same policies on {seeds} user-based resamples of this trace (seeds "
            f"{', '.join(map(str, resampled['seeds']))}; docs/sessions.md): long-term users kept with their weeks "
            "shuffled, temporary users drawn anew, the offered load the trace's within 2 %. Each replays open-loop "
            "(the resample's submit times) and closed-loop (a dependent session arrives its think time after the "
            "sessions it waited for end in the replay). Each policy against the first on the same resamples: the "
            "mean per-seed difference with its 95 % Student-t interval, judged as the claims ledger judges an "
            "ordering: lower or higher where the interval lies wholly on one side of 0, inconclusive where it holds 0 "
            f"or fewer than {MIN_SEEDS} seeds ran (",
            Link("resampled_paired.csv", "resampled_paired.csv"), ", runs ", Link("resampled_runs.csv",
                                                                                  "resampled_runs.csv"), ")."),
        table(("arrivals", "metric", "difference of", "policy mean", "baseline mean", "paired difference [95 %]",
               "verdict"), rows),
        Figure("resampled_wait", "Mean wait per policy over the resamples, open- and closed-loop (95 % intervals)"),
    ]


def _inputs_blocks(entries: Sequence[tuple[Mapping, str]], searched_dirs: Sequence[str] | None) -> list:
    traces = [(w, href) for w, href in entries if w["source"]["kind"] == "trace"]
    synthetic = [(w, href) for w, href in entries if w["source"]["kind"] != "trace"]
    blocks = []
    if traces:
        blocks.append(paragraph(f"Real traces ({len(traces)}), named by file and SHA-256 checksum:"))
        rows = [
            (
                Link(w["name"], href, page=True),
                w["source"]["file_name"],
                Code(w["source"]["file_sha256"]),
                f"{w['jobs']:,}",
                f"{w['machine_procs']:,}",
                _load_text(w),
                w.get("requested_times", ""),
            )
            for w, href in traces
        ]
        header = ("workload", "file", "SHA-256", "jobs", "procs", "offered load", "requested times")
        blocks.append(table(header, rows, right_aligned={3, 4, 5}))
    if synthetic:
        if searched_dirs is not None:
            where = ", ".join(searched_dirs) or "(none configured)"
            blocks.append(
                paragraph(
                    f"No trace was found in the trace directories ({where}), so this report uses "
                    "the embedded synthetic default: workloads drawn from the Lublin-Feitelson "
                    "model with fixed seeds."
                )
            )
        rows = [
            (
                Link(w["name"], href, page=True),
                w["source"]["model"],
                str(w["source"].get("seed", "")),
                f"{w['jobs']:,}",
                f"{w['machine_procs']:,}",
                _load_text(w),
                w.get("requested_times", ""),
            )
            for w, href in synthetic
        ]
        header = ("workload", "model", "seed", "jobs", "procs", "offered load", "requested times")
        blocks.append(table(header, rows, right_aligned={2, 3, 4, 5}))
    return blocks


def index_page(
    entries: Sequence[tuple[Mapping, str]],
    combined_metrics: pd.DataFrame,
    settings: Mapping[str, object],
    searched_dirs: Sequence[str] | None,
) -> Document:
    """The front page: which inputs were used, the headline metrics, links to every page.

    ``entries`` pairs each workload description with the link (without extension) to
    its page; ``searched_dirs`` lists the trace directories that were searched in vain
    when the synthetic default was used, and is ``None`` otherwise.
    """
    header, rows = headline_rows(combined_metrics)
    return Document(
        title="schedlab replay report",
        blocks=(
            Heading("Inputs"),
            *_inputs_blocks(entries, searched_dirs),
            paragraph(_settings_sentence(settings)),
            Heading("Summary"),
            table(header, rows, right_aligned=range(2, len(header))),
            paragraph(
                "All metrics of every workload and policy: ", Link("metrics.csv", "metrics.csv"), "."
            ),
            Heading("Reports"),
            BulletList(tuple((Link(w["name"], href, page=True),) for w, href in entries)),
        ),
    )
