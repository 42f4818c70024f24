"""The Kayles-xox executable: the course autograder's contract, to the byte.

    Kayles-xox grundy N     [G(0), G(1), ..., G(N)] on one line
    Kayles-xox POSITION     the position after the winning move, or LOSS
    Kayles-xox -            the same, POSITION read from standard input (past 128 KiB)

Anything else is one line on stderr and exit status 2, with nothing on stdout;
``kayles.interface._frontend.exit_status`` maps every other ending (closed pipe, Ctrl-C, full disk).
Start-up is kept tiny: no argparse, and the package loads only what the chosen
mode needs.
"""

from __future__ import annotations

import sys

from ..errors import InputError
from ._frontend import exit_status, parse_natural, version_line

__all__ = ["main", "run"]

PROG = "Kayles-xox"
USAGE = f"usage: {PROG} grundy N | {PROG} POSITION"
HELP = f"""{USAGE}

Kayles-xox: take one pin, or the outer two of three consecutive pins;
whoever cannot move loses.

  {PROG} grundy N    print the Grundy numbers of rows of 0..N pins,
                         as [G(0), G(1), ..., G(N)]
  {PROG} POSITION    POSITION is a string of 'x' (pin) and '.' (gap);
                         print it after the winning move, or LOSS
  {PROG} -           read POSITION from standard input (one line; for rows
                         past the shell's limit of 128 KiB an argument)

Tie-break: the leftmost run of pins holding a winning move that lowers its
Grundy number; in it the leftmost winning move; at the same pin, taking the
single pin before taking the outer two of three.

  --help      show this help
  --version   show the version and which core (compiled or pure) runs
"""


def _grundy(text: str, out) -> None:
    n = parse_natural(text)
    from ..analysis.xox import sequence
    from ._output import write_nimbers

    write_nimbers(sequence().segments(n + 1), out)


def _position(text: str, out) -> None:
    from ..analysis.row import parse_row

    parse_row(text)
    from ..analysis.xox import winning_move

    move = winning_move(text)
    out.write(("LOSS" if move is None else move) + "\n")


def _work(args: list[str], out, stdin_is_a_directory: bool = False) -> None:
    if args in (["--help"], ["-h"]):
        out.write(HELP)
    elif args == ["--version"]:
        out.write(version_line(PROG) + "\n")
    elif len(args) == 2 and args[0] == "grundy":
        _grundy(args[1], out)
    elif args == ["grundy"]:
        raise InputError("grundy needs a number: grundy N")
    elif args == ["-"]:  # never a position: '-' is neither 'x' nor '.'
        from ._frontend import read_text

        if stdin_is_a_directory:
            raise InputError("standard input is a directory, not a position: give the "
                             "position as the argument, or a file on standard input")
        text = read_text("-")
        for end in ("\r\n", "\n"):  # one line: its line ending is not part of it
            if text.endswith(end):
                text = text[: -len(end)]
                break
        _position(text, out)
    elif len(args) == 1:
        _position(args[0], out)
    else:
        raise InputError(f"expected 'grundy N' or one POSITION ({len(args)} arguments given)")


def run(*, stdin_is_a_directory: bool = False) -> None:
    """``main()`` on the command line, then the process ends at once with its status (the
    launcher's entry, see the Makefile).

    The interpreter's own ending (every module torn down, a last garbage collection)
    took some 2 ms of a 14 ms ``grundy 1000`` and does nothing here: every file is
    written and closed inside ``main``, no thread is left, nothing is registered with
    ``atexit``; standard output and error are flushed first."""
    status = main(stdin_is_a_directory=stdin_is_a_directory)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()  # a no-op: main flushed its output, or pointed it at /dev/null
        except (OSError, ValueError):
            pass
    from .._environ import system

    system._exit(status)


def main(argv: list[str] | None = None, *, stdin_is_a_directory: bool = False) -> int:
    """Run the contract on ``argv`` (default: the command line); the exit status.

    ``stdin_is_a_directory``: the launcher found a directory on standard input, where
    CPython cannot start, and started it on /dev/null instead (see the Makefile)."""
    args = sys.argv[1:] if argv is None else argv
    return exit_status(PROG, lambda out: _work(args, out, stdin_is_a_directory),
                       hint=f" (see {PROG} --help)")


if __name__ == "__main__":
    sys.exit(main())
