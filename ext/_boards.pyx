# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled Cram and Node Kayles on boards of at most 64 cells: ext/src/boards.c's game
searched by ext/src/search.c.

kayles/kernels/pure/_boards.py is the twin (same names, results and errors); boards.c's
header says what the keys are and proves the reductions, search.c's how the values are
found.  A Board holds its table across calls.  A call holds the board's lock (one call at a
time) and releases the GIL for its search; every KB_LOOK_WORK parts (a few milliseconds)
it takes the GIL back to look at Ctrl-C and at kayles.kernels.limits.interrupt, either of
which ends the call by raising (the table keeps what it learnt).
"""

from cpython.pythread cimport (
    PyThread_allocate_lock,
    PyThread_free_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)

from _common cimport hold
from _pruned cimport (
    KB_ARC,
    KB_BOARD_CELLS,
    KB_NO_MEMORY,
    KB_NODE,
    KB_OK,
    kb_board,
    kb_board_bound,
    kb_board_canonical,
    kb_board_expand,
    kb_board_init,
    kb_board_moves,
    kb_board_split,
    kb_memo,
    kb_memo_count,
    kb_memo_free,
    kb_memo_init,
    kb_has_value,
    kb_nimber,
    kb_search,
    kb_search_free,
    kb_search_init,
    kb_split,
    kb_word,
    look,
    require_cpu,
)

from kayles.kernels import board_checks as checks
from kayles.kernels.parts import uncancelled

require_cpu()

__all__ = ["CONSTANTS", "RULES", "Board"]

CONSTANTS = {"BOARD_CELLS": KB_BOARD_CELLS}
RULES = ("cram", "node")


cdef class Board:
    """The boards of ``rows`` x ``cols`` cells under one rule ('cram' or 'node'), and the
    table (at most ``memory`` bytes) of their components' values."""

    cdef kb_board board
    cdef kb_memo memo
    cdef kb_search search
    cdef PyThread_type_lock lock
    cdef list stops
    cdef readonly int rows, cols
    cdef readonly str rule

    def __cinit__(self, rows, cols, rule, memory):
        self.rows, self.cols = checks.check_board(rows, cols)
        self.rule = checks.check_rule(rule, RULES)
        memory = checks.check_memory(memory)
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError()
        self.stops = []
        kb_board_init(&self.board, self.rows, self.cols, KB_ARC if self.rule == "cram" else KB_NODE)
        kb_memo_init(&self.memo, memory)
        kb_search_init(&self.search, &self.board, kb_board_expand, kb_board_bound, &self.memo,
                       look, <void*> self.stops)

    def __dealloc__(self):
        kb_search_free(&self.search)
        kb_memo_free(&self.memo)
        if self.lock != NULL:
            PyThread_free_lock(self.lock)

    cdef kb_word cells(self, free) except? 0:
        return checks.check_cells(free, self.rows * self.cols)

    def split(self, free):
        """(the XOR of the heaps, the components' keys) of position ``free``: its value is
        the heaps' XOR with the components' values (a component may come twice)."""
        cdef kb_split out
        cdef kb_word x = self.cells(free)
        kb_board_split(&self.board, x, &out)
        return out.nim, [out.keys[i] for i in range(out.count)]

    def canonical(self, cells):
        """The key of the set of cells ``cells`` (not empty): the least of its images
        moved to the corner."""
        cdef kb_word x = self.cells(cells)
        if x == 0:
            raise ValueError("the cells must not be empty")
        return kb_board_canonical(&self.board, x)

    def moves(self, free):
        """The positions the moves of ``free`` lead to, in the search's order."""
        cdef kb_word out[2 * KB_BOARD_CELLS]
        cdef kb_word x = self.cells(free)
        cdef int n = 0
        if x:
            n = kb_board_moves(&self.board, x, out, 2 * KB_BOARD_CELLS)
        return [out[i] for i in range(n)]

    def nimber(self, free, winning=False):
        """The value of position ``free``; ``winning``: known not to be 0 (where it is a
        single component), so the search starts at 1."""
        cdef kb_split out
        kb_board_split(&self.board, self.cells(free), &out)
        live = uncancelled([out.keys[i] for i in range(out.count)])
        return self.searched(live, out.nim, 1 if winning and len(live) == 1 and out.nim == 0
                             else 0, -1)

    def has_value(self, free, value):
        """Whether the value of position ``free`` is ``value``: the exact values of its
        components but the largest, then "is it the rest?" asked of that one (a P-position
        is known without its options' values)."""
        cdef kb_split out
        value = checks.check_value(value)
        kb_board_split(&self.board, self.cells(free), &out)
        live = sorted(uncancelled([out.keys[i] for i in range(out.count)]),
                      key=int.bit_count)
        return value < checks.VALUE_BOUND and self.searched(live, out.nim, 0, value) == 1

    cdef int searched(self, list live, int nim, int start, int target) except -1:
        """nim XOR the values of the components ``live`` (target < 0; the search from
        ``start``); else 1 where that is ``target`` and 0 where not, the last component
        asked rather than valued."""
        cdef kb_word key
        cdef int value = 0, rc = KB_OK, yes = 0, i
        cdef int valued = len(live) if target < 0 or not live else len(live) - 1
        hold(self.lock)
        try:
            for i in range(valued):
                key = live[i]
                with nogil:
                    rc = kb_nimber(&self.search, &key, 1, start, &value)
                if rc != KB_OK:
                    break
                nim ^= value
            if rc == KB_OK and target >= 0:
                if valued == len(live):
                    yes = nim == target
                else:
                    key = live[valued]
                    with nogil:
                        rc = kb_has_value(&self.search, &key, 1, target ^ nim, &yes)
        finally:
            PyThread_release_lock(self.lock)
        if rc == KB_NO_MEMORY:
            raise MemoryError()
        if rc != KB_OK:
            raise self.stops.pop()
        return nim if target < 0 else yes

    def stats(self):
        """entries, bytes, cap, evictions, unstored (the table's); expanded, lookups (the
        positions the searches visited and looked up)."""
        return {"entries": kb_memo_count(&self.memo), "bytes": self.memo.used,
                "cap": self.memo.cap, "evictions": self.memo.evictions,
                "unstored": self.memo.unstored, "expanded": self.search.expanded,
                "lookups": self.search.lookups}
