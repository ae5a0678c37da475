"""GS: gang scheduling on an Ousterhout matrix (Yu, Kim and Maeng, Sect. 2 and 4.1).

The matrix has MPL rows (time slices) and one column per node.  A job is placed, in
FCFS order, in the first row with enough free columns, all its processes in that same
row (lowest free columns first); it waits otherwise.  Every 0.1 s a global context
switch (1 ms on each node) moves all nodes to the next row holding a job; a node runs
only the process of the current row, which busy-waits for its messages.  A node whose
column in the current row is empty, or whose process is in I/O, idles.
"""

from __future__ import annotations

from schedlab.simulators.ics.kernel import TIMER
from schedlab.simulators.ics.schemes.base import Scheme

GANG_QUANTUM = 0.1
GANG_SWITCH_COST = 1e-3


class Gang(Scheme):
    name = "GS"
    switch_cost = GANG_SWITCH_COST
    time_sharing = False

    def start(self, kernel) -> None:
        self.rows = [[None] * len(kernel.nodes) for _ in range(kernel.mpl)]
        self.current = 0
        kernel.push(GANG_QUANTUM, TIMER, None)

    def allocate(self, kernel, job):
        for row_index, row in enumerate(self.rows):
            free = [column for column, cell in enumerate(row) if cell is None]
            if len(free) >= job.size:
                job.row = row_index
                for column in free[: job.size]:
                    row[column] = job
                return free[: job.size]
        return None

    def pick(self, kernel, node, t):
        for process in node.ready:
            if process.job.row == self.current:
                return process
        return None

    def on_job_end(self, kernel, job) -> None:
        row = self.rows[job.row]
        for column in job.nodes:
            row[column] = None

    def on_timer(self, kernel, t, payload) -> None:
        """The global switch: every node moves to the next non-empty row."""
        kernel.push(t + GANG_QUANTUM, TIMER, None)
        count = len(self.rows)
        for step in range(1, count + 1):
            candidate = (self.current + step) % count
            if any(cell is not None for cell in self.rows[candidate]):
                break
        else:
            return
        if candidate == self.current:
            return
        self.current = candidate
        for node in kernel.nodes:
            if node.running is not None:
                kernel.preempt(node, t)
            elif node.ready:
                kernel.settle(node, t)
                kernel.dispatch(node, t, None)
