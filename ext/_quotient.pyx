# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled misère-quotient kernels: state walks, marking, minimization.

kayles/kernels/pure/_quotient.py is the twin (same names, results, order of work and errors) and
says what they compute.  Here a state is an element ``x`` and a set ``U`` kept as its
sorted elements (a state costs 4 bytes per element of U, not a bit per element of the
monoid), in one arena; an open-addressing table (linear probing, at most half full)
finds a state's index.  ``mark`` and ``least_failure`` walk positions in
the twin's order (its ``_lex_walk``) with one frame per behaviour instead of callbacks;
``minimize`` names rows through an open-addressing table of its own.  Their loops run
without the GIL, taking it back every SIGNAL_STEPS steps (``minimize``: every round and
every 16 * SIGNAL_STEPS states; ``columns``: every column; ``reach`` and ``collapse``: every
16 * SIGNAL_STEPS elements) to look at Ctrl-C and at the interrupt hook, and to raise.
"""

from array import array

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort
from libc.string cimport memcmp, memcpy, memset

from _common cimport reserve

from kayles.kernels import checks as _args
from kayles.kernels import limits as _limits
from kayles.kernels.constants import STATE_ENTRIES as _STATE_ENTRIES

cdef Py_ssize_t STATE_ENTRIES = _STATE_ENTRIES  # a stored state's room besides its set


cdef int entries(const int[::1] values, Py_ssize_t limit, str what) except -1:
    """Every entry of values is 0 to limit - 1 (the pure twin's check_entries, in C)."""
    cdef Py_ssize_t i
    for i in range(values.shape[0]):
        if not 0 <= values[i] < limit:
            raise _args.out_of_range(what, limit)
    return 0

cdef int flag_entries(const unsigned char[::1] p, int high) except -1:
    """Every P-portion flag is 0 to high (the pure twin's check of them, in C: no wait
    with the GIL held on millions of flags)."""
    cdef Py_ssize_t i, bad = -1
    with nogil:
        for i in range(p.shape[0]):
            if p[i] > high:
                bad = i
                break
    if bad >= 0:
        raise _args.out_of_range("a flag", high + 1)
    return 0


cdef enum:
    FIRST_SLOTS = 1024  # a power of two
    SIGNAL_STEPS = 4096


cdef int look() except -1 nogil:
    """Look at Ctrl-C and at the interrupt hook (a server's time cap), either of which
    raises to end the call; the GIL is taken for that alone."""
    with gil:
        PyErr_CheckSignals()
        _limits.interrupt()
    return 0


cdef struct Store:
    Py_ssize_t count      # states stored
    Py_ssize_t room       # states xs holds
    Py_ssize_t kroom      # states keys holds
    Py_ssize_t sroom      # entries start holds
    Py_ssize_t used       # set elements stored
    Py_ssize_t iroom      # set elements items holds
    Py_ssize_t slots      # table size (a power of two)
    int* xs
    uint64_t* keys        # each state's hash (set_key)
    Py_ssize_t* start     # state i's set: items[start[i] : start[i + 1]], in no order
    int* items
    Py_ssize_t* table     # slot -> state index, or -1


# Stamps over the elements: a set is the elements stamped with the current mark, so sets
# are compared and freed of repeats without sorting them.
cdef struct Marks:
    int* stamp
    int mark


cdef int marks_open(Marks* m, Py_ssize_t n) except -1:
    m.stamp = <int*>calloc(n + 1, sizeof(int))
    m.mark = 0
    if m.stamp == NULL:
        raise MemoryError()
    return 0


cdef inline void marks_next(Marks* m, Py_ssize_t n) noexcept nogil:
    m.mark += 1
    if m.mark == 0x7FFFFFFF:
        memset(m.stamp, 0, (n + 1) * sizeof(int))
        m.mark = 1


cdef inline uint64_t element_hash(int e) noexcept nogil:
    cdef uint64_t h = (<uint64_t><unsigned int>e + 1) * 0x9E3779B97F4A7C15ULL
    h ^= h >> 31
    h *= 0xBF58476D1CE4E5B9ULL
    return h ^ (h >> 29)


cdef inline uint64_t set_key(int x, uint64_t total, Py_ssize_t length) noexcept nogil:
    """A state's hash from its element x and the sum of its set's element hashes (a sum: the
    same in any order)."""
    cdef uint64_t h = total ^ (<uint64_t>x * 0x632BE59BD9B4E019ULL) ^ <uint64_t>length
    h *= 0x94D049BB133111EBULL
    return h ^ (h >> 31)


cdef uint64_t stamp_set(Marks* m, Py_ssize_t n, int x, const int* u,
                        Py_ssize_t length) noexcept nogil:
    """Stamp a set of distinct elements with a new mark; returns its state's key."""
    cdef uint64_t total = 0
    cdef Py_ssize_t i
    marks_next(m, n)
    for i in range(length):
        m.stamp[u[i]] = m.mark
        total += element_hash(u[i])
    return set_key(x, total, length)


cdef int store_open(Store* s) except -1:
    s.count = s.room = s.kroom = s.sroom = s.used = s.iroom = 0
    s.slots = FIRST_SLOTS
    s.xs = NULL
    s.keys = NULL
    s.items = NULL
    s.start = NULL
    reserve(<void**>&s.start, &s.sroom, 1, sizeof(Py_ssize_t))
    s.start[0] = 0
    s.table = <Py_ssize_t*>malloc(FIRST_SLOTS * sizeof(Py_ssize_t))
    if s.table == NULL:
        raise MemoryError()
    memset(s.table, 0xFF, FIRST_SLOTS * sizeof(Py_ssize_t))
    return 0


cdef void store_close(Store* s) noexcept:
    free(s.xs)
    free(s.keys)
    free(s.start)
    free(s.items)
    free(s.table)


cdef int store_grow_table(Store* s) except -1 nogil:
    cdef Py_ssize_t slots = s.slots * 2, i, k
    cdef Py_ssize_t* table = <Py_ssize_t*>malloc(slots * sizeof(Py_ssize_t))
    if table == NULL:
        with gil:
            raise MemoryError()
    memset(table, 0xFF, slots * sizeof(Py_ssize_t))
    for i in range(s.count):
        k = <Py_ssize_t>(s.keys[i] & <uint64_t>(slots - 1))
        while table[k] >= 0:
            k = (k + 1) & (slots - 1)
        table[k] = i
    free(s.table)
    s.table = table
    s.slots = slots
    return 0


cdef inline bint same_set(Store* s, Py_ssize_t i, const Marks* m) noexcept nogil:
    """Whether state i's set is the stamped one (their sizes already agree)."""
    cdef Py_ssize_t j
    for j in range(s.start[i], s.start[i + 1]):
        if m.stamp[s.items[j]] != m.mark:
            return False
    return True


cdef Py_ssize_t store_add(Store* s, int x, const int* u, Py_ssize_t length, uint64_t key,
                          const Marks* m, bint* new) except -1 nogil:
    """The index of state (x, u): u the set stamped last in m, ``key`` its set_key; stored
    first if new (then ``new[0]`` is set)."""
    cdef Py_ssize_t k, i
    k = <Py_ssize_t>(key & <uint64_t>(s.slots - 1))
    while True:
        i = s.table[k]
        if i < 0:
            break
        if (s.keys[i] == key and s.xs[i] == x and s.start[i + 1] - s.start[i] == length
                and same_set(s, i, m)):
            new[0] = False
            return i
        k = (k + 1) & (s.slots - 1)
    reserve(<void**>&s.xs, &s.room, s.count + 1, sizeof(int))
    reserve(<void**>&s.keys, &s.kroom, s.count + 1, sizeof(uint64_t))
    reserve(<void**>&s.start, &s.sroom, s.count + 2, sizeof(Py_ssize_t))
    reserve(<void**>&s.items, &s.iroom, s.used + length + 1, sizeof(int))
    i = s.count
    s.xs[i] = x
    s.keys[i] = key
    memcpy(s.items + s.used, u, length * sizeof(int))
    s.used += length
    s.start[i + 1] = s.used
    s.count += 1
    s.table[k] = i
    new[0] = True
    if s.count * 2 > s.slots:
        store_grow_table(s)
    return i


cdef struct Flat:   # _Behaviours' arrays, for the walks without the GIL
    int count
    int widest        # the most options of one behaviour
    Py_ssize_t stride
    int* g
    int* start
    int* items
    int* columns      # columns[b * n + e] = e g_b


cdef class _Behaviours:
    """The heaps' behaviours as flat arrays: images, and options' images (CSR), as columns
    of a table with rows of ``stride`` entries (see kayles/kernels/pure/_quotient.py)."""
    cdef int count
    cdef int widest  # the most options of one behaviour
    cdef Py_ssize_t stride
    cdef int* g
    cdef int* start
    cdef int* items
    cdef int* columns  # columns[b * n + e] = e g_b

    cdef Flat flat(self):
        cdef Flat f
        f.count, f.widest, f.stride = self.count, self.widest, self.stride
        f.g, f.start, f.items, f.columns = self.g, self.start, self.items, self.columns
        return f

    def __cinit__(self, const int[::1] table, int n, behaviours, Py_ssize_t stride):
        cdef int b, e, k = 0, total = 0
        self.count = len(behaviours)
        self.stride = stride
        self.widest = 0
        if table.shape[0] != n * stride:
            raise ValueError("the table does not have n rows of stride entries")
        for _, options in behaviours:
            total += len(options)
            self.widest = max(self.widest, len(options))
        self.g = <int*>malloc((self.count + 1) * sizeof(int))
        self.start = <int*>malloc((self.count + 1) * sizeof(int))
        self.items = <int*>malloc((total + 1) * sizeof(int))
        self.columns = <int*>malloc((<Py_ssize_t>self.count * n + 1) * sizeof(int))
        if self.g == NULL or self.start == NULL or self.items == NULL or self.columns == NULL:
            raise MemoryError()
        for b, (g, options) in enumerate(behaviours):
            self.g[b] = g
            self.start[b] = k
            for t in options:
                self.items[k] = t
                k += 1
            for e in range(n):
                self.columns[<Py_ssize_t>b * n + e] = table[e * stride + g]
        self.start[self.count] = k

    def __dealloc__(self):
        free(self.g)
        free(self.start)
        free(self.items)
        free(self.columns)


cdef int compare_ints(const void* a, const void* b) noexcept nogil:
    cdef int x = (<const int*>a)[0], y = (<const int*>b)[0]
    return (x > y) - (x < y)


cdef inline Py_ssize_t successor(const int* table, int n, const Flat* beh, int b, int x,
                                 const int* u, Py_ssize_t length, int* out, int* y,
                                 Marks* m, uint64_t* key) noexcept nogil:
    """Write g_b U + x T_b into ``out`` (no repeats, in no order; stamped in m), x g_b into
    ``y`` and the state's set_key into ``key``; returns the set's size.  ``out`` holds
    length + beh.widest entries."""
    cdef Py_ssize_t i, count = 0
    cdef int k, e
    cdef uint64_t total = 0
    cdef const int* column = beh.columns + <Py_ssize_t>b * n
    marks_next(m, n)
    for i in range(length):
        e = column[u[i]]
        if m.stamp[e] != m.mark:
            m.stamp[e] = m.mark
            out[count] = e
            count += 1
            total += element_hash(e)
    for k in range(beh.start[b], beh.start[b + 1]):
        e = table[x * beh.stride + beh.items[k]]
        if m.stamp[e] != m.mark:
            m.stamp[e] = m.mark
            out[count] = e
            count += 1
            total += element_hash(e)
    y[0] = table[x * beh.stride + beh.g[b]]
    key[0] = set_key(y[0], total, count)
    return count


cdef inline bint meets(const int* u, Py_ssize_t length, const unsigned char* p,
                       int value) noexcept nogil:
    """Whether some element of the set has the flag ``value``."""
    cdef Py_ssize_t i
    for i in range(length):
        if p[u[i]] == value:
            return True
    return False


cdef int* scratch_for(int n, _Behaviours beh) noexcept:
    """A set buffer: any set of elements, plus one behaviour's options before repeats go
    (NULL where there is no memory: the caller raises inside its try, which frees it)."""
    return <int*>malloc((<Py_ssize_t>n + beh.widest + 1) * sizeof(int))


cdef int check_sets(const int[::1] us, Py_ssize_t count, Py_ssize_t n) except -1:
    """The pure twin's check_sets, in C (the same errors, in the same order)."""
    cdef Py_ssize_t at = 0, i, k, length = us.shape[0]
    for i in range(count):
        if at >= length or not 0 <= us[at] <= n or at + 1 + us[at] > length:
            raise _args.bad_sets()
        for k in range(at + 1, at + 1 + us[at]):
            if not 0 <= us[k] < n:
                raise _args.out_of_range("a known state's element", n)
        for k in range(at + 2, at + 1 + us[at]):
            if us[k - 1] >= us[k]:
                raise ValueError("a known state's elements must increase")
        at += 1 + us[at]
    if at != length:
        raise _args.bad_sets()
    return 0


cdef int tree_entries(const int[::1] trans, Py_ssize_t n) except -1:
    """The checks of for_candidates and for_columns that read the whole transition table."""
    entries(trans, n, "a transition's element")
    return 0


cdef Py_ssize_t path_of(const int[::1] parent, const int[::1] letter, Py_ssize_t y,
                        int* path) noexcept nogil:
    """y's letters from 0, first letter first, into ``path``; returns their count."""
    cdef Py_ssize_t length = 0, i
    cdef int swap
    while y:
        path[length] = letter[y]
        length += 1
        y = parent[y]
    for i in range(length // 2):
        swap = path[i]
        path[i] = path[length - 1 - i]
        path[length - 1 - i] = swap
    return length


def candidates(const int[::1] trans, Py_ssize_t width, const int[::1] parent,
               const int[::1] letter, const unsigned char[::1] p, const int[::1] table,
               Py_ssize_t stride, options, bint lost):
    """See kayles/kernels/pure/_quotient.py."""
    cdef const int[::1] option_columns = _args.for_candidates(trans, width, parent, letter, p,
                                                              table, stride, options, None)
    cdef Py_ssize_t n = parent.shape[0], count = len(option_columns), x, y, k, a, length
    cdef Py_ssize_t losers = 0
    tree_entries(trans, n)
    entries(table, n, "a product")
    flag_entries(p, 1)
    cdef int* option = <int*>malloc((count + 1) * sizeof(int))
    cdef int* losing = <int*>malloc((n + 1) * sizeof(int))
    cdef int* path = <int*>malloc((n + 1) * sizeof(int))
    cdef int* chosen = <int*>malloc((n + 1) * sizeof(int))
    cdef Py_ssize_t nchosen = 0
    cdef int z
    try:
        if option == NULL or losing == NULL or path == NULL or chosen == NULL:
            raise MemoryError()
        for k in range(count):
            option[k] = option_columns[k]
        for y in range(n):
            for k in range(count):
                if p[table[y * stride + option[k]]]:
                    losing[losers] = <int>y
                    losers += 1
                    break
        with nogil:
            for x in range(n):
                if (x & (SIGNAL_STEPS - 1)) == 0:
                    look()
                if (p[x] != 0) != lost:
                    continue
                length = path_of(parent, letter, x, path)
                for y in range(losers):
                    z = losing[y]
                    for a in range(length):
                        z = trans[z * width + path[a]]
                    if p[z]:
                        break
                else:
                    chosen[nchosen] = <int>x
                    nchosen += 1
        found = array("i")
        found.frombytes((<char*>chosen)[:nchosen * sizeof(int)])
        return found
    finally:
        free(option)
        free(losing)
        free(path)
        free(chosen)


def grow(const int[::1] table, Py_ssize_t n, Py_ssize_t stride, const unsigned char[::1] p,
         behaviours, xs, us, int first, Py_ssize_t limit, Py_ssize_t room):
    """See kayles/kernels/pure/_quotient.py."""
    behaviours = _args.for_walk(table, n, p, behaviours, limit, stride, entries=None)
    xs, us = _args.for_grow(n, behaviours, xs, us, first, room, None)
    entries(table, n, "a product")
    flag_entries(p, 1)
    cdef _Behaviours beh = _Behaviours(table, n, behaviours, stride)
    cdef const int[::1] images = xs
    cdef Py_ssize_t s = 0, known = images.shape[0], i, found, length, at = 0, k
    cdef const int[::1] sets = us
    check_sets(sets, known, n)
    cdef Store store
    cdef Marks marks
    cdef int* scratch = scratch_for(n, beh)
    cdef int* here = scratch_for(n, beh)
    cdef int[::1] out
    cdef int b, x, y
    cdef uint64_t key
    cdef bint new, broken = False
    cdef Flat flat = beh.flat()
    cdef const int* products = &table[0]
    cdef const unsigned char* flags = &p[0]
    store.table = store.xs = store.keys = store.start = store.items = NULL
    marks.stamp = NULL
    try:
        if scratch == NULL or here == NULL:
            raise MemoryError()
        store_open(&store)
        marks_open(&marks, n)
        if known == 0:
            store_add(&store, 0, scratch, 0, stamp_set(&marks, n, 0, scratch, 0), &marks,
                      &new)
            broken = p[0] != 0
        for i in range(known):
            length = sets[at]
            for k in range(length):
                scratch[k] = sets[at + 1 + k]
            key = stamp_set(&marks, n, images[i], scratch, length)
            store_add(&store, images[i], scratch, length, key, &marks, &new)
            at += 1 + length
        with nogil:
            while s < store.count and not broken:
                if (s & (SIGNAL_STEPS - 1)) == 0:
                    look()
                x = store.xs[s]
                length = store.start[s + 1] - store.start[s]
                memcpy(here, store.items + store.start[s], length * sizeof(int))
                for b in range(first if s < known else 0, flat.count):
                    k = successor(products, n, &flat, b, x, here, length, scratch, &y, &marks,
                                  &key)
                    found = store_add(&store, y, scratch, k, key, &marks, &new)
                    if new:
                        if found >= limit:
                            with gil:
                                raise ValueError(f"more than {limit} states")
                        if store.count * STATE_ENTRIES + store.used > room:
                            with gil:
                                raise ValueError(f"more than {room} entries of states")
                        if (flags[y] != 0) == meets(scratch, k, flags, 1):
                            broken = True
                            break
                s += 1
        out_sets = array("i", [0]) * (store.count + store.used)
        out = out_sets
        at = 0
        for i in range(store.count):
            length = store.start[i + 1] - store.start[i]
            out[at] = <int>length
            memcpy(&out[at + 1], store.items + store.start[i], length * sizeof(int))
            qsort(&out[at + 1], length, sizeof(int), compare_ints)  # the sets, sorted
            at += 1 + length
        out_xs = array("i")
        out_xs.frombytes((<char*>store.xs)[:store.count * sizeof(int)])
        return broken, out_xs, out_sets
    finally:
        store_close(&store)
        free(marks.stamp)
        free(scratch)
        free(here)


cdef inline void settle_flag(unsigned char* p, int x, const int* u,
                             Py_ssize_t length) noexcept nogil:
    """x's flag from its least position's options' images u (flags 0 or 1 are kept)."""
    if p[x] == 2:
        p[x] = length > 0 and not meets(u, length, p, 1)


def mark(const int[::1] table, Py_ssize_t n, Py_ssize_t stride, unsigned char[::1] p, behaviours,
         Py_ssize_t limit):
    """See kayles/kernels/pure/_quotient.py (the walk of _lex_walk, with frames per depth)."""
    behaviours = _args.for_walk(table, n, p, behaviours, limit, stride, 2, None)
    entries(table, n, "a product")
    flag_entries(p, 2)
    cdef _Behaviours beh = _Behaviours(table, n, behaviours, stride)
    cdef Py_ssize_t visits = 1, width = beh.count, d, k, length = 0
    cdef unsigned char* seen = <unsigned char*>malloc(n + 1)
    cdef int* at = <int*>malloc((width + 1) * sizeof(int))              # each depth's element
    cdef Py_ssize_t* sizes = <Py_ssize_t*>calloc(width + 1, sizeof(Py_ssize_t))
    cdef Py_ssize_t* rooms = <Py_ssize_t*>calloc(width + 1, sizeof(Py_ssize_t))
    cdef int** sets = <int**>calloc(width + 1, sizeof(int*))            # each depth's set
    cdef int* scratch = scratch_for(<int>n, beh)
    cdef Marks marks
    cdef uint64_t key
    cdef int y = 0
    cdef Flat flat = beh.flat()
    cdef const int* products = &table[0]
    cdef unsigned char* flags = &p[0]
    marks.stamp = NULL
    try:
        if (seen == NULL or at == NULL or sizes == NULL or rooms == NULL or sets == NULL
                or scratch == NULL):
            raise MemoryError()
        marks_open(&marks, n)
        memset(seen, 0, n + 1)
        for d in range(width):
            at[d] = 0
        seen[0] = 1
        settle_flag(flags, 0, scratch, 0)
        with nogil:
            while True:
                d = 0
                while d < width:
                    length = successor(products, <int>n, &flat, <int>d, at[d], sets[d],
                                       sizes[d], scratch, &y, &marks, &key)
                    if not seen[y]:
                        break
                    d += 1
                if d == width:
                    break   # every position walked
                visits += 1
                if visits > limit:
                    with gil:
                        raise ValueError(f"more than {limit} states")
                if (visits & (SIGNAL_STEPS - 1)) == 0:
                    look()
                for k in range(d + 1):
                    at[k] = y
                    reserve(<void**>&sets[k], &rooms[k], length + 1, sizeof(int))
                    memcpy(sets[k], scratch, length * sizeof(int))
                    sizes[k] = length
                seen[y] = 1
                settle_flag(flags, y, scratch, length)
    finally:
        if sets != NULL:
            for d in range(width + 1):
                free(sets[d])
        free(seen)
        free(at)
        free(sizes)
        free(rooms)
        free(sets)
        free(scratch)
        free(marks.stamp)


def least_failure(const int[::1] table, Py_ssize_t n, Py_ssize_t stride,
                  const unsigned char[::1] p, behaviours, Py_ssize_t limit, Py_ssize_t room):
    """See kayles/kernels/pure/_quotient.py (the walk of _lex_walk, over stored states)."""
    behaviours = _args.for_walk(table, n, p, behaviours, limit, stride, entries=None)
    _args.check_room(room)
    entries(table, n, "a product")
    flag_entries(p, 1)
    cdef _Behaviours beh = _Behaviours(table, n, behaviours, stride)
    cdef Py_ssize_t width = beh.count, d, k, s = 0, seen_room = 0, i, length, size = 0
    cdef Store store
    cdef Marks marks
    cdef unsigned char* seen = NULL
    cdef Py_ssize_t* at = <Py_ssize_t*>malloc((width + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* counts = <Py_ssize_t*>malloc((width + 1) * sizeof(Py_ssize_t))
    cdef int* scratch = scratch_for(<int>n, beh)
    cdef int* here = scratch_for(<int>n, beh)
    cdef int y = 0
    cdef uint64_t key
    cdef bint new, failed = False
    cdef Flat flat = beh.flat()
    cdef const int* products = &table[0]
    cdef const unsigned char* flags = &p[0]
    store.table = store.xs = store.keys = store.start = store.items = NULL
    marks.stamp = NULL
    try:
        if at == NULL or counts == NULL or scratch == NULL or here == NULL:
            raise MemoryError()
        store_open(&store)
        marks_open(&marks, n)
        store_add(&store, 0, scratch, 0, stamp_set(&marks, n, 0, scratch, 0), &marks, &new)
        if p[0]:
            return []
        reserve(<void**>&seen, &seen_room, 1, 1)
        seen[0] = 1
        for d in range(width):
            at[d] = 0
            counts[d] = 0
        with nogil:
            while True:
                d = 0
                while d < width:
                    length = store.start[at[d] + 1] - store.start[at[d]]
                    memcpy(here, store.items + store.start[at[d]], length * sizeof(int))
                    size = successor(products, <int>n, &flat, <int>d, store.xs[at[d]], here,
                                     length, scratch, &y, &marks, &key)
                    s = store_add(&store, y, scratch, size, key, &marks, &new)
                    if new and s >= limit:
                        with gil:
                            raise ValueError(f"more than {limit} states")
                    if new and store.count * STATE_ENTRIES + store.used > room:
                        with gil:
                            raise ValueError(f"more than {room} entries of states")
                    if s >= seen_room or not seen[s]:
                        break
                    counts[d] = 0
                    d += 1
                if d == width:
                    break   # every position walked: no failure
                if s >= seen_room:
                    i = seen_room
                    reserve(<void**>&seen, &seen_room, s + 1, 1)
                    memset(seen + i, 0, seen_room - i)
                if (s & (SIGNAL_STEPS - 1)) == 0:
                    look()
                counts[d] += 1
                for k in range(d + 1):
                    at[k] = s
                seen[s] = 1
                if (flags[y] != 0) == meets(scratch, size, flags, 1):
                    failed = True
                    break
        if failed:
            return [b for b in range(width - 1, -1, -1) for _ in range(counts[b])]
        return None
    finally:
        store_close(&store)
        free(marks.stamp)
        free(seen)
        free(at)
        free(counts)
        free(scratch)
        free(here)


def reach(const int[::1] table, Py_ssize_t n, Py_ssize_t stride, gens):
    """See kayles/kernels/pure/_quotient.py."""
    cdef const int[::1] generators = _args.for_reach(table, n, stride, gens, None)
    entries(table, n, "a product")
    cdef Py_ssize_t width = generators.shape[0], s = 0, count = 1, a, found
    cdef int* gen = <int*>malloc((width + 1) * sizeof(int))
    cdef Py_ssize_t* where = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
    cdef int* order = <int*>malloc((n + 1) * sizeof(int))
    cdef int* moves = <int*>malloc((n * width + 1) * sizeof(int))
    cdef int y
    try:
        if gen == NULL or where == NULL or order == NULL or moves == NULL:
            raise MemoryError()
        for a in range(width):
            gen[a] = generators[a]
        for a in range(n):
            where[a] = -1
        order[0] = 0
        where[0] = 0
        with nogil:
            while s < count:
                if (s & (SIGNAL_STEPS * 16 - 1)) == SIGNAL_STEPS * 16 - 1:
                    look()
                for a in range(width):
                    y = table[order[s] * stride + gen[a]]
                    found = where[y]
                    if found < 0:
                        found = where[y] = count
                        order[count] = y
                        count += 1
                    moves[s * width + a] = <int>found
                s += 1
        found_order = array("i")
        found_order.frombytes((<char*>order)[:count * sizeof(int)])
        found_moves = array("i")
        found_moves.frombytes((<char*>moves)[:count * width * sizeof(int)])
        return found_order, found_moves
    finally:
        free(gen)
        free(where)
        free(order)
        free(moves)


cdef inline uint64_t row_hash(const int* row, Py_ssize_t length) noexcept nogil:
    cdef uint64_t h = 0x632BE59BD9B4E019ULL
    cdef Py_ssize_t i
    for i in range(length):
        h = (h ^ <uint64_t><unsigned int>row[i]) * 0x100000001B3ULL
        h ^= h >> 29
    return h


cdef int name_row(const int* rows, Py_ssize_t s, Py_ssize_t used, Py_ssize_t length,
                  Py_ssize_t* table, Py_ssize_t slots, const int* named,
                  Py_ssize_t* names) noexcept nogil:
    """The name of row s (its first ``used`` entries): that of the first equal row before
    it (``named``), or the next name.  ``table`` (slot -> first row of a name) stays at
    most half full."""
    cdef const int* row = rows + s * length
    cdef Py_ssize_t k = <Py_ssize_t>(row_hash(row, used) & <uint64_t>(slots - 1)), other
    while True:
        other = table[k]
        if other < 0:
            table[k] = s
            names[0] += 1
            return <int>(names[0] - 1)
        if memcmp(rows + other * length, row, used * sizeof(int)) == 0:
            return named[other]
        k = (k + 1) & (slots - 1)


def minimize(Py_ssize_t count, Py_ssize_t width, moves, labels):
    """See kayles/kernels/pure/_quotient.py (the same blocks, numbered alike: each round names a
    state's (block, successors' blocks) in order of first appearance)."""
    moves, labels = _args.for_minimize(count, width, moves, labels, None)
    cdef const int[::1] step = moves
    entries(step, count, "a move's state")   # before the buffers: a ValueError leaks none
    cdef Py_ssize_t length = width + 1, s, b, slots = 16, blocks = -1, names
    cdef int* block = <int*>malloc((count + 1) * sizeof(int))
    cdef int* new = <int*>malloc((count + 1) * sizeof(int))
    cdef int* rows = <int*>malloc((count * length + 1) * sizeof(int))
    cdef Py_ssize_t* table = NULL
    cdef int* swap
    try:
        if block == NULL or new == NULL or rows == NULL:
            raise MemoryError()
        while slots < 2 * count:
            slots *= 2
        table = <Py_ssize_t*>malloc(slots * sizeof(Py_ssize_t))
        if table == NULL:
            raise MemoryError()
        for s in range(count):  # labels, numbered in order of first appearance
            rows[s * length] = <int>labels[s]
        with nogil:
            names = 0
            memset(table, 0xFF, slots * sizeof(Py_ssize_t))
            for s in range(count):
                block[s] = name_row(rows, s, 1, length, table, slots, block, &names)
            while True:
                look()
                for s in range(count):
                    rows[s * length] = block[s]
                    for b in range(width):
                        rows[s * length + 1 + b] = block[step[s * width + b]]
                names = 0
                memset(table, 0xFF, slots * sizeof(Py_ssize_t))
                for s in range(count):
                    if (s & (SIGNAL_STEPS * 16 - 1)) == SIGNAL_STEPS * 16 - 1:
                        look()   # a round of millions of states: more looks
                    new[s] = name_row(rows, s, length, length, table, slots, new, &names)
                swap = block
                block = new
                new = swap
                if names == blocks:
                    break
                blocks = names
        return [block[s] for s in range(count)]
    finally:
        free(block)
        free(new)
        free(rows)
        free(table)


cdef inline int power(int i, int tail) noexcept nogil:
    """The exponent of g^i when g^(tail+2) = g^tail."""
    return i if i < tail + 2 else tail + (i - tail) % 2


def product_columns(const int[::1] base, Py_ssize_t nb, Py_ssize_t stride, bases, tails,
                    needed):
    """See kayles/kernels/pure/_quotient.py."""
    _, bases, tails, needed = _args.for_product_columns(base, nb, stride, bases, tails, needed,
                                                        None)
    entries(base, nb, "a product")
    cdef Py_ssize_t factors = len(tails), m = len(needed), size = nb, x, k, j, r, s
    cdef int tail[64]
    cdef int width[64]
    cdef int xd[64]
    cdef int* ed
    cdef const int[::1] want = needed
    cdef const int[::1] column = bases
    for j in range(factors):
        tail[j] = tails[j]
        width[j] = tail[j] + 2
        size *= width[j]
    result = array("i", [0]) * (size * m)
    cdef int[::1] out = result
    ed = <int*>malloc((m * factors + 1) * sizeof(int))
    if ed == NULL:
        raise MemoryError()
    try:
        for k in range(m):  # each needed element's cyclic digits
            r = want[k]
            for j in range(factors - 1, -1, -1):
                ed[k * factors + j] = r % width[j]
                r //= width[j]
        with nogil:
            for x in range(size):
                if (x & (SIGNAL_STEPS * 16 - 1)) == 0:
                    look()
                r = x
                for j in range(factors - 1, -1, -1):
                    xd[j] = r % width[j]
                    r //= width[j]
                for k in range(m):
                    s = base[r * stride + column[k]]
                    for j in range(factors):
                        s = s * width[j] + power(xd[j] + ed[k * factors + j], tail[j])
                    out[x * m + k] = <int>s
    finally:
        free(ed)
    return result


def collapse(Py_ssize_t count, Py_ssize_t width, moves, block):
    """See kayles/kernels/pure/_quotient.py."""
    moves, block = _args.for_collapse(count, width, moves, block, None)
    cdef const int[::1] step = moves
    cdef const int[::1] of = block
    entries(step, count, "a move's state")
    cdef Py_ssize_t blocks = 0, s, a, head = 0, n = 0, b
    for s in range(count):
        if of[s] >= blocks:
            blocks = of[s] + 1
    first_state = array("i", [-1]) * blocks
    rank_out = array("i", [-1]) * blocks
    cdef int[::1] first_of = first_state
    cdef int[::1] rank = rank_out
    cdef int* queue = <int*>malloc((blocks + 1) * sizeof(int))
    cdef int* up = <int*>malloc((blocks + 1) * sizeof(int))
    cdef int* by = <int*>malloc((blocks + 1) * sizeof(int))
    cdef int nxt
    try:
        if queue == NULL or up == NULL or by == NULL:
            raise MemoryError()
        for s in range(count - 1, -1, -1):
            first_of[of[s]] = <int>s
        if count:
            queue[0] = of[0]
            up[0] = by[0] = 0
            rank[of[0]] = 0
            n = 1
        with nogil:
            while head < n:
                if (head & (SIGNAL_STEPS * 16 - 1)) == SIGNAL_STEPS * 16 - 1:
                    look()
                b = queue[head]
                s = first_of[b]
                for a in range(width):
                    nxt = of[step[s * width + a]]
                    if rank[nxt] < 0:
                        rank[nxt] = <int>n
                        queue[n] = nxt
                        up[n] = <int>head
                        by[n] = <int>a
                        n += 1
                head += 1
        trans_out = array("i", [0]) * (n * width)
        first_out = array("i", [0]) * n
        parent_out = array("i", [0]) * n
        letter_out = array("i", [0]) * n
        for b in range(n):
            s = first_of[queue[b]]
            first_out[b] = <int>s
            parent_out[b] = up[b]
            letter_out[b] = by[b]
            for a in range(width):
                trans_out[b * width + a] = rank[of[step[s * width + a]]]
        return trans_out, parent_out, letter_out, rank_out, first_out
    finally:
        free(queue)
        free(up)
        free(by)


def columns(const int[::1] trans, Py_ssize_t width, const int[::1] parent,
            const int[::1] letter, needed):
    """See kayles/kernels/pure/_quotient.py (the same columns, each built from its parent's:
    the needed elements and their ancestors are visited depth first down the spanning tree,
    one column per depth held at a time)."""
    needed = _args.for_columns(trans, width, parent, letter, needed, None)
    cdef Py_ssize_t n = parent.shape[0], m = len(needed), k, y, x, top = 0, child
    tree_entries(trans, n)
    cdef const int[::1] want = needed
    result = array("i", [0]) * (n * m)
    cdef int[::1] out = result
    # The tree of the needed elements and their ancestors: first child and next sibling.
    cdef int* kept = <int*>malloc((n + 1) * sizeof(int))       # -1: not in the tree
    cdef int* first = <int*>malloc((n + 1) * sizeof(int))
    cdef int* sibling = <int*>malloc((n + 1) * sizeof(int))
    cdef int* wanted = <int*>malloc((n + 1) * sizeof(int))     # first k of an element, or -1
    cdef int* again = <int*>malloc((m + 1) * sizeof(int))      # the next k of the same element
    cdef int* stack = <int*>malloc((n + 1) * sizeof(int))
    cdef int* column = NULL
    cdef Py_ssize_t depth = 0, height = 1
    try:
        if (kept == NULL or first == NULL or sibling == NULL or wanted == NULL
                or again == NULL or stack == NULL):
            raise MemoryError()
        for y in range(n):
            kept[y] = -1
            first[y] = sibling[y] = wanted[y] = -1
        for k in range(m - 1, -1, -1):
            again[k] = wanted[want[k]]
            wanted[want[k]] = <int>k
        kept[0] = 0
        for k in range(m):
            y = want[k]
            while kept[y] < 0:
                kept[y] = 0
                sibling[y] = first[parent[y]]
                first[parent[y]] = <int>y
                y = parent[y]
        for y in range(1, n):  # the tree's height: one column per depth on the stack
            if kept[y] == 0:
                kept[y] = kept[parent[y]] + 1
                if kept[y] + 1 > height:
                    height = kept[y] + 1
        column = <int*>malloc((height * n + 1) * sizeof(int))
        if column == NULL:
            raise MemoryError()
        for x in range(n):
            column[x] = <int>x
        stack[0] = 0
        top = 1
        with nogil:
            while top:
                top -= 1
                y = stack[top]
                depth = kept[y]
                if y:
                    look()
                    for x in range(n):
                        column[depth * n + x] = trans[column[(depth - 1) * n + x] * width
                                                      + letter[y]]
                k = wanted[y]
                while k >= 0:
                    for x in range(n):
                        out[x * m + k] = column[depth * n + x]
                    k = again[k]
                child = first[y]
                while child >= 0:
                    stack[top] = <int>child
                    top += 1
                    child = sibling[child]
        return result
    finally:
        free(kept)
        free(first)
        free(sibling)
        free(wanted)
        free(again)
        free(stack)
        free(column)
