"""Two claims ledgers side by side: which verdicts a modelling choice decides.

Run a stage's report twice, once per setting of a choice the paper leaves open (the ICS
boost rule, say: ``IcsReport --boost-preempts-spinner false``), then::

    python -m schedlab.reports.ledger_compare DEFAULT/claims.csv OTHER/claims.csv \\
        --labels "default" "plain TS rule" --out DIRECTORY

writes ``DIRECTORY/comparison.csv/.md/.tex``: one row per claim judged in both, each
ledger's verdict and measured value with its interval, and whether the verdict differs.
Every cell comes from the two ledgers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from schedlab.reports.ledger import interval_text, verdict_words
from schedlab.reports.tables import write_table

STEM = "comparison"


def measured(row: pd.Series) -> str:
    if pd.isna(row["ours"]):
        return ""
    unit = row.get("unit", "")
    return interval_text(row["ours"], row["low"], row["high"], "" if pd.isna(unit) else unit)


def compare(first: pd.DataFrame, second: pd.DataFrame, labels: tuple[str, str]) -> pd.DataFrame:
    """One row per claim of ``first`` also in ``second`` (in ``first``'s order)."""
    other = second.set_index("claim_id")
    rows = []
    for _, row in first.iterrows():
        if row["claim_id"] not in other.index:
            continue
        twin = other.loc[row["claim_id"]]
        rows.append({
            "claim_id": row["claim_id"],
            f"verdict ({labels[0]})": verdict_words(row["verdict"]),
            f"measured ({labels[0]})": measured(row),
            f"verdict ({labels[1]})": verdict_words(twin["verdict"]),
            f"measured ({labels[1]})": measured(twin),
            "verdict differs": row["verdict"] != twin["verdict"],
        })
    return pd.DataFrame(rows)


def moved(first: pd.DataFrame, second: pd.DataFrame, labels: tuple[str, str]) -> pd.DataFrame:
    """``compare``'s rows whose measured value differs between the two ledgers: the claims a choice moves."""
    table = compare(first, second, labels)
    return table[table[f"measured ({labels[0]})"] != table[f"measured ({labels[1]})"]].reset_index(drop=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m schedlab.reports.ledger_compare", description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path, help="claims.csv of the first report")
    parser.add_argument("second", type=Path, help="claims.csv of the second report")
    parser.add_argument("--labels", nargs=2, default=("first", "second"), help="a name for each ledger's setting")
    parser.add_argument("--out", type=Path, required=True, help="directory for comparison.csv/.md/.tex")
    args = parser.parse_args(argv)
    table = compare(pd.read_csv(args.first), pd.read_csv(args.second), tuple(args.labels))
    args.out.mkdir(parents=True, exist_ok=True)
    counts = {label: int((table[f"verdict ({label})"] == "reproduced").sum()) for label in args.labels}
    title = (f"Claims judged under {args.labels[0]} and under {args.labels[1]}: "
             f"{int(table['verdict differs'].sum())} of {len(table)} verdicts differ; reproduced "
             + ", ".join(f"{count} ({label})" for label, count in counts.items()))
    write_table(args.out, STEM, table, title=title)
    print(title)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
