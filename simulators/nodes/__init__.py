"""Replays on a machine of nodes: jobs that ask for nodes, cores, GPUs and memory in a partition (issue 65)."""
