"""Misère quotients (issue 10, stretch): published small quotients, and the quotient's
predictions checked against the brute-force oracle (literal moves on rows)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest

from kayles.quotient import quotient
from kayles.rules import get_game

import oracle
from conftest import ROOT, assert_usage_error


def test_misere_nim_heaps_up_to_1_give_t1():
    # Plambeck-Siegel: T1 = <a | a^2 = 1>, P-portion {a} (Kayles heap 1 is the nim heap *1).
    q = quotient(get_game("kayles"), 1)
    assert (q.order, q.presentation(), q.p_words()) == (2, "<a | a^2 = 1>", ["a"])


@pytest.mark.parametrize("max_heap", [2, 3, 4])
def test_kayles_small_heaps_give_the_tame_quotient_t2(max_heap):
    # Plambeck-Siegel's tame quotient T2 = <a, b | a^2 = 1, b^3 = b>, P-portion {a, b^2}:
    # Kayles heaps 1..3 are the nim heaps *1..*3, and heap 4 (genus 1^031) adds nothing.
    q = quotient(get_game("kayles"), max_heap)
    assert (q.order, q.presentation(), q.p_words()) == (
        6, "<a, b | a^2 = 1, b^3 = b>", ["a", "b^2"]
    )
    assert [q.words[c] for c in q.heaps] == ["1", "a", "b", "ab", "a"][: max_heap + 1]


def test_0_75_gives_r8():
    # Plambeck's R8, the quotient of the wild octal game 0.75 (order 8, P-portion {a, b^2}).
    q = quotient(get_game("0.75"), 6)
    assert (q.order, q.presentation(), q.p_words()) == (
        8, "<a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2>", ["a", "b^2"]
    )


@pytest.mark.parametrize("code, max_heap", [("0.77", 6), ("0.75", 6), ("0.07", 7)])
def test_the_quotient_predicts_every_outcome(code, max_heap):
    q = quotient(get_game(code), max_heap)
    rules = oracle.octal_row_game(code)
    for count in range(6):
        for heaps in itertools.combinations_with_replacement(range(max_heap + 1), count):
            wins = oracle.misere_row_wins(rules, ".".join("x" * h for h in heaps))
            assert q.outcome(list(heaps)) == ("N" if wins else "P"), heaps


def test_games_with_no_move_give_the_trivial_quotient():
    q = quotient(get_game("grundy"), 2)  # heaps 1 and 2 cannot be split
    assert (q.order, q.presentation(), q.p_words()) == (1, "<>", [])


def test_too_large_is_an_error():
    with pytest.raises(ValueError, match="beyond this search"):
        quotient(get_game("kayles"), 40)


def kayles(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kayles", *args], capture_output=True,
                          cwd=ROOT, timeout=120)


def test_cli_quotient():
    result = kayles("quotient", "--game", "0.75", "--max-heap", "6")
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout.decode().splitlines() == [
        "0.75, heaps up to 6: misère quotient of order 8",
        "presentation: <a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2>",
        "generators: a = heap 1, b = heap 2, c = heap 5",
        "P-portion: {a, b^2}",
        "heaps 0..6: 1 a b a b c b",
    ]
    result = kayles("quotient", "--game", "kayles", "--max-heap", "3", "--json")
    assert json.loads(result.stdout)["p_portion"] == ["a", "b^2"]
    for args in (["--max-heap", "40"], ["--max-heap", "x"], []):
        assert_usage_error(kayles("quotient", "--game", "kayles", *args))
