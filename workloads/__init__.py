"""Workload modeling: fitting distributions, synthesis, load scaling and pairing.

Plain modules, no Luigi (the tasks are in ``pipeline.workload_tasks``):

- :mod:`workloads.lublin`: the Lublin-Feitelson model with its published parameters,
  ``lublin_feitelson_jobs(n_jobs, machine_procs, seed, target_utilization=None)``;
- :mod:`workloads.fitting`: ``fit_trace`` / ``fit_workload``, a model fitted to a trace;
- :mod:`workloads.model`: the model document (versioned JSON schema), validation, I/O;
- :mod:`workloads.synthesis`: ``synthesize(model, n_jobs, machine_procs, target_utilization, seed)``;
- :mod:`workloads.scaling`: ``scale_trace``, a real trace's gaps scaled to a target load;
- :mod:`workloads.pairing`: ``pair_by_window`` and ``pair_by_ratio`` for coscheduling;
- :mod:`workloads.diagnostics`: data against model, behind ``reports.workload_figures``;
- building blocks: :mod:`workloads.cycle` (daily/weekly arrival cycles),
  :mod:`workloads.sizes`, :mod:`workloads.distributions`, :mod:`workloads.gof`,
  :mod:`workloads.load` (offered load), :mod:`workloads.jobs`.
"""
