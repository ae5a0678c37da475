"""``schedlab bundle create|verify|extract``: result bundles of the full report (``schedlab.reports.bundle``)."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from schedlab.errors import SchedlabError
from schedlab.options import COUNT, SEED, counts

#: The one-line summary ``schedlab --help`` lists.
HELP = "archive the full report reproducibly, verify or unpack such an archive"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "bundle",
        help=HELP,
        description=(
            "A bundle holds the full report, every intermediate behind it, the recipe and the "
            "source that made it, the environment, and a SHA-256 manifest. 'verify' checks the "
            "manifest, reruns the recipe in a fresh directory and compares every output byte for byte."
        ),
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    create = actions.add_parser("create", help="build the full report (if needed) and archive it")
    create.add_argument("-o", "--out", default="schedlab-bundle.tar.gz", help="default: %(default)s")
    create.add_argument("--work-dir", help="work directory (default: the [schedlab] work_dir setting)")
    create.add_argument("--stage-profile", choices=("quick", "paper"), default="quick",
                        help="size of every stage's experiments (default: quick)")
    create.add_argument("--stages", help="comma-separated stages to include (default: every stage; '' for none)")
    create.add_argument("--synthetic-jobs", type=COUNT, help="jobs per synthetic default workload, >= 1")
    create.add_argument("--synthetic-machine-procs", type=counts,
                        help="comma-separated machine sizes (>= 1) of the synthetic default")
    create.add_argument("--synthetic-seed", type=SEED, help="seed of the synthetic default workloads, >= 0")
    create.add_argument("--policies", help="comma-separated batch policies to replay")
    create.add_argument("--feedback", action="store_true",
                        help="replay every trace with its users closed-loop (docs/sessions.md)")
    create.add_argument("--resamples", type=SEED, help="user-based resamples per trace page, >= 0 (0: none)")
    create.add_argument("--workers", type=COUNT, help="Luigi workers, >= 1 (default: the cores available)")
    create.set_defaults(handler=run_create)

    verify = actions.add_parser("verify", help="check the manifest, rerun the recipe, compare byte for byte")
    verify.add_argument("bundle", help="bundle archive (.tar.gz) to verify")
    verify.add_argument("--scratch", help="directory for the rerun (default: a temporary one, removed after)")
    verify.add_argument("--trace-dir", action="append", help="where the recipe's real traces are (repeatable)")
    verify.add_argument("--repo", help="a git checkout of schedlab in which to check the bundle's commit "
                                       "(default: this schedlab's own checkout, when it is one)")
    verify.set_defaults(handler=run_verify)

    extract = actions.add_parser("extract", help="unpack a bundle after checking its manifest")
    extract.add_argument("bundle", help="bundle archive (.tar.gz) to unpack")
    extract.add_argument("directory", help="where to unpack it")
    extract.set_defaults(handler=run_extract)


def _comma_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def run_create(args) -> int:
    import luigi

    from pipeline import FullReport, console, settings
    from pipeline.bundle import bundle_contents
    from schedlab.reports.bundle import create_bundle
    from schedlab.atomic import atomic_path

    parameters = {"stage_profile": args.stage_profile}
    if args.stages is not None:
        parameters["stages"] = _comma_list(args.stages)
    if args.synthetic_jobs is not None:
        parameters["synthetic_jobs"] = args.synthetic_jobs
    if args.synthetic_machine_procs:
        parameters["synthetic_machine_procs"] = list(args.synthetic_machine_procs)
    if args.synthetic_seed is not None:
        parameters["synthetic_seed"] = args.synthetic_seed
    if args.policies:
        parameters["policies"] = _comma_list(args.policies)
    if args.feedback:
        parameters["feedback"] = True
    if args.resamples is not None:
        parameters["resamples"] = args.resamples
    quiet = getattr(args, "quiet", False)
    overrides = {"work_dir": args.work_dir} if args.work_dir else {}
    with settings.overridden(**overrides):
        report = FullReport(**parameters)
        previous = console.set_quiet(quiet)
        try:
            workers = {"workers": args.workers} if args.workers else {}  # else schedlab's default: the cores
            built = luigi.build([report], local_scheduler=True, log_level="WARNING", **workers)
        finally:
            console.set_quiet(previous)
        if not built:
            raise SchedlabError("the pipeline failed; see the Luigi log above")
        contents = bundle_contents(report)
        out = Path(args.out)
        if not quiet:
            print(f"packing {len(contents.output_dirs):,} task outputs into {out}", flush=True)
        with atomic_path(out) as staging:  # the only copy: none is kept in the work directory
            create_bundle(staging, contents)
    print(f"bundle written: {out} ({out.stat().st_size / 1e6:,.1f} MB)")
    return 0


def run_verify(args) -> int:
    from pipeline.trace_tasks import find_traces
    from schedlab import checkout_root
    from schedlab.reports.bundle import verify_bundle

    quiet = getattr(args, "quiet", False)
    scratch = Path(args.scratch) if args.scratch else Path(tempfile.mkdtemp(prefix="schedlab-verify-"))
    scratch.mkdir(parents=True, exist_ok=True)
    if any(scratch.iterdir()):
        raise SchedlabError(f"--scratch {scratch} is not empty: the rerun needs a fresh directory")
    try:
        result = verify_bundle(Path(args.bundle), scratch, trace_dirs=args.trace_dir, log=_ignore if quiet else _say,
                               find_traces=find_traces, repository=Path(args.repo) if args.repo else checkout_root())
    finally:
        if not args.scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    if result.manifest_problems:
        raise SchedlabError(
            f"{args.bundle}: manifest check FAILED, {len(result.manifest_problems)} problem(s):\n  "
            + "\n  ".join(result.manifest_problems)
        )
    if result.content_problems:
        raise SchedlabError(
            f"{args.bundle}: contents check FAILED, {len(result.content_problems)} problem(s):\n  "
            + "\n  ".join(result.content_problems)
        )
    if result.rerun_problems:
        causes = [*(f"version differs: {line}" for line in result.version_differences), *result.causes]
        raise SchedlabError(
            f"{args.bundle}: the rerun does not reproduce the bundle, {len(result.rerun_problems)} problem(s):\n  "
            + "\n  ".join(result.rerun_problems)
            + ("\nwhy, from the task records and versions:\n  " + "\n  ".join(causes) if causes else "")
        )
    checked = (f"manifest intact, every output of the recipe present, code.json matches source/, inputs.json and "
               f"environment.json match the tasks' records; the rerun reproduced all {result.files_compared} files "
               "byte for byte")
    if result.unproven:
        print(f"{args.bundle}: NOT PROVEN: {'; '.join(result.unproven)}; {checked}")
    else:
        print(f"{args.bundle}: OK: {checked}, and its commit holds source/")
    return 0


def _say(line: str) -> None:
    print(line, flush=True)


def _ignore(line: str) -> None:
    pass


def run_extract(args) -> int:
    from schedlab.reports.bundle import extract_bundle, manifest_problems, recipe_command, rerun_settings, shell_command

    destination = Path(args.directory).resolve()
    root = extract_bundle(Path(args.bundle), destination)
    problems = manifest_problems(root)
    if problems:
        raise SchedlabError(f"{args.bundle}: extracted to {root}, but the manifest check FAILED:\n  " + "\n  ".join(problems))
    recipe = json.loads((root / "recipe.json").read_text(encoding="utf-8"))
    rerun = shell_command(recipe_command(recipe), rerun_settings(root, destination / "rerun-work"), destination)
    print(f"extracted to {root}; manifest intact; the report is {root / recipe['report'] / 'index.html'}")
    print(f"to rerun its recipe from the bundled source (outputs in {destination / 'rerun-work'}):\n  {rerun}")
    return 0
