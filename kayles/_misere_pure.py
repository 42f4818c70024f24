"""The misère search in plain Python: same names, arguments, results and errors as
ext/_misere.pyx.

Misère Grundy values v of positions: a multiset of game heaps, plus ``twos`` nim heaps *2
and ``ones`` (0 or 1) nim heap *1; v(terminal) = 1, otherwise the mex over the options.
v == 0 exactly when the player to move loses (whoever moves last loses).

Sound reductions only, applied to every position before it is looked up:
- a heap with no move is the game 0 and vanishes;
- a heap whose every option leaves only such heaps is, as a game tree, the nim heap *1;
- *1 + *1 cancels: v(X + *1 + *1) = v(X) for every X (induction on X: the options of
  X + *1 + *1 are X' + *1 + *1, of value v(X') by induction, and X + *1, whose value is not
  v(X) because X is one of its options; so both mexes are v(X); X = 0 by hand: v(*1+*1) = 1).
Identical game heaps do not cancel.  Positions are memoised in a MisereMemo; the depth-first
search keeps its own stack (no recursion), and the memo never holds more than ``budget``
positions: past it, ValueError.
"""

from __future__ import annotations

from ._common_pure import check_kinds, mex, options

__all__ = ["MisereMemo", "misere_layers_agree", "misere_value"]

_LIVE, _DEAD, _STAR1 = 0, 1, 2


class MisereMemo:
    """The misère values found so far for one game (kinds as in rules.encode)."""

    def __init__(self, kinds, budget: int) -> None:
        check_kinds(kinds)
        self.kinds = tuple(kinds)
        self.budget = budget
        self.values: dict[tuple[int, ...], int] = {}
        self.shapes: list[int] = []  # _LIVE, _DEAD or _STAR1 per heap size

    def __len__(self) -> int:
        return len(self.values)


def _splits(kinds, h: int):
    """(a, b, kept run lengths) of every move on a heap of h, a <= b (mirror images agree)."""
    for a, k, b in options(h, kinds):
        if a <= b:
            yield a, b, kinds[k][1]


def _shape(memo: MisereMemo, h: int) -> int:
    shapes = memo.shapes
    while len(shapes) <= h:
        n = len(shapes)
        shape = _DEAD
        for a, b, heaps in _splits(memo.kinds, n):
            shape = _STAR1
            if any(shapes[p] != _DEAD for p in (a, b, *heaps)):
                shape = _LIVE
                break
        shapes.append(shape)
    return shapes[h]


def _key(memo: MisereMemo, heaps, twos: int, ones: int) -> tuple[int, ...]:
    """(twos, ones, live heaps ascending): the position after the reductions."""
    live = []
    for h in heaps:
        shape = _shape(memo, h)
        if shape == _STAR1:
            ones ^= 1
        elif shape == _LIVE:
            live.append(h)
    live.sort()
    return (twos, ones, *live)


def _options(memo: MisereMemo, key: tuple[int, ...]) -> list[tuple[int, ...]]:
    twos, ones, *heaps = key
    out = []
    for i, h in enumerate(heaps):
        if i and heaps[i - 1] == h:
            continue  # equal heaps have the same options
        rest = heaps[:i] + heaps[i + 1 :]
        for a, b, kept in _splits(memo.kinds, h):
            out.append(_key(memo, [*rest, a, b, *kept], twos, ones))
    if twos:
        out.append((twos - 1, ones ^ 1, *heaps))
        out.append((twos - 1, ones, *heaps))
    if ones:
        out.append((twos, 0, *heaps))
    return out


def misere_value(memo: MisereMemo, heaps, twos: int) -> int:
    """The misère Grundy value of the heaps plus ``twos`` nim heaps *2 (0: a loss to move)."""
    heaps = tuple(heaps)
    if any(h < 0 for h in heaps):
        raise ValueError("heap sizes must be >= 0")
    if twos < 0:
        raise ValueError("the number of *2 heaps must be >= 0")
    values = memo.values
    root = _key(memo, heaps, twos, 0)
    if root in values:
        return values[root]
    stack = [[root, _options(memo, root), 0, set()]]  # key, options, next option, values seen
    while stack:
        frame = stack[-1]
        key, options, position, seen = frame
        while position < len(options) and options[position] in values:
            seen.add(values[options[position]])
            position += 1
        frame[2] = position
        if position < len(options):
            child = options[position]
            stack.append([child, _options(memo, child), 0, set()])
            continue
        if len(values) >= memo.budget:
            raise ValueError(
                f"the misère search needs more than {memo.budget} positions (its budget)"
            )
        values[key] = mex(seen) if options else 1
        stack.pop()
    return values[root]


def misere_layers_agree(memo: MisereMemo, low: int, high: int) -> bool:
    """Whether every position stored with ``high`` nim heaps *2 has the value it has with ``low``.

    The values with k *2s are a function of those with k - 1 (the same for every k >= 1), so
    once the layers low and low + 2 agree on a set closed under moves, they alternate for ever.
    """
    values = memo.values
    for key, value in values.items():
        if key[0] == high and values.get((low, *key[1:])) != value:
            return False
    return True
