"""What proving the cache's bytes costs on the quick FullReport: the time spent recording, reading
back and checking output digests (``schedlab.output_digests``), against the build's whole time.

Usage: SCHEDLAB_TRACE_DIRS=../shared/traces SCHEDLAB_TRACES=KTH-SP2-1996-2.2,lublin_256 \\
       python bench/bench_cache_digests.py [--work-dir DIR]

The build runs in this process on one worker (so every call is counted here) into a fresh work
directory.  Target (issue 53): under 3 % of the build's time.  Parquet's page checksums (CRC32 per
page, written by pyarrow) and the per-task lock (one ``flock``) are not in the count.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import luigi  # noqa: E402

import pipeline  # noqa: E402, F401 - registers the tasks and their console output
import pipeline.base  # noqa: E402
from pipeline.full_report import FullReport  # noqa: E402
from schedlab import output_digests  # noqa: E402

TIMED = ("record", "recorded_outputs", "whole", "check_file")
spent = dict.fromkeys(TIMED, 0.0)
calls = dict.fromkeys(TIMED, 0)


def timed(name: str, function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        began = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] += time.perf_counter() - began
            calls[name] += 1

    return wrapper


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work-dir", type=Path, help="an empty directory; default a fresh temporary one")
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
          f"traces {os.environ.get('SCHEDLAB_TRACES', '(all found)')} in {os.environ.get('SCHEDLAB_TRACE_DIRS', '(default)')}")
    work = args.work_dir or Path(tempfile.mkdtemp(prefix="bench-digests-"))
    os.environ["SCHEDLAB_WORK_DIR"] = str(work)
    for name in TIMED:
        wrapped = timed(name, getattr(output_digests, name))
        setattr(output_digests, name, wrapped)
        if hasattr(pipeline.base, name):
            setattr(pipeline.base, name, wrapped)
    began = time.perf_counter()
    ok = luigi.build([FullReport()], local_scheduler=True, workers=1, log_level="WARNING")
    elapsed = time.perf_counter() - began
    total = sum(spent.values())
    print(f"work directory: {work}")
    for name in TIMED:
        print(f"  {name:<17} {calls[name]:>7,} calls  {spent[name]:8.2f} s")
    print(f"digests: {total:.2f} s of a {elapsed:,.1f} s build on 1 worker = {100 * total / elapsed:.2f} % "
          f"(target < 3 %){'' if ok else '; THE BUILD FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
