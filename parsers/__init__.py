"""Trace parsers: Standard Workload Format (SWF) files into the canonical job table."""
