"""The ``kayles`` command (also ``python -m kayles``): the toolkit's subcommands.

Each subcommand lives in a module of ``kayles.commands`` that registers its
parser and a handler ``run(args, out)``.  Handlers raise ValueError (or
OSError for files) on bad input; this front end turns that into one line on
stderr and exit status 2.  A closed pipe and Ctrl-C end quietly.
"""

from __future__ import annotations

import argparse
import sys

from . import __version__

__all__ = ["build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from ._impl import IMPLEMENTATION
    from .commands import heaps, seeds

    parser = _Parser(
        prog="kayles",
        description="Sprague-Grundy toolkit for impartial games: nim-sequences, "
        "proved periods, winning moves.",
    )
    core = "compiled (Cython) core" if IMPLEMENTATION == "cython" else "pure-Python core"
    parser.add_argument("--version", action="version", version=f"kayles {__version__}, {core}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    heaps.register(sub)
    seeds.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        parser = build_parser()
    except ImportError as exc:  # KAYLES_PURE / KAYLES_REQUIRE_NATIVE refused the setup
        sys.stderr.write(f"kayles: {exc}\n")
        return 2
    args = parser.parse_args(argv)
    try:
        status = args.run(args, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:  # before OSError, its base class
        _silence_stdout()
        return 141
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"kayles {args.command}: {_reason(exc)}\n")
        return 2
    except KeyboardInterrupt:
        _silence_stdout()
        return 130
    return status or 0


def _reason(exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror}"
    return str(exc)


def _silence_stdout() -> None:
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
