"""The ``schedlab`` command line.

Each subcommand lives in its own module under ``schedlab.commands`` (``_`` in the module's name
is ``-`` in the command's) and exposes ``HELP``,
its one-line summary, and ``register(subparsers)``, which adds its parser and sets
``handler`` to a function taking the parsed arguments and returning an exit code.
Modules are discovered, so a new subcommand is a new file and nothing else.

Start-up stays fast because a command module imports only the standard library and
``schedlab``'s own light modules at module level: the top-level parser lists every
command with its ``HELP`` and builds the full parser (``register``, which may import a
simulator for its ``choices``) of the selected command only, whose handler imports the
rest.  ``schedlab --help`` thus imports no simulator, and ``schedlab info`` no simulator
at all (``tests/test_cli_startup.py`` checks which modules each loads).

Every command takes ``-q/--quiet`` (before or after the command's name): no progress
bars, which otherwise show on stderr when it is a terminal (:mod:`schedlab.progress`).

Errors are one line on stderr, never a traceback: exit code 2 for a bad option (out of its
range, :mod:`schedlab.options`, or a :class:`UsageError`), 1 for bad input (a damaged trace
names its file and line, and so does a problem of the machine: a full disk, a quota, a file
or directory it may not write), 70 for an unexpected error (``SCHEDLAB_TRACEBACK=1`` shows it).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import pkgutil
import sys

from schedlab import __version__, commands
from schedlab.errors import SchedlabError, UsageError

#: Set to 1 for a traceback instead of the one-line report of an unexpected error.
TRACEBACK_VARIABLE = "SCHEDLAB_TRACEBACK"
#: Exit code of an unexpected error (sysexits.h's EX_SOFTWARE), apart from 1 (bad input) and 2 (usage).
INTERNAL_ERROR = 70
#: What the machine, not schedlab, got wrong: no space, over quota or file size limit, no permission, read-only.
ENVIRONMENT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EACCES, errno.EPERM, errno.EROFS})
QUIET_HELP = "no progress bars (shown on stderr only when it is a terminal)"


class OneLineErrors:
    """argparse's usage errors on one line (the usage is one ``--help`` away), exit code 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


class TopParser(OneLineErrors, argparse.ArgumentParser):
    """The top-level ``schedlab`` parser."""


class CommandParser(OneLineErrors, argparse.ArgumentParser):
    """A command's parser: takes ``-q/--quiet`` as the top-level parser does.

    Its default is left unset so that ``schedlab -q COMMAND`` is not undone by the
    command's own parser; the top-level parser's default (False) applies.  Nested
    subcommands (``schedlab bundle create``) are CommandParsers too.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS, help=QUIET_HELP)


def command_names() -> list[str]:
    """The subcommands, from the modules of ``schedlab.commands`` (found without importing them);
    a module's ``_`` is a ``-`` in its command (``verify_cache`` is ``schedlab verify-cache``)."""
    return sorted(module.name.replace("_", "-") for module in pkgutil.iter_modules(commands.__path__))


def command_module(name: str) -> str:
    """The module of the command ``name``."""
    return f"{commands.__name__}.{name.replace('-', '_')}"


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The ``schedlab`` parser.  With ``argv``, only the command it selects is built in
    full and the others are listed with their ``HELP``; without, every command is built."""
    parser = TopParser(
        prog="schedlab",
        description=(
            "Replay and analyse parallel-job scheduling on SWF traces. "
            "Start with 'schedlab info TRACE', then 'schedlab replay TRACE --policy easy'."
        ),
    )
    parser.add_argument("--version", action="version", version=f"schedlab {__version__}")
    parser.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    names = command_names()
    selected = None if argv is None else _selected_command(argv, names)
    for name in names:
        module = importlib.import_module(command_module(name))
        if argv is None or name == selected:
            module.register(subparsers)
        else:
            subparsers.add_parser(name, help=module.HELP)
    return parser


def _selected_command(argv: list[str], names: list[str]) -> str | None:
    """The command ``argv`` names: its first word that is not an option (the top-level
    options take no value), if that is a command."""
    words = iter(argv)
    for word in words:
        if word == "--":
            word = next(words, None)
        elif word.startswith("-"):
            continue
        return word if word in names else None
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except SchedlabError as error:
        print(f"schedlab {args.command}: {error}", file=sys.stderr)
        return 2 if isinstance(error, UsageError) else 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except OSError as error:
        if error.errno not in ENVIRONMENT_ERRNOS:
            return _internal_error(args.command, error)
        where = f": {error.filename}" if error.filename else ""
        print(f"schedlab {args.command}: {error.strerror or error}{where}", file=sys.stderr)
        return 1
    except Exception as error:  # a bug, not the user's input: one line still, the traceback on request
        return _internal_error(args.command, error)


def _internal_error(command: str, error: Exception) -> int:
    if os.environ.get(TRACEBACK_VARIABLE):
        raise error
    print(f"schedlab {command}: internal error, please report it: {type(error).__name__}: {error} "
          f"(set {TRACEBACK_VARIABLE}=1 for the traceback)", file=sys.stderr)
    return INTERNAL_ERROR


if __name__ == "__main__":
    sys.exit(main())
