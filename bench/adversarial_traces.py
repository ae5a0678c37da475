"""Traces built to exhaust a reader, and the peak memory of reading one in a fresh process.

Each is a small gzip file that decompresses to ``size`` bytes of one repeated piece: the inputs of
issue 69 (item 5) that took ``schedlab info`` past 10 GB or ran for minutes.  ``tests/test_swf_bounds.py``
reads them at 256 MB and checks the peaks; ``bench_parse.py --adversarial`` times them at 1,000 MB.
"""

from __future__ import annotations

import subprocess
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

MIB = 1 << 20
JOB = "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1"


@dataclass(frozen=True)
class AdversarialTrace:
    name: str
    piece: bytes
    tail: bytes
    strict: bool
    outcome: str  # a regular expression for what reading gives (see PEAK_SCRIPT)

    def write(self, path: Path, size: int) -> Path:
        """``piece`` repeated to ``size`` bytes, then ``tail``, gzip-compressed block by block."""
        packer = zlib.compressobj(1, zlib.DEFLATED, 31)
        block = self.piece * max(1, MIB // len(self.piece))
        with open(path, "wb") as packed:
            for _ in range(size // len(block)):
                packed.write(packer.compress(block))
            packed.write(packer.compress(self.tail) + packer.flush())
        return path


ADVERSARIAL_TRACES = [
    AdversarialTrace("one line", b"1 ", b"\n", True, r":1: a line longer than 1,048,576 bytes"),
    AdversarialTrace("one job line repeated", JOB.encode() + b"\n", b"", True,
                     r":2: duplicate job id 1 \(first on line 1\)$"),
    AdversarialTrace("one job line repeated, lenient", JOB.encode() + b"\n", b"", False, r"^1 jobs, 144 bytes$"),
    AdversarialTrace("newlines", b"\n", b"", True, r"^0 jobs, 0 bytes$"),
    AdversarialTrace("blank lines, then a job", b"  \t\n", JOB.encode() + b"\n", True, r"^1 jobs, 144 bytes$"),
    AdversarialTrace("comment lines", b";\n", b"", True,
                     r":524289: more than 1,048,576 bytes of comment lines above the first job: not an SWF header$"),
    AdversarialTrace("carriage returns", b"\r", b"", True, r": lines end in CR alone \(classic Mac text\)"),
]

PEAK_SCRIPT = """\
import re, sys, time
from schedlab.parsers.swf import read_swf
from schedlab.errors import InputError
start = time.perf_counter()
try:
    trace = read_swf(sys.argv[1], strict=sys.argv[2] == "strict")
    print(f"{trace.job_count} jobs, {sum(c.nbytes for c in trace.columns.values())} bytes")
except InputError as error:
    print(error)
print(time.perf_counter() - start)
status = open('/proc/self/status').read()
print(int(re.search(r'VmHWM:\\s+(\\d+) kB', status).group(1)) // 1024)
"""


def read_in_a_fresh_process(path: Path, strict: bool = True) -> tuple[str, float, int]:
    """What reading ``path`` gives (its error, or the jobs and bytes kept), the seconds it took, and the
    process's peak resident memory in MiB (VmHWM: its own, not the parent's as ru_maxrss would count)."""
    done = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, str(path), "strict" if strict else "lenient"],
                          capture_output=True, text=True, check=True)
    result, seconds, peak = done.stdout.splitlines()
    return result, float(seconds), int(peak)
