"""The ledger's rules as the README and the sessions page state them are the constants ``reports/ledger.py``
judges by: a change of the code that the prose does not follow fails here, not in a reader's hands."""

from __future__ import annotations

from pathlib import Path

from schedlab.reports.ledger import CONFIDENCE, MIN_SEEDS, SIGN_TEST_LEVEL

ROOT = Path(__file__).resolve().parents[1]
NUMBER_WORDS = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 10: "ten"}


def _text(name: str) -> str:
    return " ".join((ROOT / name).read_text(encoding="utf-8").split())  # line breaks as spaces


def test_the_readme_states_the_ledgers_seeds_interval_and_sign_test():
    readme = _text("README.md")
    assert f"at least {MIN_SEEDS} seeds" in readme
    assert f"{CONFIDENCE:.0%}".replace("%", " %") + " Student-t intervals" in readme
    assert f"p < {SIGN_TEST_LEVEL:g}; with {MIN_SEEDS} seeds, all {NUMBER_WORDS[MIN_SEEDS]}" in readme


def test_the_sessions_page_states_the_ledgers_minimum_of_seeds():
    assert f"fewer than {MIN_SEEDS} seeds" in _text("docs/sessions.md")
