"""Subcommands for the classic games: nim, wythoff, dag, treblecross, grundys-game.

Each handler parses, calls ``kayles.analysis.games``, and writes; FILE arguments take
``-`` for standard input.
"""

from __future__ import annotations

import argparse
from itertools import islice

from ...errors import InputError, counted
from .._frontend import read_text
from ._shared import add_json_option, dump_json, file_name, heap_move_json, natural

__all__ = ["register"]

ANSWERS_PER_WRITE = 4096  # nim answers joined per write: millions of data sets stream

NIM_FORMAT = """\
FILE (the nim.txt format): the first line is the number of data sets n, then
n lines of 2 or more heap sizes separated by spaces.  Blank lines are skipped.
Each data set prints 'Lose Game' or 'Remove K counters from Heap H' (the first
heap, counted from 1, that the winning move can lower).  In misère play a data
set whose heaps are all empty prints 'Win Game': the opponent took the last
counter."""

DAG_FORMAT = """\
FILE: one line per vertex, 'name: successor successor ...' (a sink is 'name:').
Names are any characters except whitespace, ':' and '#'; '#' starts a comment;
blank lines are skipped; every successor needs a line of its own; cycles and
self-loops are fine.  Prints 'name: G' per vertex in file order: G a nim-value,
or inf(K) (infinity with K, the finite values of its successors: inf(0,2), inf()).

--sum V [V ...] puts a token on each V (a vertex may repeat; a move moves one) and
prints the outcome (P: the player to move loses, N: wins, D: a draw), 'value: G'
and, unless P, 'move: V -> W', a best move: to value 0 from N (a win), to a draw
from D.  FILE comes first: --sum takes every word after it.

  # a -> b -> c, and a -> c; d may stay on d for ever, or move to c
  a: b c
  b: c
  c:
  d: d c"""

TREBLECROSS_FORMAT = """\
FILE: the number of cases, then one row of '.' (free) and 'X' (marked) per line.
Each case prints WINNING and, on the next line, the 1-based cells that win
(increasing, one space apart), or LOSING.  Blank lines are skipped."""


def register(sub) -> None:
    """Add nim, wythoff, dag, treblecross and grundys-game."""
    raw = argparse.RawDescriptionHelpFormatter

    p = sub.add_parser("nim", help="Nim and misère Nim on a file of data sets (nim.txt)",
                       description="Bouton's winning move for each data set of FILE.",
                       epilog=NIM_FORMAT, formatter_class=raw)
    p.add_argument("file", metavar="FILE", type=file_name,
                   help="the data file, or - for standard input")
    p.add_argument("--misere", "--misère", action="store_true",
                   help="misère play: whoever takes the last counter loses")
    add_json_option(p, "array")
    p.set_defaults(handler=command_nim)

    p = sub.add_parser("wythoff", help="Wythoff's game: outcome, moves, P-positions, SG values",
                       description="With two piles A B: print P or N and every winning move "
                       "(one per line), exact for piles of any size.  --p-positions N lists "
                       "the P-positions 'a b' with a <= b <= N; --table N prints the true "
                       "Sprague-Grundy values G(i, j) for 0 <= i, j <= N, one row per line.")
    p.add_argument("piles", metavar="PILE", nargs="*", type=natural("a pile"),
                   help="the two piles A B (non-negative integers of any size)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--p-positions", metavar="N", type=natural(),
                      help="list the P-positions with both piles <= N")
    what.add_argument("--table", metavar="N", type=natural(),
                      help="print the SG values for 0..N x 0..N")
    p.add_argument("--sg", action="store_true",
                   help="with A B: also print the SG value G(A, B) (small piles only)")
    add_json_option(p, "value")
    p.set_defaults(handler=command_wythoff)

    p = sub.add_parser("dag", help="Sprague-Grundy values of a digraph, loopy or not; sums",
                       description="Compute the generalized Sprague-Grundy value of every "
                       "vertex of a directed graph (G(v) = mex{G(w) : v -> w} where it "
                       "has no cycle), or of a sum of tokens on its vertices.",
                       epilog=DAG_FORMAT, formatter_class=raw)
    p.add_argument("file", metavar="FILE", type=file_name,
                   help="the graph file, or - for standard input")
    p.add_argument("--sum", nargs="+", metavar="V",
                   help="the sum of a token on each vertex V: outcome, value, best move")
    add_json_option(p, "object", '{vertex: G}, G a number or {"inf": K}; with --sum, '
                    '{"outcome", "value", "move": {"token", "to"} or null}')
    p.set_defaults(handler=command_dag)

    p = sub.add_parser("treblecross", help="winning cells of Treblecross rows",
                       description="For each row, the cells whose marking forces a win "
                       "(first to make three X in a row wins).",
                       epilog=TREBLECROSS_FORMAT, formatter_class=raw)
    p.add_argument("file", metavar="FILE", type=file_name,
                   help="the cases file, or - for standard input")
    add_json_option(p, "array")
    p.set_defaults(handler=command_treblecross)

    p = sub.add_parser("grundys-game", aliases=["grundys"],
                       help="Grundy's game: outcome and winning move, P-positions",
                       description="With heap sizes: print P or N and, for N, the winning "
                       "split as 'heap H: S -> A + B'.  --p-positions N lists the single "
                       "heaps n <= N that are P-positions (G(n) = 0), one per line.  (Its "
                       "nim-sequence: kayles grundy N --game grundys-game; 'grundys' is the "
                       "old name of this command.)")
    p.add_argument("heaps", metavar="HEAP", nargs="*",
                   help="heap sizes (spaces or commas between them)")
    p.add_argument("--p-positions", metavar="N", type=natural(),
                   help="list the single-heap P-positions up to N")
    add_json_option(p, "value")
    p.set_defaults(handler=command_grundys)


# -- nim -----------------------------------------------------------------------


def command_nim(args, out) -> None:
    from ...analysis.games import nim

    data = nim.parse_file(read_text(args.file))
    if args.json:
        report = []
        for number, heaps in data:
            move = nim.winning_move(heaps, args.misere)
            report.append({
                "line": number,
                "heaps": list(heaps),
                "nim_sum": nim.nim_sum(heaps),
                "outcome": nim.outcome(heaps, args.misere),
                "move": None if move is None else {"heap": move.index + 1, "remove": move.remove},
                "answer": nim.seed_answer(heaps, args.misere),
            })
        dump_json(report, out)
        return
    for start in range(0, len(data), ANSWERS_PER_WRITE):
        block = data[start : start + ANSWERS_PER_WRITE]
        out.write("".join(nim.seed_answer(heaps, args.misere) + "\n" for _, heaps in block))


# -- wythoff -------------------------------------------------------------------


def _describe(move, a: int, b: int) -> str:
    x, y = a - move.take_first, b - move.take_second
    if move.take_first and move.take_second:
        what = f"take {move.take_first} from both piles"
    elif move.take_first:
        what = f"take {move.take_first} from pile 1"
    else:
        what = f"take {move.take_second} from pile 2"
    return f"{what} -> ({x}, {y})"


def command_wythoff(args, out) -> None:
    from ...analysis.games import wythoff

    listing = args.p_positions is not None or args.table is not None
    if listing and args.piles:
        raise InputError("give either two piles A B or --p-positions/--table, not both")
    if listing and args.sg:
        raise InputError("--sg goes with two piles A B")
    if args.p_positions is not None:
        pairs = wythoff.p_positions(args.p_positions)
        if args.json:  # streamed, as json.dumps would write it: the list may outgrow memory
            sep = ""
            out.write("[")
            for a, b in pairs:
                out.write(f"{sep}[{a}, {b}]")
                sep = ", "
            out.write("]\n")
        else:
            for a, b in pairs:
                out.write(f"{a} {b}\n")
        return
    if args.table is not None:
        table = wythoff.sg_table(args.table)
        if args.json:
            dump_json(table, out)
            return
        width = len(str(max(map(max, table))))
        out.write("".join(" ".join(f"{g:{width}}" for g in row) + "\n" for row in table))
        return
    if len(args.piles) != 2:
        raise InputError(f"expected two piles A B, got {counted(len(args.piles), 'number')}")
    a, b = args.piles
    value = wythoff.sg_value(a, b) if args.sg else None
    moves = wythoff.winning_moves(a, b)
    if args.json:
        report = {"piles": [a, b], "outcome": "N" if moves else "P"}
        if args.sg:
            report["sg"] = value
        report["moves"] = [{"take": [m.take_first, m.take_second],
                            "leaves": [a - m.take_first, b - m.take_second]} for m in moves]
        dump_json(report, out)
        return
    out.write(("N" if moves else "P") + "\n")
    if args.sg:
        out.write(f"G({a}, {b}) = {value}\n")
    out.write("".join(_describe(m, a, b) + "\n" for m in moves))


# -- dag -----------------------------------------------------------------------


def _value_json(value):
    """A vertex's or a sum's value in JSON: a number, or {"inf": [K, sorted]}."""
    return value if isinstance(value, int) else {"inf": sorted(value.k)}


def command_dag(args, out) -> None:
    from ...analysis.games import digraph

    game = digraph.LoopyGame.from_text(read_text(args.file))
    if args.sum is not None:
        _dag_sum(game, args.sum, args.json, out)
        return
    values = game.values()
    if args.json:
        dump_json({name: _value_json(g) for name, g in values.items()}, out)
        return
    lines = iter(values.items())
    while chunk := "".join(f"{name}: {g}\n" for name, g in islice(lines, LINES_A_WRITE)):
        out.write(chunk)  # millions of vertices: a piece at a time


def _dag_sum(game, tokens: list[str], json: bool, out) -> None:
    value, verdict, move = game.analyse(tokens)
    if json:
        dump_json({"outcome": verdict, "value": _value_json(value),
                   "move": None if move is None else {"token": move[0], "to": move[1]}}, out)
        return
    out.write(f"{verdict}\nvalue: {value}\n")
    if move is not None:
        out.write(f"move: {tokens[move[0]]} -> {move[1]}\n")


# -- treblecross ---------------------------------------------------------------


CELLS_A_WRITE = 1 << 16  # winning cells formatted at once (a row may have millions)
LINES_A_WRITE = 1 << 16  # ... and a graph's vertices


def command_treblecross(args, out) -> None:
    from ...analysis.games import treblecross

    answers = treblecross.answer_file(read_text(args.file))
    if args.json:
        dump_json([{"line": number, "row": row, "winning": bool(cells), "cells": list(cells)}
                   for number, row, cells in answers], out)
        return
    for _, _, cells in answers:
        if not cells:
            out.write("LOSING\n")
            continue
        out.write("WINNING\n")
        for at in range(0, len(cells), CELLS_A_WRITE):  # millions of cells: a piece at a time
            out.write(("" if at == 0 else " ")
                      + " ".join(map(str, cells[at:at + CELLS_A_WRITE])))
        out.write("\n")


# -- grundys -------------------------------------------------------------------


def command_grundys(args, out) -> None:
    from ...analysis.games import grundys_game
    from ...analysis.heaps import parse_heaps

    if args.p_positions is not None:
        if args.heaps:
            raise InputError("give either heap sizes or --p-positions N, not both")
        found = grundys_game.p_positions(args.p_positions)
        if args.json:
            dump_json(found, out)
        else:
            out.write("".join(f"{n}\n" for n in found))
        return
    if not args.heaps:
        raise InputError("give heap sizes, or --p-positions N")
    heaps = parse_heaps(" ".join(args.heaps))
    move = grundys_game.winning_move(heaps)
    outcome = "N" if move else "P"
    if args.json:
        dump_json({"heaps": heaps, "outcome": outcome, "nim_sum": grundys_game.nim_sum(heaps),
                   "move": heap_move_json(move, heaps)}, out)
        return
    out.write(outcome + "\n")
    if move is not None:
        out.write(move.text() + "\n")
