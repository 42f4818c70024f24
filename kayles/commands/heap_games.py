"""Subcommands on heap games: grundy, period, move, games."""

from __future__ import annotations

from .._output import write_nimbers
from ..rules import GAMES
from ..sequence import DIRECT_LIMIT, PROOF_LIMIT
from ._shared import (
    add_game_option,
    dump_json,
    end_progress,
    heap_move_json,
    heap_move_text,
    natural,
    open_sequence,
)


def register(sub) -> None:
    p = sub.add_parser("grundy", help="print [G(0), ..., G(N)]", description="Print the "
                       "nim-sequence [G(0), G(1), ..., G(N)] of a heap game on one line.")
    p.add_argument("n", metavar="N", type=natural(), help="the last heap size")
    add_game_option(p)
    p.set_defaults(run=run_grundy)

    p = sub.add_parser("period", help="prove the period of a nim-sequence",
                       description="Compute the nim-sequence until the octal periodicity "
                       "theorem proves a period, or report that none was proved.")
    add_game_option(p)
    p.add_argument("--max", type=natural(), default=PROOF_LIMIT, metavar="N",
                   help=f"compute at most N values (default {PROOF_LIMIT})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_period)

    p = sub.add_parser("move", help="the winning move of a position",
                       description="Print the position after the winning move, or LOSS. "
                       "A position is a list of heap sizes (any game: the answer names the "
                       "heap and what it becomes) or, for games played on rows, one string "
                       "of 'x' (pin) and '.' (gap).")
    p.add_argument("position", metavar="POSITION", nargs="+", help="a row, or heap sizes")
    add_game_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_move)

    p = sub.add_parser("games", help="list the named games and their rules",
                       description="List the named games and their move kinds.")
    p.add_argument("--json", action="store_true", help="print one JSON array")
    p.set_defaults(run=run_games)


def run_grundy(args, out) -> None:
    sequence = open_sequence(args.game)
    try:
        sequence.segments(args.n + 1)
    finally:
        end_progress(sequence)
    write_nimbers(sequence, args.n, out)


def run_period(args, out) -> int:
    if args.max > DIRECT_LIMIT:
        raise ValueError(f"--max is at most the direct limit {DIRECT_LIMIT}")
    sequence = open_sequence(args.game)
    game = sequence.game
    try:
        found = sequence.prove(args.max)
    finally:
        end_progress(sequence)
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
        dump_json(report, out)
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

    sequence = open_sequence(args.game)
    if not heaps.looks_like_heaps(args.position):
        if not sequence.game.on_rows:
            raise ValueError(f"{sequence.game.name} is played on heaps: give heap sizes")
        if len(args.position) != 1:  # several words: heap sizes, one of them bad
            heaps.parse_heaps(" ".join(args.position))
            raise ValueError("a row is one POSITION of 'x' and '.' (or give heap sizes)")
        after = row.winning_move(args.position[0], sequence)
        if args.json:
            dump_json({"game": sequence.game.name, "position": args.position[0],
                       "move": after}, out)
        else:
            out.write(("LOSS" if after is None else after) + "\n")
        return
    position = heaps.parse_heaps(" ".join(args.position))
    move = heaps.winning_move(position, sequence)
    if args.json:
        dump_json({"game": sequence.game.name, "heaps": position,
                   "move": heap_move_json(move, position)}, out)
    elif move is None:
        out.write("LOSS\n")
    else:
        out.write(heap_move_text(move) + "\n")


def run_games(args, out) -> None:
    if args.json:
        dump_json([{"name": g.name, "summary": g.summary,
                    "moves": [k.describe() for k in g.kinds]} for g in GAMES.values()], out)
        return
    for game in GAMES.values():
        out.write(f"{game.name:16} {game.summary}\n")
        for kind in game.kinds:
            out.write(f"{'':16}   - {kind.describe()}\n")
    out.write("\nAny octal code works too, e.g. --game 0.77, --game .07, --game 4.07.\n")
