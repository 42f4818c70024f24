"""Positions as lists of heap sizes: nim-sum and the winning move of any heap game.

The tie-break mirrors the one on rows: the leftmost heap whose value can be
lowered to G(heap) ^ X; in it, the option with the smallest left part a, and
at the same a the earlier move kind.  A move is reported as the heap's index
and the heaps it leaves: the non-empty outer parts and the kept 'o' runs.
"""

from __future__ import annotations

from ._numbers import is_natural, natural
from .sequence import Sequence

__all__ = ["HeapMove", "looks_like_heaps", "nim_sum", "parse_heaps", "winning_move"]


class HeapMove:
    """Replace heap ``index`` (0-based) of size ``size`` by the heaps ``parts``."""

    __slots__ = ("index", "size", "parts")

    def __init__(self, index: int, size: int, parts: tuple[int, ...]) -> None:
        self.index = index
        self.size = size
        self.parts = parts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HeapMove) and (self.index, self.size, self.parts) == (
            other.index,
            other.size,
            other.parts,
        )

    def __repr__(self) -> str:
        return f"HeapMove(index={self.index}, size={self.size}, parts={self.parts})"

    def apply(self, heaps: list[int]) -> list[int]:
        """The position after the move (the new heaps stand where the old one stood)."""
        return heaps[: self.index] + list(self.parts) + heaps[self.index + 1 :]


def looks_like_heaps(words: list[str]) -> bool:
    """Whether command-line words are heap sizes (digits, spaces, commas) rather than a row."""
    text = " ".join(words).replace(",", " ")
    return bool(text.split()) and all(map(is_natural, text.split()))


def parse_heaps(text: str) -> list[int]:
    """Heap sizes written with spaces and/or commas, e.g. '7 5 3' or '7,5,3'."""
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError("a position needs at least one heap size")
    return [natural(word, "a heap size", "is a non-negative integer") for word in words]


def nim_sum(heaps: list[int], sequence: Sequence) -> int:
    """XOR of G(heap) over the heaps (the largest first: a refusal comes before any work)."""
    if heaps:
        sequence.nimber(max(heaps))
    total = 0
    for size in heaps:
        total ^= sequence.nimber(size)
    return total


def winning_move(heaps: list[int], sequence: Sequence) -> HeapMove | None:
    """The winning move (see the module header), or None when every move loses."""
    if any(size < 0 for size in heaps):
        raise ValueError("heap sizes must be >= 0")
    total = nim_sum(heaps, sequence)
    if not total:
        return None
    G = sequence.nimber
    index, size = next((i, s) for i, s in enumerate(heaps) if G(s) ^ total < G(s))
    target = G(size) ^ total
    kinds = sequence.game.kinds
    for a in range(size + 1):
        for kind in kinds:
            b = size - kind.span - a
            if b < 0 or ((a > 0) + (b > 0)) not in kind.leave or (kind.unequal and a == b > 0):
                continue
            kept = tuple(len(run) for run in kind.pattern.split("x") if run)
            value = G(a) ^ G(b)
            for h in kept:
                value ^= G(h)
            if value == target:
                parts = tuple(p for p in (a, *kept, b) if p)
                return HeapMove(index, size, parts)
    raise RuntimeError(f"no option of G({size}) has value {target}")
