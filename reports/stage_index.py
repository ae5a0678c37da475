"""The stage part of the report's front page: one section per simulator stage.

Each stage report is its own page (``index.md`` / ``index.html`` in the stage's
directory), with the paper's numbers beside ours.  The front page links that page and
every figure and table file next to it, and summarizes the stage's provenance: how many
tasks of each kind produced it, with which parameters, seeds and inputs.  Provenance
comes from the ``task.json`` that every pipeline output carries (``pipeline.base``).

A stage entry is a dict::

    {"name": str, "paper": str, "profile": str, "href": str (the stage directory,
     relative to the front page), "files": [str, ...] (file names in it),
     "tasks": [task.json contents, ...] (the stage report and everything it required)}
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence

import pandas as pd

from schedlab.reports.document import Code, Heading, Link, paragraph, table

FIGURE_FORMATS = ("png", "svg", "pdf")
TABLE_FORMATS = ("csv", "md", "tex")
VALUES_SHOWN = 12
"""A parameter with more distinct values than this is summarized by their count and range."""


def _files_by_stem(files: Sequence[str], formats: Sequence[str]) -> dict[str, list[str]]:
    stems: dict[str, list[str]] = defaultdict(list)
    for name in sorted(files):
        stem, _, extension = name.rpartition(".")
        if extension in formats and name not in ("index.md", "task.json"):
            stems[stem].append(name)
    return dict(stems)


def _format_table(kind: str, href: str, stems: Mapping[str, Sequence[str]], formats: Sequence[str]):
    """One row per figure or table, one column per file format, each cell a link or empty."""
    used = [f for f in formats if any(name.endswith(f".{f}") for names in stems.values() for name in names)]
    rows = []
    for stem, names in stems.items():
        present = {name.rpartition(".")[2]: name for name in names}
        rows.append((Code(stem), *(Link(f.upper(), f"{href}/{present[f]}") if f in present else "" for f in used)))
    return table((kind, *(f.upper() for f in used)), rows)


UNSET = "none"
"""How a parameter left unset shows: Luigi writes an optional parameter's None as an empty string."""


def _values_text(values: set[str]) -> str:
    ordered = [value or UNSET for value in sorted(values, key=lambda v: (len(v), v))] or [UNSET]
    if len(ordered) <= VALUES_SHOWN:
        return ", ".join(ordered)
    return f"{len(ordered)} values, {ordered[0]} ... {ordered[-1]}"


def _list_items(value: str) -> list[str] | None:
    """The items of a list-valued parameter (Luigi writes it as JSON), each a list's fields joined by
    " / " and null as ``UNSET``; None for any other value."""
    if not value.startswith("["):
        return None
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        return None

    def text(item) -> str:
        if isinstance(item, list):
            return " / ".join(text(field) for field in item)
        return UNSET if item is None else str(item)

    return [text(item) for item in parsed] if isinstance(parsed, list) else None


def parameter_rows(tasks: Sequence[Mapping]) -> list[tuple[str, str, str, str]]:
    """(task family, tasks, parameter, distinct values) for every parameter of every family."""
    by_family: dict[str, list[Mapping]] = defaultdict(list)
    for task in tasks:
        by_family[task["task"]].append(task)
    rows = []
    for family, members in sorted(by_family.items()):
        values: dict[str, set[str]] = defaultdict(set)
        for member in members:
            for name, value in member["parameters"].items():
                items = _list_items(value)
                if items is None:
                    values[name].add(value)
                else:
                    values[f"{name} (items)"].update(items)
        if not values:
            rows.append((family, str(len(members)), "(none)", ""))
        for name, seen in sorted(values.items()):
            rows.append((family, str(len(members)), name, _values_text(seen)))
    return rows


def seed_values(tasks: Sequence[Mapping]) -> list[str]:
    """Every value of a parameter whose name mentions a seed, across the stage's tasks."""
    seeds = {
        value for task in tasks for name, value in task["parameters"].items() if "seed" in name.lower()
    }
    return sorted(seeds, key=lambda v: (len(v), v))


def input_fingerprints(tasks: Sequence[Mapping]) -> list[str]:
    """The distinct external inputs (trace checksums and the like) the stage's tasks read."""
    found = {
        json.dumps(task["input_fingerprint"], sort_keys=True)
        for task in tasks
        if task.get("input_fingerprint") is not None
    }
    return sorted(found)


def stage_blocks(entry: Mapping) -> list:
    href = entry["href"]
    figures = _files_by_stem(entry["files"], FIGURE_FORMATS)
    tables = _files_by_stem(entry["files"], TABLE_FORMATS)
    tasks = entry["tasks"]
    seeds = seed_values(tasks)
    inputs = input_fingerprints(tasks)
    blocks = [
        Heading(f"Stage {entry['name']}", level=3),
        paragraph(
            "Paper: ", entry["paper"], ". ",
            Link(f"The {entry['name']} report", f"{href}/index", page=True),
            f" (profile {entry['profile']}) sets the paper's numbers beside ours, with the differences.",
        ),
    ]
    for page, page_href in entry.get("companions", {}).items():
        blocks.append(paragraph("Also: ", Link(f"the {entry['name']} {page} page", f"{page_href}/index", page=True),
                                f" (profile {entry['profile']})."))
    if figures:
        blocks.append(_format_table("figure", href, figures, FIGURE_FORMATS))
    if tables:
        blocks.append(_format_table("table", href, tables, TABLE_FORMATS))
    blocks.append(
        paragraph(
            f"Produced by {len(tasks)} tasks. Seeds: {', '.join(seeds) if seeds else 'none as parameters'}. "
            + (
                f"External inputs: {'; '.join(inputs)}."
                if inputs
                else "No external input file: every workload is synthetic, drawn from the seeds."
            )
        )
    )
    blocks.append(table(("task", "tasks", "parameter", "values"), parameter_rows(tasks), right_aligned={1}))
    return blocks


def provenance_table(entries: Sequence[Mapping]) -> pd.DataFrame:
    """One row per task behind every stage: stage, task family, key, parameters and inputs as JSON."""
    return pd.DataFrame(
        [
            {
                "stage": entry["name"],
                "task": task["task"],
                "key": task["key"],
                "parameters": json.dumps(task["parameters"], sort_keys=True),
                "input_fingerprint": json.dumps(task["input_fingerprint"], sort_keys=True),
            }
            for entry in entries
            for task in entry["tasks"]
        ],
        columns=["stage", "task", "key", "parameters", "input_fingerprint"],
    )


def stages_section(entries: Sequence[Mapping]) -> list:
    """The stage sections."""
    blocks: list = [Heading("Simulator stages")]
    if entries:
        blocks.append(
            paragraph(
                "One report per studied system. Figures come as PNG (for the page) and SVG or PDF "
                "(for papers); tables as CSV, Markdown and LaTeX (a plain tabular, every special character escaped)."
            )
        )
    else:
        blocks.append(paragraph("No stage report was requested."))
    blocks += [block for entry in entries for block in stage_blocks(entry)]
    return blocks
