"""Stage ``ics``: time-shared clusters with implicit coscheduling and PROC (Yu, Kim, Maeng).

Modules: ``tstable`` (Solaris TS table), ``network`` (linear latency, FIFO interface),
``state`` (jobs, processes, nodes), ``kernel`` (the discrete-event loop and node
scheduler), ``schemes`` (one module per scheme family), ``workload`` (synthetic and
NPB-like jobs, time compression), ``metrics``, ``run`` (one experiment point) and
``experiments`` (the paper's figures as lists of points, per profile).
"""
