"""Run stages' paper profiles and publish their ledger as ``docs/results/paper-ledger.csv`` and ``.md``.

    python -m pipeline.publish_ledger [--stages cosy koala] [--workers 2] [--work-dir DIR]

A stage's companion pages (koala's sensitivity study) are then built at the paper profile
too and copied into ``docs/results/<stage>-<page>/``.

Each stage's quick report runs first (its verdicts are flagged beside the paper ones where
they differ), then its paper-profile report, timed from the start of the build to its end.
By default the work directory is a new empty one, so the wall time is that of the whole
paper profile, not of what a cache left to do.  Rows are stamped with the stage's
paper-profile report key (``code_version``: it changes with any code, parameter or input
the stage depends on, which is how the front page tells a stale published ledger), the
date and the wall time.  Stages not named keep their published rows.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import luigi
import pandas as pd

from pipeline.full_report import PUBLISHED_LEDGER, published_ledger
from pipeline.stages import STAGE_NAMES, stage
from reports.document import Document, Heading, paragraph, render_markdown, table
from reports.headline import PUBLISHED_COLUMNS, differing, with_other_profile
from reports.ledger import LEDGER_STEM, VERDICTS, ledger_blocks, read_ledger, verdict_counts


def build(task, workers: int) -> None:
    if not luigi.build([task], local_scheduler=True, workers=workers, log_level="WARNING"):
        raise SystemExit(f"{task} failed: see the log above")


def run_stage(name: str, workers: int, date: str) -> pd.DataFrame:
    """The stage's paper-profile ledger with its quick verdicts beside, stamped."""
    quick, paper = stage(name).report("quick"), stage(name).report("paper")
    print(f"{name}: quick profile", flush=True)
    build(quick, workers)
    print(f"{name}: paper profile", flush=True)
    started = time.monotonic()
    build(paper, workers)
    wall = time.monotonic() - started
    print(f"{name}: paper profile took {wall:.0f} s", flush=True)
    for page, task in stage(name).companion_pages("paper").items():
        print(f"{name}: {page} at the paper profile", flush=True)
        build(task, workers)
        publish_directory(task.output_dir(), PUBLISHED_LEDGER.parent / f"{name}-{page}")
    frame = with_other_profile(read_ledger(paper.output_file(f"{LEDGER_STEM}.csv")),
                               read_ledger(quick.output_file(f"{LEDGER_STEM}.csv")))
    return frame.assign(code_version=paper.task_key(), run_date=date, wall_seconds=round(wall, 1))


def ledger_page(frame: pd.DataFrame) -> Document:
    stamps = frame.groupby("paper", sort=False).first().reset_index()
    counts = verdict_counts(frame).set_index("paper")
    rows = [(r.paper, r.run_date, f"{r.wall_seconds:.0f}", r.code_version,
             *(str(int(counts.loc[r.paper, v])) for v in VERDICTS)) for r in stamps.itertuples()]
    header = ("paper", "run on", "wall s", "code version", *(v.replace("_", " ") for v in VERDICTS))
    differ = differing(frame)
    return Document("Claims ledger at the paper profile", (
        Heading("Runs"),
        paragraph("Each stage's paper profile, run from an empty work directory by ",
                  "python -m pipeline.publish_ledger; the code version is the stage's paper-profile report key."),
        table(header, rows, range(2, len(header))),
        paragraph(f"{len(differ)} claim(s) get a different verdict at the quick profile "
                  "(column 'verdict at the other profile')."),
        *ledger_blocks(frame.assign(link=""), name_with_paper=True),  # links name files of stage directories
    ))


def publish_directory(source: Path, target: Path) -> None:
    """Replace ``target`` by a copy of the files of ``source`` (a task's output directory, task.json aside)."""
    staging = target.with_name(f".{target.name}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for path in sorted(source.iterdir()):
        if path.is_file() and path.name != "task.json":
            shutil.copy2(path, staging / path.name)
    shutil.rmtree(target, ignore_errors=True)
    os.replace(staging, target)


def publish(frame: pd.DataFrame, target: Path = PUBLISHED_LEDGER) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    for path, text in ((target, frame.to_csv(index=False, lineterminator="\n", float_format="%.6g")),
                       (target.with_suffix(".md"), render_markdown(ledger_page(frame)))):
        staging = path.with_name(f".{path.name}.tmp")
        staging.write_text(text, encoding="utf-8")
        os.replace(staging, path)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stages", nargs="+", choices=STAGE_NAMES, default=list(STAGE_NAMES))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--work-dir", help="work directory (default: a new empty one)")
    args = parser.parse_args(argv)
    os.environ["SCHEDLAB_WORK_DIR"] = args.work_dir or tempfile.mkdtemp(prefix="schedlab-paper-")
    print(f"work directory: {os.environ['SCHEDLAB_WORK_DIR']}", flush=True)
    date = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    fresh = {name: run_stage(name, args.workers, date) for name in args.stages}
    kept = published_ledger()
    frames = []
    for name in STAGE_NAMES:
        if name in fresh:
            frames.append(fresh[name])
        elif kept is not None and name in set(kept["paper"]):
            frames.append(kept[kept["paper"] == name])
    publish(pd.concat(frames, ignore_index=True)[list(PUBLISHED_COLUMNS)])
    print(f"published {PUBLISHED_LEDGER}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
