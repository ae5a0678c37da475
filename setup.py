"""Which packages install where, and the batch replay's compiled event loop (the rest is in pyproject.toml).

The domain folders parsers/, reports/, simulators/ and workloads/ install under the one
distinctive import name ``schedlab`` (``schedlab.reports``, ...), so a user's own folder of
the same name beside a script cannot shadow them; ``pipeline`` stays a top-level package for
``luigi --module pipeline``.  ``schedlab/__init__.py`` maps the folders the same way in a
source checkout.

The extension is optional: without a C compiler the install still succeeds and
replays run on the interpreted reference engine, which gives the same schedules.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, find_packages, setup

DOMAIN_FOLDERS = ("parsers", "reports", "simulators", "workloads")

EVENT_LOOP = "simulators/batch/_event_loop.c"
# The build records which source it was made from, so a stale build is noticed (compiled.py).
SOURCE_SHA256 = hashlib.sha256((Path(__file__).parent / EVENT_LOOP).read_bytes()).hexdigest()

setup(
    packages=[
        *find_packages(include=["schedlab", "schedlab.*", "pipeline", "pipeline.*"]),
        *(f"schedlab.{name}" for name in find_packages(include=[f"{folder}*" for folder in DOMAIN_FOLDERS])),
    ],
    package_dir={f"schedlab.{folder}": folder for folder in DOMAIN_FOLDERS},
    ext_modules=[
        Extension(
            "schedlab.simulators.batch._event_loop",
            [EVENT_LOOP],
            define_macros=[("SOURCE_SHA256", f'"{SOURCE_SHA256}"')],
            # No fused multiply-add: every float operation rounds as Python's does.
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        )
    ]
)
