"""Node Kayles and Arc Kayles on graphs (kayles.kernels._graphs and its pure twin): a brute
force from the rules on random graphs, the twins step for step, isomorphic components in
one entry, labellings cut short still exact, a tiny table, the interrupt hook.

Expected values come from tests/oracle.py (every move tried on the whole position).
Random graphs print their seed.
"""

from __future__ import annotations

import random

import pytest

from kayles.kernels import limits

import oracle
from conftest import load_kernel

SEED = 20261202
BIG = 1 << 26


def compiled(kernel) -> bool:
    return ".pure." not in kernel.__name__


def random_graph(rng: random.Random, n: int) -> list[int]:
    p = rng.choice([0.15, 0.3, 0.5, 0.8])
    adj = [0] * n
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < p:
                adj[u] |= 1 << v
                adj[v] |= 1 << u
    return adj


def neighbour_sets(adj: list[int]) -> list[frozenset[int]]:
    return [frozenset(u for u in range(len(adj)) if row >> u & 1) for row in adj]


def test_values_match_a_brute_force_on_random_graphs(graph_kernel):
    largest, trials = (14, 200) if compiled(graph_kernel) else (11, 60)
    print("seed", SEED)
    rng = random.Random(SEED)
    for _ in range(trials):
        n = rng.randint(1, largest)
        adj = random_graph(rng, n)
        alive = sum(1 << v for v in range(n) if rng.random() < 0.9)
        for rule in ("node", "arc"):
            expected = oracle.kayles_on_graph(
                neighbour_sets(adj), frozenset(v for v in range(n) if alive >> v & 1),
                node=rule == "node")
            assert graph_kernel.Graph(adj, rule, BIG).nimber(alive) == expected, (adj, rule)


def test_has_value_answers_as_the_brute_force_does(graph_kernel):
    """has_value(alive, v) for the brute force's value, its neighbours and one past any
    value, on fresh graphs (nothing known before) and on one that holds the answers."""
    largest, trials = (12, 80) if compiled(graph_kernel) else (10, 30)
    print("seed", SEED)
    rng = random.Random(SEED + 1)
    for _ in range(trials):
        n = rng.randint(1, largest)
        adj = random_graph(rng, n)
        alive = sum(1 << v for v in range(n) if rng.random() < 0.9)
        for rule in ("node", "arc"):
            value = oracle.kayles_on_graph(
                neighbour_sets(adj), frozenset(v for v in range(n) if alive >> v & 1),
                node=rule == "node")
            warm = graph_kernel.Graph(adj, rule, BIG)
            for asked in sorted({0, 1, value, value + 1, max(value - 1, 0), 1 << 30}):
                fresh = graph_kernel.Graph(adj, rule, BIG)
                assert fresh.has_value(alive, asked) == (asked == value), (adj, rule)
                assert warm.has_value(alive, asked) == (asked == value)


def test_the_twins_agree_on_random_graphs(both_graph_kernels):
    """Values, splits, moves, keys and every count: the same labellings, the same table."""
    compiled_twin, pure = both_graph_kernels
    print("seed", SEED)
    rng = random.Random(SEED + 1)
    for _ in range(50):
        n = rng.randint(1, 16)
        adj = random_graph(rng, n)
        rule = rng.choice(["node", "arc"])
        memory, leaves = rng.choice([0, 500, BIG]), rng.choice([1, 3, 1024])
        alive = sum(1 << v for v in range(n) if rng.random() < 0.9)
        a = compiled_twin.Graph(adj, rule, memory, leaves)
        b = pure.Graph(adj, rule, memory, leaves)
        assert a.nimber(alive) == b.nimber(alive)
        assert a.stats() == b.stats()
        assert a.split(alive) == b.split(alive) and a.moves(alive) == b.moves(alive)
        if alive:
            low = alive & -alive
            assert a.key(low) == b.key(low)


def relabelled(adj: list[int], order: list[int]) -> list[int]:
    """The graph with vertex v renamed order[v]."""
    out = [0] * len(adj)
    for v, row in enumerate(adj):
        for u in range(len(adj)):
            if row >> u & 1:
                out[order[v]] |= 1 << order[u]
    return out


def test_isomorphic_positions_share_one_entry(graph_kernel):
    """Two copies of a graph, one relabelled, side by side: the split gives one key twice;
    solving the copy after the original stores nothing new."""
    print("seed", SEED)
    rng = random.Random(SEED + 2)
    for _ in range(10 if compiled(graph_kernel) else 4):
        n = rng.randint(6, 12 if compiled(graph_kernel) else 9)
        adj = random_graph(rng, n)
        order = list(range(n))
        rng.shuffle(order)
        other = relabelled(adj, order)
        both = adj + [row << n for row in other]  # vertices n .. 2n - 1: the copy
        for rule in ("node", "arc"):
            g = graph_kernel.Graph(both, rule, BIG)
            nim, keys = g.split((1 << (2 * n)) - 1)
            assert len(keys) % 2 == 0 and sorted(keys[: len(keys) // 2]) == sorted(
                keys[len(keys) // 2:])
            g.nimber((1 << n) - 1)
            entries = g.stats()["entries"]
            g.nimber(((1 << n) - 1) << n)
            assert g.stats()["entries"] == entries


def test_a_labelling_cut_short_gives_the_same_values(graph_kernel):
    """Cycles and complete bipartite graphs have many labellings; with one allowed the keys
    are not canonical, but exact."""
    cycle = [(1 << (v - 1) % 12) | (1 << (v + 1) % 12) for v in range(12)]
    bipartite = [0b111000 if v < 3 else 0b000111 for v in range(6)]
    for adj in (cycle, bipartite):
        for rule in ("node", "arc"):
            alive = (1 << len(adj)) - 1
            short = graph_kernel.Graph(adj, rule, BIG, 1)
            expected = oracle.kayles_on_graph(neighbour_sets(adj), frozenset(range(len(adj))),
                                              node=rule == "node")
            assert short.nimber(alive) == expected
            assert graph_kernel.Graph(adj, rule, BIG).nimber(alive) == expected


@pytest.mark.parametrize("memory", [0, 100, 2048])
def test_a_tiny_table_gives_the_same_values(graph_kernel, memory):
    rng = random.Random(SEED + 3)
    adj = random_graph(rng, 13 if compiled(graph_kernel) else 9)
    alive = (1 << len(adj)) - 1
    for rule in ("node", "arc"):
        small = graph_kernel.Graph(adj, rule, memory)
        assert small.nimber(alive) == graph_kernel.Graph(adj, rule, BIG).nimber(alive)
        assert small.stats()["bytes"] <= memory


def test_the_interrupt_hook_stops_a_search(graph_kernel):
    class Stop(Exception):
        pass

    def hook():
        raise Stop

    n = 8 if compiled(graph_kernel) else 7  # the queens graph of n x n
    adj = [sum(1 << (rr * n + cc) for rr in range(n) for cc in range(n)
               if (rr, cc) != (r, c) and (rr == r or cc == c or abs(rr - r) == abs(cc - c)))
           for r in range(n) for c in range(n)]
    g = graph_kernel.Graph(adj, "node", BIG)
    limits.set_interrupt(hook)
    try:
        with pytest.raises(Stop):
            g.nimber((1 << (n * n)) - 1)
    finally:
        limits.set_interrupt(None)
    assert g.nimber((1 << (n * n)) - 1) == {8: 3, 7: 2}[n]  # A344227


@pytest.mark.parametrize("call, error", [
    (lambda k: k.Graph([0] * 257, "node", 0), ValueError),
    (lambda k: k.Graph([2, 0], "node", 0), ValueError),
    (lambda k: k.Graph([1], "node", 0), ValueError),
    (lambda k: k.Graph([4], "node", 0), ValueError),
    (lambda k: k.Graph([2, 1], "edge", 0), ValueError),
    (lambda k: k.Graph([2, 1], "arc", 0, 0), ValueError),
    (lambda k: k.Graph([2, 1], "arc", 10).nimber(4), ValueError),
    (lambda k: k.Graph([2, 1], "arc", 10).key(0), ValueError),
    (lambda k: k.Graph(["a"], "arc", 10), TypeError),
    (lambda k: k.Graph([2, 1], "arc", 10).has_value(3, -2), ValueError),
    (lambda k: k.Graph([2, 1], "arc", 10).has_value(4, 0), ValueError),
])
def test_bad_arguments_are_refused_alike(both_graph_kernels, call, error):
    messages = []
    for kernel in both_graph_kernels:
        with pytest.raises(error) as caught:
            call(kernel)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


def test_graphs_of_256_vertices_split_alike():
    """Components past 64 vertices are keyed as sets of the graph's vertices."""
    compiled_twin, pure = load_kernel("cython", "graphs"), load_kernel("python", "graphs")
    n = 256
    path = [((1 << (v - 1)) if v else 0) | ((1 << (v + 1)) if v + 1 < n else 0) for v in range(n)]
    ladder = path[:127] + [1 << 126] + [0] * 128  # a path of 128, a cycle of 128 and a chord
    cycle = [(1 << (128 + (v - 1) % 128)) | (1 << (128 + (v + 1) % 128)) for v in range(128)]
    ladder[128:] = cycle
    ladder[128] |= 1 << 190
    ladder[190] |= 1 << 128
    for rule in ("node", "arc"):
        a, b = compiled_twin.Graph(ladder, rule, BIG), pure.Graph(ladder, rule, BIG)
        assert a.split((1 << n) - 1) == b.split((1 << n) - 1)
        nim, keys = a.split((1 << n) - 1)
        assert len(keys) == 1 and keys[0][0] >> 9 & 1  # a set of the root's vertices
