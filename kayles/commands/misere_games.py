"""Misère subcommands: ``genus`` and the ``--misere`` side of ``move``."""

from __future__ import annotations

from ._shared import add_game_option, dump_json, heap_move_json, heap_move_text, natural

__all__ = ["register", "run_genus", "run_misere_move"]


def _add_budget_option(parser) -> None:
    from ..misere import DEFAULT_BUDGET

    parser.add_argument("--budget", type=natural("BUDGET"), default=DEFAULT_BUDGET, metavar="N",
                        help=f"store at most N positions (default {DEFAULT_BUDGET}); past it, "
                        "an error, never a guess")


def register(sub) -> None:
    p = sub.add_parser("genus", help="Conway's genus of each heap 0..N (misère play)",
                       description="Print the genus g^abc... of each single heap 0..N: g the "
                       "normal-play value, a the misère value, b, c, ... the misère values "
                       "with one, two, ... nim heaps *2 added, written until they alternate "
                       "(proved by the search). Values of 10 or more: g^(a,b,c).")
    p.add_argument("n", metavar="N", type=natural(), help="the largest heap")
    add_game_option(p)
    _add_budget_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON array")
    p.set_defaults(run=run_genus)


def run_genus(args, out) -> None:
    from ..misere import genera
    from ..rules import get_game

    game = get_game(args.game)
    found = genera(args.n, game, args.budget)
    if args.json:
        dump_json([{"heap": n, "genus": str(g), "normal": g.normal, "misere": list(g.misere)}
                   for n, g in enumerate(found)], out)
        return
    for n, g in enumerate(found):
        out.write(f"{n} {g}\n")


def run_misere_move(args, out) -> None:
    from .. import misere
    from ..heaps import looks_like_heaps, parse_heaps
    from ..rules import get_game

    game = get_game(args.game)
    if not looks_like_heaps(args.position):
        if not game.on_rows:
            raise ValueError(f"{game.name} is played on heaps: give heap sizes")
        if len(args.position) != 1:
            raise ValueError("a row is one POSITION of 'x' and '.' (or give heap sizes)")
        text = args.position[0]
        after = misere.row_winning_move(text, game)
        result = "N" if after is not None else misere.row_outcome(text, game)
        if args.json:
            dump_json({"game": game.name, "position": text, "play": "misere",
                       "outcome": result, "move": after}, out)
        else:
            out.write((after if after is not None else _no_move(result)) + "\n")
        return
    position = parse_heaps(" ".join(args.position))
    move = misere.heaps_winning_move(position, game)
    result = "N" if move is not None else misere.outcome(position, game)
    if args.json:
        dump_json({"game": game.name, "heaps": position, "play": "misere", "outcome": result,
                   "move": heap_move_json(move, position)}, out)
    else:
        out.write((heap_move_text(move) if move is not None else _no_move(result)) + "\n")


def _no_move(result: str) -> str:
    """LOSS in a P-position; WIN when there is no move at all (the opponent moved last)."""
    return "LOSS" if result == "P" else "WIN"
