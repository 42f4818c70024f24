"""Subcommands on heap games: grundy, period, move, games."""

from __future__ import annotations

import json
import sys

from .._output import write_nimbers
from ..cli import parse_count
from ..rules import GAMES, get_game
from ..sequence import PROOF_LIMIT, Sequence

GAME_HELP = "a game name (see 'kayles games') or an octal code such as 0.77 (default: kayles-xox)"


def register(sub) -> None:
    p = sub.add_parser("grundy", help="print [G(0), ..., G(N)]", description="Print the "
                       "nim-sequence [G(0), G(1), ..., G(N)] of a heap game on one line.")
    p.add_argument("n", metavar="N", type=_count, help="the last heap size")
    p.add_argument("--game", "-g", default="kayles-xox", help=GAME_HELP)
    p.set_defaults(run=run_grundy)

    p = sub.add_parser("period", help="prove the period of a nim-sequence",
                       description="Compute the nim-sequence until the octal periodicity "
                       "theorem proves a period, or report that none was proved.")
    p.add_argument("--game", "-g", default="kayles-xox", help=GAME_HELP)
    p.add_argument("--max", type=_count, default=PROOF_LIMIT, metavar="N",
                   help=f"compute at most N values (default {PROOF_LIMIT})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_period)

    p = sub.add_parser("move", help="the winning move of a position",
                       description="Print the position after the winning move, or LOSS. "
                       "For games on rows a position is a string of 'x' (pin) and '.' (gap); "
                       "for games that split heaps (Grundy's game, 4.xx codes) it is a list "
                       "of heap sizes, and the answer names the heap and what it becomes.")
    p.add_argument("position", metavar="POSITION", nargs="+", help="a row, or heap sizes")
    p.add_argument("--game", "-g", default="kayles-xox", help=GAME_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_move)

    p = sub.add_parser("games", help="list the named games and their rules",
                       description="List the named games and their move kinds.")
    p.add_argument("--json", action="store_true", help="print one JSON array")
    p.set_defaults(run=run_games)


def _count(text: str) -> int:
    import argparse

    try:
        return parse_count(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _sequence(name: str) -> Sequence:
    sequence = Sequence(get_game(name))
    if sys.stderr.isatty():
        sequence.progress = _show_progress
    return sequence


def _show_progress(done: int, wanted: int) -> None:
    sys.stderr.write(f"\r  computing: {done:,} of {wanted:,} values ")
    sys.stderr.flush()


def _end_progress(sequence: Sequence) -> None:
    if sequence.progress is not None:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


def run_grundy(args, out) -> None:
    sequence = _sequence(args.game)
    try:
        sequence.segments(args.n + 1)
    finally:
        _end_progress(sequence)
    write_nimbers(sequence, args.n, out)


def run_period(args, out) -> int:
    sequence = _sequence(args.game)
    game = sequence.game
    try:
        found = sequence.prove(args.max)
    finally:
        _end_progress(sequence)
    report = {
        "game": game.name,
        "proved": found is not None,
        "preperiod": found.preperiod if found else None,
        "period": found.period if found else None,
        "values": found.values if found else len(sequence),
    }
    if not game.provable:
        report["reason"] = "the octal periodicity theorem does not cover unequal splits"
    if args.json:
        out.write(json.dumps(report) + "\n")
    elif found:
        out.write(f"{game.name}: period {found.period} from heap {found.preperiod} "
                  f"(proved with {found.values} values)\n")
    elif not game.provable:
        out.write(f"{game.name}: no proof possible: {report['reason']}\n")
    else:
        out.write(f"{game.name}: no period proved within {len(sequence)} values\n")
    return 0


def run_move(args, out) -> None:
    from .. import heaps, row

    sequence = _sequence(args.game)
    if sequence.game.on_rows:
        if len(args.position) != 1:
            raise ValueError("a row is one POSITION of 'x' and '.'")
        after = row.winning_move(args.position[0], sequence)
        if args.json:
            out.write(json.dumps({"game": sequence.game.name, "position": args.position[0],
                                  "move": after}) + "\n")
        else:
            out.write(("LOSS" if after is None else after) + "\n")
        return
    position = heaps.parse_heaps(" ".join(args.position))
    move = heaps.winning_move(position, sequence)
    if args.json:
        found = None if move is None else {"heap": move.index + 1, "size": move.size,
                                           "becomes": list(move.parts),
                                           "position": move.apply(position)}
        out.write(json.dumps({"game": sequence.game.name, "heaps": position,
                              "move": found}) + "\n")
    elif move is None:
        out.write("LOSS\n")
    else:
        becomes = " + ".join(map(str, move.parts)) or "nothing"
        out.write(f"heap {move.index + 1}: {move.size} -> {becomes}\n")


def run_games(args, out) -> None:
    if args.json:
        out.write(json.dumps([{"name": g.name, "summary": g.summary,
                               "moves": [k.describe() for k in g.kinds]}
                              for g in GAMES.values()]) + "\n")
        return
    for game in GAMES.values():
        out.write(f"{game.name:16} {game.summary}\n")
        for kind in game.kinds:
            out.write(f"{'':16}   - {kind.describe()}\n")
    out.write("\nAny octal code works too, e.g. --game 0.77, --game .07, --game 4.07.\n")
