"""The ``kayles`` command (also ``python -m kayles``): the toolkit's subcommands.

Each family of subcommands is a module of ``kayles.commands`` (listed in
``COMMAND_FAMILIES``) whose ``register(subparsers)`` adds parsers that set a
handler ``run(args, out)``.  Handlers raise ValueError (or OSError for files)
on bad input; ``kayles._frontend.run`` turns every ending into its exit status.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module

from ._frontend import run, version_line

__all__ = ["COMMAND_FAMILIES", "build_parser", "main"]

COMMAND_FAMILIES = ("heap_games", "classic_games", "misere_games", "survey", "plot", "play")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kayles",
        description="Sprague-Grundy toolkit for impartial games: nim-sequences, "
        "proved periods, winning moves.",
    )
    parser.add_argument("--version", action="version", version=version_line("kayles"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for family in COMMAND_FAMILIES:
        import_module(f".commands.{family}", __package__).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parsed: list[argparse.Namespace] = []

    def parse(out) -> None:
        parser = build_parser()
        if os.environ.get("_ARGCOMPLETE"):  # the shell asks for completions
            _complete(parser)
        parsed.append(parser.parse_args(argv))

    status = run("kayles", parse)
    if status:  # argparse itself exits 2 on a usage error; this is a setup error
        return status
    args = parsed[0]
    return run(f"kayles {args.command}", lambda out: args.run(args, out))


def _complete(parser: argparse.ArgumentParser) -> None:
    """Answer the shell's completion request (argcomplete, the extra kayles[completion]).

    Set up once per shell: eval "$(register-python-argcomplete kayles)".
    argcomplete writes the completions and exits; without it, exit quietly.
    """
    try:
        import argcomplete
    except ImportError:
        sys.exit(1)
    argcomplete.autocomplete(parser)


if __name__ == "__main__":
    sys.exit(main())
