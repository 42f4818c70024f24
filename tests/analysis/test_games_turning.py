"""Coin-turning games: every strip of up to 12 coins (fewer where every set of coins may be
a move) against the brute force of literal moves (tests/oracle.py), Mock Turtles and Ruler
against OEIS, the tartan theorem against the brute force of 2-D boards, the winning moves."""

from __future__ import annotations

import json
import random

import pytest

from kayles.analysis.games import turning
from kayles.errors import InputError, ResourceError

import oracle
from conftest import ROOT

OEIS = json.loads((ROOT / "tests" / "data" / "oeis_turning.json").read_text())

# code -> its rules written out by hand for the oracle: (low, high, spacing, F, C(n)), and
# the longest strip checked (every set of coins a move: 2**(n-1) options, fewer coins)
RULES = {
    "1-3": ([(1, 3, "", False, None)], 12),
    "1-2": ([(1, 2, "", False, None)], 12),
    "2": ([(2, 2, "", False, None)], 12),
    "3": ([(3, 3, "", False, None)], 12),
    "1-5": ([(1, 5, "", False, None)], 11),
    "1+C": ([(1, None, "C", False, None)], 12),
    "1-5C": ([(1, 5, "C", False, None)], 12),
    "2+C": ([(2, None, "C", False, None)], 12),
    "1-3C(5)": ([(1, 3, "", False, 5)], 12),
    "3C(5)": ([(3, 3, "", False, 5)], 12),
    "3E": ([(3, 3, "E", False, None)], 12),
    "2-4E": ([(2, 4, "E", False, None)], 12),
    "4FS": ([(4, 4, "S", True, None)], 12),
    "1+S": ([(1, None, "S", False, None)], 10),
    "1+FS": ([(1, None, "S", True, None)], 10),
    "1+": ([(1, None, "", False, None)], 9),
    "2-3,6C": ([(2, 3, "", False, None), (6, 6, "C", False, None)], 11),
    "1,3C": ([(1, 1, "", False, None), (3, 3, "C", False, None)], 12),
}


def heads_of(mask: int, length: int) -> list[int]:
    return [i + 1 for i in range(length) if mask >> i & 1]


@pytest.mark.parametrize("code", RULES)
def test_every_strip_has_the_value_of_the_literal_moves(code):
    rules, length = RULES[code]
    expected = oracle.turning_values(rules, length)
    game = turning.Turning(code)
    for mask, value in enumerate(expected):
        heads = heads_of(mask, length)
        assert game.value(heads) == value, (code, heads)
        move = game.winning_move(heads)
        assert (move is None) == (value == 0), (code, heads)
        if move is not None:
            assert oracle.turning_legal(tuple(move), rules) and move[-1] in heads, (code, move)
            after = mask
            for coin in move:
                after ^= 1 << (coin - 1)
            assert expected[after] == 0, (code, heads, move)


def test_mock_turtles_are_the_odious_numbers_and_ruler_the_ruler_function():
    odious, ruler = OEIS["A000069"], OEIS["A006519"]
    assert turning.Turning("mock-turtles").values(len(odious) + 1)[1:] == odious
    assert turning.Turning("ruler").values(len(ruler) + 1)[1:] == ruler


@pytest.mark.parametrize("code", ["1-3", "1+C", "1-5C", "2", "1-2", "3C"])
def test_the_fast_paths_equal_the_enumeration_of_the_heap_representation(code):
    game = turning.Turning(code)
    assert game.method != "enumerate"
    assert game.values(150) == game.sequence.nimbers(149)


@pytest.mark.parametrize("product, rows, cols", [
    (("1-2", "1-2"), 3, 3), (("1-2", "1-2"), 3, 4), (("1+C", "1+C"), 3, 4),
    (("1-3", "2"), 3, 3), (("3E", "1-2"), 3, 4)])
def test_the_tartan_theorem_against_the_brute_force_of_boards(product, rows, cols):
    first, second = product
    expected = oracle.tartan_values(RULES.get(first, ([(1, 2, "", False, None)], 0))[0],
                                    RULES[second][0], rows, cols)
    game = turning.tartan(f"{first}x{second}")
    for mask, value in enumerate(expected):
        board = [[y + 1 for y in range(cols) if mask >> (x * cols + y) & 1] for x in range(rows)]
        assert game.value(board) == value, (product, board)
    rng = random.Random(rows * cols)
    for mask in rng.sample(range(len(expected)), 60):
        board = [[y + 1 for y in range(cols) if mask >> (x * cols + y) & 1] for x in range(rows)]
        move = game.winning_move(board)
        assert (move is None) == (expected[mask] == 0), (product, board)
        if move is not None:
            after = mask
            for x, y in move:
                after ^= 1 << ((x - 1) * cols + y - 1)
            assert expected[after] == 0, (product, board, move)


def test_turning_corners_is_the_nim_product_of_the_coordinates():
    game = turning.tartan("turning-corners")
    products = oracle.nim_product_table(20)
    for x in range(1, 20):
        for y in range(1, 20):
            board = [[] for _ in range(x - 1)] + [[y]]
            assert game.value(board) == products[x][y]


def test_strips_and_boards_are_read_as_cgsuite_writes_them():
    assert turning.parse_strip("htthH") == [1, 4, 5]
    assert turning.parse_board("ht/th") == [[1], [2]]
    for bad, says in [("hxt", "not 'x' \\(coin 2\\)"), ("", None)]:
        if says:
            with pytest.raises(InputError, match=says):
                turning.parse_strip(bad)
    with pytest.raises(InputError, match="one length"):
        turning.parse_board("ht/h")


@pytest.mark.parametrize("code, says", [
    ("0", "at least one coin"), ("3-1", "at least one coin"), ("1-3X", "'X'"),
    ("1-3CE", "two spacings"), ("a", "not a count"), ("1-3,", "not a count"),
    ("1xx2", None)])
def test_bad_codes_are_refused(code, says):
    with pytest.raises(InputError, match=says or "CODE1xCODE2|not a count"):
        if says is None:
            turning.tartan(code)
        else:
            turning.Turning(code)


def test_a_long_strip_of_a_code_without_structure_is_refused_at_once():
    with pytest.raises(ResourceError, match="options to read"):
        turning.Turning("1+S").value([5000])
