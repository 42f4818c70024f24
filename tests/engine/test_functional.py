"""Rules written as functions (kayles.engine.functional): heap rules against the digits of
octal codes and a brute force of whole sums, a declared code's proof, misère play, and
coordinate rules against Wythoff's game (kayles.analysis.games.wythoff) and a brute force."""

from __future__ import annotations

import random

import pytest

from kayles.analysis import heaps, misere
from kayles.analysis.games import wythoff
from kayles.engine.codes import get_game
from kayles.engine.functional import RuleSequence, coordinate_rule, heap_rule
from kayles.engine.sequence import Sequence
from kayles.errors import InputError, ResourceError

import oracle

CODES = ["0.77", "0.07", "0.137", "0.6", "0.34", "0.17"]


def octal(code: str):
    return lambda n: oracle.octal_options(code, n)


@pytest.mark.parametrize("code", CODES)
def test_a_heap_rule_has_the_values_of_its_code(code):
    rule = heap_rule(octal(code), name=code)
    assert isinstance(rule, Sequence) and isinstance(rule, RuleSequence)
    assert rule.nimbers(80) == oracle.octal_nimbers(code, 80)
    assert rule.prove() is None and "no theorem proves a period" in rule.period_note


def test_a_rule_declared_a_code_has_the_codes_proof_and_answers_any_heap():
    rule = heap_rule(octal("0.77"), name="kayles", code="0.77")
    period = rule.prove()
    assert (period.preperiod, period.period) == (71, 12)  # Kayles (Guy and Smith)
    values = oracle.octal_nimbers("0.77", 200)
    n = 10 ** 40
    assert rule.nimber(n) == values[71 + (n - 71) % 12]
    assert rule.table(300).tolist()[200] == values[200]
    assert "the octal periodicity theorem" in rule.period_note


def test_a_rule_declared_another_code_is_refused():
    with pytest.raises(InputError, match="is not the code 0.07: heap 1"):
        heap_rule(octal("0.77"), name="kayles", code="0.07").prove()


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_the_winning_move_of_a_rule_leaves_a_loss(seed):
    """Grundy's game as a function (split into two unequal heaps): every answer is a move of
    the rule whose position has value 0 by the brute force of whole sums."""
    def split(n):
        return [(a, n - a) for a in range(1, (n + 1) // 2) if 2 * a != n]

    rule = heap_rule(split, name="grundy")
    rng = random.Random(seed)
    for _ in range(10):
        position = [rng.randrange(1, 12) for _ in range(rng.randrange(1, 4))]
        move = heaps.winning_move(position, rule)
        value = oracle.sum_value(split, tuple(position))
        assert (move is None) == (value == 0), (seed, position)
        if move is not None:
            assert move.parts in {tuple(p for p in o if p) for o in split(move.size)}
            assert oracle.sum_value(split, tuple(move.apply(position))) == 0, (seed, position)


@pytest.mark.parametrize("seed", [21, 22])
def test_misere_play_of_a_rule_is_its_codes(seed):
    rule = heap_rule(octal("0.77"), name="kayles")
    game = get_game("0.77")
    rng = random.Random(seed)
    for _ in range(15):
        position = [rng.randrange(0, 9) for _ in range(rng.randrange(1, 4))]
        assert misere.value(position, rule) == misere.value(position, game), (seed, position)
        assert misere.heaps_winning_move(position, rule) == misere.heaps_winning_move(
            position, game), (seed, position)
    with pytest.raises(InputError, match="octal games only"):
        misere.genera(5, rule)
    with pytest.raises(ResourceError, match="budget"):
        misere.value([30, 30], rule, budget=100)


@pytest.mark.parametrize("bad, error", [
    (lambda n: [(n,)], InputError),  # a heap not below n
    (lambda n: [(-1,)], InputError),
    (lambda n: [("1",)] if n else [], InputError),
    (lambda n: 5, InputError),  # not an iterable of options
])
def test_bad_rules_are_refused_naming_the_heap(bad, error):
    with pytest.raises(error, match="rule"):
        heap_rule(bad).nimbers(3)


def test_a_rule_is_a_function():
    with pytest.raises(TypeError, match="function"):
        heap_rule([1, 2])


def wythoff_rule(a, b):
    yield from (((a - k, b),) for k in range(1, a + 1))
    yield from (((a, b - k),) for k in range(1, b + 1))
    yield from (((a - k, b - k),) for k in range(1, min(a, b) + 1))


def test_wythoff_as_a_coordinate_rule_is_kayles_wythoff():
    rule = coordinate_rule(wythoff_rule, name="wythoff")
    assert rule.table(30) == wythoff.sg_table(29)
    assert rule.p_positions(40) == sorted(
        (x, y) for a, b in wythoff.p_positions(39) for x, y in {(a, b), (b, a)})
    for a, b in [(4, 7), (3, 3), (10, 2), (6, 10)]:
        move = rule.winning_move((a, b))
        best = wythoff.winning_moves(a, b)
        assert (move is None) == (not best)
        if move is not None:
            index, ((x, y),) = move
            assert index == 0 and wythoff.is_p_position(x, y)


def cuts(position):
    """Cut an a x b cake along either direction into two (each piece at least 1 x 1)."""
    a, b = position
    return ([((k, b), (a - k, b)) for k in range(1, a)]
            + [((a, k), (a, b - k)) for k in range(1, b)])


@pytest.mark.parametrize("seed", [31, 32])
def test_sums_of_a_coordinate_rule_against_the_brute_force(seed):
    rule = coordinate_rule(lambda a, b: cuts((a, b)), name="cuts")
    rng = random.Random(seed)
    for _ in range(8):
        position = [(rng.randrange(1, 5), rng.randrange(1, 5)) for _ in range(rng.randrange(1, 3))]
        assert rule.value(position) == oracle.sum_value(cuts, tuple(position)), (seed, position)
        move = rule.winning_move(position)
        if move is not None:
            index, parts = move
            after = position[:index] + list(parts) + position[index + 1:]
            assert oracle.sum_value(cuts, tuple(after)) == 0, (seed, position)


def test_bad_coordinate_rules_are_refused():
    with pytest.raises(InputError, match="not \\(0, 0\\) itself"):
        coordinate_rule(lambda a, b: [((a, b),)]).table(2)
    with pytest.raises(InputError, match="a' <= 0"):
        coordinate_rule(lambda a, b: [((a + 1, b),)]).table(1)
