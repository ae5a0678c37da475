"""The ``pyss`` convention profile must reproduce pyss's own schedules job for job.

The reference CSVs were produced by pyss itself (see ../shared/reference/README.md);
nothing in them comes from schedlab.
"""

import pandas as pd
import pytest

from schedlab.parsers.swf import read_swf
from schedlab.simulators.batch.replay import replay
from tests.conftest import shared_path


@pytest.fixture(scope="module")
def kth_jobs():
    return read_swf(shared_path("traces", "KTH-SP2-1996-2.2.swf")).jobs


@pytest.mark.parametrize("policy", ["easy", "conservative", "fcfs"])
def test_kth_sp2_schedule_equals_pyss(kth_jobs, policy):
    reference = pd.read_csv(shared_path("reference", f"pyss-{policy}-KTH-SP2.csv.gz"))
    ours = replay(kth_jobs, 100, policy=policy, conventions="pyss").schedule
    merged = ours.merge(reference, on="job_id", suffixes=("", "_pyss"), validate="one_to_one")
    assert len(merged) == len(reference) == len(ours)
    for column, theirs in (("start", "start_time"), ("end", "end_time"),
                           ("procs", "processors"), ("requested_time", "requested_time_pyss")):
        differ = merged[merged[column] != merged[theirs]]
        assert differ.empty, f"{len(differ)} jobs differ in {column}, first:\n{differ.head()}"
