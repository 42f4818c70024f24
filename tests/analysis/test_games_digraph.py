"""mex and Sprague-Grundy values of digraphs (seeds 001, 002): definitions, size, errors."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from kayles.analysis.games.digraph import mex, mex_bits, parse_graph, sg_values

from conftest import ROOT, kayles_said


def test_mex():
    assert mex([]) == 0
    assert mex({0, 1, 3}) == 2
    assert mex([1, 2, 2]) == 0
    assert mex(range(5)) == 5
    for bits in range(1 << 10):
        assert mex_bits(bits) == mex(v for v in range(10) if bits >> v & 1)


def random_dag(rng: random.Random, n: int) -> list[list[int]]:
    """Edges only from lower to higher numbers, so no cycles."""
    return [rng.sample(range(v + 1, n), rng.randint(0, min(4, n - v - 1))) for v in range(n)]


def recursive_sg(graph: list[list[int]]) -> list[int]:
    """The seed's SG(G, i): mex of the successors' values, memoised."""
    memo: dict[int, int] = {}

    def sg(v: int) -> int:
        if v not in memo:
            memo[v] = mex(sg(w) for w in graph[v])
        return memo[v]

    return [sg(v) for v in range(len(graph))]


def test_random_dags_brute_force():
    rng = random.Random(2013)
    for _ in range(200):
        graph = random_dag(rng, rng.randint(1, 25))
        order = list(range(len(graph)))
        rng.shuffle(order)  # the order of the vertices must not matter
        values = sg_values({v: graph[v] for v in order})
        assert [values[v] for v in range(len(graph))] == recursive_sg(graph)


def product(g: list[list[int]], h: list[list[int]]) -> dict:
    """The sum of two games: move one of the two pebbles (seed 002)."""
    return {(u, v): [(w, v) for w in g[u]] + [(u, w) for w in h[v]]
            for u in range(len(g)) for v in range(len(h))}


def test_seed_sg2n_two_pile_nim_is_xor():
    pile = [list(range(i)) for i in range(9)]  # one Nim pile: i -> any smaller
    values = sg_values(product(pile, pile))
    assert all(values[i, j] == i ^ j for i in range(9) for j in range(9))


def test_sprague_grundy_theorem_on_random_dags():
    rng = random.Random(474)
    for _ in range(30):
        g, h = random_dag(rng, rng.randint(1, 12)), random_dag(rng, rng.randint(1, 12))
        sg_g, sg_h = sg_values(g), sg_values(h)
        values = sg_values(product(g, h))
        assert all(values[u, v] == sg_g[u] ^ sg_h[v] for u, v in values)


def test_deep_chain_needs_no_recursion():
    n = 300_000  # far past the recursion limit
    values = sg_values([[v + 1] for v in range(n - 1)] + [[]])
    assert values[0] == (n - 1) % 2 and values[n - 1] == 0 and values[n - 2] == 1


def test_a_million_edges():
    n = 1415  # v -> every w > v: n(n-1)/2 = 1,000,405 edges; G(v) = n - 1 - v
    graph = [range(v + 1, n) for v in range(n)]
    assert sum(map(len, graph)) > 10**6
    values = sg_values(graph)
    assert all(values[v] == n - 1 - v for v in range(n))


def test_cycles_and_unknown_vertices():
    with pytest.raises(ValueError, match=r"cycle: a -> a"):
        sg_values({"a": ["a"]})
    with pytest.raises(ValueError, match=r"cycle: b -> c -> d -> b"):
        sg_values({"a": ["b"], "b": ["c"], "c": ["d"], "d": ["b"]})
    with pytest.raises(ValueError, match=r"\(1000 vertices\) -> 0$"):
        sg_values([[(v + 1) % 1000] for v in range(1000)])
    with pytest.raises(ValueError, match="unknown vertex 'z'"):
        sg_values({"a": ["z"]})
    with pytest.raises(ValueError, match="unknown vertex 3"):
        sg_values([[1], [3]])


def test_parse_graph():
    text = "# the seed's pebble game\n\na: b c  # two moves\nb: c\nc:\n"
    assert parse_graph(text) == {"a": ("b", "c"), "b": ("c",), "c": ()}
    for bad, where in [("a b\n", "line 1"), ("a:\n\n: b\n", "line 3"),
                       ("a: b\nb:\na:\n", "line 3: vertex 'a' is already defined on line 1"),
                       ("a:\nb: a x\n", "line 2: vertex 'b' moves to unknown vertex 'x'"),
                       ("# nothing\n", "no vertices"), ("x y: z\n", "line 1")]:
        with pytest.raises(ValueError, match=where):
            parse_graph(bad)


def test_cli_text_json_stdin(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("a: b c\nb: c\nc:\nd: a c\n")
    done = kayles_said("dag", str(path))
    assert (done.returncode, done.stdout, done.stderr) == (0, "a: 2\nb: 1\nc: 0\nd: 1\n", "")
    done = kayles_said("dag", "--json", "-", stdin=path.read_text())
    assert json.loads(done.stdout) == {"a": 2, "b": 1, "c": 0, "d": 1}


def test_cli_long_chain_file(tmp_path):
    n = 100_000
    path = tmp_path / "chain.txt"
    path.write_text("".join(f"v{i}: v{i + 1}\n" for i in range(n - 1)) + f"v{n - 1}:\n")
    done = kayles_said("dag", str(path))
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert len(lines) == n and lines[0] == f"v0: {(n - 1) % 2}" and lines[-1] == f"v{n - 1}: 0"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: b\n", "kayles dag: line 1: vertex 'a' moves to unknown vertex 'b'\n"),
        ("", "kayles dag: line 1: the graph has no vertices\n"),
    ],
)
def test_cli_errors(text, message):
    """(A cycle is no longer one: tests/analysis/test_games_loopy.py.)"""
    done = kayles_said("dag", "-", stdin=text)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message)


PEAK = ("import resource, subprocess, sys; "
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def peak_kib(*args: str) -> int:
    """The peak resident memory of ``kayles ARGS`` (KiB), measured by a parent of its own."""
    result = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "kayles", *args],
                            capture_output=True, text=True, cwd=ROOT, timeout=300, check=True)
    return int(result.stdout)


@pytest.mark.parametrize("shape", ["chain", "sinks"])
def test_a_dag_holds_at_most_50_times_its_file(tmp_path, shape):
    """The docs' bound (reliability.md), on the worst shapes: a chain of short names (the
    most vertices a byte), and as many sinks ('name:' lines, no moves, 72 times the file
    before they shared one empty tuple); over what the command holds for a tiny graph."""
    path = tmp_path / f"{shape}.txt"
    n = 200_000
    if shape == "chain":
        path.write_text("".join(f"{i}: {i + 1}\n" for i in range(n - 1)) + f"{n - 1}:\n")
    else:
        path.write_text("".join(f"{i}:\n" for i in range(n)))
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("a: b\nb:\n")
    grown = peak_kib("dag", str(path)) - peak_kib("dag", str(tiny))
    assert grown * 1024 <= 50 * path.stat().st_size, (grown, path.stat().st_size)
