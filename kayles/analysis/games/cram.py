"""Cram: a move fills two free adjacent cells of a board (a domino); who cannot move loses.

A position (``CramPosition``) is the board's rows and columns and its free cells, an int
with bit ``r * cols + c`` set when the cell in row r, column c is free; at most 64 cells.
As text: ``RxC`` (an empty board of R rows and C columns) or its rows of ``.`` (free) and
``#`` (filled) joined by ``/`` (``..#/...``).

Values come from the pruned search of kayles.kernels._boards (or its pure twin), which
splits a position into components, reduces them (twin tufts, bridges, the 2 x 2 cut:
ext/src/boards.c proves each) and stores each component's value under the least of its
congruent images.  Two theorems on full rectangles (the symmetry strategy): where both
sides are even the value is 0 (the second player answers each domino by its image under
the half turn about the centre, which never overlaps it: a cell and its image differ by
an odd amount in each coordinate, so they are not adjacent and not equal), and where
exactly one side is even it is not 0 (the first player fills the two middle cells of the
middle line across the even side, then answers by the half turn).  The first is answered
without a search; the second starts the search at 1.
"""

from __future__ import annotations

from typing import NamedTuple

from ...errors import InputError, shown
from ...kernels.constants import BOARD_CELLS
from .pruned import PrunedFamily

__all__ = ["Cram", "CramPosition"]


class CramPosition(NamedTuple):
    rows: int
    cols: int
    free: int  # bit r * cols + c: the cell in row r, column c is free


class Cram(PrunedFamily):
    """Cram on any board of at most 64 cells; ``memory``: the bytes each board shape's
    table of values may use (default: kayles.analysis.games.pruned.default_memory())."""

    name = "cram"

    def board(self, rows: int, cols: int):
        """The kernel of boards of this shape (a Board of kayles.kernels._boards), made once."""
        found = self.kernels.get((rows, cols))
        if found is None:
            from ...kernels import chooser

            found = self.kernels[rows, cols] = chooser.board_kernel.Board(
                rows, cols, "cram", self.memory)
        return found

    # -- text
    def parse(self, text: str) -> CramPosition:
        return parse_board(text, "Cram")

    def format(self, position: CramPosition) -> str:
        return format_board(position)

    # -- the game protocol
    def options(self, position: CramPosition) -> list[CramPosition]:
        rows, cols, free = position
        return [CramPosition(rows, cols, x) for x in self.board(rows, cols).moves(free)]

    def components(self, position: CramPosition) -> list[CramPosition]:
        """The groups of at least two free cells connected by adjacency."""
        rows, cols, free = position
        return [CramPosition(rows, cols, cells) for cells in connected(rows, cols, free)
                if cells & (cells - 1)]

    def key(self, position: CramPosition) -> tuple:
        """(rows, cols, the sorted keys of its components): congruent components, anywhere
        on the board, have one key."""
        rows, cols, free = position
        board = self.board(rows, cols)
        return rows, cols, tuple(sorted(board.canonical(c.free) for c in self.components(position)))

    def nimber(self, position: CramPosition) -> int:
        rows, cols, free = position
        full = free == (1 << (rows * cols)) - 1
        if full and rows % 2 == 0 and cols % 2 == 0:
            return 0  # the symmetry strategy (module header)
        return self.board(rows, cols).nimber(free, winning=full and (rows * cols) % 2 == 0)

    def has_value(self, position: CramPosition, value: int) -> bool:
        """Whether the position's value is ``value``: asked, not found (a P-position is
        known by its options' outcomes alone)."""
        rows, cols, free = position
        if free == (1 << (rows * cols)) - 1 and rows % 2 == 0 and cols % 2 == 0:
            return value == 0  # the symmetry strategy (module header)
        return self.board(rows, cols).has_value(free, value)

def connected(rows: int, cols: int, free: int) -> list[int]:
    """The sets of free cells connected by adjacency (by rows and columns), lowest first."""
    groups = []
    left = free
    while left:
        group, edge = 0, left & -left
        while edge:
            group |= edge
            grown = 0
            bits = edge
            while bits:
                low = bits & -bits
                i = low.bit_length() - 1
                r, c = divmod(i, cols)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= rr < rows and 0 <= cc < cols:
                        grown |= 1 << (rr * cols + cc)
                bits ^= low
            edge = grown & left & ~group
        groups.append(group)
        left &= ~group
    return groups


def parse_board(text: str, game: str) -> CramPosition:
    """``RxC`` or rows of ``.`` and ``#`` joined by ``/`` (the module header)."""
    raw = text.strip()
    head, x, tail = raw.lower().partition("x")
    if x and head.isdigit() and tail.isdigit() and head.isascii() and tail.isascii():
        rows, cols = int(head), int(tail)
        if rows < 1 or cols < 1:
            raise InputError(f"a {game} board needs at least one row and one column, "
                             f"not {shown(raw)}")
        if rows * cols > BOARD_CELLS:
            raise InputError(f"a {game} board has at most {BOARD_CELLS} cells, not "
                             f"{rows} x {cols} = {rows * cols:,}")
        return CramPosition(rows, cols, (1 << (rows * cols)) - 1)
    lines = raw.split("/")
    if not raw or any(set(line) - {".", "#"} or not line for line in lines):
        raise InputError(f"a {game} board is RxC (such as 4x7) or rows of '.' (free) and "
                         f"'#' (filled) joined by '/', not {shown(raw)}")
    cols = len(lines[0])
    if any(len(line) != cols for line in lines):
        raise InputError(f"the rows of a {game} board must have one length, not "
                         f"{', '.join(str(len(line)) for line in lines)}")
    if len(lines) * cols > BOARD_CELLS:
        raise InputError(f"a {game} board has at most {BOARD_CELLS} cells, not "
                         f"{len(lines)} x {cols} = {len(lines) * cols:,}")
    free = sum(1 << (r * cols + c) for r, line in enumerate(lines)
               for c, ch in enumerate(line) if ch == ".")
    return CramPosition(len(lines), cols, free)


def format_board(position: CramPosition) -> str:
    rows, cols, free = position
    return "/".join("".join("." if free >> (r * cols + c) & 1 else "#" for c in range(cols))
                    for r in range(rows))
