# cython: language_level=3
"""What the compiled kernels share: value types, the game's limits, move kinds, growth.

kayles/kernels/constants.py holds the same limits for Python (rules.py refuses a game
that does not fit); C arrays need them at compile time, so they are restated
here once, and tests/kernels/test_kernels.py checks that both twins accept exactly them.
"""

from cpython.pythread cimport (
    NOWAIT_LOCK,
    WAIT_LOCK,
    PyThread_acquire_lock,
    PyThread_type_lock,
)
from libc.stdlib cimport realloc
from libc.string cimport memset

ctypedef unsigned short nimber_t    # a Grundy value: tables are unsigned 16-bit
ctypedef unsigned int stamp_t
ctypedef unsigned int pos_t         # a heap size in the rare set: tables stop below 2**32
ctypedef unsigned long long word_t  # a one-hot set of values below 64

cdef enum:
    VALUE_LIMIT = 65536   # nimbers are stored as unsigned 16-bit integers
    MAX_KINDS = 64        # move kinds in one game (kayles/kernels/constants.py)
    MAX_KEPT = 8          # kept 'o' runs in one pattern (kayles/kernels/constants.py)
    MAX_SPAN = 64         # the widest move (kayles/kernels/constants.py)
    PIN = <int> c'x'      # a standing pin in a row (kayles/kernels/constants.py)


cdef struct Kind:           # one move kind, as rules.encode gives it
    Py_ssize_t span
    int leave               # bit i: i non-empty outer parts may remain
    bint unequal            # the two outer parts may not be equal
    Py_ssize_t kept[MAX_KEPT]   # lengths of the kept 'o' runs
    int nkept


cdef inline int load_kinds(kinds, Kind* out) except -1:
    """Copy rules.encode's tuples into out (zeros elsewhere, so two loads of the same kinds
    compare equal byte for byte); the number of kinds, or ValueError past a limit."""
    cdef int k = 0, h
    if len(kinds) > MAX_KINDS:
        raise ValueError(f"at most {MAX_KINDS} move kinds")
    memset(out, 0, len(kinds) * sizeof(Kind))
    for span, kept, leave, unequal in kinds:
        if len(kept) > MAX_KEPT:
            raise ValueError(f"at most {MAX_KEPT} kept runs in one pattern")
        if not 0 <= span <= MAX_SPAN:
            raise ValueError(f"a move spans at most {MAX_SPAN} tokens")
        out[k].span = span
        out[k].leave = leave
        out[k].unequal = unequal
        out[k].nkept = len(kept)
        for h in range(out[k].nkept):
            out[k].kept[h] = kept[h]
        k += 1
    return k


cdef inline bint allows(const Kind* kind, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """Whether outer parts a and b may remain: rules.MoveKind.allows, on flat data."""
    return (kind.leave >> ((a > 0) + (b > 0))) & 1 and not (kind.unequal and a == b > 0)


cdef inline int constant(const nimber_t* g, const Kind* kind) noexcept nogil:
    """XOR of G over the kept runs: the part of an option's value its kind fixes."""
    cdef int c = 0, h
    for h in range(kind.nkept):
        c ^= g[kind.kept[h]]
    return c


cdef inline int grow(void** items, Py_ssize_t* room, Py_ssize_t count, size_t size) noexcept nogil:
    """Make room for count items of size bytes in items[0], at least doubling the room.

    The one way every kernel buffer grows (realloc keeps what it holds).  0, or
    -1 when the memory ran out (items and room are then as they were).
    """
    cdef void* grown
    if count <= room[0]:
        return 0
    if count < 2 * room[0]:
        count = 2 * room[0]
    if <size_t> count > (<size_t> -1) // size:
        return -1
    grown = realloc(items[0], count * size)
    if grown == NULL:
        return -1
    items[0] = grown
    room[0] = count
    return 0


cdef inline int reserve(void** items, Py_ssize_t* room, Py_ssize_t count,
                        size_t size) except -1 nogil:
    """grow(), raising MemoryError when the memory ran out (with or without the GIL)."""
    if grow(items, room, count, size):
        with gil:
            raise MemoryError()
    return 0


cdef inline int hold(PyThread_type_lock lock) except -1:
    """Take a kernel object's lock for one call: at once when it is free, else waiting
    without the GIL while another thread's call has it (PyThread_release_lock gives it back)."""
    if not PyThread_acquire_lock(lock, NOWAIT_LOCK):
        with nogil:
            PyThread_acquire_lock(lock, WAIT_LOCK)
    return 0
