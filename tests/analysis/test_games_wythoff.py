"""Wythoff's game (seed 001): P-positions, moves and true SG values against brute force."""

from __future__ import annotations

import json
import subprocess
from decimal import Decimal, getcontext
from functools import cache

import pytest

from kayles.analysis.games import wythoff

from conftest import in_process

N = 30


def kayles(*args: str) -> subprocess.CompletedProcess:
    return in_process("kayles", args, text=True)


def options(a: int, b: int):
    for t in range(1, a + 1):
        yield a - t, b
    for t in range(1, b + 1):
        yield a, b - t
    for t in range(1, min(a, b) + 1):
        yield a - t, b - t


@cache
def sg(a: int, b: int) -> int:
    """The literal recursive definition: mex over all options."""
    seen = {sg(*o) for o in options(a, b)}
    m = 0
    while m in seen:
        m += 1
    return m


def test_p_positions_brute_force():
    for a in range(N + 1):
        for b in range(N + 1):
            assert wythoff.is_p_position(a, b) == (sg(a, b) == 0), (a, b)
            assert wythoff.outcome(a, b) == ("P" if sg(a, b) == 0 else "N")


def test_winning_moves_are_all_moves_to_p():
    for a in range(N + 1):
        for b in range(N + 1):
            expect = {(a - x, b - y) for x, y in options(a, b) if sg(x, y) == 0}
            got = wythoff.winning_moves(a, b)
            assert {tuple(m) for m in got} == expect, (a, b)
            assert wythoff.winning_move(a, b) == (got[0] if got else None)


def test_p_position_listing():
    brute = [(a, b) for a in range(N + 1) for b in range(a, N + 1) if sg(a, b) == 0]
    assert list(wythoff.p_positions(N)) == brute
    assert list(wythoff.p_positions(20))[:5] == [(0, 0), (1, 2), (3, 5), (4, 7), (6, 10)]


def test_lower_is_exact_for_huge_k():
    getcontext().prec = 120
    phi = (1 + Decimal(5).sqrt()) / 2
    for k in (10**30, 10**30 + 1, 3**60, 2**100 - 1, 12345678901234567890123):
        a = wythoff.lower(k)
        assert (2 * a - k) ** 2 < 5 * k * k < (2 * a + 2 - k) ** 2  # a < k*phi < a + 1
        assert a == int(k * phi)


def test_huge_piles():
    k = 10**30
    a, b = wythoff.lower(k), wythoff.lower(k) + k
    assert wythoff.is_p_position(a, b) and wythoff.is_p_position(b, a)
    assert wythoff.partner(a) == b and wythoff.partner(b) == a
    for x, y in ((a, b + 1), (a + 1, b), (10**30, 10**30), (10**30, 10**30 + 7), (b, 3)):
        moves = wythoff.winning_moves(x, y)
        assert moves
        for m in moves:
            assert wythoff.is_p_position(x - m.take_first, y - m.take_second)


def test_sg_table_brute_force():
    table = wythoff.sg_table(14)
    assert table == [[sg(i, j) for j in range(15)] for i in range(15)]
    assert wythoff.sg_table(2, 5) == [row[:6] for row in table[:3]]
    assert wythoff.sg_value(9, 4) == sg(9, 4)


def test_seed_sgwyt_is_not_wythoff():
    # The seed's SGwyt(i, j) is SG2N(i, j) = i XOR j: wrong already at (1, 1).
    assert wythoff.sg_value(1, 1) == 2 != 1 ^ 1
    # The seed's Wyt(a, b) calls (1, 2) a win (two-pile Nim); in Wythoff it loses.
    assert wythoff.outcome(1, 2) == "P" and 1 ^ 2 != 0


def test_sg_limit():
    with pytest.raises(ValueError, match="limit"):
        wythoff.sg_value(3, 10**30)
    with pytest.raises(ValueError):
        wythoff.partner(-1)


def test_cli_outcome_and_moves():
    done = kayles("wythoff", "4", "6")
    assert (done.returncode, done.stdout) == (0, "N\ntake 1 from both piles -> (3, 5)\n")
    assert kayles("wythoff", "3", "5").stdout == "P\n"
    done = kayles("wythoff", "7", "7", "--sg")
    assert done.stdout == ("N\nG(7, 7) = 5\ntake 3 from pile 1 -> (4, 7)\n"
                           "take 3 from pile 2 -> (7, 4)\ntake 7 from both piles -> (0, 0)\n")
    assert sg(7, 7) == 5
    big = str(10**30)
    done = kayles("wythoff", big, str(10**30 + 7))
    assert done.stdout == f"N\ntake {10**30 - 11} from both piles -> (11, 18)\n"


def test_cli_json():
    report = json.loads(kayles("wythoff", "1", "1", "--sg", "--json").stdout)
    assert report == {"piles": [1, 1], "outcome": "N", "sg": 2,
                      "moves": [{"take": [1, 1], "leaves": [0, 0]}]}
    assert json.loads(kayles("wythoff", "--p-positions", "5", "--json").stdout) == [
        [0, 0], [1, 2], [3, 5]]
    assert json.loads(kayles("wythoff", "--table", "2", "--json").stdout) == [
        [0, 1, 2], [1, 2, 0], [2, 0, 1]]


def test_cli_listings():
    assert kayles("wythoff", "--p-positions", "10").stdout == "0 0\n1 2\n3 5\n4 7\n6 10\n"
    assert kayles("wythoff", "--table", "3").stdout == "0 1 2 3\n1 2 0 4\n2 0 1 5\n3 4 5 6\n"


@pytest.mark.parametrize(
    "args",
    [
        ("wythoff",),
        ("wythoff", "3"),
        ("wythoff", "1", "2", "3"),
        ("wythoff", "-1", "2"),
        ("wythoff", "x", "2"),
        ("wythoff", "1", "2", "--table", "3"),
        ("wythoff", "--table", "3", "--p-positions", "3"),
        ("wythoff", "--table", "5000"),
        ("wythoff", "--p-positions", "4", "--sg"),
        ("wythoff", "3", str(10**30), "--sg"),
    ],
)
def test_cli_errors(args):
    done = kayles(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("kayles wythoff")
