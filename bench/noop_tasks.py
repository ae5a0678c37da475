"""Tasks that do nothing, for ``bench_fullreport.py``'s measure of Luigi's own cost per task.

``luigi --module noop_tasks Nothings --count N --local-scheduler`` (with bench/ on ``PYTHONPATH``) runs
N ``Nothing`` tasks: each is a ``SchedlabTask`` that writes an empty output, so what it costs is what
every pipeline task pays before and after its own work (scheduling, the keyed path, the staging
directory, ``task.json``, the completeness check, the worker's fork).
"""

from __future__ import annotations

import luigi

import pipeline  # noqa: F401 - schedlab's Luigi defaults, as for every pipeline build
from pipeline.base import SchedlabTask


class Nothing(SchedlabTask):
    index = luigi.IntParameter()

    def run(self):
        with self.writing_output():
            pass


class Nothings(luigi.WrapperTask):
    count = luigi.IntParameter(default=200)

    def requires(self):
        return [Nothing(index=index) for index in range(self.count)]
