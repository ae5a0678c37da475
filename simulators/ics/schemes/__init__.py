"""The nine scheduling schemes compared by Yu, Kim and Maeng, by name."""

from __future__ import annotations

from simulators.ics.schemes.base import Scheme
from simulators.ics.schemes.batch import Batch
from simulators.ics.schemes.blocking import Hybrid, SpinBlock
from simulators.ics.schemes.gang import Gang
from simulators.ics.schemes.proc import ProcBlocking, ProcSpinning
from simulators.ics.schemes.spinning import DynamicCoscheduling, Local, PeriodicBoost

SCHEMES: dict[str, type[Scheme]] = {
    scheme.name: scheme
    for scheme in (Local, DynamicCoscheduling, PeriodicBoost, ProcSpinning, SpinBlock, Hybrid, ProcBlocking, Gang, Batch)
}
SPINNING = ("LOCAL", "DCS", "PB", "PROC-S")
BLOCKING = ("SB", "HYBRID", "PROC-B")


def make_scheme(name: str, boost_preempts_spinner: bool = True) -> Scheme:
    try:
        scheme = SCHEMES[name]()
    except KeyError:
        raise ValueError(f"unknown scheme {name!r}; known: {', '.join(SCHEMES)}") from None
    scheme.boost_preempts_spinner = boost_preempts_spinner
    return scheme
