"""The tails of a schedule's waits, which a comparison of policies needs beside its means (issue 65,
item 6): how long the worst-served jobs waited and which users bore it.

A mean wait can fall while a few jobs wait for weeks; these say so: the 95th and 99th percentile and the longest wait,
how many jobs waited over a day and over a week, and per user, the mean wait of the worst-served user and
Jain's fairness index of the users' mean waits ((sum x)^2 / (n sum x^2): 1 when every user waits alike,
1/n when one user bears all of it; 1 when nobody waits).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

SECONDS_PER_DAY = 86_400.0


def wait_tails(waits: np.ndarray, users: np.ndarray | None = None) -> dict[str, float]:
    """The tail measures of one schedule's waits (seconds); the per-user ones only with ``users``."""
    waits = np.asarray(waits, dtype=float)
    if not len(waits):
        return {}
    tails = {"p95_wait": float(np.percentile(waits, 95)), "p99_wait": float(np.percentile(waits, 99)),
             "max_wait": float(waits.max()), "over_a_day": int((waits > SECONDS_PER_DAY).sum()),
             "over_a_week": int((waits > 7 * SECONDS_PER_DAY).sum())}
    if users is not None:
        means = pd.Series(waits).groupby(np.asarray(users)).mean().to_numpy()
        squares = float((means ** 2).sum())
        tails["worst_user_mean_wait"] = float(means.max())
        tails["user_fairness"] = float(means.sum() ** 2 / (len(means) * squares)) if squares > 0 else 1.0
    return tails


def tails_table(waits_by_policy: dict[str, np.ndarray], users_by_policy: dict[str, np.ndarray] | None = None
                ) -> pd.DataFrame:
    """One row per policy of ``wait_tails``, at full precision (seconds, counts)."""
    rows = [{"policy": policy, **wait_tails(waits, None if users_by_policy is None else users_by_policy[policy])}
            for policy, waits in waits_by_policy.items()]
    return pd.DataFrame(rows)
