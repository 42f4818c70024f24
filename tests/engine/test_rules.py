"""Game.options, the one statement of the rules, against literal moves on strings."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kayles
from kayles import heaps, xox
from kayles.analysis.games import grundys_game
from kayles.analysis.heaps import HeapMove
from kayles.engine.rules import (
    GAMES,
    MAX_KEPT,
    MAX_KINDS,
    MAX_SPAN,
    Game,
    MoveKind,
    Option,
    parse_octal,
)
from kayles.engine.sequence import Period, Sequence
from kayles.storage.proof_cache import shared

import oracle


def windows(game: Game) -> list[tuple[str, set[int], bool]]:
    return [(kind.pattern, set(kind.leave), kind.unequal) for kind in game.kinds]


def random_codes(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(["0.", "4."]) + "".join(rng.choice("01234567") for _ in range(
        rng.randint(1, 4))) for _ in range(count)]


@st.composite
def move_kinds(draw):
    if draw(st.booleans()):
        return MoveKind("", {2}, unequal=draw(st.booleans()))
    inner = draw(st.text("xo", max_size=4))
    pattern = "x" + inner + "x" if draw(st.booleans()) else "x"
    leave = draw(st.sets(st.sampled_from([0, 1, 2]), min_size=1))
    return MoveKind(pattern, leave, unequal=draw(st.booleans()))


games = st.lists(move_kinds(), min_size=1, max_size=4).map(lambda kinds: Game("drawn", kinds))


def literal(game: Game, n: int) -> list[tuple[int, int, tuple[int, ...]]]:
    return list(oracle.heap_moves(windows(game), n))


def listed(game: Game, n: int) -> list[tuple[int, int, tuple[int, ...]]]:
    return [(option.a, option.kind, option.parts) for option in game.options(n)]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_named_games_list_the_literal_moves_in_tie_break_order(name):
    for n in range(25):
        assert listed(GAMES[name], n) == literal(GAMES[name], n), n


@pytest.mark.parametrize("code", random_codes(30, seed=13))
def test_octal_games_list_the_literal_moves(code):
    game = parse_octal(code)
    for n in range(20):
        assert listed(game, n) == literal(game, n), n


@settings(max_examples=200, deadline=None)
@given(game=games, n=st.integers(0, 24))
def test_any_game_lists_the_literal_moves(game, n):
    options = list(game.options(n))
    assert [(o.a, o.kind, o.parts) for o in options] == literal(game, n)
    assert options == sorted(options)  # tuples in tie-break order: a, then kind
    for o in options:
        kind = game.kinds[o.kind]
        assert o.a + kind.span + o.b == n and o.kept == kind.kept


def test_options_carry_what_they_leave():
    xox_options = list(GAMES["kayles-xox"].options(5))
    assert xox_options[:3] == [Option(0, 0, (), 4), Option(0, 1, (1,), 2), Option(1, 0, (), 3)]
    assert xox_options[1].parts == (1, 2)
    assert xox_options[1].value([0, 1, 0, 2, 3, 2].__getitem__) == 1  # G(0) ^ G(1) ^ G(2)
    assert [o.parts for o in GAMES["grundy"].options(7)] == [(1, 6), (2, 5), (3, 4), (4, 3),
                                                             (5, 2), (6, 1)]
    assert next(GAMES["grundy"].options(10**100)) == Option(1, 0, (), 10**100 - 1)  # lazy


# -- the unequal + empty-parts decision --------------------------------------------------------

TAKE_TWO_UNEQUAL = Game("test", [MoveKind("xx", {0, 2}, unequal=True)])


def test_unequal_forbids_equal_parts_but_not_taking_the_whole_heap():
    kind = TAKE_TWO_UNEQUAL.kinds[0]
    assert kind.allows(0, 0) and kind.allows(1, 2) and not kind.allows(1, 1)
    assert list(TAKE_TWO_UNEQUAL.options(2)) == [Option(0, 0, (), 0)]
    assert list(TAKE_TWO_UNEQUAL.options(4)) == []  # only 1 + 1, equal
    assert [o.parts for o in TAKE_TWO_UNEQUAL.options(6)] == [(1, 3), (3, 1)]
    assert oracle.heap_game_nimbers(windows(TAKE_TWO_UNEQUAL), 6) == [0, 0, 1, 0, 0, 0, 1]


def test_unequal_empty_parts_on_both_twins(kernel):
    """G(2) = 1: taking both tokens of a heap of 2 leaves no parts and is allowed."""
    sequence = Sequence(TAKE_TWO_UNEQUAL, kernel=kernel)
    assert sequence.nimbers(6) == [0, 0, 1, 0, 0, 0, 1]
    assert Sequence(TAKE_TWO_UNEQUAL, "plain", kernel).nimbers(6) == [0, 0, 1, 0, 0, 0, 1]
    assert kernel.row_move(b"xx", sequence.table(3), sequence.encoded) == (0, 0)
    assert heaps.winning_move([4, 2], sequence) == HeapMove(1, 2, ())


# -- records and shared pieces -----------------------------------------------------------------


def test_records_are_frozen_values_with_their_reprs():
    move = HeapMove(index=1, size=5, parts=(2, 3))
    assert repr(move) == "HeapMove(index=1, size=5, parts=(2, 3))"
    assert move == HeapMove(1, 5, (2, 3)) and move != HeapMove(1, 5, (3, 2))
    period = Period(preperiod=71, period=12, values=167)
    assert repr(period) == "Period(preperiod=71, period=12, values=167)"
    assert period == Period(71, 12, 167) == (71, 12, 167) and period != Period(71, 6, 167)
    n0, p, values = period
    assert (n0, p, values) == (period.preperiod, period.period, period.values)
    with pytest.raises(AttributeError):
        period.period = 6  # type: ignore[misc]
    option = Option(a=2, kind=1, kept=(1,), b=3)
    assert repr(option) == "Option(a=2, kind=1, kept=(1,), b=3)" and option.parts == (2, 1, 3)
    with pytest.raises(AttributeError):
        option.a = 0  # type: ignore[misc]


def test_named_games_share_one_sequence_per_process():
    assert xox.sequence() is shared("kayles-xox") is shared("kayles-xox")
    assert grundys_game.sequence() is shared("grundy")
    assert kayles.analysis.xox is xox and kayles.Option is Option


def test_games_refuse_more_than_the_kernels_hold():
    Game("wide", [MoveKind("x", {0})] * MAX_KINDS)
    with pytest.raises(ValueError, match=f"at most {MAX_KINDS} move kinds"):
        Game("too wide", [MoveKind("x", {0})] * (MAX_KINDS + 1))
    MoveKind("x" + "ox" * MAX_KEPT, {0})
    with pytest.raises(ValueError, match=f"keeps more than {MAX_KEPT} runs"):
        MoveKind("x" + "ox" * (MAX_KEPT + 1), {0})
    MoveKind("x" * MAX_SPAN, {0})
    with pytest.raises(ValueError, match=f"longer than {MAX_SPAN} tokens"):
        MoveKind("x" * (MAX_SPAN + 1), {0})
