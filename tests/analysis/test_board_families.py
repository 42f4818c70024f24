"""The families of games on boards and graphs (kayles.analysis.games.cram, graph_kayles,
chomp): published values (OEIS, igsolve's README), the heap engine, a brute force from the
rules on small positions, winning moves, the text they read and the errors they give.

Expected values: tests/data/graph_games_oeis.json (OEIS data lines, with their source),
tests/data/cram_values.json, kayles' heap engine on 0.07 (Dawson's Kayles) and
tests/oracle.py, never the code under test.
"""

from __future__ import annotations

import json

import pytest

from kayles import Sequence, get_game
from kayles.analysis.games.chomp import Chomp
from kayles.analysis.games.cram import Cram
from kayles.analysis.games.graph_kayles import ArcKayles, Graph, NodeKayles
from kayles.errors import InputError

import oracle
from conftest import ROOT, load_kernel

OEIS = json.loads((ROOT / "tests" / "data" / "graph_games_oeis.json").read_text())
BIG = 1 << 26


def test_node_kayles_on_paths_is_dawsons_chess():
    """A002187 has offset 0: a(n) is the path of n vertices (the brute force settles it)."""
    terms = OEIS["A002187"]["data"]
    game = NodeKayles(BIG)
    for n in range(1, 9):
        path = Graph.family(f"path:{n}")
        assert oracle.kayles_on_graph([frozenset(oracle_bits(r)) for r in path.neighbours],
                                      frozenset(range(n)), node=True) == terms[n]
    assert [game.nimber(game.parse(f"path:{n}")) for n in range(1, len(terms))] == terms[1:]


def oracle_bits(row: int) -> list[int]:
    return [i for i in range(row.bit_length()) if row >> i & 1]


def test_arc_kayles_on_paths_is_dawsons_kayles():
    """0.07 by the heap engine (``kayles grundy --game 0.07``): the path of n vertices is a
    heap of n (A002187's comment: 0.07 has its values shifted by one)."""
    values = Sequence(get_game("0.07")).nimbers(119)  # G(0) .. G(119)
    game = ArcKayles(BIG)
    assert [game.nimber(game.parse(f"path:{n}")) for n in range(1, 120)] == values[1:]
    terms = OEIS["A002187"]["data"]
    assert values[1:] == terms[:119]


def test_node_kayles_on_three_by_n_grids():
    """A316632 (offset 1), on the board kernel (grids of at most 64 cells) and on the graph
    kernel alike."""
    terms = OEIS["A316632"]["data"]
    game = NodeKayles(BIG)
    assert [game.nimber(game.parse(f"grid:3x{n}")) for n in range(1, len(terms) + 1)] == terms
    graphs = load_kernel("cython", "graphs")
    for n in range(1, 13):
        grid = Graph.family(f"grid:3x{n}")
        assert graphs.Graph(grid.neighbours, "node", BIG).nimber((1 << (3 * n)) - 1) == \
            terms[n - 1]


def test_node_kayles_on_queens_graphs():
    """A344227 (offset 0; a(0) = 0 is the empty board), to 10 x 10."""
    terms = OEIS["A344227"]["data"]
    game = NodeKayles(BIG)
    assert [game.nimber(game.parse(f"queens:{n}")) for n in range(1, 11)] == terms[1:11]


@pytest.mark.slow
def test_node_kayles_on_the_queens_graphs_of_11_and_12():
    """A344227's a(11) and a(12) (some 6 s; a(13), its last term, takes a minute)."""
    terms = OEIS["A344227"]["data"]
    game = NodeKayles(BIG)
    assert [game.nimber(game.parse(f"queens:{n}")) for n in (11, 12)] == terms[11:13]


def test_cram_on_boards_with_published_values():
    game = Cram(BIG)
    small = json.loads((ROOT / "tests" / "data" / "cram_values.json").read_text())["small"]
    assert [game.nimber(game.parse(f"1x{n}")) for n in range(1, 11)] == small["1xn"]
    values = Sequence(get_game("0.07")).nimbers(39)
    assert [game.nimber(game.parse(f"1x{n}")) for n in range(1, 40)] == values[1:]
    assert game.nimber(game.parse("4x7")) == 3 and game.nimber(game.parse("5x6")) == 2


def test_even_by_even_full_boards_are_0_without_a_search():
    game = Cram(BIG)
    assert game.nimber(game.parse("8x8")) == 0 and game.nimber(game.parse("2x32")) == 0
    assert game.stats().get("expanded", 0) == 0


def test_winning_moves_win():
    """Every option solve() calls winning has value 0, every other option is not 0 (the
    brute force on each)."""
    game = Cram(BIG)
    for text in ("3x4", "..#./..../.#..", "2x5"):
        position = game.parse(text)
        value, winning = game.solve(position)
        for option in game.options(position):
            v = oracle.cram_value(option.rows, option.cols, option.free)
            assert (v == 0) == (option in winning)
        assert value == oracle.cram_value(*position)
    chomp = Chomp(BIG)
    value, winning = chomp.solve((4, 4, 2))
    assert value == oracle.chomp_value((4, 4, 2)) and winning
    assert all(oracle.chomp_value(o) == 0 for o in winning)
    node = NodeKayles(BIG)
    position = node.parse("cycle:7")
    value, winning = node.solve(position)
    # every move leaves the path of 4 vertices, of value 0 (A002187): C7 is 1, all moves win
    assert value == 1 and [node.describe(position, o) for o in winning] == list("1234567")
    value, winning = node.solve(node.parse("path:7"))
    assert value == 1 and [node.describe(node.parse("path:7"), o) for o in winning] == [
        "2", "4", "6"]


@pytest.mark.parametrize("text, board", [("4x7", "......./......./......./......."),
                                         ("..#/...", "..#/..."), (" 2X3 ", ".../...")])
def test_cram_boards_read_and_written(text, board):
    game = Cram(BIG)
    assert game.format(game.parse(text)) == board


@pytest.mark.parametrize("text, words", [
    ("9x8", "at most 64 cells"), ("0x3", "at least one row"), ("..#/..", "one length"),
    ("..x", "rows of '.'"), ("", "rows of '.'"), ("4x", "rows of '.'")])
def test_bad_cram_boards_are_refused(text, words):
    with pytest.raises(InputError, match=words):
        Cram(BIG).parse(text)


def test_a_graph_file_is_read_undirected(tmp_path):
    text = "# a triangle and a tail\na: b c\nb: a c   # the edge a-b listed twice\nc:\nd: c\n"
    graph = Graph.from_text(text)
    assert graph.names == ("a", "b", "c", "d") and graph.edges() == 4
    path = tmp_path / "g.txt"
    path.write_text(text)
    game = NodeKayles(BIG)
    position = game.parse(str(path))
    assert game.nimber(position) == oracle.kayles_on_graph(
        [frozenset(oracle_bits(r)) for r in graph.neighbours], frozenset(range(4)), node=True)
    assert Graph.from_text(game.format(position)) == graph


@pytest.mark.parametrize("text, words", [
    ("a b\n", "line 1: expected 'vertex: neighbours...'"),
    ("a b: c\n", "line 1: expected one vertex name"),
    ("a:\nb:\na: b\n", "line 3: vertex 'a' is already defined on line 1"),
    ("a: b\n", "line 1: vertex 'a' is joined to unknown vertex 'b'"),
    ("a: a\n", "line 1: vertex 'a' cannot be its own neighbour"),
    ("# nothing\n", "line 1: the graph has no vertices"),
    ("".join(f"v{i}:\n" for i in range(257)), "line 257: a graph has at most 256 vertices"),
])
def test_bad_graph_files_are_refused(text, words):
    with pytest.raises(InputError, match=words):
        Graph.from_text(text)


@pytest.mark.parametrize("text, words", [
    ("path:0", "at least 1"), ("cycle:2", "at least 3"), ("queens:17", "at most 16"),
    ("grid:3x", "grid:RxC"), ("path:257", "at most 256"), ("grid:20x20", "at most 256")])
def test_bad_graph_families_are_refused(text, words):
    with pytest.raises(InputError, match=words):
        NodeKayles(BIG).parse(text)


def test_networkx_graphs():
    nx = pytest.importorskip("networkx")  # the optional extra kayles[graphs]
    node, arc = NodeKayles(BIG), ArcKayles(BIG)
    petersen = nx.petersen_graph()
    graph = Graph.from_networkx(petersen)
    sets = [frozenset(oracle_bits(r)) for r in graph.neighbours]
    assert node.nimber(node.position(petersen)) == oracle.kayles_on_graph(
        sets, frozenset(range(10)), node=True)
    assert arc.nimber(arc.position(petersen)) == oracle.kayles_on_graph(
        sets, frozenset(range(10)), node=False)


def test_isomorphic_positions_share_a_key():
    game = NodeKayles(BIG)
    text = "a: b\nb: c\nc: d\nd: e\ne: a\nf: a"  # a 5-cycle with a pendant vertex
    other = "x: y\ny: z\nz: w\nw: v\nv: x\nu: w"
    assert game.key(game.position(Graph.from_text(text))) == game.key(
        game.position(Graph.from_text(other)))
    cram = Cram(BIG)
    assert cram.key(cram.parse("##../##../..../....")) == cram.key(
        cram.parse("..##/..##/..../...."))


@pytest.mark.parametrize("text, rows", [("5,3,3", (5, 3, 3)), ("3x4", (4, 4, 4)), ("1", (1,))])
def test_chomp_diagrams_read_and_written(text, rows):
    game = Chomp(BIG)
    assert game.parse(text) == rows and game.format(rows) == ",".join(map(str, rows))


@pytest.mark.parametrize("text, words", [("3,5", "must not grow"), ("3,0", "at least one"),
                                         ("a", "row lengths"), ("64x65", "at most 4,096")])
def test_bad_chomp_diagrams_are_refused(text, words):
    with pytest.raises(InputError, match=words):
        Chomp(BIG).parse(text)


def test_chomp_six_three_three_is_lost():
    assert Chomp(BIG).nimber(Chomp(BIG).parse("6,3,3")) == 0  # Brouwer's (6, 3, 3)
