"""Nim and misère Nim (seed 004): Bouton's nim-sum and the seed's ``nim.txt`` answers.

Normal play: with X the XOR of all heaps, X == 0 loses; otherwise the winning
move is in the *first* heap h with h ^ X < h, leaving h ^ X counters.

Misère play (who takes the last counter loses) differs only in the endgame.
While two or more heaps hold 2+ counters, play exactly as in normal Nim.  With
exactly one such heap, reduce it to 0 or 1 so that an odd number of 1-heaps
remains.  With every heap at most 1, an odd number of 1-heaps loses; an even,
non-zero number wins by taking a 1-heap.  With every heap empty the player to
move has already won (the opponent took the last counter): no move, outcome N.
"""

from __future__ import annotations

from array import array
from collections import namedtuple
from functools import reduce
from operator import xor

from ..._numbers import natural
from ...errors import InputError
from ._cases import cases

__all__ = [
    "NimMove",
    "nim_sum",
    "outcome",
    "parse_file",
    "seed_answer",
    "winning_move",
]


SHORT_DIGITS = 19  # decimal digits that always fit an unsigned 64-bit integer
SLICE = 1 << 16  # characters of a line turned into numbers at a time

NimMove = namedtuple("NimMove", "index remove")
NimMove.__doc__ = "Take ``remove`` counters from heap ``index`` (0-based)."


def nim_sum(heaps: list[int]) -> int:
    """The XOR of all heap sizes."""
    return reduce(xor, heaps, 0)


def _check(heaps: list[int]) -> None:
    if heaps and min(heaps) < 0:
        raise InputError("heap sizes must be >= 0")


def outcome(heaps: list[int], misere: bool = False) -> str:
    """``"P"`` (the player to move loses) or ``"N"`` (the player to move wins)."""
    _check(heaps)
    if misere and all(size <= 1 for size in heaps):
        return "P" if sum(heaps) % 2 else "N"
    return "N" if nim_sum(heaps) else "P"


def winning_move(heaps: list[int], misere: bool = False) -> NimMove | None:
    """The winning move described in the module header, or None when there is none."""
    _check(heaps)
    big = [i for i, size in enumerate(heaps) if size >= 2]
    if misere and len(big) <= 1:
        ones = heaps.count(1)
        if big:
            (i,) = big
            keep = 0 if ones % 2 else 1  # leave an odd number of 1-heaps
            return NimMove(i, heaps[i] - keep)
        if ones and ones % 2 == 0:
            return NimMove(heaps.index(1), 1)
        return None
    total = nim_sum(heaps)
    if not total:
        return None
    for i, size in enumerate(heaps):
        if size ^ total < size:
            return NimMove(i, size - (size ^ total))
    raise RuntimeError("cannot happen: a non-zero nim-sum without a heap to lower")


def seed_answer(heaps: list[int], misere: bool = False) -> str:
    """The seed's line: ``Lose Game`` or ``Remove K counters from Heap H`` (H 1-based).

    The one case outside the seed's two phrases is misère play with every heap
    empty: the player to move has won already, and the answer is ``Win Game``.
    """
    move = winning_move(heaps, misere)
    if move is not None:
        return f"Remove {move.remove} counters from Heap {move.index + 1}"
    return "Lose Game" if outcome(heaps, misere) == "P" else "Win Game"


def _plain_heaps(line: str) -> array | None:
    """The heaps of a line of plain decimal numbers below 2**64, 8 bytes each (the common
    case, read a slice at a time: a line of millions of heaps costs about its own size
    again); None for anything else (the careful path then says what is wrong)."""
    if not line.isascii():
        return None
    heaps = array("Q")
    start = 0
    while start < len(line):
        stop = line.find(" ", start + SLICE)
        stop = len(line) if stop < 0 else stop
        words = line[start:stop].split()
        if not "".join(words).isdigit() or max(map(len, words), default=0) > SHORT_DIGITS:
            return None
        heaps.extend(map(int, words))
        start = stop
    return heaps


def parse_file(text: str) -> list[tuple[int, list[int]]]:
    """The seed's ``nim.txt``: a count line, then that many lines of 2+ heap sizes.

    Returns ``(line_number, heaps)`` per data set (heaps: a sequence of ints, an
    ``array('Q')`` when every heap fits 64 bits); a malformed file is a ValueError
    naming the line.
    """
    out = []
    for number, line in cases(text):
        heaps = _plain_heaps(line)
        if heaps is None:
            words = line.split()
            try:
                heaps = [natural(w, "a heap size", "is a non-negative integer") for w in words]
            except ValueError as exc:
                raise InputError(f"line {number}: {exc}") from None
            del words
        if len(heaps) < 2:
            raise InputError(f"line {number}: a data set needs at least 2 heaps, not {len(heaps)}")
        out.append((number, heaps))
    return out
