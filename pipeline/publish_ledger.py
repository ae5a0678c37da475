"""Build the paper-profile FullReport, timed, and publish its ledger and run times in docs/results/.

The paper ledger is ``docs/results/paper-ledger.csv`` and ``.md``; the run times,
``paper-times.csv`` and ``.md`` beside it.

    python -m pipeline.publish_ledger [--stages cosy koala] [--workers 2] [--work-dir DIR]
    python -m pipeline.publish_ledger --render-times   # the times page again from paper-times.csv

One ``luigi.build`` of ``FullReport(stage_profile="paper")`` (with ``--stages``, restricted
to those stages) on ``--workers`` workers, in a new empty work directory by default, so
that its wall time is that of the whole paper profile, not of what a cache left to do.
Every task's Luigi events go to ``<work dir>/task-events.jsonl`` (``pipeline.run_timing``);
each task is attributed to the stage whose report or companion pages need it (the
workload pages and the front page form a group of their own, ``workload pages``; a task
several groups need would go to ``shared``).  Per stage, ``paper-times`` states its
task-seconds (the sum of its tasks' run times) and its span (its first task's start to
its last task's end), with the build's total wall time, the date, the commit, the
machine, the workers and this command.

Then each stage's quick report is built (its verdicts are flagged beside the paper ones
where they differ), the companion pages built by the FullReport (koala's sensitivity
study) are copied into ``docs/results/<stage>-<page>/``, and the ledger rows are stamped
with the stage's paper-profile report key (``code_version``: it changes with any code,
parameter or input the stage depends on, which is how the front page tells a stale
published ledger), the date and ``wall_seconds``: the stage's span in the FullReport run.
Stages not named keep their published rows.

With ``--work-dir`` naming a used work directory, the tasks whose outputs are already there
are reused: the times page counts them per stage (``reused``), and the times cover only
what ran.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import luigi
import pandas as pd

from pipeline import settings
from pipeline.base import PROJECT_ROOT
from pipeline.full_report import PUBLISHED_LEDGER, FullReport
from pipeline.base import SchedlabTask
from pipeline.run_timing import TIME_COLUMNS, WORKLOAD_PAGES, group_times, recording_events, report_groups, task_times
from pipeline.stages import STAGE_NAMES, stage
from schedlab.reports.document import Code, Document, Heading, Link, paragraph, render_markdown, table
from schedlab.reports.headline import PUBLISHED_COLUMNS, differing, with_other_profile
from schedlab.reports.ledger import LEDGER_STEM, VERDICTS, ledger_blocks, read_ledger, verdict_counts, verdict_words
from schedlab.atomic import atomic_path
from schedlab.versions import versions_text

RESULTS_DIR = PUBLISHED_LEDGER.parent
EVENTS_FILE = "task-events.jsonl"
"""Below the work directory: the Luigi events of the timed FullReport build, one JSON line each."""
TIMES_STEM = "paper-times"
GOAL_SECONDS = 1800
"""Issue 51: the paper-profile FullReport on 2 workers in under half an hour (issue 23's was an hour)."""


@dataclass(frozen=True)
class TimedRun:
    """The timed FullReport build: its facts, and one row per group (``run_timing.TIME_COLUMNS``)."""

    date: str
    commit: str
    cpus: int
    machine: str
    workers: int
    profile: str
    wall_seconds: float
    command: str
    groups: pd.DataFrame
    load_at_start: float
    """The 1-minute load average when the build started: above 0.5 or so, something else was running."""
    versions: str = ""
    """Python and the libraries the build ran with (``schedlab.versions.versions_text``)."""

    def span(self, name: str) -> float:
        return float(self.groups.set_index("group").loc[name, "span_seconds"])

    @classmethod
    def from_frame(cls, frame: pd.DataFrame) -> TimedRun:
        """The run ``frame()`` wrote (``paper-times.csv`` read back), to render its page again."""
        first = frame.iloc[0]
        return cls(str(first["run_date"]), str(first["commit"]), int(first["cpus"]), str(first["machine"]),
                   int(first["workers"]), str(first["profile"]), float(first["run_wall_seconds"]),
                   str(first["command"]), frame[list(TIME_COLUMNS)].reset_index(drop=True),
                   float(first["load_at_start"]), "" if pd.isna(first["versions"]) else str(first["versions"]))

    def frame(self) -> pd.DataFrame:
        """The rows of ``paper-times.csv``: one per group, the run's facts repeated on each."""
        facts = {"run_date": self.date, "commit": self.commit, "cpus": self.cpus, "machine": self.machine,
                 "load_at_start": round(self.load_at_start, 2), "workers": self.workers, "profile": self.profile,
                 "run_wall_seconds": round(self.wall_seconds, 1), "versions": self.versions}
        groups = self.groups.round({c: 1 for c in TIME_COLUMNS[2:6]})
        return pd.DataFrame({**facts, **{c: groups[c] for c in TIME_COLUMNS}, "command": self.command})


def build(tasks, workers: int) -> None:
    if not luigi.build(list(tasks), local_scheduler=True, workers=workers, log_level="WARNING"):
        raise SystemExit(f"{', '.join(map(str, tasks))} failed: see the log above")


def commit_description() -> str:
    """The checked-out commit, marked when tracked files differ from it."""
    def git(*arguments: str) -> str:
        return subprocess.run(["git", *arguments], cwd=PROJECT_ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    try:
        commit = git("rev-parse", "--short=12", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{commit} (with uncommitted changes)" if dirty else commit


def machine_description() -> str:
    model = ""
    with_cpuinfo = Path("/proc/cpuinfo")
    if with_cpuinfo.exists():
        model = next((line.split(":", 1)[1].strip() for line in with_cpuinfo.read_text().splitlines()
                      if line.startswith("model name")), "")
    return ", ".join(part for part in (model, platform.platform(), f"Python {platform.python_version()}") if part)


def timed_full_report(report: FullReport, workers: int, command: str) -> TimedRun:
    """Build ``report`` in one ``luigi.build``, logging every task's events; its times per group."""
    events = settings.work_dir() / EVENTS_FILE
    events.unlink(missing_ok=True)
    date = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    commit, load = commit_description(), os.getloadavg()[0]
    with recording_events(events):
        started, clock = time.time(), time.monotonic()
        build([report], workers)
        wall = time.monotonic() - clock
    groups = group_times(task_times(events), report_groups(report), [*report.stage_reports(), WORKLOAD_PAGES], started)
    return TimedRun(date, commit, os.cpu_count() or 0, machine_description(), workers, report.stage_profile,
                    wall, command, groups, load, versions_text())


def stage_ledger(name: str, profile: str, other_profile: str, run: TimedRun) -> pd.DataFrame:
    """The stage's ledger at ``profile`` with its ``other_profile`` verdicts beside, stamped."""
    report, other = stage(name).report(profile), stage(name).report(other_profile)
    frame = with_other_profile(read_ledger(report.output_file(f"{LEDGER_STEM}.csv")),
                               read_ledger(other.output_file(f"{LEDGER_STEM}.csv")))
    return frame.assign(code_version=report.task_key(), run_date=run.date, wall_seconds=round(run.span(name), 1))


def publish_run(stages, workers: int, command: str, profile: str = "paper", other_profile: str = "quick",
                results: Path = RESULTS_DIR) -> TimedRun:
    """Build the FullReport of ``stages`` at ``profile`` (timed), then their ``other_profile`` reports;
    publish the ledger, the times and the companion pages into ``results``."""
    stages = [name for name in STAGE_NAMES if name in stages]
    report = FullReport(stage_profile=profile, stages=None if stages == list(STAGE_NAMES) else stages)
    print(f"FullReport at the {profile} profile, stages {', '.join(stages)}, {workers} worker(s)", flush=True)
    run = timed_full_report(report, workers, command)
    print(f"FullReport took {run.wall_seconds:.0f} s", flush=True)
    print(f"{', '.join(stages)}: {other_profile} profile", flush=True)
    build([stage(name).report(other_profile) for name in stages], workers)
    for name in stages:
        for page, task in stage(name).companion_pages(profile).items():
            publish_directory(task, results / f"{name}-{page}")
    ledger_file = results / PUBLISHED_LEDGER.name
    kept = read_ledger(ledger_file) if ledger_file.exists() else None
    frames = []
    for name in STAGE_NAMES:
        if name in stages:
            frames.append(stage_ledger(name, profile, other_profile, run))
        elif kept is not None and name in set(kept["paper"]):
            frames.append(kept[kept["paper"] == name])
    publish(pd.concat(frames, ignore_index=True)[list(PUBLISHED_COLUMNS)], run, ledger_file)
    print(f"published {ledger_file} and {ledger_file.with_name(TIMES_STEM + '.md')}", flush=True)
    return run


def ledger_page(frame: pd.DataFrame, run: TimedRun) -> Document:
    stamps = frame.groupby("paper", sort=False).first().reset_index()
    counts = verdict_counts(frame).set_index("paper")
    rows = [(r.paper, r.run_date, f"{r.wall_seconds:.0f}", r.code_version,
             *(str(int(counts.loc[r.paper, v])) for v in VERDICTS)) for r in stamps.itertuples()]
    header = ("paper", "run on", "wall s", "code version", *(verdict_words(v) for v in VERDICTS))
    differ = differing(frame)
    return Document("Claims ledger at the paper profile", (
        Heading("Runs"),
        paragraph("The stages' paper profiles, built together as one FullReport from an empty work directory by ",
                  "python -m pipeline.publish_ledger; the code version is the stage's paper-profile report key; "
                  "wall s is the stage's span in the build that published it (its first task's start to its last "
                  "task's end)."),
        table(header, rows, range(2, len(header))),
        paragraph(f"Run times of the latest publishing run ({run.date}, {run.workers} worker(s), FullReport wall "
                  f"{run.wall_seconds:.0f} s): ", Link(f"{TIMES_STEM}.md", f"{TIMES_STEM}.md"),
                  " (per stage task-seconds and span; ", Link(f"{TIMES_STEM}.csv", f"{TIMES_STEM}.csv"), ")."),
        paragraph(f"Software of the build that judged them: {run.versions}."),
        paragraph(f"{len(differ)} claim(s) get a different verdict at the quick profile "
                  "(column 'verdict at the other profile')."),
        *ledger_blocks(frame.assign(link=""), name_with_paper=True),  # links name files of stage directories
    ))


def times_page(run: TimedRun) -> Document:
    groups = run.groups
    rows = [(g.group, str(g.tasks), str(g.tasks_reused), f"{g.task_seconds:.0f}", f"{g.span_seconds:.0f}",
             "" if g.tasks == 0 else f"{g.first_start_seconds:.0f}", "" if g.tasks == 0 else f"{g.last_end_seconds:.0f}")
            for g in groups.itertuples()]
    total = ("whole build", str(int(groups["tasks"].sum())), str(int(groups["tasks_reused"].sum())),
             f"{groups['task_seconds'].sum():.0f}", f"{run.wall_seconds:.0f}", "", "")
    verdict = "under" if run.wall_seconds < GOAL_SECONDS else "over"
    return Document(f"Run times of the {run.profile}-profile FullReport", (
        paragraph(f"The {run.profile}-profile FullReport took {run.wall_seconds:.0f} s "
                  f"({run.wall_seconds / 60:.1f} min) of wall time on {run.workers} worker(s): {verdict} the "
                  f"{GOAL_SECONDS // 60}-minute goal of issue 51. Run on {run.date}, commit {run.commit}, on a "
                  f"machine with {run.cpus} CPU(s) ({run.machine}; 1-minute load average at the start "
                  f"{run.load_at_start:.2f}), with {run.versions or 'library versions not recorded'}, by"),
        paragraph(Code(run.command)),
        paragraph("It is one luigi.build of the FullReport in an empty work directory, timed from its start to "
                  "its end (task scheduling and completeness checks included). Each task's times come from Luigi's "
                  "events, logged to <work directory>/task-events.jsonl by the worker process that ran it: "
                  "task-seconds is the sum over a stage's tasks of their run times (PROCESSING_TIME), span is the "
                  "time from the stage's first task start (START) to its last task end (SUCCESS), and the start and "
                  "end columns count seconds from the start of the build. A task belongs to the stage whose report "
                  "or companion pages (koala's sensitivity study) need it; the workload pages (TraceReport and its "
                  "parse and replays, where no stage needs them) and the front page itself are the group "
                  f"'{WORKLOAD_PAGES}'; a task that several groups need would be 'shared' (there is none). "
                  "Workers run the next stage's first tasks beside a stage's last ones, so spans overlap a little; "
                  "the ledger's wall s column is the span."),
        *([paragraph(f"{int(groups['tasks_reused'].sum())} task(s) did not run in this build: their outputs were "
                     "already in the work directory (column 'reused'), so the times cover only the tasks that ran.")]
          if groups["tasks_reused"].sum() > 0 else []),
        table(("stage", "tasks", "reused", "task-seconds", "span s", "start s", "end s"), [*rows, total], range(1, 7)),
        paragraph(what_bounds(run)),
        paragraph("The claims these runs produced: ", Link("paper-ledger.md", "paper-ledger.md"), "."),
    ))


def what_bounds(run: TimedRun) -> str:
    """The floor the tasks' own run times put under the wall time, and the stages that make most of it."""
    groups = run.groups[run.groups["tasks"] > 0].sort_values("task_seconds", ascending=False)
    total = groups["task_seconds"].sum()
    floor = total / max(run.workers, 1)
    largest = "; ".join(
        f"{g.group} {g.task_seconds:,.0f} ({100 * g.task_seconds / total:.0f} %, {g.tasks:,} tasks of "
        f"{g.task_seconds / g.tasks:.2f} s on average)" for g in groups.head(3).itertuples())
    return (f"What bounds the build: its tasks ran {total:,.0f} task-seconds, so on {run.workers} worker(s) it "
            f"cannot take less than {floor:,.0f} s ({floor / 60:.1f} min) however they are packed; the wall time "
            f"was {run.wall_seconds:,.0f} s. The three stages with the most task-seconds: {largest}.")


MAX_PUBLISHED_BYTES = 2 * 1024 * 1024
"""A file of a published page larger than this is committed gzip-compressed (``<name>.gz``): the repository keeps
no file over 2 MiB."""


def publish_directory(task: SchedlabTask, target: Path) -> None:
    """Replace ``target`` by a copy of the files a task wrote at the top of its output directory, each
    proven to be its bytes as it is read (a damaged one is refused, naming it); a file over
    ``MAX_PUBLISHED_BYTES`` is copied gzip-compressed, and the pages' links to it name the compressed copy."""
    staging = target.with_name(f".{target.name}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        _copy_published(task, staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(target, ignore_errors=True)
    os.replace(staging, target)


def _copy_published(task: SchedlabTask, staging: Path) -> None:
    files = [task.output_file(name) for name in sorted(task.record()["outputs"]) if "/" not in name]
    compressed = {path.name for path in files if path.stat().st_size > MAX_PUBLISHED_BYTES}
    for path in files:
        if path.name in compressed:
            with path.open("rb") as raw, (staging / f"{path.name}.gz").open("wb") as packed:
                with gzip.GzipFile(fileobj=packed, mode="wb", mtime=0, filename="") as stream:  # same bytes every run
                    shutil.copyfileobj(raw, stream)
        elif path.suffix in (".md", ".html") and compressed:
            text = path.read_text(encoding="utf-8")
            for name in compressed:
                text = text.replace(f"]({name})", f"]({name}.gz)").replace(f'href="{name}"', f'href="{name}.gz"')
            (staging / path.name).write_text(text, encoding="utf-8")
        else:
            shutil.copy2(path, staging / path.name)


def publish(frame: pd.DataFrame, run: TimedRun, target: Path = PUBLISHED_LEDGER) -> None:
    times = target.with_name(TIMES_STEM)
    files = {
        target: frame.to_csv(index=False, lineterminator="\n", float_format="%.6g"),
        target.with_suffix(".md"): render_markdown(ledger_page(frame, run)),
        times.with_suffix(".csv"): run.frame().to_csv(index=False, lineterminator="\n"),
        times.with_suffix(".md"): render_markdown(times_page(run)),
    }
    for path, text in files.items():
        with atomic_path(path) as staging:
            staging.write_text(text, encoding="utf-8")


def command_line(argv) -> str:
    """How to rerun this publication: the trace directories and the arguments given."""
    trace_dirs = os.pathsep.join(str(d) for d in settings.trace_dirs())
    return shlex.join([f"SCHEDLAB_TRACE_DIRS={trace_dirs}", "python", "-m", "pipeline.publish_ledger", *argv])


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stages", nargs="+", choices=STAGE_NAMES, default=list(STAGE_NAMES))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--work-dir", help="work directory (default: a new empty one)")
    parser.add_argument("--render-times", action="store_true",
                        help="build nothing: write paper-times.md again from the published paper-times.csv")
    args = parser.parse_args(argv)
    if args.render_times:
        times = RESULTS_DIR / f"{TIMES_STEM}.md"
        run = TimedRun.from_frame(pd.read_csv(times.with_suffix(".csv")))
        with atomic_path(times) as staging:
            staging.write_text(render_markdown(times_page(run)), encoding="utf-8")
        print(f"rendered {times} from {times.with_suffix('.csv').name}")
        return 0
    os.environ["SCHEDLAB_WORK_DIR"] = args.work_dir or tempfile.mkdtemp(prefix="schedlab-paper-")
    print(f"work directory: {os.environ['SCHEDLAB_WORK_DIR']}", flush=True)
    publish_run(args.stages, args.workers, command_line(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
