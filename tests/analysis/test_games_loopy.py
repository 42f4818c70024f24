"""Loopy digraphs (issue 55): the generalized Sprague-Grundy values, sums and best moves,
checked against retrograde analysis written from the rules alone.

The oracle knows no Sprague-Grundy theory: a position with no move is lost, one with a
move to a lost position is won, one whose every move goes to a won position is lost,
and the rest are draws.  A vertex's value is read off its sums with the nim-heaps
*0..*5: gamma(v) = g exactly when v + *g is lost; gamma(v) = inf(K) when no such sum is
lost, v + *k being won for k in K and a draw otherwise (out-degrees at most 5 keep every
value and every K below 6, so these six sums decide it).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_games_digraph import peak_kib, random_dag

from kayles.analysis.games.digraph import (
    Infinite,
    LoopyGame,
    loopy_values,
    outcome,
    parse_graph,
    sg_values,
    sum_value,
)

from conftest import ROOT, kayles_said

SEED = 55  # every random graph below comes from random.Random(SEED + case)
HEAPS = 6  # the nim-heaps *0..*5


# -- the oracle ----------------------------------------------------------------


def retrograde(moves: dict) -> dict:
    """'P' (lost), 'N' (won) or 'D' (drawn) for every position of ``moves`` (position ->
    list of positions; repeats are moves too), by the rules alone."""
    before: dict = {p: [] for p in moves}
    for p, targets in moves.items():
        for q in targets:
            before[q].append(p)
    unsettled = {p: len(targets) for p, targets in moves.items()}
    verdict = {p: "P" for p, targets in moves.items() if not targets}
    todo = list(verdict)
    while todo:
        q = todo.pop()
        for p in before[q]:
            if p in verdict:
                continue
            if verdict[q] == "P":  # a move to a lost position: won
                verdict[p] = "N"
                todo.append(p)
            else:
                unsettled[p] -= 1
                if unsettled[p] == 0:  # every move goes to a won position: lost
                    verdict[p] = "P"
                    todo.append(p)
    return {p: verdict.get(p, "D") for p in moves}


def sum_moves(graph: dict, tokens: int) -> dict:
    """The sum of ``tokens`` tokens on ``graph``: a position is a tuple of vertices, and a
    move moves one token along one edge."""
    from itertools import product

    return {at: [at[:i] + (w,) + at[i + 1 :] for i, v in enumerate(at) for w in graph[v]]
            for at in product(graph, repeat=tokens)}


def with_heaps(graph: dict) -> dict:
    """``graph`` beside the nim-heaps *0..*5 (vertex *k moves to each *j, j < k)."""
    return {**graph, **{f"*{k}": [f"*{j}" for j in range(k)] for k in range(HEAPS)}}


def value_from_rules(verdicts: dict, v) -> int | Infinite:
    """gamma(v) as the module header reads it off the sums v + *0 ... v + *5."""
    seen = [verdicts[v, f"*{k}"] for k in range(HEAPS)]
    assert seen.count("P") <= 1, seen
    if "P" in seen:
        assert "D" not in seen, seen
        return seen.index("P")
    return Infinite(k for k in range(HEAPS) if seen[k] == "N")


def random_loopy(rng: random.Random, n: int) -> dict:
    """n vertices, out-degree 0..5 (sinks, self-loops, repeated edges and cycles)."""
    return {v: [rng.randrange(n) for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4, 5]))]
            for v in range(n)}


# -- values ----------------------------------------------------------------------


def check_values(graph: dict, seed: str = "") -> None:
    both = with_heaps(graph)
    verdicts = retrograde(sum_moves(both, 2))
    values = loopy_values(both)
    for v in graph:
        assert values[v] == value_from_rules(verdicts, v), (seed, graph, v, values[v])


@pytest.mark.parametrize("block", range(8))
def test_values_agree_with_retrograde_analysis_of_sums_with_nim_heaps(block):
    """Some 1,600 graphs: a vertex whose infinite successor is reversed (through a vertex
    labelled on a cycle) is rare, about one graph in 200."""
    for case in range(block * 200, (block + 1) * 200):
        rng = random.Random(SEED + case)
        graph = random_loopy(rng, rng.randint(1, 14))
        check_values(graph, f"seed {SEED + case}")


def test_an_infinite_successor_reversed_through_a_cycle():
    """u moves to a sink and to v = inf(1); v's move to x (value 1, labelled on the cycle
    x <-> t) reverses it, so u is 1, not infinite: round 1 must mark the infinite v."""
    graph = {"u": ["w0", "v"], "w0": [], "v": ["v", "x"], "x": ["s0", "t"], "t": ["x"],
             "s0": []}
    check_values(graph)
    assert loopy_values(graph)["u"] == 1


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.integers(0, 9), max_size=5), min_size=1, max_size=10))
def test_values_agree_with_retrograde_analysis_hypothesis(rows):
    n = len(rows)
    check_values({v: [w % n for w in row] for v, row in enumerate(rows)})


def test_every_value_and_set_is_met():
    """The random graphs above are not all alike: every finite value 0..5 and many sets K
    (the empty one, {0}, and some without 0) occur among them."""
    finite, sets = set(), set()
    for case in range(40):
        rng = random.Random(SEED + case)
        for g in loopy_values(random_loopy(rng, rng.randint(1, 14))).values():
            (sets.add(g.k) if isinstance(g, Infinite) else finite.add(g))
    assert finite >= set(range(4)), finite
    assert frozenset() in sets and frozenset({0}) in sets, sets
    assert any(0 not in k and k for k in sets), sets


def test_acyclic_graphs_keep_their_values():
    rng = random.Random(SEED)
    for _ in range(100):
        graph = random_dag(rng, rng.randint(1, 25))
        assert loopy_values(graph) == sg_values(graph)


def test_small_cases_by_hand():
    assert loopy_values({"a": ["a"]}) == {"a": Infinite()}  # a self-loop: a draw
    assert loopy_values({"a": ["b"], "b": ["a"]}) == {"a": Infinite(), "b": Infinite()}
    # a can stay or stop: won (to the sink), so inf(0); b's only move is to a: lost
    assert loopy_values({"a": ["a", "c"], "b": ["a"], "c": []}) == {
        "a": Infinite({0}), "b": 0, "c": 0}
    assert str(Infinite({2, 0})) == "inf(0,2)" and str(Infinite()) == "inf()"
    assert repr(Infinite({2, 0})) == "Infinite({0, 2})" and Infinite([1]) != 1
    assert len({Infinite({1}), Infinite([1]), Infinite()}) == 2


def test_sums_and_outcomes():
    assert sum_value([3, 5, 1]) == 7
    assert sum_value([Infinite({0, 2}), 3]) == Infinite({3, 1})
    assert sum_value([Infinite({0}), 1, Infinite({0})]) == Infinite()
    assert [outcome(g) for g in (0, 4, Infinite({0, 1}), Infinite({1}), Infinite())] == [
        "P", "N", "N", "D", "D"]


# -- sums of two tokens and their best moves --------------------------------------------


def check_sums(graph: dict, tokens: int = 2) -> None:
    game = LoopyGame(graph)
    moves = sum_moves(graph, tokens)
    verdicts = retrograde(moves)
    for at, verdict in verdicts.items():
        assert game.outcome(at) == verdict, (graph, at)
        move = game.best_move(at)
        if verdict == "P":
            assert move is None
            continue
        i, w = move
        assert w in graph[at[i]], (at, move)
        after = at[:i] + (w,) + at[i + 1 :]
        assert verdicts[after] == ("P" if verdict == "N" else "D"), (graph, at, move)
        if verdict == "N":
            assert_play_ends(game, moves, at)


def assert_play_ends(game: LoopyGame, moves: dict, start) -> None:
    """Following best_move from the N-position ``start``, against every reply, the play
    never comes back to a position: it ends, and (every move being to a lost position)
    the opponent is the one left without a move.  A move to any lost position would not
    do: from a: b c, b: a, c:, the move a -> b lets b -> a -> b ... go round for ever."""
    state = {start: "open"}
    stack = [(start, None)]
    while stack:
        at, replies = stack[-1]
        if replies is None:
            i, w = game.best_move(at)
            replies = iter(moves[at[:i] + (w,) + at[i + 1 :]])
            stack[-1] = (at, replies)
        for nxt in replies:
            if state.get(nxt) == "open":
                raise AssertionError(f"the play can go round from {start}: back to {nxt}")
            if nxt not in state:
                state[nxt] = "open"
                stack.append((nxt, None))
                break
        else:
            state[at] = "done"
            stack.pop()


@pytest.mark.parametrize("case", range(40))
def test_two_token_sums_outcomes_and_moves(case):
    rng = random.Random(SEED + 1000 + case)
    graph = random_loopy(rng, rng.randint(1, 12))
    print(f"seed {SEED + 1000 + case}: {graph}")
    check_sums(graph)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 9), max_size=4), min_size=1, max_size=8))
def test_two_token_sums_hypothesis(rows):
    n = len(rows)
    check_sums({v: [w % n for w in row] for v, row in enumerate(rows)})


@pytest.mark.parametrize("case", range(30))
def test_three_token_sums_outcomes_and_moves(case):
    """Three tokens, on small graphs with a nim-heap or two beside them: the measure that
    best_move lowers is a multiset of (value, order) pairs, here of three."""
    rng = random.Random(SEED + 2000 + case)
    graph = random_loopy(rng, rng.randint(1, 5))
    graph.update({"*0": [], "*1": ["*0"], "*2": ["*0", "*1"]})
    print(f"seed {SEED + 2000 + case}: {graph}")
    check_sums(graph, 3)


def test_the_move_to_any_zero_is_not_enough():
    game = LoopyGame({"a": ["b", "c"], "b": ["a"], "c": []})
    assert game.value("a") == 1 and game.value("b") == game.value("c") == 0
    assert game.best_move(["a"]) == (0, "c")  # not b: b -> a -> b ... is a draw
    with pytest.raises(ValueError, match="no vertex 'z' in the graph"):
        game.best_move(["a", "z"])


def test_three_tokens_with_an_infinite_one():
    """inf(K) + finite X: won exactly when X is in K, by moving the infinite token to X."""
    graph = {"a": ["a", "c", "h1"], "c": [], "h1": ["c"], "d": ["e"], "e": ["d", "c"]}
    game = LoopyGame(graph)
    assert game.value("a") == Infinite({0, 1})
    verdicts = retrograde(sum_moves(graph, 3))
    for at in [("a", "h1", "c"), ("a", "d", "e"), ("a", "e", "h1"), ("a", "a", "e")]:
        assert game.outcome(at) == verdicts[at]
        i, w = game.best_move(at)
        after = at[:i] + (w,) + at[i + 1 :]
        assert verdicts[after] == {"N": "P", "D": "D"}[verdicts[at]], (at, i, w)
    assert game.best_move(("a", "h1", "c")) == (0, "h1")


# -- the command ---------------------------------------------------------------------

LOOPY = """\
# the docs' graph: a and b move to each other, b also to c; d can stop (e) or not
a: b
b: a c
c:
d: d e
e:
f: d
g: g
"""


def test_cli_values_text_and_json():
    done = kayles_said("dag", "-", stdin=LOOPY)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "a: 0\nb: 1\nc: 0\nd: inf(0)\ne: 0\nf: 0\ng: inf()\n"
    done = kayles_said("dag", "--json", "-", stdin=LOOPY)
    assert json.loads(done.stdout) == {"a": 0, "b": 1, "c": 0, "d": {"inf": [0]}, "e": 0,
                                       "f": 0, "g": {"inf": []}}


def test_cli_values_agree_with_the_oracle():
    graph = {k: list(v) for k, v in parse_graph(LOOPY).items()}
    verdicts = retrograde(sum_moves(with_heaps(graph), 2))
    shown = {v: value_from_rules(verdicts, v) for v in graph}
    assert {k: str(g) for k, g in shown.items()} == {
        "a": "0", "b": "1", "c": "0", "d": "inf(0)", "e": "0", "f": "0", "g": "inf()"}


@pytest.mark.parametrize(
    ("tokens", "text", "data"),
    [
        (["a"], "P\nvalue: 0\n", {"outcome": "P", "value": 0, "move": None}),
        (["b", "a"], "N\nvalue: 1\nmove: b -> c\n",
         {"outcome": "N", "value": 1, "move": {"token": 0, "to": "c"}}),
        (["d"], "N\nvalue: inf(0)\nmove: d -> e\n",
         {"outcome": "N", "value": {"inf": [0]}, "move": {"token": 0, "to": "e"}}),
        (["b", "d"], "D\nvalue: inf(1)\nmove: d -> d\n",
         {"outcome": "D", "value": {"inf": [1]}, "move": {"token": 1, "to": "d"}}),
        (["d", "b", "b"], "N\nvalue: inf(0)\nmove: d -> e\n",
         {"outcome": "N", "value": {"inf": [0]}, "move": {"token": 0, "to": "e"}}),
        (["d", "d"], "D\nvalue: inf()\nmove: d -> d\n",
         {"outcome": "D", "value": {"inf": []}, "move": {"token": 0, "to": "d"}}),
    ],
)
def test_cli_sums(tokens, text, data):
    done = kayles_said("dag", "-", "--sum", *tokens, stdin=LOOPY)
    assert (done.returncode, done.stdout, done.stderr) == (0, text, "")
    done = kayles_said("dag", "--json", "-", "--sum", *tokens, stdin=LOOPY)
    assert (done.returncode, json.loads(done.stdout)) == (0, data)


def test_cli_sum_answers_agree_with_the_oracle():
    """The expected outcomes and moves of test_cli_sums, checked by the rules alone."""
    graph = {k: list(v) for k, v in parse_graph(LOOPY).items()}
    for at, verdict, after in [(("b", "a"), "N", ("c", "a")), (("d",), "N", ("e",)),
                               (("b", "d"), "D", ("b", "d")), (("d", "d"), "D", ("d", "d")),
                               (("a",), "P", None)]:
        verdicts = retrograde(sum_moves(graph, len(at)))
        assert verdicts[at] == verdict
        if after:
            assert verdicts[after] == {"N": "P", "D": "D"}[verdict]


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["--sum", "z"], LOOPY, "kayles dag: no vertex 'z' in the graph\n"),
        (["--sum", "a"], "a: b\n", "kayles dag: line 1: vertex 'a' moves to unknown vertex 'b'\n"),
        ([], "a b\n", "kayles dag: line 1: expected 'vertex: successors...', got 'a b'\n"),
    ],
)
def test_cli_errors(args, stdin, message):
    done = kayles_said("dag", "-", *args, stdin=stdin)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message)


def test_cli_sum_needs_a_vertex():
    done = kayles_said("dag", "-", "--sum", stdin=LOOPY)
    assert done.returncode == 2 and done.stdout == ""
    assert "--sum: expected at least one argument" in done.stderr


def test_a_cycle_holds_at_most_50_times_its_file(tmp_path):
    """The docs' bound, on the loopy worst shape: one long cycle of short names (every
    vertex labelled, every one infinite), over what the command holds for a tiny graph."""
    n = 200_000
    path = tmp_path / "cycle.txt"
    path.write_text("".join(f"{i}: {(i + 1) % n}\n" for i in range(n)))
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("a: b\nb:\n")
    grown = peak_kib("dag", str(path)) - peak_kib("dag", str(tiny))
    assert grown * 1024 <= 50 * path.stat().st_size, (grown, path.stat().st_size)


@pytest.mark.parametrize("tokens", [["b"] * 2001 + ["a"],  # N: a move to value 0
                                    ["b"] * 2000 + ["d"],  # N through the infinite token
                                    ["e", "d"] + ["b"] * 2000,  # D: a move to a draw
                                    ["c"] * 1000 + ["b"] * 1001])
def test_a_long_sum_is_answered_in_work_linear_in_its_tokens(monkeypatch, tokens):
    """dag --sum on thousands of tokens (examples/loopy.txt: a 0, b 1, c 0, d inf(0),
    e inf(1)): the values summed and the pairs sorted to find the
    move stay within a few per token (the version that summed every token once per
    candidate, and sorted them all, did about len(tokens) times as much)."""
    from kayles.analysis.games import digraph

    work = [0]

    def counted(function):
        def run(items, *args, **kwargs):
            items = list(items)
            work[0] += len(items)
            return function(items, *args, **kwargs)
        return run

    monkeypatch.setattr(digraph, "sum_value", counted(digraph.sum_value))
    monkeypatch.setattr(digraph, "sorted", counted(sorted), raising=False)
    game = LoopyGame(parse_graph((ROOT / "examples" / "loopy.txt").read_text()))
    move = game.best_move(tokens)
    assert move is not None
    assert work[0] <= 4 * len(tokens) + 100, work[0]
    assert game.analyse(tokens)[2] == move
