"""Convention profiles: how a job table becomes simulator input, and how ties are broken.

Two profiles exist.

``default`` (schedlab's own):
  - processors = allocated (field 5), else requested (field 8);
  - estimate = requested time (field 9), else the run time when the request is missing;
  - a job runs min(run time, estimate): it is killed at its limit;
  - jobs without a positive run time or size, or wider than the machine, are refused
    with a message pointing at the cleaning step (``schedlab.parsers.cleaning``) rather than
    silently patched;
  - at one timestamp terminations come before submissions and the scheduler runs once
    after all of them.

``pyss`` (the Hebrew University simulator, see PYSS_CONVENTIONS.md in the shared
reference data): every line is a job; a job with run time <= 0, allocated processors
<= 0 or submit < 0 becomes a 1-second job with estimate 1 on max(1, allocated)
processors submitted at max(submit, 1); every other job gets estimate =
int(max(requested, run, 1)), actual = int(max(min(requested, run), 1)) (so a missing
request, -1, gives a 1-second job), processors = max(min(allocated, P), 1); at one
timestamp submissions come before terminations and the scheduler runs after each event.

With ``estimates="actual"`` ("perfect" estimates) the estimate is the actual run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from schedlab.errors import SchedlabError
from schedlab.simulators.core.engine import EventOrder
from schedlab.simulators.core.jobs import BatchJobs

#: A job table: a pandas DataFrame or a mapping of its columns to numpy arrays (the
#: profiles read columns only, so a replay need not build a DataFrame).
JobColumns = Mapping[str, Any]

ESTIMATES = ("requested", "actual")


def _sorted_batch(job_id, submit, estimate, actual, procs) -> BatchJobs:
    order = np.argsort(submit, kind="stable")
    return BatchJobs(
        job_id=np.asarray(job_id)[order],
        submit=np.asarray(submit, dtype=np.float64)[order],
        estimate=np.asarray(estimate, dtype=np.float64)[order],
        actual=np.asarray(actual, dtype=np.float64)[order],
        procs=np.asarray(procs, dtype=np.int64)[order],
        source_row=order,
    )


def default_inputs(jobs: JobColumns, machine_procs: int, estimates: str) -> BatchJobs:
    allocated = np.asarray(jobs["allocated_procs"])
    procs = np.where(allocated > 0, allocated, np.asarray(jobs["requested_procs"]))
    run = np.asarray(jobs["run_time"], dtype=np.float64)
    requested = np.asarray(jobs["requested_time"], dtype=np.float64)
    requested = np.where(requested > 0, requested, run)
    problems = {
        "run time <= 0": run <= 0,
        "no processor count": procs <= 0,
        f"more than {machine_procs} processors": procs > machine_procs,
    }
    for what, mask in problems.items():
        if mask.any():
            first = ", ".join(str(j) for j in np.asarray(jobs["job_id"])[mask][:5])
            raise SchedlabError(
                f"{int(mask.sum())} job(s) with {what} (job ids {first}...): clean the trace first "
                "(schedlab.parsers.cleaning, 'schedlab replay' does it unless --no-clean) or use --conventions pyss"
            )
    actual = np.minimum(run, requested)
    estimate = actual if estimates == "actual" else requested
    return _sorted_batch(jobs["job_id"], jobs["submit_time"], estimate, actual, procs)


def pyss_inputs(jobs: JobColumns, machine_procs: int, estimates: str) -> BatchJobs:
    submit = np.trunc(np.asarray(jobs["submit_time"], dtype=np.float64))
    run = np.asarray(jobs["run_time"], dtype=np.float64)
    allocated = np.asarray(jobs["allocated_procs"], dtype=np.int64)
    requested = np.asarray(jobs["requested_time"], dtype=np.float64)
    problematic = (run <= 0) | (allocated <= 0) | (submit < 0)
    estimate = np.where(problematic, 1.0, np.trunc(np.maximum(np.maximum(requested, run), 1.0)))
    actual = np.where(problematic, 1.0, np.trunc(np.maximum(np.minimum(requested, run), 1.0)))
    procs = np.where(problematic, np.maximum(allocated, 1), np.clip(allocated, 1, machine_procs))
    too_wide = procs > machine_procs
    if too_wide.any():
        # pyss does not clamp these (a problematic job keeps its allocated size) and would
        # never start them; refusing is the only answer that is not silently wrong.
        ids = ", ".join(str(j) for j in np.asarray(jobs["job_id"])[too_wide][:5])
        raise SchedlabError(
            f"{int(too_wide.sum())} job(s) with run time <= 0 are wider than the machine "
            f"(job ids {ids}); pyss would never start them"
        )
    submit = np.where(problematic, np.maximum(submit, 1.0), submit)
    if estimates == "actual":
        estimate = actual
    return _sorted_batch(jobs["job_id"], submit, estimate, actual, procs)


@dataclass(frozen=True)
class Conventions:
    name: str
    prepare: Callable[[JobColumns, int, str], BatchJobs]
    event_order: EventOrder


CONVENTIONS = {
    "default": Conventions("default", default_inputs, EventOrder("terminations_first", "per_timestamp")),
    "pyss": Conventions("pyss", pyss_inputs, EventOrder("submissions_first", "per_event")),
}
