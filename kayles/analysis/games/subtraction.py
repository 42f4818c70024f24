"""A subtraction game, the demonstration family of ``kayles solve``: a move takes k tokens
from one heap, for k in a set S; whoever cannot move loses (``subtraction:1,2,3 10``: S =
{1, 2, 3}, a heap of 10).  Written on ``kayles.ImpartialGame`` as a user would write it: the
same game as the octal code whose digit at place k is 3 for each k in S (so 0.333 here),
which the heap engine solves (a test compares the two).
"""

from __future__ import annotations

from ..._numbers import natural
from ...engine.game_protocol import ImpartialGame
from ...errors import InputError, shown

__all__ = ["SubtractionGame"]

MAX_TAKE = 1 << 16  # the largest k of a subtraction set
MAX_HEAP = 10**7  # the largest heap: the search is as deep as the heap (10**7 frames: GBs)


class SubtractionGame(ImpartialGame):
    """Take k tokens from one heap, k in ``subtractions`` ("1,2,3"; default 1, 2, 3)."""

    def __init__(self, subtractions: str = "1,2,3") -> None:
        words = subtractions.replace(" ", "").split(",")
        if not words or not all(words):
            raise InputError(f"subtraction:S takes a set S of positive integers such as "
                             f"1,2,3, not {shown(subtractions)}")
        takes = sorted({natural(word, "a subtraction") for word in words})
        if takes[0] == 0 or takes[-1] > MAX_TAKE:
            raise InputError(f"a subtraction must be 1 to {MAX_TAKE}")
        self.takes = tuple(takes)

    def options(self, heap: int) -> list[int]:
        return [heap - k for k in self.takes if k <= heap]

    def parse(self, text: str) -> int:
        heap = natural(text.strip(), "a heap")
        if heap > MAX_HEAP:
            raise InputError(f"a heap of this game is at most {MAX_HEAP:,} (the search is as "
                             "deep as the heap is large)")
        return heap

    def format(self, heap: int) -> str:
        return str(heap)
