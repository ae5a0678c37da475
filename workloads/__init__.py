"""Workload modeling: fitting distributions, synthesis, load scaling and pairing."""
