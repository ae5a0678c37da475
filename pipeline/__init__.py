"""The Luigi pipeline: ``luigi --module pipeline FullReport --local-scheduler``.

Tasks are thin: they read their inputs, call domain code (parsers, workloads,
simulators, reports) and write one keyed output directory each (``pipeline.base``).
Where outputs go and where traces are found: ``pipeline.settings``.

    LocateTrace -> ParseTrace -> CleanTrace --+
                          SyntheticWorkload --+-> ReplayTrace -> TraceReport --+
             <Stage>Report(profile) for every stage in pipeline.stages --------+-> FullReport -> ArchiveBundle

Every task named below can be run on its own, e.g. ``luigi --module pipeline CosyReport
--profile quick --local-scheduler``.
"""

import os

from pipeline import luigi_defaults

luigi_defaults.install()  # before luigi reads its exit codes and log level, whatever the working directory

from pipeline import console  # noqa: E402, F401 - its event handlers print the build's progress

if os.environ.get("SCHEDLAB_TASK_EVENTS"):
    from pipeline import run_timing  # noqa: E402, F401 - its event handlers time every task (bench/bench_fullreport.py)
from pipeline.bandwidth import BandwidthReport  # noqa: E402
from pipeline.base import SchedlabTask
from pipeline.bundle import ArchiveBundle
from pipeline.cosched import CoschedReport
from pipeline.cosy import CosyReport
from pipeline.full_report import FullReport
from pipeline.ics import IcsReport
from pipeline.koala import KoalaReport
from pipeline.node_tasks import NodeReplay, NodeReport
from pipeline.replay_tasks import ReplayTrace
from pipeline.report_tasks import TraceReport
from pipeline.settings import schedlab
from pipeline.synthetic_tasks import SyntheticWorkload
from pipeline.trace_tasks import CleanTrace, LocateTrace, ParseTrace
from pipeline.workload_tasks import (
    FitWorkloadModel,
    PairWorkloads,
    ScaleTrace,
    SynthesizeWorkload,
)

__all__ = [
    "ArchiveBundle",
    "BandwidthReport",
    "CleanTrace",
    "CoschedReport",
    "CosyReport",
    "FitWorkloadModel",
    "FullReport",
    "IcsReport",
    "KoalaReport",
    "LocateTrace",
    "NodeReplay",
    "NodeReport",
    "PairWorkloads",
    "ParseTrace",
    "ReplayTrace",
    "ScaleTrace",
    "SchedlabTask",
    "SynthesizeWorkload",
    "SyntheticWorkload",
    "TraceReport",
    "schedlab",
]
