"""Chomp on Young diagrams, in plain Python: the twin of ext/_chomp.pyx (same names,
results and errors), step for step the C of ext/src/chomp.c, whose header says what the
keys are and proves the L-shapes' closed form.

A diagram is its row lengths, a tuple, not increasing; a bite at (row i, column j), any
square but (0, 0), cuts rows i and below to at most j squares.  ``Chomp(rows, cols,
memory)``: the diagrams within a frame of ``rows`` x ``cols``, a table of at most
``memory`` bytes (kayles/kernels/pure/_search.py) kept across calls.
"""

from __future__ import annotations

from _thread import allocate_lock

from .. import board_checks as checks
from ..constants import CHOMP_SQUARES
from ._search import Table, has_value, solve

__all__ = ["CONSTANTS", "Chomp"]

CONSTANTS = {"CHOMP_SQUARES": CHOMP_SQUARES}
FIRST_BITS = 52
_M64 = (1 << 64) - 1


def _key_words(nbits: int) -> int:
    return 1 if nbits <= FIRST_BITS else 2 + (nbits - FIRST_BITS - 1) // 64


def _bitten(lengths: tuple[int, ...], i: int, j: int) -> tuple[int, ...]:
    out = []
    for x, length in enumerate(lengths):
        v = length if x < i else min(length, j)
        if v == 0:
            break
        out.append(v)
    return tuple(out)


class Chomp:
    """Chomp on the diagrams within a frame, and the table of their values (module
    header)."""

    def __init__(self, rows, cols, memory) -> None:
        self.rows, self.cols = checks.check_frame(rows, cols)
        self.table = Table(memory)
        self.lock = allocate_lock()
        self.counts = {"expanded": 0, "lookups": 0}
        self.bits = self.cols.bit_length()
        self.words = _key_words(self.rows * self.bits)

    def _pack(self, lengths) -> tuple[int, ...]:
        stream = 0
        for i, length in enumerate(lengths):
            stream |= length << (i * self.bits)
        words = [stream & ((1 << FIRST_BITS) - 1)]
        stream >>= FIRST_BITS
        for _ in range(self.words - 1):
            words.append(stream & _M64)
            stream >>= 64
        return tuple(words)

    def _unpack(self, key: tuple) -> tuple[int, ...]:
        stream = key[0]
        for k, word in enumerate(key[1:]):
            stream |= word << (FIRST_BITS + 64 * k)
        rows = []
        for _ in range(self.rows):
            length = stream & ((1 << self.bits) - 1)
            stream >>= self.bits
            if length:
                rows.append(length)
        return tuple(rows)

    def _key(self, lengths: tuple[int, ...]) -> tuple[int, ...]:
        key = self._pack(lengths)
        if lengths[0] <= self.rows and len(lengths) <= self.cols:
            t = [sum(1 for length in lengths if length > j) for j in range(lengths[0])]
            key = min(key, self._pack(t))
        return key

    def _moves(self, lengths: tuple[int, ...]) -> list[tuple[int, ...]]:
        return [_bitten(lengths, i, j) for i, length in enumerate(lengths)
                for j in range(1 if i == 0 else 0, length)]

    # -- the game the search plays (kayles/kernels/pure/_search.py)
    def expand(self, key: tuple):
        for rows in self._moves(self._unpack(key)):
            if len(rows) == 1 or rows[1] <= 1:
                yield (len(rows) - 1) ^ (rows[0] - 1), []
            else:
                yield 0, [(self._key(rows), sum(rows))]

    def bound(self, key: tuple) -> int:
        return sum(self._unpack(key)) - 1

    # -- the API
    def key(self, lengths) -> tuple[int, ...]:
        """The key of the diagram of these row lengths (the least of it and its transpose
        where both fit the frame)."""
        return self._key(checks.check_rows(lengths, (self.rows, self.cols)))

    def moves(self, lengths) -> list[tuple[int, ...]]:
        """The diagrams the bites of ``lengths`` leave, in the search's order."""
        return self._moves(checks.check_rows(lengths, (self.rows, self.cols)))

    def nimber(self, lengths) -> int:
        """The value of the diagram of these row lengths."""
        rows = checks.check_rows(lengths, (self.rows, self.cols))
        if len(rows) == 1 or rows[1] <= 1:  # an L-shape (ext/src/chomp.c)
            return (len(rows) - 1) ^ (rows[0] - 1)
        with self.lock:
            return solve(self, self.table, self._key(rows), False, self.counts)

    def has_value(self, lengths, value) -> bool:
        """Whether the value of the diagram of these row lengths is ``value`` (its options'
        values found only as far as that needs)."""
        value = checks.check_value(value)
        rows = checks.check_rows(lengths, (self.rows, self.cols))
        if len(rows) == 1 or rows[1] <= 1:  # an L-shape (ext/src/chomp.c)
            return (len(rows) - 1) ^ (rows[0] - 1) == value
        if value >= checks.VALUE_BOUND:
            return False
        with self.lock:
            return has_value(self, self.table, self._key(rows), value, self.counts)

    def stats(self) -> dict[str, int]:
        """entries, bytes, cap, evictions, unstored (the table's); expanded, lookups (the
        positions the searches visited and looked up)."""
        return {**self.table.stats(), **self.counts}
