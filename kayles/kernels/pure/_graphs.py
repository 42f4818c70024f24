"""Node Kayles and Arc Kayles on graphs of at most 256 vertices, in plain Python: the twin
of ext/_graphs.pyx (same names, results and errors), step for step the C of
ext/src/graphs.c, whose header says what the keys are (canonical labellings) and which
reductions and heaps it finds, and why.

A graph is each vertex's neighbours as an int (bit u for vertex u); a position is a set of
vertices as an int.  ``Graph(adjacency, rule, memory, leaves)``: rule 'node' (a move
removes a vertex and its neighbours) or 'arc' (the two ends of an edge); a table of at
most ``memory`` bytes (kayles/kernels/pure/_search.py) kept across calls.
"""

from __future__ import annotations

from _thread import allocate_lock

from .. import board_checks as checks
from ..constants import CANON_VERTICES, GRAPH_LEAVES, GRAPH_VERTICES
from ..parts import uncancelled
from ._search import Table, solve, sum_has_value

__all__ = ["CONSTANTS", "RULES", "Graph"]

CONSTANTS = {"GRAPH_VERTICES": GRAPH_VERTICES, "CANON_VERTICES": CANON_VERTICES}
RULES = ("node", "arc")
HEADER_BITS = 10
FIRST_BITS = 52  # bits of a key's bit string in its first word (64 in each other)
_M64 = (1 << 64) - 1


def _path_values() -> dict[str, list[int]]:
    """The values of paths of k vertices under each rule, from the rules."""
    values = {"arc": [0], "node": [0]}
    for k in range(1, GRAPH_VERTICES + 1):
        arc = {values["arc"][a] ^ values["arc"][k - 2 - a] for a in range(k - 1)}
        node = {values["node"][max(i - 1, 0)] ^ values["node"][max(k - i - 2, 0)]
                for i in range(k)}
        for rule, seen in (("arc", arc), ("node", node)):
            m = 0
            while m in seen:
                m += 1
            values[rule].append(m)
    return values


_PATHS = _path_values()


def _shape_value(rule: str, n: int, e: int, low: int, high: int) -> int:
    if n == 1:
        return 1 if rule == "node" else 0
    if 2 * e == n * (n - 1):
        return 1 if rule == "node" else (n // 2) % 2
    if high <= 2 and e == n - 1 and low == 1:
        return _PATHS[rule][n]
    if low == 2 and high == 2 and e == n:
        return 1 if _PATHS[rule][n - (3 if rule == "node" else 2)] == 0 else 0
    return -1


def _key_words(nbits: int) -> int:
    return 1 if nbits <= FIRST_BITS else 2 + (nbits - FIRST_BITS - 1) // 64


def _laid_out(stream: int, nbits: int) -> tuple[int, ...]:
    """A bit string as a key: its first 52 bits in the first word, then 64 a word."""
    words = [stream & ((1 << FIRST_BITS) - 1)]
    stream >>= FIRST_BITS
    for _ in range(_key_words(nbits) - 1):
        words.append(stream & _M64)
        stream >>= 64
    return tuple(words)


def _stream_of(key: tuple) -> int:
    stream = key[0]
    for k, word in enumerate(key[1:]):
        stream |= word << (FIRST_BITS + 64 * k)
    return stream


def _bits(m: int):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def _labelled_key(adj: list[int], lab: list[int]) -> tuple[int, ...]:
    n = len(adj)
    place = [0] * n
    for i, v in enumerate(lab):
        place[v] = i
    stream, at = n | 0 << 9, HEADER_BITS
    for i in range(n - 1):
        row = 0
        for u in _bits(adj[lab[i]]):
            row |= 1 << place[u]
        stream |= (row >> (i + 1)) << at
        at += n - 1 - i
    return _laid_out(stream, HEADER_BITS + n * (n - 1) // 2)


class _Cells:
    """An ordered partition of the places 0..n-1 (graphs.c's ``cells``)."""

    __slots__ = ("lab", "size", "start")

    def copy(self) -> _Cells:
        c = _Cells()
        c.lab, c.start, c.size = self.lab[:], self.start[:], self.size[:]
        return c


def _refine(adj: list[int], p: _Cells, queue: list[int]) -> None:
    n = len(adj)
    queued = [False] * n
    for w in queue:
        queued[w] = True
    head = 0
    while head < len(queue):
        w = queue[head]
        head += 1
        queued[w] = False
        splitter = 0
        for i in range(w, w + p.size[w]):
            splitter |= 1 << p.lab[i]
        x = 0
        while x < n:
            size = p.size[x]
            if size == 1:
                x += size
                continue
            count = [(adj[p.lab[x + i]] & splitter).bit_count() for i in range(size)]
            lo, hi = min(count), max(count)
            if lo == hi:
                x += size
                continue
            order = sorted(range(size), key=lambda i: count[i])  # stable: a counting sort
            members = [p.lab[x + i] for i in order]
            p.lab[x:x + size] = members
            at = x
            for c in range(lo, hi + 1):
                piece = sum(1 for k in count if k == c)
                if not piece:
                    continue
                for i in range(at, at + piece):
                    p.start[i] = at
                p.size[at] = piece
                if not queued[at]:
                    queue.append(at)
                    queued[at] = True
                at += piece
            x += size


class _Labelling:
    __slots__ = ("adj", "best", "leaves", "limit")


def _explore(L: _Labelling, p: _Cells) -> None:
    adj, n = L.adj, len(L.adj)
    if L.leaves >= L.limit:
        return
    x, target = 0, -1
    while x < n:
        if p.size[x] > 1:
            target = x
            break
        x += p.size[x]
    if target < 0:
        L.leaves += 1
        leaf = _labelled_key(adj, p.lab)
        if L.best is None or leaf < L.best:
            L.best = leaf
        return
    size, tried = p.size[target], []
    for i in range(size):
        v = p.lab[target + i]
        if any((adj[u] & ~(1 << v)) == (adj[v] & ~(1 << u)) for u in tried):
            continue
        tried.append(v)
        q = p.copy()
        rest = [u for u in p.lab[target:target + size] if u != v]
        q.lab[target] = v
        q.lab[target + 1:target + size] = rest
        q.size[target] = 1
        for k in range(target + 1, target + size):
            q.start[k] = target + 1
        q.size[target + 1] = size - 1
        _refine(adj, q, [target])
        _explore(L, q)
        if L.leaves >= L.limit:
            return


class Graph:
    """Node Kayles ('node') or Arc Kayles ('arc') on the subgraphs of one graph, and the
    table of their components' values (module header)."""

    def __init__(self, adjacency, rule, memory, leaves=GRAPH_LEAVES) -> None:
        self.adj = list(checks.check_graph(adjacency))
        self.rule = checks.check_rule(rule, RULES)
        self.table = Table(memory)
        self.leaves = checks.check_leaves(leaves)
        self.n = len(self.adj)
        self.lock = allocate_lock()
        self.counts = {"expanded": 0, "lookups": 0}
        self.fallbacks = 0

    # -- keys
    def _canonical(self, adj: list[int]) -> tuple[int, ...]:
        n = len(adj)
        p = _Cells()
        p.lab, p.start, p.size = list(range(n)), [0] * n, [0] * n
        p.size[0] = n
        _refine(adj, p, [0])
        L = _Labelling()
        L.adj, L.best, L.leaves, L.limit = adj, None, 0, self.leaves
        _explore(L, p)
        if L.leaves >= L.limit:
            self.fallbacks += 1
        return L.best

    def _subset_key(self, cells: int) -> tuple[int, ...]:
        stream = cells.bit_count() | 1 << 9 | cells << HEADER_BITS
        return _laid_out(stream, HEADER_BITS + self.n)

    @staticmethod
    def _induced(adj: list[int], comp: int) -> list[int]:
        local, k = {}, 0
        for v in _bits(comp):
            local[v] = k
            k += 1
        rows = []
        for v in _bits(comp):
            row = 0
            for u in _bits(adj[v] & comp):
                row |= 1 << local[u]
            rows.append(row)
        return rows

    def _component_key(self, adj: list[int], comp: int, root: bool) -> tuple[int, ...]:
        n = comp.bit_count()
        if root and n > CANON_VERTICES:
            return self._subset_key(comp)
        return self._canonical(self._induced(adj, comp))

    # -- splitting
    def _reduced(self, adj: list[int], alive: int) -> int:
        leaves = centres = served = drop = 0
        for v in _bits(alive):
            d = (adj[v] & alive).bit_count()
            if d == 0:
                drop |= 1 << v
            elif d == 1:
                leaves |= 1 << v
        for v in _bits(leaves):
            c = 1 << ((adj[v] & alive) & -(adj[v] & alive)).bit_length() - 1
            centres |= c
            if served & c:
                drop |= 1 << v
            served |= c
        for v in _bits(alive & ~leaves & ~centres & ~drop):
            if not adj[v] & alive & ~centres:
                drop |= 1 << v
        return alive & ~drop

    def _split(self, adj: list[int], alive: int, root: bool) -> tuple[int, list]:
        nim, parts = 0, []
        if self.rule == "arc":
            alive = self._reduced(adj, alive)
        while alive:
            comp = edge = alive & -alive
            while edge:
                grown = 0
                for v in _bits(edge):
                    grown |= adj[v]
                edge = grown & alive & ~comp
                comp |= edge
            alive &= ~comp
            n, e, low, high = comp.bit_count(), 0, GRAPH_VERTICES, 0
            for v in _bits(comp):
                d = (adj[v] & comp).bit_count()
                e += d
                low, high = min(low, d), max(high, d)
            value = _shape_value(self.rule, n, e // 2, low, high)
            if value >= 0:
                nim ^= value
            else:
                parts.append((self._component_key(adj, comp, root), n))
        return nim, parts

    def _moves(self, adj: list[int], alive: int) -> list[int]:
        moves = []
        for u in _bits(alive):
            if self.rule == "node":
                moves.append(alive & ~adj[u] & ~(1 << u))
            else:
                for v in _bits(adj[u] & alive):
                    if v > u:
                        moves.append(alive & ~(1 << u) & ~(1 << v))
        return moves

    def _decoded(self, key: tuple) -> tuple[list[int], int, bool]:
        """(adjacency, alive set, root?) of a key: a canonical one's own graph, or the
        root's with the subset a kind-1 key names."""
        stream = _stream_of(key)
        n = stream & 0x1FF
        if stream >> 9 & 1:
            return self.adj, (stream >> HEADER_BITS) & ((1 << self.n) - 1), True
        adj, at = [0] * n, HEADER_BITS
        for i in range(n - 1):
            row = ((stream >> at) & ((1 << (n - 1 - i)) - 1)) << (i + 1)
            at += n - 1 - i
            adj[i] |= row
            for u in _bits(row):
                adj[u] |= 1 << i
        return adj, (1 << n) - 1, False

    # -- the game the search plays (kayles/kernels/pure/_search.py)
    def expand(self, key: tuple):
        adj, alive, root = self._decoded(key)
        for move in self._moves(adj, alive):
            yield self._split(adj, move, root)

    def bound(self, key: tuple) -> int:
        adj, alive, _ = self._decoded(key)
        if self.rule == "node":
            return alive.bit_count()
        return sum((adj[v] & alive).bit_count() for v in _bits(alive)) // 2

    # -- the API
    def split(self, alive) -> tuple[int, list[tuple[int, ...]]]:
        """(the XOR of the heaps, the components' keys) of the position ``alive`` (a set of
        vertices, an int): its value is the heaps' XOR with the components' values."""
        nim, parts = self._split(self.adj, checks.check_cells(alive, self.n), True)
        return nim, [k for k, _ in parts]

    def key(self, component) -> tuple[int, ...]:
        """The key of a connected, non-empty set of vertices (canonical up to 64)."""
        component = checks.check_cells(component, self.n)
        if not component:
            raise ValueError("the cells must not be empty")
        return self._component_key(self.adj, component, True)

    def moves(self, alive) -> list[int]:
        """The positions the moves of ``alive`` lead to, in the search's order."""
        return self._moves(self.adj, checks.check_cells(alive, self.n))

    def nimber(self, alive) -> int:
        """The value of the position ``alive`` (a set of vertices, an int)."""
        nim, keys = self.split(alive)
        with self.lock:
            for k in uncancelled(keys):
                nim ^= solve(self, self.table, k, False, self.counts)
        return nim

    def has_value(self, alive, value) -> bool:
        """Whether the value of the position ``alive`` is ``value``: the exact values of its
        components but the last of the longest key, then "is it the rest?" asked of it."""
        value = checks.check_value(value)
        nim, keys = self.split(alive)
        if value >= checks.VALUE_BOUND:
            return False
        with self.lock:
            return sum_has_value(self, self.table, sorted(uncancelled(keys), key=len), nim,
                                 value, self.counts)

    def stats(self) -> dict[str, int]:
        """entries, bytes, cap, evictions, unstored (the table's); expanded, lookups (the
        positions the searches visited and looked up); fallbacks (labellings cut short)."""
        return {**self.table.stats(), **self.counts, "fallbacks": self.fallbacks}
