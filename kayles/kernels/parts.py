"""The parts a move leaves, as the rules and the pure kernels both read them: whether a
move may leave outer parts a and b (``allowed``: the one statement of that rule in
Python, the twin of ext/_common.pxd's ``allows``), and every way to leave k parts
(``multisets``), and the components left of a sum once equal pairs cancel (G + G = 0:
``uncancelled``, for the board and graph kernels, both twins).  Its own small module:
Kayles-xox's start-up imports it with the rules, and none of the pure twins.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["allowed", "multisets", "uncancelled"]


def allowed(leave_mask: int, unequal: bool, a: int, b: int) -> bool:
    """Whether a move may leave outer parts ``a`` and ``b``: the one statement of that rule.

    ``leave_mask`` has bit ``i`` set when ``i`` non-empty parts may remain; ``unequal``
    forbids ``a == b > 0`` (kayles.engine.rules' header).  ``MoveKind.allows`` and the pure
    kernels call this; the compiled kernels' ``allows`` (ext/_common.pxd) is its twin.
    """
    return bool(leave_mask >> ((a > 0) + (b > 0)) & 1) and not (unequal and a == b > 0)


def multisets(total: int, count: int, mark: str = "", low: int = 1) -> Iterator[tuple[int, ...]]:
    """Every way to leave ``count`` non-empty parts of ``total`` tokens in all, each part at
    least ``low``, as an ascending tuple, in lexicographic order, with ``mark``: '!' all
    different, '?' not all the same size, '=' all the same size ('' any)."""
    if count == 0:
        if total == 0:
            yield ()
        return
    if mark == "=":
        if total % count == 0 and total // count >= low:
            yield (total // count,) * count
        return
    if count == 1:
        if total >= low:
            yield (total,)
        return
    step = 1 if mark == "!" else 0  # the least difference between neighbours
    # the first part a leaves count - 1 parts of at least a + step
    first = low
    while first * count + step * count * (count - 1) // 2 <= total:
        for rest in multisets(total - first, count - 1, "!" if mark == "!" else "",
                              first + step):
            if mark == "?" and rest[-1] == first:
                continue  # all the same size
            yield (first, *rest)
        first += 1


def uncancelled(keys: list) -> list:
    """The keys left once equal pairs cancel (the first two equal, then the next two...),
    in their order."""
    gone = [False] * len(keys)
    for i in range(len(keys)):
        if gone[i]:
            continue
        for j in range(i + 1, len(keys)):
            if not gone[j] and keys[j] == keys[i]:
                gone[i] = gone[j] = True
                break
    return [k for k, g in zip(keys, gone) if not g]
