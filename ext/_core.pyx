# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled kernels of nim-sequences: Grundy tables, masks, periods, and row moves.

kayles/kernels/pure/_core.py is the twin: same names, arguments, results and errors.
Tables are writable buffers of unsigned 16-bit nimbers; kinds are the tuples of
rules.encode: (span, kept, leave_mask, unequal).  The vector loops are C
(ext/src/, declared in ext/_kernels.pxd); the shared types, limits and move
kinds are in ext/_common.pxd.

The work is in parts, each explaining its own steps (ext/core/): plain.pxi (the plain
scan), masks.pxi (the rare mask), rare_pass.pxi (step 1), search.pxi (steps 2 and 3),
sparse.pxi (runs of the sparse method, bounded runs), crews.pxi (several threads),
periods_and_rows.pxi (periods, chunk sums, row moves).  They are one extension module,
so the per-heap path inlines across them; this file declares the state they share.
The sparse-space method in short (Berlekamp; Flammenkamp): under a mask M a value is
common when popcount(v & M) is odd, rare when even; a common option needs a rare part,
so when rare heaps are few G(n) is found from the pairs with a rare part, and the rare
values below the least unmarked common one are confirmed by a search.  The result is
exact whatever the mask: the mask only decides the speed.
"""

from cpython.ref cimport PyObject
from cpython.pythread cimport (
    PyThread_allocate_lock,
    PyThread_free_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)
from libc.stdlib cimport calloc, free
from libc.string cimport memcmp, memcpy, memset

from _common cimport (
    MAX_KEPT,
    MAX_KINDS,
    MAX_SPAN,
    PIN,
    VALUE_LIMIT,
    Kind,
    allows,
    constant,
    grow,
    hold,
    load_kinds,
    nimber_t,
    pos_t,
    reserve,
    stamp_t,
    word_t,
)
from _kernels cimport *


cdef extern from "Python.h":
    # declared bare (no Cython error handling): an exception they raise stays set for the
    # call's def to raise (see signalled)
    int PyErr_CheckSignals()   # -1 with the handler's exception set
    PyObject* PyObject_CallNoArgs(object callable)   # NULL with the exception set
    void Py_DecRef(PyObject* result)
from kayles.kernels import limits as _limits
from kayles._environ import getenv

if _limits.THREADS.high != MAX_THREADS:  # one limit, stated for C (kernels.h) and Python
    raise ImportError(f"kernels.h allows {MAX_THREADS} threads, kayles/kernels/constants.py "
                      f"{_limits.THREADS.high}: rebuild")

# What this module was built with, for tests/kernels/test_constants.py to compare with
# kayles/kernels/constants.py (their one home in Python).
CONSTANTS = {"VALUE_LIMIT": VALUE_LIMIT, "MAX_KINDS": MAX_KINDS, "MAX_KEPT": MAX_KEPT,
             "MAX_SPAN": MAX_SPAN, "PIN": PIN, "MAX_THREADS": MAX_THREADS}


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
    INTERRUPTED = -4      # run_sparse, run_plain: a signal handler raised (see signalled)
    SIGNAL_WORK = 1 << 25 # pairs (or so) between looks at signals: some 10-50 ms of work
    CREW_STRETCH = 1 << 18  # a crew's stretch ends here at the latest (signals get looked at)
    HEAP_PARITY = VALUE_LIMIT  # a mask's bit above every value: the heap's parity counts too
    PARITY_SHIFT = 16          # (HEAP_PARITY == 1 << PARITY_SHIFT; see masks.pxi)
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
    DENSE_MIN = 4096      # the dense path (dense.pxi) marks every pair of a split this short,
    DENSE_SHARE = 128     # ... else first a share of DENSE_SHARE/1024 (then the worker's own,
    DENSE_SHARE_MAX = 960 # ... at most this: a heap's sweep is what tells the share to shrink),
    DENSE_HIT = 64        # ... a value found costing as much as marking DENSE_HIT / 3 pairs,
    DENSE_STREAK = 8      # ... shrinking the share after this many cheap heaps in a row,
    DENSE_WINDOWS = 4     # ... and sweeping at most this many windows a heap


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
    int dense_share       # the dense path marks dense_share/1024 of a heap's pairs first,
    int dense_streak      # ... heaps in a row whose sweep was cheap (dense.pxi)
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
    int mask              # 0: no saving split, the dense path (may hold HEAP_PARITY)
    word_t low_common     # bit i: i is common under the mask's values (i < 64)
    int split_parity      # the two-part kinds' span parity, if they share one (else -1:
                          # no mask holds HEAP_PARITY)
    pos_t* rare           # the rare positions, ascending
    nimber_t* rare_values # G at those positions
    Py_ssize_t nrare
    Py_ssize_t rare_room, rare_values_room
    int width             # a power of two above every value so far
    long long* counts     # the histogram of the table so far (zeros from width on)
    long long* spectrum   # choose_mask's transforms: heaps by (value, class), distinct
    long long* present    # ... values, distinct (value, class) pairs
    long long* present_pairs
    long long* odd        # ... and the histogram of the heaps of class 1 (masks.pxi),
    Py_ssize_t odd_upto   # ... over the heaps below this
    long long work        # pairs (or so) since the last look at signals
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


cdef Py_ssize_t POSITION_LIMIT = 0xFFFFFFFF  # rare positions are unsigned 32-bit integers


# The instruction sets the sparse method's vector steps can use on this CPU, fastest first.
VECTORS = tuple(name for name in ("avx512bw", "avx2", PORTABLE.decode())
                if vectors_named(name.encode()) != NULL)


def default_vector():
    """The instruction set of a scratch that names none: KAYLES_VECTOR where it is set
    (one of VECTORS: to time or check a slower set on a CPU that has a faster one), else
    the fastest here.  ValueError for a set this CPU or build lacks."""
    name = getenv("KAYLES_VECTOR")
    if not name:
        return VECTORS[0]
    if name not in VECTORS:
        raise ValueError(f"KAYLES_VECTOR must be one of {', '.join(VECTORS)} on this "
                         f"machine, not {name!r}")
    return name


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
    VECTORS (default: default_vector(), the fastest this CPU runs unless
    KAYLES_VECTOR names another); only the speed depends on it.

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

    One call at a time uses a scratch: a call from another thread waits for the
    one under way to end (its lock), so sharing a scratch is safe, only not
    parallel.
    """

    cdef Sparse st
    cdef PyThread_type_lock lock

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
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError()
        name = vector or default_vector()
        self.st.vec = vectors_named(name.encode())
        self.st.threads = threads
        self.st.cores = cores or kayles_cores()
        self.st.crew = self.st.crew_ran = 1
        self.st.crew_from = PARALLEL_FROM if crew_from is None else crew_from
        self.st.crew_rare = CREW_RARE if crew_rare is None else crew_rare
        self.st.waited_only = waited_only
        self.st.workers = <Worker*> calloc(threads, sizeof(Worker))
        self.st.counts = <long long*> calloc(VALUE_LIMIT, sizeof(long long))
        self.st.spectrum = <long long*> calloc(2 * VALUE_LIMIT, sizeof(long long))
        self.st.present = <long long*> calloc(VALUE_LIMIT, sizeof(long long))
        self.st.present_pairs = <long long*> calloc(2 * VALUE_LIMIT, sizeof(long long))
        self.st.odd = <long long*> calloc(VALUE_LIMIT, sizeof(long long))
        self.st.split_parity = -1
        if not (self.st.workers and self.st.counts and self.st.spectrum and self.st.present
                and self.st.present_pairs and self.st.odd):
            raise MemoryError()
        hire(&self.st, 1)

    @property
    def vector(self):
        """The instruction set of its vector steps (one of VECTORS)."""
        return self.st.vec.name.decode()

    @property
    def threads(self):
        """The threads asked for."""
        return self.st.threads

    @property
    def cores(self):
        """How many threads a call may run at once (a crew is never larger), at most the
        cores this process may run on unless given.  Settable between calls, 1 to
        MAX_THREADS: the next call's crew follows it, and a call that goes on keeps its
        rare heaps (a sequence runs one thread where other processes keep the cores busy,
        and its crew again where they are free)."""
        return self.st.cores

    @cores.setter
    def cores(self, value):
        _limits.CORES.check(value)
        self.hold()  # not while a call runs
        self.st.cores = value
        self.let_go()

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
        (mask 0: the dense path, dense.pxi)."""
        if self.st.mask <= 0:
            return 0, 0, -1
        return (self.st.mask, self.st.nrare,
                self.st.rare[self.st.nrare - 1] if self.st.nrare else -1)

    cdef int hold(self) except -1:
        """Take the scratch for one call (see the lock); the call gives it back with let_go,
        whatever happens."""
        return hold(self.lock)

    cdef void let_go(self) noexcept:
        PyThread_release_lock(self.lock)

    def __dealloc__(self):
        if self.lock != NULL:
            PyThread_free_lock(self.lock)
        if self.st.workers:
            for k in range(self.st.threads):
                free(self.st.workers[k].seen)
                free(self.st.workers[k].pending)
                free(self.st.workers[k].counts)
            free(self.st.workers)
        free(self.st.counts)
        free(self.st.spectrum)
        free(self.st.present)
        free(self.st.present_pairs)
        free(self.st.odd)
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
        if not st.workers[k].dense_share:
            st.workers[k].dense_share = DENSE_SHARE
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


cdef Scratch open_call(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, kinds,
                       scratch, Kind* ks, int* nkinds):
    """How every extend_* opens, in the twin's order: the kinds loaded into ks (their count
    in nkinds), the scratch (one of its own when None), the range checked."""
    nkinds[0] = load_kinds(kinds, ks)
    cdef Scratch own = scratch_for(scratch)
    check_range(table, start, stop)
    return own


cdef int check_range(const nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop) except -1:
    if not 0 <= start <= stop <= table.shape[0]:
        raise ValueError(f"range {start}:{stop} does not fit a table of {table.shape[0]}")
    return 0


cdef bint signalled(Sparse* st, long long work) noexcept nogil:
    """Whether a signal's Python handler raised (Ctrl-C's KeyboardInterrupt, a command's
    Terminated): looked at once SIGNAL_WORK pairs have been done since the last look, so a
    long call answers Ctrl-C and SIGTERM within a fraction of a second.  A handler that only
    takes note (a long run's) lets the call go on.  Then the interrupt hook of
    kayles.kernels.limits (a server's time cap), which raises to end the call.  The exception
    stays set for the call's def to raise (raise_signalled); only the main thread runs
    handlers (others: never), the hook runs in any."""
    cdef PyObject* result
    st.work += work
    if st.work < SIGNAL_WORK:
        return False
    st.work = 0
    with gil:
        if PyErr_CheckSignals() != 0:
            return True
        result = PyObject_CallNoArgs(_limits.interrupt)
        if result == NULL:
            return True
        Py_DecRef(result)
        return False


cdef int raise_signalled() except -1:
    """Raise the exception a signal handler set during the call (see signalled)."""
    return -1


cdef int put(nimber_t[::1] table, Py_ssize_t n, int value) except -1:
    if value >= VALUE_LIMIT:
        raise OverflowError(f"G({n}) = {value} does not fit the 16-bit table")
    table[n] = value
    return 0


include "core/plain.pxi"
include "core/masks.pxi"
include "core/rare_pass.pxi"
include "core/search.pxi"
include "core/dense.pxi"
include "core/sparse.pxi"
include "core/crews.pxi"
include "core/periods_and_rows.pxi"
