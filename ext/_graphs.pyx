# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled Node Kayles and Arc Kayles on graphs of at most 256 vertices:
ext/src/graphs.c's game searched by ext/src/search.c.

kayles/kernels/pure/_graphs.py is the twin (same names, results and errors); graphs.c's
header says what the keys are (canonical labellings), which reductions and heaps it finds
and why.  A Graph holds its table across calls; a call holds its lock, releases the GIL
for the search and looks at Ctrl-C and kayles.kernels.limits.interrupt every few
milliseconds of work (ext/_boards.pyx says how).
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
    KB_ARC,
    KB_CANON_VERTICES,
    KB_GRAPH_VERTICES,
    KB_GRAPH_WORDS,
    KB_MAX_PARTS,
    KB_MAX_WIDTH,
    KB_NO_MEMORY,
    KB_NODE,
    KB_OK,
    kb_graph,
    kb_graph_bound,
    kb_graph_edge,
    kb_graph_expand,
    kb_graph_init,
    kb_graph_key,
    kb_graph_moves,
    kb_graph_split,
    kb_memo,
    kb_memo_count,
    kb_memo_free,
    kb_memo_init,
    kb_has_value,
    kb_nimber,
    kb_search,
    kb_search_free,
    kb_search_init,
    kb_set,
    kb_word,
    look,
    require_cpu,
)

from kayles.kernels import board_checks as checks
from kayles.kernels.parts import uncancelled
from kayles.kernels import constants as _constants

require_cpu()

__all__ = ["CONSTANTS", "RULES", "Graph"]

CONSTANTS = {"GRAPH_VERTICES": KB_GRAPH_VERTICES, "CANON_VERTICES": KB_CANON_VERTICES}
RULES = ("node", "arc")

cdef enum:
    ROOM = KB_MAX_PARTS * KB_MAX_WIDTH   # words of the parts of one position


cdef int to_set(object cells, kb_set* out) except -1:
    cdef int i
    for i in range(KB_GRAPH_WORDS):
        out.w[i] = (cells >> (64 * i)) & 0xFFFFFFFFFFFFFFFF
    return 0


cdef object from_set(const kb_set* s):
    cdef int i
    value = 0
    for i in range(KB_GRAPH_WORDS):
        value |= <object> s.w[i] << (64 * i)
    return value


cdef class Graph:
    """Node Kayles ('node') or Arc Kayles ('arc') on the subgraphs of one graph (each
    vertex's neighbours as an int, bit u for vertex u), and the table (at most ``memory``
    bytes) of their components' values; a canonical labelling tries at most ``leaves``
    labellings."""

    cdef kb_graph* graph
    cdef kb_memo memo
    cdef kb_search search
    cdef PyThread_type_lock lock
    cdef list stops
    cdef readonly int n
    cdef readonly str rule

    def __cinit__(self, adjacency, rule, memory, leaves=_constants.GRAPH_LEAVES):
        cdef int v
        rows = checks.check_graph(adjacency)
        self.rule = checks.check_rule(rule, RULES)
        memory = checks.check_memory(memory)
        leaves = checks.check_leaves(leaves)
        self.n = len(rows)
        self.lock = PyThread_allocate_lock()
        self.graph = <kb_graph*> PyMem_Malloc(sizeof(kb_graph))
        if self.lock == NULL or self.graph == NULL:
            raise MemoryError()
        self.stops = []
        kb_graph_init(self.graph, self.n, KB_NODE if self.rule == "node" else KB_ARC, leaves)
        for v in range(self.n):
            row = rows[v] >> (v + 1)
            u = v + 1
            while row:
                if row & 1:
                    kb_graph_edge(self.graph, v, u)
                row >>= 1
                u += 1
        kb_memo_init(&self.memo, memory)
        kb_search_init(&self.search, self.graph, kb_graph_expand, kb_graph_bound, &self.memo,
                       look, <void*> self.stops)

    def __dealloc__(self):
        kb_search_free(&self.search)
        kb_memo_free(&self.memo)
        PyMem_Free(self.graph)
        if self.lock != NULL:
            PyThread_free_lock(self.lock)

    cdef int load(self, cells, kb_set* out) except -1:
        to_set(checks.check_cells(cells, self.n), out)
        return 0

    cdef tuple parts(self, kb_set* alive):
        cdef kb_word* keys = <kb_word*> PyMem_Malloc(ROOM * sizeof(kb_word))
        cdef int lens[KB_MAX_PARTS]
        cdef int sizes[KB_MAX_PARTS]
        cdef int nim = 0, count, i, k, at = 0
        if keys == NULL:
            raise MemoryError()
        try:
            count = kb_graph_split(self.graph, alive, keys, ROOM, lens, sizes, KB_MAX_PARTS, &nim)
            found = []
            for i in range(count):
                found.append(tuple([keys[at + k] for k in range(lens[i])]))
                at += lens[i]
        finally:
            PyMem_Free(keys)
        return nim, found

    def split(self, alive):
        """(the XOR of the heaps, the components' keys) of the position ``alive`` (a set of
        vertices, an int): its value is the heaps' XOR with the components' values."""
        cdef kb_set s
        self.load(alive, &s)
        return self.parts(&s)

    def key(self, component):
        """The key of a connected, non-empty set of vertices (canonical up to 64)."""
        cdef kb_set s
        cdef kb_word key[KB_MAX_WIDTH]
        cdef int n, i
        self.load(component, &s)
        if component == 0:
            raise ValueError("the cells must not be empty")
        n = kb_graph_key(self.graph, &s, key)
        return tuple([key[i] for i in range(n)])

    def moves(self, alive):
        """The positions the moves of ``alive`` lead to, in the search's order."""
        cdef kb_set s
        cdef kb_set* out
        cdef int n, i, room = KB_GRAPH_VERTICES * KB_GRAPH_VERTICES // 2
        self.load(alive, &s)
        out = <kb_set*> PyMem_Malloc(room * sizeof(kb_set))
        if out == NULL:
            raise MemoryError()
        try:
            n = kb_graph_moves(self.graph, &s, out, room)
            return [from_set(&out[i]) for i in range(n)]
        finally:
            PyMem_Free(out)

    def nimber(self, alive):
        """The value of the position ``alive`` (a set of vertices, an int)."""
        cdef kb_set s
        self.load(alive, &s)
        nim, keys = self.parts(&s)
        return self.searched(uncancelled(keys), nim, -1)

    def has_value(self, alive, value):
        """Whether the value of the position ``alive`` is ``value``: the exact values of its
        components but the last of the longest key, then "is it the rest?" asked of it."""
        cdef kb_set s
        value = checks.check_value(value)
        self.load(alive, &s)
        nim, keys = self.parts(&s)
        return (value < checks.VALUE_BOUND
                and self.searched(sorted(uncancelled(keys), key=len), nim, value) == 1)

    cdef int searched(self, list live, int nim, int target) except -1:
        """nim XOR the values of the components ``live`` (target < 0); else 1 where that is
        ``target`` and 0 where not, the last component asked rather than valued."""
        cdef kb_word words[KB_MAX_WIDTH]
        cdef int value = 0, rc = KB_OK, yes = 0, n, i, j
        cdef int valued = len(live) if target < 0 or not live else len(live) - 1
        hold(self.lock)
        try:
            for j in range(len(live)):
                key = live[j]
                n = len(key)
                for i in range(n):
                    words[i] = key[i]
                if j < valued:
                    with nogil:
                        rc = kb_nimber(&self.search, words, n, 0, &value)
                    if rc != KB_OK:
                        break
                    nim ^= value
                else:
                    with nogil:
                        rc = kb_has_value(&self.search, words, n, target ^ nim, &yes)
            if rc == KB_OK and target >= 0 and valued == len(live):
                yes = nim == target
        finally:
            PyThread_release_lock(self.lock)
        if rc == KB_NO_MEMORY:
            raise MemoryError()
        if rc != KB_OK:
            raise self.stops.pop()
        return nim if target < 0 else yes

    def stats(self):
        """entries, bytes, cap, evictions, unstored (the table's); expanded, lookups (the
        positions the searches visited and looked up); fallbacks (labellings cut short)."""
        return {"entries": kb_memo_count(&self.memo), "bytes": self.memo.used,
                "cap": self.memo.cap, "evictions": self.memo.evictions,
                "unstored": self.memo.unstored, "expanded": self.search.expanded,
                "lookups": self.search.lookups, "fallbacks": self.graph.fallbacks}
