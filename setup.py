"""Build the batch replay's compiled event loop (everything else is in pyproject.toml).

The extension is optional: without a C compiler the install still succeeds and
replays run on the interpreted reference engine, which gives the same schedules.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

EVENT_LOOP = "simulators/batch/_event_loop.c"
# The build records which source it was made from, so a stale build is noticed (compiled.py).
SOURCE_SHA256 = hashlib.sha256((Path(__file__).parent / EVENT_LOOP).read_bytes()).hexdigest()

setup(
    ext_modules=[
        Extension(
            "simulators.batch._event_loop",
            [EVENT_LOOP],
            define_macros=[("SOURCE_SHA256", f'"{SOURCE_SHA256}"')],
            # No fused multiply-add: every float operation rounds as Python's does.
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        )
    ]
)
