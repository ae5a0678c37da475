"""The ``schedlab`` command line.

Each subcommand lives in its own module under ``schedlab.commands`` and exposes
``register(subparsers)``, which adds its parser and sets ``handler`` to a function
taking the parsed arguments and returning an exit code.  Modules are discovered, so a
new subcommand is a new file and nothing else.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from schedlab import __version__, commands
from schedlab.errors import SchedlabError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="schedlab",
        description=(
            "Replay and analyse parallel-job scheduling on SWF traces. "
            "Start with 'schedlab info TRACE', then 'schedlab replay TRACE --policy easy'."
        ),
    )
    parser.add_argument("--version", action="version", version=f"schedlab {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{module_info.name}")
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except SchedlabError as error:
        print(f"schedlab {args.command}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
