# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled take-and-break kernel: nim-values of any code (moves that leave any number
of heaps, marks, repeating tails).

kayles/kernels/pure/_takebreak.py is the twin (same names, arguments, results and errors)
and its header says which options a kind gives a heap.  Here every set of values is a
bit set, a row of ``width`` 64-bit words a heap t (ext/src/takebreak.c):

    pairs      X(t)   = {G(a) ^ G(t - a)}, the splits of t into two parts
    unequal           ... into two unequal parts (where a kind marks '!' or '?')
    triples    X3(t)  = union over a <= t/3 of G(a) ^ X(t - a): three parts
    partitions P(t)   = every split of t into one part or more, and
    two_plus   Q2(t)  = union over a <= t/2 of G(a) ^ P(t - a): two parts or more,
    three_plus Q3(t)  = union over a <= t/3 of G(a) ^ Q2(t - a): three or more
                        (for kinds with ``more``: any number of parts from some count)
    ones, pair_runs, unequal_runs, triple_runs: a repeating tail's running unions over
                        a residue class, R(t) = S(t) | R(t - q)

A row is made once, when heap t's values below t are known (P(t) once G(t) is), so a
heap's value is an OR of rows a kind, then its least unmarked value; only what the rows
do not hold is searched per candidate value (four parts or more, '!' on three parts or
more, and the value of an all-same split under '?').  The unions cost one OR a word a
part (kayles_xor_union), a vector of 8 words (AVX-512) or 4 (AVX2) at a time, two rows
an OR (each moved whole: with AVX2, or AVX-512 with VBMI and GFNI), and three parts are
made for UNION_AHEAD (64) heaps at once, each row read once for all of them
(kayles_xor_union_ahead: past 2**14 values the rows outgrow the caches).  Those rows
hold only the values below the largest so far and a margin that follows how fast they
rise (cuts; a mex past a cut makes its rows whole and looks again), and a row's blocks
that are full take no further first part (open: the blocks not yet full, looked at
every so many rows; full on the union of the rows each reader reads where the rows
serve the mex alone: Scratch.readers): O(t * width) a heap still, with a constant that
makes the median two-digit code to 2**15 17.5 times faster than ce1a0af's kernel on
AVX-512 and 14.7 times with AVX2 (docs/benchmarks.md).  ``width`` doubles (every row
copied) when a value reaches 64 * width.

A call holds the Scratch's lock (one call at a time) and releases the GIL for its whole
run of heaps: other threads (a server's other requests) go on beside it.  Every PULSE_WORK
words of work (a search step counts STEP_WORK; some 1-5 ms whatever the code, 63-part
moves included) it takes the GIL back for a look at Ctrl-C and at the interrupt hook of
kayles.kernels.limits (a server's time cap and stop), either of which ends the call by
raising; the scratch then starts afresh on the next call.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport (
    PyThread_allocate_lock,
    PyThread_free_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memcpy, memset

from _common cimport MAX_KEPT, MAX_KINDS, VALUE_LIMIT, hold, nimber_t, word_t
from _kernels cimport (
    UNION_AHEAD,
    UNION_CLASSES,
    lowest_bit,
    pair_row,
    vectors_named,
    vectors_t,
    xor_permute,
    xor_union,
    xor_union_ahead,
    xor_union_ahead_fold,
    xor_union_ahead_open,
)

from kayles.kernels import checks as _args
from kayles.kernels import limits as _limits
from kayles.kernels._core import VECTORS, default_vector

__all__ = ["CONSTANTS", "VECTORS", "Scratch", "extend"]

cdef enum:
    NO_MARK = 0              # the marks (kayles.kernels.constants: NO_MARK, ...)
    ALL_DIFFERENT = 1
    NOT_ALL_SAME = 2
    ALL_SAME = 3
    MAX_COUNTS = 64       # counts 0 to 63
    MIN_ROOM = 64         # a row set's first room, in heaps (it doubles from there)
    PULSE_WORK = 1 << 22  # words ORed (a search step counts STEP_WORK) between looks at
                          # Ctrl-C and the interrupt hook: some 1-5 ms of work
    STEP_WORK = 4
    CUT_MARGIN = 1024     # three-part rows made ahead: values at most this far past the
                          # largest, and at least LEAST_MARGIN + 4 * the recent rise
    LEAST_MARGIN = 64
    PAIRS = 0             # the row sets (Scratch.sets)
    UNEQUAL = 1
    TRIPLES = 2
    PARTITIONS = 3
    TWO_PLUS = 4
    THREE_PLUS = 5
    ONES = 6
    PAIR_RUNS = 7
    UNEQUAL_RUNS = 8
    TRIPLE_RUNS = 9
    SETS = 10

# What this module was built with, for tests/kernels/test_constants.py to compare with
# kayles/kernels/constants.py (their one home in Python).
CONSTANTS = {"VALUE_LIMIT": VALUE_LIMIT, "NO_MARK": NO_MARK, "ALL_DIFFERENT": ALL_DIFFERENT,
             "NOT_ALL_SAME": NOT_ALL_SAME, "ALL_SAME": ALL_SAME, "MIN_ROOM": MIN_ROOM,
             "MAX_KEPT": MAX_KEPT, "MAX_KINDS": MAX_KINDS, "AHEAD": UNION_AHEAD,
             "ACCUMULATORS": UNION_CLASSES}


cdef struct TKind:        # one kind as rules.encode_takebreak gives it
    Py_ssize_t span
    int nkept
    Py_ssize_t kept[MAX_KEPT]
    int ncounts
    int count[MAX_COUNTS]
    int mark[MAX_COUNTS]
    bint more


cdef struct Search:       # values of j parts (j or more with more) of t tokens, with a mark
    Py_ssize_t t
    int j
    int mark
    bint more


cdef struct Rows:         # a bit set per t: rows of width words
    word_t* bits
    Py_ssize_t room       # rows allocated
    bint used             # the game needs them


cdef inline bint has(const word_t* bits, Py_ssize_t v) noexcept nogil:
    return (bits[v >> 6] >> (v & 63)) & 1


cdef inline void put_bit(word_t* bits, Py_ssize_t v) noexcept nogil:
    bits[v >> 6] |= (<word_t> 1) << (v & 63)


cdef inline void or_row(word_t* out, const word_t* bits, Py_ssize_t width) noexcept nogil:
    cdef Py_ssize_t w
    for w in range(width):
        out[w] |= bits[w]


cdef inline void or_shifted(word_t* out, const word_t* bits, int c, Py_ssize_t width) noexcept nogil:
    """out |= {v ^ c : v in bits} (c below 64 * width)."""
    cdef Py_ssize_t w, high = c >> 6
    cdef int low = c & 63
    if c == 0:
        or_row(out, bits, width)
        return
    for w in range(width):
        if bits[w]:
            out[w ^ high] |= xor_permute(bits[w], low)


cdef inline int all_same(const nimber_t* g, Py_ssize_t t, int j) noexcept nogil:
    """The value of t split into j equal parts (j divides t)."""
    return g[t // j] if j % 2 else 0


cdef inline uint64_t fold(uint64_t h, nimber_t v) noexcept nogil:
    return (h ^ v) * 1099511628211ULL   # FNV-1a's prime, a value at a time


cdef class Scratch:
    """Working memory for extend, kept between calls: a call that goes on where the last
    one ended (start = the heap it reached, the same rules, the same values below start,
    in any buffer) keeps the rows it built.  One call at a time uses a scratch (a call
    from another thread waits for the one under way to end).  ``vector`` names the
    instructions of the unions' step, one of VECTORS (default: _core.default_vector()).
    ``made_whole`` counts the cut three-part rows a mex made whole again; ``_margin``
    (None: LEAST_MARGIN and four times how far the last runs' values rose past the
    largest before them, at most CUT_MARGIN) fixes how far past the largest value a cut
    row reaches, in the tests of that second look (tests/kernels/test_takebreak_cuts.py).
    ``blocks_closed`` counts the blocks of rows made ahead closed when full; ``_every``
    (0: the kernel's own) is how many rows go between looks for them, other only in the
    tests of closing."""

    cdef PyThread_type_lock lock
    cdef const vectors_t* vec     # the instructions of the unions' step (kayles_xor_union)
    cdef object rules             # the checked rules of the last call
    cdef Py_ssize_t next          # the heap it reached (-1: none)
    cdef uint64_t fingerprint     # a hash of G(0..next-1)
    cdef TKind kinds[MAX_KINDS]
    cdef int nkinds, nfinite, q
    cdef Py_ssize_t width, length # words a row; rows made (heaps 0..length-1)
    cdef Rows rows[SETS]
    cdef word_t* marked           # the values the heap at hand reaches so far
    cdef word_t* accumulators     # UNION_AHEAD * UNION_CLASSES rows: the unions'
    cdef Py_ssize_t ahead_end     # TRIPLES rows below this hold the part made ahead
    cdef word_t open[UNION_AHEAD] # the blocks of the rows made ahead not yet full
    cdef Py_ssize_t* cuts         # TRIPLES row t holds its values below 64 * cuts[t] words
    cdef bint cutting             # rows made ahead stop past the largest value (no tail)
    cdef Py_ssize_t top           # the largest value so far
    cdef Py_ssize_t least_cut     # the least cut of a row the mex at hand reads
    cdef Py_ssize_t margin        # values past the largest that a cut row holds (-1: as
                                  # the values rise)
    cdef Py_ssize_t rise          # how far a run's values went past the largest before it
    cdef Py_ssize_t run_top       # the largest value when the run made ahead began
    cdef readonly Py_ssize_t made_whole   # cut rows made whole again (complete)
    cdef readonly Py_ssize_t blocks_closed   # blocks of rows made ahead closed when full
    cdef Py_ssize_t every         # rows between looks for full blocks (0: the kernel's)
    cdef int spans[MAX_KINDS]     # heap n reads the three-part rows n - spans[i] alone for
    cdef int nspans               # its mex (a block closes where its readers' unions are
                                  # full), or the one span 0 (where its row is full)
    cdef Search* searches
    cdef Py_ssize_t nsearches, search_room
    cdef long long work           # since the last pulse (PULSE_WORK)

    def __cinit__(self, vector=None, _margin=None, Py_ssize_t _every=0):
        # _margin: None (as the values rise), or fixed for the tests of what a mex past a
        # cut does;
        # _every: the kernel's own, or 1 for the tests of closing full blocks
        if vector is not None and vector not in VECTORS:
            raise ValueError(f"vector must be one of {', '.join(VECTORS)}, not {vector!r}")
        if _margin is not None and _margin < 0:
            raise ValueError(f"_margin must be at least 0, not {_margin}")
        if _every < 0:
            raise ValueError(f"_every must be at least 0, not {_every}")
        self.margin = -1 if _margin is None else _margin
        self.every = _every
        self.vec = vectors_named((vector or default_vector()).encode())
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError()
        self.next = -1

    @property
    def vector(self):
        """The instruction set of the unions' step (one of VECTORS)."""
        return self.vec.name.decode()

    def __dealloc__(self):
        if self.lock != NULL:
            PyThread_free_lock(self.lock)
        self.release()

    cdef void release(self) noexcept nogil:
        cdef int i
        for i in range(SETS):
            free(self.rows[i].bits)
            self.rows[i].bits = NULL
            self.rows[i].room = 0
        free(self.marked)
        free(self.accumulators)
        free(self.searches)
        free(self.cuts)
        self.cuts = NULL
        self.marked = self.accumulators = NULL
        self.searches = NULL
        self.nsearches = self.search_room = 0

    cdef int start(self, rules) except -1:
        """Forget everything and take these rules."""
        cdef int k, h, count, mark
        cdef bint triples = False, unequal = False, plus = False
        cdef bint tail_triples = False
        self.release()
        kinds, tail = rules
        self.nkinds = len(kinds)
        self.q = tail
        self.nfinite = self.nkinds - tail
        memset(self.kinds, 0, sizeof(self.kinds))
        for k, (span, kept, counts, more) in enumerate(kinds):
            self.kinds[k].span = span
            self.kinds[k].nkept = len(kept)
            for h in range(len(kept)):
                self.kinds[k].kept[h] = kept[h]
            self.kinds[k].ncounts = len(counts)
            for h, (count, mark) in enumerate(counts):
                self.kinds[k].count[h] = count
                self.kinds[k].mark[h] = mark
                unequal |= count == 2 and mark in (ALL_DIFFERENT, NOT_ALL_SAME)
                triples |= count >= 3 and mark in (NO_MARK, NOT_ALL_SAME)
                tail_triples |= k >= self.nfinite and count == 3 and mark == NO_MARK
            self.kinds[k].more = more
            if more:
                count, mark = counts[len(counts) - 1]
                plus |= mark in (NO_MARK, NOT_ALL_SAME)
                unequal |= count <= 1 and mark in (ALL_DIFFERENT, NOT_ALL_SAME)
        self.rows[PAIRS].used = True
        self.rows[UNEQUAL].used = unequal
        self.rows[TRIPLES].used = triples
        self.rows[PARTITIONS].used = self.rows[TWO_PLUS].used = plus
        self.rows[THREE_PLUS].used = plus
        self.rows[ONES].used = self.rows[PAIR_RUNS].used = tail > 0
        self.rows[UNEQUAL_RUNS].used = tail > 0 and unequal
        self.rows[TRIPLE_RUNS].used = tail_triples
        self.cutting = triples and tail == 0
        self.readers()
        self.width = 1
        self.length = self.ahead_end = self.top = self.run_top = 0
        self.rise = CUT_MARGIN
        self.marked = <word_t*> calloc(1, sizeof(word_t))
        self.accumulators = <word_t*> calloc(UNION_AHEAD * UNION_CLASSES, sizeof(word_t))
        if self.marked == NULL or self.accumulators == NULL:
            raise MemoryError()
        self.rules = rules
        self.next = 0
        self.fingerprint = 0
        return 0

    cdef void readers(self) noexcept:
        """spans: where three-part rows serve the mex alone (no tail, no kept heaps under
        three parts, no 'or more', no search: every count at most three, three parts
        unmarked or all the same), the spans of the kinds with three parts; else 0, so
        that a block closes only where its own row is full and the rows stay whole, as
        the searches and '?' read them."""
        cdef int k, h, i
        cdef bint alone = self.cutting
        self.nspans = 0
        for k in range(self.nkinds):
            alone &= not self.kinds[k].more
            for h in range(self.kinds[k].ncounts):
                if self.kinds[k].count[h] > 3 or (self.kinds[k].count[h] == 3 and (
                        self.kinds[k].mark[h] not in (NO_MARK, ALL_SAME)
                        or (self.kinds[k].mark[h] == NO_MARK and self.kinds[k].nkept > 0))):
                    alone = False
                elif self.kinds[k].count[h] == 3 and self.kinds[k].mark[h] == NO_MARK:
                    for i in range(self.nspans + 1):
                        if i == self.nspans:
                            self.spans[self.nspans] = <int>self.kinds[k].span
                            self.nspans += 1
                        elif self.spans[i] == self.kinds[k].span:
                            break
        if not alone or self.nspans == 0:
            self.spans[0] = 0
            self.nspans = 1

    cdef inline word_t* row(self, int set, Py_ssize_t t) noexcept nogil:
        return self.rows[set].bits + t * self.width

    cdef int reserve(self, Py_ssize_t count) except -1 nogil:
        """Room for rows 0..count-1 in every set in use."""
        cdef int i
        cdef Py_ssize_t room
        cdef word_t* grown
        cdef Py_ssize_t* cuts
        for i in range(SETS):
            if self.rows[i].used and self.rows[i].room < count:
                room = max(count, 2 * self.rows[i].room, MIN_ROOM)
                grown = <word_t*> realloc(self.rows[i].bits,
                                          room * self.width * sizeof(word_t))
                if grown == NULL:
                    with gil:
                        raise MemoryError()
                self.rows[i].bits = grown
                if i == TRIPLES:
                    cuts = <Py_ssize_t*> realloc(self.cuts, room * sizeof(Py_ssize_t))
                    if cuts == NULL:
                        with gil:
                            raise MemoryError()
                    self.cuts = cuts
                self.rows[i].room = room
        return 0

    cdef int widen(self) except -1 nogil:
        """Rows of twice as many words, every row kept."""
        cdef Py_ssize_t t, old = self.width, width = 2 * self.width
        cdef word_t* grown
        cdef int i
        for i in range(SETS):
            if not self.rows[i].used or self.rows[i].bits == NULL:
                continue
            grown = <word_t*> calloc(self.rows[i].room * width, sizeof(word_t))
            if grown == NULL:
                with gil:
                    raise MemoryError()
            for t in range(max(self.length, self.ahead_end)):
                memcpy(grown + t * width, self.rows[i].bits + t * old, old * sizeof(word_t))
                if i == TRIPLES and self.cuts[t] == old:   # every value is below 64 * old
                    self.cuts[t] = width
            free(self.rows[i].bits)
            self.rows[i].bits = grown
        free(self.marked)
        free(self.accumulators)
        self.marked = <word_t*> calloc(width, sizeof(word_t))
        self.accumulators = <word_t*> calloc(UNION_AHEAD * UNION_CLASSES * width,
                                             sizeof(word_t))
        if self.marked == NULL or self.accumulators == NULL:
            with gil:
                raise MemoryError()
        self.width = width
        return 0

    cdef void union_of(self, int into, int source, const nimber_t* g, Py_ssize_t t,
                       Py_ssize_t high) noexcept nogil:
        """Row t of set ``into`` |= the union over 1 <= a <= high of G(a) ^ row t - a of
        ``source``."""
        if high >= 1:
            self.work += high * self.width
            xor_union(self.row(into, t), self.rows[source].bits, self.width, self.width, g, t,
                      1, high, self.accumulators, self.vec)

    cdef int triples(self, const nimber_t* g, Py_ssize_t t) except -1 nogil:
        """Row t of TRIPLES: made ahead for UNION_AHEAD heaps from t at once where a run of
        them starts (the first parts whose rows are there, each row read once for all of
        them: kayles_xor_union_ahead), then the first parts below k of heap t + k once their
        rows are (kayles_xor_union).  Where cutting, a run's rows hold their values below
        the largest so far and a margin more alone (cuts: LEAST_MARGIN and four times how
        far the last runs' values rose, at most CUT_MARGIN): a mex that reaches past that
        makes them whole (complete).  The pass goes in pieces of about PULSE_WORK words, a
        pulse after each (near 2**17 values a whole pass is some 0.2 s)."""
        cdef Py_ssize_t k, high, low, piece, margin, limit = self.width
        if t >= self.ahead_end:
            if self.cutting and self.width >= 8:
                self.rise = max(self.top - self.run_top, self.rise - self.rise // 4)
                self.run_top = self.top
                margin = self.margin
                if margin < 0:
                    margin = min(CUT_MARGIN, LEAST_MARGIN + 4 * self.rise)
                limit = min(self.width, ((self.top + margin) // 512 + 1) * 8)
            memset(self.row(TRIPLES, t), 0, UNION_AHEAD * self.width * sizeof(word_t))
            piece = max(2, PULSE_WORK // (UNION_AHEAD * limit)) & ~1   # rows two by two
            xor_union_ahead_open(self.open, limit)
            high = t
            while high >= t - t // 3:
                low = max(t - t // 3, high - piece + 1)
                self.blocks_closed += xor_union_ahead(
                    self.row(TRIPLES, t), self.rows[PAIRS].bits, self.width, limit, g, t,
                    high, low, self.accumulators, self.open, self.every, self.spans,
                    self.nspans, self.vec)
                self.work += (high - low + 1) * UNION_AHEAD * limit
                if self.work >= PULSE_WORK:
                    self.pulse()
                high = low - 1
            xor_union_ahead_fold(self.row(TRIPLES, t), self.width, limit, self.accumulators,
                                 self.open, self.vec)
            for k in range(UNION_AHEAD):
                self.cuts[t + k] = limit
            self.ahead_end = t + UNION_AHEAD
        k = min(t - (self.ahead_end - UNION_AHEAD) - 1, t // 3)
        if k >= 1:
            xor_union(self.row(TRIPLES, t), self.rows[PAIRS].bits, self.width, self.cuts[t],
                      g, t, 1, k, self.accumulators, self.vec)
        return 0

    cdef void complete(self, const nimber_t* g, Py_ssize_t t) noexcept nogil:
        """Row t of TRIPLES whole: made again, every word, where a run made it cut."""
        if self.cuts[t] >= self.width:
            return
        self.made_whole += 1
        memset(self.row(TRIPLES, t), 0, self.width * sizeof(word_t))
        if t >= 3:
            self.work += (t // 3) * self.width
            xor_union(self.row(TRIPLES, t), self.rows[PAIRS].bits, self.width, self.width, g,
                      t, 1, t // 3, self.accumulators, self.vec)
        self.cuts[t] = self.width

    cdef void running(self, int runs, int of, Py_ssize_t t) noexcept nogil:
        """runs[t] = of[t] | runs[t - q]."""
        cdef word_t* out = self.row(runs, t)
        memcpy(out, self.row(of, t), self.width * sizeof(word_t))
        if t >= self.q:
            or_row(out, self.row(runs, t - self.q), self.width)

    cdef int prepare(self, const nimber_t* g, Py_ssize_t t) except -1 nogil:
        """The rows of t that need G(0..t-1) only (a kind of span 0 leaves t = n tokens, so
        heap n reads them before its own value is known)."""
        cdef int i
        self.reserve(t + UNION_AHEAD)
        for i in range(SETS):
            if self.rows[i].used and i != TRIPLES:
                memset(self.row(i, t), 0, self.width * sizeof(word_t))
        self.work += t + 2 * self.width
        pair_row(self.row(PAIRS, t), g, t, 0)
        if self.rows[UNEQUAL].used:
            pair_row(self.row(UNEQUAL, t), g, t, 1)
        if self.rows[TRIPLES].used:
            self.triples(g, t)
        if self.rows[TWO_PLUS].used:
            self.union_of(TWO_PLUS, PARTITIONS, g, t, t // 2)
        if self.rows[THREE_PLUS].used:
            self.union_of(THREE_PLUS, TWO_PLUS, g, t, t // 3)
        if self.q:
            self.running(PAIR_RUNS, PAIRS, t)
            if self.rows[UNEQUAL_RUNS].used:
                self.running(UNEQUAL_RUNS, UNEQUAL, t)
            if self.rows[TRIPLE_RUNS].used:
                self.running(TRIPLE_RUNS, TRIPLES, t)
        self.length = t + 1
        return 0

    cdef int add(self, const nimber_t* g, Py_ssize_t t) except -1 nogil:
        """The rows of t that hold G(t) (its value is in the table now)."""
        self.top = max(self.top, g[t])
        if self.rows[PARTITIONS].used:
            memcpy(self.row(PARTITIONS, t), self.row(TWO_PLUS, t), self.width * sizeof(word_t))
            if t:
                put_bit(self.row(PARTITIONS, t), g[t])
        if self.q:
            if t:
                put_bit(self.row(ONES, t), g[t])
            if t >= self.q:
                or_row(self.row(ONES, t), self.row(ONES, t - self.q), self.width)
        return 0

    # -- searches (what the rows do not hold) ------------------------------------------------

    cdef inline int step(self) except -1 nogil:
        self.work += STEP_WORK
        if self.work >= PULSE_WORK:
            self.pulse()
        return 0

    cdef int pulse(self) except -1 nogil:
        """Look at Ctrl-C and at the interrupt hook (a server's time cap), which raise to
        end the call; the GIL is taken for that alone."""
        self.work = 0
        with gil:
            PyErr_CheckSignals()
            _limits.interrupt()
        return 0

    cdef int parts(self, const nimber_t* g, Py_ssize_t v, Py_ssize_t t, int j) except -1 nogil:
        """Whether j parts of t, any sizes, have the value v (1 or 0)."""
        cdef Py_ssize_t a
        if v >= 64 * self.width or j > t:
            return 0
        if j == 2:
            return has(self.row(PAIRS, t), v)
        if j == 3 and self.rows[TRIPLES].used:
            self.complete(g, t)
            return has(self.row(TRIPLES, t), v)
        for a in range(1, t // j + 1):
            self.step()
            if self.parts(g, v ^ g[a], t - a, j - 1):
                return 1
        return 0

    cdef int at_least(self, const nimber_t* g, Py_ssize_t v, Py_ssize_t t, int j) except -1 nogil:
        """Whether j parts or more of t, any sizes, have the value v."""
        cdef Py_ssize_t a
        if v >= 64 * self.width:
            return 0
        if j <= 1:
            return (t == 0 and v == 0 and j == 0) or (t >= 1 and has(self.row(PARTITIONS, t), v))
        if j == 2:
            return has(self.row(TWO_PLUS, t), v)
        if j == 3 and self.rows[THREE_PLUS].used:
            return has(self.row(THREE_PLUS, t), v)
        for a in range(1, t // j + 1):
            self.step()
            if self.at_least(g, v ^ g[a], t - a, j - 1):
                return 1
        return 0

    cdef int increasing(self, const nimber_t* g, Py_ssize_t v, Py_ssize_t t, int j,
                        Py_ssize_t low) except -1 nogil:
        """Whether j parts of t, all different, each at least low, have the value v."""
        cdef Py_ssize_t a
        if j == 1:
            return t >= low and g[t] == v
        a = low
        while a * j + j * (j - 1) // 2 <= t:
            self.step()
            if self.increasing(g, v ^ g[a], t - a, j - 1, a + 1):
                return 1
            a += 1
        return 0

    cdef int different(self, const nimber_t* g, Py_ssize_t v, Py_ssize_t t, int j,
                       bint more) except -1 nogil:
        """Whether j parts of t (j or more with more), all different, have the value v."""
        cdef int count = j
        while count * (count + 1) // 2 <= t:
            if self.increasing(g, v, t, count, 1):
                return 1
            if not more:
                break
            count += 1
        return 0

    cdef int unequal_pair(self, const nimber_t* g, Py_ssize_t v, Py_ssize_t t, int j,
                          bint more) except -1 nogil:
        """Whether j parts of t (j or more with more), not all the same size, have the
        value v: two parts x < y, and the rest any j - 2 parts (or more)."""
        cdef Py_ssize_t x, y, w, rest
        for x in range(1, t):
            for y in range(x + 1, t - x + 1):
                self.step()
                w = v ^ g[x] ^ g[y]
                rest = t - x - y
                if more:
                    if self.at_least(g, w, rest, max(j - 2, 0)):
                        return 1
                elif j == 2:
                    if rest == 0 and w == 0:
                        return 1
                elif j == 3:
                    if rest >= 1 and g[rest] == w:
                        return 1
                elif self.parts(g, w, rest, j - 2):
                    return 1
        return 0

    cdef int found(self, const nimber_t* g, Py_ssize_t v, Search* s) except -1 nogil:
        """Whether a search reaches v (see the twin's State.found)."""
        cdef int k
        if s.mark == ALL_DIFFERENT:
            return self.different(g, v, s.t, s.j, s.more)
        if s.mark == NOT_ALL_SAME:
            for k in range(s.j, (s.t if s.more else s.j) + 1):
                if s.t % k == 0 and v == all_same(g, s.t, k):
                    return self.unequal_pair(g, v, s.t, s.j, s.more)
        if s.more:
            return self.at_least(g, v, s.t, s.j)
        return self.parts(g, v, s.t, s.j)

    # -- one heap ------------------------------------------------------------------------------

    cdef int search_for(self, Py_ssize_t t, int j, int mark, bint more) except -1 nogil:
        cdef Search* grown
        if self.nsearches == self.search_room:
            self.search_room = max(16, 2 * self.search_room)
            grown = <Search*> realloc(self.searches, self.search_room * sizeof(Search))
            if grown == NULL:
                with gil:
                    raise MemoryError()
            self.searches = grown
        self.searches[self.nsearches].t = t
        self.searches[self.nsearches].j = j
        self.searches[self.nsearches].mark = mark
        self.searches[self.nsearches].more = more
        self.nsearches += 1
        return 0

    cdef int mark_unequal(self, const nimber_t* g, int set, Py_ssize_t t, int c, int j,
                          bint more) except -1 nogil:
        """Mark a row's values of j parts of t (or more) under '?' (not all the same size):
        the row holds the all-same splits' values too, so each such value it newly marks is
        kept only where a split that is not all the same reaches it."""
        cdef int k, eq
        cdef word_t* marked = self.marked
        cdef bint before[MAX_COUNTS]
        cdef int top = t if more else j
        for k in range(j, min(top, MAX_COUNTS - 1) + 1):
            before[k] = t % k == 0 and has(marked, all_same(g, t, k) ^ c)
        if set == TRIPLES:
            self.complete(g, t)
        or_shifted(marked, self.row(set, t), c, self.width)
        for k in range(j, min(top, MAX_COUNTS - 1) + 1):
            if t % k == 0 and not before[k]:
                eq = all_same(g, t, k)
                if has(marked, eq ^ c) and not self.unequal_pair(g, eq, t, j, more):
                    marked[(eq ^ c) >> 6] &= ~((<word_t> 1) << ((eq ^ c) & 63))
        for k in range(MAX_COUNTS, top + 1):   # counts past 63 (more): no row flags them
            if t % k == 0:
                eq = all_same(g, t, k)
                if has(marked, eq ^ c) and not self.unequal_pair(g, eq, t, j, more):
                    self.search_for(t, j, NOT_ALL_SAME, more)
                    return 0
        return 0

    cdef int mark_count(self, const nimber_t* g, Py_ssize_t t, int c, int j,
                        int mark) except -1 nogil:
        """Mark the values of exactly j parts of t (XOR c), or list their search."""
        if j > t:
            return 0
        if j == 0:
            if t == 0:
                put_bit(self.marked, c)
        elif j == 1:
            put_bit(self.marked, g[t] ^ c)
        elif mark == ALL_SAME:
            if t % j == 0:
                put_bit(self.marked, all_same(g, t, j) ^ c)
        elif j == 2:
            or_shifted(self.marked, self.row(PAIRS if mark == NO_MARK else UNEQUAL, t), c,
                       self.width)
        elif j == 3 and mark == NO_MARK:
            if c:   # a cut row moved by c: its whole values below no bound
                self.complete(g, t)
            self.least_cut = min(self.least_cut, self.cuts[t])
            or_shifted(self.marked, self.row(TRIPLES, t), c, self.width)
        elif j == 3 and mark == NOT_ALL_SAME:
            self.mark_unequal(g, TRIPLES, t, c, 3, False)
        else:
            self.search_for(t, j, mark, False)
        return 0

    cdef int mark_more(self, const nimber_t* g, Py_ssize_t t, int c, int j,
                       int mark) except -1 nogil:
        """Mark the values of j parts of t or more (XOR c), or list their search."""
        cdef int k
        if mark == ALL_SAME:
            for k in range(j, t + 1):
                if t % k == 0:
                    put_bit(self.marked, all_same(g, t, k) ^ c)
            return 0
        if mark != NO_MARK:  # the counts below three one by one, then three or more
            for k in range(j, min(3, t + 1)):
                self.mark_count(g, t, c, k, mark)
            if t < 3:
                return 0
            j = max(j, 3)
        if j >= 4:
            self.search_for(t, j, mark, True)
        elif mark == ALL_DIFFERENT:
            self.search_for(t, j, mark, True)
        elif mark == NOT_ALL_SAME:
            self.mark_unequal(g, THREE_PLUS, t, c, 3, True)
        elif j <= 1:
            if j == 0 and t == 0:
                put_bit(self.marked, c)
            if t >= 1:
                or_shifted(self.marked, self.row(PARTITIONS, t), c, self.width)
        else:
            or_shifted(self.marked, self.row(TWO_PLUS if j == 2 else THREE_PLUS, t), c,
                       self.width)
        return 0

    cdef int mark_kind(self, const nimber_t* g, Py_ssize_t n, Py_ssize_t span,
                       TKind* kind) except -1 nogil:
        """Mark what a kind of this span gives heap n, and list its searches."""
        cdef Py_ssize_t t = n - span
        cdef int c = 0, h, top
        if t < 0 or kind.ncounts == 0:
            return 0
        for h in range(kind.nkept):
            c ^= g[kind.kept[h]]
        for h in range(kind.ncounts):
            self.mark_count(g, t, c, kind.count[h], kind.mark[h])
        top = kind.count[kind.ncounts - 1]
        if kind.more and top < t:
            self.mark_more(g, t, c, top + 1, kind.mark[kind.ncounts - 1])
        return 0

    cdef int mark_tail(self, const nimber_t* g, Py_ssize_t n) except -1 nogil:
        """Mark what the tail's kinds give heap n, a class of spans at a time (span by span
        where a kind needs more than the running unions)."""
        cdef Py_ssize_t i, top_t, k
        cdef TKind* kind
        cdef bint simple
        cdef int h, j, mark
        for i in range(self.nfinite, self.nkinds):
            kind = &self.kinds[i]
            top_t = n - kind.span
            if top_t < 0 or kind.ncounts == 0:
                continue
            simple = not kind.more
            for h in range(kind.ncounts):
                j = kind.count[h]
                mark = kind.mark[h]
                if j > 3 or mark == ALL_SAME or (j == 3 and mark != NO_MARK):
                    simple = False
            if not simple:
                k = kind.span
                while k <= n:
                    self.mark_kind(g, n, k, kind)
                    k += self.q
                continue
            for h in range(kind.ncounts):
                j = kind.count[h]
                mark = kind.mark[h]
                if j == 0:
                    if top_t % self.q == 0:
                        put_bit(self.marked, 0)
                elif j == 1 and top_t >= 1:
                    or_row(self.marked, self.row(ONES, top_t), self.width)
                elif j == 2 and top_t >= 2:
                    or_row(self.marked, self.row(PAIR_RUNS if mark == NO_MARK else UNEQUAL_RUNS,
                                                 top_t), self.width)
                elif j == 3 and top_t >= 3:
                    or_row(self.marked, self.row(TRIPLE_RUNS, top_t), self.width)
        return 0

    cdef Py_ssize_t value(self, const nimber_t* g, Py_ssize_t n) except -1 nogil:
        """G(n), from G(0..n-1) and the rows: the mex of what they mark, where it lies below
        every cut three-part row's cut (those rows hold every value there); else the mex
        again, those rows whole."""
        cdef Py_ssize_t v, k
        self.least_cut = self.width
        v = self.mex(g, n)
        if v < 64 * self.least_cut or not self.cutting:
            return v
        for k in range(self.nfinite):
            if n >= self.kinds[k].span:
                self.complete(g, n - self.kinds[k].span)
        return self.mex(g, n)

    cdef Py_ssize_t mex(self, const nimber_t* g, Py_ssize_t n) except -1 nogil:
        """The least value that the rows and searches do not reach for heap n."""
        cdef Py_ssize_t w, v, k
        cdef word_t free_bits
        memset(self.marked, 0, self.width * sizeof(word_t))
        self.nsearches = 0
        for k in range(self.nfinite):
            self.mark_kind(g, n, self.kinds[k].span, &self.kinds[k])
        if self.q:
            self.mark_tail(g, n)
        self.work += self.nkinds * self.width
        for w in range(self.width):
            free_bits = ~self.marked[w]
            while free_bits:
                v = w * 64 + lowest_bit(free_bits)
                for k in range(self.nsearches):
                    if self.found(g, v, &self.searches[k]):
                        break
                else:
                    return v
                free_bits &= free_bits - 1
        return 64 * self.width

    # -- a run -----------------------------------------------------------------------------------

    cdef int rebuild(self, const nimber_t* g, Py_ssize_t start) except -1 nogil:
        """The rows of heaps 0..start-1 from their values (a call that does not go on)."""
        cdef Py_ssize_t t
        for t in range(start):
            self.prepare(g, t)
            while g[t] >= 64 * self.width:
                self.widen()
            self.add(g, t)
            self.fingerprint = fold(self.fingerprint, g[t])
            if self.work >= PULSE_WORK:
                self.pulse()
        return 0

    cdef int run(self, nimber_t* g, Py_ssize_t start, Py_ssize_t stop) except -1 nogil:
        """G(start..stop-1), heap by heap, a pulse every PULSE_WORK words at most."""
        cdef Py_ssize_t n, v
        for n in range(start, stop):
            self.prepare(g, n)
            v = self.value(g, n)
            if v >= VALUE_LIMIT:
                with gil:
                    raise OverflowError(f"G({n}) = {v} does not fit the 16-bit table")
            g[n] = <nimber_t> v
            while v >= 64 * self.width:
                self.widen()
            self.add(g, n)
            self.fingerprint = fold(self.fingerprint, g[n])
            if self.work >= PULSE_WORK:
                self.pulse()
        return 0


def extend(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, rules, scratch=None):
    """Fill table[start:stop] with the nim-values of the game ``rules``
    (``rules.encode_takebreak``); the values below start must be the game's."""
    rules = _args.for_takebreak(rules)
    if scratch is None:
        scratch = Scratch()
    elif not isinstance(scratch, Scratch):
        raise TypeError(f"scratch must be a Scratch, not {type(scratch).__name__}")
    if not 0 <= start <= stop <= table.shape[0]:
        raise ValueError(f"range {start}:{stop} does not fit a table of {table.shape[0]}")
    cdef Scratch own = scratch
    if start == stop:
        return
    hold(own.lock)
    try:
        fill(own, &table[0], start, stop, rules)
    finally:
        PyThread_release_lock(own.lock)


cdef int fill(Scratch st, nimber_t* g, Py_ssize_t start, Py_ssize_t stop, rules) except -1:
    cdef Py_ssize_t t
    cdef uint64_t h = 0
    cdef bint goes_on = st.next == start and st.rules == rules
    if goes_on:
        for t in range(start):
            h = fold(h, g[t])
        goes_on = h == st.fingerprint
    if not goes_on:
        st.start(rules)
    st.next = -1
    with nogil:
        if not goes_on:
            st.rebuild(g, start)
        st.run(g, start, stop)
    st.next = stop
    return 0
