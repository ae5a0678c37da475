"""``schedlab gc``: remove the work directory's outputs that nothing current needs."""

from __future__ import annotations

import contextlib
from pathlib import Path

from schedlab.errors import SchedlabError

#: The one-line summary ``schedlab --help`` lists.
HELP = "remove outputs no current FullReport, bundle or kept task needs, printing what it frees"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "gc",
        help=HELP,
        description=(
            "Every code or parameter change gives tasks new output directories and leaves the old ones. "
            "Kept: everything the FullReport of the current settings needs (built or not yet), the report "
            "FullReport/latest points at, every ArchiveBundle, and the task families or directories named "
            "with --keep, each with all it requires.  Removed: every other output, staging directories "
            "left by killed writes (older than an hour) and dangling links."
        ),
    )
    parser.add_argument("--work-dir", help="work directory (default: the [schedlab] work_dir setting)")
    parser.add_argument("--keep", action="append", default=[], metavar="FAMILY_OR_DIR",
                        help="also keep this task family (e.g. KoalaReport) or output directory (repeatable)")
    parser.add_argument("--dry-run", action="store_true", help="print what would be removed, remove nothing")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from pipeline import settings
    from pipeline.cleanup import LATEST, remove, unneeded_outputs
    from pipeline.full_report import FullReport, dependency_closure

    with settings.overridden(work_dir=args.work_dir) if args.work_dir else contextlib.nullcontext():
        work_dir = settings.work_dir()
        if not work_dir.is_dir():
            raise SchedlabError(f"no work directory at {work_dir}")
        roots = [task.output_dir() for task in dependency_closure(FullReport())]
        roots.append(work_dir / "FullReport" / LATEST)
        roots.extend(sorted((work_dir / "ArchiveBundle").glob("*")))
        for kept in args.keep:
            path = Path(kept) if Path(kept).is_dir() else work_dir / kept
            if not path.is_dir():
                raise SchedlabError(f"--keep {kept}: neither a task family of {work_dir} nor an output directory")
            roots.extend(sorted(path.glob("*")) if path.parent.resolve() == work_dir.resolve() else [path])
        removals = unneeded_outputs(work_dir, roots)
    for removal in removals:
        print(f"{_size(removal.bytes):>10}  {removal.path.relative_to(work_dir)}  ({removal.why})")
    total = sum(r.bytes for r in removals)
    if args.dry_run:
        print(f"would free {_size(total)} in {len(removals)} entries of {work_dir} (dry run: nothing removed)")
    else:
        remove(removals)
        print(f"freed {_size(total)} in {len(removals)} entries of {work_dir}")
    return 0


def _size(count: int) -> str:
    return f"{count / 2**20:,.1f} MiB"

