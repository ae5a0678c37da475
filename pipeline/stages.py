"""The registry of simulator stages that ``FullReport`` links: one report task per studied system.

Each stage's report task takes ``profile`` ("quick" or "paper") and writes one directory
holding ``index.md`` / ``index.html``, its figures and its tables.  A stage enters the
report by being listed here, with an explicit import, so that a broken stage module
fails loudly instead of silently dropping out of the report.  Every stage runs on its
embedded defaults (synthetic workloads, the fits shipped with schedlab) where the real
logs it would use are absent, so a fresh clone builds all five offline; each page says
which input stood in for which log.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.bandwidth import BandwidthReport
from pipeline.base import SchedlabTask
from pipeline.cosched import CoschedReport
from pipeline.cosy import CosyReport
from pipeline.ics import IcsReport
from pipeline.koala import KoalaReport, KoalaSensitivity
from schedlab.reports import bandwidth_claims, cosched_claims, cosy_claims, ics_claims, koala_claims
from schedlab.reports.ledger import Claim
from schedlab.errors import SchedlabError

STAGE_PROFILES = ("quick", "paper")


@dataclass(frozen=True)
class Stage:
    """A stage: its name, the paper it reproduces, its report task and the paper's claims
    (``reports.<stage>_claims``)."""

    name: str
    paper: str
    task: type[SchedlabTask]
    claims: tuple[Claim, ...]
    companions: tuple[type[SchedlabTask], ...] = ()
    """Further pages of the stage, each taking ``profile`` (a sensitivity study, say): built beside the
    report and, at the paper profile, published into ``docs/results/<name>-<page>/``."""

    def companion_pages(self, profile: str) -> dict[str, SchedlabTask]:
        """Page name (the task family without the stage prefix, lower case) -> its task."""
        return {task.__name__.removeprefix(self.name.capitalize()).lower(): task(profile=profile)
                for task in self.companions}

    def report(self, profile: str) -> SchedlabTask:
        return self.task(profile=profile)


STAGES = (
    Stage(
        "cosched",
        "Job Coscheduling on Coupled High-End Computing Systems (Argonne: Intrepid + Eureka)",
        CoschedReport,
        cosched_claims.CLAIMS,
    ),
    Stage(
        "ics",
        "A runtime resolution scheme for priority boost conflict in implicit coscheduling (Yu, Kim, Maeng)",
        IcsReport,
        ics_claims.CLAIMS,
    ),
    Stage("cosy", "Queue Scheduling and Advance Reservations with COSY (IPDPS 2004)", CosyReport, cosy_claims.CLAIMS),
    Stage(
        "koala",
        "On the Benefit of Processor Coallocation in Multicluster Grid Systems (Sonmez, Mohamed, Epema, TPDS 2010)",
        KoalaReport,
        koala_claims.CLAIMS,
        companions=(KoalaSensitivity,),
    ),
    Stage(
        "bandwidth",
        "The Impact of Information Availability and Workload Characteristics on the Performance of Job "
        "Co-allocation in Multi-clusters (Jones, Ligon, Shrivastava, ICPADS 2006)",
        BandwidthReport,
        bandwidth_claims.CLAIMS,
    ),
)

STAGE_NAMES = tuple(stage.name for stage in STAGES)


def stage(name: str) -> Stage:
    for candidate in STAGES:
        if candidate.name == name:
            return candidate
    raise SchedlabError(f"no stage {name!r}; stages: {', '.join(STAGE_NAMES)}")
