"""KOALA processor coallocation in the DAS-3 multicluster (Sonmez, Mohamed, Epema, IEEE TPDS 21(6), 2010).

Built on ``schedlab.simulators.multicluster`` (clusters, requests, atomic placement, events).

- ``worst_fit`` (WF), ``cluster_minimization`` (FCM and FCM limited to k clusters),
  ``communication_aware`` (CA, latency option): the placement policies, each
  ``policy.place(request, idle) -> Placement | None``.
- ``scheduler.KoalaScheduler``: the placement queue, rescanned head to tail on every
  arrival and end, placing any job that fits.
- ``execution``: T(S) = T_comp + f(S) x T_comm, the applications and the one calibrated
  constant.
- ``workload``: Poisson arrivals at a target net utilization.
- ``metrics``: response times, net and observed utilization, saturation rule.
- ``simulate``: one experiment point (``Point``) end to end; ``experiments``: the
  paper's experiments as lists of points per profile, and their aggregation.
"""
