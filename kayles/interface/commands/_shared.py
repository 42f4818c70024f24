"""What the subcommands share: argument types, the --game option, sequences with
progress, JSON output and how a heap move is given in JSON.

A new subcommand family is a module of ``kayles.interface.commands`` with
``register(subparsers)``; add its name to ``COMMAND_FAMILIES`` in ``kayles_cli.py``.
"""

from __future__ import annotations

import argparse
import json

from ..._numbers import count

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ...analysis.heaps import HeapMove
    from ...engine.rules import Game
    from ...engine.sequence import Sequence

__all__ = [
    "GAME_HELP",
    "RESUMES",
    "add_game_option",
    "file_name",
    "add_json_option",
    "add_threads_option",
    "dump_json",
    "end_progress",
    "heap_move_json",
    "add_old_name",
    "natural",
    "noticer",
    "open_sequence",
    "size",
    "threads_of",
]

# What Ctrl-C says where the same command picks up the work kept so far (kayles survey,
# census, run): a KeyboardInterrupt with this message, exit status 130 (_frontend).
RESUMES = "stopped; the same command resumes"

GAME_HELP = ("a game name (see 'kayles games') or a code such as 0.77 or 0.3F (see 'kayles codes'; "
             "default: kayles-xox)")


def natural(what: str = "N") -> Callable[[str], int]:
    """An argparse ``type``: a count of any length, in any form every count option takes
    (_numbers.count: 2048, 2,048, 2**11)."""

    def parse(text: str) -> int:
        try:
            return count(text, what)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def file_name(text: str) -> str:
    """An argparse ``type`` for a FILE or DIR: not empty (an empty name would become a
    temporary's or the current folder's)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    return text


def noticer(prog: str) -> Callable[[str], None]:
    """What a command gives a layer to say a notice through: one stderr line, 'PROG: LINE'
    (nothing when stderr is closed or failing)."""
    import sys

    def notice(line: str) -> None:
        try:
            sys.stderr.write(f"{prog}: {line}\n")
            sys.stderr.flush()
        except (AttributeError, OSError):  # AttributeError: fd 2 closed, sys.stderr is None
            pass

    return notice


def size(what: str) -> Callable[[str], int]:
    """An argparse ``type``: a number of bytes, or of K, M, G or T bytes (8G)."""

    def parse(text: str) -> int:
        from ...kernels.limits import parse_size

        try:
            return parse_size(text, what)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def add_old_name(parser, old: str, option: argparse.Action) -> None:
    """``old``, an earlier spelling of ``option`` (docs/glossary.md: the vocabulary): still
    taken, no longer shown in --help."""
    parser.add_argument(old, dest=option.dest, type=option.type, choices=option.choices,
                        metavar=option.metavar, default=argparse.SUPPRESS,
                        help=argparse.SUPPRESS)


def add_threads_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=natural("--threads"), metavar="T",
                        help="threads on the sequence (default: the cores present, working "
                        "as a crew only where a timed trial finds it faster than one thread; "
                        "the same values with any number)")


def threads_of(args) -> int:
    """--threads, or as many as the kernel takes (it runs no more than the cores this
    process may run on); ValueError past the kernel's limit."""
    from ...kernels.limits import THREADS

    return THREADS.high if args.threads is None else THREADS.check(args.threads, "--threads")


def add_game_option(parser: argparse.ArgumentParser) -> None:
    option = parser.add_argument("--game", "-g", default="kayles-xox", help=GAME_HELP)
    option.completer = _game_names  # type: ignore[attr-defined]  # shell completion


def add_json_option(parser, what: str, detail: str = "") -> None:
    """--json: print the answer as one JSON ``what`` (an object, an array, a value)."""
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON {what}" + (f" ({detail})" if detail else ""))


def _game_names(**_) -> list[str]:
    """What argcomplete offers after --game: the named games."""
    from ...engine.rules import GAMES

    return list(GAMES)


def open_sequence(name: str | Game, cached: bool = True, most: int | None = None) -> Sequence:
    """The Sequence of a game (a Game, or its name or code), with a progress bar on a
    terminal.

    ``cached``: start from a proof in the user's cache when there is one
    (``kayles.storage.proof_cache``; ``most``: one that needed at most that many values);
    a saved run (--save, --resume) computes its own table.
    """
    from ...engine.codes import get_game
    from ..progress import sequence_bar

    game = get_game(name) if isinstance(name, str) else name
    if cached:
        from ...storage.proof_cache import sequence as from_cache

        sequence = from_cache(game, most)
    else:
        from ...engine.sequence import Sequence

        sequence = Sequence(game)
    sequence.progress = sequence_bar(f"{sequence.game.name}: computing")
    return sequence


def end_progress(sequence: Sequence) -> None:
    """Close the sequence's progress bar, if it has one."""
    if sequence.progress is not None:
        sequence.progress.close()
        sequence.progress = None


def dump_json(value, out) -> None:
    out.write(json.dumps(value) + "\n")


def heap_move_json(move: HeapMove | None, heaps: list[int]) -> dict | None:
    if move is None:
        return None
    return {"heap": move.index + 1, "size": move.size, "becomes": list(move.parts),
            "position": move.apply(heaps)}
