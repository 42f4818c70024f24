"""Treblecross (seed 002): players in turn mark a free cell ('.' -> 'X') of a row;
whoever first makes three marked cells in a row wins.

How the winning cells are found, in O(length):

1. Immediate wins: the free cell of any ``.XX``, ``X.X`` or ``XX.``.  If there
   is one, the winning cells are exactly these (any other move leaves the
   opponent the same immediate win).
2. Otherwise no move may land within distance 2 of an X: it would hand the
   opponent an immediate win.  The game becomes "mark a safe cell; whoever has
   none loses", a sum of independent gaps.
3. Pad the row as ``X..`` + row + ``..X`` (the seed's trick: the virtual X's
   forbid no real cell).  A run of k free cells between two X's is then the
   heap of size k - 2 of the octal game 0.007 (take three adjacent tokens):
   its safe cells are the k - 4 middle ones, and marking the cell with a safe
   cells on its left leaves runs of a + 2 and k - 3 - a, i.e. heaps a and
   (k - 2) - 3 - a.  So a row with no X at all, n cells, is the heap n + 2.
   The nimbers come from the engine: ``Sequence(GAMES["treblecross"])``.
4. With X the XOR over all gaps, X == 0 loses; otherwise the winning cells are
   the safe cells whose options have value G(heap) ^ X, in increasing order.

Rows of fewer than 3 cells can never hold three in a row: no one can win, so
such a row is losing.  A row that already holds ``XXX`` is finished: an error.
The brute-force check in the tests plays the cell game itself on every short
row and confirms all of this, padding and mapping included.
"""

from __future__ import annotations

from array import array
from itertools import chain

from ...errors import InputError, shown
from ._cases import cases

__all__ = ["MAX_GAP", "answer_file", "gaps", "parse_file", "parse_row", "winning_cells"]

# The longest run of free cells (the largest heap of 0.007, which has no known period): its
# nimbers take time quadratic in it, about 1 s at this one (13 s at a million cells).  A
# row's length costs only linear time, so a row of millions of cells with shorter gaps is
# answered at once; the input's own limit bounds it.
MAX_GAP = 1 << 18


def _nimbers(count: int) -> list[int]:
    """G(0..count-1) of 0.007, from the engine Sequence shared by the process."""
    from ...storage.proof_cache import shared

    return shared("treblecross").table(count).tolist()


def parse_row(text: str) -> str:
    """The row, checked: only '.' and 'X', and not already won (no 'XXX')."""
    row = text.strip()
    bad = row.replace(".", "").replace("X", "")
    if bad:
        at = next(i for i, ch in enumerate(row) if ch not in ".X")
        raise InputError(f"a row holds only '.' and 'X', not {shown(bad[0])} (at cell {at + 1})")
    if "XXX" in row:
        raise InputError(f"the row already has three X in a row (at cell {row.index('XXX') + 1})")
    return row


def _marks(row: str) -> array:
    """The 0-based cells holding an X, 4 bytes each (a row may have millions)."""
    marks = array("i")
    at = row.find("X")
    while at >= 0:
        marks.append(at)
        at = row.find("X", at + 1)
    return marks


def _immediate(row: str, marks: array) -> array:
    """1-based free cells that complete three in a row, increasing (4 bytes each: a row of
    millions of cells may have millions; a byte a cell marks them first)."""
    n = len(row)
    found = bytearray(n)
    for p in marks:
        if p + 1 < n and row[p + 1] == "X":  # XX: either end
            if p >= 1 and row[p - 1] == ".":
                found[p - 1] = 1
            if p + 2 < n and row[p + 2] == ".":
                found[p + 2] = 1
        if p + 2 < n and row[p + 2] == "X" and row[p + 1] == ".":  # X.X
            found[p + 1] = 1
    cells = array("i")
    at = found.find(1)
    while at >= 0:
        cells.append(at + 1)
        at = found.find(1, at + 1)
    return cells


def gaps(row: str) -> list[tuple[int, int]]:
    """``(first_safe_cell, heap)`` per gap of a row with no immediate win.

    ``first_safe_cell`` is 0-based (the cell a = 0 of the gap's 0.007 heap);
    gaps with fewer than three free cells give heaps 0 and below, dropped.
    """
    row = parse_row(row)
    marks = _marks(row)
    if _immediate(row, marks):
        raise InputError("the row has an immediate win: it is not a sum of gaps")
    return list(zip(*_parts(row, marks)))


def _parts(row: str, marks: array) -> tuple[array, array]:
    """(first safe cells, heaps): each gap between the marks with a heap above 0."""
    firsts, heaps = array("i"), array("i")
    before = -3  # a mark three cells left of the row: its first cell is safe
    for at in chain(marks, (len(row) + 2,)):
        if at - before - 3 > 0:
            firsts.append(before + 3)
            heaps.append(at - before - 3)
        before = at
    return firsts, heaps


def winning_cells(row: str) -> list[int]:
    """The 1-based cells whose marking wins, in increasing order; [] when losing."""
    return _winning(row).tolist()


def _winning(row: str) -> array:
    """winning_cells as an array of 4-byte integers (a long row may have millions: the
    command line keeps them so, about 8 bytes less each than a list)."""
    row = parse_row(row)
    if len(row) < 3:
        return array("i")
    marks = _marks(row)
    now = _immediate(row, marks)
    if now:
        return now
    firsts, heaps = _parts(row, marks)
    del marks
    largest = max(heaps, default=0)
    if largest > MAX_GAP:
        raise InputError(f"a run of free cells is too long: its heap of 0.007 is at most "
                         f"{MAX_GAP:,} (nimbers take time quadratic in it), not {largest:,}")
    G = _nimbers(largest + 1)
    total = 0
    for heap in heaps:
        total ^= G[heap]
    cells = array("i")
    if not total:
        return cells
    from ...engine.rules import GAMES

    for first, heap in zip(firsts, heaps):
        target = G[heap] ^ total
        for option in GAMES["treblecross"].options(heap):  # option a: mark the cell first + a
            if option.value(G.__getitem__) == target:
                cells.append(first + option.a + 1)
    return cells


def answer_file(text: str) -> list[tuple[int, str, array]]:
    """(line, row, winning cells: an array) of each row of the seed's input; errors name
    the line."""
    answers = []
    for number, row in parse_file(text):
        try:
            answers.append((number, row, _winning(row)))
        except ValueError as exc:
            raise InputError(f"line {number}: {exc}") from None
    return answers


def parse_file(text: str) -> list[tuple[int, str]]:
    """The seed's input: a case count, then one row per line; errors name the line."""
    out = []
    for number, line in cases(text):
        try:
            out.append((number, parse_row(line)))
        except ValueError as exc:
            raise InputError(f"line {number}: {exc}") from None
    return out
