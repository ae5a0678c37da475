"""Simulator stages: the shared batch-scheduling core and one package per studied system."""
