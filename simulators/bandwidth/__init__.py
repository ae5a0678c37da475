"""Stage ``bandwidth``: bandwidth-centric job co-allocation in multi-clusters.

Jones, Ligon, Shrivastava, "The Impact of Information Availability and Workload
Characteristics on the Performance of Job Co-allocation in Multi-clusters", ICPADS 2006
(spec: ``shared/spec/002-bandwidth-coallocation.md``).  Built on the multicluster
substrate (``schedlab.simulators.multicluster``): its ``star_4x100`` topology and link capacity,
and its invariant checks, which every run passes through.

Modules
-------
``demand``      rectangular job sizes; the bandwidth a co-allocated job asks of each link.
``sharing``     progressive filling of the links; how a fraction of bandwidth stretches a job.
``placement``   local, migration, and the co-allocation strategies (First-Fit, LSLT,
                LSLT+CS, ICS) and baselines (Zero Comm., Migration Only, No Share).
``kernel``      the compiled FPFS event loop with movable end events.
``workload``    synthetic, realistic (fitted to KTH-SP2) and modified workloads A-D.
``simulate``    one checked run: ``simulate(Point) -> (Run, summary)``.
``experiments`` the paper's experiments as profiles of points (``quick``, ``paper``).
``jit``         how the kernel's helpers are compiled (no reference counting).

Speed: ``bench/bench_bandwidth.py`` (4 x 400,000 jobs, one strategy, in seconds).
"""
