"""Checks every multicluster run makes on itself before its result is used.

They read the allocation log of ``ClusterState`` (one entry per cluster each time a job
takes or gives back nodes) rather than the placements, so they check what actually
happened to the clusters:

- every job was placed after its submission, started no earlier than placed and ended
  no earlier than started;
- its components were allocated at one instant (atomic placement: they start together)
  and released at one instant, and together they give exactly the nodes it asked for;
- no cluster ever had more nodes taken than it has (at one time, releases count first).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulators.core.invariants import InvariantError, _fail


def check_multicluster_run(*, capacities: np.ndarray, totals: np.ndarray, jobs: pd.DataFrame, log) -> None:
    job_id = jobs["job_id"].to_numpy()
    submit, placed = jobs["submit"].to_numpy(), jobs["placed"].to_numpy()
    start, end = jobs["start"].to_numpy(), jobs["end"].to_numpy()
    never = np.isnan(placed) | np.isnan(end)
    if never.any():
        _fail("never placed or never ended", job_id[never])
    for what, bad in (
        ("placed before submission", placed < submit),
        ("started before placement", start < placed),
        ("ended before start", end < start),
    ):
        if bad.any():
            _fail(what, job_id[bad])

    entries = pd.DataFrame(log, columns=["time", "job", "cluster", "delta"])
    taken, given = entries[entries.delta > 0], entries[entries.delta < 0]
    for what, part, expected in (("allocated", taken, placed), ("released", given, end)):
        instants = part.groupby("job")["time"].agg(["min", "max"])
        split = instants.index[instants["min"] != instants["max"]].to_numpy()
        if split.size:
            _fail(f"components not {what} at one instant", job_id[split])
        wrong = instants.index[instants["min"].to_numpy() != expected[instants.index]].to_numpy()
        if wrong.size:
            _fail(f"{what} at a time other than the job's record", job_id[wrong])
    nodes = taken.groupby("job")["delta"].sum().reindex(range(len(jobs)), fill_value=0).to_numpy()
    short = nodes != totals
    if short.any():
        _fail("allocated nodes differ from the request", job_id[short])
    back = -given.groupby("job")["delta"].sum().reindex(range(len(jobs)), fill_value=0).to_numpy()
    if (back != nodes).any():
        _fail("released nodes differ from allocated nodes", job_id[back != nodes])

    for cluster, changes in entries.groupby("cluster"):
        ordered = changes.sort_values(["time", "delta"], kind="stable")
        in_use = np.cumsum(ordered["delta"].to_numpy())
        if in_use.size and in_use.max() > capacities[cluster]:
            worst = int(np.argmax(in_use))
            raise InvariantError(
                f"cluster {cluster}: {int(in_use[worst])} nodes in use at t={ordered['time'].iloc[worst]} "
                f"on {capacities[cluster]} nodes"
            )
