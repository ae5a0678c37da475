"""The Luigi pipeline: ``luigi --module pipeline FullReport --local-scheduler``.

Tasks are thin: they read their inputs, call domain code (parsers, workloads,
simulators, reports) and write one keyed output directory each (``pipeline.base``).
Where outputs go and where traces are found: ``pipeline.settings``.

    LocateTrace -> ParseTrace -> CleanTrace --+
                          SyntheticWorkload --+-> ReplayTrace -> TraceReport -> FullReport
"""

from pipeline.base import SchedlabTask
from pipeline.replay_tasks import ReplayTrace
from pipeline.report_tasks import FullReport, TraceReport
from pipeline.settings import schedlab
from pipeline.synthetic_tasks import SyntheticWorkload
from pipeline.trace_tasks import CleanTrace, LocateTrace, ParseTrace

__all__ = [
    "CleanTrace",
    "FullReport",
    "LocateTrace",
    "ParseTrace",
    "ReplayTrace",
    "SchedlabTask",
    "SyntheticWorkload",
    "TraceReport",
    "schedlab",
]
