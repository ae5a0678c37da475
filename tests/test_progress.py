"""Progress bars: on a terminal's stderr only, never with --quiet (schedlab.progress and the CLI)."""

from __future__ import annotations

import io
import sys
import time

import pytest

from schedlab.cli import main
from schedlab.progress import callback_bar, progress, progress_bar, shows_progress


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def terminal(monkeypatch) -> Terminal:
    """Make stderr a terminal; called in the test itself, since pytest's output capture
    sets sys.stderr again between a fixture's set-up and the test."""
    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    return stream


def test_no_bar_when_stderr_is_not_a_terminal(monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    items = [1, 2, 3]
    assert not shows_progress()
    assert progress(items, desc="points") is items
    with progress_bar(total=3) as bar:
        bar.update(2)
    assert sys.stderr.getvalue() == ""


def test_no_bar_when_quiet_even_on_a_terminal(monkeypatch):
    stream = terminal(monkeypatch)
    items = [1, 2, 3]
    assert progress(items, desc="points", quiet=True) is items
    with progress_bar(total=3, quiet=True) as bar:
        bar.update(3)
        bar.refresh()
    assert stream.getvalue() == ""


def test_a_bar_on_a_terminal_counts_the_items_and_yields_them_unchanged(monkeypatch):
    stream = terminal(monkeypatch)
    assert list(progress(range(3), desc="points", unit="point")) == [0, 1, 2]
    drawn = stream.getvalue()
    assert "points:" in drawn and "0/3" in drawn
    assert drawn.endswith("\r") and drawn.rsplit("\r", 2)[-2].strip() == ""  # cleared when the loop ends


def test_closed_or_odd_streams_show_no_bar():
    closed = io.StringIO()
    closed.close()
    assert not shows_progress(stream=closed)
    assert not shows_progress(stream=object())


@pytest.mark.parametrize("quiet", [[], ["-q"], ["--quiet"]], ids=["default", "-q", "--quiet"])
def test_cosy_regime_shows_its_bar_on_a_terminal_unless_quiet(monkeypatch, capsys, quiet):
    stream = terminal(monkeypatch)
    assert main(["cosy", "--regime", "2", "--jobs", "30", *quiet]) == 0
    assert ("regime points" in stream.getvalue()) is not bool(quiet)
    assert "policy" in capsys.readouterr().out  # the table itself is on stdout either way


def test_a_callback_bar_is_none_off_a_terminal_so_the_simulator_skips_its_reports(monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with callback_bar(10, "replay") as advance:
        assert advance is None
    assert sys.stderr.getvalue() == ""


def test_a_callback_bar_on_a_terminal_follows_the_done_count_it_is_given(monkeypatch):
    stream = terminal(monkeypatch)
    with callback_bar(10, "cosched", unit="job", delay=0) as advance:
        advance(4, 10)
        time.sleep(0.15)  # past tqdm's shortest redraw interval, so the update is drawn
        advance(7, 10)
    assert "cosched:" in stream.getvalue() and "7/10" in stream.getvalue()

