"""The README's main command, timed as a new user runs it: from an empty work directory.

    python bench/bench_fullreport.py [--trace-example] [--workers N] [--noop-tasks N] [--keep DIR]

It runs ``luigi --module pipeline FullReport --local-scheduler`` from the clone (with
``--trace-example``, the README's trace example instead: ``SCHEDLAB_TRACE_DIRS=../shared/traces
SCHEDLAB_TRACES=KTH-SP2-1996-2.2,lublin_256``), the command line exactly as the README writes it
unless ``--workers`` is given, in a new empty work directory, and prints:

- the load average before and after (numbers measured on a busy machine mean little);
- the build's wall time and exit code;
- task-seconds per task family (tasks, their summed run time, mean per task), from every task's
  Luigi events (``pipeline.run_timing``, switched on by ``SCHEDLAB_TASK_EVENTS``);
- Luigi's own cost per task: ``--noop-tasks`` tasks that do nothing (``noop_tasks.py``), built
  the same way, wall time per task.

Issue 64's target: the main command under 3 minutes on an idle 2-core machine, the trace
example under 5.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO))

from pipeline.run_timing import EVENTS_VARIABLE, task_times  # noqa: E402

TRACE_EXAMPLE = {"SCHEDLAB_TRACE_DIRS": str(REPO.parent / "shared" / "traces"),
                 "SCHEDLAB_TRACES": "KTH-SP2-1996-2.2,lublin_256"}


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def timed_build(command: list[str], work_dir: Path, environment: dict[str, str], cwd: Path) -> tuple[float, int, Path]:
    events = work_dir / "task-events.jsonl"
    env = {**os.environ, **environment, "SCHEDLAB_WORK_DIR": str(work_dir), EVENTS_VARIABLE: str(events)}
    began = time.perf_counter()
    completed = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - began
    if completed.returncode != 0:
        print(completed.stderr[-3000:], file=sys.stderr)
    return wall, completed.returncode, events


def family_table(events: Path) -> str:
    times = task_times(events)
    by_family = times.groupby("family")["seconds"].agg(["count", "sum", "mean"]).sort_values("sum", ascending=False)
    lines = [f"{'task family':<28} {'tasks':>6} {'task-s':>9} {'mean s':>8}"]
    lines += [f"{family:<28} {int(row['count']):>6} {row['sum']:>9.1f} {row['mean']:>8.3f}"
              for family, row in by_family.iterrows()]
    lines.append(f"{'all':<28} {len(times):>6} {times['seconds'].sum():>9.1f}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trace-example", action="store_true", help="time the README's trace example instead")
    parser.add_argument("--workers", type=int, help="add --workers N (default: the command as the README writes it)")
    parser.add_argument("--noop-tasks", type=int, default=200, help="tasks of the per-task cost measure (0: skip)")
    parser.add_argument("--keep", type=Path, help="build in this (new) work directory and keep it")
    arguments = parser.parse_args(argv)

    command = ["luigi", "--module", "pipeline", "FullReport", "--local-scheduler"]
    command += ["--workers", str(arguments.workers)] if arguments.workers else []
    environment = TRACE_EXAMPLE if arguments.trace_example else {}
    work_dir = arguments.keep or Path(tempfile.mkdtemp(prefix="bench-fullreport-"))
    if work_dir.exists() and any(work_dir.iterdir()):
        parser.error(f"{work_dir} is not empty: the build must start from an empty work directory")
    try:
        print(f"command: {' '.join(f'{k}={v}' for k, v in environment.items())} {' '.join(command)}".strip())
        print(f"cores: {len(os.sched_getaffinity(0))}, load average before: {load_average()}")
        wall, code, events = timed_build(command, work_dir, environment, REPO)
        print(f"wall {wall:.1f} s, exit {code}, load average after: {load_average()}")
        print(family_table(events))
        if arguments.noop_tasks:
            noop_dir = Path(tempfile.mkdtemp(prefix="bench-noop-"))
            noop = ["luigi", "--module", "noop_tasks", "Nothings", "--count", str(arguments.noop_tasks),
                    "--local-scheduler", *command[5:]]
            path = os.pathsep.join(filter(None, [str(BENCH), os.environ.get("PYTHONPATH")]))
            noop_wall, noop_code, _ = timed_build(noop, noop_dir, {"PYTHONPATH": path}, REPO)
            shutil.rmtree(noop_dir, ignore_errors=True)
            print(f"Luigi's cost per task: {arguments.noop_tasks} tasks that do nothing in {noop_wall:.1f} s "
                  f"(exit {noop_code}): {1000 * noop_wall / arguments.noop_tasks:.0f} ms per task, wall")
        return code
    finally:
        if not arguments.keep:
            shutil.rmtree(work_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
