"""How the bandwidth stage's compiled code is compiled.

``uncounted``: numba without its reference counting of arrays.  Every helper the event loop calls
in its hot path takes arrays it does not own and allocates nothing, so counting references buys
nothing; profiled on a paper-size run (Migration Only, 4 x 400,000 jobs), the atomic increments and
decrements of those counts took most of the loop's time.  Such a function cannot create or return
an array (numba refuses to compile it), so the work arrays come from the caller.
"""

from __future__ import annotations

from numba import njit

uncounted = njit(cache=True, _nrt=False)
