"""Kayles-xox, the flagship game: take one pin, or the outer two of three in a row.

    >>> from kayles import xox
    >>> xox.nimber(10**100) == xox.nimber(10**100 + xox.period().period)
    True
"""

from __future__ import annotations

from ..engine.rules import GAMES
from ..engine.sequence import Period, Sequence
from ..storage.proof_cache import shared

__all__ = ["GAME", "nim_sum", "nimber", "nimbers", "period", "sequence", "winning_move"]

GAME = GAMES["kayles-xox"]


def sequence() -> Sequence:
    """The nim-sequence of Kayles-xox, shared by the process; its proof from the cache."""
    return shared(GAME.name)


def nimber(n: int) -> int:
    """G(n): the Grundy number of one row of n pins, for any n >= 0."""
    return sequence().nimber(n)


def nimbers(n: int) -> list[int]:
    """[G(0), G(1), ..., G(n)]."""
    return sequence().nimbers(n)


def period() -> Period:
    """The proved period and preperiod of the sequence."""
    found = sequence().prove()
    if found is None:  # the proof needs about 52,000 values, far below the limit
        raise RuntimeError("cannot happen: no period proved for Kayles-xox")
    return found


def nim_sum(position: str) -> int:
    """The Grundy number of a position: the XOR over its runs of pins."""
    from . import row  # only positions need it; a grundy run does not

    return row.nim_sum(position, sequence())


def winning_move(position: str) -> str | None:
    """The position after the seed's winning move, or None if there is none (LOSS)."""
    from . import row

    return row.winning_move(position, sequence())
