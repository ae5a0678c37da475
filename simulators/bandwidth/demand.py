"""Job shapes and the inter-cluster bandwidth a co-allocated job asks of each link.

Jones, Ligon, Shrivastava, ICPADS 2006, Sec. 3 (system and job model):

- Jobs are rectangular: a request of N processors becomes a grid of
  ``floor(sqrt(N))`` rows by ``ceil(sqrt(N))`` columns (3 -> 2, 5 -> 6, 10 -> 12, 50 -> 56),
  so that its nearest-neighbour (2D mesh) traffic has a definite shape.
- A job sends ``PPBW`` Mb/s per processor; a share ``rho`` goes all-to-all, the rest to its
  four mesh neighbours.  The paper lost its formulas; ours (the spec's DEFAULT) are:

  all-to-all ``A_c = rho * PPBW * n_c * (n - n_c) / (n - 1)``: each of the ``n_c``
  processors on cluster c spreads ``rho * PPBW`` evenly over the ``n - 1`` others, of
  which ``n - n_c`` are off-cluster;

  mesh ``M_c = cut_c * (1 - rho) * PPBW / 4``: every mesh edge carries a quarter of a
  processor's mesh traffic each way, and ``cut_c`` counts the edges leaving piece c when
  the grid is numbered row-major and the pieces take consecutive ranks in placement order.

  ``R_c = A_c + M_c`` Mb/s in each direction of cluster c's full-duplex link (traffic is
  symmetric, so one number serves both directions).
"""

from __future__ import annotations

import math

import numpy as np

from schedlab.simulators.bandwidth.jit import uncounted


def grid_shape(requested: int) -> tuple[int, int]:
    """(rows, columns) of the rectangular job that replaces a request of ``requested`` processors."""
    if requested < 1:
        raise ValueError(f"a job needs at least one processor, got {requested}")
    rows = math.isqrt(requested)
    return rows, rows if rows * rows == requested else rows + 1


def rectangular_sizes(requested: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised ``grid_shape``: (nodes, columns) per job."""
    requested = np.asarray(requested, dtype=np.int64)
    if (requested < 1).any():
        raise ValueError("every job needs at least one processor")
    rows = np.sqrt(requested).astype(np.int64)
    rows -= rows * rows > requested  # float sqrt may round up near perfect squares
    rows += (rows + 1) * (rows + 1) <= requested
    columns = np.where(rows * rows == requested, rows, rows + 1)
    return rows * columns, columns


@uncounted
def cut_edges(nodes: int, columns: int, first: int, last: int) -> int:
    """Mesh edges with exactly one end among ranks ``[first, last)`` of a row-major grid.

    Closed form (the ICS search calls this for every piece size it tries): a contiguous
    rank range cuts at most two row edges, at its ends (``first - 1 | first`` unless
    ``first`` starts a row, ``last - 1 | last`` unless ``last`` starts a row or is past
    the grid), and the column edges ``r | r + columns`` of its first row's worth of ranks
    looking up and its last row's worth looking down.
    """
    if last <= first:
        return 0
    count = 0
    if first > 0 and first % columns != 0:
        count += 1
    if last < nodes and last % columns != 0:
        count += 1
    # ranks r in [first, last) with r - columns in [0, first): r in [max(first, columns), min(last, first + columns))
    count += max(0, min(last, first + columns) - max(first, columns))
    # ranks r in [first, last) with r + columns in [last, nodes): r in [max(first, last - columns), min(last, nodes - columns))
    count += max(0, min(last, nodes - columns) - max(first, last - columns))
    return count


@uncounted
def piece_demand(nodes: int, columns: int, ppbw: float, rho: float, first: int, size: int) -> float:
    """R_c (Mb/s each way) of the piece holding ranks ``[first, first + size)`` of the job."""
    if size >= nodes or size <= 0:
        return 0.0
    all_to_all = rho * ppbw * size * (nodes - size) / (nodes - 1)
    mesh = cut_edges(nodes, columns, first, first + size) * (1.0 - rho) * ppbw / 4.0
    return all_to_all + mesh


@uncounted
def link_demands(nodes, columns, ppbw, rho, order, pieces, out):
    """Fill ``out[c]`` with R_c for pieces ``pieces[i]`` on clusters ``order[i]``, laid in that order."""
    out[:] = 0.0
    first = 0
    for i in range(len(order)):
        out[order[i]] += piece_demand(nodes, columns, ppbw, rho, first, pieces[i])
        first += pieces[i]
