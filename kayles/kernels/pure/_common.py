"""What the pure kernels share, the twin of ext/_common.pxd: limits, move kinds, options, mex.

Kinds are the flat tuples of ``rules.encode``: (span, kept, leave_mask, unequal).
Whether a move may leave outer parts a and b is ``rules.allowed``, the one
statement of that rule in Python.
"""

from __future__ import annotations

from ..constants import MAX_KEPT, MAX_KINDS, MAX_SPAN

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["allowed", "check_kinds", "constant", "mex", "multisets", "options"]


def check_kinds(kinds) -> None:
    """ValueError when the kinds do not fit the kernels' limits (the compiled load_kinds')."""
    if len(kinds) > MAX_KINDS:
        raise ValueError(f"at most {MAX_KINDS} move kinds")
    if any(len(kept) > MAX_KEPT for _, kept, _, _ in kinds):
        raise ValueError(f"at most {MAX_KEPT} kept runs in one pattern")
    if any(not 0 <= span <= MAX_SPAN for span, _, _, _ in kinds):
        raise ValueError(f"a move spans at most {MAX_SPAN} tokens")


def constant(table, kept) -> int:
    """XOR of G over the kept runs: the part of an option's value its kind fixes."""
    value = 0
    for h in kept:
        value ^= table[h]
    return value


def mex(values) -> int:
    """The least non-negative integer not among ``values`` (a set)."""
    m = 0
    while m in values:
        m += 1
    return m


def options(n: int, kinds) -> Iterator[tuple[int, int, int]]:
    """(a, kind index, b) of every option of a heap of ``n``, in ``Game.options`` order."""
    for a in range(n + 1):
        for k, (span, _, leave, unequal) in enumerate(kinds):
            b = n - span - a
            if b >= 0 and allowed(leave, unequal, a, b):
                yield a, k, b


def allowed(leave_mask: int, unequal: bool, a: int, b: int) -> bool:
    """Whether a move may leave outer parts ``a`` and ``b``: the one statement of that rule.

    ``leave_mask`` has bit ``i`` set when ``i`` non-empty parts may remain; ``unequal``
    forbids ``a == b > 0`` (see the module header).  ``MoveKind.allows`` and the pure
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
