"""Games written in Python as a user would write them, and brute forces from the rules, for
the tests of the search (``kayles.engine.search``, ``kayles.Solver``, ``kayles solve``).

Nothing here imports the package: the games are duck-typed (an ``options`` method, and
``components``, ``key``, ``parse``, ``format`` where the test wants them), and the brute
forces walk whole positions by their options alone (no sum theorem, no canonical key).
"""

from __future__ import annotations

import random

# OEIS A002187, Sprague-Grundy values for Dawson's Chess (octal game .137), offset 0: a(0)
# is the empty row (oeis.org/A002187, read 2026-11-29: "Octal game .07 (Dawson's Kayles)
# has values a(n-1)").  Node Kayles on the path of n vertices is Dawson's Chess on n: a
# vertex taken at an end removes 2, inside 3, a lone one 1, so P_n's value is a(n).
A002187 = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
           0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2]


def mex(values) -> int:
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def brute_nimber(game, position, memo: dict | None = None) -> int:
    """G(position) by the definition, over whole positions (an explicit stack)."""
    memo = {} if memo is None else memo
    stack = [position]
    while stack:
        p = stack[-1]
        if p in memo:
            stack.pop()
            continue
        todo = [o for o in game.options(p) if o not in memo]
        if todo:
            stack.extend(todo)
            continue
        memo[p] = mex(memo[o] for o in game.options(p))
        stack.pop()
    return memo[position]


def brute_misere_wins(game, position, memo: dict | None = None) -> bool:
    """Whether the player to move wins misère play: no move, or a move to a loss."""
    memo = {} if memo is None else memo
    if position not in memo:
        found = list(game.options(position))
        memo[position] = not found or any(not brute_misere_wins(game, o, memo) for o in found)
    return memo[position]


def retrograde(graph: dict, misere: bool = False) -> dict:
    """{vertex: 'P', 'N' or 'D'} of a finite digraph by retrograde analysis: a sink is P
    (normal play) or N (misère); a vertex with a successor P is N; one whose successors
    are all N is P; whatever is left is a draw."""
    label: dict = {v: ("N" if misere else "P") for v, succ in graph.items() if not succ}
    left = {v: len(succ) for v, succ in graph.items()}
    parents: dict = {v: [] for v in graph}
    for v, succ in graph.items():
        for w in succ:
            parents[w].append(v)
    todo = list(label)
    while todo:
        w = todo.pop()
        for v in parents[w]:
            if v in label:
                continue
            if label[w] == "P":
                label[v] = "N"
                todo.append(v)
            else:
                left[v] -= 1
                if left[v] == 0:
                    label[v] = "P"
                    todo.append(v)
    return {v: label.get(v, "D") for v in graph}


class Subtraction:
    """Take k tokens from a heap, k in ``takes`` (no base class: duck-typed)."""

    def __init__(self, takes=(1, 2, 3)) -> None:
        self.takes = takes

    def options(self, n: int) -> list[int]:
        return [n - k for k in self.takes if k <= n]


class GrundysGame:
    """Seed 003's Grundy's game: a position is a sorted tuple of heaps; a move splits one
    heap into two unequal non-empty heaps; heaps of 1 and 2 are dead."""

    def options(self, heaps: tuple) -> list[tuple]:
        found = []
        for i, h in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1:]
            for a in range(1, (h + 1) // 2):
                found.append(tuple(sorted(rest + (a, h - a))))
        return found

    def components(self, heaps: tuple) -> list[tuple]:
        return [(h,) for h in heaps if h >= 3]


class NodeKayles:
    """Node Kayles on a fixed graph: a position is the frozenset of vertices left; a move
    takes a vertex and its neighbours; components are the connected parts; the key
    relabels nothing (a test of ``key`` uses ``PathKayles``)."""

    def __init__(self, adjacency: dict) -> None:
        self.adjacency = adjacency

    def options(self, left: frozenset) -> list[frozenset]:
        return [left - {v} - self.adjacency[v] for v in left]

    def components(self, left: frozenset) -> list[frozenset]:
        todo, found = set(left), []
        while todo:
            start = todo.pop()
            part, frontier = {start}, [start]
            while frontier:
                for w in self.adjacency[frontier.pop()]:
                    if w in todo:
                        todo.discard(w)
                        part.add(w)
                        frontier.append(w)
            found.append(frozenset(part))
        return found


def path(n: int) -> dict:
    return {v: frozenset(w for w in (v - 1, v + 1) if 0 <= w < n) for v in range(n)}


def random_graph(n: int, p: float, rng: random.Random) -> dict:
    adjacency: dict = {v: set() for v in range(n)}
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < p:
                adjacency[a].add(b)
                adjacency[b].add(a)
    return {v: frozenset(w) for v, w in adjacency.items()}


class PathKayles:
    """Node Kayles on paths, a position a sorted tuple of path lengths: components one path
    each, the key its length (so every path of one length shares one entry)."""

    def options(self, paths: tuple) -> list[tuple]:
        found = []
        for i, n in enumerate(paths):
            rest = paths[:i] + paths[i + 1:]
            for v in range(n):
                left, right = max(v - 1, 0), max(n - v - 2, 0)
                found.append(tuple(sorted(rest + tuple(p for p in (left, right) if p))))
        return found

    def components(self, paths: tuple) -> list[tuple]:
        return [(n,) for n in paths]

    def parse(self, text: str) -> tuple:
        return tuple(sorted(int(word) for word in text.replace(",", " ").split()))

    def format(self, paths: tuple) -> str:
        return " ".join(map(str, paths)) or "(nothing)"


class Cram:
    """Cram on a board given as a frozenset of free cells (row, column): a move fills two
    free cells side by side; components are the connected regions; the key is the least
    of the region's 8 symmetric images, shifted to the origin."""

    def options(self, cells: frozenset) -> list[frozenset]:
        found = []
        for r, c in cells:
            for other in ((r + 1, c), (r, c + 1)):
                if other in cells:
                    found.append(cells - {(r, c), other})
        return found

    def components(self, cells: frozenset) -> list[frozenset]:
        todo, found = set(cells), []
        while todo:
            start = todo.pop()
            part, frontier = {start}, [start]
            while frontier:
                r, c = frontier.pop()
                for w in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if w in todo:
                        todo.discard(w)
                        part.add(w)
                        frontier.append(w)
            found.append(frozenset(part))
        return found

    def key(self, cells: frozenset) -> tuple:
        best = None
        for turn in range(8):
            image = []
            for r, c in cells:
                if turn & 1:
                    r, c = c, r
                if turn & 2:
                    r = -r
                if turn & 4:
                    c = -c
                image.append((r, c))
            low_r = min(r for r, _ in image)
            low_c = min(c for _, c in image)
            form = tuple(sorted((r - low_r, c - low_c) for r, c in image))
            if best is None or form < best:
                best = form
        return best


def board(rows: int, columns: int) -> frozenset:
    return frozenset((r, c) for r in range(rows) for c in range(columns))


class Chomp:
    """Chomp on a Young diagram (row lengths, non-increasing): a move takes a cell other than
    the poisoned corner (0, 0) and every cell above and to the right of it."""

    def options(self, rows: tuple) -> list[tuple]:
        found = []
        for r, length in enumerate(rows):
            for c in range(length):
                if (r, c) != (0, 0):
                    cut = tuple(min(x, c) if i >= r else x for i, x in enumerate(rows))
                    found.append(tuple(x for x in cut if x))
        return found


class Tokens:
    """Tokens on a digraph (``graph``: vertex -> successors), one move moving one token
    along an edge: a position is a sorted tuple of vertices, each token a component."""

    def __init__(self, graph: dict) -> None:
        self.graph = graph

    def options(self, tokens: tuple) -> list[tuple]:
        found = []
        for i, v in enumerate(tokens):
            for w in self.graph[v]:
                found.append(tuple(sorted(tokens[:i] + (w,) + tokens[i + 1:])))
        return found

    def components(self, tokens: tuple) -> list[tuple]:
        return [(v,) for v in tokens]


def random_digraph(n: int, p: float, rng: random.Random) -> dict:
    return {v: [w for w in range(n) if rng.random() < p] for v in range(n)}


def token_graph(graph: dict, tokens: tuple) -> dict:
    """The explicit graph of every sum of tokens reachable from ``tokens`` (whole
    positions, for the brute forces)."""
    game, found, todo = Tokens(graph), {}, [tokens]
    while todo:
        p = todo.pop()
        if p not in found:
            found[p] = game.options(p)
            todo.extend(found[p])
    return found
