"""``kayles turning``: coin-turning games, a strip or a 2-D board, its value and winning move.

The work is ``kayles.analysis.games.turning``'s; here the arguments are read and the answer
written (text, or one JSON object).
"""

from __future__ import annotations

import argparse

from ...errors import InputError
from .._frontend import read_text
from ._shared import add_json_option, dump_json, natural

__all__ = ["register"]

TURNING_FORMAT = """\
CODE: a turning code (CGSuite's): a count of coins a move turns (3), a range (1-3, 2+)
and modifiers C (consecutive), E (equally spaced), S (symmetric), F (the leftmost coin
of the strip among them), C(n) (within n adjacent coins), elements joined by commas;
or a name: {names}.  The rightmost coin turned goes from heads to tails.

STRIP: h (heads) and t (tails), the leftmost coin first (position 1); - reads it from
standard input (white space around it ignored: a strip of millions of coins is longer
than a command line takes).  Prints the value and the coins a winning move turns
(1-based positions), or 'no winning move'.

2-D: CODE1xCODE2 (1-2x1-2 is Turning Corners) or {products}; BOARD: rows of h and t
joined by '/', the top row first (row 1, column 1 the top-left coin).  A move turns the
coins S1 x S2 of a move S1 of the first game (rows) and S2 of the second (columns).  The
winning move's coins print as row,column.

--json prints {{"value": V, "move": [positions] or null}} (2-D: [[row, column], ...])."""


def _epilog() -> str:
    """The help's last part, with the named games (made when help is shown: building the
    parser loads no game)."""
    from ...analysis.games.turning import NAMED, PRODUCTS

    return TURNING_FORMAT.format(names=", ".join(NAMED), products=", ".join(PRODUCTS))


def register(sub) -> None:
    p = sub.add_parser("turning", help="coin-turning games (Mock Turtles, Ruler, Turnips, "
                       "Turning Corners, ...): value and winning move",
                       description="The value of a strip of coins (or a 2-D board) of a "
                       "coin-turning game, by its heap representation (and the tartan "
                       "theorem in 2-D), and a winning move.",
                       epilog=_epilog,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("code", metavar="CODE", help="a turning code, a name, or CODE1xCODE2")
    p.add_argument("position", metavar="STRIP", nargs="?",
                   help="the coins: h and t (a board: rows joined by '/')")
    p.add_argument("--values", metavar="N", type=natural("--values"),
                   help="print the heap values G(1), ..., G(N) of a 1-D code instead")
    add_json_option(p, "object")
    p.set_defaults(handler=command_turning)


def command_turning(args, out) -> None:
    from ...analysis.games import turning

    two_d = args.code.strip().lower() in turning.PRODUCTS or (
        "x" in args.code.lower() and args.code.strip().lower() not in turning.NAMED)
    if args.values is not None:
        if args.position is not None or two_d:
            raise InputError("--values N goes with a 1-D code alone (no STRIP)")
        game = turning.Turning(args.code)
        values = game.values(args.values + 1)[1:]
        if args.json:
            dump_json(values, out)
        else:
            out.write(" ".join(map(str, values)) + "\n")
        return
    if args.position is None:
        raise InputError("give a STRIP of h and t (a board: rows joined by '/'), or --values N")
    if args.position == "-":
        args.position = read_text("-").strip()
    if two_d:
        game = turning.tartan(args.code)
        board = turning.parse_board(args.position)
        value, move = game.value(board), game.winning_move(board)
        shown = None if move is None else [list(coin) for coin in move]
        text = " ".join(f"{x},{y}" for x, y in move) if move else ""
    else:
        if "/" in args.position:
            raise InputError("a board (rows joined by '/') goes with a 2-D game CODE1xCODE2")
        game = turning.Turning(args.code)
        heads = turning.parse_strip(args.position)
        value, move = game.value(heads), game.winning_move(heads)
        shown = move
        text = " ".join(map(str, move)) if move else ""
    if args.json:
        dump_json({"value": value, "move": shown}, out)
        return
    out.write(f"value {value}\n" + (f"turn {text}\n" if move else "no winning move\n"))
