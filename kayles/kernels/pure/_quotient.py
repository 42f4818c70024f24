"""The misère-quotient kernels, pure Python twin of ext/_quotient.pyx.

A candidate quotient is a commutative monoid of ``n`` elements (0 the identity), the flags
``p`` of its P-portion (a bytes object, 1 for P), and the behaviour of each heap:
``(g, options)``, the heap's image and the images of its options.  Positions are words in
the heaps (count vectors).  The monoid is kept as a *transition table* (``trans[x * width
+ a]``: x times generator a) with a spanning tree (element y > 0 is ``parent[y] < y``
times generator ``letter[y]``), so x y is read by following y's path from x; the walks
read only the *columns* they need (``table[x * stride + k]``: x times the element of
column k, built by ``columns``), never the full product table.

``grow`` walks the *states* of the words: a word's state is ``(x, U)``, its image and the
set of its options' images (U a bit mask over the elements).  Adding a heap of behaviour
``(g, T)`` to a word of state ``(x, U)`` gives ``(x g, g U + x T)``, so states form a finite
automaton read from ``(0, {})``.  The candidate respects misère outcomes on every position
exactly when every reachable state but the start has ``x`` in P iff no element of ``U`` is
in P, and the start (the empty position, a win for the player to move) has 0 outside P: by
induction on positions, the image of a position is then in P exactly when the position is
a loss.  ``least_failure`` finds the least position that breaks that rule, ``mark``
settles unknown P flags from each element's least position (both in one order of
positions, ``_lex_walk``), ``minimize`` is Moore's partition refinement of such an
automaton, ``product_columns`` the columns of a trial product monoid, ``collapse`` the transition
table of a minimized automaton's monoid and ``columns`` any columns of one.
"""

from __future__ import annotations

from array import array

from .. import checks as args
from ..constants import STATE_ENTRIES
from ..limits import interrupt

SIGNAL_STEPS = 4096  # steps between calls of the interrupt hook (the compiled twin's)

__all__ = ["candidates", "collapse", "columns", "grow", "least_failure",
           "mark", "minimize", "product_columns", "reach"]


def _times(mask: int, column: list[int]) -> int:
    """The set ``{column[u] : u in mask}`` (``column[u]`` is ``u g`` for one g)."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << column[low.bit_length() - 1]
        mask ^= low
    return out


def _path(parent, letter, y: int) -> list[int]:
    """The letters of y's path from 0 in the spanning tree, first letter first."""
    path = []
    while y:
        path.append(letter[y])
        y = parent[y]
    return path[::-1]


def candidates(trans, width: int, parent, letter, p: bytes, table, stride: int, options,
               lost: bool):
    """The elements x a new heap with these options' images may map to, by the outcome rule
    on positions "H + the heap" alone: x in P exactly when ``lost`` (the heap alone), and
    for every element y (every H's image), y x in P only when no y t (t in ``options``,
    columns of ``table``) is.  A necessary condition, checked without a walk (y x by x's
    path); returns them in increasing order."""
    options = args.for_candidates(trans, width, parent, letter, p, table, stride, options)
    n = len(p)
    losing = [y for y in range(n) if any(p[table[y * stride + t]] for t in options)]
    found = array("i")
    for x in range(n):
        if x % SIGNAL_STEPS == 0:
            interrupt()
        if bool(p[x]) != lost:
            continue
        path = _path(parent, letter, x)
        for y in losing:
            for a in path:
                y = trans[y * width + a]
            if p[y]:
                break
        else:
            found.append(x)
    return found


def _elements(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def grow(table, n: int, stride: int, p: bytes, behaviours, xs, us, first: int, limit: int,
         room: int):
    """The states reachable from known ones, up to the first broken one (see the header).

    ``table`` has rows of ``stride`` entries and the behaviours name its columns (as in
    ``mark``).  ``xs``, ``us``: states already walked (their images, and their sets as 32-bit
    integers: each set's size, then its elements in increasing order), closed under
    ``behaviours[:first]`` and none broken; empty: only the start is known (then ``first``
    is 0).  Only ``behaviours[first:]`` are applied to the known states, every behaviour to
    new ones.  Returns ``(broken, xs, us)``: the known states and then the new ones in order
    of discovery (up to the broken one).  ValueError past ``limit`` states, or when the
    states' sizes pass ``room`` (``STATE_ENTRIES`` a state and one an element of its set:
    4-byte entries, the compiled twin's memory).
    """
    behaviours = args.for_walk(table, n, p, behaviours, limit, stride)
    xs, us = args.for_grow(n, behaviours, xs, us, first, room)
    images = list(xs) or [0]
    sets, at = [], 0
    for _ in range(len(xs)):
        sets.append(sum(1 << e for e in us[at + 1 : at + 1 + us[at]]))
        at += 1 + us[at]
    sets = sets or [0]
    if not len(xs) and p[0]:
        return True, array("i", images), array("i", [0])
    columns = [[table[x * stride + g] for x in range(n)] for g, _ in behaviours]
    pmask = sum(1 << x for x in range(n) if p[x])
    seen = {(x, u): i for i, (x, u) in enumerate(zip(images, sets))}
    used = sum(u.bit_count() for u in sets)
    known = len(images) if len(xs) else 0
    broken = False
    s = 0
    while s < len(images) and not broken:
        if s % SIGNAL_STEPS == 0:
            interrupt()
        x, u = images[s], sets[s]
        for b in range(first if s < known else 0, len(behaviours)):
            g, options = behaviours[b]
            y = table[x * stride + g]
            v = _times(u, columns[b])
            for t in options:
                v |= 1 << table[x * stride + t]
            if (y, v) not in seen:
                if len(images) >= limit:
                    raise ValueError(f"more than {limit} states")
                used += v.bit_count()
                if (len(images) + 1) * STATE_ENTRIES + used > room:
                    raise ValueError(f"more than {room} entries of states")
                seen[y, v] = len(images)
                images.append(y)
                sets.append(v)
                if bool(p[y]) == bool(v & pmask):  # in P iff no option's image is in P
                    broken = True
                    break
        s += 1
    out = array("i")
    for u in sets:
        elements = _elements(u)
        out.append(len(elements))
        out.extend(elements)
    return broken, array("i", images), out


def least_failure(table, n: int, stride: int, p: bytes, behaviours, limit: int, room: int):
    """The behaviours of the least position that breaks the outcome rule, or None.

    Positions in ``mark``'s order, pruned where an earlier position had the same state (of
    ``grow``): every extension of it is then preceded by the same extension of the
    earlier one.  The least broken position's options come before it, so their images'
    flags are right and its own flag is the wrong one.  Returns the behaviour of each of
    its heaps, the last behaviour first.  ValueError past ``limit`` states or ``room``
    (``table``, the behaviours and ``room`` as in ``grow``).
    """
    behaviours = args.for_walk(table, n, p, behaviours, limit, stride)
    args.check_room(room)
    if p[0]:
        return []
    columns = [[table[x * stride + g] for x in range(n)] for g, _ in behaviours]
    pmask = sum(1 << x for x in range(n) if p[x])
    index = {(0, 0): 0}
    states = [(0, 0)]
    seen = {0}
    counts = [0] * len(behaviours)
    used = [STATE_ENTRIES]  # the start's

    def extend(s: int, b: int):
        x, u = states[s]
        g, options = behaviours[b]
        v = _times(u, columns[b])
        for t in options:
            v |= 1 << table[x * stride + t]
        state = (table[x * stride + g], v)
        found = index.get(state)
        if found is None:
            found = index[state] = len(states)
            if found >= limit:
                raise ValueError(f"more than {limit} states")
            used[0] += STATE_ENTRIES + v.bit_count()
            if used[0] > room:
                raise ValueError(f"more than {room} entries of states")
            states.append(state)
        return None if found in seen else found

    def visit(s: int) -> bool:
        seen.add(s)
        x, u = states[s]
        return s != 0 and bool(p[x]) == bool(u & pmask)

    if _lex_walk(len(behaviours), 0, extend, visit, counts):
        return [b for b in range(len(behaviours) - 1, -1, -1) for _ in range(counts[b])]
    return None


def _lex_walk(width: int, start, extend, visit, counts: list[int]) -> bool:
    """Visit positions from ``start`` in increasing order (see ``mark``), depth first.

    After a position comes the one with a heap of behaviour 0 more, and so on up the
    behaviours; ``extend(state, b)`` gives the state with a heap of behaviour b more, or
    None to prune it (the positions extending it come from an earlier, equivalent one).
    ``visit(state)`` is called once per position reached (the start first); True stops
    the walk there (returns True, ``counts`` then that position's heaps per behaviour).
    """
    if visit(start):
        return True
    at = [start] * width  # per behaviour: the state the next heap of it is added to
    steps = 0
    while True:
        steps += 1
        if steps % SIGNAL_STEPS == 0:
            interrupt()
        for d in range(width):
            found = extend(at[d], d)
            if found is not None:
                break
            counts[d] = 0
        else:
            return False
        counts[d] += 1
        for k in range(d + 1):
            at[k] = found
        if visit(found):
            return True


def reach(table, n: int, stride: int, gens):
    """The elements products of ``gens`` reach from 0 (breadth first) and the automaton.

    ``table`` as in ``mark`` (``gens`` name its columns).  Returns ``(order, moves)``: the
    elements in order of discovery (0 first) and ``moves[i * len(gens) + a]``, the index
    in ``order`` of ``order[i]`` times generator a.
    """
    gens = args.for_reach(table, n, stride, gens)
    order = array("i", [0])
    where = {0: 0}
    moves = array("i")
    s = 0
    while s < len(order):
        row = order[s] * stride
        for g in gens:
            y = table[row + g]
            found = where.get(y)
            if found is None:
                found = where[y] = len(order)
                order.append(y)
            moves.append(found)
        s += 1
    return order, moves


def minimize(count: int, width: int, moves, labels: list[int]) -> list[int]:
    """Moore's refinement: the coarsest blocks that keep ``labels`` and the transitions.

    ``moves[s * width + b]`` is the state that letter ``b`` leads ``s`` to.  Returns each
    state's block, numbered in order of first appearance.
    """
    moves, labels = args.for_minimize(count, width, moves, labels)
    block = list(labels)
    blocks = -1
    while True:
        interrupt()
        names: dict[tuple, int] = {}
        new = [0] * count
        for s in range(count):
            key = (block[s], *(block[moves[s * width + b]] for b in range(width)))
            new[s] = names.setdefault(key, len(names))
        block = new
        if len(names) == blocks:
            return block
        blocks = len(names)


def mark(table, n: int, stride: int, p: bytearray, behaviours, limit: int) -> None:
    """Settle the flags 2 ("not known") of ``p`` in place, each element from its least
    position.

    Positions (counts of heaps of each behaviour, behaviours in the order of their
    smallest heaps) are compared by their counts read from the last behaviour down
    (lexicographically).  Every option of a position comes before it (a move replaces a
    heap by smaller ones) and adding a heap keeps the order, so a position whose element
    an earlier one had can be pruned with every extension of it: the walk
    (``_lex_walk``) visits each element once, at its least position.  An element is in P
    when that position has a move and none of its options' images (settled before it)
    is in P; flags already 0 or 1 are kept.  ValueError past ``limit`` positions.
    ``table`` has rows of ``stride`` entries and the behaviours name its columns:
    ``table[x * stride + k]`` is x times the element of column k (``stride`` n and column e
    for element e: the product table).
    """
    behaviours = args.for_walk(table, n, p, behaviours, limit, stride, flags=2)
    columns = [[table[x * stride + g] for x in range(n)] for g, _ in behaviours]
    pmask = sum(1 << x for x in range(n) if p[x] == 1)
    seen: set[int] = set()

    def extend(state, b: int):
        x, u = state
        g, options = behaviours[b]
        y = table[x * stride + g]
        if y in seen:
            return None
        v = _times(u, columns[b])
        for t in options:
            v |= 1 << table[x * stride + t]
        return y, v

    def visit(state) -> bool:
        nonlocal pmask
        x, u = state
        seen.add(x)
        if len(seen) > limit:
            raise ValueError(f"more than {limit} states")
        if p[x] == 2:
            p[x] = u != 0 and not u & pmask
        if p[x] == 1:
            pmask |= 1 << x
        return False

    _lex_walk(len(behaviours), (0, 0), extend, visit, [0] * len(behaviours))


def product_columns(base, nb: int, stride: int, bases, tails, needed):
    """Columns of the product of a monoid and cyclic monoids, for ``needed`` elements.

    The monoid has ``nb`` elements (0 the identity) and ``base[x * stride + bases[k]]`` is x
    times the monoid part of ``needed[k]``; factor j is {1, g, ..., g^(tails[j]+1)} with
    g^(tails[j]+2) = g^tails[j].  Element (x, i_1, ..., i_k) is numbered x, then each i_j
    in turn in base tails[j] + 2 (0 the identity).  Returns the table with rows of
    ``len(needed)`` entries: ``out[y * len(needed) + k]`` is ``y needed[k]``.
    """
    _, bases, tails, needed = args.for_product_columns(base, nb, stride, bases, tails, needed)
    widths = [tail + 2 for tail in tails]
    size = nb
    for w in widths:
        size *= w

    def digits(x: int) -> list[int]:
        out = []
        for w in reversed(widths):
            out.append(x % w)
            x //= w
        return [x, *reversed(out)]

    wanted = [digits(e) for e in needed]
    out = array("i", [0]) * (size * len(needed))
    for y in range(size):
        if y % (SIGNAL_STEPS * 16) == 0:
            interrupt()
        mine = digits(y)
        for k, other in enumerate(wanted):
            s = base[mine[0] * stride + bases[k]]
            for j, tail in enumerate(tails):
                i = mine[j + 1] + other[j + 1]
                s = s * widths[j] + (i if i < tail + 2 else tail + (i - tail) % 2)
            out[y * len(needed) + k] = s
    return out


def collapse(count: int, width: int, moves, block):
    """The transition table of the monoid of a minimized commutative automaton.

    ``moves[s * width + a]``: where letter a leads state s (state 0 the start, every state
    reached from it); ``block``: each state's block (``minimize``), numbered 0 up.  The
    elements are the blocks, numbered breadth first from the start's block (letters in
    order).  Returns ``(trans, parent, letter, rank, first)``: the transition table and
    spanning tree of the module header, each block's element (-1: not reached) and each
    element's first state.
    """
    moves, block = args.for_collapse(count, width, moves, block)
    blocks = max(block, default=-1) + 1
    first_state = [-1] * blocks
    for s in range(count - 1, -1, -1):
        first_state[block[s]] = s
    rank = array("i", [-1]) * blocks
    queue = [block[0]] if count else []
    parent, letter = array("i", [0] * len(queue)), array("i", [0] * len(queue))
    if queue:
        rank[block[0]] = 0
    for b in queue:
        s = first_state[b]
        for a in range(width):
            nxt = block[moves[s * width + a]]
            if rank[nxt] < 0:
                rank[nxt] = len(queue)
                queue.append(nxt)
                parent.append(rank[b])
                letter.append(a)
    trans = array("i", [rank[block[moves[first_state[b] * width + a]]]
                        for b in queue for a in range(width)])
    return trans, parent, letter, rank, array("i", [first_state[b] for b in queue])


def columns(trans, width: int, parent, letter, needed):
    """Columns of the product table of a monoid kept as a transition table and spanning
    tree (the module header): ``out[x * len(needed) + k]`` is x times ``needed[k]``, read
    by following ``needed[k]``'s path from x.  ``needed`` all elements: the full table."""
    needed = args.for_columns(trans, width, parent, letter, needed)
    n, m = len(parent), len(needed)
    out = array("i", [0]) * (n * m)
    for k, e in enumerate(needed):
        interrupt()
        path = _path(parent, letter, e)
        for x in range(n):
            z = x
            for a in path:
                z = trans[z * width + a]
            out[x * m + k] = z
    return out
