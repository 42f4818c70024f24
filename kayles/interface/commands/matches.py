"""``kayles play``: a game in the terminal against perfect play.

One line per turn on standard output, so a script (stdin not a terminal: one
move a line, no prompt) drives a whole game:

    start: xxxxxxx (kayles-xox, normal play: the last move wins; you move first)
    hint: pin 4 => xxx.xxx                      (with --hint, before each of your moves)
    you: pin 4 => xxx.xxx
    me: pin 1 => .xx.xxx
    illegal: pin 1 is down already; try again, or type 'help'
    ...
    I have no move: you win.

At a terminal (or with --numbers) each position on a row is then drawn again under
the numbers of its pins, so nobody counts pins by hand:

    start: xxxxxxxxxxxx (kayles-xox, normal play: the last move wins; you move first)
               111
      123456789012
      xxxxxxxxxxxx

A game that ends (someone wins, or the user types 'quit') exits with status 0;
so does the end of input in the middle of a game ('end of input: game
abandoned').  A bad starting position or option is one stderr line, status 2.
"""

from __future__ import annotations

import sys

from ...errors import InputError
from ._shared import add_game_option, add_old_name, end_progress, open_sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...analysis.play import GameMatch, Match, Move

__all__ = ["register"]

DEFAULT_PINS = 10  # the row (or heap) played when no POSITION is given
PROMPT = "your move> "
PLAY_DESCRIPTION = """\
Play in the terminal against perfect play: the program answers each of your
moves with the engine's winning move (when it has none, it takes the fewest
pins, leftmost).  POSITION is a row of 'x' (pin) and '.' (gap) for games
played on rows, or heap sizes for any game (default: 10 pins, or one heap of
10).  With standard input not a terminal, reads one move a line and prints one
line per turn."""


MOVE_HELP = """\
Moves on a row of pins (pins are numbered from 1, left to right):
  4          take pin 4
  3 5        take pins 3 and 5 (in Kayles-xox: the outer two of pins 3, 4, 5)
  3-4        take the adjacent pins 3 to 4
  xx.x.xx    type the whole row as it is after your move
Moves on heaps (heaps are numbered from 1, left to right):
  heap 2 -> 1 + 4    heap 2 becomes heaps of 1 and 4 ('2: 1 4' says the same)
  heap 2 -> nothing  heap 2 goes entirely ('2:' says the same)
  7 1 4 3            type the whole list of heaps after your move ('nothing': none left)
Also: 'help' shows this, 'quit' resigns."""

GAME_MOVE_HELP = """\
Type the position after your move (as POSITION is written), or #N for the N-th move
above; 'quit' resigns."""
DESCRIBED_MOVE_HELP = """\
Type a move as listed above (or #N for the N-th); 'quit' resigns."""


def register(sub) -> None:
    p = sub.add_parser(
        "play", help="play a game against perfect play",
        description=PLAY_DESCRIPTION,
        epilog=MOVE_HELP, formatter_class=_raw_formatter())
    p.add_argument("position", metavar="POSITION", nargs="*", help="a row, or heap sizes")
    add_game_option(p)
    p.add_argument("--misere", "--misère", action="store_true",
                   help="misère play: whoever makes the last move loses")
    add_old_name(p, "--first", p.add_argument(
        "--starts", choices=("you", "me"), default="you", dest="first",
        help="who moves first: you (default) or me (the program)"))
    p.add_argument("--hint", action="store_true",
                   help="before each of your moves, show a winning move when there is one")
    p.add_argument("--numbers", action=_boolean_option(), default=None,
                   help="on a row, number the pins under each position (default: when "
                        "standard input is a terminal, so one line a turn for scripts)")
    p.set_defaults(handler=command_play)


def _boolean_option():
    import argparse

    return argparse.BooleanOptionalAction


def _raw_formatter():
    import argparse

    return argparse.RawDescriptionHelpFormatter


def command_play(args, out) -> int:
    from ...analysis.games.families import is_game_spec

    match = _game_match(args) if is_game_spec(args.game) else _heap_match(args)
    yours = args.first == "you"
    rule = "misere play: the last move loses" if args.misere else "normal play: the last move wins"
    first = "you move first" if yours else "I move first"
    read = _reader()
    numbers = sys.stdin.isatty() if args.numbers is None else args.numbers

    def show(line: str) -> None:
        _say(out, line)
        if numbers and match.on_rows and match.position:
            for ruler in pin_numbers(len(match.position)):
                _say(out, ruler)
            _say(out, "  " + match.position)

    name = args.game if is_game_spec(args.game) else match.game.name
    show(f"start: {match.text(match.position)} ({name}, {rule}; {first})")
    while match.has_move():
        if not yours:
            show(f"me: {_turn(match, match.reply())}")
            yours = True
            continue
        if args.hint:
            best = match.best()
            _say(out, "hint: " + (_turn(match, best, play=False) if best else
                                  "no winning move here (every move loses against perfect play)"))
        while True:
            line = read()
            if line is None:
                _say(out, "end of input: game abandoned")
                return 0
            word = line.strip().lower()
            if word in ("help", "?", "h"):
                _say(out, f"{match.move_list()}\n{match.help(GAME_MOVE_HELP, DESCRIBED_MOVE_HELP)}"
                     if hasattr(match, "move_list") else MOVE_HELP)
                continue
            if word in ("quit", "q", "resign", "exit"):
                _say(out, "you resign: I win.")
                return 0
            try:
                move = match.parse(line)
            except ValueError as exc:
                _say(out, f"illegal: {exc}; try again, or type 'help'")
                continue
            break
        show(f"you: {_turn(match, move)}")
        yours = False
    you_win = yours == args.misere  # normal play: whoever cannot move loses; misere: wins
    who = "you have no move" if yours else "I have no move"
    _say(out, f"{who}: {'you win' if you_win else 'I win'}."
         + (" (misere: the last move loses)" if args.misere else ""))
    return 0


def _heap_match(args) -> Match:
    from ...analysis.play import Match, parse_position

    sequence = open_sequence(args.game)
    game = sequence.game
    words = args.position or ["x" * DEFAULT_PINS if game.on_rows else str(DEFAULT_PINS)]
    try:
        return Match(sequence, parse_position(words, game), misere=args.misere)
    finally:
        end_progress(sequence)


def _game_match(args) -> GameMatch:
    """A match of a family or of a game in a file (``kayles solve``'s GAME)."""
    from ...analysis.games.families import GameSource, parse_position
    from ...analysis.play import GameMatch
    from ...analysis.solver import Solver

    game = GameSource.parse(args.game).load()
    if not args.position:
        raise InputError(f"give the starting POSITION of {args.game}")
    position = parse_position(game, " ".join(args.position))
    return GameMatch(Solver(game), position, misere=args.misere)


def pin_numbers(pins: int) -> list[str]:
    """The lines that number a row's pins from 1, a column each, indented by two: the
    tens digits (where there are 10 pins or more: blank below 10), then the units.

    >>> pin_numbers(12)
    ['           111', '  123456789012']
    """
    lines = []
    for place in range(len(str(pins)) - 1, -1, -1):
        digits = "".join(str(p // 10 ** place % 10) if p >= 10 ** place else " "
                         for p in range(1, pins + 1))
        lines.append(("  " + digits).rstrip())
    return lines


def _turn(match: Match, move: Move, play: bool = True) -> str:
    """'pin 4 => xxx.xxx' (playing the move unless ``play`` is False)."""
    what = move.what()
    if play:
        match.play(move)
    return f"{what} => {match.text(move.after)}"


def _say(out, line: str) -> None:
    out.write(line + "\n")
    out.flush()


def _reader():
    """A function returning the next line the user typed, or None at the end of input."""
    stdin = sys.stdin
    if stdin is None:
        raise InputError("standard input is closed: play reads your moves from it")
    if stdin.isatty():

        def ask() -> str | None:
            try:
                return input(PROMPT)
            except EOFError:  # Ctrl-D: end the prompt's line first
                sys.stdout.write("\n")
                return None

        return ask

    def next_line() -> str | None:
        line = stdin.readline()
        return line if line else None

    return next_line
