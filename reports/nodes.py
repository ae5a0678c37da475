"""The page of a replay on nodes (issue 65, item 6): what every resource was doing, who waited where,
and what a CPU-only replay of the same jobs would have said.

It reads the replay's result tables only (``pipeline.node_tasks.NodeReplay`` writes them): the
schedule (one row per job, with the CPU-only replay's start beside), the usage series (cores, GPUs
and memory in use over time) and ``summary.json`` (the machine and the events as the run used
them, what was left out).  Every number on the page is computed here from those tables.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from schedlab.reports.document import Document, Heading, paragraph, table
from schedlab.reports.document import Figure as PageFigure
from schedlab.reports.figures import SECONDS_PER_DAY, legend_below, wait_time_cdf_figure
from schedlab.simulators.nodes.replay import wait_summary

RESOURCE_LABELS = {"cores": "cores", "gpus": "GPUs", "memory_mb": "memory"}
USERS_SHOWN = 10
TAIL_ROWS = (("jobs", "jobs"), ("mean_wait", "mean wait"), ("p95_wait", "95th percentile wait"),
             ("p99_wait", "99th percentile wait"), ("max_wait", "longest wait"), ("over_a_day", "jobs waiting over a day"),
             ("over_a_week", "jobs waiting over a week"))


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:,.2f} h"


def _tail_rows(aware: Mapping, pool: Mapping) -> list[tuple[str, str, str]]:
    rows = []
    for key, label in TAIL_ROWS:
        if key not in aware:
            continue
        show = (lambda v: f"{v:,}") if key in ("jobs", "over_a_day", "over_a_week") else _hours
        rows.append((label, show(aware[key]), show(pool[key])))
    return rows


def partition_waits(schedule: pd.DataFrame) -> pd.DataFrame:
    """Per partition: jobs, mean and 95th percentile wait, resource-aware and CPU-only."""
    rows = []
    for partition, part in schedule.groupby("partition", sort=True):
        aware, pool = part["wait"].to_numpy(), part["cpu_only_wait"].to_numpy()
        rows.append({"partition": partition, "jobs": len(part), "mean_wait": aware.mean(),
                     "p95_wait": np.percentile(aware, 95), "cpu_only_mean_wait": pool.mean(),
                     "cpu_only_p95_wait": np.percentile(pool, 95)})
    return pd.DataFrame(rows)


def user_waits(schedule: pd.DataFrame) -> pd.DataFrame:
    """Per user, those who waited longest on average first: jobs, mean and longest wait."""
    named = schedule.assign(user=schedule["user"].where(schedule["user"] != "", "(unnamed)"))
    frame = named.groupby("user").agg(jobs=("wait", "size"), mean_wait=("wait", "mean"), max_wait=("wait", "max"))
    return frame.sort_values(["mean_wait", "jobs"], ascending=[False, False]).reset_index()


def resource_use_figure(usage: pd.DataFrame, capacity: Mapping[str, float], title: str) -> Figure:
    """The share of each resource in use over time (from the log's start, in days, or hours for a log of under
    two days), one line per resource the machine has."""
    figure = Figure(figsize=(7.0, 4.0), layout="constrained")
    axes = figure.add_subplot()
    seconds = usage["time"].to_numpy()
    unit, per = ("days", SECONDS_PER_DAY) if len(seconds) and seconds.max() >= 2 * SECONDS_PER_DAY else ("hours", 3600.0)
    for name, label in RESOURCE_LABELS.items():
        if capacity.get(name, 0) > 0 and len(seconds):
            axes.step(seconds / per, 100.0 * usage[name].to_numpy() / capacity[name], where="post", label=label)
    axes.set_ylim(0, 105)
    axes.set_xlabel(f"time ({unit} from the log's start)")
    axes.set_ylabel("in use (% of the machine's)")
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    legend_below(figure, axes)
    return figure


def partition_wait_figure(waits: pd.DataFrame, title: str) -> Figure:
    """Mean wait per partition, resource-aware beside CPU-only."""
    figure = Figure(figsize=(7.0, 4.0), layout="constrained")
    axes = figure.add_subplot()
    x = np.arange(len(waits))
    axes.bar(x - 0.2, waits["mean_wait"] / 3600, width=0.4, label="resource-aware")
    axes.bar(x + 0.2, waits["cpu_only_mean_wait"] / 3600, width=0.4, label="CPU-only")
    axes.set_xticks(x, waits["partition"].tolist())
    axes.set_ylabel("mean wait (hours)")
    axes.set_title(title)
    axes.grid(True, axis="y", alpha=0.3)
    legend_below(figure, axes)
    return figure


def node_figures(schedule: pd.DataFrame, usage: pd.DataFrame, summary: Mapping) -> dict[str, Figure]:
    """The page's figures by stem."""
    name = summary["workload"]
    return {
        "wait_cdf": wait_time_cdf_figure({"resource-aware": schedule["wait"].to_numpy(),
                                          "CPU-only": schedule["cpu_only_wait"].to_numpy()}, f"Wait times: {name}"),
        "resource_use": resource_use_figure(usage, summary["capacity"], f"Resources in use: {name}"),
        "partition_waits": partition_wait_figure(partition_waits(schedule), f"Waits per partition: {name}"),
    }


def node_page(schedule: pd.DataFrame, summary: Mapping) -> Document:
    """The page of one replay on nodes; its figures are ``node_figures``'s, saved beside it."""
    machine, events = summary["machine"], summary["events"]
    aware, pool = wait_summary(schedule["wait"].to_numpy()), wait_summary(schedule["cpu_only_wait"].to_numpy())
    by_partition = partition_waits(schedule)
    users = user_waits(schedule)
    node_rows = [(node["name"], f"{node['count']:,}", f"{node['cores']:,}", f"{node['gpus']:,}",
                  f"{node['memory_mb'] / 1024:,.0f} GiB") for node in machine["node_types"]]
    left_out = [(reason, f"{count:,}") for reason, count in summary["left_out"].items()]
    return Document(
        title=f"{summary['workload']} on {machine['name']}",
        blocks=(
            paragraph(f"{summary['policy']} on {sum(n['count'] for n in machine['node_types']):,} nodes "
                      f"({machine['allocation']} allocation; the machine: {machine['source'] or 'as given'}), "
                      f"beside the same {len(schedule):,} jobs on one pool of its {summary['capacity']['cores']:,.0f} "
                      f"cores under {summary['pool_policy']}: what a replay that ignores nodes, GPUs, memory and "
                      "partitions would say."),
            Heading("Machine"),
            table(("node type", "nodes", "cores", "GPUs", "memory"), node_rows, right_aligned=range(1, 5)),
            table(("partition", "node types"), [(p, ", ".join(t)) for p, t in machine["partitions"].items()]),
            Heading("Waits"),
            table(("", "resource-aware", "CPU-only"), _tail_rows(aware, pool), right_aligned=(1, 2)),
            table(("partition", "jobs", "mean wait", "95th percentile", "CPU-only mean", "CPU-only 95th"),
                  [(row.partition, f"{row.jobs:,}", _hours(row.mean_wait), _hours(row.p95_wait),
                    _hours(row.cpu_only_mean_wait), _hours(row.cpu_only_p95_wait)) for row in by_partition.itertuples()],
                  right_aligned=range(1, 6)),
            Heading("Users"),
            paragraph(f"The {min(USERS_SHOWN, len(users))} of {len(users):,} users who waited longest on average."),
            table(("user", "jobs", "mean wait", "longest wait"),
                  [(row.user, f"{row.jobs:,}", _hours(row.mean_wait), _hours(row.max_wait))
                   for row in users.head(USERS_SHOWN).itertuples()], right_aligned=(1, 2, 3)),
            Heading("Capacity events"),
            *((table(("event", "jobs killed", "requeued"),
                     [(e["event"], f"{e['jobs_killed']:,}", f"{e['jobs_requeued']:,}") for e in events],
                     right_aligned=(1, 2)),) if events else (paragraph("None: the machine kept all its nodes."),)),
            Heading("Figures"),
            PageFigure("wait_cdf", "Cumulative distribution of wait times, resource-aware and CPU-only"),
            PageFigure("resource_use", "Share of the machine's cores, GPUs and memory in use over time"),
            PageFigure("partition_waits", "Mean wait per partition, resource-aware and CPU-only"),
            Heading("Left out"),
            table(("reason", "jobs"), left_out, right_aligned=(1,)) if left_out
            else paragraph("No job: every job of the log could run on its partition."),
        ),
    )
