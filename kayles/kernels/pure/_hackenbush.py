"""Green Hackenbush's kernel, pure Python twin of ext/_hackenbush.pyx: an edge list read
into vertex numbers, a picture's value and every cut that leaves a given value, with no
recursion.  kayles.analysis.games.hackenbush holds the game (names, messages, sums) and
calls the chosen twin; both take and give plain data (a text, int32 arrays, lists).

``parse`` splits the text at whitespace (what ``str.split`` calls whitespace) into tokens
``u-v``, numbers the vertices in order of first appearance (``g``, the ground, is 0) and
stops at the first bad token (not two non-empty names joined by one '-') or past ``most``
edges: the caller tells which from what it gets.

``Search(n, us, vs)`` values the picture of edges ``us[i]-vs[i]`` over vertices 0..n-1,
vertex 0 the ground (Berlekamp, Conway and Guy, *Winning Ways*, ch. 7):

- **Fusion principle**: the vertices of any circuit may be fused into one, edges
  becoming loops, without changing the value; a loop is worth a stalk of one edge.  So
  each 2-edge-connected part (the ground's included) fuses into one vertex carrying one
  loop per edge of it, worth the parity of its edges.
- **Colon principle** on the tree of bridges that is left: a branch worth ``x`` hanging
  from an edge is worth ``1 + x`` (ordinary addition); what hangs at one vertex adds
  by XOR.

How it is computed (10^6 edges in a path are one loop's work):

- the pendant trees are shed first, a leaf at a time (colon principle): a vertex other
  than the ground with one edge left is worth 1 + its value to its neighbour.  Its one
  edge is the XOR of the numbers of its edges not yet shed, so this needs no adjacency
  lists; a random tree is valued by this pass alone.
- What is left (the core: circuits and the paths that join them to the ground) gets one
  depth-first search from the ground (an explicit stack; the arcs grouped by vertex).
  Every core edge off the search tree joins a vertex to one of its ancestors; ``c(v)``,
  the number of such edges passing over the tree edge above ``v``, is 0 exactly for the
  bridges.  One pass over the vertices, deepest first, sums each vertex's in-part
  subtree (edges, XOR of what hangs) and closes each part at its top vertex.

Every cut that leaves a value (``Search.cuts``): top-down, each part gets the *target*
its own value must take for the whole to reach it (the ground's: the value asked; a part
hanging by a bridge below a part of target t and value W: its branch must be worth
``d = t ^ W ^ (1 + x)``, so cutting that bridge wins when d == 0, and the part's target
is d - 1, none when d == 0).  Inside a part K of target t, cutting a non-bridge edge e
leaves K connected; its new bridges are the edges f with {e, f} a 2-edge cut of K.  These
come in classes (e ~ f when {e, f} is a cut): a class of k edges lies on one circuit,
and removing it splits K into k pieces in cyclic order, so cutting one of its edges
leaves a chain of the pieces, with K's top vertex in one of them (the *root piece*).
A class is found on the search tree: its tree edges have the same set of off-tree edges
over them (equal counts ``c``, and none landing between them: ``high``, the deepest
landing of an edge over ``v``, by a union-find pass), and when that count is 1 the one
off-tree edge (the XOR of their numbers) belongs to the class too.  Each piece weighs
its edges' parity XOR what hangs in it (differences of the subtree sums).  The value
after cutting the class's j-th edge is then W(root piece) ^ a ^ b, a and b the two arms
of the chain, each valued by the colon principle from its far end; ``chain_values``
gives every arm's value for all j at once.  A class of one edge leaves K's value XOR 1.

Cost of the cuts: O(E alpha(E)) plus the arms.  A class whose pieces carry m values,
z of them nonzero, costs O(m (z + 1)) by direct evaluation (runs of zero weights are one
addition); where z passes ``direct_per_level`` times the trie's depth the arms are found
on a binary trie over the values, least significant bit first, where "add 1 to every
value" costs O(log E) and "XOR w into every value" O(1) (a mask): O(m log E) time and
O(min(m log E, E)) nodes.  So the whole is O(E log E) at worst, about linear where
classes are short or bare (a long circuit of bare vertices, a random graph).

Every value stays below 2**23 (a picture of E edges is worth at most E, and E is at most
HACKENBUSH_EDGES); the compiled twin keeps them in 32-bit ints.  Both look at the
interrupt hook (kayles.kernels.limits) every few thousand steps of each pass.
"""

from __future__ import annotations

import gc
import re
from array import array
from collections import Counter, defaultdict
from contextlib import contextmanager
from itertools import accumulate, count, repeat
from operator import xor

from .. import constants
from ..checks import (
    check_at_least,
    check_count,
    check_vertices,
    for_parse,
    for_search,
    for_weights,
)
from ..limits import interrupt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["CONSTANTS", "Search", "chain_values", "chain_values_direct", "chain_values_trie",
           "parse"]

# The bound this twin works with, as the compiled one exports its C's
CONSTANTS = {"HACKENBUSH_EDGES": constants.HACKENBUSH_EDGES}

GROUND = "g"  # the ground's name: vertex 0
PULSE = 1 << 12  # steps of a pass between looks at the interrupt hook
_SPACE = re.compile(r"\s")
_TOKEN = re.compile(r"\S+")


@contextmanager
def _gc_paused():
    """Millions of small objects would make the cyclic collector rescan them again and
    again; nothing built here holds a reference cycle."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# -- reading an edge list -------------------------------------------------------------------


def parse(text: str, most: int, chunk: int) -> tuple[str, array, array, int]:
    """``(names, us, vs, bad)`` of an edge list: ``names`` the vertices' names in order
    (vertex 0 is ``g``), joined by newlines; edge i joins ``us[i]`` and ``vs[i]``; ``bad``
    the place (in characters) of the first bad token, -1 when there is none.  Reading
    stops at the first bad token (``us`` then holds the edges before it) or at edge
    ``most + 1`` (``us`` then holds ``most + 1`` edges).  ``chunk``: the characters split
    at a time (a 32 MB line stays a few MB of lists)."""
    for_parse(text, most, chunk)
    if not text.isascii():
        text.encode()  # a lone surrogate: UnicodeEncodeError, as the compiled twin's
    ids: defaultdict[str, int] = defaultdict(count().__next__)  # a new name: the next number
    ids[GROUND]  # noqa: B018 - the ground is vertex 0
    us, vs = array("i"), array("i")
    bad = -1
    has_dash = str.__contains__
    with _gc_paused():
        start = 0
        while start < len(text):
            interrupt()
            end = start + chunk
            if end < len(text):  # cut at a space: no token is split
                found = _SPACE.search(text, end)
                end = found.start() if found else len(text)
            piece = text[start:end]
            tokens = piece.split()
            room = most + 1 - len(us)
            ends = piece.replace("-", " ").split()
            keep = len(tokens)
            if (piece.count("-") != len(tokens) or len(ends) != 2 * len(tokens)
                    or not all(map(has_dash, tokens, repeat("-")))):
                keep, at = _first_bad(piece)
                if keep < room:
                    bad = start + at
                ends = " ".join(tokens[:keep]).replace("-", " ").split()
            if keep >= room:
                keep = room
            numbers = list(map(ids.__getitem__, ends[: 2 * keep]))
            us.extend(numbers[0::2])
            vs.extend(numbers[1::2])
            if bad >= 0 or len(us) > most:
                break
            start = end
    return "\n".join(ids), us, vs, bad


def _first_bad(piece: str) -> tuple[int, int]:
    """(its number among the tokens, its place) of the first bad token in ``piece``."""
    for number, found in enumerate(_TOKEN.finditer(piece)):
        token = found.group()
        if token.count("-") != 1 or token[0] == "-" or token[-1] == "-":
            return number, found.start()
    raise RuntimeError("cannot happen: a piece refused without a bad token")


# -- the search: value ----------------------------------------------------------------------


class Search:
    """A picture's value (``value``), the edges that reach the ground (``grounded``) and
    the cuts that leave a value (``cuts``): the passes of the module header, the pendant
    trees shed first, then a depth-first search of what is left (the core).

    Over the vertices: ``above``, ``above_edge`` (a shed vertex's neighbour and edge towards
    the core; -1: not shed), ``shed`` (the order they were shed, leaves first), ``alone``
    (a shed vertex's value: what hangs on it and its loops); for the core, ``depth`` (-1:
    not reached), ``parent``, ``up_edge`` (the tree edge above), ``order`` (preorder);
    after ``_value``: ``count`` (c(v)), ``inner`` (edges inside v's subtree within its
    part), ``hang`` (XOR of what hangs in that subtree), ``part`` (a part's value, at its
    top vertex).
    """

    def __init__(self, n: int, us, vs) -> None:
        n, us, vs = for_search(n, us, vs, check_vertices)
        self.n, self.us, self.vs = n, us, vs
        with _gc_paused():
            self._shed()
            self._dfs()
            self.value = self._value()

    def _shed(self) -> None:
        """Shed every pendant tree, a leaf at a time (colon principle): a vertex other than
        the ground with one edge left hangs from its neighbour, worth 1 + its value there.
        The edge is the XOR of the numbers of the vertex's edges not yet shed (a loop's
        number comes in twice: it cancels), so no adjacency lists are built."""
        interrupt()
        n, us, vs = self.n, self.us.tolist(), self.vs.tolist()
        m = len(us)
        loops = Counter(u for u, v in zip(us, vs) if u == v)
        # arrays, not lists: a million vertices' lists of int objects miss the caches
        # (a random tree: 2.4 s against 3.3 s for this pass, 0.47 s against 1.1 s for the
        # XOR of each vertex's edges)
        degree = array("i", bytes(4 * n))  # each vertex's edges, loops aside
        for u in us:
            degree[u] += 1
        for v in vs:
            degree[v] += 1
        for u, k in loops.items():
            degree[u] -= 2 * k
        edges_at = array("i", bytes(4 * n))
        for e, u, v in zip(range(m), us, vs):
            edges_at[u] ^= e
            edges_at[v] ^= e
        other = array("i", map(xor, us, vs))  # an edge's other end: other[e] ^ this end
        del us, vs
        interrupt()
        hang = array("i", bytes(4 * n))  # values stay below 2**23 (HACKENBUSH_EDGES)
        above = array("i", [-1]) * n
        above_edge = array("i", [-1]) * n
        alone = array("i", bytes(4 * n))
        shed = array("i")
        leaves = [v for v in range(1, n) if degree[v] == 1]
        pop, push, done = leaves.pop, leaves.append, shed.append
        steps = 0
        while leaves:
            steps += 1
            if steps == PULSE:
                steps = 0
                interrupt()
            v = pop()
            if degree[v] != 1:  # the last vertex of a tree away from the ground
                continue
            e = edges_at[v]
            p = other[e] ^ v
            g = hang[v] ^ (loops.get(v, 0) & 1)
            alone[v] = g
            hang[p] ^= g + 1
            edges_at[p] ^= e
            degree[v] = 0
            left = degree[p] - 1
            degree[p] = left
            if left == 1 and p:
                push(p)
            above[v] = p
            above_edge[v] = e
            done(v)
        self.hang, self.above, self.above_edge, self.alone, self.shed = (
            hang, above, above_edge, alone, shed)
        self.loop_count = loops

    def _dfs(self) -> None:
        interrupt()
        n, us, vs, above = self.n, self.us, self.vs, self.above
        core = array("i", (e for e, u, v in zip(range(len(us)), us, vs)
                           if u != v and above[u] < 0 and above[v] < 0))
        m = len(core)
        ends = array("i", map(us.__getitem__, core)), array("i", map(vs.__getitem__, core))
        src, dst = ends[0] + ends[1], ends[1] + ends[0]  # arc a from src[a] to dst[a]
        del ends
        start = array("i", bytes(4 * (n + 1)))  # vertex x's arcs: arcs[start[x]:start[x + 1]]
        for x in src:
            start[x + 1] += 1
        start = array("i", accumulate(start))
        interrupt()
        arcs = array("i", sorted(range(2 * m), key=src.__getitem__))  # grouped by vertex
        interrupt()
        depth = array("i", [-1]) * n
        up = array("i", [-1]) * n  # the arc down the tree into each vertex
        depth[0] = 0
        order = array("i", [0])
        visit = order.append
        stack = list(arcs[start[0]:start[1]])
        pop, push = stack.pop, stack.extend
        steps = 0
        while stack:  # a vertex's arcs pushed at once, taken last first: a true DFS
            steps += 1
            if steps == PULSE:
                steps = 0
                interrupt()
            a = pop()
            w = dst[a]
            if depth[w] < 0:
                depth[w] = depth[src[a]] + 1
                up[w] = a
                visit(w)
                push(arcs[start[w]:start[w + 1]])
        del arcs, start, stack
        interrupt()
        self.parent = array("i", (src[a] if a >= 0 else -1 for a in up))
        self.up_edge = array("i", (core[a - m if a >= m else a] if a >= 0 else -1 for a in up))
        self.depth, self.order = depth, order

    def _back_edges(self) -> tuple[array, array, array]:
        """The core edges off the search tree, loops aside, as three arrays: each one's
        lower end, its upper end (an ancestor of the lower) and its number."""
        interrupt()
        us, vs, depth = self.us, self.vs, self.depth
        on_tree = bytearray(len(us))
        for e in self.up_edge:
            if e >= 0:
                on_tree[e] = 1
        ids = array("i", (e for e, u, v in zip(range(len(us)), us, vs)
                          if u != v and not on_tree[e] and depth[u] >= 0 and depth[v] >= 0))
        lower, upper = array("i"), array("i")
        for e in ids:
            u, v = us[e], vs[e]
            if depth[u] < depth[v]:
                u, v = v, u
            lower.append(u)
            upper.append(v)
        return lower, upper, ids

    def _loops(self) -> dict[int, int]:
        """The loops at each core vertex the ground reaches."""
        depth = self.depth
        return {u: k for u, k in self.loop_count.items() if depth[u] >= 0}

    def _value(self) -> int:
        n, parent = self.n, self.parent
        count = array("i", bytes(4 * n))
        inner = array("i", bytes(4 * n))
        for v, k in self._loops().items():
            inner[v] = k
        lower, upper, _ = self._back_edges()
        for low, high in zip(lower, upper):
            count[low] += 1
            count[high] -= 1
            inner[high] += 1
        interrupt()
        hang = self.hang  # what the shed trees hang on each vertex, so far
        part = {}
        order = self.order
        for i in range(len(order) - 1, 0, -1):
            if not i % PULSE:
                interrupt()
            v = order[i]
            p = parent[v]
            if count[v]:
                count[p] += count[v]
                inner[p] += inner[v] + 1
                hang[p] ^= hang[v]
            else:  # a bridge: v tops a part; its branch is worth 1 + its value
                g = (inner[v] & 1) ^ hang[v]
                part[v] = g
                hang[p] ^= g + 1
        part[0] = (inner[0] & 1) ^ hang[0]
        self.count, self.inner, self.hang, self.part = count, inner, hang, part
        return part[0]

    def grounded(self) -> list[bool]:
        """For each edge, whether it reaches the ground: the core's vertices by the
        search, a shed vertex as its neighbour towards the core (shed later, or in the
        core)."""
        interrupt()
        above = self.above
        reached = [d >= 0 for d in self.depth]
        for v in reversed(self.shed):
            reached[v] = reached[above[v]]
        return [reached[u] and reached[v] for u, v in zip(self.us, self.vs)]

    # -- the search: cuts ---------------------------------------------------------------------

    def cuts(self, target: int, direct_per_level: int) -> list[int]:
        """Every edge, in input order, whose cut leaves the value ``target`` (module
        header); ``direct_per_level``: the arms of a class by direct evaluation while its
        nonzero weights are at most this times the trie's depth (-1: the trie always)."""
        want = check_at_least(target, "target", 0)
        direct_per_level = check_count(direct_per_level, "direct_per_level", -1, 1 << 30)
        with _gc_paused():
            return self._cuts(want, direct_per_level)

    def _cuts(self, want: int, direct_per_level: int) -> list[int]:
        interrupt()
        n, parent, count, part, order = self.n, self.parent, self.count, self.part, self.order
        up_edge = self.up_edge
        if want == self.value:  # no option of a game has the game's own value
            return []
        top = array("i", bytes(4 * n))  # each vertex's part, by its top vertex
        goal = {0: want}  # each part's target; -1: none can be reached
        won: list[int] = []
        for i in range(1, len(order)):
            if not i % PULSE:
                interrupt()
            v = order[i]
            p = parent[v]
            if count[v]:
                top[v] = top[p]
                continue
            top[v] = v
            t = goal[top[p]]
            if t < 0:
                goal[v] = -1
                continue
            d = t ^ part[top[p]] ^ (part[v] + 1)
            if d == 0:
                won.append(up_edge[v])
            goal[v] = d - 1
        if any(t >= 0 and self.inner[k] for k, t in goal.items()):  # a part with a circuit
            won.extend(self._inside(top, goal, direct_per_level))
        won.extend(self._shed_cuts(top, goal))
        won.sort()
        return won

    def _shed_cuts(self, top: array, goal: dict[int, int]) -> list[int]:
        """The winning cuts in the shed trees, from the core out: each shed vertex is a part
        of its own (value ``alone``), hung by its edge from its neighbour's part."""
        interrupt()
        above, above_edge, alone, part = self.above, self.above_edge, self.alone, self.part
        loops = self.loop_count
        target = [-1] * self.n
        won = []
        flipped = set()  # shed vertices whose loops win
        steps = 0
        for v in reversed(self.shed):
            steps += 1
            if steps == PULSE:
                steps = 0
                interrupt()
            p = above[v]
            if above[p] >= 0:  # hung from a shed vertex
                t, held = target[p], alone[p]
            elif self.depth[p] >= 0:  # from the core
                t, held = goal[top[p]], part[top[p]]
            else:  # from a tree away from the ground
                continue
            if t < 0:
                continue
            d = t ^ held ^ (alone[v] + 1)
            if d == 0:
                won.append(above_edge[v])
            target[v] = d - 1
            if d and loops.get(v) and d - 1 == alone[v] ^ 1:  # cutting a loop flips its parity
                flipped.add(v)
        if flipped:
            won.extend(e for e, u, w in zip(range(len(self.us)), self.us, self.vs)
                       if u == w and u in flipped)
        return won

    def _inside(self, top: array, goal: dict[int, int], direct_per_level: int) -> list[int]:
        """The winning cuts of edges inside parts (not bridges), by classes of cut pairs."""
        n, depth, parent, count, order = self.n, self.depth, self.parent, self.count, self.order
        up_edge, part = self.up_edge, self.part
        lower, upper, ids = self._back_edges()
        # high[v]: the depth of the deepest landing among the edges over v's tree edge
        # (back edges taken from the deepest landing up, a counting sort by depth;
        # union-find skips the vertices done)
        deepest = max(depth) + 1
        start = [0] * (deepest + 1)
        for h in upper:
            start[deepest - depth[h]] += 1
        start = list(accumulate(start))
        by_depth = array("i", bytes(4 * len(ids)))
        for i in range(len(ids) - 1, -1, -1):
            d = deepest - depth[upper[i]]
            start[d] -= 1
            by_depth[start[d]] = i
        del start
        interrupt()
        high = array("i", [-1]) * n
        jump = array("i", range(n))  # jump[x] == x: x has no high yet
        over = array("i", bytes(4 * n))  # XOR of the numbers of the edges over v (exact
        # where count[v] == 1)
        for low, top_end, e in zip(lower, upper, ids):
            over[low] ^= e
            over[top_end] ^= e
        steps = 0
        for i in by_depth:
            h = depth[upper[i]]
            x = lower[i]
            while True:
                steps += 1
                if steps == PULSE:
                    steps = 0
                    interrupt()
                while jump[x] != x:  # find, halving the path
                    jump[x] = jump[jump[x]]
                    x = jump[x]
                if depth[x] <= h:
                    break
                high[x] = h
                jump[x] = parent[x]
                x = parent[x]
        interrupt()
        for i in range(len(order) - 1, 0, -1):
            v = order[i]
            over[parent[v]] ^= over[v]
        interrupt()
        # link[v]: the next tree edge up in v's class (the deepest ancestor u with the same
        # count, when no edge over v lands at u or below), from a walk down the tree
        link = array("i", [-1]) * n
        linked = bytearray(n)
        last: dict[int, int] = {}
        path: list[int] = []
        saved: list[int] = []
        for i in range(1, len(order)):
            if not i % PULSE:
                interrupt()
            v = order[i]
            p = parent[v]
            while path and path[-1] != p:
                x = path.pop()
                before = saved.pop()
                if before == -1:
                    del last[count[x]]
                elif before >= 0:
                    last[count[x]] = before
            path.append(v)
            c = count[v]
            if c == 0 or goal[top[v]] < 0:
                saved.append(-2)  # not in a class of interest
                continue
            u = last.get(c, -1)
            if u >= 0 and depth[u] > high[v]:
                link[v] = u
                linked[u] = 1
            saved.append(u)
            last[c] = v
        interrupt()
        won: list[int] = []
        in_class = set()
        steps = 0
        for v in order:
            if v == 0 or count[v] == 0 or linked[v] or goal[top[v]] < 0:
                continue
            chain = [v]  # deepest first
            while link[chain[-1]] >= 0:
                chain.append(link[chain[-1]])
            steps += len(chain)
            if steps >= PULSE:
                steps = 0
                interrupt()
            k = top[v]
            one = count[v] == 1
            if len(chain) == 1 and not one:
                continue  # a class of one edge: with the others below
            if one:
                in_class.add(over[v])
            won.extend(self._class(chain, over[v] if one else -1, k, goal[k], direct_per_level))
        interrupt()
        # classes of one edge (cutting it leaves the part's value XOR 1), loops included
        single = {k for k, t in goal.items() if t >= 0 and t == part[k] ^ 1}
        if single:
            for v in order:
                if v and count[v] >= 2 and not linked[v] and link[v] < 0 and top[v] in single:
                    won.append(up_edge[v])
            for low, e in zip(lower, ids):
                if e not in in_class and top[low] in single:
                    won.append(e)
            us, vs = self.us, self.vs
            won.extend(e for e, u, v in zip(range(len(us)), us, vs)
                       if u == v and depth[u] >= 0 and top[u] in single)
        return won

    def _class(self, chain: list[int], back: int, k: int, want: int,
               direct_per_level: int) -> list[int]:
        """The winning cuts among one class: tree edges above ``chain`` (deepest first),
        and the off-tree edge ``back`` when the class has one (-1: none); ``k`` the part's
        top vertex, ``want`` its target."""
        inner, hang, up_edge = self.inner, self.hang, self.up_edge
        weights = []  # the pieces from the root piece on, away from it
        for i in range(len(chain) - 1, 0, -1):
            upper, lower = chain[i], chain[i - 1]
            weights.append(((inner[upper] - inner[lower] - 1) & 1) ^ hang[upper] ^ hang[lower])
        edges = [up_edge[v] for v in reversed(chain)]
        bottom, head = chain[0], chain[-1]
        if back >= 0:
            weights.append((inner[bottom] & 1) ^ hang[bottom])
            edges.append(back)
            root = ((inner[k] - inner[head] - 2) & 1) ^ hang[k] ^ hang[head]
        else:
            root = ((inner[k] - inner[head] - 1 + inner[bottom]) & 1) ^ hang[k] ^ hang[head] \
                ^ hang[bottom]
        m = len(weights)
        out = _chain_values(weights, direct_per_level)
        back_arm = _chain_values(weights[::-1], direct_per_level)
        won = []
        for j in range(m + 1):  # cutting edges[j]: pieces 0..j-1 one arm, j..m-1 the other
            a = out[j - 1] + 1 if j else 0
            b = back_arm[m - 1 - j] + 1 if j < m else 0
            if root ^ a ^ b == want:
                won.append(edges[j])
        return won


# -- arms of a chain ----------------------------------------------------------------------


def chain_values(weights: Sequence[int], direct_per_level: int) -> list[int]:
    """``[V(1), ..., V(m)]``: V(p) the value of the chain of pieces 1..p, hung from
    piece 1, piece i a vertex worth ``weights[i - 1]`` (what hangs there, fused), each
    joined to the next by one edge: V(p) = w1 ^ (1 + (w2 ^ (1 + ... wp))).

    Direct evaluation (runs of zero weights as one addition) while the nonzero weights
    are at most ``direct_per_level`` times the trie's depth, else the trie (module
    header): the same numbers either way.  The weights and their count sum to at most
    2**31 - 1."""
    weights = for_weights(weights)
    direct_per_level = check_count(direct_per_level, "direct_per_level", -1, 1 << 30)
    return _chain_values(weights, direct_per_level)


def _chain_values(weights: Sequence[int], direct_per_level: int) -> list[int]:
    m = len(weights)
    if not m:
        return []
    nonzero = m - list(weights).count(0)
    levels = max(1, (sum(weights) + m).bit_length())  # every V(p) <= sum + m < 2**levels
    if nonzero <= direct_per_level * levels:
        return _direct(weights)
    return _trie(weights)


def chain_values_direct(weights: Sequence[int]) -> list[int]:
    """``chain_values`` by evaluating each V(p) from its far end: O(m (z + 1)), z the
    nonzero weights."""
    return _direct(for_weights(weights))


def _direct(weights: Sequence[int]) -> list[int]:
    runs = []  # runs[i]: where the run of zero weights through i starts
    for i, w in enumerate(weights):
        runs.append((runs[-1] if i and not weights[i - 1] else i) if not w else i)
    out = []
    for p in range(len(weights)):
        if not p % PULSE:
            interrupt()
        x = weights[p]
        c = p - 1
        while c >= 0:
            w = weights[c]
            if w:
                x = w ^ (x + 1)
                c -= 1
            else:
                s = runs[c]
                x += c - s + 1
                c = s - 1
        out.append(x)
    return out


def chain_values_trie(weights: Sequence[int]) -> list[int]:
    """``chain_values`` on a binary trie of the values, least significant bit at the
    root: V(p) is w1 ^ (1 + (... w_{p-1} ^ (1 + w_p))), so going from the far end each
    piece's weight enters as a key, and then every key present takes x -> w ^ (x + 1) of
    the piece before.  The trie holds each key XOR a mask (XOR w into every key: the mask
    changes, nothing else); adding 1 to every key swaps the root's children and goes on
    into the child of the keys that carry (their bit now 0: the child of the mask's bit),
    one node a level.  The trie's shape only ever swaps, so each key keeps its leaf."""
    return _trie(for_weights(weights))


def _trie(weights: Sequence[int]) -> list[int]:
    m = len(weights)
    levels = max(1, (sum(weights) + m).bit_length())  # every key < 2**levels: no overflow
    child = [-1, -1]  # node k's children: child[2k] (bit 0), child[2k + 1] (bit 1)
    leaf = [0] * m
    mask = 0
    for c in range(m - 1, -1, -1):
        if not c % PULSE:
            interrupt()
        stored = weights[c] ^ mask
        node = 0
        for level in range(levels):
            at = 2 * node + (stored >> level & 1)
            node = child[at]
            if node < 0:
                node = child[at] = len(child) >> 1
                child += (-1, -1)
        leaf[c] = node
        if c == 0:
            break
        node, level = 0, 0  # every key: x -> x + 1 ...
        while node >= 0 and level < levels:
            at = 2 * node
            child[at], child[at + 1] = child[at + 1], child[at]
            node = child[at + (mask >> level & 1)]
            level += 1
        mask ^= weights[c - 1]  # ... then x -> w ^ x
    key = {}  # each leaf's stored key, read down the trie
    stack = [(0, 0, 0)]
    while stack:
        node, level, bits = stack.pop()
        if level == levels:
            key[node] = bits ^ mask
            continue
        for bit in (0, 1):
            below = child[2 * node + bit]
            if below >= 0:
                stack.append((below, level + 1, bits | bit << level))
    return [key[leaf[c]] for c in range(m)]
