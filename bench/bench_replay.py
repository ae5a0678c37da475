"""Replay speed, side by side: whole process and in-process, compiled and reference engines.

    python bench/bench_replay.py [--repeat N] [--pyss-seconds S | --pyss-command "CMD"] [--million]

For KTH-SP2 (EASY, conservative, FCFS) and CEA-Curie (EASY), all under pyss conventions,
it prints:

- whole process: ``schedlab replay TRACE --conventions pyss --quiet`` timed from outside,
  best of ``--repeat`` (start-up, parsing, simulation, checks and printing);
- in-process: ``replay()`` on a job table already read, best of ``--repeat``, with jobs
  per second, on the compiled event loop and, for KTH, on the interpreted reference;
- the pyss ratio for KTH EASY: pyss's whole-process time over ours, where pyss's time is
  given (``--pyss-seconds``) or measured in this run (``--pyss-command``, a shell command
  that replays KTH-SP2 under EASY with pyss, e.g. ``"python2 run_simulator.py ..."``), best of
  ``--repeat`` as ours.

Running pyss here: pyss is not on any package index.  The reference schedules name their
source (../shared/reference/PYSS_CONVENTIONS.md: pyss as mirrored at github
dinesh121991/pyss); a checkout of its ``src/`` outside this repository, run with Python 2.7
and ``-O`` from that directory, is timed with

    --pyss-command "cd PYSS/src && python2.7 -O run_simulator.py --num-processors=100 \
        --input-file=/abs/path/KTH-SP2-1996-2.2.swf --scheduler=EasyBackfillScheduler"

Check first that its schedule is the reference's, job for job (the ratio means nothing
otherwise).

Then a researcher's own policies on KTH (pyss conventions, in-process, best of ``--repeat``):
the shipped example (``examples/policies/largest_first.py``, a priority over EASY), the
shortest-first priority of docs/policies.md (both on the compiled loop), the same rule as the
hand-written class of docs/policies.md (reference engine), and the built-in EASY under sjf.

With ``--million``, it then builds the 1.56 M-job trace of ``bench_million.py`` and replays it
whole process under FCFS, EASY and conservative, with jobs/s and peak memory.

Targets (issue 23): whole process >= 10x faster than pyss (aim 20x), in-process >= 500k
jobs/s for EASY and >= 200k jobs/s for conservative on KTH, CEA-Curie EASY whole process
under 3 s.  Issue 51: a plugin >= 100k jobs/s on KTH and within 5x of the built-in policy.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from schedlab.parsers.swf import read_swf  # noqa: E402
from schedlab.simulators.batch import compiled  # noqa: E402
from schedlab.simulators.batch.replay import default_engine, replay  # noqa: E402
from timing import best_of  # noqa: E402  (bench/ is the script's directory)

TRACES = REPO.parent / "shared" / "traces"
KTH, CURIE = "KTH-SP2-1996-2.2.swf", "CEA-Curie-2011-2.1-cln.swf.gz"
RUNS = [(KTH, "easy"), (KTH, "conservative"), (KTH, "fcfs"), (CURIE, "easy")]
MACHINE_PROCS = {KTH: 100, CURIE: 93312}  # the headers' MaxProcs, as 'schedlab replay' takes them


def console_script() -> str:
    """The ``schedlab`` that pip installed beside this interpreter.  A version manager's shim
    found first on PATH (pyenv's is a shell script that runs ``pyenv exec``) adds its own
    start-up, about 0.05 s here, which is not schedlab's and which pyss, run by its
    interpreter's path, does not pay either."""
    beside = Path(sys.executable).with_name("schedlab")
    return str(beside) if beside.is_file() else "schedlab"


def whole_process(arguments: list[str], repeat: int) -> float:
    command = [console_script(), *arguments]
    return best_of(repeat, lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL,
                                                 stderr=subprocess.DEVNULL))


def replay_command(trace: Path, policy: str) -> list[str]:
    return ["replay", str(trace), "--policy", policy, "--conventions", "pyss", "--quiet"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best is reported")
    pyss = parser.add_mutually_exclusive_group()
    pyss.add_argument("--pyss-seconds", type=float, help="pyss's whole-process time on KTH EASY, measured elsewhere")
    pyss.add_argument("--pyss-command", help="shell command replaying KTH EASY with pyss, timed in this run")
    parser.add_argument("--million", action="store_true", help="also the million-job replays (bench_million.py)")
    args = parser.parse_args()
    print(f"command: {shlex.join([sys.executable, *sys.argv])}")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"whole process runs: {console_script()}")
    print(f"start-up: 'schedlab --help' {whole_process(['--help'], args.repeat):.3f} s (target < 0.3 s)")
    if not TRACES.is_dir():
        print(f"skipped: {TRACES} not found (the shared traces live beside the repository)")
        return 0
    if not compiled.available():
        print("note: the compiled event loop is not built; in-process 'compiled' rows run the reference engine")
    header = f"{'trace':<31} {'policy':<13} {'jobs':>8} {'whole s':>8} {'engine':<10} {'replay() s':>10} {'jobs/s':>11}"
    print(header)
    print("-" * len(header))
    tables: dict[str, object] = {}
    ours_kth_easy = None
    for name, policy in RUNS:
        if name not in tables:
            tables[name] = read_swf(TRACES / name).columns  # as 'schedlab replay --conventions pyss' replays them
        jobs = tables[name]
        whole = whole_process(replay_command(TRACES / name, policy), args.repeat)
        if (name, policy) == (KTH, "easy"):
            ours_kth_easy = whole
        engines = ["compiled", "reference"] if name == KTH else ["compiled"]
        for engine in engines:
            seconds = best_of(args.repeat if engine == "compiled" else 1,
                              lambda: replay(jobs, MACHINE_PROCS[name], policy=policy, conventions="pyss",
                                             engine=engine))
            shown = f"{whole:>8.2f}" if engine == engines[0] else f"{'':>8}"
            count = len(jobs["job_id"])
            print(f"{name:<31} {policy:<13} {count:>8,} {shown} {engine:<10} {seconds:>10.3f} "
                  f"{count / seconds:>11,.0f}")
    plugins(tables[KTH], args.repeat)
    pyss_seconds, source = args.pyss_seconds, "given"
    if args.pyss_command:
        pyss_seconds = best_of(args.repeat, lambda: subprocess.run(args.pyss_command, shell=True, check=True,
                                                                   stdout=subprocess.DEVNULL))
        source = f"measured in this run, best of {args.repeat}"
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        with_out = {fmt: whole_process([*replay_command(TRACES / KTH, "easy"), "--out", str(Path(scratch) / name),
                                        *(["--format", "batsim"] if fmt == "batsim" else [])], args.repeat)
                    for fmt, name in (("csv", "s.csv"), ("swf", "s.swf"), ("batsim", "jobs.csv"))}
    print("KTH EASY whole process writing the schedule (--out): "
          + ", ".join(f"{fmt} {seconds:.2f} s" for fmt, seconds in with_out.items()))
    if pyss_seconds:
        print(f"pyss KTH EASY whole process: {pyss_seconds:.2f} s ({source}); ours {ours_kth_easy:.2f} s: "
              f"{pyss_seconds / ours_kth_easy:.1f}x faster (target >= 10x, aim 20x); with --out csv "
              f"{with_out['csv']:.2f} s: {pyss_seconds / with_out['csv']:.1f}x (target >= 20x, aim 40x)")
    else:
        print("pyss ratio: give --pyss-seconds or --pyss-command")
    if args.million:
        import bench_million

        print()
        bench_million.main([])
    return 0


def plugins(jobs, repeat: int) -> None:
    """In-process jobs/s of a researcher's policies on KTH, beside the built-in policy they resemble."""
    import tempfile

    from tests.test_policy_plugins import DOCS_PRIORITY_MARK, docs_example

    with tempfile.TemporaryDirectory() as scratch:
        policies = [
            ("example LargestFirstEasy", f"{REPO / 'examples/policies/largest_first.py'}:LargestFirstEasy", "fcfs"),
            ("docs priority ShortestFirstEasy",
             f"{docs_example(Path(scratch), 'bench_priority', DOCS_PRIORITY_MARK)}:ShortestFirstEasy", "fcfs"),
            ("docs class ShortestFirstEasy", f"{docs_example(Path(scratch), 'bench_class')}:ShortestFirstEasy",
             "fcfs"),
            ("built-in easy, order sjf", "easy", "sjf"),
        ]
        count = len(jobs["job_id"])
        print(f"\nplugins on {KTH} ({count:,} jobs, pyss conventions, in-process, best of {repeat})")
        rates = {}
        for label, policy, order in policies:
            seconds = best_of(repeat, lambda: replay(jobs, MACHINE_PROCS[KTH], policy=policy, order=order,
                                                     conventions="pyss"))
            engine = default_engine(policy, order)
            rates[label] = count / seconds
            print(f"  {label:<34} {engine:<10} {seconds:>8.3f} s {count / seconds:>11,.0f} jobs/s")
        built_in = rates["built-in easy, order sjf"]
        for label in list(rates)[:3]:
            print(f"  {label}: {built_in / rates[label]:.1f}x the built-in's time (target <= 5x, >= 100k jobs/s)")


if __name__ == "__main__":
    sys.exit(main())
