"""Positions as lists of heap sizes: nim-sum and the winning move of any heap game.

The tie-break mirrors the one on rows: the leftmost heap whose value can be
lowered to G(heap) ^ X; in it, the first option (``Game.options`` order:
smallest left part a, then the earlier move kind) whose value is G(heap) ^ X.
A move is reported as the heap's index and the heaps it leaves: the non-empty
outer parts and the kept 'o' runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._numbers import is_natural, natural
from ..engine.sequence import Sequence, as_sequence, whole
from ..errors import InputError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..engine.rules import Game

__all__ = ["HeapMove", "looks_like_heaps", "nim_sum", "parse_heaps", "winning_move"]


@dataclass(frozen=True)
class HeapMove:
    """Replace heap ``index`` (0-based) of size ``size`` by the heaps ``parts``."""

    index: int
    size: int
    parts: tuple[int, ...]

    def apply(self, heaps: list[int]) -> list[int]:
        """The position after the move (the new heaps stand where the old one stood)."""
        return heaps[: self.index] + list(self.parts) + heaps[self.index + 1 :]

    def text(self) -> str:
        """'heap H: S -> A + B' (H from 1; 'nothing' when the heap goes entirely)."""
        becomes = " + ".join(map(str, self.parts)) or "nothing"
        return f"heap {self.index + 1}: {self.size} -> {becomes}"


def looks_like_heaps(words: list[str]) -> bool:
    """Whether command-line words are heap sizes (digits, spaces, commas) rather than a row."""
    text = " ".join(words).replace(",", " ")
    return bool(text.split()) and all(map(is_natural, text.split()))


def parse_heaps(text: str) -> list[int]:
    """Heap sizes written with spaces and/or commas, e.g. '7 5 3' or '7,5,3'."""
    words = text.replace(",", " ").split()
    if not words:
        raise InputError("a position needs at least one heap size")
    return [natural(word, "a heap size", "is a non-negative integer") for word in words]


def _sizes(heaps) -> list[int]:
    """The heap sizes as a list of ints; TypeError for anything else (a str included:
    ``parse_heaps`` reads '7 5 3')."""
    if isinstance(heaps, (str, bytes)) or not hasattr(heaps, "__iter__"):
        raise TypeError(f"heaps are a list of heap sizes (ints), not {type(heaps).__name__}")
    return [whole(size, "a heap size") for size in heaps]


def nim_sum(heaps: list[int], sequence: Sequence | Game) -> int:
    """XOR of G(heap) over the heaps (the largest first: a refusal comes before any work)."""
    sequence = as_sequence(sequence)
    heaps = _sizes(heaps)
    if heaps:
        sequence.nimber(max(heaps))
    total = 0
    for size in heaps:
        total ^= sequence.nimber(size)
    return total


def winning_move(heaps: list[int], sequence: Sequence | Game) -> HeapMove | None:
    """The winning move (see the module header), or None when every move loses."""
    sequence = as_sequence(sequence)
    heaps = _sizes(heaps)
    if any(size < 0 for size in heaps):
        raise InputError("heap sizes must be >= 0")
    total = nim_sum(heaps, sequence)
    if not total:
        return None
    G = sequence.nimber
    index, size = next((i, s) for i, s in enumerate(heaps) if G(s) ^ total < G(s))
    target = G(size) ^ total
    for option in sequence.game.options(size):
        if option.value(G) == target:
            return HeapMove(index, size, option.parts)
    raise RuntimeError(
        f"cannot happen: no option of G({size}) has value {target} (the sequence is wrong)"
    )
