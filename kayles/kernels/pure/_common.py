"""What the pure kernels share, the twin of ext/_common.pxd: limits, move kinds, options, mex.

Kinds are the flat tuples of ``rules.encode``: (span, kept, leave_mask, unequal).
Whether a move may leave outer parts a and b is ``kayles.kernels.parts.allowed``, the
one statement of that rule in Python.
"""

from __future__ import annotations

from ..constants import MAX_KEPT, MAX_KINDS, MAX_SPAN
from ..parts import allowed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["check_kinds", "constant", "mex", "options"]


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
