"""Green Hackenbush (kayles.analysis.games.hackenbush) against the rules.

Expected values come from tests/hackenbush_oracle.py (brute force: cut an edge, drop
what no longer reaches the ground, mex over the options, memoised on the edge set),
from principles stated in the literature and checked here by that brute force too, or
from direct recomputation (the value after each cut, by a fresh Picture without the
edge) where the pictures are past the brute force's reach; never from ``cuts`` itself.
"""

from __future__ import annotations

import os
import random
import sys

import hackenbush_oracle as oracle
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kayles.analysis.games import hackenbush
from kayles.analysis.games.hackenbush import (
    Picture,
    chain_values,
    chain_values_direct,
    chain_values_trie,
    parse_picture,
    sum_cuts,
    sum_value,
)
from kayles.errors import InputError

SEED = int(os.environ.get("HACKENBUSH_SEED", random.randrange(1 << 32)))


def edges_of(text: str) -> list[tuple[str, str]]:
    return [tuple(token.split("-")) for token in text.split()]


def random_picture(rng: random.Random, most: int = 9) -> list[tuple[str, str]]:
    """Up to ``most`` edges among the ground and a few vertices: loops, parallel edges and
    edges away from the ground come often."""
    pool = ["g", *"abcdef"][: rng.randint(2, 7)]
    return [(rng.choice(pool), rng.choice(pool)) for _ in range(rng.randint(0, most))]


def recomputed_cuts(edges: list[tuple[str, str]], target: int = 0) -> list[int]:
    """The edges whose cut leaves ``target``, each cut valued afresh (the value alone is
    what the brute force checks; this checks the cuts against it on large pictures)."""
    picture = Picture(edges)
    return [i for i, part in enumerate(picture.grounded())
            if part and Picture(edges[:i] + edges[i + 1:]).value == target]


# -- against the brute force -------------------------------------------------------------------


def test_every_random_picture_of_up_to_nine_edges_agrees_with_the_brute_force():
    """Values and the cuts to every value 0..4 (0: the winning cuts; the others: what a sum
    asks of each picture), on pictures drawn at random (the seed is printed: rerun with
    HACKENBUSH_SEED=...)."""
    print(f"HACKENBUSH_SEED={SEED}", file=sys.stderr)
    rng = random.Random(SEED)
    for _ in range(1500):
        edges = random_picture(rng)
        truth = oracle.Oracle(edges)
        picture = Picture(edges)
        assert picture.value == truth.value(), (SEED, edges)
        for target in range(5):
            assert picture.cuts(target) == truth.cuts(target), (SEED, edges, target)


pictures = st.lists(st.tuples(st.sampled_from("gabcd"), st.sampled_from("gabcd")), max_size=9)


@settings(max_examples=300, deadline=None)
@given(pictures)
def test_any_picture_of_up_to_nine_edges_agrees_with_the_brute_force(edges):
    truth = oracle.Oracle(edges)
    picture = Picture(edges)
    assert picture.value == truth.value()
    assert picture.cuts() == oracle.winning_cuts(edges)
    assert picture.cuts(1) == truth.cuts(1)


def test_every_picture_on_the_ground_and_two_vertices_of_up_to_five_edges():
    """Exhaustive: every multiset of up to five edges over {g, a, b} (loops included)."""
    from itertools import combinations_with_replacement

    kinds = [("g", "g"), ("g", "a"), ("g", "b"), ("a", "a"), ("a", "b"), ("b", "b")]
    for size in range(6):
        for edges in combinations_with_replacement(kinds, size):
            edges = list(edges)
            assert Picture(edges).value == oracle.value(edges), edges
            assert Picture(edges).cuts() == oracle.winning_cuts(edges), edges


def test_the_parity_lemma_by_brute_force_alone():
    """v(H) = |H| (mod 2), the edges counted that reach the ground: the lemma the fusion
    principle rests on (docs/how-it-works.md), checked on the brute force only."""
    rng = random.Random(SEED + 6)
    for _ in range(800):
        edges = random_picture(rng)
        truth = oracle.Oracle(edges)
        assert truth.value() % 2 == len(truth.start()) % 2, (SEED, edges)


def test_sums_agree_with_the_brute_force_of_the_whole_sum():
    """The brute force plays the sum as one game (no XOR assumed)."""
    rng = random.Random(SEED + 1)
    for _ in range(60):
        parts = [random_picture(rng, 4) for _ in range(rng.randint(2, 3))]
        total, cuts = oracle.sum_winning_cuts(parts)
        made = [Picture(p) for p in parts]
        assert sum_value(made) == total, (SEED, parts)
        assert sum_cuts(made) == cuts, (SEED, parts)


# -- what the literature says, checked by the brute force too -----------------------------------


def stalk(n: int) -> str:
    return " ".join(f"{'g' if i == 0 else f'v{i}'}-v{i + 1}" for i in range(n))


def circuit(n: int) -> str:
    """n edges round a circuit through the ground: g-v1-...-v(n-1)-g."""
    names = ["g", *(f"v{i}" for i in range(1, n)), "g"]
    return " ".join(f"{a}-{b}" for a, b in zip(names, names[1:]))


# (picture, value, winning cuts), each worked by hand from the principles below
TEXTBOOK = {
    # Winning Ways ch. 7 / Ferguson: a stalk (bamboo) of n edges is *n; cut to nothing
    "stalk of 1": (stalk(1), 1, [0]),
    "stalk of 5": (stalk(5), 5, [0]),
    # the fusion principle: a circuit of n edges through the ground fuses to n loops at
    # the ground: odd is one edge (*1), even nothing (0)
    "triangle on the ground": ("g-a a-b b-g", 1, [1]),  # only the top: two stalks of 1 remain
    "square on the ground": (circuit(4), 0, []),
    "pentagon on the ground": (circuit(5), 1, [2]),  # the middle edge: stalks of 2 and 2
    # a loop is worth a stalk of one edge (loops at one vertex: their parity)
    "a loop on the ground": ("g-g", 1, [0]),
    "two loops on a stalk": ("g-a a-a a-a", 1, [0]),  # 1 + (1 ^ 1) = 1: cut the stalk
    # a triangle hanging from a stalk: fused at its top to 3 loops, *1; so 1 + 1 = *2
    "triangle on a stalk": ("g-a a-b b-c c-a", 2, [0]),
    # a house: walls g-a, b-g and a ceiling a-b (the floor is the ground) under a roof
    # a-c, c-b: 5 edges on circuits through the ground, *1.  Cutting the ceiling leaves a
    # circuit of 4 (0); cutting a side of the roof leaves a triangle (*1) with a stalk of
    # one on b (fused: 1 ^ 1 = 0); cutting a wall leaves 1 + *1 = *2
    "house": ("g-a a-b b-g a-c c-b", 1, [1, 3, 4]),
    # the colon principle: a tree; branches at one vertex add by XOR, an edge adds 1
    "Y": ("g-a a-b a-c", 1, [0]),  # 1 + (1 ^ 1) = 1
    "fork of 1 and 2": ("g-a a-b a-c c-d", 4, [0]),  # 1 + (1 ^ 2): only the trunk's cut
    "parallel edges to the ground": ("g-a g-a", 0, []),  # two feet: a circuit of 2
    "away from the ground": ("a-b b-c c-a", 0, []),  # not part of the game
}


@pytest.mark.parametrize("name", list(TEXTBOOK))
def test_textbook_pictures(name):
    text, value, cuts = TEXTBOOK[name]
    edges = edges_of(text)
    assert (oracle.value(edges), oracle.winning_cuts(edges)) == (value, cuts), "the table is wrong"
    picture = parse_picture(text)
    assert (picture.value, picture.cuts()) == (value, cuts)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 40, 1000])
def test_a_stalk_of_n_edges_is_star_n_and_the_only_winning_cut_is_at_the_ground(n):
    picture = parse_picture(stalk(n))
    assert picture.value == n
    assert picture.cuts() == [0]  # cutting edge k leaves a stalk of k
    assert picture.cuts(n - 1) == [n - 1]


@pytest.mark.parametrize("n", [2, 3, 4, 9, 10, 101, 1000, 1001])
def test_a_circuit_through_the_ground_is_its_parity(n):
    """Cutting edge j of n leaves stalks of j and n - 1 - j: value j ^ (n - 1 - j)."""
    picture = parse_picture(circuit(n))
    assert picture.value == n % 2
    want = [j for j in range(n) if j ^ (n - 1 - j) == 0] if n % 2 else []
    assert picture.cuts() == want
    assert picture.cuts(3) == [j for j in range(n) if j ^ (n - 1 - j) == 3]


def test_a_path_of_200_thousand_edges_needs_no_recursion():
    n = 200_000
    picture = parse_picture(stalk(n))
    assert picture.value == n
    assert picture.cuts() == [0]


def test_a_long_circuit_with_hair_agrees_with_recomputing_each_cut_on_both_arm_methods(
        monkeypatch):
    """One class as long as the circuit, with weights: the trie and direct evaluation."""
    rng = random.Random(SEED + 2)
    for forced in (-1, 10**9):  # the trie always; direct evaluation always
        monkeypatch.setattr(hackenbush, "DIRECT_PER_LEVEL", forced)
        for _ in range(6):
            edges = edges_of(circuit(rng.randint(3, 60)))
            vertices = sorted({v for e in edges for v in e} - {"g"})
            for v in vertices:
                for k in range(rng.choice([0, 0, 1, 2, 3])):
                    edges.append((v, f"{v}h{k}"))
                    if rng.random() < 0.3:
                        edges.append((f"{v}h{k}", f"{v}h{k}"))
            rng.shuffle(edges)
            picture = Picture(edges)
            for target in range(4):
                assert picture.cuts(target) == recomputed_cuts(edges, target), (SEED, edges)


def test_random_multigraphs_of_up_to_eighty_edges_agree_with_recomputing_each_cut():
    rng = random.Random(SEED + 3)
    for _ in range(40):
        names = ["g", *(f"x{i}" for i in range(rng.randint(3, 40)))]
        edges = [(rng.choice(names), rng.choice(names)) for _ in range(rng.randint(5, 80))]
        picture = Picture(edges)
        for target in range(3):
            assert picture.cuts(target) == recomputed_cuts(edges, target), (SEED, edges)


def test_ladders_and_chains_of_circuits_agree_with_recomputing_each_cut():
    """Classes of many tree edges (a ladder's rails), pieces that hold circuits."""
    rng = random.Random(SEED + 4)
    for _ in range(12):
        k = rng.randint(2, 12)
        edges = [("g", "a0"), ("g", "b0")]
        for i in range(k):
            edges += [(f"a{i}", f"a{i + 1}"), (f"b{i}", f"b{i + 1}")]
            if rng.random() < 0.5:
                edges.append((f"a{i}", f"b{i}"))
            if rng.random() < 0.3:
                edges.append((f"a{i}", f"t{i}"))
        edges.append((f"a{k}", f"b{k}"))
        rng.shuffle(edges)
        assert Picture(edges).cuts() == recomputed_cuts(edges), (SEED, edges)


# -- the chain's arms --------------------------------------------------------------------------


def by_definition(weights: list[int]) -> list[int]:
    """V(p) = w1 ^ (1 + V'(p)) read straight from its definition."""
    out = []
    for p in range(1, len(weights) + 1):
        x = weights[p - 1]
        for w in reversed(weights[: p - 1]):
            x = w ^ (x + 1)
        out.append(x)
    return out


def test_the_arms_by_the_trie_and_directly_are_the_definition():
    rng = random.Random(SEED + 5)
    for _ in range(200):
        m = rng.randint(0, 80)
        weights = [rng.choice([0, 0, 0, 1, 2, 3, 6, 17, rng.randrange(1000)]) for _ in range(m)]
        expected = by_definition(weights)
        assert chain_values_trie(weights) == expected, (SEED, weights)
        assert chain_values_direct(weights) == expected, (SEED, weights)
        assert chain_values(weights) == expected


# -- reading pictures --------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "says"), [
    ("g-a ab", "line 1, token 2 (edge 1): 'ab' is not an edge (no '-')"),
    ("g-a\na--b", "line 2, token 1 (edge 1): 'a--b' is not an edge (2 '-')"),
    ("g-a\n  g-b  -c", "line 2, token 2 (edge 2): '-c' is not an edge (a vertex name is empty)"),
    ("g-", "line 1, token 1 (edge 0): 'g-' is not an edge (a vertex name is empty)"),
    ("a-b c-d-e f", "line 1, token 2 (edge 1): 'c-d-e'"),
])
def test_a_bad_token_is_named_with_its_place(text, says):
    with pytest.raises(InputError) as caught:
        parse_picture(text)
    assert says in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_bad_token_past_the_first_chunk_is_found_where_it_is(monkeypatch):
    monkeypatch.setattr(hackenbush, "CHUNK", 16)
    text = "g-a a-b b-c\nc-d d-e e-f f-g\ng-h hh h-i"
    with pytest.raises(InputError, match=r"line 3, token 2 \(edge 8\): 'hh'"):
        parse_picture(text)
    assert parse_picture(text.replace("hh", "h-j")).edges() == edges_of(
        text.replace("hh", "h-j"))


def test_a_long_token_is_cut_in_the_message():
    with pytest.raises(InputError) as caught:
        parse_picture("g-a " + "x" * 10**6)
    assert "the first 60 of 1000000 characters" in str(caught.value)
    assert len(str(caught.value)) < 300


def test_names_are_any_non_space_characters_but_the_dash():
    picture = parse_picture("g-été été-🌲 🌲-(x:y) (x:y)-g\r\n\tG-g")
    assert picture.edges() == [("g", "été"), ("été", "🌲"), ("🌲", "(x:y)"), ("(x:y)", "g"),
                               ("G", "g")]
    assert picture.edge_text(2) == "🌲-(x:y)"
    assert picture.value == oracle.value(picture.edges())  # 'G' is a vertex, not the ground


def test_crlf_and_blank_lines_are_whitespace_and_an_empty_text_is_the_empty_picture():
    assert parse_picture("g-a\r\n\r\na-b\r\n").edges() == [("g", "a"), ("a", "b")]
    for empty in ("", " \n\t\r\n"):
        picture = parse_picture(empty)
        assert (len(picture), picture.value, picture.cuts()) == (0, 0, [])


def test_a_picture_past_the_bound_on_edges_is_refused_before_its_search(monkeypatch):
    from kayles.errors import ResourceError

    monkeypatch.setattr(hackenbush, "MAX_EDGES", 5)
    monkeypatch.setattr(hackenbush, "CHUNK", 8)
    assert parse_picture("g-a " * 5).value == 1
    for many in ("g-a " * 6, "g-a\n" * 4 + "g-b g-c"):
        with pytest.raises(ResourceError, match="at most 5 edges"):
            parse_picture(many)
    with pytest.raises(ResourceError, match="at most 5 edges"):
        Picture([("g", "a")] * 6)


def test_pictures_from_pairs_refuse_bad_names():
    assert Picture([("g", "a")]).value == 1
    for bad in ("", "a-b", "a b", 7):
        with pytest.raises(InputError, match="edge 1: a vertex name"):
            Picture([("g", "a"), ("a", bad)])
    for pair in (("a",), ("a", "b", "c"), 5):
        with pytest.raises(InputError, match="edge 1: an edge is a pair of vertex names"):
            Picture([("g", "a"), pair])


def test_edges_away_from_the_ground_are_never_cuts_and_a_cut_to_its_own_value_none():
    picture = parse_picture("g-a x-y y-z")
    assert picture.grounded() == [True, False, False]
    assert (picture.value, picture.cuts()) == (1, [0])
    assert picture.cuts(1) == []  # no option of a game has the game's value
    with pytest.raises(InputError):
        picture.cuts(-1)
