"""Measured causes of the claims a stage's runs do not reproduce, shared by the stages that give them.

A stage maps claim ids to ``Cause`` functions, each one sentence built from the result
tables and the parameters the runs used; ``measured_causes`` lists every claim of a
ledger that is neither reproduced nor left unattempted with its cause.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import pandas as pd

from schedlab.reports.ledger import Claim, NotMeasured, Results, interval, judge, measure, verdict_words

Cause = Callable[[Results, dict], str]
"""A claim's measured cause: one sentence from the result tables and the parameters the runs used."""


def column_mean(frame: pd.DataFrame, column: str, what: str = "runs") -> float:
    """The mean of ``column`` over ``frame``'s rows; ``NotMeasured`` (naming ``what`` the rows are) where the
    table has no such column, so that a cause says what is missing rather than fail."""
    if column not in frame:
        raise NotMeasured(f"the {what} have no {column}")
    return float(frame[column].mean())


def combined(*causes: Cause) -> Cause:
    """One cause from several: their sentences in turn, an empty one left out."""
    def cause(results: Results, parameters: dict) -> str:
        return " ".join(filter(None, (part(results, parameters) for part in causes)))
    return cause


def seed_spread(claim: Claim, results: Results) -> str:
    """An undecided claim's cause: how wide its parts' intervals are for the seeds run; parts of ordered
    outcomes (a saturated load's) are counted apart, with how their seeds split (the reason column has
    each part's count of seeds per side)."""
    parts = [part_ for _, part_, _ in measure(claim, results)]
    halves = []
    for part_ in parts:
        if part_.ordered:
            continue
        _, low, high = interval(part_.values)
        if math.isfinite(low) and math.isfinite(high):
            halves.append((high - low) / 2)
    seeds = len(parts[0].values)
    ordered = sum(part_.ordered for part_ in parts)
    valueless = len(parts) - len(halves) - ordered
    without = "".join([
        f" Parts judged by the sign test on their seeds' sides (saturated or censored seeds; the reason gives each "
        f"part's split): {ordered} of {len(parts)}." if ordered else "",
        f" Parts with no value to judge (reason column): {valueless} of {len(parts)}." if valueless else "",
    ])
    if not halves:
        return f"No part has an interval over {seeds} seeds.{without}"
    return (f"The seeds disagree: over {seeds} seeds the parts' 95 % intervals are +-{min(halves):.3g} to "
            f"+-{max(halves):.3g} wide (per part: ours and interval in the reason), too wide to fall on one side "
            f"of the paper's bound or band.{without}")


def of_cells(claim: Claim, causes: Mapping[str, Cause]) -> Cause:
    """A statement of cells' cause: the cause of each of its cells (``causes``, by the cell's id) that is not
    reproduced, after the paper's values of the cells it explains (a cause several cells share is given once)."""
    def cause(results: Results, parameters: dict) -> str:
        explained: dict[str, list[str]] = {}
        for cell in claim.cells:
            if cell.claim_id in causes and judge(cell, results).verdict != "reproduced":
                explained.setdefault(causes[cell.claim_id](results, parameters), []).append(cell.paper_value)
        return " ".join(f"{'; '.join(values)}: {text}" for text, values in explained.items())
    return cause


def row_causes(claims: Sequence[Claim], causes: Mapping[str, Cause]) -> dict[str, Cause]:
    """Per row of ``claims`` that has one, its cause: its own in ``causes``, or, for a statement of cells, its
    cells' (``of_cells``)."""
    rows = {}
    for claim in claims:
        if claim.claim_id in causes:
            rows[claim.claim_id] = causes[claim.claim_id]
        elif any(cell.claim_id in causes for cell in claim.cells):
            rows[claim.claim_id] = of_cells(claim, causes)
    return rows


def measured_causes(claims: pd.DataFrame, known: Sequence[Claim], causes: Mapping[str, Cause], results: Results,
                    parameters: dict) -> pd.DataFrame:
    """One row per claim of the ledger ``claims`` not reproduced (nor left unattempted): its verdict and cause.

    An undecided claim's cause starts with its seeds' spread; the stage's decomposition in ``causes``, when it
    has one, follows.  A claim with neither says so rather than get a guessed cause.
    """
    by_id = {claim.claim_id: claim for claim in known}
    rows = []
    for row in claims.itertuples(index=False):
        if row.verdict in ("reproduced", "not_attempted"):
            continue
        parts = [seed_spread(by_id[row.claim_id], results)] if row.verdict == "inconclusive" else []
        if row.claim_id in causes:
            try:
                parts.append(causes[row.claim_id](results, parameters))
            except NotMeasured as missing:
                parts.append(f"Not measured: {missing}.")
        cause = " ".join(parts) or "No decomposition measured for this claim."
        rows.append([row.claim_id, verdict_words(row.verdict), cause])
    return pd.DataFrame(rows, columns=["claim", "verdict", "measured cause"])
