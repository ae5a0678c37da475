"""BATCH: space sharing (Yu, Kim and Maeng, Sect. 4): MPL 1, FCFS, no time sharing.

Each node runs at most one process, which has the CPU to itself and busy-waits for
its messages; no boost is ever needed.
"""

from __future__ import annotations

from schedlab.simulators.ics.schemes.base import Scheme


class Batch(Scheme):
    name = "BATCH"
    mpl = 1
