"""Cram and Node Kayles on boards of at most 64 cells, in plain Python: the twin of
ext/_boards.pyx (same names, results and errors), step for step the C of ext/src/boards.c,
whose header says what the keys are and proves the reductions.

A position is an int, bit r * cols + c set when the cell in row r, column c is free.
``Board(rows, cols, rule, memory)``: rule 'cram' (a move fills two free adjacent cells) or
'node' (a free cell and its free neighbours); a table of at most ``memory`` bytes
(kayles/kernels/pure/_search.py) kept across calls.
"""

from __future__ import annotations

from _thread import allocate_lock

from .. import board_checks as checks
from ..constants import BOARD_CELLS
from ..parts import uncancelled
from ._search import Table, solve, sum_has_value

__all__ = ["CONSTANTS", "RULES", "Board"]

CONSTANTS = {"BOARD_CELLS": BOARD_CELLS}
RULES = ("cram", "node")
_M64 = (1 << 64) - 1


def _reversed(x: int) -> int:
    return int(f"{x:064b}"[::-1], 2)


def _middle_out(n: int) -> list[int]:
    mid = (n - 1) // 2
    order = [mid]
    d = 1
    while len(order) < n:
        if mid - d >= 0:
            order.append(mid - d)
        if mid + d < n:
            order.append(mid + d)
        d += 1
    return order


def _line_values(node: bool) -> list[int]:
    """The value of a straight line of k cells: Cram on 1 x k (0.07) or Node Kayles on the
    path of k vertices, from the rules."""
    line = [0]
    for k in range(1, BOARD_CELLS + 1):
        if node:
            seen = {line[max(i - 1, 0)] ^ line[max(k - i - 2, 0)] for i in range(k)}
        else:
            seen = {line[a] ^ line[k - 2 - a] for a in range(k - 1)}
        m = 0
        while m in seen:
            m += 1
        line.append(m)
    return line


class Board:
    """The boards of ``rows`` x ``cols`` cells under one rule, and the table of their
    components' values (module header)."""

    def __init__(self, rows, cols, rule, memory) -> None:
        self.rows, self.cols = checks.check_board(rows, cols)
        self.rule = checks.check_rule(rule, RULES)
        self.table = Table(memory)
        self.lock = allocate_lock()
        self.counts = {"expanded": 0, "lookups": 0}
        r, c = self.rows, self.cols
        self.cells = r * c
        self.all = (1 << self.cells) - 1
        self.first_col = sum(1 << (i * c) for i in range(r))
        self.last_col = self.first_col << (c - 1)
        self.row_bits = (1 << c) - 1
        self.transposed = [0] * BOARD_CELLS
        for i in range(r):
            for j in range(c):
                self.transposed[i * c + j] = j * c + i
        self.line = _line_values(self.rule == "node")

    # -- the neighbour masks: bit i set when that neighbour of cell i is free
    def _below(self, x: int) -> int:
        return x >> self.cols

    def _above(self, x: int) -> int:
        return (x << self.cols) & self.all

    def _right(self, x: int) -> int:
        return (x & ~self.first_col) >> 1

    def _left(self, x: int) -> int:
        return (x & ~self.last_col) << 1

    def _around(self, t: int) -> int:
        return (t >> self.cols) | ((t << self.cols) & self.all) | \
            ((t & ~self.first_col) >> 1) | ((t & ~self.last_col) << 1)

    def _reduced(self, x: int) -> int:
        d, u, r, left = self._below(x), self._above(x), self._right(x), self._left(x)
        two = (d & u) | (d & r) | (d & left) | (u & r) | (u & left) | (r & left)
        tufts = x & (d | u | r | left) & ~two
        if not tufts:
            return x & (d | u | r | left)
        centres = x & self._around(tufts)
        t_above, t_below, t_left, t_right = tufts & d, tufts & u, tufts & r, tufts & left
        c_above = t_above << self.cols
        c_left = t_left << 1
        c_below = t_below >> self.cols
        drop = (t_left & (c_above >> 1)) | (t_below & ((c_above | c_left) << self.cols)) | \
            (t_right & ((c_above | c_left | c_below) << 1))
        others = x & ~tufts & ~centres
        return x & ~drop & ~(others & ~self._around(others))

    def _grown(self, x: int, seed: int, steps: int) -> int:
        s, c = seed, self.cols
        while True:
            n = (s | (s >> c) | (s << c) | ((s & steps) << 1) | ((s >> 1) & steps)) & x
            if n == s:
                return s
            s = n

    def _cut_blocks(self, x: int) -> int:
        d, u, r, left = self._below(x), self._above(x), self._right(x), self._left(x)
        blocks = x & r & d & self._below(r)
        if not blocks:
            return 0
        c, full = self.cols, _M64
        nd, nu, nr, nl = d ^ full, u ^ full, r ^ full, left ^ full
        return blocks & ((nl & nu & ((nr & nd) >> (c + 1))) | (((nr & nu) >> 1) & ((nl & nd) >> c)))

    def _anchored(self, x: int) -> tuple[int, int, int]:
        c = self.cols
        low = (x & -x).bit_length() - 1
        x >>= (low // c) * c
        columns, y = 0, x
        while y:
            columns |= y & self.row_bits
            y >>= c
        c0 = (columns & -columns).bit_length() - 1
        x >>= c0
        return x, (x.bit_length() - 1) // c + 1, columns.bit_length() - c0

    def _turned(self, x: int, h: int, w: int) -> int:
        return _reversed(x) >> (64 - h * self.cols + self.cols - w)

    def _mirrored(self, x: int, h: int, w: int) -> int:
        y, c = 0, self.cols
        for r in range(h):
            y |= (_reversed((x >> (r * c)) & self.row_bits) >> (64 - w)) << (r * c)
        return y

    def _least_image(self, x: int, h: int, w: int) -> int:
        y = self._mirrored(x, h, w)
        return min(x, y, self._turned(x, h, w), self._turned(y, h, w))

    def _canonical(self, x: int) -> int:
        x, h, w = self._anchored(x)
        best = self._least_image(x, h, w)
        if w <= self.rows and h <= self.cols:
            t, m = 0, x
            while m:
                low = m & -m
                t |= 1 << self.transposed[low.bit_length() - 1]
                m ^= low
            best = min(best, self._least_image(t, w, h))
        return best

    def _add(self, out: list, piece: int) -> None:
        n = piece.bit_count()
        if self.rule == "node" and n == 1:
            out[0] ^= 1
            return
        _, h, w = self._anchored(piece)
        if h == 1 or w == 1:
            out[0] ^= self.line[n]
        else:
            out[1].append((self._canonical(piece), n))

    def _split_cram(self, x: int, out: list) -> None:
        x = self._reduced(x)
        cut = self._cut_blocks(x)
        steps = self._right(x) & ~(cut | (cut << self.cols))
        rest = x
        while rest:
            seed = rest & -rest
            piece = self._grown(rest, seed, steps)
            rest &= ~piece
            if piece.bit_count() < 2:
                continue
            if cut and piece != self._grown(x, seed, self._right(x)):
                self._split_cram(piece, out)
            else:
                self._add(out, piece)

    def _split(self, x: int) -> tuple[int, list[tuple[int, int]]]:
        out: list = [0, []]
        x &= self.all
        if self.rule == "cram":
            self._split_cram(x, out)
        else:
            while x:
                piece = self._grown(x, x & -x, self._right(x))
                x &= ~piece
                self._add(out, piece)
        return out[0], out[1]

    def _moves(self, x: int) -> list[int]:
        if not x:
            return []
        c = self.cols
        _, h, w = self._anchored(x)
        r0 = ((x & -x).bit_length() - 1) // c
        c0, y = 64, x
        while y:
            low = y & -y
            c0 = min(c0, (low.bit_length() - 1) % c)
            y ^= low
        rows, cols = _middle_out(h), _middle_out(w)
        moves = []
        if self.rule == "node":
            for i in rows:
                for j in range(w):
                    bit = 1 << ((r0 + i) * c + c0 + j)
                    if x & bit:
                        moves.append(x & ~(bit | self._around(bit)))
            return moves
        v, hz = x & self._below(x), x & self._right(x)
        for j in cols:
            for i in range(h):
                bit = 1 << ((r0 + i) * c + c0 + j)
                if v & bit:
                    moves.append(x & ~(bit | (bit << c)))
        for i in rows:
            for j in range(w):
                bit = 1 << ((r0 + i) * c + c0 + j)
                if hz & bit:
                    moves.append(x & ~(bit | (bit << 1)))
        return moves

    # -- the game the search plays (kayles/kernels/pure/_search.py)
    def expand(self, key: tuple):
        for move in self._moves(key[0]):
            nim, parts = self._split(move)
            yield nim, [((k,), n) for k, n in parts]

    def bound(self, key: tuple) -> int:
        x = key[0]
        if self.rule == "node":
            return x.bit_count()
        return (x & self._below(x)).bit_count() + (x & self._right(x)).bit_count()

    # -- the API
    def split(self, free) -> tuple[int, list[int]]:
        """(the XOR of the heaps, the components' keys) of position ``free``: its value is
        the heaps' XOR with the components' values (a component may come twice)."""
        nim, parts = self._split(checks.check_cells(free, self.cells))
        return nim, [k for k, _ in parts]

    def canonical(self, cells) -> int:
        """The key of the set of cells ``cells`` (not empty): the least of its images
        moved to the corner."""
        cells = checks.check_cells(cells, self.cells)
        if not cells:
            raise ValueError("the cells must not be empty")
        return self._canonical(cells)

    def moves(self, free) -> list[int]:
        """The positions the moves of ``free`` lead to, in the search's order."""
        return self._moves(checks.check_cells(free, self.cells))

    def nimber(self, free, winning: bool = False) -> int:
        """The value of position ``free``; ``winning``: known not to be 0 (where it is a
        single component), so the search starts at 1."""
        nim, parts = self._split(checks.check_cells(free, self.cells))
        keys = [k for k, _ in parts]
        live = uncancelled(keys)
        with self.lock:
            for k in live:
                nim ^= solve(self, self.table, (k,), bool(winning) and len(live) == 1 and
                             nim == 0, self.counts)
        return nim

    def has_value(self, free, value) -> bool:
        """Whether the value of position ``free`` is ``value``: the exact values of its
        components but the largest, then "is it the rest?" asked of that one (a P-position
        is known without its options' values)."""
        value = checks.check_value(value)
        nim, parts = self._split(checks.check_cells(free, self.cells))
        live = sorted(uncancelled([k for k, _ in parts]), key=int.bit_count)
        if value >= checks.VALUE_BOUND:
            return False
        with self.lock:
            return sum_has_value(self, self.table, [(k,) for k in live], nim, value,
                                 self.counts)

    def stats(self) -> dict[str, int]:
        """entries, bytes, cap, evictions, unstored (the table's); expanded, lookups (the
        positions the searches visited and looked up)."""
        return {**self.table.stats(), **self.counts}
