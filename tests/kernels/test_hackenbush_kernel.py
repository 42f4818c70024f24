"""The Green Hackenbush kernel's twins (kayles.kernels._hackenbush and
kayles.kernels.pure._hackenbush): each against the rules, and each against the other.

Values and cuts expected come from tests/hackenbush_oracle.py (brute force from the rules:
cut an edge, drop what no longer reaches the ground, mex over the options) on small
pictures; on large ones the twins are compared with each other and with the value of
each cut recomputed afresh (a Search without that edge), never with ``cuts`` itself.
Texts are drawn at random with every kind of whitespace ``str.split`` knows, names
outside ASCII and bad tokens; the seed is printed (rerun with HACKENBUSH_SEED=...).
"""

from __future__ import annotations

import os
import random
import sys
from array import array

import hackenbush_oracle as oracle
import pytest

from kayles.kernels import constants, limits

SEED = int(os.environ.get("HACKENBUSH_SEED", random.randrange(1 << 32)))
SPACES = [c for c in map(chr, range(0x3001)) if c.isspace()]  # str.split's whitespace
# names: beside ASCII, characters whose UTF-8 starts as a space's does (no space themselves)
NAMES = ["g", "a", "b", "é", "🌲", "x\x00y", "G", "ab", "(x:y)", "\u3001", "\u2010", "\u00a1",
         "\u1681", "\u205e"]
EDGES = constants.HACKENBUSH_EDGES


def seeded(offset: int) -> random.Random:
    print(f"HACKENBUSH_SEED={SEED}", file=sys.stderr)
    return random.Random(SEED + offset)


def searched(kernel, edges):
    """The kernel's Search of pairs of names: (search, names in vertex order)."""
    names = {"g": 0}
    for u, v in edges:
        names.setdefault(u, len(names))
        names.setdefault(v, len(names))
    us = array("i", (names[u] for u, _ in edges))
    vs = array("i", (names[v] for _, v in edges))
    return kernel.Search(len(names), us, vs)


def random_picture(rng: random.Random, most: int = 9, pool: int = 7):
    names = ["g", *"abcdefghijklmnop"][: rng.randint(2, pool)]
    return [(rng.choice(names), rng.choice(names)) for _ in range(rng.randint(0, most))]


def random_text(rng: random.Random) -> str:
    """Tokens between runs of whitespace of every kind, now and then a bad one."""
    parts = []
    for _ in range(rng.randint(0, 12)):
        parts.append("".join(rng.choice(SPACES) for _ in range(rng.randint(0, 2))) or " ")
        u, v = rng.choice(NAMES), rng.choice(NAMES)
        token = f"{u}-{v}"
        if rng.random() < 0.06:
            token = rng.choice([u, f"{u}--{v}", f"-{v}", f"{u}-", "-", f"{u}-{v}-{u}"])
        parts.append(token)
    return "".join(parts) + rng.choice(["", " ", "\n", "\u2028"])


# -- reading edge lists -----------------------------------------------------------------------


def test_the_twins_read_every_text_alike_and_as_split_does(both_hackenbush_kernels):
    compiled, pure = both_hackenbush_kernels
    rng = seeded(0)
    for _ in range(3000):
        text = random_text(rng)
        most, chunk = rng.choice([0, 1, 3, 100]), rng.choice([1, 5, 1 << 20])
        got = compiled.parse(text, most, chunk)
        assert got == pure.parse(text, most, chunk), (SEED, text, most, chunk)
        names, us, vs, bad = got
        tokens = text.split()
        good = next((i for i, t in enumerate(tokens) if t.count("-") != 1
                     or t.startswith("-") or t.endswith("-")), len(tokens))
        read = min(good, most + 1)
        assert len(us) == len(vs) == read, (SEED, text)
        named = names.split("\n")
        assert named[0] == "g" and len(set(named)) == len(named)
        assert [f"{named[u]}-{named[v]}" for u, v in zip(us, vs)] == tokens[:read]
        if good < len(tokens) and good <= most:
            assert text[bad:].split()[0] == tokens[good], (SEED, text)
            assert bad == 0 or text[bad - 1].isspace(), (SEED, text)
        else:
            assert bad == -1


def test_parse_stops_at_most_plus_one_edges_and_at_the_first_bad_token(hackenbush_kernel):
    assert hackenbush_kernel.parse("g-a " * 9, 5, 4)[1:] == (
        array("i", [0] * 6), array("i", [1] * 6), -1)
    assert hackenbush_kernel.parse("g-a g-a bad g-a", 5, 4)[1:] == (
        array("i", [0, 0]), array("i", [1, 1]), 8)
    assert hackenbush_kernel.parse("g-a g-a bad", 1, 4)[1][:] == array("i", [0, 0])  # 2 edges
    assert hackenbush_kernel.parse("", 0, 1) == ("g", array("i"), array("i"), -1)
    assert hackenbush_kernel.parse("é\u00a0ü-g 🌲", 9, 1)[3] == 0  # 'é' is the bad token
    assert hackenbush_kernel.parse("a-b 🌲", 9, 1)[3] == 4  # in characters, not bytes


@pytest.mark.parametrize(("args", "error"), [
    ((b"g-a", 5, 1), TypeError),
    (("g-a", -1, 1), ValueError),
    (("g-a", EDGES + 1, 1), ValueError),
    (("g-a", 5, 0), ValueError),
    (("g-a", 5, "many"), TypeError),
    (("g-\ud800", 5, 1), UnicodeEncodeError),
])
def test_the_twins_refuse_bad_parse_arguments_alike(both_hackenbush_kernels, args, error):
    said = []
    for kernel in both_hackenbush_kernels:
        with pytest.raises(error) as caught:
            kernel.parse(*args)
        said.append(str(caught.value))
    assert said[0] == said[1]


# -- values and cuts ------------------------------------------------------------------------


def test_each_twin_agrees_with_the_brute_force(hackenbush_kernel):
    rng = seeded(1)
    for _ in range(600):
        edges = random_picture(rng)
        truth = oracle.Oracle(edges)
        search = searched(hackenbush_kernel, edges)
        assert search.value == truth.value(), (SEED, edges)
        reached = truth.start()
        assert search.grounded() == [i in reached for i in range(len(edges))], (SEED, edges)
        for target in range(5):
            for direct in (-1, 4):
                assert search.cuts(target, direct) == truth.cuts(target), (SEED, edges, target)


def test_the_twins_agree_on_random_multigraphs(both_hackenbush_kernels):
    compiled, pure = both_hackenbush_kernels
    rng = seeded(2)
    for _ in range(300):
        edges = random_picture(rng, most=rng.choice([20, 80, 300]), pool=rng.choice([5, 17]))
        if rng.random() < 0.5:  # long paths and hairs: trees to shed, classes to chain
            names = [f"p{i}" for i in range(rng.randint(2, 60))]
            edges += list(zip(["g", *names], names))
            edges += [(rng.choice(names), rng.choice(names)) for _ in range(rng.randint(0, 4))]
            rng.shuffle(edges)
        ours, theirs = searched(compiled, edges), searched(pure, edges)
        assert ours.value == theirs.value, (SEED, edges)
        assert ours.grounded() == theirs.grounded()
        for target in range(4):
            direct = rng.choice([-1, 0, 4, 10**9])
            assert ours.cuts(target, direct) == theirs.cuts(target, direct), (SEED, edges)


def recomputed(kernel, edges, target):
    """The edges whose cut leaves ``target``, each cut valued by a fresh Search."""
    grounded = searched(kernel, edges).grounded()
    return [i for i in range(len(edges)) if grounded[i]
            and searched(kernel, edges[:i] + edges[i + 1:]).value == target]


def test_a_circuit_with_hairs_by_the_trie_and_directly_is_each_cut_recomputed(
        hackenbush_kernel):
    """One class as long as the circuit, its pieces weighted by the hairs."""
    rng = seeded(3)
    for _ in range(8):
        n = rng.randint(3, 80)
        names = ["g", *(f"v{i}" for i in range(1, n)), "g"]
        edges = list(zip(names, names[1:]))
        for v in names[1:-1]:
            for k in range(rng.choice([0, 0, 1, 2, 3])):
                edges.append((v, f"{v}h{k}"))
                if rng.random() < 0.3:
                    edges.append((f"{v}h{k}", f"{v}h{k}"))
        rng.shuffle(edges)
        search = searched(hackenbush_kernel, edges)
        for target in range(3):
            expected = recomputed(hackenbush_kernel, edges, target)
            assert search.cuts(target, -1) == expected, (SEED, edges, target)
            assert search.cuts(target, 10**9) == expected, (SEED, edges, target)


def test_the_twins_agree_on_pictures_of_thousands_of_edges(both_hackenbush_kernels):
    compiled, pure = both_hackenbush_kernels
    rng = seeded(4)
    for shape in ("tree", "cycles", "circuit"):
        m = 4000
        if shape == "tree":
            edges = [(f"v{rng.randrange(i)}", f"v{i}") for i in range(1, m)]
        elif shape == "cycles":
            edges = [(f"v{rng.randrange(i)}", f"v{i}") for i in range(1, m // 2)]
            edges += [(f"v{rng.randrange(m // 2)}", f"v{rng.randrange(m // 2)}")
                      for _ in range(m // 2)]
        else:
            edges = [(f"v{i}", f"v{i + 1}") for i in range(m // 2)] + [(f"v{m // 2}", "v0")]
            edges += [(f"v{rng.randrange(m // 2)}", f"h{i}") for i in range(m // 2)]
        edges = [("g" if u == "v0" else u, "g" if v == "v0" else v) for u, v in edges]
        ours, theirs = searched(compiled, edges), searched(pure, edges)
        assert ours.value == theirs.value, (SEED, shape)
        for target in (0, 1, ours.value ^ 3):
            assert ours.cuts(target, 4) == theirs.cuts(target, 4), (SEED, shape, target)


def test_a_target_past_every_value_and_the_own_value_have_no_cut(hackenbush_kernel):
    search = searched(hackenbush_kernel, [("g", "a"), ("a", "b")])
    assert search.value == 2
    assert search.cuts(2, 4) == []  # no option of a game has its value
    assert search.cuts(1, 4) == [1] and search.cuts(0, 4) == [0]
    assert search.cuts(1 << 30, 4) == search.cuts(10**40, 4) == []


def test_a_path_of_a_million_edges_needs_no_recursion(hackenbush_kernel):
    n = 10**6 if hackenbush_kernel.__name__ == "kayles.kernels._hackenbush" else 10**5
    search = hackenbush_kernel.Search(n + 1, array("i", range(n)), array("i", range(1, n + 1)))
    assert search.value == n
    assert search.cuts(0, 4) == [0]
    circuit = hackenbush_kernel.Search(n, array("i", range(n)), array("i", [*range(1, n), 0]))
    assert circuit.value == n % 2


@pytest.mark.parametrize(("args", "error"), [
    ((0, array("i"), array("i")), ValueError),
    ((2, array("i", [0]), array("i", [2])), ValueError),
    ((2, array("i", [-1]), array("i", [1])), ValueError),
    ((2, array("i", [0, 1]), array("i", [1])), ValueError),
    ((2, [0, 2**40], [1, 1]), ValueError),
    ((2, "ab", [1, 1]), TypeError),
    (("2", [0], [1]), TypeError),
    ((2 * EDGES + 2, [0], [1]), ValueError),
])
def test_the_twins_refuse_bad_pictures_alike(both_hackenbush_kernels, args, error):
    said = []
    for kernel in both_hackenbush_kernels:
        with pytest.raises(error) as caught:
            kernel.Search(*args)
        said.append(str(caught.value))
    assert said[0] == said[1]


@pytest.mark.parametrize(("args", "error"), [((-1, 4), ValueError), ((1.0, 4), TypeError),
                                             ((0, -2), ValueError), ((0, 1 << 31), ValueError),
                                             (("0", 4), TypeError)])
def test_the_twins_refuse_bad_targets_alike(both_hackenbush_kernels, args, error):
    said = []
    for kernel in both_hackenbush_kernels:
        with pytest.raises(error) as caught:
            searched(kernel, [("g", "a")]).cuts(*args)
        said.append(str(caught.value))
    assert said[0] == said[1]


# -- arms of a chain ------------------------------------------------------------------------


def by_definition(weights):
    """V(p) = w1 ^ (1 + V'(p)), read straight from its definition."""
    out = []
    for p in range(1, len(weights) + 1):
        x = weights[p - 1]
        for w in reversed(weights[: p - 1]):
            x = w ^ (x + 1)
        out.append(x)
    return out


def test_the_arms_of_each_twin_are_the_definition(hackenbush_kernel):
    rng = seeded(5)
    for _ in range(200):
        m = rng.randint(0, 80)
        weights = [rng.choice([0, 0, 0, 1, 2, 3, 6, 17, rng.randrange(1 << 20)])
                   for _ in range(m)]
        expected = by_definition(weights)
        assert hackenbush_kernel.chain_values_trie(weights) == expected, (SEED, weights)
        assert hackenbush_kernel.chain_values_direct(weights) == expected, (SEED, weights)
        for direct in (-1, 0, 4, 1 << 30):
            assert hackenbush_kernel.chain_values(weights, direct) == expected


@pytest.mark.parametrize("weights", [[-1], [2**31], [2**31 - 2, 1], "ab", [1.5]])
def test_the_twins_refuse_bad_weights_alike(both_hackenbush_kernels, weights):
    said = []
    for kernel in both_hackenbush_kernels:
        for function in (kernel.chain_values_trie, kernel.chain_values_direct):
            with pytest.raises((TypeError, ValueError)) as caught:
                function(weights)
            said.append((type(caught.value), str(caught.value)))
    assert said[0] == said[1] == said[2] == said[3]


# -- stopping -------------------------------------------------------------------------------


class Stop(Exception):
    pass


@pytest.fixture
def hook():
    """The interrupt hook, counting its calls; it raises Stop from call ``at`` on (0:
    never)."""

    class Hook:
        calls = 0
        at = 0

        def __call__(self):
            self.calls += 1
            if self.at and self.calls >= self.at:
                raise Stop

    made = Hook()
    limits.set_interrupt(made)
    yield made
    limits.set_interrupt(None)


def test_every_long_call_looks_at_the_interrupt_hook_as_it_goes(hackenbush_kernel, hook):
    """A circuit of 2 x 10^5 edges with a hair on each vertex: every pass of each call is
    long enough for the hook to be called twice in it, and a hook that raises ends it."""
    n = 200_000
    text = " ".join([*(f"v{i}-v{i + 1}" for i in range(n - 1)), f"v{n - 1}-g",
                     *(f"v{i}-h{i}" for i in range(1, n))])
    calls = []
    for step in ("parse", "search", "cuts", "arms"):
        hook.calls, hook.at = 0, 0
        if step == "parse":
            names, us, vs, _ = hackenbush_kernel.parse(text, EDGES, 1 << 16)
            vertices = names.count("\n") + 1
        elif step == "search":
            search = hackenbush_kernel.Search(vertices, us, vs)
        elif step == "cuts":
            search.cuts(0 if search.value else 1, -1)
        else:
            hackenbush_kernel.chain_values_trie([1 + i % 7 for i in range(n)])
        calls.append(hook.calls)
    assert min(calls) >= 2, calls
    for step, call in (("parse", lambda: hackenbush_kernel.parse(text, EDGES, 1 << 16)),
                       ("search", lambda: hackenbush_kernel.Search(vertices, us, vs)),
                       ("cuts", lambda: search.cuts(0 if search.value else 1, -1)),
                       ("arms", lambda: hackenbush_kernel.chain_values_trie([1] * n))):
        hook.calls, hook.at = 0, 2
        with pytest.raises(Stop):
            call()
        assert hook.calls == 2, step
    hook.at = 0
    assert search.cuts(0 if search.value else 1, -1) == search.cuts(
        0 if search.value else 1, 4)  # a stopped call left the search as it was


def test_searches_from_many_threads_agree(hackenbush_kernel):
    """One Search shared by 8 threads, each asking for cuts at once (a compiled Search
    takes one call at a time)."""
    from concurrent.futures import ThreadPoolExecutor

    rng = seeded(6)
    edges = random_picture(rng, most=3000, pool=17) + [(f"p{i}", f"p{i + 1}") for i in range(99)]
    search = searched(hackenbush_kernel, edges)
    alone = [search.cuts(t, 4) for t in range(8)]
    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(lambda t: search.cuts(t, 4), range(8))) == alone
