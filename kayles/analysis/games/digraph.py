"""mex, Sprague-Grundy values, and the generalized values of loopy digraphs (seeds 001, 002).

Acyclic (``sg_values``): G(v) = mex{G(w) : v -> w}; a sink has value 0, and v is a
loss for the player to move exactly when G(v) == 0.  It works without recursion (the
seed's memoised ``SG(G, i)`` would overflow the stack on a long chain): it walks
depth-first with an explicit stack and finishes a vertex once all its successors are
finished.  Meeting a vertex that is still on the current path closes a cycle, which the
error names.

Any digraph (``loopy_values``, ``LoopyGame``): the generalized Sprague-Grundy function
gamma of Smith (1966) and Fraenkel and Yesha (1986): a nim-value m, or ``Infinite(K)``,
infinity with the set K of its successors' finite values.  gamma(v) = m when v has a
successor of each value below m and none of value m, and every successor of a greater or
infinite value has a successor of value m that was labelled before v (so play makes
progress).  How it is computed: the same walk first gives every vertex that reaches no
cycle its plain value; the others are labelled in rounds m = 0, 1, 2, ... as in a
retrograde analysis.  In round m a vertex is *marked* once a successor is labelled m; a
vertex still unlabelled is labelled m once each of its successors that is unlabelled or
infinite is marked, and it is not marked itself (counters over a reverse adjacency, so
each round costs the edges into the vertices it touches); at the round's end an
unlabelled vertex that is not marked is infinite.  The whole: O(E x rounds) time, rounds
at most the largest value + 2, memory a few arrays over the vertices and edges.

Sums (one token on each of several vertices, a move moves one token): finite values
XOR; Infinite(K) + k = Infinite(K xor k); two infinities are Infinite({}).  The player
to move loses on 0 (P), wins on a finite value > 0 or on Infinite(K) with 0 in K (N),
and draws otherwise (D).  ``LoopyGame.best_move`` wins from N without going round a
cycle (among the moves to value 0, the one whose tokens' (value, labelling order) are
least, a measure each round of play lowers), and from D moves to a draw.

Text format (``parse_graph``), one vertex per line::

    # comments run from '#' to the end of the line; blank lines are ignored
    start: a b      # 'start' moves to 'a' or to 'b'
    a: b
    b:              # a sink: nothing after the colon

A name is any run of characters other than whitespace, ':' and '#'.  Every
vertex has exactly one line, and every successor must have a line of its own.
"""

from __future__ import annotations

import gc
from array import array
from contextlib import contextmanager
from itertools import chain

from ...errors import SHOWN_LONGEST, InputError, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable, Mapping, Sequence

__all__ = ["Infinite", "LoopyGame", "loopy_values", "mex", "mex_bits", "outcome",
           "parse_graph", "sg_values", "sum_value"]

CYCLE_SHOWN = 12  # how many vertices of a long cycle an error message names


@contextmanager
def _gc_paused():
    """Building millions of small lists makes the cyclic collector rescan them
    all, again and again; nothing built here holds a reference cycle."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def mex(values: Iterable[int]) -> int:
    """The least non-negative integer not in ``values`` (the seed's ``mex(S)``)."""
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def mex_bits(mask: int) -> int:
    """The mex of a set given as a bit mask (bit v set when v is in the set)."""
    return (~mask & (mask + 1)).bit_length() - 1


def sg_values(graph: Mapping[Hashable, Iterable[Hashable]] | Sequence[Iterable[int]]) -> dict:
    """G(v) for every vertex of an acyclic digraph, in the graph's own vertex order.

    ``graph`` maps each vertex to its successors; a list (the seed's ``G[i]``,
    0-based here) stands for the mapping ``i -> graph[i]``.  A successor that is
    not a vertex, or a cycle, is a ValueError (``InputError``) naming it: a caller of
    this function counts on plain numbers.  ``loopy_values`` takes any digraph.
    """
    with _gc_paused():
        names, succ, _ = _compile(graph)
        return dict(zip(names, _solve(succ, names)))


class Infinite:
    """gamma = infinity with K, the finite values of the vertex's successors (Smith's
    infinity_K).  ``str``: ``inf(0,2)``; equal when the sets are equal."""

    __slots__ = ("k",)
    k: frozenset[int]

    def __init__(self, k: Iterable[int] = ()) -> None:
        object.__setattr__(self, "k", frozenset(k))

    def __setattr__(self, name, value):
        raise AttributeError("an Infinite cannot change")

    def __eq__(self, other) -> bool:
        return isinstance(other, Infinite) and other.k == self.k

    def __hash__(self) -> int:
        return hash((Infinite, self.k))

    def __repr__(self) -> str:
        return f"Infinite({{{', '.join(map(str, sorted(self.k)))}}})" if self.k else "Infinite()"

    def __str__(self) -> str:
        return f"inf({','.join(map(str, sorted(self.k)))})"


def sum_value(values: Iterable[int | Infinite]) -> int | Infinite:
    """The value of a sum of games: finite values XOR, Infinite(K) + k = Infinite(K xor k),
    two infinities make Infinite() (a draw whatever else is added)."""
    x, infinite = 0, []
    for g in values:
        if isinstance(g, Infinite):
            infinite.append(g)
        else:
            x ^= g
    if not infinite:
        return x
    if len(infinite) > 1:
        return Infinite()
    return Infinite([k ^ x for k in infinite[0].k])


def outcome(value: int | Infinite) -> str:
    """'P' (the player to move loses), 'N' (wins) or 'D' (a draw with best play)."""
    if isinstance(value, Infinite):
        return "N" if 0 in value.k else "D"
    return "N" if value else "P"


def loopy_values(graph: Mapping[Hashable, Iterable[Hashable]] | Sequence[Iterable[int]]) -> dict:
    """gamma(v), an int or an ``Infinite``, for every vertex of any finite digraph (cycles and
    self-loops too), in the graph's own vertex order; the same numbers as ``sg_values``
    where the graph is acyclic.  ``graph`` as for ``sg_values``."""
    return LoopyGame(graph).values()


class LoopyGame:
    """A digraph solved once for gamma: its vertices' values, and sums of tokens on them.

    ``graph`` as for ``sg_values``; a successor that is not a vertex is a ValueError.
    ``tokens`` below: vertices (repeats allowed), one token on each.
    """

    def __init__(self, graph: Mapping[Hashable, Iterable[Hashable]] | Sequence[Iterable[int]]):
        with _gc_paused():
            self._names, self._succ, self._index = _compile(graph)
            self._order = array("i", bytes(4 * len(self._succ)))
            self._value = _solve(self._succ, self._names, self._order)
            _label_loopy(self._succ, self._value, self._order)

    @classmethod
    def from_text(cls, text: str) -> LoopyGame:
        """The game of a graph in the text format of the module header (``parse_graph``),
        its successors checked once, while they are numbered."""
        graph = _read_lines(text)
        try:
            return cls(graph)
        except InputError:
            _unknown_successor(graph, text)  # the same error, with its line
            raise

    def values(self) -> dict:
        """{vertex: gamma(vertex)} in the graph's vertex order."""
        return dict(zip(self._names, self._value))

    def value(self, vertex: Hashable) -> int | Infinite:
        """gamma(vertex); a vertex not in the graph is a ValueError (``InputError``)."""
        return self._value[self._number(vertex)]

    def sum_value(self, tokens: Iterable[Hashable]) -> int | Infinite:
        """The value of the sum of ``tokens`` (module function ``sum_value``)."""
        return sum_value(self.value(t) for t in tokens)

    def outcome(self, tokens: Iterable[Hashable]) -> str:
        """'P', 'N' or 'D' for the player to move in the sum of ``tokens``."""
        return outcome(self.sum_value(tokens))

    def best_move(self, tokens: Sequence[Hashable]) -> tuple[int, Hashable] | None:
        """(which token, the vertex it moves to): from N to value 0 by a move that keeps
        making progress (play that always takes it wins: the module header); from D to a
        draw; None from P."""
        return self.analyse(tokens)[2]

    def analyse(self, tokens: Sequence[Hashable]) -> tuple[int | Infinite, str,
                                                           tuple[int, Hashable] | None]:
        """(value, outcome, best move) of the sum of ``tokens``, each found once: the three
        methods above in one pass, in time linear in the tokens (and the edges met)."""
        at = [self._number(t) for t in tokens]
        values = [self._value[v] for v in at]
        total = sum_value(values)
        verdict = outcome(total)
        if verdict == "P":
            return total, verdict, None
        move = self._winning(at, values) if verdict == "N" else self._drawing(at, values)
        return total, verdict, (move[0], self._names[move[1]])

    def _number(self, vertex: Hashable) -> int:
        try:
            return self._index[vertex]
        except (KeyError, TypeError):
            raise InputError(f"no vertex {_name(vertex)} in the graph") from None

    def _winning(self, at: list[int], values: list) -> tuple[int, int]:
        """The move to value 0 whose tokens' (value, order) pairs, as a multiset, are
        least.  Each round (the opponent's move and this answer) lowers that multiset: a
        move up is undone to the same value by a vertex labelled earlier, a move down is
        answered by a move down (the module header); so play ends, and in a win.

        Two candidates change one pair each of the same multiset, so they compare in O(1)
        (``_lower``); tokens on one vertex are one candidate (the first of them)."""
        infinite = [i for i, g in enumerate(values) if isinstance(g, Infinite)]
        x = sum_value([g for g in values if not isinstance(g, Infinite)])
        order = self._order
        if infinite:  # one infinite token: it alone may move
            candidates = infinite
        else:  # the first token on each vertex (the others there move alike, and lose ties)
            firsts: dict[int, int] = {}
            for i, v in enumerate(at):
                firsts.setdefault(v, i)
            candidates = list(firsts.values())
        best = None
        for i in candidates:
            target = x if infinite else values[i] ^ x
            to = min((w for w in self._succ[at[i]] if self._value[w] == target),
                     key=order.__getitem__, default=None)
            if to is None:
                continue
            change = (values[i], order[at[i]]), (target, order[to])
            if best is None or _lower(change, best[0]):
                best = change, i, to
        if best is None:
            raise RuntimeError("cannot happen: an N-position without a move to value 0")
        return best[1], best[2]

    def _drawing(self, at: list[int], values: list) -> tuple[int, int]:
        """The first move (tokens in order, each one's successors in order) to a draw.
        The sum of the other tokens is the whole sum less one token's part, found in O(1);
        a (vertex, rest) pair that has no move to a draw is not tried twice."""
        infinite = [i for i, g in enumerate(values) if isinstance(g, Infinite)]
        x = sum_value([g for g in values if not isinstance(g, Infinite)])
        tried = set()
        for i, v in enumerate(at):
            others = _all_but(i, values, infinite, x)
            if (v, others) in tried:
                continue
            for w in self._succ[v]:
                if outcome(sum_value([others, self._value[w]])) == "D":
                    return i, w
            tried.add((v, others))
        raise RuntimeError("cannot happen: a drawn position without a move to a draw")


def _lower(change: tuple, best: tuple) -> bool:
    """Whether the multiset M - a + b is below M - c + d, for change = (a, b) and best =
    (c, d) (a and c in M): descending lists of the same length compare at the greatest
    element whose count differs, and the lower one has fewer of it."""
    (a, b), (c, d) = change, best
    net: dict = {}
    for element, step in ((b, 1), (a, -1), (d, -1), (c, 1)):
        net[element] = net.get(element, 0) + step
    top = max((element for element, step in net.items() if step), default=None)
    return top is not None and net[top] < 0


def _all_but(i: int, values: list, infinite: list[int], x: int) -> int | Infinite:
    """The value of every token but token i: ``x`` is the XOR of the finite values and
    ``infinite`` lists the infinite tokens."""
    own = values[i]
    if not isinstance(own, Infinite):
        x ^= own
    count = len(infinite) - isinstance(own, Infinite)  # the other tokens' infinities
    if count == 0:
        return x
    if count > 1:
        return Infinite()
    other = infinite[0] if infinite[0] != i else infinite[1]
    return Infinite([k ^ x for k in values[other].k])


def _compile(graph) -> tuple[list, list[tuple[int, ...]], dict]:
    """The vertices' names, each one's successors by number, and the number of each name."""
    if hasattr(graph, "items"):
        names = list(graph)
        rows = list(graph.values())
    else:
        rows = list(graph)
        names = list(range(len(rows)))
    index = dict(zip(names, range(len(names))))
    try:  # tuples: a sink's is the one empty tuple (millions of sinks hold no list each)
        succ = [tuple([index[target] for target in targets]) if targets else ()
                for targets in rows]
    except KeyError:
        for name, targets in zip(names, rows):
            for target in targets:
                if target not in index:
                    message = f"vertex {_name(name)} moves to unknown vertex {_name(target)}"
                    raise InputError(message) from None
        raise
    return names, succ, index


_NEW, _OPEN = -1, -2  # value[v] before v is finished: never reached, or on the path
_LOOPY = -3  # the walk's verdict on a vertex that reaches a cycle; later: not yet labelled
_INF = -4  # labelled infinite (until the end, where it becomes an Infinite)


def _solve(succ: list[tuple[int, ...]], names: list, order: array | None = None) -> list[int]:
    """Depth-first, with an explicit stack of (vertex, iterator over its successors).

    Without ``order`` a cycle is an error; with it, a vertex that reaches a cycle is
    left _LOOPY, and ``order`` gets each other vertex's place in the finishing order.
    """
    value = [_NEW] * len(succ)
    finished = 0
    for root in range(len(succ)):
        if value[root] != _NEW:
            continue
        value[root] = _OPEN
        path = [root]
        todo = [iter(succ[root])]
        while todo:
            for w in todo[-1]:
                state = value[w]
                if state == _NEW:
                    value[w] = _OPEN
                    path.append(w)
                    todo.append(iter(succ[w]))
                    break
                if state == _OPEN and order is None:
                    raise InputError(_cycle_message(path[path.index(w) :], names))
            else:
                todo.pop()
                v = path.pop()
                row = succ[v]
                if len(row) <= 1:  # (a successor still open or loopy: only with order)
                    g = value[row[0]] if row else 1
                    value[v] = 1 if g == 0 else _LOOPY if g < 0 else 0
                else:  # mex, inlined: this loop runs once per vertex
                    seen = {value[w] for w in row}
                    if _OPEN in seen or _LOOPY in seen:
                        value[v] = _LOOPY
                        continue
                    m = 0
                    while m in seen:
                        m += 1
                    value[v] = m
                if order is not None and value[v] >= 0:
                    order[v] = finished
                    finished += 1
    return value


def _label_loopy(succ: list[tuple[int, ...]], value: list, order: array) -> None:
    """Give each _LOOPY vertex its round's value or _INF (the module header), and each
    one labelled finite its place in ``order`` after every vertex the walk finished."""
    n = len(succ)
    loopy = [v for v in range(n) if value[v] == _LOOPY]
    if not loopy:
        return
    # the reverse of the edges out of loopy vertices: w's are flat[start[w]:start[w + 1]]
    # (int32 arrays: 2**31 edges would need some 100 GB of successor tuples first)
    start = array("i", bytes(4 * (n + 1)))
    live = array("i", bytes(4 * n))  # a loopy vertex's successors not labelled finite
    for p in loopy:
        count = 0
        for w in succ[p]:
            start[w + 1] += 1
            if value[w] == _LOOPY:
                count += 1
        live[p] = count
    for w in range(n):
        start[w + 1] += start[w]
    flat = array("i", bytes(4 * start[n]))
    fill = start[:n]
    for p in loopy:
        for w in succ[p]:
            flat[fill[w]] = p
            fill[w] += 1
    del fill
    seeds: dict[int, list[int]] = {}  # finished vertices with a loopy predecessor, by value
    for w in range(n):
        if start[w + 1] > start[w] and value[w] >= 0:
            seeds.setdefault(value[w], []).append(w)
    counter = array("i", bytes(4 * n))
    mark = array("i", [-1]) * n  # the last round in which the vertex was marked
    rest, m, labelled = loopy, 0, n
    while rest:
        queue = []  # marked in round m, their predecessors' counters not yet lowered
        for u in rest:
            counter[u] = live[u]
        for w in seeds.get(m, ()):
            for p in flat[start[w] : start[w + 1]]:
                if mark[p] != m and value[p] < 0:
                    mark[p] = m
                    queue.append(p)
        fresh = [u for u in rest if counter[u] == 0 and mark[u] != m]
        while fresh or queue:
            for r in fresh:  # labelled m: its loopy predecessors are marked
                value[r] = m
                order[r] = labelled
                labelled += 1
                for p in flat[start[r] : start[r + 1]]:
                    live[p] -= 1
                    if mark[p] != m and value[p] < 0:
                        mark[p] = m
                        queue.append(p)
            fresh = []
            while queue:
                p = queue.pop()
                for r in flat[start[p] : start[p + 1]]:
                    if mark[r] != m and value[r] == _LOOPY:  # (a marked r cannot be m)
                        counter[r] -= 1
                        if counter[r] == 0:
                            fresh.append(r)
        kept = []
        for u in rest:
            if value[u] == _LOOPY:
                if mark[u] == m:
                    kept.append(u)
                else:
                    value[u] = _INF
        rest, m = kept, m + 1
    shared: dict[frozenset, Infinite] = {}  # one Infinite per K (a set weighs 216 bytes)
    infinite = [v for v in loopy if value[v] == _INF]
    ks = [_shared(shared, frozenset([value[w] for w in succ[v] if value[w] >= 0]))
          for v in infinite]
    for v, k in zip(infinite, ks):
        value[v] = k


def _shared(shared: dict, k: frozenset) -> Infinite:
    found = shared.get(k)
    if found is None:
        found = shared[k] = Infinite(k)
    return found


def _name(vertex) -> str:
    """A vertex for a message: text quoted as typed, anything else as its repr."""
    return shown(vertex) if isinstance(vertex, str) else repr(vertex)


def _cycle_message(cycle: list[int], names: list) -> str:
    path = " -> ".join(_plain(names[u]) for u in cycle[:CYCLE_SHOWN])
    more = f" -> ... ({len(cycle)} vertices)" if len(cycle) > CYCLE_SHOWN else ""
    return f"the graph has a cycle: {path}{more} -> {_plain(names[cycle[0]])}"


def _plain(vertex) -> str:
    """A vertex name unquoted, as the file spells it (a long one cut)."""
    text = str(vertex)
    return text if len(text) <= SHOWN_LONGEST else text[:SHOWN_LONGEST] + "..."


def parse_graph(text: str) -> dict[str, tuple[str, ...]]:
    """The digraph written in the format of the module header, each vertex's successors a
    tuple (millions of sinks share the one empty tuple); errors name the line."""
    graph = _read_lines(text)
    if not set(chain.from_iterable(graph.values())) <= graph.keys():
        _unknown_successor(graph, text)
    return graph


def _read_lines(text: str) -> dict[str, tuple[str, ...]]:
    """parse_graph without the check that every successor is a vertex."""
    graph: dict[str, tuple[str, ...]] = {}
    with _gc_paused():
        for number, line in enumerate(text.splitlines(), start=1):
            if "#" in line:
                line = line[: line.index("#")]
            head, colon, tail = line.partition(":")
            if not colon:
                if line.strip():
                    got = shown(line.strip())
                    raise InputError(f"line {number}: expected 'vertex: successors...', got {got}")
                continue
            words = head.split()
            if len(words) != 1:
                raise InputError(
                    f"line {number}: expected one vertex name before ':', got {shown(head.strip())}"
                )
            name = words[0]
            if ":" in tail:
                raise InputError(f"line {number}: a vertex name cannot contain ':'")
            if name in graph:
                first = _line_of(text, name)
                raise InputError(
                    f"line {number}: vertex {shown(name)} is already defined on line {first}"
                )
            graph[name] = tuple(tail.split())  # a sink's: the one empty tuple (no list each)
    if not graph:
        raise InputError("line 1: the graph has no vertices")
    return graph


def _unknown_successor(graph: dict[str, tuple[str, ...]], text: str) -> None:
    """Raise the InputError naming the first successor that is not a vertex, and its line."""
    for name, targets in graph.items():
        for target in targets:
            if target not in graph:
                raise InputError(f"line {_line_of(text, name)}: vertex {shown(name)} moves to "
                                 f"unknown vertex {shown(target)}")


def _line_of(text: str, name: str) -> int:
    """The number of the line that defines ``name`` (for error messages only)."""
    for number, line in enumerate(text.splitlines(), start=1):
        head, colon, _ = line.split("#", 1)[0].partition(":")
        if colon and head.strip() == name:
            return number
    raise RuntimeError(f"cannot happen: vertex {name!r} has no line")
