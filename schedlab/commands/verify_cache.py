"""``schedlab verify-cache``: prove every cached output holds the bytes its task wrote."""

from __future__ import annotations

import shutil
from pathlib import Path

from schedlab.errors import SchedlabError

#: The one-line summary ``schedlab --help`` lists.
HELP = "check every cached output against the sizes and SHA-256 its task recorded"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "verify-cache",
        help=HELP,
        description=(
            "Every task records the size and SHA-256 of each file it writes in its task.json. "
            "This reads every output directory of the work directory and lists those whose files are "
            "missing, of another size, changed in place, or not written by their task, whose task.json was edited or is "
            "another task's (a copied or swapped directory), and links where an output belongs. A build reruns an "
            "output with a missing or truncated file by itself and refuses a file changed in place; "
            "--remove-damaged removes the damaged directories so that the next build recomputes them. "
            "Exit status 1 when damage is found and left in place."
        ),
    )
    parser.add_argument("--work-dir", help="work directory (default: the [schedlab] work_dir setting)")
    parser.add_argument("--remove-damaged", action="store_true",
                        help="remove each damaged output directory (the next build recomputes it)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from pipeline import settings
    from schedlab.output_digests import damage, misplaced_links, output_directories, recorded_outputs
    from schedlab.progress import progress

    work_dir = Path(args.work_dir) if args.work_dir else settings.work_dir()
    if not work_dir.is_dir():
        raise SchedlabError(f"no work directory at {work_dir}")
    directories = output_directories(work_dir)
    damaged = size = 0
    for link, problem in misplaced_links(work_dir):
        damaged += 1
        print(f"{link.relative_to(work_dir)}: {problem}")
        if args.remove_damaged:
            link.unlink()
    for directory in progress(directories, desc="outputs checked", quiet=args.quiet):
        recorded = recorded_outputs(directory)
        size += sum(entry["bytes"] for entry in (recorded or {}).values())
        problems = damage(directory, recorded)
        if problems:
            damaged += 1
            print(f"{directory.relative_to(work_dir)}: " + "; ".join(problems))
            if args.remove_damaged:
                shutil.rmtree(directory)
    summary = f"checked {len(directories):,} outputs ({size / 2**20:,.1f} MiB) in {work_dir}: "
    if not damaged:
        print(summary + "every file as its task wrote it")
        return 0
    if args.remove_damaged:
        print(summary + f"{damaged:,} damaged, removed (the next build recomputes them)")
        return 0
    print(summary + f"{damaged:,} damaged (--remove-damaged removes them)")
    return 1
