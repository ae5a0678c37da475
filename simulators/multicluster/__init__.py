"""Multicluster substrate: clusters, their network, multi-component jobs, atomic placement.

Shared by the ``koala`` stage (processor coallocation policies, Sonmez et al. TPDS 2010)
and the ``bandwidth`` stage (bandwidth-centric co-allocation, Jones et al. ICPADS 2006).
It knows nothing about either paper's policies or execution-time models; a stage brings
a *scheduler* that decides placements and run times.

Modules and API
---------------
``topology``
    ``Cluster(name, nodes, speed)``; ``Topology(name, clusters, latency_ms, bandwidth_mb_s)``
    with ``capacities``, ``total_nodes``, ``names``, ``index(name)``; ready-made systems:
    ``das3("A")`` (DAS-3 without Delft), ``das3("B")`` (without Leiden, with Delft's GbE) and
    ``star_4x100()`` (4 x 100 nodes, one ``STAR_LINK_MBPS`` = 1000 Mb/s link per cluster to
    a central switch).  All numbers are configuration data, documented in the module.
``requests``
    Request types ``FixedRequest(components=((cluster, nodes), ...))``,
    ``NonFixedRequest(sizes=(...))``, ``FlexibleRequest(total, min_component=1,
    max_components=None)``, each with ``.total``; a ``Placement`` is a tuple of
    ``(cluster index, nodes)``; ``nodes_per_cluster``, ``clusters_used``, ``place_fixed``,
    ``check_placement`` (raises if a placement does not honour its request).
``events``
    ``EventQueue``: ``push(time, rank, kind, payload) -> Event``, ``cancel(event)``,
    ``move(event, time) -> Event`` (the bandwidth stage moves end events when link
    bandwidth is re-shared), ``pop()``, ``now``.  Ties: rank, then push order.
``system``
    ``MulticlusterJob(job_id, submit, request, attributes)`` (``attributes``: whatever the
    stage needs, e.g. the application or the communication demand);
    ``ClusterState`` (``idle``, ``capacities``, ``fits``, ``allocate`` (atomic, raises on
    over-commitment), ``release``, ``busy``, and an allocation ``log``);
    ``MulticlusterSimulation(topology, jobs, scheduler).run() -> MulticlusterResult``.
    The scheduler implements ``on_arrival(sim, job, t)``, ``on_end(sim, job, t)`` (called
    after the job's nodes are released) and ``waiting()``; ``job`` is the index in
    ``jobs``.  Inside those it may call ``sim.start(job, placement, run_time,
    overhead=0.0)`` (nodes taken now, end event at now + overhead + run_time),
    ``sim.move_end(job, new_end)`` and read ``sim.state.idle``, ``sim.running`` (job ->
    ``RunningJob(placement, placed, start, end_event)``, whose ``end_event.time`` is the
    current planned end), ``sim.now``.  At one timestamp ends are handled before
    arrivals.  The result holds ``jobs`` (job_id, submit, placed, start, end, procs,
    n_clusters, clusters), ``components`` (job_id, cluster, nodes, start, end) and
    ``series`` (time, waiting, busy after every event).
``invariants``
    ``check_multicluster_run``, run by ``MulticlusterSimulation.run`` on every run: jobs
    placed after submission, components allocated and released at one instant each, the
    requested nodes exactly, no cluster over-committed at any time.  Raises
    ``schedlab.simulators.core.invariants.InvariantError``.
"""
