# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled Chomp on Young diagrams: ext/src/chomp.c's game searched by
ext/src/search.c.

kayles/kernels/pure/_chomp.py is the twin (same names, results and errors); chomp.c's
header says what the keys are (packed row lengths, the least of a diagram and its
transpose) and proves the L-shapes' closed form.  A Chomp holds its table across calls;
a call holds its lock, releases the GIL for the search and looks at Ctrl-C and
kayles.kernels.limits.interrupt every few milliseconds of work (ext/_boards.pyx says how).
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.pythread cimport (
    PyThread_allocate_lock,
    PyThread_free_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)

from _common cimport hold
from _pruned cimport (
    KB_CHOMP_SQUARES,
    KB_MAX_WIDTH,
    KB_NO_MEMORY,
    KB_OK,
    kb_chomp,
    kb_chomp_bound,
    kb_chomp_expand,
    kb_chomp_init,
    kb_chomp_key,
    kb_chomp_moves,
    kb_memo,
    kb_memo_count,
    kb_memo_free,
    kb_memo_init,
    kb_has_value,
    kb_nimber,
    kb_search,
    kb_search_free,
    kb_search_init,
    kb_word,
    look,
    require_cpu,
)

from kayles.kernels import board_checks as checks

require_cpu()

__all__ = ["CONSTANTS", "Chomp"]

CONSTANTS = {"CHOMP_SQUARES": KB_CHOMP_SQUARES}


cdef class Chomp:
    """Chomp on the Young diagrams within a frame of ``rows`` rows and ``cols`` columns,
    and the table (at most ``memory`` bytes) of their values."""

    cdef kb_chomp chomp
    cdef kb_memo memo
    cdef kb_search search
    cdef PyThread_type_lock lock
    cdef list stops
    cdef readonly int rows, cols

    def __cinit__(self, rows, cols, memory):
        self.rows, self.cols = checks.check_frame(rows, cols)
        memory = checks.check_memory(memory)
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError()
        self.stops = []
        kb_chomp_init(&self.chomp, self.rows, self.cols)
        kb_memo_init(&self.memo, memory)
        kb_search_init(&self.search, &self.chomp, kb_chomp_expand, kb_chomp_bound, &self.memo,
                       look, <void*> self.stops)

    def __dealloc__(self):
        kb_search_free(&self.search)
        kb_memo_free(&self.memo)
        if self.lock != NULL:
            PyThread_free_lock(self.lock)

    cdef tuple load(self, lengths, int* rows):
        cdef int i
        found = checks.check_rows(lengths, (self.rows, self.cols))
        for i in range(len(found)):
            rows[i] = found[i]
        return found

    def key(self, lengths):
        """The key of the diagram of these row lengths (the least of it and its transpose
        where both fit the frame)."""
        cdef int rows[KB_CHOMP_SQUARES]
        cdef kb_word key[KB_MAX_WIDTH]
        cdef int i
        found = self.load(lengths, rows)
        kb_chomp_key(&self.chomp, rows, len(found), key)
        return tuple([key[i] for i in range(self.chomp.words)])

    def moves(self, lengths):
        """The diagrams the bites of ``lengths`` leave, in the search's order."""
        cdef int rows[KB_CHOMP_SQUARES]
        cdef int room, n, at = 0
        cdef int* out
        found = self.load(lengths, rows)
        room = (sum(found) + 1) * (len(found) + 1)
        out = <int*> PyMem_Malloc(room * sizeof(int))
        if out == NULL:
            raise MemoryError()
        try:
            n = kb_chomp_moves(&self.chomp, rows, len(found), out, room)
            moves = []
            while at < n:
                moves.append(tuple([out[at + 1 + i] for i in range(out[at])]))
                at += 1 + out[at]
            return moves
        finally:
            PyMem_Free(out)

    def nimber(self, lengths):
        """The value of the diagram of these row lengths."""
        return self.searched(lengths, -1)

    def has_value(self, lengths, value):
        """Whether the value of the diagram of these row lengths is ``value`` (its options'
        values found only as far as that needs)."""
        return self.searched(lengths, checks.check_value(value)) == 1

    cdef int searched(self, lengths, target) except -1:
        """The value of the diagram (target < 0); else 1 where it is ``target``, 0 where
        not."""
        cdef int rows[KB_CHOMP_SQUARES]
        cdef kb_word key[KB_MAX_WIDTH]
        cdef int value = 0, rc = KB_OK, yes = 0, asked
        found = self.load(lengths, rows)
        if len(found) == 1 or found[1] <= 1:  # an L-shape (ext/src/chomp.c)
            value = (len(found) - 1) ^ (found[0] - 1)
            return value if target < 0 else value == target
        if target >= checks.VALUE_BOUND:
            return 0
        asked = target
        kb_chomp_key(&self.chomp, rows, len(found), key)
        hold(self.lock)
        try:
            with nogil:
                if asked < 0:
                    rc = kb_nimber(&self.search, key, self.chomp.words, 0, &value)
                else:
                    rc = kb_has_value(&self.search, key, self.chomp.words, asked, &yes)
        finally:
            PyThread_release_lock(self.lock)
        if rc == KB_NO_MEMORY:
            raise MemoryError()
        if rc != KB_OK:
            raise self.stops.pop()
        return value if asked < 0 else yes

    def stats(self):
        """entries, bytes, cap, evictions, unstored (the table's); expanded, lookups (the
        positions the searches visited and looked up)."""
        return {"entries": kb_memo_count(&self.memo), "bytes": self.memo.used,
                "cap": self.memo.cap, "evictions": self.memo.evictions,
                "unstored": self.memo.unstored, "expanded": self.search.expanded,
                "lookups": self.search.lookups}
