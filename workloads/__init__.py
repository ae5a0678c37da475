"""Workload modeling: fitting distributions, synthesis, load scaling and pairing.

Plain modules, no Luigi (the tasks are in ``pipeline.workload_tasks``):

- :mod:`schedlab.workloads.lublin`: the Lublin-Feitelson model with its published parameters,
  ``lublin_feitelson_jobs(n_jobs, machine_procs, seed, target_utilization=None)``;
- :mod:`schedlab.workloads.fitting`: ``fit_trace`` / ``fit_workload``, a model fitted to a trace;
- :mod:`schedlab.workloads.model`: the model document (versioned JSON schema), validation, I/O;
- :mod:`schedlab.workloads.synthesis`: ``synthesize(model, n_jobs, machine_procs, target_utilization, seed)``;
- :mod:`schedlab.workloads.scaling`: ``scale_trace``, a real trace's gaps scaled to a target load;
- :mod:`schedlab.workloads.pairing`: ``pair_by_window`` and ``pair_by_ratio`` for coscheduling;
- :mod:`schedlab.workloads.diagnostics`: data against model, behind ``schedlab.reports.workload_figures``;
- building blocks: :mod:`schedlab.workloads.cycle` (daily/weekly arrival cycles),
  :mod:`schedlab.workloads.sizes`, :mod:`schedlab.workloads.distributions`, :mod:`schedlab.workloads.gof`,
  :mod:`schedlab.workloads.load` (offered load), :mod:`schedlab.workloads.jobs`.
"""
