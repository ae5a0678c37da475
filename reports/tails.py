"""The tails of ``schedlab.simulators.core.tails`` as a page shows them."""

from __future__ import annotations

import pandas as pd

TAIL_COLUMNS = {
    "p95_wait": "95th percentile wait (h)",
    "p99_wait": "99th percentile wait (h)",
    "max_wait": "longest wait (h)",
    "over_a_day": "jobs waiting over a day",
    "over_a_week": "jobs waiting over a week",
    "worst_user_mean_wait": "worst-served user's mean wait (h)",
    "user_fairness": "Jain's index of users' mean waits",
}
"""The measures of ``schedlab.simulators.core.tails.wait_tails`` and how a page names them."""


def tails_rows(table: pd.DataFrame) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The table as a page shows it: hours with two decimals, counts whole, the index with three."""
    columns = [name for name in TAIL_COLUMNS if name in table.columns]
    header = ("policy", *(TAIL_COLUMNS[name] for name in columns))

    def shown(name: str, value) -> str:
        if name in ("over_a_day", "over_a_week"):
            return f"{int(value):,}"
        if name == "user_fairness":
            return f"{value:.3f}"
        return f"{value / 3600:,.2f}"

    return header, [(row["policy"], *(shown(name, row[name]) for name in columns)) for _, row in table.iterrows()]
