"""The misère-quotient kernels, pure Python twin of ext/_quotient.pyx.

A candidate quotient is a commutative monoid of ``n`` elements (0 the identity) given by
its flat product table (``table[x * n + y]``), the flags ``p`` of its P-portion (a bytes
object, 1 for P), and the behaviour of each heap: ``(g, options)``, the heap's image and
the images of its options.  Positions are words in the heaps (count vectors).

``explore`` walks the *states* of the words: a word's state is ``(x, U)``, its image and the
set of its options' images (U a bit mask over the elements).  Adding a heap of behaviour
``(g, T)`` to a word of state ``(x, U)`` gives ``(x g, g U + x T)``, so states form a finite
automaton read from ``(0, {})``.  The candidate respects misère outcomes on every position
exactly when every reachable state but the start has ``x`` in P iff no element of ``U`` is
in P, and the start (the empty position, a win for the player to move) has 0 outside P: by
induction on positions, the image of a position is then in P exactly when the position is
a loss.  ``mark`` settles unknown P flags in order of each element's lightest position (the
caller's weights), and ``minimize`` is Moore's partition refinement of such an automaton.
"""

from __future__ import annotations

from array import array

__all__ = ["explore", "grow", "mark", "minimize", "paths_table", "times_cyclic"]


def _times(mask: int, column: list[int]) -> int:
    """The set ``{column[u] : u in mask}`` (``column[u]`` is ``u g`` for one g)."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << column[low.bit_length() - 1]
        mask ^= low
    return out


def explore(table, n: int, p: bytes, behaviours, limit: int, stop: bool):
    """Every state reachable from the empty word, and whether one breaks the outcome rule.

    ``behaviours``: a list of ``(g, options)``.  Returns ``(broken, xs, lost, moves)``:
    the states' images (in order of discovery, the start first), whether each is lost by
    the outcome rule (1: not the start, and no option's image in P) and the transitions
    (``moves[s * len(behaviours) + b]``).  With ``stop``, returns at the first
    broken state (the lists then partial).  ValueError past ``limit`` states.
    """
    columns = [[table[x * n + g] for x in range(n)] for g, _ in behaviours]
    pmask = 0
    for x in range(n):
        if p[x]:
            pmask |= 1 << x
    xs = [0]
    us = [0]
    lost = bytearray(1)
    seen = {(0, 0): 0}
    moves: list[int] = []
    broken = bool(p[0])
    if broken and stop:
        return True, xs, lost, moves
    s = 0
    while s < len(xs):
        x, u = xs[s], us[s]
        base = x * n
        for b, (g, options) in enumerate(behaviours):
            y = table[base + g]
            v = _times(u, columns[b])
            for t in options:
                v |= 1 << table[base + t]
            key = (y, v)
            found = seen.get(key)
            if found is None:
                found = len(xs)
                if found >= limit:
                    raise ValueError(f"more than {limit} states")
                seen[key] = found
                xs.append(y)
                us.append(v)
                lost.append(not v & pmask)
                if bool(p[y]) != lost[found]:
                    broken = True
                    if stop:
                        return True, xs, lost, moves
            moves.append(found)
        s += 1
    return broken, xs, lost, moves


def grow(table, n: int, p: bytes, behaviours, xs, us: bytes, first: int, limit: int):
    """``explore`` resumed: the states reachable from known ones, to the first broken one.

    ``xs``, ``us``: states already walked (their images, and their sets as ``words`` 64-bit
    little-endian words each, ``words = (n + 63) // 64``), closed under ``behaviours[:first]``
    and none broken; empty: only the start is known (then ``first`` is 0).  Only
    ``behaviours[first:]`` are applied to the known states, every behaviour to new ones.
    Returns ``(broken, xs, us)``: the known states and then the new ones in order of
    discovery (up to the broken one).  ValueError past ``limit`` states.
    """
    size = (n + 63) // 64 * 8
    images = list(xs) or [0]
    sets = [int.from_bytes(us[i * size : (i + 1) * size], "little") for i in range(len(xs))]
    sets = sets or [0]
    if not len(xs) and p[0]:
        return True, array("i", images), bytes(size)
    columns = [[table[x * n + g] for x in range(n)] for g, _ in behaviours]
    pmask = sum(1 << x for x in range(n) if p[x])
    seen = {(x, u): i for i, (x, u) in enumerate(zip(images, sets))}
    known = len(images) if len(xs) else 0
    broken = False
    s = 0
    while s < len(images) and not broken:
        x, u = images[s], sets[s]
        for b in range(first if s < known else 0, len(behaviours)):
            g, options = behaviours[b]
            y = table[x * n + g]
            v = _times(u, columns[b])
            for t in options:
                v |= 1 << table[x * n + t]
            if (y, v) not in seen:
                if len(images) >= limit:
                    raise ValueError(f"more than {limit} states")
                seen[y, v] = len(images)
                images.append(y)
                sets.append(v)
                if bool(p[y]) == bool(v & pmask):  # in P iff no option's image is in P
                    broken = True
                    break
        s += 1
    return broken, array("i", images), b"".join(u.to_bytes(size, "little") for u in sets)


def minimize(count: int, width: int, moves, labels: list[int]) -> list[int]:
    """Moore's refinement: the coarsest blocks that keep ``labels`` and the transitions.

    ``moves[s * width + b]`` is the state that letter ``b`` leads ``s`` to.  Returns each
    state's block, numbered in order of first appearance.
    """
    block = list(labels)
    blocks = -1
    while True:
        names: dict[tuple, int] = {}
        new = [0] * count
        for s in range(count):
            key = (block[s], *(block[moves[s * width + b]] for b in range(width)))
            new[s] = names.setdefault(key, len(names))
        block = new
        if len(names) == blocks:
            return block
        blocks = len(names)


def mark(table, n: int, p: bytearray, behaviours, weights, limit: int) -> None:
    """Settle the flags 2 ("not known") of ``p`` in place, lightest positions first.

    ``weights[b]``: the weight of a heap of behaviour ``b``, such that every option of a
    position weighs less than the position.  The first state of an element to be reached
    (Dijkstra's order) is one of its lightest positions, whose options' images are then
    settled: the element is in P when none of them is.  Elements reachable from the
    empty position only are settled; the rest stay 2.  ValueError past ``limit`` states.
    """
    import heapq

    columns = [[table[x * n + g] for x in range(n)] for g, _ in behaviours]
    reach = {0}
    frontier = [0]
    while frontier:
        found = {table[x * n + g] for x in frontier for g, _ in behaviours} - reach
        reach |= found
        frontier = list(found)
    left = sum(1 for x in reach if p[x] == 2)
    queue = [(0, 0, 0, 0)]
    seen = set()
    tick = 1
    while queue and left:
        dist, _, x, u = heapq.heappop(queue)
        if (x, u) in seen:
            continue
        seen.add((x, u))
        if len(seen) > limit:
            raise ValueError(f"more than {limit} states")
        if p[x] == 2:
            lost = u != 0
            rest = u
            while rest and lost:
                low = rest & -rest
                lost = p[low.bit_length() - 1] != 1
                rest ^= low
            p[x] = lost
            left -= 1
        for b, (g, options) in enumerate(behaviours):
            v = _times(u, columns[b])
            for t in options:
                v |= 1 << table[x * n + t]
            y = table[x * n + g]
            if (y, v) not in seen:
                heapq.heappush(queue, (dist + weights[b], tick, y, v))
                tick += 1


def times_cyclic(table, n: int, tail: int):
    """The table of (monoid of ``table``) x {1, g, ..., g^(tail+1)}, g^(tail+2) = g^tail.

    Element (x, i) is x * (tail + 2) + i.
    """
    width = tail + 2
    power = [i if i < width else tail + (i - tail) % 2 for i in range(2 * width)]
    size = n * width
    out = array("i", [0]) * (size * size)
    for x in range(n):
        for y in range(n):
            xy = table[x * n + y] * width
            for i in range(width):
                row = (x * width + i) * size + y * width
                for j in range(width):
                    out[row + j] = xy + power[i + j]
    return out


def paths_table(count: int, width: int, trans, parent, letter):
    """The product table of a commutative automaton's monoid: x y = y's path read from x.

    ``trans[x * width + a]``: where letter ``a`` leads ``x``; element 0 is the start and
    element ``y > 0`` is reached from ``parent[y] < y`` by ``letter[y]``.
    """
    out = array("i", [0]) * (count * count)
    for x in range(count):
        row = x * count
        out[row] = x
        for y in range(1, count):
            out[row + y] = trans[out[row + parent[y]] * width + letter[y]]
    return out
