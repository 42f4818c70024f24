"""The Kayles-xox executable: the course autograder's contract, to the byte.

    Kayles-xox grundy N     [G(0), G(1), ..., G(N)] on one line
    Kayles-xox POSITION     the position after the winning move, or LOSS

Anything else is one line on stderr and exit status 2, with nothing on stdout.
A closed pipe and Ctrl-C end quietly.  Start-up is kept tiny: no argparse, and
the package loads only what the chosen mode needs.
"""

from __future__ import annotations

import sys

__all__ = ["main", "parse_count"]

PROG = "Kayles-xox"
USAGE = f"usage: {PROG} grundy N | {PROG} POSITION"
HELP = f"""{USAGE}

Kayles-xox: take one pin, or the outer two of three consecutive pins;
whoever cannot move loses.

  {PROG} grundy N    print the Grundy numbers of rows of 0..N pins,
                         as [G(0), G(1), ..., G(N)]
  {PROG} POSITION    POSITION is a string of 'x' (pin) and '.' (gap);
                         print it after the winning move, or LOSS

Tie-break: the leftmost run of pins holding a winning move that lowers its
Grundy number; in it the leftmost winning move; at the same pin, taking the
single pin before taking the outer two of three.

  --help      show this help
  --version   show the version and which core (compiled or pure) runs
"""


class UsageError(Exception):
    """Bad command-line input: reported on one line, exit status 2."""


def parse_count(text: str) -> int:
    """A non-negative decimal integer of any length (ASCII digits only), or ValueError."""
    if not text or not (text.isascii() and text.isdigit()):
        raise ValueError(f"N must be a non-negative decimal integer, not {text!r}")
    if len(text) > 4000 and hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # any size means any size
    return int(text)


def _count(text: str) -> int:
    try:
        return parse_count(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _grundy(n: int, out) -> None:
    from ._output import write_nimbers
    from .xox import SEQUENCE

    write_nimbers(SEQUENCE, n, out)


def _position(text: str, out) -> None:
    from .row import parse_row

    try:
        parse_row(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    from .xox import winning_move

    move = winning_move(text)
    out.write(("LOSS" if move is None else move) + "\n")


def _version() -> str:
    from . import __version__
    from ._impl import IMPLEMENTATION

    core = "compiled (Cython) core" if IMPLEMENTATION == "cython" else "pure-Python core"
    return f"{PROG} (kayles {__version__}), {core}"


def _run(args: list[str], out) -> None:
    if args in (["--help"], ["-h"]):
        out.write(HELP)
    elif args == ["--version"]:
        out.write(_version() + "\n")
    elif len(args) == 2 and args[0] == "grundy":
        _grundy(_count(args[1]), out)
    elif args == ["grundy"]:
        raise UsageError("grundy needs a number: grundy N")
    elif len(args) == 1:
        _position(args[0], out)
    else:
        raise UsageError(f"expected 'grundy N' or one POSITION ({len(args)} arguments given)")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        _run(args, sys.stdout)
        sys.stdout.flush()
    except UsageError as exc:
        sys.stderr.write(f"{PROG}: {exc} (see {PROG} --help)\n")
        return 2
    except ImportError as exc:  # KAYLES_PURE / KAYLES_REQUIRE_NATIVE refused the setup
        sys.stderr.write(f"{PROG}: {exc}\n")
        return 2
    except BrokenPipeError:
        _silence_stdout()
        return 141  # 128 + SIGPIPE, as if the pipe had killed us
    except KeyboardInterrupt:
        _silence_stdout()
        return 130  # 128 + SIGINT
    return 0


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot complain."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
