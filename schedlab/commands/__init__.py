"""Subcommands of the ``schedlab`` command line, one module each."""
