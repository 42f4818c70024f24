"""Grundy's game (seed 003): a move splits one heap into two non-empty heaps of
unequal sizes; heaps of 1 and 2 cannot be split, so a position of such heaps
is terminal.  Whoever cannot move loses.

The nimbers are the engine's (``Sequence(GAMES["grundy"])``, the move kind
"split, unequal") and the winning move is ``kayles.analysis.heaps.winning_move``: the
leftmost heap that can be lowered, split with the smallest possible first part.
A multiset is a P-position exactly when the XOR of its heaps' nimbers is 0.
"""

from __future__ import annotations

from ...errors import InputError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ...engine.sequence import Sequence
    from ..heaps import HeapMove

__all__ = ["nim_sum", "nimber", "outcome", "p_positions", "sequence", "winning_move"]


def sequence() -> Sequence:
    """The engine's nim-sequence of Grundy's game, shared by the process."""
    from ...storage.proof_cache import shared

    return shared("grundy")


def nimber(n: int) -> int:
    """G(n) of a single heap of n tokens."""
    return sequence().nimber(n)


def nim_sum(heaps: list[int]) -> int:
    """The XOR of G over the heaps."""
    from ..heaps import nim_sum

    if any(size < 0 for size in heaps):
        raise InputError("heap sizes must be >= 0")
    return nim_sum(heaps, sequence())


def outcome(heaps: list[int]) -> str:
    """``"P"`` (the player to move loses) or ``"N"``."""
    return "N" if nim_sum(heaps) else "P"


def winning_move(heaps: list[int]) -> HeapMove | None:
    """The engine's winning move (heap index 0-based, the two parts), or None."""
    from ..heaps import winning_move

    return winning_move(heaps, sequence())


def p_positions(limit: int) -> list[int]:
    """The single heaps n <= limit that are P-positions (G(n) == 0)."""
    if limit < 0:
        raise InputError(f"the limit must be >= 0, not {limit}")
    values = sequence().table(limit + 1)
    return [n for n in range(limit + 1) if values[n] == 0]
