"""Chomp: a move (a bite) takes a square of a Young diagram and every square below and to
its right; the poisoned square in the corner is no move, so who faces it alone loses.

A position is the diagram's row lengths, a tuple, not increasing (``(5, 3, 3)``); as text
``5,3,3`` or ``RxC`` (a rectangle of R rows of C squares).  Values come from the pruned
search of kayles.kernels._chomp (or its pure twin), whose keys are the least of a diagram
and its transpose; L-shapes (every row below the first of one square) are the two nim
heaps of their arm and leg (ext/src/chomp.c proves it).  At most 4,096 squares.

Published values: 3 x 3 = 5, 4 x 5 = 13, 4 x 7 = 19; Brouwer's three-rowed P-positions
(p, q, r) (OEIS A147983's comments quote his table: (3,1,1), (2,2,1); p = q + 2 for r = 2;
(6,3,3), (7,4,3), (5,5,3); ...) are tested in tests/analysis/test_families.py.
"""

from __future__ import annotations

from ...errors import InputError, shown
from ...kernels.constants import CHOMP_SQUARES
from .pruned import PrunedFamily

__all__ = ["Chomp"]


class Chomp(PrunedFamily):
    """Chomp on Young diagrams of at most 4,096 squares; ``memory``: the bytes each frame's
    table of values may use (default: kayles.analysis.games.pruned.default_memory())."""

    name = "chomp"

    def kernel(self, position: tuple[int, ...]):
        """A kernel (a Chomp of kayles.kernels._chomp) whose frame holds the diagram: the
        first made that does, else one of the diagram's own rows and columns."""
        rows, cols = len(position), position[0]
        for (r, c), found in self.kernels.items():
            if rows <= r and cols <= c:
                return found
        from ...kernels import chooser

        found = self.kernels[rows, cols] = chooser.chomp_kernel.Chomp(rows, cols, self.memory)
        return found

    # -- text
    def parse(self, text: str) -> tuple[int, ...]:
        raw = text.strip()
        head, x, tail = raw.lower().partition("x")
        if x and head.isascii() and tail.isascii() and head.isdigit() and tail.isdigit():
            lengths = (int(tail),) * int(head)
        else:
            parts = [p.strip() for p in raw.split(",")]
            if not all(p.isascii() and p.isdigit() for p in parts):
                raise InputError(f"a Chomp diagram is its row lengths (such as 5,3,3) or RxC, "
                                 f"not {shown(raw)}")
            lengths = tuple(int(p) for p in parts)
        if not lengths or any(n < 1 for n in lengths):
            raise InputError(f"a Chomp diagram's rows have at least one square each: "
                             f"{shown(raw)}")
        if any(a < b for a, b in zip(lengths, lengths[1:])):
            raise InputError(f"a Chomp diagram's rows must not grow longer downwards: "
                             f"{shown(raw)}")
        if sum(lengths) > CHOMP_SQUARES:
            raise InputError(f"a Chomp diagram has at most {CHOMP_SQUARES:,} squares, not "
                             f"{sum(lengths):,}")
        return lengths

    def format(self, position: tuple[int, ...]) -> str:
        return ",".join(map(str, position))

    # -- the game protocol
    def options(self, position: tuple[int, ...]) -> list[tuple[int, ...]]:
        return self.kernel(position).moves(position)

    def components(self, position: tuple[int, ...]) -> list[tuple[int, ...]]:
        return [position]  # a diagram never falls apart

    def key(self, position: tuple[int, ...]) -> tuple:
        kernel = self.kernel(position)
        return (kernel.rows, kernel.cols, kernel.key(position))

    def nimber(self, position: tuple[int, ...]) -> int:
        return self.kernel(position).nimber(position)

    def has_value(self, position: tuple[int, ...], value: int) -> bool:
        """Whether the diagram's value is ``value``: asked, not found (a P-position is
        known by its options' outcomes alone)."""
        return self.kernel(position).has_value(position, value)
