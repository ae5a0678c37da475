"""The paper's stated trends, checked one by one against our aggregated results.

Each check restates a claim of Sonmez, Mohamed, Epema (TPDS 2010, Sec. 6.3.2 and 7.2.2),
says what the paper reports, what we measured, and a verdict: ``agrees``, ``partly`` or
``disagrees`` (``no data`` when the profile lacks the points).  Thresholds are ours and
stated in each check, since the paper's figures carry no numbers in the text.

Inputs: ``lines`` maps a comparison label (``simulators.koala.experiments.Comparison``)
to its ``comparison_table``; ``intervals`` maps (label, policy) to a saturation interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simulators.koala.experiments import format_interval

NO_DIFFERENCE_PERCENT = 10.0
"""|% change| below this counts as "no difference"."""


@dataclass(frozen=True)
class TrendCheck:
    claim: str
    paper: str
    ours: str
    verdict: str


def _verdict(ok: bool, partly: bool = False) -> str:
    return "agrees" if ok else ("partly" if partly else "disagrees")


def _stable(line: pd.DataFrame) -> pd.DataFrame:
    """Points where neither policy saturated."""
    return line[~line["saturated_baseline"] & ~line["saturated_treatment"]]


def _changes(line: pd.DataFrame) -> str:
    return ", ".join(f"{100 * u:.0f}%: {c:+.0f}" for u, c in zip(line["net_utilization"], line["percent_change"]))


def _sat(intervals, label, policy) -> str:
    return format_interval(intervals.get((label, policy), (None, None)))


def _first_high(interval) -> float:
    """Upper end of a saturation interval; never saturated counts as beyond the grid."""
    low, high = interval
    return high if high is not None else (low or 0.0) + 1.0


def check_no_difference_at_low_load(lines) -> TrendCheck:
    rows = []
    for label in ("Prime", "Poisson", "Wave"):
        low = lines[label][lines[label]["net_utilization"] <= 0.40 + 1e-9]
        if len(low):
            rows.append((label, float(low["percent_change"].abs().max())))
    ours = "; ".join(f"{label}: max |change| {value:.1f} %" for label, value in rows)
    ok = bool(rows) and all(value < NO_DIFFERENCE_PERCENT for _, value in rows)
    partly = any(value < NO_DIFFERENCE_PERCENT for _, value in rows)
    return TrendCheck(
        f"No difference between WF and FCM up to 40 % net utilization (|change| < {NO_DIFFERENCE_PERCENT:g} %)",
        "no difference up to 40 %", ours or "no data", _verdict(ok, partly) if rows else "no data",
    )


def check_prime(lines, intervals) -> list[TrendCheck]:
    prime = _stable(lines["Prime"])
    changes = prime["percent_change"].to_numpy()
    never_worse = bool((changes <= NO_DIFFERENCE_PERCENT / 10).all())
    high = prime[prime["net_utilization"] >= 0.5]
    grows = len(high) >= 2 and bool(np.all(np.diff(high["percent_change"].to_numpy()) <= 1.0))
    wf, fcm = intervals.get(("Prime", "WF"), (None, None)), intervals.get(("Prime", "FCM"), (None, None))
    return [
        TrendCheck(
            "Prime: coallocation (FCM) benefit grows with load",
            "benefit increases with contention",
            _changes(prime) or "no data",
            _verdict(never_worse and grows, never_worse or grows),
        ),
        TrendCheck(
            "Prime: FCM saturates later than WF",
            "WF 85-90 %, FCM 90-95 %",
            f"WF {_sat(intervals, 'Prime', 'WF')}, FCM {_sat(intervals, 'Prime', 'FCM')}",
            _verdict(_first_high(fcm) > _first_high(wf), _first_high(fcm) == _first_high(wf)),
        ),
    ]


def check_poisson(lines) -> TrendCheck:
    line = lines["Poisson"]
    better = line[line["percent_change"] < 0]["net_utilization"]
    worse = line[(line["percent_change"] > 0) & (line["net_utilization"] > 0.4)]["net_utilization"]
    last_better = float(better.max()) if len(better) else None
    first_worse = float(worse.min()) if len(worse) else None
    ours = (f"FCM better up to {100 * last_better:.0f} %" if last_better is not None else "FCM never better") + (
        f", worse from {100 * first_worse:.0f} %" if first_worse is not None else ", never worse"
    )
    ok = last_better is not None and first_worse is not None and 0.65 <= last_better <= 0.85 and first_worse > last_better
    partly = last_better is not None and first_worse is not None and first_worse > last_better
    return TrendCheck(
        "Poisson: FCM better than WF up to ~75 %, worse beyond (crossing within 65-85 %)",
        "advantageous up to 75 %", f"{ours}; {_changes(line)}", _verdict(ok, partly),
    )


def check_wave(lines, intervals) -> list[TrendCheck]:
    wave, limited = lines["Wave"], lines["Wave (FCM<=2)"]
    loaded = wave[wave["net_utilization"] > 0.4]
    worse = bool(len(loaded)) and bool((loaded["percent_change"] > 0).all())
    wf, fcm = intervals.get(("Wave", "WF"), (None, None)), intervals.get(("Wave", "FCM"), (None, None))
    joined = wave.merge(limited, on="net_utilization", suffixes=("", "_limited"))
    joined = joined[~joined["saturated_treatment"] & ~joined["saturated_treatment_limited"] & (joined["net_utilization"] > 0.4)]
    gain = joined["percent_change"] - joined["percent_change_limited"]
    helps = bool(len(gain)) and bool((gain >= 0).all())
    observed = wave.assign(excess=wave["observed_utilization_treatment"] - wave["net_utilization"])
    prime = lines["Prime"].assign(excess=lambda f: f["observed_utilization_treatment"] - f["net_utilization"])
    mid = observed[(observed["net_utilization"] >= 0.3) & ~observed["saturated_treatment"]]
    mid_prime = prime[(prime["net_utilization"] >= 0.3) & ~prime["saturated_treatment"]]
    return [
        TrendCheck(
            "Wave: FCM worse than WF above 40 % net utilization, and saturates earlier",
            "FCM worse; early saturation",
            f"{_changes(loaded)}; saturation WF {_sat(intervals, 'Wave', 'WF')}, FCM {_sat(intervals, 'Wave', 'FCM')}",
            _verdict(worse and _first_high(fcm) < _first_high(wf), worse),
        ),
        TrendCheck(
            "Wave: limiting FCM to 2 clusters helps, but only a little",
            "better than no limit; benefit minor",
            ("points below FCM's saturation: gain of the limit "
             + ", ".join(f"{100 * u:.0f}%: {g:.0f} points" for u, g in zip(joined["net_utilization"], gain))
             + f"; saturation FCM {_sat(intervals, 'Wave', 'FCM')}, FCM<=2 {_sat(intervals, 'Wave (FCM<=2)', 'FCM2')}")
            if len(gain) else "no unsaturated point above 40 %",
            _verdict(helps) if len(gain) else "no data",
        ),
        TrendCheck(
            "Wave: observed utilization exceeds net utilization under FCM (Prime: equal)",
            "observed > net (Fig. 7b)",
            f"Wave mean excess {100 * mid['excess'].mean():.1f} points, Prime {100 * mid_prime['excess'].mean():.1f} "
            "points (unsaturated points >= 30 %)" if len(mid) and len(mid_prime) else "no data",
            _verdict(len(mid) > 0 and mid["excess"].mean() > 0.02 and abs(mid_prime["excess"].mean()) < 0.02)
            if len(mid) and len(mid_prime) else "no data",
        ),
    ]


def _ccr_lines(lines) -> dict[float, pd.DataFrame]:
    return {float(label.removeprefix("CCR-")): line for label, line in lines.items() if label.startswith("CCR-")}


def check_ccr(lines) -> list[TrendCheck]:
    ccr = _ccr_lines(lines)
    checks = []
    low = {c: line for c, line in ccr.items() if c <= 0.1}
    ok = bool(low) and all((line["percent_change"] <= NO_DIFFERENCE_PERCENT / 10).all() for line in low.values())
    checks.append(TrendCheck(
        "CCR 0.10: coallocation always benefits (change <= +1 % at every load)", "always benefits",
        "; ".join(f"CCR {c:g}: {_changes(line)}" for c, line in low.items()) or "no data",
        _verdict(ok) if low else "no data",
    ))
    middle = {c: line for c, line in ccr.items() if 0.25 <= c <= 0.5}
    shapes = {c: (bool((line["percent_change"] < 0).any()), float(line.iloc[-1]["percent_change"]) > 0) for c, line in middle.items()}
    checks.append(TrendCheck(
        "CCR 0.25-0.50: beneficial at low/moderate load, disadvantageous at high load", "benefit then loss",
        "; ".join(f"CCR {c:g}: {_changes(line)}" for c, line in middle.items()) or "no data",
        _verdict(all(a and b for a, b in shapes.values()), any(a and b for a, b in shapes.values()))
        if middle else "no data",
    ))
    high = {c: line for c, line in ccr.items() if c > 0.5}
    loses = {c: bool((line[line["net_utilization"] > 0.4]["percent_change"] > 0).all()) for c, line in high.items()}
    checks.append(TrendCheck(
        "CCR > 0.50: coallocation always disadvantageous (above 40 %)", "always loses, severely",
        "; ".join(f"CCR {c:g}: {_changes(line)}" for c, line in high.items()) or "no data",
        _verdict(all(loses.values()), any(loses.values())) if high else "no data",
    ))
    return checks


def nearest_ccr(line: pd.DataFrame, ccr_lines: dict[float, pd.DataFrame]) -> float | None:
    """The CCR whose % change curve is closest (mean absolute difference over common stable points)."""
    best, best_distance = None, np.inf
    for ccr, other in ccr_lines.items():
        both = _stable(line).merge(_stable(other), on="net_utilization", suffixes=("", "_ccr"))
        both = both[both["net_utilization"] > 0.4]
        if len(both):
            distance = float((both["percent_change"] - both["percent_change_ccr"]).abs().mean())
            if distance < best_distance:
                best, best_distance = ccr, distance
    return best


def check_matching(lines) -> TrendCheck:
    ccr = _ccr_lines(lines)
    expected = {"Prime": 0.1, "Poisson": 0.25, "Wave": 4.0}
    found = {label: nearest_ccr(lines[label], ccr) for label in expected}
    hits = sum(found[label] == value for label, value in expected.items())
    return TrendCheck(
        "MPI applications match CCR curves (nearest curve above 40 %, stable points)",
        "Prime ~ CCR 0.1, Poisson ~ CCR 0.25, Wave ~ CCR 4",
        ", ".join(f"{label} ~ CCR {value:g}" if value is not None else f"{label}: no data" for label, value in found.items()),
        _verdict(hits == 3, hits >= 1),
    )


def check_policies(lines, intervals) -> list[TrendCheck]:
    parts, wins, gaps = [], [], {}
    for config in ("A", "B"):
        line = lines[f"config {config}"]
        stable = _stable(line)
        wins.append(float((line["percent_change"] < 0).mean()))
        gaps[config] = stable["mean_response_time_baseline"] - stable["mean_response_time_treatment"]
        parts.append(f"config {config}: CA faster at {100 * wins[-1]:.0f} % of loads; " + _changes(line))
    widening = all(len(g) >= 2 and g.iloc[-1] > g.iloc[0] for g in gaps.values())
    checks = [TrendCheck(
        "CA beats FCM at almost all loads, the gap widening with load (change = CA vs FCM)",
        "CA better almost everywhere; gap widens", "; ".join(parts),
        _verdict(min(wins) >= 0.75 and widening, min(wins) >= 0.5),
    )]
    sat = {
        (config, policy): intervals.get((f"config {config}", policy), (None, None))
        for config in ("A", "B") for policy in ("FCM", "CA")
    }
    ours = "; ".join(f"{config} {policy}: {format_interval(value)}" for (config, policy), value in sat.items())
    a_later = all(_first_high(sat[("A", p)]) > _first_high(sat[("B", p)]) for p in ("FCM", "CA"))
    in_range = all(0.75 <= _first_high(sat[("A", p)]) <= 0.85 for p in ("FCM", "CA")) and all(
        0.6 <= _first_high(sat[("B", p)]) <= 0.7 for p in ("FCM", "CA")
    )
    checks.append(TrendCheck(
        "Saturation: without Delft (A) at 75-80 %, with Delft (B) much earlier at 60-70 %",
        "A 75-80 %, B 60-70 %", ours, _verdict(a_later and in_range, a_later),
    ))
    mean_gap = {c: float(g.mean()) if len(g) else float("nan") for c, g in gaps.items()}
    checks.append(TrendCheck(
        "The CA-FCM gap is much larger with Delft (B) than without (A)",
        "real runs: 50 s (A) vs 230 s (B) at 40 %",
        f"mean gap over unsaturated loads: A {mean_gap['A']:.0f} s, B {mean_gap['B']:.0f} s",
        _verdict(mean_gap["B"] > 2 * mean_gap["A"], mean_gap["B"] > mean_gap["A"]),
    ))
    return checks


def check_trends(lines: dict[str, pd.DataFrame], intervals: dict) -> list[TrendCheck]:
    return [
        check_no_difference_at_low_load(lines),
        *check_prime(lines, intervals),
        check_poisson(lines),
        *check_wave(lines, intervals),
        *check_ccr(lines),
        check_matching(lines),
        *check_policies(lines, intervals),
    ]
