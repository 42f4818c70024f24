"""Node Kayles and Arc Kayles on graphs: a move removes a vertex and its neighbours (Node
Kayles), or the two ends of an edge (Arc Kayles); who cannot move loses.

A graph (``Graph``): at most 256 vertices, each with a name, undirected, no loops.  Made
from a family (``Graph.family``, the text a command takes):

    path:N       the path of N vertices 1 - 2 - ... - N
    cycle:N      the cycle of N >= 3 vertices
    complete:N   every two of N vertices joined
    grid:RxC     the R x C grid (cells a1, b1, ...: column letter, row number)
    queens:N     the N x N board, two cells joined when a queen on one attacks the other

from a file (``Graph.from_text``; one line per vertex, as ``kayles dag`` reads, each edge
listed once or twice, ``#`` comments), or from a networkx graph (``Graph.from_networkx``;
networkx is not needed for anything else)::

    a: b c      # a is joined to b and to c
    b: c
    c:

A position (``GraphPosition``) is a graph and the set of its vertices still there, an int
(bit i for the i-th vertex).  Values come from the pruned search of
kayles.kernels._graphs (or its pure twin): components canonically labelled, so that
isomorphic components share one entry.  Node Kayles on the path of N vertices is Dawson's
Chess (OEIS A002187), Arc Kayles on it Dawson's Kayles (0.07); Arc Kayles on a grid is
Cram, and a grid of at most 64 cells is searched as a board (kayles.kernels._boards) under
either rule, where congruent shapes share an entry.
"""

from __future__ import annotations

from typing import NamedTuple

from ...errors import InputError, shown
from ...kernels.constants import BOARD_CELLS, GRAPH_VERTICES
from .pruned import PrunedFamily

__all__ = ["ArcKayles", "Graph", "GraphPosition", "NodeKayles"]

MAX_FILE_BYTES = 1 << 24  # a graph file: far more than 256 vertices' lines
FAMILIES = ("path", "cycle", "complete", "grid", "queens")


class Graph:
    """An undirected graph without loops of at most 256 named vertices: ``names`` and
    ``neighbours`` (each vertex's as an int, bit j for the j-th vertex); ``board`` is
    (rows, cols) for a grid whose vertex r * cols + c is the cell in row r, column c."""

    __slots__ = ("board", "names", "neighbours")

    def __init__(self, names, neighbours, board: tuple[int, int] | None = None) -> None:
        self.names, self.neighbours, self.board = tuple(names), tuple(neighbours), board
        if len(self.names) > GRAPH_VERTICES:
            raise InputError(f"a graph has at most {GRAPH_VERTICES} vertices, not "
                             f"{len(self.names):,}")

    def __eq__(self, other) -> bool:
        return isinstance(other, Graph) and (self.names, self.neighbours) == (
            other.names, other.neighbours)

    def __hash__(self) -> int:
        return hash((self.names, self.neighbours))

    def __repr__(self) -> str:
        return f"Graph({len(self.names)} vertices, {self.edges()} edges)"

    def __len__(self) -> int:
        return len(self.names)

    def edges(self) -> int:
        return sum(row.bit_count() for row in self.neighbours) // 2

    @classmethod
    def from_edges(cls, names, edges, board=None) -> Graph:
        """The graph of these vertex names and (i, j) pairs of their indices."""
        names = tuple(names)
        rows = [0] * len(names)
        for i, j in edges:
            if i != j:
                rows[i] |= 1 << j
                rows[j] |= 1 << i
        return cls(names, rows, board)

    @classmethod
    def family(cls, text: str) -> Graph:
        """``path:N``, ``cycle:N``, ``complete:N``, ``grid:RxC`` or ``queens:N``."""
        name, _, size = text.strip().partition(":")
        name = name.lower()
        if name not in FAMILIES:
            raise InputError(f"a graph family is {', '.join(f + ':' for f in FAMILIES)} or "
                             f"a file, not {shown(text)}")
        if name == "grid":
            rows, cols = _dimensions(size, text)
            return cls.grid(rows, cols)
        n = _count(size, text, 3 if name == "cycle" else 1)
        if name == "queens":
            if n * n > GRAPH_VERTICES:
                raise InputError(f"queens:N has N * N vertices, at most {GRAPH_VERTICES}: "
                                 f"N is at most 16, not {n:,}")
            return cls.queens(n)
        if n > GRAPH_VERTICES:
            raise InputError(f"a graph has at most {GRAPH_VERTICES} vertices, not {n:,}")
        names = [str(i + 1) for i in range(n)]
        if name == "path":
            return cls.from_edges(names, [(i, i + 1) for i in range(n - 1)])
        if name == "cycle":
            return cls.from_edges(names, [(i, (i + 1) % n) for i in range(n)])
        return cls.from_edges(names, [(i, j) for i in range(n) for j in range(i + 1, n)])

    @classmethod
    def grid(cls, rows: int, cols: int) -> Graph:
        if rows * cols > GRAPH_VERTICES:
            raise InputError(f"a graph has at most {GRAPH_VERTICES} vertices, not "
                             f"{rows} x {cols} = {rows * cols:,}")
        edges = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
        edges += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
        return cls.from_edges(_cell_names(rows, cols), edges, (rows, cols))

    @classmethod
    def queens(cls, n: int) -> Graph:
        cells = [(r, c) for r in range(n) for c in range(n)]
        edges = [(i, j) for i, (r, c) in enumerate(cells) for j, (rr, cc) in enumerate(cells)
                 if i < j and (r == rr or c == cc or abs(r - rr) == abs(c - cc))]
        return cls.from_edges(_cell_names(n, n), edges)

    @classmethod
    def from_text(cls, text: str) -> Graph:
        """The graph of a file's text (the module header); errors name the line."""
        lines: dict[str, tuple[str, ...]] = {}
        where: dict[str, int] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            line = line.split("#", 1)[0]
            head, colon, tail = line.partition(":")
            if not colon:
                if line.strip():
                    raise InputError(f"line {number}: expected 'vertex: neighbours...', "
                                     f"got {shown(line.strip())}")
                continue
            words = head.split()
            if len(words) != 1:
                raise InputError(f"line {number}: expected one vertex name before ':', got "
                                 f"{shown(head.strip())}")
            name = words[0]
            if ":" in tail:
                raise InputError(f"line {number}: a vertex name cannot contain ':'")
            if name in lines:
                raise InputError(f"line {number}: vertex {shown(name)} is already defined on "
                                 f"line {where[name]}")
            if len(lines) == GRAPH_VERTICES:
                raise InputError(f"line {number}: a graph has at most {GRAPH_VERTICES} "
                                 "vertices")
            lines[name], where[name] = tuple(tail.split()), number
        if not lines:
            raise InputError("line 1: the graph has no vertices")
        index = {name: i for i, name in enumerate(lines)}
        edges = []
        for name, others in lines.items():
            for other in others:
                if other not in index:
                    raise InputError(f"line {where[name]}: vertex {shown(name)} is joined to "
                                     f"unknown vertex {shown(other)}")
                if other == name:
                    raise InputError(f"line {where[name]}: vertex {shown(name)} cannot be "
                                     "its own neighbour")
                edges.append((index[name], index[other]))
        return cls.from_edges(lines, edges)

    @classmethod
    def from_file(cls, path: str) -> Graph:
        from ...storage._files import read_regular

        data = read_regular(path, MAX_FILE_BYTES, "a graph file")
        try:
            return cls.from_text(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise InputError(f"{shown(path)}: not UTF-8 text") from None

    @classmethod
    def from_networkx(cls, graph) -> Graph:
        """A networkx graph's vertices (named by ``str``) and edges, a directed one's edges
        taken both ways; a loop is refused."""
        nodes = list(graph.nodes)
        index = {node: i for i, node in enumerate(nodes)}
        edges = []
        for u, v, *_ in graph.edges:
            if u == v:
                raise InputError(f"vertex {shown(str(u))} cannot be its own neighbour")
            edges.append((index[u], index[v]))
        return cls.from_edges([str(node) for node in nodes], edges)

    def text(self, alive: int | None = None) -> str:
        """The file text of the subgraph of ``alive`` (all vertices: None), each edge once."""
        if alive is None:
            alive = (1 << len(self.names)) - 1
        lines = []
        for i, name in enumerate(self.names):
            if alive >> i & 1:
                later = [self.names[j] for j in _bits(self.neighbours[i] & alive) if j > i]
                lines.append(f"{name}: {' '.join(later)}".rstrip())
        return "\n".join(lines)


class GraphPosition(NamedTuple):
    graph: Graph
    alive: int  # bit i: the i-th vertex is still there


def _bits(m: int):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def _count(text: str, whole: str, low: int) -> int:
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or int(text) < low:
        raise InputError(f"{shown(whole)}: N must be a whole number of at least {low}")
    return int(text)


def _dimensions(text: str, whole: str) -> tuple[int, int]:
    rows, x, cols = text.strip().lower().partition("x")
    if not x or not all(part.isascii() and part.isdigit() and int(part) >= 1
                        for part in (rows, cols)):
        raise InputError(f"{shown(whole)}: a grid is grid:RxC (such as grid:3x12)")
    return int(rows), int(cols)


def _cell_names(rows: int, cols: int) -> list[str]:
    if cols <= 26:
        return [f"{chr(ord('a') + c)}{r + 1}" for r in range(rows) for c in range(cols)]
    return [f"{r + 1}.{c + 1}" for r in range(rows) for c in range(cols)]


class _KaylesOnGraphs(PrunedFamily):
    """The game protocol of both rules (NodeKayles, ArcKayles); ``memory``: the bytes each
    graph's table of values may use."""

    rule = ""  # 'node' or 'arc'
    name = ""

    def kernel(self, graph: Graph):
        """The kernel of this graph: a Board of kayles.kernels._boards for a grid of at most
        64 cells, else a Graph of kayles.kernels._graphs; made once."""
        found = self.kernels.get(graph)
        if found is None:
            from ...kernels import chooser

            if graph.board is not None and len(graph) <= BOARD_CELLS:
                rows, cols = graph.board
                found = chooser.board_kernel.Board(
                    rows, cols, "node" if self.rule == "node" else "cram", self.memory)
            else:
                found = chooser.graph_kernel.Graph(graph.neighbours, self.rule, self.memory)
            self.kernels[graph] = found
        return found

    # -- text
    def parse(self, text: str) -> GraphPosition:
        """A graph family (``path:12``) or a graph file's path: the whole graph."""
        head = text.strip().partition(":")[0].lower()
        graph = Graph.family(text) if head in FAMILIES else Graph.from_file(text)
        return self.position(graph)

    def format(self, position: GraphPosition) -> str:
        return position.graph.text(position.alive)

    def position(self, graph) -> GraphPosition:
        """The whole of ``graph`` (a Graph, or a networkx graph) as a position."""
        if not isinstance(graph, Graph):
            graph = Graph.from_networkx(graph)
        return GraphPosition(graph, (1 << len(graph)) - 1)

    def describe(self, position: GraphPosition, option: GraphPosition) -> str:
        """The move from ``position`` to ``option`` in words: the vertex taken (Node
        Kayles) or the two ends of the edge taken (Arc Kayles)."""
        graph, gone = position.graph, position.alive & ~option.alive
        if self.rule == "node":
            for i in _bits(gone):
                if (graph.neighbours[i] & position.alive) | 1 << i == gone:
                    return graph.names[i]
        elif gone.bit_count() == 2 and graph.neighbours[gone.bit_length() - 1] & gone:
            return "-".join(graph.names[i] for i in _bits(gone))
        raise InputError("that is not a move of this position")

    # -- the game protocol
    def options(self, position: GraphPosition) -> list[GraphPosition]:
        graph = position.graph
        return [GraphPosition(graph, alive) for alive in self.kernel(graph).moves(position.alive)]

    def components(self, position: GraphPosition) -> list[GraphPosition]:
        """The connected sets of the vertices still there (Arc Kayles: of at least two)."""
        graph, left, found = position.graph, position.alive, []
        while left:
            comp = edge = left & -left
            while edge:
                grown = 0
                for v in _bits(edge):
                    grown |= graph.neighbours[v]
                edge = grown & left & ~comp
                comp |= edge
            left &= ~comp
            if self.rule == "node" or comp & (comp - 1):
                found.append(GraphPosition(graph, comp))
        return found

    def key(self, position: GraphPosition) -> tuple:
        """The rule and the sorted keys of the components: isomorphic components (congruent
        ones on a grid searched as a board) share one key."""
        kernel = self.kernel(position.graph)
        keys = []
        for c in self.components(position):
            if position.graph.board is not None and len(position.graph) <= BOARD_CELLS:
                keys.append((position.graph.board, kernel.canonical(c.alive)))
            elif c.alive.bit_count() > 64:  # a set of this graph's vertices
                keys.append((position.graph, kernel.key(c.alive)))
            else:
                keys.append(kernel.key(c.alive))
        return (self.rule, tuple(sorted(keys, key=repr)))

    def nimber(self, position: GraphPosition) -> int:
        return self.kernel(position.graph).nimber(position.alive)

    def has_value(self, position: GraphPosition, value: int) -> bool:
        """Whether the position's value is ``value``: asked, not found (a P-position is
        known by its options' outcomes alone)."""
        return self.kernel(position.graph).has_value(position.alive, value)


class NodeKayles(_KaylesOnGraphs):
    """Node Kayles: a move removes a vertex and its neighbours."""

    rule = "node"
    name = "node-kayles"


class ArcKayles(_KaylesOnGraphs):
    """Arc Kayles: a move removes the two ends of an edge."""

    rule = "arc"
    name = "arc-kayles"
