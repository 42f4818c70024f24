"""The ``kayles`` command (also ``python -m kayles``): the toolkit's subcommands.

Each family of subcommands is a module of ``kayles.interface.commands`` (listed in
``COMMAND_FAMILIES``) whose ``register(subparsers)`` adds parsers that set a
handler ``command_NAME(args, out)``.  Handlers raise ValueError (or OSError for files)
on bad input; ``kayles.interface._frontend.exit_status`` turns every ending into its exit status.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from importlib import import_module

from ..errors import SHOWN_LONGEST
from ._frontend import Output, exit_status, version_line

__all__ = ["COMMAND_FAMILIES", "build_parser", "main"]

COMMAND_FAMILIES = ("heap_games", "classic_games", "nimber_arithmetic", "coin_turning",
                    "hackenbush_command", "misere_games", "surveys", "long_runs", "pictures",
                    "matches", "solve", "serve", "glossary_command")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        try:
            sys.stderr.write(f"{self.prog}: error: {_tidy(message)}\n")
        except (AttributeError, OSError):  # stderr closed (None) or failing: the status says it
            pass
        sys.exit(2)

    def format_help(self) -> str:
        """The help; an epilog may be a function, called only now (so building the parser
        imports nothing it names)."""
        if callable(self.epilog):
            self.epilog = self.epilog()
        return super().format_help()

    def _print_message(self, message: str, file=None) -> None:
        """--help and --version: through ``Output``, so a full disk is reported
        (argparse itself would swallow the write error and exit 0)."""
        if file is sys.stdout:  # both None too: --help with fd 1 closed
            out = Output(sys.stdout)
            out.write(message)
            out.flush()
        else:
            super()._print_message(message, file)


def _tidy(message: str) -> str:
    """argparse's message on one line: undecodable bytes as typed (``\\xff``, where
    argparse would print ``\\udcff``), and any word longer than SHOWN_LONGEST cut."""
    text = message.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    text = re.sub(r"\\udc([89a-f][0-9a-f])", r"\\x\1", text)  # inside argparse's repr()
    return " ".join(word if len(word) <= SHOWN_LONGEST else
                    f"{word[:SHOWN_LONGEST]}... ({len(word)} characters)" for word in text.split())


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="kayles",
        description="Sprague-Grundy toolkit for impartial games: nim-sequences, "
        "proved periods, winning moves.",
        epilog="The words used here (nim-sequence, mex, rare mask, preperiod, P-portion, ...) "
        "and the options' vocabulary (--to for how far, everywhere): kayles glossary.",
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
        if os.environ.get("_ARGCOMPLETE") and "COMP_LINE" in os.environ:  # the shell asks
            _complete(parser)
        words = sys.argv[1:] if argv is None else argv
        if not words:  # bare `kayles`: what it is and what it can do, as --help says
            out.write(parser.format_help())
            return
        args, extras = parser.parse_known_args(words)
        if extras:  # argparse would name only 'kayles': the subcommand they were given to
            _Parser(prog=f"kayles {args.command}").error(
                f"unrecognized arguments: {' '.join(extras)} (see kayles {args.command} --help)")
        parsed.append(args)

    status = exit_status("kayles", parse)
    if status or not parsed:  # a setup error (argparse itself exits 2), or the bare help
        return status
    args = parsed[0]
    return exit_status(f"kayles {args.command}", lambda out: args.handler(args, out))


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

