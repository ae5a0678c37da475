"""Report building: metrics tables and figures from simulator outputs."""
