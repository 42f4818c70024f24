"""``kayles.Solver`` on games written in Python: values, outcomes and winning moves against brute
forces from the rules; games with cycles against the loopy solver on the explicit graph and a
retrograde analysis; misère play; a match against perfect play."""

from __future__ import annotations

import random

import pytest

from kayles import ImpartialGame, Solution, Solver, solve
from kayles.analysis.games.digraph import Infinite, LoopyGame
from kayles.analysis.play import GameMatch

from user_games import (
    GrundysGame,
    NodeKayles,
    Subtraction,
    Tokens,
    brute_misere_wins,
    brute_nimber,
    random_digraph,
    random_graph,
    retrograde,
    token_graph,
)


class OnGraph(ImpartialGame):
    """One token on a digraph given as a dict (its cycles included)."""

    def __init__(self, graph: dict) -> None:
        self.graph = graph

    def options(self, vertex):
        return self.graph[vertex]


def test_values_outcomes_and_every_winning_move_against_the_brute_force():
    rng = random.Random(11)
    for trial in range(40):
        adjacency = random_graph(rng.randint(1, 9), 0.3, rng)
        game = NodeKayles(adjacency)
        whole = frozenset(adjacency)
        memo: dict = {}
        solver = Solver(game)
        value = brute_nimber(game, whole, memo)
        assert solver.nimber(whole) == value
        assert solver.outcome(whole) == ("N" if value else "P")
        winning = [o for o in game.options(whole) if brute_nimber(game, o, memo) == 0]
        assert solver.winning_moves(whole) == winning, trial
        best = solver.best_move(whole)
        assert (best is None) == (value == 0) and (best is None or best in winning)
        misere: dict = {}
        wins = brute_misere_wins(game, whole, misere)
        assert solver.outcome(whole, misere=True) == ("N" if wins else "P")
        assert solver.winning_moves(whole, misere=True) == [
            o for o in game.options(whole) if not brute_misere_wins(game, o, misere)]


def test_a_loopy_game_is_answered_by_the_loopy_solver():
    """One token on random digraphs, cycles and self-loops included: the generalized values
    are LoopyGame's on the graph typed in directly, the outcomes a retrograde analysis's."""
    rng = random.Random(65)
    loopy = 0
    for trial in range(150):
        graph = random_digraph(rng.randint(1, 9), rng.choice((0.15, 0.3)), rng)
        explicit = LoopyGame(graph)
        outcomes = retrograde(graph)
        solver = Solver(OnGraph(graph))
        for v in graph:
            value = solver.nimber(v)
            loopy += isinstance(value, Infinite)
            assert value == explicit.value(v), (trial, graph, v)
            assert solver.outcome(v) == outcomes[v], (trial, graph, v)
            move = solver.best_move(v)
            if outcomes[v] == "N":
                assert outcomes[move] == "P"
            elif outcomes[v] == "D":
                assert outcomes[move] == "D"
            else:
                assert move is None
    assert loopy > 20  # (the draws were there to be found)


def test_sums_of_tokens_on_a_loopy_graph():
    """Tokens on a digraph, each token a component: the sum's outcome is the retrograde
    analysis's on the explicit graph of whole positions (no sum theorem in the brute force),
    and its value the sum rule's on LoopyGame's values."""
    rng = random.Random(7)
    for trial in range(60):
        graph = random_digraph(rng.randint(2, 6), 0.3, rng)
        tokens = tuple(sorted(rng.randrange(len(graph)) for _ in range(rng.randint(1, 3))))
        whole = token_graph(graph, tokens)
        solver = Solver(Tokens(graph))
        assert solver.outcome(tokens) == retrograde(whole)[tokens], (trial, graph, tokens)
        assert solver.nimber(tokens) == LoopyGame(graph).sum_value(tokens)
        assert solver.outcome(tokens, misere=True) == retrograde(whole, misere=True)[tokens]


def test_misere_play_of_a_loopy_game():
    rng = random.Random(3)
    for trial in range(100):
        graph = random_digraph(rng.randint(1, 8), 0.25, rng)
        outcomes = retrograde(graph, misere=True)
        solver = Solver(OnGraph(graph))
        for v in graph:
            assert solver.outcome(v, misere=True) == outcomes[v], (trial, graph, v)
            move = solver.best_move(v, misere=True)
            if outcomes[v] == "P" or not graph[v]:
                assert move is None
            else:
                assert outcomes[move] == ("P" if outcomes[v] == "N" else "D")


def test_solve_gives_all_three_at_once():
    assert solve(Subtraction(), 10) == Solution(2, "N", 8, False)
    assert solve(Subtraction(), 9, misere=True) == Solution(None, "P", None, True)
    assert solve(OnGraph({"a": ["a"]}), "a") == Solution(Infinite(), "D", "a", False)
    with pytest.raises(ValueError, match="has no options"):
        Solver(42)


def test_a_match_against_perfect_play():
    """The program answers each move with a winning one whenever it has one: from a
    P-position of the user's, every reply leaves a P-position again."""
    game = GrundysGame()
    match = GameMatch(Solver(game), (13,))
    assert brute_nimber(game, (13,)) != 0
    rng = random.Random(5)
    while match.has_move():
        match.play(match.reply())  # the program moves (and wins) from N
        assert brute_nimber(game, match.position) == 0
        if not match.has_move():
            break
        match.play(rng.choice(match.moves()))  # the user's move, any
    assert match.parse("#1").after == match.moves()[0].after if match.has_move() else True
    match = GameMatch(Solver(Subtraction()), 10)
    assert match.parse("7").after == 7 and match.parse("move 2").after == 8
    with pytest.raises(ValueError, match="not one move"):
        match.parse("5")
    with pytest.raises(ValueError, match="no move 4"):
        match.parse("#4")
