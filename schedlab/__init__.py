"""schedlab: trace-driven replay and analysis of parallel-job scheduling.

This package holds the pieces every layer shares (user-facing errors, atomic file
writes) and the ``schedlab`` command line.  Domain code lives in the top-level
packages parsers/, workloads/, simulators/, reports/ and pipeline/.
"""

__version__ = "0.1.0"
