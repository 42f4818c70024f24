"""Grundy's game (seed 003): the engine's nimbers against the seed's recursive P/N."""

from __future__ import annotations

import itertools
import json
from functools import cache

import pytest

from kayles.analysis.games import grundys_game

from conftest import kayles_said

# OEIS A002188 is the nim-sequence; these are its zeros up to 1300.
KNOWN_P = [0, 1, 2, 4, 7, 10, 20, 23, 26, 50, 53, 270, 273, 276, 282, 285, 288, 316, 334, 337,
           340, 346, 359, 362, 365, 386, 389, 392, 566, 630, 633, 636, 639, 673, 676, 682, 685,
           923, 926, 929, 932, 1222]


def position(heaps) -> tuple[int, ...]:
    """The seed's GrundyPosition invariant: only heaps of 3 or more, as a multiset."""
    return tuple(sorted(h for h in heaps if h >= 3))


def get_moves(pos: tuple[int, ...]):
    """Split one heap into two unequal non-empty heaps (the seed's getMoves)."""
    for i, h in enumerate(pos):
        rest = pos[:i] + pos[i + 1 :]
        for a in range(1, (h + 1) // 2):
            yield position(rest + (a, h - a))


@cache
def is_p(pos: tuple[int, ...]) -> bool:
    """The seed's co-recursive definition: P iff every move leads to an N-position."""
    return all(not is_p(after) for after in get_moves(pos))


def test_single_heap_p_positions():
    assert grundys_game.p_positions(1300) == KNOWN_P
    assert grundys_game.p_positions(30) == [n for n in range(31) if is_p(position([n]))]


def test_multisets_against_the_seed_recursion():
    checked = 0
    for count in (1, 2, 3):
        for heaps in itertools.combinations_with_replacement(range(0, 15), count):
            expect = "P" if is_p(position(heaps)) else "N"
            assert grundys_game.outcome(list(heaps)) == expect, heaps
            move = grundys_game.winning_move(list(heaps))
            assert (move is None) == (expect == "P")
            if move is not None:
                a, b = move.parts
                assert a + b == heaps[move.index] and 0 < a < b
                assert is_p(position(move.apply(list(heaps)))), (heaps, move)
            checked += 1
    assert checked > 600


def test_engine_tie_break():
    move = grundys_game.winning_move([7, 5])  # G(7) = 0, G(5) = 2: split the 5
    assert (move.index, move.size, move.parts) == (1, 5, (1, 4))
    assert grundys_game.nimber(5) == 2 and grundys_game.nim_sum([7, 5]) == 2


def test_cli():
    done = kayles_said("grundys", "7", "5")
    assert (done.returncode, done.stdout, done.stderr) == (0, "N\nheap 2: 5 -> 1 + 4\n", "")
    assert kayles_said("grundys", "7").stdout == "P\n"
    assert kayles_said("grundys", "1,2", "4").stdout == "P\n"
    assert kayles_said("grundys", "--p-positions", "30").stdout == "0\n1\n2\n4\n7\n10\n20\n23\n26\n"


def test_cli_json():
    report = json.loads(kayles_said("grundys", "4", "5", "--json").stdout)
    assert report == {"heaps": [4, 5], "outcome": "N", "nim_sum": 2,
                      "move": {"heap": 2, "size": 5, "becomes": [1, 4], "position": [4, 1, 4]}}
    assert json.loads(kayles_said("grundys", "7", "--json").stdout)["move"] is None
    assert json.loads(kayles_said("grundys", "--p-positions", "10", "--json").stdout) == [
        0, 1, 2, 4, 7, 10]


@pytest.mark.parametrize(
    "args",
    [("grundys",), ("grundys", "x"), ("grundys", "-3"), ("grundys", "5", "--p-positions", "9"),
     ("grundys", "--p-positions", "-1"), ("grundys", "--p-positions")],
)
def test_cli_errors(args):
    done = kayles_said(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("kayles grundys")
