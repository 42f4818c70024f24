# cython: language_level=3
"""The pruned search of sums and its games (ext/src/search.h, ext/src/games.h), declared once.

ext/_search.pyx (the table), ext/_boards.pyx, ext/_graphs.pyx and ext/_chomp.pyx cimport
these; the C says what each does.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t


cdef extern from "search.h" nogil:
    ctypedef uint64_t kb_word
    enum:
        KB_OK
        KB_STOPPED
        KB_NO_MEMORY
        KB_NOT_IN_SET
        KB_VALUE_BITS
        KB_STORED_MAX
        KB_EXCLUDED
        KB_EXCLUDE_VALUES
        KB_CLUSTER
        KB_MAX_WIDTH
        KB_FIRST_CLUSTERS
        KB_LOOK_WORK

    ctypedef struct kb_memo:
        size_t cap
        size_t used
        uint64_t evictions
        uint64_t unstored

    ctypedef struct kb_search:
        uint64_t expanded
        uint64_t lookups

    ctypedef int (*kb_expand_fn)(void* game, kb_search* search, const kb_word* key,
                                 int len) noexcept nogil
    ctypedef int (*kb_bound_fn)(void* game, const kb_word* key, int len) noexcept nogil
    ctypedef int (*kb_look_fn)(void* arg) noexcept nogil

    void kb_memo_init(kb_memo* memo, size_t cap) noexcept
    void kb_memo_free(kb_memo* memo) noexcept
    int kb_memo_get(const kb_memo* memo, const kb_word* key, int len) noexcept
    void kb_memo_put(kb_memo* memo, const kb_word* key, int len, int value) noexcept
    int kb_memo_excluded(const kb_memo* memo, const kb_word* key, int len) noexcept
    void kb_memo_exclude(kb_memo* memo, const kb_word* key, int len, int values) noexcept
    size_t kb_memo_count(const kb_memo* memo) noexcept
    kb_word kb_mix(kb_word x, int bits) noexcept
    kb_word kb_unmix(kb_word x, int bits) noexcept

    void kb_search_init(kb_search* search, void* game, kb_expand_fn expand, kb_bound_fn bound,
                        kb_memo* memo, kb_look_fn look, void* look_arg) noexcept
    void kb_search_free(kb_search* search) noexcept
    int kb_nimber(kb_search* search, const kb_word* key, int len, int winning,
                  int* value) noexcept
    int kb_has_value(kb_search* search, const kb_word* key, int len, int value,
                     int* yes) noexcept
    int kb_cpu_ok() noexcept


cdef extern from "games.h" nogil:
    enum:
        KB_ARC
        KB_NODE
        KB_BOARD_CELLS
        KB_GRAPH_VERTICES
        KB_GRAPH_WORDS
        KB_CANON_VERTICES
        KB_CHOMP_SQUARES
        KB_MAX_PARTS

    ctypedef struct kb_chomp:
        int rows, cols, bits, words

    void kb_chomp_init(kb_chomp* chomp, int rows, int cols) noexcept
    void kb_chomp_key(const kb_chomp* chomp, const int* lengths, int nrows, kb_word* key) noexcept
    int kb_chomp_moves(const kb_chomp* chomp, const int* lengths, int nrows, int* out,
                       int room) noexcept
    int kb_chomp_expand(void* chomp, kb_search* search, const kb_word* key, int len) noexcept
    int kb_chomp_bound(void* chomp, const kb_word* key, int len) noexcept

    ctypedef struct kb_board:
        int rows, cols, rule

    ctypedef struct kb_split:
        int nim
        int count
        kb_word keys[KB_MAX_PARTS]
        int sizes[KB_MAX_PARTS]

    ctypedef struct kb_set:
        kb_word w[KB_GRAPH_WORDS]

    ctypedef struct kb_graph:
        int n, rule, leaves
        uint64_t fallbacks

    void kb_graph_init(kb_graph* graph, int n, int rule, int leaves) noexcept
    void kb_graph_edge(kb_graph* graph, int u, int v) noexcept
    int kb_graph_split(kb_graph* graph, const kb_set* alive, kb_word* keys, int room, int* lens,
                       int* sizes, int max, int* nim) noexcept
    int kb_graph_key(kb_graph* graph, const kb_set* component, kb_word* key) noexcept
    int kb_graph_moves(const kb_graph* graph, const kb_set* alive, kb_set* moves,
                       int max) noexcept
    int kb_graph_expand(void* graph, kb_search* search, const kb_word* key, int len) noexcept
    int kb_graph_bound(void* graph, const kb_word* key, int len) noexcept

    void kb_board_init(kb_board* board, int rows, int cols, int rule) noexcept
    void kb_board_split(const kb_board* board, kb_word free, kb_split* out) noexcept
    kb_word kb_board_canonical(const kb_board* board, kb_word component) noexcept
    int kb_board_expand(void* board, kb_search* search, const kb_word* key, int len) noexcept
    int kb_board_bound(void* board, const kb_word* key, int len) noexcept
    int kb_board_moves(const kb_board* board, kb_word free, kb_word* moves, int max) noexcept


cdef inline int look(void* stops) noexcept nogil:
    """The search's look hook: Ctrl-C and kayles.kernels.limits.interrupt, the GIL taken for
    them alone; what either raises is appended to the list ``stops`` and stops the search
    (1), to be raised by the caller once the search has unwound."""
    with gil:
        try:
            PyErr_CheckSignals()
            from kayles.kernels.limits import interrupt
            interrupt()
        except BaseException as exc:
            (<list> stops).append(exc)
            return 1
    return 0


cdef inline int require_cpu() except -1:
    """ImportError unless this CPU runs the search as compiled (POPCNT on x86-64): the
    chooser then leaves the pure twins in charge."""
    if not kb_cpu_ok():
        raise ImportError("the compiled board search needs a CPU with POPCNT")
    return 0
