# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled kernels of nim-sequences: Grundy tables, masks, periods, and row moves.

kayles/engine/_core_pure.py is the twin: same names, arguments, results and errors.
Tables are writable buffers of unsigned 16-bit nimbers; kinds are the tuples of
rules.encode: (span, kept, leave_mask, unequal).  The vector loops are C
(ext/src/, declared in ext/_kernels.pxd); the shared types, limits and move
kinds are in ext/_common.pxd.

How the sparse-space method works (Berlekamp; Flammenkamp).  Fix a mask M and
call a value common when popcount(v & M) is odd, rare when it is even.  A
common XOR common or rare XOR rare is rare, so a common option value needs a
rare part.  When rare positions are few, G(n) is found by: (1) marking every
option with a rare part (one pass over the rare positions), which marks every
common option; (2) taking the least unmarked common value as the candidate;
(3) confirming each unmarked rare value below it by scanning the remaining
pairs, resuming where the last scan stopped, until it shows up.  The first
rare value that never shows up is G(n); otherwise the candidate is.  Option
constants (kept 'o' heaps) must be even under M so they do not change a
value's class; masks are chosen among those.  The result is exact whatever the
mask: the mask only decides the speed.

How the mask is chosen (choose_mask; the same integers in both twins).  For
the value histogram h over [0, w), w a power of two, the Walsh-Hadamard
transform H[M] = sum_v h[v] (-1)^popcount(v & M) gives every mask's rare count
at once, rare(M) = (total + H[M]) / 2, in w log2 w steps whatever the width.
The transform of the indicator of the values that occur counts the distinct
rare values D(M) the same way.  Per heap, step (1) costs about rare(M) pairs;
step (3) scans every pair when G(n) is rare (about rare/total of the heaps:
rare/2 pairs on average) and about D log2 D pairs to confirm the rare values
below the candidate.  Doubled to stay an integer, the estimate is
cost(M) = 3 rare(M) + 2 D(M) bit_length(D(M)); the plain scan costs about
total/2 pairs a heap, i.e. total in the same units.  The allowed mask of least
cost wins (ties: the smaller mask) and is used when SAVING * cost < total.

How step (1) is cut (rare_pairs, checked_gives).  The rare pass costs a byte
store a pair, about one a cycle whatever the instructions.  With AVX-512 or AVX2
and CHECK_MIN rare positions, a group of remainders flags only its older rare
parts; for the newest 1/CHECKED it takes each remainder's first CANDIDATES
common values the flags leave unset and checks those parts against them with
vector compares (a load and a compare for 32 lanes, two on AVX2, where flagging
costs four stores).
Step (2) reads a candidate's answer from the check; a value past a full list
(on .04 about one remainder in a hundred; games of several splits more often)
gets the checked parts flagged after all; where that befalls over 1/MISS_SHARE
of the remainders, checking stops till the mask is next chosen (choose_split,
at each doubling of the table).  Rare values that only a checked pair gives
stay unflagged and are found by step (3) like any other.  Step (2) itself
tests 64 values a step (marks and every split's flags at once) and looks only
at the unmarked ones.

How step (3) ends (sweep).  Marking costs a store a pair, so once the search
has swept FAR pairs and few values are left, it looks for all of them at once
to the end instead: by comparisons (an instruction per value and vector of
pairs: 32 a vector with AVX-512, 16 with AVX2, 8 with SSE2), or with AVX-512
and values below 2048 by testing each vector of 32 pairs against the whole set
of values left (two table lookups, whatever their number).  The instructions
are chosen at run time (VECTORS; Scratch(vector=...)), so one build runs on any
x86-64; every path gives the same values (tests/test_kernels.py).

How several threads share one sequence (run_crew; Scratch(threads=...)).  A
two-part move of span t leaves parts of at most n - t - 1, so heaps n..n+d-1
need none of each other's pairs, d the least such t + 1 (the independence:
3 for .161, 4 for .014, 1 for Grundy's game).  Past PARALLEL_FROM, between
two mask choices, a crew of threads (no more than the cores) takes blocks of
CREW_BLOCK heaps in turn.  A heap is solved once the values below it less
d + SLACK are in the table, from the options whose parts are all there: those
left out (one-part options, and pairs whose smaller part is below first_part)
are checked when the heap is settled, in order, by whichever thread finds it
next in line (settle_solved), and where one has the value found the heap is
solved again (.161: 2% of its heaps; .014: 0.3%; Grundy's game: 0.9%).  So
a thread runs up to SLACK heaps ahead of a slow one instead of waiting for
it, and a crew may have more threads than d (Grundy's game: d = 1).  The
rare pass's groups are shared, each filled under a spin lock and read
without it once ready, and cover only the rare parts whose pairs are in
the table for any heap that needs them; each heap marks the rare parts at
both ends itself (mark_ends).  Their bulk, the rare parts from early_from
on, is flagged AHEAD heaps before need by the group's own worker
(fill_ahead), so it falls to the threads evenly.  A kind that
forbids equal parts drops the rare pass's 0 where only the equal split gave
it, judged from the pairs in the table (zero_from_equal_only); the others
are among those checked at settling.  Every crew gives the one thread's
values (tests/test_threads.py).
"""

from libc.stdlib cimport calloc, free
from libc.string cimport memcmp, memcpy, memset

from _common cimport (
    MAX_KINDS,
    MAX_SPAN,
    PIN,
    VALUE_LIMIT,
    Kind,
    allows,
    constant,
    grow,
    load_kinds,
    nimber_t,
    pos_t,
    reserve,
    stamp_t,
    word_t,
)
from _kernels cimport *

from kayles.engine import limits as _limits

if _limits.THREADS.high != MAX_THREADS:  # one limit, stated for C (kernels.h) and Python (_constants)
    raise ImportError(f"kernels.h allows {MAX_THREADS} threads, kayles/engine/_constants.py "
                      f"{_limits.THREADS.high}: rebuild")

cdef enum:
    STAMPS = 131072       # option values v ^ c < 2**16 and the mex <= 2**16
    SAVING = 1            # split when its estimated cost is under 1/SAVING of the plain scan's
    BATCH = 64            # remainders per batch on the one-hot path (kayles_gather_or's 64)
    FAR = 1024            # the search looks at what is left once it has swept this far
    # ... and compares (sweep) once vectors_t.few values are left (8, 16 with AVX2, 32 with
    # AVX-512: the pairs of a vector), or with AVX-512's set path,
    SET_WIDTH = 2048      # with AVX-512 and values below this, the set path takes any number
    SET_FEW = 32          # ... once this few are left
    SET_FAR = 4096        # ... or once the search has swept this far (tuned on .04, Grundy)
    CHECKED = 3           # with AVX-512 the newest 1/CHECKED of a group's rare a are checked,
    CHECK_MIN = 256       # ... not flagged, once there are this many rare a in all
    CANDIDATES = 8        # ... against this many candidates a remainder (32 lanes / GROUP)
    TRIAL_LANES = 1024    # ... and stops till the next choose_split once, after this many
    MISS_SHARE = 4        # ... remainders, over 1/MISS_SHARE of them needed the flags after all
    ONE_HOT_MIN = 1024    # rare positions from which the one-hot path beats the flags (below:
                          # 2x slower at 20-60 on .074, .167; 1.5x faster at 4000 on Kayles-xox)
    OUT_OF_REACH = -2     # mex_sparse: the heap needs a pair with a part from st.reach on
    RARE_PAST_PREFIX = -3 # run_sparse, frozen: the heap is rare and at or past st.prefix
    AHEAD = 16 * GROUP    # several threads: rare parts from AHEAD + the crew on are flagged
                          # groups ahead of need (fill_ahead)
    PARALLEL_FROM = 4096  # ... from this heap on (below, the mask changes often),
    CREW_RARE = 256       # ... with this many rare heaps (fewer: a heap is too quick to share;
                          # .167's 60: 1.1x on 2 threads, and at times 0.5x)
    SLACK = 16            # ... solving a heap while the last SLACK of the values it needs
                          # are not in the table yet (first_part),
    CREW_BLOCK = 8        # ... and taking blocks of this many heaps
    MAX_INDEPENDENCE = MAX_SPAN + 1
    RING = 128            # solved heaps waiting to be settled: > MAX_INDEPENDENCE + SLACK
    MAX_GROUPS = (MAX_SPAN + AHEAD + MAX_INDEPENDENCE + SLACK + 2 * MAX_THREADS) // GROUP + 3
    CACHE_LINE = 64       # bytes kept between fields that different threads write


cdef Py_ssize_t POSITION_LIMIT = 0xFFFFFFFF  # rare positions are unsigned 32-bit integers


# The instruction sets the sparse method's vector steps can use on this CPU, fastest first.
VECTORS = tuple(name for name in ("avx512bw", "avx2", PORTABLE.decode())
                if vectors_named(name.encode()) != NULL)


cdef struct Split:        # a kind that may leave two parts, at the heap being solved
    Py_ssize_t r
    int c
    bint unequal
    Py_ssize_t last       # the largest smaller part searched (last_part, or less within reach)


cdef struct PairGroup:    # the G(a) ^ G(r - a) over rare a in the middle (see rare_pairs),
    int lock              # ... for r in [r0, r0 + GROUP); held while a thread fills it
    Py_ssize_t r0         # -1: empty
    int ready             # filled (else only fill_early's share; int: stored atomically)
    Py_ssize_t late_lo, late_hi   # rare[late_lo:late_hi]: left by fill_early to fill_late
    int width             # the flags are valid below width
    signed char drop_zero[GROUP]  # unequal splits of r0 + j: 0 only from the equal one (-1: unknown)
    Py_ssize_t drop_zero_first[GROUP]  # ... among the pairs whose parts are this or more
    unsigned char* flags  # flags[j * FLAG_STRIDE + v] = 1: some rare a gives v for r0 + j
    Py_ssize_t checked_lo, checked_hi  # rare[checked_lo:checked_hi]: checked, not flagged
    int checking[GROUP]   # r0 + j still relies on its candidates for those a
    int ncandidates[GROUP]
    int checked_width[GROUP]      # candidates are below this; so is every checked pair
    nimber_t candidates[CANDIDATES * GROUP]  # lane k * GROUP + j: candidate k of r0 + j
    unsigned int unhit    # bit k * GROUP + j: no checked pair gives that candidate
    char apart[CACHE_LINE]   # threads that write neighbours do not share a cache line


cdef struct Worker:       # one thread's marks and lists while it solves a heap
    stamp_t* seen         # option marks: seen[v] == stamp while heap stamp is solved
    stamp_t stamp
    nimber_t* pending     # the rare values a heap's search must confirm
    nimber_t wanted[SET_WIDTH >> 4]    # the set path's values, a bit each
    int width             # st.width when the heap began: its options' values are below it
    Py_ssize_t nrare      # st.nrare then: every rare heap its pairs may use
    Py_ssize_t next_group # in a crew: the next group it fills ahead of need
    long long* counts     # ... and how many of the heaps it settled have each value
    char apart[CACHE_LINE]


cdef struct Solved:       # a crew's heap, solved and not yet settled
    int value
    int ready             # (int: stored atomically)
    Py_ssize_t known      # the heaps below this were in the table when it was solved


cdef struct Sparse:       # the sparse method's state, kept by a Scratch between calls
    const vectors_t* vec  # the vector steps: the table of the instructions asked for
    bint frozen           # extend_bounded: the mask never changes (the table is not all there),
    Py_ssize_t reach      # ... searches use smaller parts below this (0: all),
    Py_ssize_t prefix     # ... and a rare heap at or past this stops the call;
    const nimber_t* table # the table of the last call, the heap where it ended, its kinds
    Py_ssize_t next
    Kind kinds[MAX_KINDS]
    int nkinds
    int mask              # 0: no saving split, use the plain scan
    word_t low_common     # bit i: i is common under the mask (i < 64)
    pos_t* rare           # the rare positions, ascending
    nimber_t* rare_values # G at those positions
    Py_ssize_t nrare
    Py_ssize_t rare_room, rare_values_room
    int width             # a power of two above every value so far
    long long* counts     # the histogram of the table so far (zeros from width on)
    long long* spectrum   # choose_mask's transforms
    long long* present
    unsigned char* slots  # the groups' flags: GROUP * FLAG_STRIDE per group
    Py_ssize_t nslots
    PairGroup groups[MAX_GROUPS]    # the general path: pair values by (r // GROUP) % ngroups
    int ngroups
    bint narrow_ok        # values below 64 and no unequal split: the one-hot path may run,
    bint narrow           # ... and runs (ONE_HOT_MIN rare positions or more)
    Py_ssize_t stop       # the call's last heap + 1 (room for one-hot words)
    word_t* onehot        # onehot[i] = 1 << G(i), written only on the one-hot path
    Py_ssize_t onehot_room
    pos_t* by_value[64]               # the rare positions of each value, ascending
    Py_ssize_t by_value_count[64]
    Py_ssize_t by_value_room[64]
    Py_ssize_t batch_r0[2]            # the aligned batch each slot holds (-1: none)
    word_t batch_bits[2 * BATCH]
    Worker* workers       # workers[0] solves heaps one by one; more, several at once
    int threads           # threads asked for (Scratch(threads=...)),
    int cores             # ... and at most this many (the cores the process may run on)
    int crew              # threads a parallel stretch may use: min(threads, cores, d + slack)
    int crew_ran          # threads the last call ran (1: one by one)
    Py_ssize_t crew_from  # crews run from this heap on (PARALLEL_FROM, unless asked)
    Py_ssize_t crew_rare  # ... once there are this many rare heaps (CREW_RARE, unless asked)
    bint waited_only      # a crew's heap is solved from the values its block waited for only
    Py_ssize_t solved_again   # heaps the last call's crews solved twice (see settle_solved)
    int independence      # heaps n..n+independence-1 need none of each other's values
    Py_ssize_t slack      # a crew's heap may lack this many more (0: one thread)
    Py_ssize_t ends       # the rare parts below this, and from r0 - slack on, are marked by
                          # each heap (mark_ends), the rest flagged by the groups
    Py_ssize_t widest     # the widest kind's span
    Py_ssize_t early_from # fill_early flags rare parts from here on (ends, or AHEAD + crew)
    Py_ssize_t block      # a crew's blocks of heaps (at most independence + slack);
    char apart_checked[CACHE_LINE]
    Py_ssize_t checked_lanes, checked_misses  # remainders checked, and flagged after all
    char apart_claimed[CACHE_LINE]
    Py_ssize_t claimed    # ... the heaps below this are taken,
    char apart_published[CACHE_LINE]
    Py_ssize_t published  # ... those below this are in the table,
    int settling          # ... a lock held by the worker that settles them (settle_solved),
    Py_ssize_t failed     # ... the first heap it could not settle (the stretch's end: none),
    int failed_value
    char apart_solved[CACHE_LINE]
    Solved solved[RING]   # ... and heap m, solved, waits in solved[m % RING] to be settled
    char apart_end[CACHE_LINE]


cdef struct Crew:         # one parallel stretch: heaps start..stop-1 of table g
    nimber_t* g
    Py_ssize_t start, stop
    Kind* ks
    int nkinds
    Sparse* st


cdef class Scratch:
    """Working memory for extend_plain and extend_sparse, allocated once and reused.

    A Sequence owns one and passes it to every call, so a call costs no
    allocation and no clearing; without one, each call makes its own.  A call
    that goes on where the last one ended (the same table and kinds, start = the
    heap it reached) keeps the histogram and rare heaps that call had, so the
    values below start must be those it left; any other call rebuilds them
    from its table.

    vector names the instructions of the sparse method's vector steps (the rare
    pass's checked share, the candidate scan, the search's last stage), one of
    VECTORS (default: the first, the fastest this CPU runs); only the speed
    depends on it.

    threads (1 to MAX_THREADS) is how many threads the sparse method may run at
    once, each solving its own heaps: at most as many as heaps that need none of
    each other's pairs (the independence: 3 for .161, 4 for .014, 1 for Grundy's
    game) and SLACK more, and as the cores this process may run on (cores: the
    default; threads wait for each other by spinning, so more than that is slow).
    They start from heap crew_from (PARALLEL_FROM: below it the mask changes
    often) once the game has crew_rare rare heaps (CREW_RARE: with fewer a heap
    is too quick to share); tests lower both to run crews where a game's values
    are still irregular.  Only the speed depends on these; threads_used says
    how many threads the last call ran.

    waited_only (for tests): a crew's heap is solved from the values its block
    waited for, not from whatever more the crew has settled by then, so which
    heaps are solved again (solved_again) is the same on every run, whatever
    the threads' timing.
    """

    cdef Sparse st

    def __cinit__(self, vector=None, threads=1, cores=None,
                  crew_from=None, crew_rare=None, bint waited_only=False):
        if vector is not None and vector not in VECTORS:
            raise ValueError(f"vector must be one of {', '.join(VECTORS)}, not {vector!r}")
        _limits.THREADS.check(threads)
        if cores is not None:
            _limits.CORES.check(cores)
        for name, value in (("crew_from", crew_from), ("crew_rare", crew_rare)):
            if value is not None and value < 0:
                raise ValueError(f"{name} must be 0 or more, not {value}")
        memset(&self.st, 0, sizeof(Sparse))
        name = vector or VECTORS[0]
        self.st.vec = vectors_named(name.encode())
        self.st.threads = threads
        self.st.cores = cores or kayles_cores()
        self.st.crew = self.st.crew_ran = 1
        self.st.crew_from = PARALLEL_FROM if crew_from is None else crew_from
        self.st.crew_rare = CREW_RARE if crew_rare is None else crew_rare
        self.st.waited_only = waited_only
        self.st.workers = <Worker*> calloc(threads, sizeof(Worker))
        self.st.counts = <long long*> calloc(VALUE_LIMIT, sizeof(long long))
        self.st.spectrum = <long long*> calloc(VALUE_LIMIT, sizeof(long long))
        self.st.present = <long long*> calloc(VALUE_LIMIT, sizeof(long long))
        if not (self.st.workers and self.st.counts and self.st.spectrum and self.st.present):
            raise MemoryError()
        hire(&self.st, 1)

    @property
    def threads(self):
        """The threads asked for."""
        return self.st.threads

    @property
    def threads_used(self):
        """How many threads the last call ran at once (1: one heap at a time)."""
        return self.st.crew_ran

    @property
    def solved_again(self):
        """How many heaps the last call's crews solved a second time: an option left out
        while its part was not in the table yet had the value first found."""
        return self.st.solved_again

    def histogram(self):
        """How many heaps of the table the last call filled (G(0..stop-1)) have each value:
        a list up to the largest value."""
        cdef int top = 0, v
        for v in range(self.st.width):
            if self.st.counts[v]:
                top = v
        return [self.st.counts[v] for v in range(top + 1)]

    @property
    def one_hot(self):
        """Whether the last sparse call ended on the one-hot path (values below 64 and
        ONE_HOT_MIN rare positions; the pure twin has none: always False)."""
        return bool(self.st.narrow)

    def rare(self):
        """(mask, how many rare heaps, the last of them or -1) after the last sparse call
        (mask 0: the plain scan)."""
        if self.st.mask <= 0:
            return 0, 0, -1
        return (self.st.mask, self.st.nrare,
                self.st.rare[self.st.nrare - 1] if self.st.nrare else -1)

    def __dealloc__(self):
        if self.st.workers:
            for k in range(self.st.threads):
                free(self.st.workers[k].seen)
                free(self.st.workers[k].pending)
                free(self.st.workers[k].counts)
            free(self.st.workers)
        free(self.st.counts)
        free(self.st.spectrum)
        free(self.st.present)
        free(self.st.slots)
        free(self.st.rare)
        free(self.st.rare_values)
        free(self.st.onehot)
        for k in range(64):
            free(self.st.by_value[k])


cdef int hire(Sparse* st, int count) except -1:
    """Give workers[0..count-1] their marks and lists (kept till the scratch goes)."""
    cdef int k
    for k in range(count):
        if not st.workers[k].seen:
            st.workers[k].seen = <stamp_t*> calloc(STAMPS, sizeof(stamp_t))
        if not st.workers[k].pending:
            st.workers[k].pending = <nimber_t*> calloc(VALUE_LIMIT, sizeof(nimber_t))
        if not st.workers[k].counts:
            st.workers[k].counts = <long long*> calloc(VALUE_LIMIT, sizeof(long long))
        if not (st.workers[k].seen and st.workers[k].pending and st.workers[k].counts):
            raise MemoryError()
    return 0


cdef inline stamp_t next_stamp(Worker* w) noexcept nogil:
    """A stamp no entry of seen holds yet (seen is cleared when the stamps wrap)."""
    w.stamp += 1
    if w.stamp == 0:
        memset(w.seen, 0, STAMPS * sizeof(stamp_t))
        w.stamp = 1
    return w.stamp


cdef Scratch scratch_for(scratch):
    if scratch is None:
        return Scratch()
    if not isinstance(scratch, Scratch):
        raise TypeError(f"scratch must be a Scratch, not {type(scratch).__name__}")
    return scratch


cdef int check_range(const nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop) except -1:
    if not 0 <= start <= stop <= table.shape[0]:
        raise ValueError(f"range {start}:{stop} does not fit a table of {table.shape[0]}")
    return 0


cdef int put(nimber_t[::1] table, Py_ssize_t n, int value) except -1:
    if value >= VALUE_LIMIT:
        raise OverflowError(f"G({n}) = {value} does not fit the 16-bit table")
    table[n] = value
    return 0


cdef int mark_whole_and_ends(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds,
                             stamp_t* seen, stamp_t stamp, Split* splits,
                             Py_ssize_t known) noexcept nogil:
    """Mark the options of heap n that leave no part or one part; list the two-part kinds.

    One-part options whose part is known or more are left out (a crew's heap
    whose part is not in the table yet: see left_out).  Returns how many Split
    entries (kinds that may leave two parts) were written.
    """
    cdef int k, c, nsplits = 0
    cdef Py_ssize_t r
    for k in range(nkinds):
        if n < kinds[k].span:
            continue
        c = constant(g, &kinds[k])
        r = n - kinds[k].span
        if r == 0:
            if kinds[k].leave & 1:  # no part left: allowed even when unequal (rules.py)
                seen[c] = stamp
            continue
        if kinds[k].leave & 2 and r < known:
            seen[g[r] ^ c] = stamp
        if kinds[k].leave & 4:
            splits[nsplits].r = r
            splits[nsplits].c = c
            splits[nsplits].unequal = kinds[k].unequal
            splits[nsplits].last = last_part(r, kinds[k].unequal)
            nsplits += 1
    return nsplits


cdef inline Py_ssize_t last_part(Py_ssize_t r, bint unequal) noexcept nogil:
    """The largest smaller part a of the split r = a + (r - a)."""
    return r // 2 - 1 if unequal and r % 2 == 0 else r // 2


cdef int mex_plain(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds,
                   stamp_t* seen, stamp_t stamp) noexcept nogil:
    cdef Split splits[MAX_KINDS]
    cdef int s, m, nsplits = mark_whole_and_ends(g, n, kinds, nkinds, seen, stamp, splits, n)
    for s in range(nsplits):
        mark_pairs(g, splits[s].r, 1, splits[s].last + 1, splits[s].c, seen, stamp)
    m = 0
    while seen[m] == stamp:
        m += 1
    return m


def extend_plain(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, kinds, scratch=None):
    """Fill table[start:stop] with the mex over every option (the quadratic scan)."""
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds = load_kinds(kinds, ks)
    cdef Py_ssize_t n
    cdef int value
    cdef Scratch own = scratch_for(scratch)
    cdef Sparse* st = &own.st
    check_range(table, start, stop)
    if start == stop:
        return
    with nogil:
        n = run_plain(&table[0], start, stop, ks, nkinds, st, &value)
    if n < stop:
        put(table, n, value)  # raises: the value does not fit


cdef Py_ssize_t run_plain(nimber_t* g, Py_ssize_t start, Py_ssize_t stop, Kind* ks, int nkinds,
                          Sparse* st, int* value) noexcept nogil:
    """Fill g[start:stop] by the plain scan; the first heap whose value does not fit, or stop."""
    cdef Py_ssize_t n
    for n in range(start, stop):
        value[0] = mex_plain(g, n, ks, nkinds, st.workers[0].seen, next_stamp(&st.workers[0]))
        if value[0] >= VALUE_LIMIT:
            return n
        g[n] = value[0]
    return stop


cdef inline int bit_length(long long x) noexcept nogil:
    cdef int bits = 0
    while x:
        bits += 1
        x >>= 1
    return bits


cdef void transform(long long* h, int width) noexcept nogil:
    """The Walsh-Hadamard transform of h[0:width] in place (width a power of two)."""
    cdef int half = 1, i, j
    cdef long long x, y
    while half < width:
        i = 0
        while i < width:
            for j in range(i, i + half):
                x = h[j]
                y = h[j + half]
                h[j] = x + y
                h[j + half] = x - y
            i += 2 * half
        half *= 2


cdef int pick_mask(Sparse* st, const int* constants, int nconst,
                     long long* rare_count) noexcept nogil:
    """The allowed mask of least estimated cost (see the header); 0: the plain scan.

    rare_count receives the rare positions under the mask (under 0: all).
    """
    cdef int top = 0, width = 1, v, mask, i, best = 0
    cdef long long total = 0, distinct = 0, rare, rare_values, cost, best_cost = -1
    for v in range(st.width):
        if st.counts[v]:
            top = v
    for i in range(nconst):
        top = max(top, constants[i])
    while width <= top:
        width <<= 1
    for v in range(width):
        total += st.counts[v]
        distinct += st.counts[v] != 0
        st.spectrum[v] = st.counts[v]
        st.present[v] = st.counts[v] != 0
    transform(st.spectrum, width)
    transform(st.present, width)
    rare_count[0] = total
    for mask in range(1, width):
        for i in range(nconst):
            if parity(constants[i] & mask):
                break
        else:
            rare = (total + st.spectrum[mask]) // 2
            rare_values = (distinct + st.present[mask]) // 2
            cost = 3 * rare + 2 * rare_values * bit_length(rare_values)
            if best_cost < 0 or cost < best_cost:
                best, best_cost = mask, cost
                rare_count[0] = rare
    if best and SAVING * best_cost < total:
        return best
    rare_count[0] = total
    return 0


def choose_mask(counts, constants):
    """(mask, rare) for a value histogram and option constants: the mask extend_sparse picks.

    counts[v] is how many heaps have value v (v < 2**16); constants are the
    values of the kept runs of the move kinds.  rare is how many heaps have an
    even-parity value under the mask; mask 0 means the plain scan (rare: all).
    """
    cdef Scratch own = Scratch()
    cdef int cs[MAX_KINDS]
    cdef int nconst = len(constants), v
    cdef long long rare = 0
    if len(counts) > VALUE_LIMIT:
        raise ValueError(f"at most {VALUE_LIMIT} counts")
    if nconst > MAX_KINDS:
        raise ValueError(f"at most {MAX_KINDS} move kinds")
    for v in range(len(counts)):
        if counts[v] < 0:
            raise ValueError("counts must be >= 0")
        own.st.counts[v] = counts[v]
    for v in range(nconst):
        if not 0 <= constants[v] < VALUE_LIMIT:
            raise ValueError(f"constants must be in [0, {VALUE_LIMIT})")
        cs[v] = constants[v]
    own.st.width = VALUE_LIMIT
    mask = pick_mask(&own.st, cs, nconst, &rare)
    return mask, rare


cdef inline Py_ssize_t bisect(const pos_t* items, Py_ssize_t count, Py_ssize_t x) noexcept nogil:
    """How many of the sorted items are below x."""
    cdef Py_ssize_t lo = 0, hi = count, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if <Py_ssize_t> items[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef unsigned char* rare_pairs(const nimber_t* g, Py_ssize_t r, Sparse* st, Worker* w,
                               int* width, PairGroup** of_group) noexcept nogil:
    """The flags of every G(a) ^ G(r - a) over rare a in the middle, [st.ends, r0 - st.slack),
    valid below width (mark_ends marks the pairs of the rare a at both ends).

    Remainders come in groups of GROUP: the first r of a group asked for flags
    them for all of them at once (r0 + j - a < r0 - st.slack: its G is known by
    then; fill_early and fill_late).  Every such a is listed by the time r is
    needed, so the flags stay valid until the rare set changes (a new mask).
    of_group receives the group (its checked rare a: see checked_gives).

    Threads share the groups: each is filled under its lock and read without
    it once ready (r0, then ready, are stored last).  Flags only ever go from 0
    to 1 while a heap reads them (checked_gives).
    """
    cdef Py_ssize_t r0 = r - r % GROUP
    cdef PairGroup* group = &st.groups[(r0 // GROUP) % st.ngroups]
    of_group[0] = group
    if not (atomic_load(&group.r0) == r0 and atomic_load_int(&group.ready)):
        lock(&group.lock)
        if group.r0 != r0:
            fill_early(g, st, group, r0, w.width, w.nrare)
        if not group.ready:
            fill_late(g, st, group, w.width, w.nrare)
        unlock(&group.lock)
    width[0] = group.width
    return group.flags + (r - r0) * FLAG_STRIDE


cdef void mark_ends(const nimber_t* g, Sparse* st, Worker* w, Py_ssize_t r, int c,
                    bint unequal, Py_ssize_t first, stamp_t* seen, stamp_t stamp) noexcept nogil:
    """Mark the options G(a) ^ G(r - a) ^ c of the rare a of split r that the groups leave
    out: a below st.ends, and a from r0 - st.slack on; but for the pairs with a part below
    first (see first_part) and, where unequal, the equal split."""
    cdef Py_ssize_t i, a, hi = r - first + 1
    cdef Py_ssize_t upper = bisect(st.rare, w.nrare, max(st.ends, r - r % GROUP - st.slack))
    for i in range(bisect(st.rare, w.nrare, first), bisect(st.rare, w.nrare, min(st.ends, hi))):
        a = st.rare[i]
        if not (unequal and 2 * a == r):
            seen[st.rare_values[i] ^ g[r - a] ^ c] = stamp
    for i in range(upper, bisect(st.rare, w.nrare, hi)):
        a = st.rare[i]
        if not (unequal and 2 * a == r):
            seen[st.rare_values[i] ^ g[r - a] ^ c] = stamp


cdef void fill_early(const nimber_t* g, Sparse* st, PairGroup* group, Py_ssize_t r0, int width,
                     Py_ssize_t nrare) noexcept nogil:
    """Start group r0 (its lock held): flag the rare a in [st.early_from, r0 - st.slack) of
    the first nrare, but for the newest 1/CHECKED of them with AVX-512 or AVX2 (checked
    instead); fill_late does the rest.  Needs G below r0 + GROUP - st.early_from only, so
    threads fill groups ahead of need (fill_ahead)."""
    cdef Py_ssize_t i, lo, hi, mid, split
    atomic_store(&group.r0, -1)   # readers without the lock now wait for it
    atomic_store_int(&group.ready, False)
    for i in range(GROUP):
        memset(group.flags + i * FLAG_STRIDE, 0, width)
        group.drop_zero[i] = -1
    group.width = width
    lo = bisect(st.rare, nrare, st.ends)
    hi = max(lo, bisect(st.rare, nrare, r0 - st.slack))
    mid = hi
    if st.vec.unhit != NULL and hi - lo >= CHECK_MIN and (
            atomic_load(&st.checked_lanes) < TRIAL_LANES
            or MISS_SHARE * atomic_load(&st.checked_misses) < atomic_load(&st.checked_lanes)):
        mid = hi - (hi - lo) // CHECKED
        atomic_add(&st.checked_lanes, GROUP)
    split = min(mid, max(lo, bisect(st.rare, nrare, st.early_from)))
    if split < mid:
        flag_group(g + r0, st.rare + split, st.rare + mid, st.rare_values + split, group.flags)
    group.late_lo = lo
    group.late_hi = split
    group.checked_lo = mid
    group.checked_hi = hi
    atomic_store(&group.r0, r0)


cdef void fill_late(const nimber_t* g, Sparse* st, PairGroup* group, int width,
                    Py_ssize_t nrare) noexcept nogil:
    """Finish the group (its lock held) for a heap whose rare heaps are the first nrare
    (every one below r0 - st.slack): flag what fill_early left (the oldest rare a, and
    those listed since), then take each remainder's candidates and check them against
    the checked rare a."""
    cdef Py_ssize_t r0 = group.r0, i
    cdef Py_ssize_t hi = bisect(st.rare, nrare, r0 - st.slack)
    cdef int k
    cdef nimber_t unset[CANDIDATES]
    if group.width < width:
        for i in range(GROUP):
            memset(group.flags + i * FLAG_STRIDE + group.width, 0, width - group.width)
        group.width = width
    if group.late_lo < group.late_hi:
        flag_group(g + r0, st.rare + group.late_lo, st.rare + group.late_hi,
                   st.rare_values + group.late_lo, group.flags)
    if group.checked_hi < hi:
        flag_group(g + r0, st.rare + group.checked_hi, st.rare + hi,
                   st.rare_values + group.checked_hi, group.flags)
    for i in range(GROUP):
        group.checking[i] = group.checked_lo < group.checked_hi
    if group.checked_lo < group.checked_hi:
        memset(group.candidates, 0, sizeof(group.candidates))
        for i in range(GROUP):
            group.checked_width[i] = width
            group.ncandidates[i] = st.vec.candidates(
                group.flags + i * FLAG_STRIDE, width, st.mask, st.low_common, unset, CANDIDATES)
            for k in range(group.ncandidates[i]):
                group.candidates[k * GROUP + i] = unset[k]
        group.unhit = st.vec.unhit(g + r0, st.rare + group.checked_lo,
                                   st.rare + group.checked_hi,
                                   st.rare_values + group.checked_lo, group.candidates)
    atomic_store_int(&group.ready, True)


cdef bint fill_ahead(const nimber_t* g, Sparse* st, Worker* w, int crew,
                     Py_ssize_t stop) noexcept nogil:
    """In a crew: fill_early the worker's own groups (every crew-th) as soon as the values
    they read are in the table; whether it filled any.  The workers share this, the
    rare pass's bulk, evenly however the heaps that first need a group fall to them."""
    cdef Py_ssize_t r0, published
    cdef PairGroup* group
    cdef bint filled = False
    while w.next_group < stop:
        r0 = w.next_group
        published = atomic_load(&st.published)
        if published < r0 + GROUP - st.early_from:
            break
        group = &st.groups[(r0 // GROUP) % st.ngroups]
        lock(&group.lock)
        if group.r0 >= 0 and group.r0 < r0 and group.r0 + GROUP + st.widest > published:
            unlock(&group.lock)   # its remainders are still needed (the ring is too short)
            break
        if group.r0 < r0:
            fill_early(g, st, group, r0, atomic_load_int(&st.width),
                       atomic_load(&st.nrare))
            filled = True
        unlock(&group.lock)
        w.next_group += crew * GROUP
    return filled


cdef bint zero_from_equal_only(const nimber_t* g, Sparse* st, Worker* w,
                               Py_ssize_t r, Py_ssize_t first) noexcept nogil:
    """For even r: whether the rare pass's 0 came only from the equal split r/2 + r/2,
    among the pairs whose parts are first or more (see first_part: a crew's heap
    checks the others when it is settled, left_out).  An answer found from a smaller
    first holds for this one: a pair it found is there, and none it ruled out is.
    A wrong True only costs time (the search looks for 0 among every pair); a
    wrong False loses the value 0 (test_threads: crews from the first heap)."""
    cdef PairGroup* group = &st.groups[(r // GROUP) % st.ngroups]   # filled by rare_pairs
    cdef int j = r % GROUP
    cdef Py_ssize_t i, lo, hi
    cdef bint only
    lock(&group.lock)
    if group.drop_zero[j] < 0 or group.drop_zero_first[j] > first:
        lo = bisect(st.rare, w.nrare, first)
        hi = bisect(st.rare, w.nrare, r - first + 1)
        i = bisect(st.rare, w.nrare, r // 2)
        group.drop_zero[j] = (i < hi and st.rare[i] == <pos_t> (r // 2)
                              and not has_split(g, st, lo, hi, r, i))
        group.drop_zero_first[j] = first
    only = group.drop_zero[j]
    unlock(&group.lock)
    return only


cdef bint checked_gives(const nimber_t* g, Sparse* st, PairGroup* group, Py_ssize_t r,
                        int x) noexcept nogil:
    """Whether a checked rare a (not flagged) gives the common value x for r.

    Called only for an x the flags left unset.  The group's candidates for r
    are the least common values its flags left unset when it was filled, so an
    x among them has its answer, and an x below the last one or past the
    width then is not given by a checked pair.  Past a full list, the checked
    a are flagged for r after all (rarely: the candidate is mostly the first);
    once they are (by this heap or another thread's: checking[j] is stored
    last), the flags answer.  Only that flagging takes the group's lock.
    """
    cdef int j = r % GROUP, k
    cdef unsigned char* flags = group.flags + j * FLAG_STRIDE
    cdef bint gives
    if not atomic_load_int(&group.checking[j]):
        return x < group.width and flags[x]
    if x >= group.checked_width[j]:
        return False
    for k in range(group.ncandidates[j]):
        if group.candidates[k * GROUP + j] == x:
            return not (group.unhit >> (k * GROUP + j) & 1)
    if group.ncandidates[j] < CANDIDATES or x < group.candidates[(CANDIDATES - 1) * GROUP + j]:
        return False
    lock(&group.lock)
    if group.checking[j]:
        atomic_add(&st.checked_misses, 1)
        flag_one(g + r, st.rare + group.checked_lo, st.rare + group.checked_hi,
                 st.rare_values + group.checked_lo, flags)
        atomic_store_int(&group.checking[j], False)
    gives = flags[x]
    unlock(&group.lock)
    return gives


cdef void fill_batch(Sparse* st, Py_ssize_t r0, word_t* bits) noexcept nogil:
    """bits[j] = the one-hot set of G(a) ^ G(r0 + j - a) over rare a in [BATCH, r0 - 1].

    For such a, r0 + j - a < r0: the batch reads only G already known when r0
    is first needed.  Rare parts are taken a value u at a time, so the hot loop
    ORs contiguous one-hot words; each value's result is XOR-shifted by u once.
    """
    cdef Py_ssize_t j, lo, hi
    cdef int u
    cdef word_t group[BATCH]
    for j in range(BATCH):
        bits[j] = 0
    for u in range(64):
        lo = bisect(st.by_value[u], st.by_value_count[u], BATCH)
        hi = bisect(st.by_value[u], st.by_value_count[u], r0)
        if lo < hi:
            gather_or(group, st.onehot, r0, st.by_value[u] + lo, hi - lo)
            for j in range(BATCH):
                bits[j] |= xor_permute(group[j], u)


cdef word_t narrow_pairs(const nimber_t* g, Sparse* st, Py_ssize_t r) noexcept nogil:
    """The one-hot set of G(a) ^ G(r - a) over rare a in [1, r - 1] (values below 64)."""
    cdef Py_ssize_t r0 = r - r % BATCH, i
    cdef int slot = (r0 // BATCH) % 2
    if st.batch_r0[slot] != r0:
        fill_batch(st, r0, st.batch_bits + slot * BATCH)
        st.batch_r0[slot] = r0
    cdef word_t bits = st.batch_bits[slot * BATCH + r - r0]
    # The rare parts the batch leaves out: below BATCH, and from r0 on (recent).
    for i in range(bisect(st.rare, st.nrare, 1), bisect(st.rare, st.nrare, min(BATCH, r))):
        bits |= (<word_t> 1) << (st.rare_values[i] ^ g[r - st.rare[i]])
    for i in range(bisect(st.rare, st.nrare, max(BATCH, r0)), bisect(st.rare, st.nrare, r)):
        bits |= (<word_t> 1) << (st.rare_values[i] ^ g[r - st.rare[i]])
    return bits


cdef bint has_split(const nimber_t* g, Sparse* st, Py_ssize_t lo, Py_ssize_t hi,
                    Py_ssize_t r, Py_ssize_t skip) noexcept nogil:
    """Whether a rare a other than rare[skip] in rare[lo:hi] has G(a) == G(r - a)."""
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if i != skip and st.rare_values[i] == g[r - st.rare[i]]:
            return True
    return False


cdef int search(const nimber_t* g, Split* splits, int nsplits, Py_ssize_t* next_a,
                Py_ssize_t pause, stamp_t* seen, stamp_t stamp, int value) noexcept nogil:
    """Mark the options of the splits until value is marked: 1; 0 if it never is.

    The splits are swept side by side in blocks of 32 smaller parts, resuming
    where the last search stopped (next_a), so each pair is marked at most once
    per heap and a value that one split lacks costs no more than the first hit
    in another.  (Blocks of 64 took about 7% longer on .376: most searches end
    early, and a block is marked whole.)  -1: next_a reached pause first, for the
    caller to look at what is left.
    """
    cdef Py_ssize_t a, last, end
    cdef int s
    cdef bint active = True
    while seen[value] != stamp:
        if not active:
            return 0
        if next_a[0] >= pause:
            return -1
        active = False
        a = next_a[0]
        end = a + 32
        for s in range(nsplits):
            last = splits[s].last
            if a > last:
                continue
            active = True
            mark_pairs(g, splits[s].r, a, min(end, last + 1), splits[s].c, seen, stamp)
        next_a[0] = end
    return 1


cdef int sweep(const nimber_t* g, Split* splits, int nsplits, Py_ssize_t a, Sparse* st,
               Worker* w, nimber_t* values, int nvalues, stamp_t stamp) noexcept nogil:
    """Look for all the values at once, from smaller part a to the splits' ends.

    The splits are swept side by side and each value found is marked.  Returns
    the least value no pair gives, or -1 if every one is found.  Callers keep
    nvalues <= st.vec.few unless st.vec.sweep_set and w.width <= SET_WIDTH (the set path).
    """
    cdef Py_ssize_t r[MAX_KINDS]
    cdef Py_ssize_t last[MAX_KINDS]
    cdef unsigned int c[MAX_KINDS]
    cdef int s, k, left, least = -1
    for s in range(nsplits):
        r[s] = splits[s].r
        last[s] = splits[s].last
        c[s] = splits[s].c
    if st.vec.sweep_set != NULL and w.width <= SET_WIDTH:
        memset(w.wanted, 0, sizeof(w.wanted))
        for k in range(nvalues):
            w.wanted[values[k] >> 4] |= 1 << (values[k] & 15)
        left = st.vec.sweep_set(g, r, last, c, nsplits, a, w.wanted, nvalues, w.seen, stamp)
        left = nvalues if left else 0   # the values left are those still unmarked
    else:
        left = st.vec.sweep(g, r, last, c, nsplits, a, values, nvalues, w.seen, stamp)
    for k in range(left):
        if w.seen[values[k]] != stamp and (least < 0 or values[k] < least):
            least = values[k]
    return least


cdef inline bint flagged(unsigned char** found, const int* widths, const int* consts,
                         const bint* drop_zero, int nfound, int v) noexcept nogil:
    """Whether a rare pass flagged the option value v (v ^ c over its split's flags)."""
    cdef int k, x
    for k in range(nfound):
        x = v ^ consts[k]
        if x < widths[k] and found[k][x] and not (x == 0 and drop_zero[k]):
            return True
    return False


cdef bint checked(const nimber_t* g, Sparse* st, PairGroup** groups, const Py_ssize_t* rs,
                  const int* consts, int nfound, int v) noexcept nogil:
    """Whether a checked rare a of some split gives the common option value v."""
    cdef int k
    for k in range(nfound):
        if checked_gives(g, st, groups[k], rs[k], v ^ consts[k]):
            return True
    return False


cdef int mex_sparse(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds, Sparse* st,
                    Worker* w, Py_ssize_t known) noexcept nogil:
    """G(n), from G below known (n: all of them); with fewer, the mex of the options whose
    parts are below known (first_part), or OUT_OF_REACH."""
    cdef Split splits[MAX_KINDS]
    cdef unsigned char* found[MAX_KINDS]   # the splits' rare passes, read in place
    cdef int widths[MAX_KINDS]
    cdef bint drop_zero[MAX_KINDS]         # 0 came only from an equal split it may not make
    cdef int consts[MAX_KINDS]
    cdef PairGroup* groups[MAX_KINDS]      # ... and where their checked rare a are
    cdef Py_ssize_t rs[MAX_KINDS]
    cdef stamp_t* seen = w.seen
    cdef stamp_t stamp = next_stamp(w)
    cdef nimber_t* pending = w.pending
    cdef int nsplits = mark_whole_and_ends(g, n, kinds, nkinds, seen, stamp, splits, known)
    cdef int s, c, v, common, mask = st.mask, nfound = 0
    cdef Py_ssize_t first = first_part(n, kinds, nkinds, known)
    cdef Py_ssize_t next_a = first  # where the search resumes
    cdef Py_ssize_t r, j
    cdef word_t bits
    cdef bint cut = False       # within reach, some split has pairs left unsearched
    for s in range(nsplits):
        if st.reach and splits[s].last >= st.reach:
            splits[s].last = st.reach - 1
            cut = True
    for s in range(nsplits):
        r = splits[s].r
        c = splits[s].c
        if st.narrow:
            bits = narrow_pairs(g, st, r)
            for v in range(64):
                if bits >> v & 1:
                    seen[v ^ c] = stamp
        else:
            found[nfound] = rare_pairs(g, r, st, w, &widths[nfound], &groups[nfound])
            mark_ends(g, st, w, r, c, splits[s].unequal, first, seen, stamp)
            rs[nfound] = r
            drop_zero[nfound] = (splits[s].unequal and r % 2 == 0
                                 and zero_from_equal_only(g, st, w, r, first))
            consts[nfound] = c
            nfound += 1
    # Every common-valued option has a rare part, so it is flagged by now or,
    # for a checked rare part, answered by checked(): the least common value
    # neither marks is the candidate; the unmarked rare values below it wait
    # for the search, in ascending order.
    cdef Py_ssize_t npending = 0, left, k
    cdef word_t unmarked
    cdef int candidate = -1
    common = 0
    if st.vec.unmarked != NULL:   # 64 values a step, then only the unmarked ones
        while candidate < 0:
            unmarked = st.vec.unmarked(seen, stamp, common, found, widths, consts, drop_zero,
                                       nfound)
            while unmarked and candidate < 0:
                v = common + lowest_bit(unmarked)
                unmarked &= unmarked - 1
                if flagged(found, widths, consts, drop_zero, nfound, v):
                    continue   # by a checked share flagged in full since the step began
                if not parity(v & mask):
                    pending[npending] = v
                    npending += 1
                elif not checked(g, st, groups, rs, consts, nfound, v):
                    candidate = v
            common += 64
        common = candidate
    else:
        while True:
            if seen[common] != stamp and not flagged(found, widths, consts, drop_zero, nfound,
                                                     common):
                if parity(common & mask):
                    if not checked(g, st, groups, rs, consts, nfound, common):
                        break
                    common += 1
                    continue
                pending[npending] = common
                npending += 1
            common += 1
    # Confirm the smallest first, marking; from FAR pairs on, look now and then
    # at the values left and, once they are few (on the set path: few, or the
    # search has reached SET_FAR), look for all of them at once to the end.
    cdef bint set_path = st.vec.sweep_set != NULL and w.width <= SET_WIDTH
    cdef Py_ssize_t check = FAR
    j = 0
    while True:
        if next_a >= check:
            left = 0
            for k in range(j, npending):   # without branches: found or not is a coin toss
                pending[left] = pending[k]
                left += seen[pending[k]] != stamp
            npending = left
            j = 0
            if npending and (npending <= st.vec.few or set_path and
                             (npending <= SET_FEW or next_a >= SET_FAR)):
                v = sweep(g, splits, nsplits, next_a, st, w, pending, npending, stamp)
                return common if v < 0 else OUT_OF_REACH if cut else v
            check = next_a + next_a // 2  # a geometric pace keeps the looks few
            if set_path:
                check = max(check, SET_FAR)
        while j < npending and seen[pending[j]] == stamp:
            j += 1
        if j == npending:
            return common
        if not search(g, splits, nsplits, &next_a, check, seen, stamp, pending[j]):
            return OUT_OF_REACH if cut else <int> pending[j]


cdef void choose_split(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds,
                       Sparse* st) noexcept nogil:
    """Pick the mask for the table so far; on a new mask, list the rare positions anew."""
    cdef int constants[MAX_KINDS]
    cdef int nconst = 0, k, mask
    cdef long long rare
    cdef Py_ssize_t a
    for k in range(nkinds):
        if kinds[k].span <= n:
            constants[nconst] = constant(g, &kinds[k])
            nconst += 1
    mask = pick_mask(st, constants, nconst, &rare)
    st.checked_lanes = st.checked_misses = 0   # the checked share is tried anew
    if mask != st.mask:
        st.mask = mask
        st.low_common = 0
        for k in range(64):
            st.low_common |= (<word_t> parity(k & mask)) << k
        st.nrare = 0
        st.narrow = False
        for k in range(st.ngroups):
            st.groups[k].r0 = -1
        if mask:
            for a in range(n):
                if not parity(g[a] & mask):
                    add_rare(st, a, g[a])
    if st.narrow_ok and not st.narrow and mask and st.nrare >= ONE_HOT_MIN:
        start_one_hot(g, n, st)


cdef void start_one_hot(const nimber_t* g, Py_ssize_t n, Sparse* st) noexcept nogil:
    """Turn the one-hot path on at heap n: the words of G(0..n-1), the rare positions by
    value.  Out of memory, it stays off (the flags give the same values)."""
    cdef Py_ssize_t a, i
    cdef int v
    if grow(<void**> &st.onehot, &st.onehot_room, st.stop, sizeof(word_t)):
        return
    for a in range(n):
        st.onehot[a] = (<word_t> 1) << g[a]
    for v in range(64):
        st.by_value_count[v] = 0
    st.batch_r0[0] = st.batch_r0[1] = -1
    st.narrow = True
    for i in range(st.nrare):
        v = st.rare_values[i]
        if grow(<void**> &st.by_value[v], &st.by_value_room[v], st.by_value_count[v] + 1,
                sizeof(pos_t)):
            st.narrow = False
            return
        st.by_value[v][st.by_value_count[v]] = st.rare[i]
        st.by_value_count[v] += 1


cdef inline void add_rare(Sparse* st, Py_ssize_t a, int value) noexcept nogil:
    """Append a rare position (room for the whole call is reserved up front); a crew's
    threads read the count, so it grows only once the position is in place."""
    st.rare[st.nrare] = <pos_t> a
    st.rare_values[st.nrare] = value
    atomic_store(&st.nrare, st.nrare + 1)
    if not st.narrow:
        return
    if grow(<void**> &st.by_value[value], &st.by_value_room[value],
            st.by_value_count[value] + 1, sizeof(pos_t)):
        st.narrow = False  # out of memory: the general path is exact too, only slower
        return
    st.by_value[value][st.by_value_count[value]] = <pos_t> a
    st.by_value_count[value] += 1


cdef bint start_groups(Sparse* st, Kind* ks, int nkinds) except -1:
    """Make the rare pass's groups and the crew ready for the kinds; whether a kind is
    unequal.

    Heaps n..n+d-1 need none of each other's pairs when every part of a two-part
    move is at most n - d, so d threads can solve them at once (d, the
    independence: the least span + 1 of a kind leaving two parts).  A crew goes
    SLACK heaps further, leaving out the options whose part is not in the table
    yet (first_part): heap n is solved once the values below n - d - SLACK + 1
    are there.  So the groups flag the rare a from ends = GROUP + SLACK up to
    r0 - SLACK only: both parts of such a pair are in the table and a listed
    (mark_ends marks the rest).  So a crew shares even Grundy's game (d = 1:
    a split leaves a part of n - 1).  One thread needs the groups of a heap's
    remainders n - span; a crew also those fill_ahead fills up to early_from
    heaps ahead and those of the heaps up to d + SLACK ahead.
    """
    cdef int k, independence = MAX_INDEPENDENCE
    cdef bint unequal = False
    cdef Py_ssize_t widest = 0
    for k in range(nkinds):
        widest = max(widest, ks[k].span)
        unequal = unequal or ks[k].unequal
        if ks[k].leave & 4:
            independence = min(independence, ks[k].span + 1)
    st.widest = widest
    st.independence = independence
    st.slack = SLACK
    st.crew = max(1, min(st.threads, independence + st.slack, st.cores))
    if st.crew == 1:
        st.slack = 0
    st.block = min(CREW_BLOCK, (independence + st.slack) // st.crew)
    st.ends = GROUP + st.slack
    hire(st, st.crew)
    if st.crew == 1:
        st.early_from = st.ends
        st.ngroups = widest // GROUP + 2
    else:
        st.early_from = max(st.ends, AHEAD + st.crew)
        st.ngroups = (widest + max(st.early_from, independence + st.slack) + st.crew) // GROUP + 3
    reserve(<void**> &st.slots, &st.nslots, st.ngroups, GROUP * FLAG_STRIDE)
    for k in range(st.ngroups):
        st.groups[k].r0 = -1
        st.groups[k].flags = st.slots + k * GROUP * FLAG_STRIDE
    st.batch_r0[0] = st.batch_r0[1] = -1
    st.reach = 0
    st.frozen = False
    return unequal


cdef int start_sparse(Sparse* st, const nimber_t* g, Py_ssize_t start, Py_ssize_t stop,
                      Kind* ks, int nkinds) except -1:
    """Make the scratch ready for heaps start..stop-1 of the table g: its histogram and,
    where the call goes on where the last one ended (the same table, start = the heap
    it reached), the mask and rare heaps that call had (a sequence calls it piece by
    piece: the pieces then cost no pass over the table)."""
    cdef Py_ssize_t n
    cdef int largest = 0
    cdef bint goes_on = (not st.frozen and st.mask >= 0 and st.table == g and st.next == start
                         and st.nkinds == nkinds
                         and not memcmp(st.kinds, ks, nkinds * sizeof(Kind)))
    cdef bint unequal = start_groups(st, ks, nkinds)
    memcpy(st.kinds, ks, nkinds * sizeof(Kind))
    st.nkinds = nkinds
    reserve(<void**> &st.rare, &st.rare_room, stop, sizeof(pos_t))
    reserve(<void**> &st.rare_values, &st.rare_values_room, stop, sizeof(nimber_t))
    st.stop = stop
    if goes_on:
        if st.narrow and grow(<void**> &st.onehot, &st.onehot_room, stop, sizeof(word_t)):
            st.narrow = False   # out of memory: the general path is exact too
        return 0
    memset(st.counts, 0, st.width * sizeof(long long))
    for n in range(start):
        st.counts[g[n]] += 1
        largest = max(largest, g[n])
    st.width = next_power(largest) if start else 1
    st.narrow_ok = st.width <= 64 and not unequal
    st.narrow = False   # choose_split turns it on where it pays
    st.mask = -1  # no rare set yet: the first choose_split lists one
    st.nrare = 0
    return 0


cdef int start_bounded(Sparse* st, const nimber_t* g, Py_ssize_t start, Py_ssize_t stop,
                       Kind* ks, int nkinds, int mask, counts, Py_ssize_t prefix,
                       Py_ssize_t reach) except -1:
    """Make the scratch ready for extend_bounded (see there): counts given, the mask frozen,
    the rare positions those of G(0..min(prefix, start)-1), no one-hot path; or, where the
    call goes on from the scratch's last one, all of that kept as it is."""
    cdef Py_ssize_t a, known = min(prefix, start), room = max(0, min(prefix, stop) - start)
    cdef int v, k
    if (st.frozen and st.table == g and st.next == start and st.mask == mask
            and prefix >= st.prefix and same_counts(st, counts)):
        reserve(<void**> &st.rare, &st.rare_room, st.nrare + room + 1, sizeof(pos_t))
        reserve(<void**> &st.rare_values, &st.rare_values_room, st.nrare + room + 1,
                sizeof(nimber_t))
        st.checked_lanes = st.checked_misses = 0
        st.reach = reach
        st.prefix = prefix
        return 0
    start_groups(st, ks, nkinds)
    for a in range(known):
        room += not parity(g[a] & mask)
    reserve(<void**> &st.rare, &st.rare_room, room + 1, sizeof(pos_t))
    reserve(<void**> &st.rare_values, &st.rare_values_room, room + 1, sizeof(nimber_t))
    memset(st.counts, 0, VALUE_LIMIT * sizeof(long long))
    st.width = 1
    for v in range(len(counts)):
        st.counts[v] = counts[v]
        if counts[v]:
            st.width = max(st.width, next_power(v))
    st.narrow_ok = st.narrow = False
    st.mask = mask
    st.low_common = 0
    for k in range(64):
        st.low_common |= (<word_t> parity(k & mask)) << k
    st.nrare = 0
    st.checked_lanes = st.checked_misses = 0
    for a in range(known):
        if not parity(g[a] & mask):
            add_rare(st, a, g[a])
    st.frozen = True
    st.reach = reach
    st.prefix = prefix
    st.table = g
    return 0


cdef bint same_counts(Sparse* st, counts) except -1:
    """Whether the scratch's histogram is ``counts`` (zeros past its end)."""
    cdef Py_ssize_t v, size = len(counts)
    if size > st.width:
        return False
    for v in range(st.width):
        if st.counts[v] != (counts[v] if v < size else 0):
            return False
    return True


def extend_sparse(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, kinds, scratch=None):
    """Fill table[start:stop] by the sparse-space method; same values as extend_plain."""
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds = load_kinds(kinds, ks)
    cdef int value
    cdef Py_ssize_t n
    cdef Scratch own = scratch_for(scratch)
    cdef Sparse* st = &own.st
    check_range(table, start, stop)
    if stop > POSITION_LIMIT:
        raise ValueError(f"the sparse method stops below {POSITION_LIMIT} heaps")
    if start == stop:
        return
    start_sparse(st, &table[0], start, stop, ks, nkinds)
    with nogil:
        n = run_sparse(&table[0], start, stop, ks, nkinds, st, &value)
    st.table = &table[0]
    st.next = n
    if n < stop:
        put(table, n, value)  # raises: the value does not fit


def extend_bounded(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, kinds, scratch,
                   int mask, counts, Py_ssize_t prefix, Py_ssize_t reach):
    """Fill table[start:stop] as extend_sparse does, reading only part of the table before start.

    For long runs whose rare heaps (under ``mask``) all lie below ``prefix``: the
    sparse method then reads G(0..prefix-1) and G(start - prefix - span..start-1)
    (span: the widest move) and nothing between, so a run may give that memory
    back.  The mask is kept (choosing one reads the whole table); ``counts`` is
    the value histogram of G(0..start-1); a search uses smaller parts below
    ``reach`` only (reach <= prefix; 0: any, the table holding every value).

    Returns (stop, None) or (n, why) with table[start:n] filled and heap n not:
    why is "reach" when its value needs a pair whose smaller part is ``reach`` or
    more, "rare" when its value is rare and n >= prefix (later heaps would need
    the values between).  Every value it writes is extend_sparse's.

    A call that goes on where the scratch's last one ended (the same table, mask
    and counts, start = the heap it returned, a prefix as large) keeps the rare
    heaps that call listed instead of reading G(0..prefix-1) again: a run calls
    it chunk after chunk, and its prefix may grow past each new rare heap.
    """
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds = load_kinds(kinds, ks)
    cdef int value
    cdef Py_ssize_t n
    cdef Scratch own = scratch_for(scratch)
    cdef Sparse* st = &own.st
    check_range(table, start, stop)
    check_bounded(&table[0], start, ks, nkinds, mask, counts, prefix, reach)
    if start == stop:
        return stop, None
    start_bounded(st, &table[0], start, stop, ks, nkinds, mask, counts, prefix, reach)
    with nogil:
        n = run_sparse(&table[0], start, stop, ks, nkinds, st, &value)
    st.next = n
    if n == stop:
        return stop, None
    if value == OUT_OF_REACH:
        return n, "reach"
    if value == RARE_PAST_PREFIX:
        return n, "rare"
    put(table, n, value)  # raises: the value does not fit


cdef int check_bounded(const nimber_t* g, Py_ssize_t start, Kind* ks, int nkinds, int mask,
                       counts, Py_ssize_t prefix, Py_ssize_t reach) except -1:
    cdef int k
    if not (MAX_SPAN < prefix <= POSITION_LIMIT and 0 <= reach <= prefix):
        raise ValueError(f"extend_bounded needs {MAX_SPAN} < prefix <= {POSITION_LIMIT} and "
                         f"0 <= reach <= prefix, not prefix {prefix} and reach {reach}")
    if not 0 < mask < VALUE_LIMIT:
        raise ValueError(f"the mask is 1 to {VALUE_LIMIT - 1}, not {mask}")
    for k in range(nkinds):
        if ks[k].span <= start and parity(constant(g, &ks[k]) & mask):
            raise ValueError(f"the mask {mask} makes an option constant common")
    if len(counts) > VALUE_LIMIT or any(c < 0 for c in counts) or sum(counts) != start:
        raise ValueError(f"counts must be the histogram of the {start} values before start")
    return 0


cdef Py_ssize_t run_sparse(nimber_t* g, Py_ssize_t start, Py_ssize_t stop, Kind* ks, int nkinds,
                           Sparse* st, int* value) noexcept nogil:
    """Fill g[start:stop] by the sparse method; the first heap whose value does not fit, or stop.

    The mask is chosen at the start, at each power of two and at each span; in
    between, past st.crew_from, a crew of threads solves the heaps (run_crew).
    """
    cdef Py_ssize_t n = start, end
    cdef int v
    st.crew_ran = 1
    st.solved_again = 0
    while n < stop:
        if n == start or (n & (n - 1)) == 0 or is_span(ks, nkinds, n):
            if st.frozen:
                st.checked_lanes = st.checked_misses = 0   # the checked share is tried anew
            else:
                choose_split(g, n, ks, nkinds, st)
        if (st.crew > 1 and st.mask and not st.narrow and n >= st.crew_from
                and st.nrare >= st.crew_rare):
            end = n + 1
            while end & (end - 1):   # the next power of two
                end &= end - 1
            end = min(stop, end << 1)
            n = run_crew(g, n, end, ks, nkinds, st, value)
            if n < end:
                return n
            continue
        if st.mask:
            st.workers[0].width = st.width
            st.workers[0].nrare = st.nrare
            v = mex_sparse(g, n, ks, nkinds, st, &st.workers[0], n)
        else:
            v = mex_plain(g, n, ks, nkinds, st.workers[0].seen, next_stamp(&st.workers[0]))
        if settle(g, n, v, st, st.counts, value):
            return n
        n += 1
    return stop


cdef bint settle(nimber_t* g, Py_ssize_t n, int v, Sparse* st, long long* counts,
                 int* value) noexcept nogil:
    """Put G(n) = v into the table and the scratch (counts, its width and rare heaps); or
    leave it and say why in value: too large for the table, OUT_OF_REACH, RARE_PAST_PREFIX."""
    if v >= VALUE_LIMIT or v < 0:
        value[0] = v
        return True
    if st.frozen and n >= st.prefix and not parity(v & st.mask):
        value[0] = RARE_PAST_PREFIX
        return True
    g[n] = v
    counts[v] += 1
    if v >= st.width:
        atomic_store_int(&st.width, next_power(v))
    if st.narrow_ok and st.width > 64:  # a value of 64 or more ends the one-hot path
        st.narrow_ok = False
        if st.narrow:   # never in a crew (its threads read st.narrow): only then written
            st.narrow = False
    if st.narrow:
        st.onehot[n] = (<word_t> 1) << v
    if st.mask and not parity(v & st.mask):
        add_rare(st, n, v)
    return False


cdef Py_ssize_t run_crew(nimber_t* g, Py_ssize_t start, Py_ssize_t stop, Kind* ks, int nkinds,
                         Sparse* st, int* value) noexcept nogil:
    """Heaps start..stop-1 by st.crew threads at once (the mask fixed); as run_sparse."""
    cdef Crew crew
    cdef int k, v
    crew.g = g
    crew.start = start
    crew.stop = stop
    crew.ks = ks
    crew.nkinds = nkinds
    crew.st = st
    st.claimed = st.published = start
    st.failed = stop
    for k in range(RING):
        st.solved[k].ready = False
    k = run_workers(st.crew, crew_work, &crew)
    st.crew_ran = max(st.crew_ran, k)
    for k in range(k):   # each worker counted the values it settled
        for v in range(st.width):
            st.counts[v] += st.workers[k].counts[v]
            st.workers[k].counts[v] = 0
    if st.failed < stop:
        value[0] = st.failed_value
    return st.failed


cdef void crew_work(void* context, int k, int crew) noexcept nogil:
    """Worker k of a crew: take the next block of st.block heaps, solve it, settle what it can.

    Heap m is solved once the values below m - st.independence - st.slack + 1
    are in the table, with those there when it starts (first_part), and waits in
    st.solved till the heaps before it are settled (settle_solved).  While a
    worker waits, it fills its groups ahead of need (fill_ahead).
    """
    cdef Crew* c = <Crew*> context
    cdef Sparse* st = c.st
    cdef Worker* w = &st.workers[k]
    cdef Py_ssize_t n, m, end, known, first = c.start - c.start % GROUP
    cdef Solved* solved
    w.next_group = first + ((k - first // GROUP) % crew + crew) % crew * GROUP
    while True:
        n = atomic_take(&st.claimed, st.block)
        if n >= c.stop:
            return
        end = min(c.stop, n + st.block)
        known = end - st.independence - st.slack
        if not wait_for(c, st, w, crew, known):
            return
        fill_ahead(c.g, st, w, crew, c.stop)
        known = max(c.start, known) if st.waited_only else atomic_load(&st.published)
        w.width = atomic_load_int(&st.width)
        w.nrare = atomic_load(&st.nrare)   # every rare heap below known, or more
        for m in range(n, end):
            solved = &st.solved[m % RING]
            solved.value = mex_sparse(c.g, m, c.ks, c.nkinds, st, w, known)
            solved.known = known
            atomic_store_int(&solved.ready, True)
        settle_solved(c, st, w)


cdef void settle_solved(Crew* c, Sparse* st, Worker* w) noexcept nogil:
    """Settle the solved heaps from st.published on, in order, till one is not solved yet.

    One worker at a time does, under st.settling; a worker that finds it held
    leaves its heaps to the holder, who looks again once it has let go (the
    fences: one of the two sees the other's store).  A heap's value stands
    unless an option it was solved without has it (left_out): then it is
    solved again, now that every value below it is in the table.
    """
    cdef Py_ssize_t m
    cdef Solved* solved
    cdef int v
    fence()
    while True:
        m = atomic_load(&st.published)
        if (m >= c.stop or atomic_load(&st.failed) < c.stop
                or not atomic_load_int(&st.solved[m % RING].ready) or not try_lock(&st.settling)):
            return
        m = st.published
        while m < c.stop and atomic_load_int(&st.solved[m % RING].ready):
            solved = &st.solved[m % RING]
            v = solved.value
            atomic_store_int(&solved.ready, False)
            if v == OUT_OF_REACH or (solved.known < m and 0 <= v < VALUE_LIMIT and left_out(
                    c.g, m, c.ks, c.nkinds, solved.known, v)):
                w.width = st.width
                w.nrare = st.nrare
                v = mex_sparse(c.g, m, c.ks, c.nkinds, st, w, m)
                st.solved_again += 1
            if settle(c.g, m, v, st, w.counts, &st.failed_value):
                atomic_store(&st.failed, m)
                break
            m += 1
        atomic_store(&st.published, m)
        unlock(&st.settling)
        fence()


cdef bint wait_for(Crew* c, Sparse* st, Worker* w, int crew, Py_ssize_t n) noexcept nogil:
    """Wait till heaps below n are settled, filling groups ahead meanwhile; False when the
    crew stopped at a heap it could not settle."""
    cdef int spins = 0
    while atomic_load(&st.published) < n:
        if atomic_load(&st.failed) < c.stop:
            return False
        if not fill_ahead(c.g, st, w, crew, c.stop):
            backoff(&spins)
    return True


cdef inline Py_ssize_t first_part(Py_ssize_t n, Kind* kinds, int nkinds,
                                  Py_ssize_t known) noexcept nogil:
    """The least smaller part of the pairs of heap n both of whose parts are below known:
    a pair with a part from known on has its smaller part below this."""
    cdef int k
    cdef Py_ssize_t first = 1
    for k in range(nkinds):
        if kinds[k].leave & 4:
            first = max(first, n - kinds[k].span - known + 1)
    return first


cdef bint left_out(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds, Py_ssize_t known,
                   int v) noexcept nogil:
    """Whether an option of heap n that mex_sparse left out, G below known only, has the
    value v (a one-part option, or a pair whose smaller part is below first_part): v
    is then not G(n), and it is whenever none has it.  Every value below n is known."""
    cdef int k, c
    cdef Py_ssize_t r, a, first = first_part(n, kinds, nkinds, known)
    for k in range(nkinds):
        r = n - kinds[k].span
        if r <= 0:
            continue
        c = constant(g, &kinds[k])
        if kinds[k].leave & 2 and g[r] ^ c == v:
            return True
        if kinds[k].leave & 4:
            for a in range(1, min(first, last_part(r, kinds[k].unequal) + 1)):
                if g[a] ^ g[r - a] ^ c == v:
                    return True
    return False


cdef inline int next_power(int value) noexcept nogil:
    """The least power of two above value: XORs of values below it stay below it."""
    cdef int p = 1
    while p <= value:
        p <<= 1
    return p


cdef inline bint is_span(Kind* kinds, int nkinds, Py_ssize_t n) noexcept nogil:
    cdef int k
    for k in range(nkinds):
        if kinds[k].span == n:
            return True
    return False


def chunk_sums(const nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop):
    """(s1, s2, largest, first) of the values v_0..v_{k-1} = table[start:stop]: Fletcher-32's
    sums of the chunk alone (s1 = sum v_i, s2 = sum (k - i) v_i, mod 65535), the largest
    value and the first index where it stands (-1 for an empty chunk)."""
    check_range(table, start, stop)
    cdef unsigned long long s1 = 0, s2 = 0
    cdef Py_ssize_t i, first = -1
    cdef int largest = -1
    cdef const nimber_t* t
    if start == stop:
        return 0, 0, -1, -1
    t = &table[0]
    with nogil:
        for i in range(start, stop):
            s1 += t[i]
            s2 += s1
            if t[i] > largest:
                largest, first = t[i], i
            if (i - start) % 4096 == 4095:   # keep the sums far from overflowing
                s1 %= 65535
                s2 %= 65535
    return <int> (s1 % 65535), <int> (s2 % 65535), largest, first


def rare_heaps(const nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, int mask):
    """(how many heaps of table[start:stop] are rare under mask, the last of them or -1)."""
    check_range(table, start, stop)
    if not 0 <= mask < VALUE_LIMIT:
        raise ValueError(f"the mask is 0 to {VALUE_LIMIT - 1}, not {mask}")
    cdef Py_ssize_t i, count = 0, last = -1
    cdef const nimber_t* t = &table[0] if stop > start else NULL
    with nogil:
        for i in range(start, stop):
            if not parity(t[i] & mask):
                count += 1
                last = i
    return count, last


def find_period(const nimber_t[::1] table, Py_ssize_t length, Py_ssize_t span):
    """The candidate period whose proof needs the fewest values, if fewer than 2 * length.

    Returns (p, n0, needed) or None; see kayles/engine/_core_pure.py for the definition.
    """
    if not 0 <= length <= table.shape[0]:
        raise ValueError(f"length {length} does not fit a table of {table.shape[0]}")
    cdef Py_ssize_t p, k, start, bound, best_n0 = 0, best_p = 0, best_needed = 2 * length
    cdef const nimber_t* t
    if length < 2:
        return None
    t = &table[0]
    with nogil:
        for p in range(1, length // 2 + 1):
            if max(2 * p + span + 1, p + span + 1) >= best_needed:
                break  # needed only grows with p
            bound = (best_needed - 2 * p - span) // 2  # n0 must be <= bound to win
            start = min(bound, length - p)
            # Is t[k] == t[k + p] for every k in [start, length - p)?  memcmp (vector
            # compares) matters: multiples of a period match far into the preperiod.
            if memcmp(t + start, t + start + p, (length - p - start) * sizeof(nimber_t)):
                continue
            k = start - 1
            while k >= 0 and t[k] == t[k + p]:
                k -= 1
            best_n0 = k + 1
            best_needed = max(2 * max(best_n0, 1) + 2 * p + span - 1, p + span + 1)
            best_p = p
    if best_p == 0:
        return None
    return best_p, best_n0, best_needed


cdef inline Py_ssize_t next_run(const unsigned char* row, Py_ssize_t n, Py_ssize_t i,
                                Py_ssize_t* first) noexcept nogil:
    """The end of the first run of pins at or after i, its start into first (equal: no run)."""
    while i < n and row[i] != PIN:
        i += 1
    first[0] = i
    while i < n and row[i] == PIN:
        i += 1
    return i


cdef Py_ssize_t scan_runs(const unsigned char* row, Py_ssize_t n, const nimber_t* g,
                          Py_ssize_t limit, int* total) noexcept nogil:
    """XOR G(run) over the runs of pins into total and return -1; or, if a run is as
    long as limit (the table's length), return that run's length and leave total."""
    cdef Py_ssize_t i = 0, first
    cdef int t = 0
    while i < n:
        i = next_run(row, n, i, &first)
        if i == first:
            break
        if i - first >= limit:
            return i - first
        t ^= g[i - first]
    total[0] = t
    return -1


cdef int row_total(const unsigned char[::1] row, const nimber_t[::1] table) except -1:
    cdef int total = 0
    cdef Py_ssize_t n = row.shape[0], limit = table.shape[0], too_long = -1
    if n:
        with nogil:
            too_long = scan_runs(&row[0], n, &table[0], limit, &total)
    if too_long >= 0:
        raise ValueError(f"a run of {too_long} pins needs a table longer than {limit}")
    return total


def row_nim_sum(const unsigned char[::1] row, const nimber_t[::1] table):
    """XOR of G(run) over the runs of 'x' in a row of b'x' and b'.'."""
    return row_total(row, table)


def row_move(const unsigned char[::1] row, const nimber_t[::1] table, kinds):
    """The seed's winning move on a row, as (first covered index, kind index), or None.

    The leftmost run whose value can be lowered; in it, the first option in
    Game.options order (smallest placement a, then the earlier kind) that reaches
    the target.  See kayles/engine/_core_pure.py.
    """
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds = load_kinds(kinds, ks)
    cdef int total = row_total(row, table), target = 0, k, found_kind = 0
    cdef Py_ssize_t a, i = 0, size = 0, first = 0, b, n = row.shape[0], found = -1
    if total == 0:
        return None
    with nogil:
        # The run holding the highest bit of the nim-sum can always be lowered.
        while i < n:
            i = next_run(&row[0], n, i, &first)
            if i == first:
                break
            size = i - first
            target = table[size] ^ total
            if target < table[size]:
                break
        # Game.options order; a < size, since on rows every kind removes a pin.
        for a in range(size):
            for k in range(nkinds):
                b = size - ks[k].span - a
                if b >= 0 and allows(&ks[k], a, b) and (
                        table[a] ^ table[b] ^ constant(&table[0], &ks[k]) == target):
                    found, found_kind = first + a, k
                    break
            if found >= 0:
                break
    if found < 0:
        raise RuntimeError(
            f"cannot happen: no option of G({size}) has value {target} (the table is wrong)"
        )
    return found, found_kind
