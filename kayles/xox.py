"""Kayles-xox, the flagship game: take one pin, or the outer two of three in a row.

    >>> from kayles import xox
    >>> xox.nimber(10**100) == xox.nimber(10**100 + xox.period().period)
    True
"""

from __future__ import annotations

from . import proof_cache
from .rules import GAMES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .sequence import Period

__all__ = ["GAME", "SEQUENCE", "nim_sum", "nimber", "nimbers", "period", "winning_move"]

GAME = GAMES["kayles-xox"]
SEQUENCE = proof_cache.sequence(GAME)  # the proof comes from the user's cache when it can


def nimber(n: int) -> int:
    """G(n): the Grundy number of one row of n pins, for any n >= 0."""
    return SEQUENCE.nimber(n)


def nimbers(n: int) -> list[int]:
    """[G(0), G(1), ..., G(n)]."""
    return SEQUENCE.nimbers(n)


def period() -> Period:
    """The proved period and preperiod of the sequence."""
    found = SEQUENCE.prove()
    if found is None:  # the proof needs about 52,000 values, far below the limit
        raise RuntimeError("no period proved for Kayles-xox")
    return found


def nim_sum(position: str) -> int:
    """The Grundy number of a position: the XOR over its runs of pins."""
    from . import row

    return row.nim_sum(position, SEQUENCE)


def winning_move(position: str) -> str | None:
    """The position after the seed's winning move, or None if there is none (LOSS)."""
    from . import row

    return row.winning_move(position, SEQUENCE)
