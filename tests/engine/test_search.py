"""The search of any impartial game (``kayles.engine.search``) against brute forces written from
the rules (``tests/user_games.py``), the heap engine, and a published table; every strategy,
tables big and tiny, the hook of a direct solver, cycles, errors in the game's own code,
a game 10**6 moves deep."""

from __future__ import annotations

import random

import pytest

from kayles import ImpartialGame
from kayles.engine.codes import get_game
from kayles.engine.game_protocol import CycleFound
from kayles.engine.search import STRATEGIES, Search
from kayles.engine.sequence import Sequence
from kayles.errors import GameError, InputError

from user_games import (
    A002187,
    Chomp,
    Cram,
    GrundysGame,
    NodeKayles,
    PathKayles,
    Subtraction,
    board,
    brute_misere_wins,
    brute_nimber,
    path,
    random_graph,
)

BIG = 1 << 30  # bytes: a table that never fills here
TINY = 2_000  # bytes: a handful of entries, evicted again and again


@pytest.fixture(params=STRATEGIES)
def strategy(request) -> str:
    return request.param


def test_a_subtraction_game_as_a_class_is_the_heap_engines(strategy):
    """Take 1, 2 or 3 is octal 0.333; take 1, 3 or 4 is 0.3033: the heap engine's values."""
    for takes, code in (((1, 2, 3), "0.333"), ((1, 3, 4), "0.3033")):
        search = Search(Subtraction(takes), BIG, strategy)
        engine = Sequence(get_game(code)).nimbers(80)
        assert [search.nimber(n) for n in range(81)] == engine


def test_grundys_game_as_a_class_is_the_heap_engines(strategy):
    search = Search(GrundysGame(), BIG, strategy)
    engine = Sequence(get_game("grundy"))
    assert [search.nimber((n,)) for n in range(60)] == engine.nimbers(59)
    rng = random.Random(65)
    for _ in range(40):
        heaps = tuple(sorted(rng.randint(1, 40) for _ in range(rng.randint(1, 4))))
        expected = 0
        for h in heaps:
            expected ^= engine.nimber(h)
        assert search.nimber(heaps) == expected, heaps


def test_node_kayles_on_paths_is_dawsons_chess_a002187(strategy):
    """Node Kayles on the path of n vertices is a(n) of A002187, offset 0 (the empty path
    is a(0) = 0), so Dawson's Kayles' G(n + 1): the graph itself, and paths as lengths."""
    for n in range(31):
        left = frozenset(range(n))
        assert Search(NodeKayles(path(n)), BIG, strategy).nimber(left) == A002187[n], n
    lengths = Search(PathKayles(), BIG, strategy)
    assert [lengths.nimber((n,) if n else ()) for n in range(len(A002187))] == A002187
    dawson = Sequence(get_game("dawsons-kayles")).nimbers(len(A002187))
    assert A002187 == dawson[1:]


def test_node_kayles_on_random_graphs_against_the_brute_force(strategy):
    rng = random.Random(2020)
    for trial in range(60):
        adjacency = random_graph(rng.randint(1, 11), rng.choice((0.2, 0.35, 0.5)), rng)
        game = NodeKayles(adjacency)
        whole = frozenset(adjacency)
        memo: dict = {}
        search = Search(game, rng.choice((BIG, TINY)), strategy)
        assert search.nimber(whole) == brute_nimber(game, whole, memo), trial
        for value in range(4):
            assert search.has_value(whole, value) == (memo[whole] == value)


def test_cram_and_chomp_against_the_brute_force(strategy):
    for rows, columns in ((2, 3), (3, 3), (2, 5), (3, 4)):
        game = Cram()
        cells = board(rows, columns)
        assert Search(game, BIG, strategy).nimber(cells) == brute_nimber(game, cells), (rows,
                                                                                      columns)
    game = Chomp()
    for rows in ((3, 3), (4, 3, 1), (5, 5, 5), (4, 4, 2, 2)):
        assert Search(game, BIG, strategy).nimber(rows) == brute_nimber(game, rows), rows


def test_every_strategy_agrees_with_a_tiny_table(strategy):
    """A table of a few entries evicts again and again: the values stay the same."""
    game = GrundysGame()
    memo: dict = {}
    tiny = Search(game, TINY, strategy)
    assert [tiny.nimber((n,)) for n in range(1, 18)] == [brute_nimber(game, (n,), memo)
                                                           for n in range(1, 18)]
    assert tiny.evicted() > 0
    assert tiny.size() <= TINY * 2  # (a dict's own table is counted, and rounds up)
    cram = Cram()
    small = Search(cram, TINY, strategy)
    assert small.nimber(board(3, 4)) == brute_nimber(cram, board(3, 4))
    assert small.evicted() > 0


def test_misere_play_against_the_brute_force():
    rng = random.Random(1)
    for trial in range(60):
        adjacency = random_graph(rng.randint(1, 10), rng.choice((0.2, 0.4)), rng)
        game = NodeKayles(adjacency)
        whole = frozenset(adjacency)
        search = Search(game, rng.choice((BIG, TINY)))
        assert search.misere_wins(whole) == brute_misere_wins(game, whole), trial
    game = GrundysGame()
    search = Search(game, BIG)
    memo: dict = {}
    for heaps in ((9,), (5, 7), (3, 4, 6), (10, 11), (4, 4, 4)):
        assert search.misere_wins(heaps) == brute_misere_wins(game, heaps, memo), heaps


def test_misere_subtraction_is_the_published_rule():
    """Misère take-1-2-3: the player to move loses exactly on n = 1 (mod 4)."""
    search = Search(Subtraction(), BIG)
    assert [search.misere_wins(n) for n in range(40)] == [n % 4 != 1 for n in range(40)]


def test_a_key_shares_entries_between_equal_positions():
    """Cram's key maps a region and its mirror images to one entry: fewer positions
    searched than without it, the same value."""
    class NoKey(Cram):
        key = None  # (the search then keys a position by itself)

    with_key, without = Search(Cram(), BIG), Search(NoKey(), BIG)
    assert with_key.nimber(board(3, 5)) == without.nimber(board(3, 5))
    assert with_key.visited < without.visited
    assert len(with_key.table) < len(without.table)


def test_components_are_solved_and_cached_apart():
    """Two paths of 20 cost the positions of one: the second is the first's entry."""
    one, two = Search(PathKayles(), BIG, "mex"), Search(PathKayles(), BIG, "mex")
    assert one.nimber((20,)) == A002187[20]
    assert two.nimber((20, 20)) == 0
    assert two.visited == one.visited


def test_the_pruned_search_visits_fewer_positions_where_components_are_big():
    """The measured reason for the default with components (docs/benchmarks.md): on Cram
    4x4 "lv" expands fewer positions than "lv-" and than every option's mex."""
    visited = {}
    for strategy in STRATEGIES:
        search = Search(Cram(), BIG, strategy)
        assert search.nimber(board(4, 4)) == 0  # even by even: the symmetry strategy
        visited[strategy] = search.visited
    assert visited["lv"] < visited["lv-"] < visited["mex"]
    assert Search(Cram(), BIG, "lv").nimber(board(4, 5)) == 2  # igs's README table


def test_the_hook_of_a_direct_solver_is_used_and_checked():
    class Direct(PathKayles):
        asked = 0

        def nimber(self, paths):
            self.asked += 1
            return A002187[paths[0]] if paths[0] <= 10 else None

    game = Direct()
    search = Search(game, BIG)
    assert search.nimber((30,)) == A002187[30]
    assert game.asked > 0
    assert all(key[0] > 10 or value == A002187[key[0]] for key, value in
               search.table.items())

    class Wrong(PathKayles):
        def nimber(self, paths):
            return "three"

    with pytest.raises(GameError, match="nimber returned 'three', not a nimber"):
        Search(Wrong(), BIG).nimber((5,))


def test_the_hook_of_a_direct_decision_is_asked_before_the_value():
    """A game's has_value(component, v) answers the search's "is it v?" where the table
    lacks the component (so outcomes and winning moves need no nimber), None leaves it to
    nimber and the search, and the answers are the same either way."""
    class Decides(PathKayles):
        def __init__(self, knows: bool) -> None:
            self.knows, self.asked, self.valued = knows, [], 0

        def has_value(self, paths, value):
            self.asked.append((paths, value))
            return A002187[paths[0]] == value if self.knows else None

        def nimber(self, paths):
            self.valued += 1
            return None

    from kayles import Solver

    for n in range(1, 25):
        knows, plain = Solver(Decides(True), BIG), Solver(PathKayles(), BIG)
        assert knows.outcome((n,)) == plain.outcome((n,)) == ("P" if A002187[n] == 0 else "N")
        assert knows.game.asked == [((n,), 0)] and knows.game.valued == 0
    unsure = Solver(Decides(False), BIG)
    assert unsure.winning_moves((20,)) == Solver(PathKayles(), BIG).winning_moves((20,))
    assert unsure.game.asked and unsure.game.valued > 0


def test_a_cycle_is_found_not_recursed_into():
    class Loop(ImpartialGame):
        def options(self, n):
            return [(n + 1) % 5, 5] if n < 5 else []

    for strategy in STRATEGIES:
        with pytest.raises(CycleFound):
            Search(Loop(), BIG, strategy).nimber(0)
        with pytest.raises(CycleFound):
            Search(Loop(), BIG, strategy).misere_wins(0)
    graph, root = Search(Loop(), BIG).explore(0)
    assert len(graph) == 6 and root == (0,) and graph[(5,)] == []


def test_a_game_a_million_moves_deep():
    """No Python recursion: 10**6 frames on one explicit stack."""
    search = Search(Subtraction((1,)), BIG)
    assert search.nimber(10**6) == 0
    assert search.visited == 10**6 + 1


def test_the_games_own_errors_are_one_line_each():
    class Broken(ImpartialGame):
        def options(self, n):
            return [n - 1] if n != 3 else [1 // 0]

    with pytest.raises(GameError, match=r"the game's options raised ZeroDivisionError: "
                       r".* \(test_search.py, line \d+\)"):
        Search(Broken(), BIG).nimber(6)

    class Lists(ImpartialGame):
        def options(self, position):
            return [position[:-1]] if position else []

    with pytest.raises(InputError, match="a position must be hashable"):
        Search(Lists(), BIG).nimber([1, 2, 3])
    with pytest.raises(InputError, match="has no options"):
        Search(object(), BIG)


def test_the_interrupt_hook_ends_a_search(monkeypatch):
    """kayles serve's time cap: the hook is called as the search goes, and what it raises
    ends the search (counted in positions, never in seconds)."""
    from kayles.kernels import limits

    calls = []

    def hook() -> None:
        calls.append(1)
        if len(calls) > 3:
            raise TimeoutError("capped")

    monkeypatch.setattr(limits, "_interrupt", hook)
    search = Search(Subtraction(tuple(range(1, 30))), BIG)
    with pytest.raises(TimeoutError):
        search.nimber(10**6)
    assert search.visited < 10**6
