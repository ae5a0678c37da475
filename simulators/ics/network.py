"""The cluster network: a linear latency model with one FIFO send interface per node.

Yu, Kim and Maeng (Sect. 4.1, Fig. 5b) use "a simple linear model for the network that
is parameterized by the message size", with a 16 KB message taking 229.9 us one way.
We split that into a fixed start-up cost and a per-byte transmission time; the paper
gives only the sum, so the split (9.9 us start-up, 220 us for 16 KB, i.e. about
74.5 MB/s) is our assumption, documented in the report.  A node's interface
transmits one message at a time, in send order, so a message leaves the interface when
the previous one has been transmitted; it arrives ``STARTUP`` after its last byte left.
Arrivals from one sender thus keep their send order (FIFO per interface).
"""

from __future__ import annotations

STARTUP = 9.9e-6
BYTES_16K = 16 * 1024
ONE_WAY_16K = 229.9e-6
SECONDS_PER_BYTE = (ONE_WAY_16K - STARTUP) / BYTES_16K


class SendInterface:
    """One node's network interface: a FIFO queue of outgoing messages."""

    __slots__ = ("free_at",)

    def __init__(self) -> None:
        self.free_at = 0.0

    def send(self, t: float, size_bytes: float) -> float:
        """Queue a message at time ``t``; return its arrival time at the destination."""
        start = self.free_at if self.free_at > t else t
        self.free_at = start + size_bytes * SECONDS_PER_BYTE
        return self.free_at + STARTUP
