"""What a kernel run leaves behind: the numbers the metrics need, in plain arrays.

Both kernels produce it: the readable pure-Python ``schedlab.simulators.ics.kernel.Kernel`` (the
reference) and the compiled ``schedlab.simulators.ics.compiled`` one, which must give the same
outcome to the last bit.  The metrics (``schedlab.simulators.ics.metrics``) read only this.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class KernelOutcome:
    end: float
    """Time the last job ended."""
    events: int
    messages: int
    mpl: int
    job_start: np.ndarray
    """Per job, in the order of the job list."""
    job_end: np.ndarray
    process_finish: list[np.ndarray]
    """Per job, the time each rank finished (ranks of one job may end a little apart)."""
    accounts: np.ndarray
    """Seconds per node (rows) and CPU category (columns, ``state.CPU_CATEGORIES``)."""
    switches: np.ndarray
    decisions: np.ndarray
    conflicts: np.ndarray
    false_decisions: np.ndarray
    chance_false: np.ndarray
    """Per node, the false decisions a uniformly random pick among the conflicting processes would expect."""

    def equals(self, other: KernelOutcome) -> bool:
        """Bit-for-bit equality (what the compiled kernel promises against the reference)."""
        scalars = (self.end, self.events, self.messages, self.mpl) == (other.end, other.events, other.messages, other.mpl)
        arrays = all(
            np.array_equal(getattr(self, name), getattr(other, name))
            for name in ("job_start", "job_end", "accounts", "switches", "decisions", "conflicts", "false_decisions",
                         "chance_false")
        )
        finishes = len(self.process_finish) == len(other.process_finish) and all(
            np.array_equal(a, b) for a, b in zip(self.process_finish, other.process_finish)
        )
        return scalars and arrays and finishes
