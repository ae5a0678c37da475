"""Every SchedlabTask reports progress to the Luigi scheduler: 0 % and "running" when it starts,
what its run passes through ``schedlab.progress``, "writing outputs", 100 % when it ends."""

from __future__ import annotations

import luigi
import luigi.worker
import pytest

from pipeline.base import SchedlabTask, SchedulerProgress
from schedlab import progress


class Counting(SchedlabTask):
    items = luigi.IntParameter(default=4)

    def run(self):
        for _ in progress.progress(range(self.items), desc="items"):
            pass
        with self.writing_output() as directory:
            (directory / "done").write_text("yes")


class CountingMore(Counting):
    def run(self):
        super().run()


@pytest.fixture
def reported(monkeypatch, tmp_path):
    monkeypatch.setenv("SCHEDLAB_WORK_DIR", str(tmp_path))
    calls = []
    monkeypatch.setattr(luigi.worker.TaskStatusReporter, "update_progress_percentage",
                        lambda self, percent: calls.append(("percent", percent)))
    monkeypatch.setattr(luigi.worker.TaskStatusReporter, "update_status_message",
                        lambda self, message: calls.append(("status", message)))
    monkeypatch.setattr(SchedulerProgress, "interval", 0.0)
    return calls


@pytest.mark.parametrize("task", [Counting(), CountingMore()])
def test_a_run_reports_start_progress_writing_and_end(reported, task):
    assert luigi.build([task], local_scheduler=True, workers=1, log_level="WARNING")
    assert reported[:2] == [("status", "running"), ("percent", 0)]
    assert ("status", "items: 2 of 4") in reported and ("percent", 50) in reported
    assert reported.index(("status", "writing outputs")) > reported.index(("status", "items: 4 of 4"))
    assert reported[-1] == ("percent", 100)
    assert reported.count(("status", "running")) == 1  # the subclass's run and its parent's report once
    assert progress.set_sink(None) is None  # the sink is gone once the task has run


def test_a_failed_run_does_not_claim_100_percent_and_leaves_no_sink(reported):
    class Failing(SchedlabTask):
        def run(self):
            raise RuntimeError("no")

    assert not luigi.build([Failing()], local_scheduler=True, workers=1, log_level="CRITICAL")
    assert ("percent", 100) not in reported and progress.set_sink(None) is None


def test_updates_are_sent_when_the_percentage_moves_at_most_once_an_interval():
    sent = []

    class Task:
        def set_progress_percentage(self, percent):
            sent.append(percent)

        def set_status_message(self, message):
            sent.append(message)

    sink = SchedulerProgress(Task())
    sink.interval = 3600.0
    for done in range(1001):
        sink(done, 1000, None)
    assert sent == [0, 100]  # the first, then nothing within the interval but reaching the end
    sink.interval = 0.0
    sink(0, 1000, None)
    sink(0, 1000, None)
    sink(1, None, "events")
    sink(2, None, "events")
    assert sent == [0, 100, 0, "events: 1", "events: 2"]


def test_a_task_run_by_hand_reports_to_no_scheduler_and_does_not_fail(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHEDLAB_WORK_DIR", str(tmp_path))
    task = Counting(items=2)
    task.run()  # outside a Luigi worker the scheduler methods are None
    assert task.complete()
