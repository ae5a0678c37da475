"""The front page's headline: the five papers' claims, judged, and the published paper-scale ledger beside them.

Every stage report writes its ledger (``claims.csv``, see ``schedlab.reports.ledger``); the front
page stacks them into one ledger whose links point into the stage directories, opens with
the verdict counts per paper, draws each paper's claims as a forest plot (``schedlab.reports.forest``:
our interval against the paper's value, a row per claim, linked to the claim's row and
figure), embeds each paper's key figure (the figure most of its claims point to) and lists
every claim, each row anchored by its claim id.  The paper-profile ledger committed under
``docs/results/`` (``publish_columns``) is shown beside the current run: per paper its
verdict counts, whether it is stale (the stage's code or inputs changed since it was run:
its recorded ``code_version`` differs from the stage's current key), and a table of the
claims whose verdicts differ between the two profiles.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from schedlab.reports.document import Document, Figure, Heading, Link, paragraph, table
from schedlab.reports.ledger import EXTRA_COLUMNS, LEDGER_COLUMNS, OTHER_PROFILE_VERDICT, VERDICTS, counts_sentence, ledger_blocks, verdict_counts, verdict_words

PUBLISHED_COLUMNS = (*LEDGER_COLUMNS, *EXTRA_COLUMNS, OTHER_PROFILE_VERDICT, "code_version", "run_date", "wall_seconds")
"""Columns of ``docs/results/paper-ledger.csv``: a ledger with each claim's quick-profile verdict,
stamped per stage with the code version (the stage's paper-profile report key), the date of
the run and its wall time in seconds."""

FIGURE_SUFFIX = ".png"


def stacked_ledger(stage_ledgers: Mapping[str, tuple[pd.DataFrame, str]]) -> pd.DataFrame:
    """One ledger from the stages' (ledger, stage directory relative to the page), links made relative to the page."""
    frames = []
    for frame, href in stage_ledgers.values():
        frame = frame.copy()
        frame["link"] = [f"{href}/{link}" if link and href else "" for link in frame["link"].fillna("")]
        frames.append(frame)
    columns = [*LEDGER_COLUMNS, *EXTRA_COLUMNS]
    return pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)


def with_other_profile(ledger: pd.DataFrame, other: pd.DataFrame | None) -> pd.DataFrame:
    """``ledger`` with each claim's verdict in ``other`` (the same claims at the other profile), "" where absent."""
    frame = ledger.copy()
    verdicts = {} if other is None else dict(zip(zip(other["paper"], other["claim_id"]), other["verdict"]))
    frame[OTHER_PROFILE_VERDICT] = [verdicts.get(key, "") for key in zip(frame["paper"], frame["claim_id"])]
    return frame


def differing(ledger: pd.DataFrame) -> pd.DataFrame:
    """The claims of a ``with_other_profile`` ledger judged at both profiles with different verdicts
    (a claim not attempted at one of them, say because that profile skips its figure, is not a flip)."""
    other = ledger[OTHER_PROFILE_VERDICT]
    judged = ~other.isin(["", "not_attempted"]) & (ledger["verdict"] != "not_attempted")
    return ledger[judged & (other != ledger["verdict"])]


CURRENT, STALE, UNCHECKED = "current", "stale: code or inputs changed since", "not checked: the stage did not run here"


def stale_papers(published: pd.DataFrame, current_versions: Mapping[str, str]) -> dict[str, str]:
    """Per paper of the published ledger: whether its stage's key is still the one it was run with
    (``current_versions`` lacks the stages that could not run here)."""
    recorded = published.groupby("paper", sort=False)["code_version"].first()
    return {
        paper: UNCHECKED if paper not in current_versions else CURRENT if current_versions[paper] == version else STALE
        for paper, version in recorded.items()
    }


def key_figures(ledger: pd.DataFrame) -> dict[str, str]:
    """Per paper, the figure (path without suffix) that most of its claims link to; first met wins ties."""
    chosen = {}
    for paper, claims in ledger.groupby("paper", sort=False):
        figures = claims["link"][claims["link"].str.endswith(FIGURE_SUFFIX)]
        if not figures.empty:
            counts = figures.value_counts(sort=False)
            chosen[paper] = counts.index[counts.argmax()].removesuffix(FIGURE_SUFFIX)
    return chosen


def _counts_rows(counts: pd.DataFrame) -> list[tuple]:
    return [(row["paper"], *(str(int(row[v])) for v in VERDICTS), str(int(row["claims"]))) for _, row in counts.iterrows()]


def _profile_names(frame: pd.DataFrame) -> str:
    return ", ".join(sorted(set(frame["profile"]))) or "none"


def differing_blocks(ledger: pd.DataFrame, published: pd.DataFrame) -> list:
    """The claims judged differently at the two profiles, one row each: its verdict in this run and in ``published``."""
    differ = differing(ledger)
    if differ.empty:
        return []
    header = ("paper", "claim", "claim (our words)", f"verdict in this run ({_profile_names(ledger)})",
              f"verdict at the {_profile_names(published)} profile")
    rows = [(row.paper, Link(row.claim_id, row.link) if row.link else row.claim_id, row.statement,
             verdict_words(row.verdict), verdict_words(getattr(row, OTHER_PROFILE_VERDICT)))
            for row in differ.itertuples()]
    return [Heading("Verdicts that differ between the profiles", 3),
            paragraph(f"{len(differ)} claim(s) judged at both profiles get a different verdict:"),
            table(header, rows)]


def forest_blocks(forests: Mapping[str, tuple[str, str]], figure_captions: Mapping[str, str]) -> list:
    """Each paper's forest plot (``schedlab.reports.forest.write_forests``: per paper its stem and inline SVG) under its heading."""
    blocks = []
    for paper, (stem, markup) in forests.items():
        caption = (f"{figure_captions.get(paper, paper)}: each claim's 95 % interval against the paper's value (or "
                   "our band around it, where the row says so), every row on its own scale; a claim's name opens its "
                   "row of the whole ledger, its interval the figure or table with its data")
        blocks += [Heading(f"Forest plot: {paper}", 3), Figure(stem, caption, inline=markup)]
    return blocks


def headline_blocks(ledger: pd.DataFrame, published: pd.DataFrame | None, stale: Mapping[str, str],
                    published_href: str, figure_captions: Mapping[str, str],
                    forests: Mapping[str, tuple[str, str]] | None = None) -> list:
    """The headline: verdict counts per paper, each paper's forest plot (``forests``, see ``forest_blocks``),
    the published paper profile beside with the claims whose verdicts differ, key figures; every claim is on
    a page of its own (``every_claim_document``), linked."""
    header = ("paper", *(verdict_words(v) for v in VERDICTS), "claims")
    blocks: list = [Heading("Headline: the papers' claims, judged")]
    if ledger.empty:
        blocks.append(paragraph("No simulator stage is part of this build, so no claim is judged in it."))
    else:
        blocks += [
            paragraph(
                f"This run (profile {_profile_names(ledger)}): {counts_sentence(ledger)} Every claim, a row "
                "each, with its reason: ", Link("its page", f"{EVERY_CLAIM_PAGE}.html"), "; the whole ledger as ",
                Link("claims.csv", "claims.csv"), ", ", Link("Markdown", "claims.md"), ", ",
                Link("LaTeX", "claims.tex"), ".",
            ),
            table(header, _counts_rows(verdict_counts(ledger)), range(1, len(header))),
            *forest_blocks(forests or {}, figure_captions),
        ]
    if published is None or published.empty:
        blocks.append(paragraph("No paper-profile ledger has been published yet (docs/results/paper-ledger.csv)."))
    else:
        rows = []
        for row in _counts_rows(verdict_counts(published)):
            paper = row[0]
            stamp = published.loc[published["paper"] == paper].iloc[0]
            state = stale.get(paper, UNCHECKED)
            rows.append((*row, stamp["run_date"], f"{float(stamp['wall_seconds']):.0f}", state))
        blocks += [
            Heading("Paper profile, as published", 3),
            paragraph(
                "Paper profile (the papers' full sweeps), as published in the repository: ",
                Link("paper-ledger.csv", published_href), ". A stage's published verdicts are stale when its code, "
                "parameters or inputs changed after the run.",
            ),
            table((*header, "run on", "wall s", "state"), rows, range(1, len(header) + 1)),
            *differing_blocks(ledger, published),
        ]
    key = key_figures(ledger)
    if key:
        blocks.append(Heading("Key figures", 3))
    for paper, stem in key.items():
        blocks.append(Figure(stem, figure_captions.get(paper, f"{paper}: key figure")))
    return blocks


EVERY_CLAIM_PAGE = "every-claim"
"""The page beside the headline with the whole ledger, a row per claim (the forest plots' names open its rows)."""


def every_claim_document(ledger: pd.DataFrame) -> Document:
    """Every claim of ``ledger``, a row each, with how verdicts are reached: a page of its own, as long as the
    ledger is, so that the front page stays one a person can walk."""
    back = paragraph(Link("The front page", "index.html"), ": the verdicts counted per paper and a forest plot of each.")
    return Document("Claims ledger", (back, *ledger_blocks(ledger, heading="Every claim", name_with_paper=True)))
