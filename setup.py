"""Build the batch replay's compiled event loop (everything else is in pyproject.toml).

The extension is optional: without a C compiler the install still succeeds and
replays run on the interpreted reference engine, which gives the same schedules.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "simulators.batch._event_loop",
            ["simulators/batch/_event_loop.c"],
            # No fused multiply-add: every float operation rounds as Python's does.
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        )
    ]
)
