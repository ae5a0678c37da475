"""The nine scheduling schemes compared by Yu, Kim and Maeng, by name."""

from __future__ import annotations

from schedlab.simulators.ics.kernel import BLOCK_WAIT
from schedlab.simulators.ics.schemes.base import Scheme
from schedlab.simulators.ics.schemes.batch import Batch
from schedlab.simulators.ics.schemes.blocking import Hybrid, SpinBlock
from schedlab.simulators.ics.schemes.gang import Gang
from schedlab.simulators.ics.schemes.proc import ProcBlocking, ProcSpinning
from schedlab.simulators.ics.schemes.spinning import DynamicCoscheduling, Local, PeriodicBoost

SCHEMES: dict[str, type[Scheme]] = {
    scheme.name: scheme
    for scheme in (Local, DynamicCoscheduling, PeriodicBoost, ProcSpinning, SpinBlock, Hybrid, ProcBlocking, Gang, Batch)
}
SPINNING = ("LOCAL", "DCS", "PB", "PROC-S")
BLOCKING = ("SB", "HYBRID", "PROC-B")


def boosts_a_spinner(name: str) -> bool:
    """Whether a run of scheme ``name`` can boost a process while another busy-waits on its node, i.e.
    whether ``boost_preempts_spinner`` can change it: the scheme boosts (on a message or from a boost
    thread) and its processes do not block at once."""
    scheme = SCHEMES[name]
    boosts = scheme.boost_period is not None or scheme.on_message is not Scheme.on_message
    return boosts and scheme.wait != BLOCK_WAIT


def make_scheme(name: str, boost_preempts_spinner: bool = True) -> Scheme:
    try:
        scheme = SCHEMES[name]()
    except KeyError:
        raise ValueError(f"unknown scheme {name!r}; known: {', '.join(SCHEMES)}") from None
    scheme.boost_preempts_spinner = boost_preempts_spinner
    return scheme
