"""Misère play (issue 10): values, outcomes, winning moves and genus, on both twins.

Expected values come from tests/oracle.py (literal moves on strings, a position with no
move is a win for the player to move) or from the published misère Kayles sequence.
"""

from __future__ import annotations

import itertools
import json
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kayles import misere
from kayles.analysis.heaps import HeapMove
from kayles.engine.codes import get_game
from kayles.engine.rules import encode
from kayles.kernels import limits

import oracle
from conftest import assert_usage_error, in_process

# Misère nim-values of Kayles heaps 0..20 (Winning Ways ch. 13), as quoted in issue 10.
MISERE_KAYLES = [1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0, 1, 2, 5, 1, 6, 3, 2, 0]

ROW_GAMES = {
    "kayles": oracle.octal_row_game("0.77"),
    "dawsons-kayles": oracle.octal_row_game("0.07"),
    "kayles-xox": oracle.KAYLES_XOX,
    "0.137": oracle.octal_row_game("0.137"),
}
MAX_PINS = 12


def rows(longest: int):
    for length in range(longest + 1):
        for cells in itertools.product(".x", repeat=length):
            yield "".join(cells)


def test_misere_kayles_matches_the_published_values(misere_kernel):
    solver = misere.Solver(get_game("kayles"), kernel=misere_kernel)
    assert [solver.value([n]) for n in range(len(MISERE_KAYLES))] == MISERE_KAYLES


def test_the_oracle_matches_the_published_values():
    game = ROW_GAMES["kayles"]
    assert [oracle.misere_value(game, "x" * n) for n in range(21)] == MISERE_KAYLES


@pytest.mark.parametrize("name", ROW_GAMES)
def test_every_row_up_to_12_pins(misere_kernel, name):
    game, rules = get_game(name), ROW_GAMES[name]
    solver = misere.Solver(game, kernel=misere_kernel)
    for row in rows(MAX_PINS):
        expected = oracle.misere_row_move(rules, row)
        assert solver.row_winning_move(row) == expected, row
        wins = oracle.misere_row_wins(rules, row)
        assert solver.row_outcome(row) == ("N" if wins else "P"), row


def test_grundys_game_heap_lists(misere_kernel):
    solver = misere.Solver(get_game("grundy"), kernel=misere_kernel)
    for heaps in itertools.chain.from_iterable(
        itertools.product(range(12), repeat=k) for k in range(4)
    ):
        wins = oracle.grundys_game_misere_wins(tuple(sorted(heaps)))
        assert solver.outcome(list(heaps)) == ("N" if wins else "P"), heaps
        expected = next(
            (HeapMove(i, heaps[i], (a, heaps[i] - a))
             for i, a, after in oracle.grundys_game_moves(heaps)
             if not oracle.grundys_game_misere_wins(tuple(sorted(after)))),
            None,
        )
        assert solver.heaps_winning_move(list(heaps)) == expected, heaps


@pytest.mark.parametrize("name", ROW_GAMES)
def test_genus_against_the_oracle(misere_kernel, name):
    game, rules = get_game(name), ROW_GAMES[name]
    found = misere.Solver(game, kernel=misere_kernel).genera(8)
    for n, genus in enumerate(found):
        assert genus.normal == rules.grundy("x" * n)
        for k in range(7):
            assert genus.gamma(k) == oracle.misere_value(rules, "x" * n, (2,) * k), (n, k)
        written = genus.misere  # as short as possible: no earlier start of the alternation
        assert len(written) == 2 or written[-1] != written[-3], genus


def test_genus_text_form():
    assert [str(g) for g in misere.genera(5, get_game("kayles"))] == [
        "0^120", "1^031", "2^20", "3^31", "1^031", "4^146"
    ]  # Winning Ways' misère Kayles table; 0^120 and 1^031 are *0 and *1 by definition
    assert str(misere.Genus(12, (12, 14))) == "12^(12,14)"
    assert misere.genus(5, get_game("kayles")) == misere.Genus(4, (1, 4, 6))


def test_identical_heaps_do_not_cancel(misere_kernel):
    solver = misere.Solver(get_game("kayles"), kernel=misere_kernel)
    # Normal play: two equal heaps are a loss.  Misère: 2 + 2 is, but 1 + 1 is a win (take one).
    assert solver.outcome([2, 2]) == "P"
    assert solver.outcome([1, 1]) == "N"
    assert solver.outcome([1, 1, 1]) == "P"


def test_no_move_at_all_is_a_win_with_no_move(misere_kernel):
    solver = misere.Solver(get_game("dawsons-kayles"), kernel=misere_kernel)
    assert solver.outcome([]) == "N" and solver.outcome([1, 1, 0]) == "N"
    assert solver.heaps_winning_move([1, 1]) is None
    assert solver.row_winning_move("x.x") is None and solver.row_outcome("x.x") == "N"


def test_budget_is_an_error_never_a_guess(misere_kernel):
    solver = misere.Solver(get_game("kayles"), budget=50, kernel=misere_kernel)
    with pytest.raises(ValueError, match="more than 50 positions"):
        solver.value([30])
    with pytest.raises(ValueError, match="beyond the misère search budget"):
        solver.value([51])
    with pytest.raises(ValueError, match="budget must be"):
        misere.Solver(get_game("kayles"), budget=0, kernel=misere_kernel)


def test_bad_positions_are_refused():
    with pytest.raises(ValueError, match="not played on rows"):
        misere.row_winning_move("xx", get_game("grundy"))
    with pytest.raises(ValueError, match="only '.' and 'x'"):
        misere.row_winning_move("xax", get_game("kayles"))
    with pytest.raises(ValueError, match=">= 0"):
        misere.heaps_winning_move([3, -1], get_game("kayles"))


GAME_NAMES = ["kayles", "dawsons-kayles", "kayles-xox", "0.137", "grundy", "4.07", "0.007"]


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(GAME_NAMES), heaps=st.lists(st.integers(-1, 14), max_size=4),
       twos=st.integers(-1, 3), budget=st.integers(1, 3000))
def test_twins_agree(both_misere_kernels, name, heaps, twos, budget):
    results = []
    for kernel in both_misere_kernels:
        memo = kernel.MisereMemo(misere.encode(get_game(name).kinds), budget)
        try:
            results.append((kernel.misere_value(memo, heaps, twos), len(memo),
                            [kernel.misere_layers_agree(memo, a, a + 2) for a in range(2)]))
        except ValueError as exc:
            results.append(str(exc))
    assert results[0] == results[1]


# -- the command line ------------------------------------------------------------------------


def kayles(*args) -> subprocess.CompletedProcess:
    return in_process("kayles", args)


def ok(result: subprocess.CompletedProcess) -> str:
    assert (result.returncode, result.stderr) == (0, b""), result.stderr
    return result.stdout.decode()


def test_cli_move_misere():
    rules = ROW_GAMES["kayles"]
    for row in ["xxxx", "xxxxx", "xx.x.xxx", "x.x", "..."]:
        expected = oracle.misere_row_move(rules, row)
        if expected is None:
            expected = "WIN" if oracle.misere_row_wins(rules, row) else "LOSS"
        assert ok(kayles("move", row, "--game", "kayles", "--misere")) == expected + "\n"
    assert ok(kayles("move", "7", "5", "3", "--game", "grundy", "--misere")) == (
        "heap 2: 5 -> 1 + 4\n"  # the oracle's first winning split, checked above
    )
    answer = json.loads(ok(kayles("move", "1", "1", "--game", "kayles", "--misere", "--json")))
    assert answer["outcome"] == "N" and answer["move"]["position"] == [1]


def test_cli_genus():
    text = ok(kayles("genus", "4", "--game", "kayles"))
    assert text == "0 0^120\n1 1^031\n2 2^20\n3 3^31\n4 1^031\n"
    rows_ = json.loads(ok(kayles("genus", "2", "--game", "grundy", "--json")))
    assert [r["genus"] for r in rows_] == ["0^120", "0^120", "0^120"]  # no moves: the game 0


@pytest.mark.parametrize("args", [
    ["genus", "x"],
    ["genus", "5", "--game", "nope"],
    ["genus", "40", "--game", "kayles", "--budget", "100"],
    ["move", "2000000", "--game", "0.07", "--misere"],  # no quotient that far either
    ["move", "xx", "--game", "grundy", "--misere"],
])
def test_cli_errors(args):
    assert_usage_error(kayles(*args))


SPLIT_GAMES = {
    "4.07": lambda h: oracle.octal_splits("4.07", h),
    "0.007": lambda h: oracle.octal_splits("0.007", h),
    "grundy": oracle.grundys_game_splits,
}


@pytest.mark.parametrize("name", SPLIT_GAMES)
def test_heap_lists_of_splitting_games(misere_kernel, name):
    splits = SPLIT_GAMES[name]
    solver = misere.Solver(get_game(name), kernel=misere_kernel)
    for heaps in itertools.chain.from_iterable(
        itertools.product(range(10), repeat=k) for k in range(3)
    ):
        lost = oracle.heap_misere_value(splits, heaps) == 0
        assert solver.outcome(list(heaps)) == ("P" if lost else "N"), heaps
        expected = next(
            (HeapMove(i, h, parts) for i, h in enumerate(heaps) for parts in splits(h)
             if oracle.heap_misere_value(splits, heaps[:i] + parts + heaps[i + 1 :]) == 0),
            None,
        )
        assert solver.heaps_winning_move(list(heaps)) == expected, heaps


@pytest.mark.parametrize("name", SPLIT_GAMES)
def test_genus_of_splitting_games_against_the_oracle(misere_kernel, name):
    splits = SPLIT_GAMES[name]
    for n, genus in enumerate(misere.Solver(get_game(name), kernel=misere_kernel).genera(12)):
        for k in range(6):
            assert genus.gamma(k) == oracle.heap_misere_value(splits, (n,), (2,) * k), (n, k)


def test_the_search_looks_within_one_positions_options(misere_kernel):
    """Forty Kayles heaps of 3,000 or so: the first position alone has some 120,000 options
    of 44 words.  Both twins look at the interrupt hook within them (every LOOK_WORDS
    words of work: 2**22 compiled, 2**16 pure), not only between positions, so the first
    look comes before any position is stored; counted in steps, it came after the whole
    first position or not at all (the budget ran out first)."""
    kernel = misere_kernel

    class Stop(Exception):
        pass

    def hook():
        raise Stop

    memo = kernel.MisereMemo(encode(get_game("0.77").kinds), 2_000_000)
    limits.set_interrupt(hook)
    try:
        with pytest.raises(Stop):
            kernel.misere_value(memo, list(range(3000, 3040)), 0)
    finally:
        limits.set_interrupt(None)
    assert len(memo) == 0  # and the memo still answers, as after any stopped search
    assert kernel.misere_value(memo, [3, 4, 5], 0) == kernel.misere_value(
        kernel.MisereMemo(encode(get_game("0.77").kinds), 1000), [3, 4, 5], 0)
