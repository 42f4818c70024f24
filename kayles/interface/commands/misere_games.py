"""Misère subcommands: ``genus``, ``quotient`` and the ``--misere`` side of ``move``."""

from __future__ import annotations

from ...errors import InputError, ResourceError
from ._shared import (
    add_game_option,
    add_json_option,
    add_old_name,
    dump_json,
    heap_move_json,
    natural,
    size,
)

__all__ = [
    "add_budget_option", "command_genus", "command_misere_move", "command_quotient", "register",
]


def add_budget_option(parser) -> None:
    from ...kernels.constants import DEFAULT_BUDGET

    parser.add_argument("--budget", type=natural("BUDGET"), default=DEFAULT_BUDGET, metavar="N",
                        help=f"store at most N positions (default {DEFAULT_BUDGET}); past it, "
                        "an error, never a guess")


def _budget_hint(command):
    """A search stopped by its budget says which option raises it."""

    def run(args, out) -> None:
        try:
            command(args, out)
        except ResourceError as exc:
            if "budget" not in str(exc):
                raise
            raise ResourceError(f"{exc}; a larger --budget (now {args.budget}) may reach it "
                                "(more memory, more time)") from None

    run.__doc__ = command.__doc__
    return run


def register(sub) -> None:
    p = sub.add_parser("genus", help="Conway's genus of each heap 0..N (misère play)",
                       description="Print the genus g^abc... of each single heap 0..N: g the "
                       "normal-play value, a the misère value, b, c, ... the misère values "
                       "with one, two, ... nim heaps *2 added, written until they alternate "
                       "(proved by the search). Values of 10 or more: g^(a,b,c).")
    p.add_argument("n", metavar="N", type=natural(), help="the largest heap")
    add_game_option(p)
    add_budget_option(p)
    add_json_option(p, "array")
    p.set_defaults(handler=command_genus)

    p = sub.add_parser("quotient", help="the misère quotient of heaps 1..N (Plambeck-Siegel)",
                       description="Print the misère quotient of the game restricted to heaps "
                       "up to N: its order, a presentation (generators a, b, ... for heaps "
                       "in size order, relations as a complete rewriting system), its "
                       "P-portion and the class of each heap 0..N. Built heap by heap "
                       "(Plambeck-Siegel) and proved, not sampled; once the heaps' classes "
                       "are provably periodic the quotient is solved (it holds for every "
                       "heap) and the search stops. A quotient too large for the search "
                       "is an error.")
    add_game_option(p)
    add_old_name(p, "--max-heap", p.add_argument(
        "--to", type=natural("--to"), metavar="N", dest="max_heap",
        help="the largest heap in the positions, a heap beyond the search an error "
        "(default: heap by heap till the quotient is solved, as far as the search goes, at "
        "most 200)"))
    from ...kernels.constants import QUOTIENT_STATES

    add_old_name(p, "--budget", p.add_argument(
        "--states", type=natural("--states"), default=QUOTIENT_STATES, metavar="N",
        dest="budget", help=f"let one walk visit at most N states (default "
        f"{QUOTIENT_STATES}); past it, an error, never a guess"))
    p.add_argument("--memory", type=size("--memory"), metavar="SIZE",
                   help="let one table or walk use at most SIZE bytes (8G, 500M; default: "
                   "half of KAYLES_MEMORY or of the memory available); past it, an error")
    p.add_argument("--progress", action="store_true",
                   help="write a line to stderr as each heap is proved: its heap, the "
                   "order, |P| and the seconds it took")
    add_json_option(p, "object")
    p.set_defaults(handler=command_quotient)


@_budget_hint
def command_genus(args, out) -> None:
    from ...analysis.misere import genera
    from ...engine.codes import get_game

    game = get_game(args.game)
    found = genera(args.n, game, args.budget)
    if args.json:
        dump_json([{"heap": n, "genus": str(g), "normal": g.normal, "misere": list(g.misere)}
                   for n, g in enumerate(found)], out)
        return
    for n, g in enumerate(found):
        out.write(f"{n} {g}\n")


@_budget_hint
def command_quotient(args, out) -> None:
    from ...analysis.quotient import REACH, quotient
    from ...engine.codes import get_game

    report = _progress() if args.progress else None
    if args.max_heap is None:
        q = quotient(get_game(args.game), REACH, args.budget, as_far_as_it_goes=True,
                     memory=args.memory, progress=report)
    else:
        q = quotient(get_game(args.game), args.max_heap, args.budget, memory=args.memory,
                     progress=report)
    beyond = None if q.beyond is None else {"heap": q.beyond[0], "why": q.beyond[1]}
    tame = q.tame()  # builds misère Nim's quotient of the same order: once
    solved = None
    if q.solved is not None:
        at, period, start = q.solved
        solved = {"at_heap": at, "period": period, "preperiod": start}
    if args.json:
        dump_json({"game": q.game.name, "max_heap": q.max_heap, "order": q.order,
                   "p_size": q.p_size, "presentation": q.presentation(),
                   "generators": {letter: heap for letter, heap in q.letters},
                   "relations": [list(r) for r in q.relations], "elements": q.words,
                   "p_portion": q.p_words(), "heaps": [q.words[c] for c in q.heaps],
                   "solved": solved, "tame": tame, "beyond": beyond}, out)
        return
    named = f" (tame: {tame})" if tame else ""
    out.write(f"{q.game.name}, heaps up to {q.max_heap}: misère quotient of order {q.order}"
              f"{named}\n")
    out.write(_wrapped(f"presentation: {q.presentation()}"))
    out.write(_wrapped(f"generators: "
                       f"{', '.join(f'{x} = heap {h}' for x, h in q.letters) or 'none'}"))
    out.write(_wrapped(f"P-portion ({q.p_size}): {{{', '.join(q.p_words())}}}"))
    if solved is None:
        out.write(f"heaps 0..{q.max_heap}: {' '.join(q.words[c] for c in q.heaps)}\n")
        if beyond is not None:
            out.write(f"stopped at heap {beyond['heap']}: {beyond['why']}\n")
        return
    at, period, start = q.solved
    out.write(f"solved at heap {at}: period {period}, preperiod {start} (the quotient of "
              "every heap size)\n")
    out.write(f"heaps 0..{start - 1}: {' '.join(q.words[c] for c in q.heaps[:start])}\n")
    cycle = [q.words[q.heap_class(h)] for h in range(start, start + period)]
    out.write(f"heaps {start}.. repeat every {period}: {' '.join(cycle)}\n")


def _wrapped(line: str, width: int = 88) -> str:
    """A long line (a large quotient's presentation: thousands of characters) cut after its
    commas, never inside a relation, into lines of about ``width``, the later ones
    indented; --json has it whole."""
    lines, current = [], ""
    for item in line.split(", "):
        if current and len(current) + 3 + len(item) > width:  # ", " now, "," if cut
            lines.append(current + ",")
            current = "    " + item
        else:
            current = f"{current}, {item}" if current else item
    return "\n".join([*lines, current]) + "\n"


def _progress():
    """A quotient's progress: 'heap H: order N, |P| K, S s' on stderr per heap."""
    import sys
    import time

    last = [time.perf_counter()]

    def report(heap: int, order: int, p_size: int) -> None:
        now = time.perf_counter()
        sys.stderr.write(f"heap {heap}: order {order}, |P| {p_size}, {now - last[0]:.2f} s\n")
        sys.stderr.flush()
        last[0] = now

    return report


@_budget_hint
def command_misere_move(args, out) -> None:
    from ...analysis.heaps import looks_like_heaps, parse_heaps
    from ...analysis.misere import Solver
    from ...analysis.quotient import misere_answer
    from ...engine.codes import get_game

    game = get_game(args.game)
    if not looks_like_heaps(args.position):
        if not game.on_rows:
            raise InputError(f"{game.name} is played on heaps: give heap sizes")
        if len(args.position) != 1:
            raise InputError("a row is one POSITION of 'x' and '.' (or give heap sizes)")
        text = args.position[0]
        after, result = misere_answer(Solver(game, args.budget), text)
        if args.json:
            dump_json({"game": game.name, "position": text, "play": "misere",
                       "outcome": result, "move": after}, out)
        else:
            out.write((after if after is not None else _no_move(result)) + "\n")
        return
    position = parse_heaps(" ".join(args.position))
    move, result = misere_answer(Solver(game, args.budget), position)
    if args.json:
        dump_json({"game": game.name, "heaps": position, "play": "misere", "outcome": result,
                   "move": heap_move_json(move, position)}, out)
    else:
        out.write((move.text() if move is not None else _no_move(result)) + "\n")




def _no_move(result: str) -> str:
    """LOSS in a P-position; WIN when there is no move at all (the opponent moved last)."""
    return "LOSS" if result == "P" else "WIN"
