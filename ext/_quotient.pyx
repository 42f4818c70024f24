# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled misère-quotient kernels: state walks, marking, minimization.

kayles/engine/_quotient_pure.py is the twin (same names, results, order of work and errors) and
says what they compute.  Here a state is an element ``x`` and a bit set ``U`` of
``words`` 64-bit words, kept in one arena; an open-addressing table (linear probing, at
most half full) finds a state's index.  ``mark`` and ``least_failure`` walk positions in
the twin's order (its ``_lex_walk``) with one frame per behaviour instead of callbacks;
``minimize`` names rows through an open-addressing table of its own.
"""

from array import array

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from _common cimport reserve
from _kernels cimport lowest_bit

from kayles.engine import _kernel_args as _args


cdef int entries(const int[::1] values, Py_ssize_t limit, str what) except -1:
    """Every entry of values is 0 to limit - 1 (the pure twin's check_entries, in C)."""
    cdef Py_ssize_t i
    for i in range(values.shape[0]):
        if not 0 <= values[i] < limit:
            raise _args.out_of_range(what, limit)
    return 0

cdef enum:
    FIRST_SLOTS = 1024  # a power of two
    SIGNAL_STEPS = 4096


cdef struct Store:
    Py_ssize_t words      # 64-bit words of a bit set
    Py_ssize_t count      # states stored
    Py_ssize_t room       # states xs holds
    Py_ssize_t uroom      # states us holds
    Py_ssize_t slots      # table size (a power of two)
    int* xs
    uint64_t* us
    Py_ssize_t* table     # slot -> state index, or -1


cdef int store_open(Store* s, Py_ssize_t words) except -1:
    s.words = words
    s.count = 0
    s.room = 0
    s.uroom = 0
    s.slots = FIRST_SLOTS
    s.xs = NULL
    s.us = NULL
    s.table = <Py_ssize_t*>malloc(FIRST_SLOTS * sizeof(Py_ssize_t))
    if s.table == NULL:
        raise MemoryError()
    memset(s.table, 0xFF, FIRST_SLOTS * sizeof(Py_ssize_t))
    return 0


cdef void store_close(Store* s) noexcept:
    free(s.xs)
    free(s.us)
    free(s.table)


cdef inline uint64_t state_hash(int x, const uint64_t* u, Py_ssize_t words) noexcept:
    cdef uint64_t h = <uint64_t>x * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL
    cdef Py_ssize_t i
    for i in range(words):
        h = (h ^ u[i]) * 0x100000001B3ULL
        h ^= h >> 29
    return h


cdef int store_grow_table(Store* s) except -1:
    cdef Py_ssize_t slots = s.slots * 2, i, k
    cdef Py_ssize_t* table = <Py_ssize_t*>malloc(slots * sizeof(Py_ssize_t))
    if table == NULL:
        raise MemoryError()
    memset(table, 0xFF, slots * sizeof(Py_ssize_t))
    for i in range(s.count):
        k = <Py_ssize_t>(state_hash(s.xs[i], s.us + i * s.words, s.words) & <uint64_t>(slots - 1))
        while table[k] >= 0:
            k = (k + 1) & (slots - 1)
        table[k] = i
    free(s.table)
    s.table = table
    s.slots = slots
    return 0


cdef Py_ssize_t store_add(Store* s, int x, const uint64_t* u, bint* new) except -1:
    """The index of state (x, u), stored first if new (then ``new[0]`` is set)."""
    cdef Py_ssize_t k, i
    k = <Py_ssize_t>(state_hash(x, u, s.words) & <uint64_t>(s.slots - 1))
    while True:
        i = s.table[k]
        if i < 0:
            break
        if s.xs[i] == x and memcmp(s.us + i * s.words, u, s.words * sizeof(uint64_t)) == 0:
            new[0] = False
            return i
        k = (k + 1) & (s.slots - 1)
    reserve(<void**>&s.xs, &s.room, s.count + 1, sizeof(int))
    reserve(<void**>&s.us, &s.uroom, s.count + 1, s.words * sizeof(uint64_t))
    i = s.count
    s.xs[i] = x
    memcpy(s.us + i * s.words, u, s.words * sizeof(uint64_t))
    s.count += 1
    s.table[k] = i
    new[0] = True
    if s.count * 2 > s.slots:
        store_grow_table(s)
    return i


cdef class _Behaviours:
    """The heaps' behaviours as flat arrays: images, and options' images (CSR), as columns
    of a table with rows of ``stride`` entries (see kayles/engine/_quotient_pure.py)."""
    cdef int count
    cdef Py_ssize_t stride
    cdef int* g
    cdef int* start
    cdef int* items
    cdef int* columns  # columns[b * n + e] = e g_b

    def __cinit__(self, const int[::1] table, int n, behaviours, Py_ssize_t stride):
        cdef int b, e, k = 0, total = 0
        self.count = len(behaviours)
        self.stride = stride
        if table.shape[0] != n * stride:
            raise ValueError("the table does not have n rows of stride entries")
        for _, options in behaviours:
            total += len(options)
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


cdef inline int successor(const int* table, int n, _Behaviours beh, int b, int x,
                          const uint64_t* u, uint64_t* out, Py_ssize_t words) noexcept:
    """Write g_b U + x T_b into ``out``; return x g_b."""
    cdef Py_ssize_t i
    cdef uint64_t w
    cdef int e, k
    cdef const int* column = beh.columns + <Py_ssize_t>b * n
    memset(out, 0, words * sizeof(uint64_t))
    for i in range(words):
        w = u[i]
        while w:
            e = column[i * 64 + lowest_bit(w)]
            out[e >> 6] |= (<uint64_t>1) << (e & 63)
            w &= w - 1
    for k in range(beh.start[b], beh.start[b + 1]):
        e = table[x * beh.stride + beh.items[k]]
        out[e >> 6] |= (<uint64_t>1) << (e & 63)
    return table[x * beh.stride + beh.g[b]]


cdef inline bint meets(const uint64_t* u, const uint64_t* pset, Py_ssize_t words) noexcept:
    cdef Py_ssize_t i
    for i in range(words):
        if u[i] & pset[i]:
            return True
    return False


cdef uint64_t* bit_set(const unsigned char[::1] p, int n, Py_ssize_t words, int value) except NULL:
    cdef uint64_t* out = <uint64_t*>malloc((words + 1) * sizeof(uint64_t))
    cdef int e
    if out == NULL:
        raise MemoryError()
    memset(out, 0, (words + 1) * sizeof(uint64_t))
    for e in range(n):
        if p[e] == value:
            out[e >> 6] |= (<uint64_t>1) << (e & 63)
    return out


def candidates(const int[::1] table, Py_ssize_t n, const unsigned char[::1] p, options, bint lost):
    """See kayles/engine/_quotient_pure.py."""
    _args.for_candidates(table, n, p, options, None)
    entries(table, n, "a product")
    cdef Py_ssize_t count = len(options), x, y, k, row
    cdef int* option = <int*>malloc((count + 1) * sizeof(int))
    cdef bint ok
    found = array("i")
    if option == NULL:
        raise MemoryError()
    try:
        for k in range(count):
            option[k] = options[k]
        for x in range(n):
            if (p[x] != 0) != lost:
                continue
            ok = True
            for y in range(n):
                row = y * n
                if p[table[row + x]]:
                    for k in range(count):
                        if p[table[row + option[k]]]:
                            ok = False
                            break
                    if not ok:
                        break
            if ok:
                found.append(x)
        return found
    finally:
        free(option)


def grow(const int[::1] table, Py_ssize_t n, const unsigned char[::1] p, behaviours, xs,
         const unsigned char[::1] us, int first, Py_ssize_t limit):
    """See kayles/engine/_quotient_pure.py."""
    _args.for_walk(table, n, p, behaviours, limit, entries=None)
    _args.for_grow(n, behaviours, xs, us, first)
    entries(table, n, "a product")
    cdef _Behaviours beh = _Behaviours(table, n, behaviours, n)
    cdef Py_ssize_t words = (n + 63) // 64, s = 0, known = len(xs), i, found
    cdef Store store
    cdef uint64_t* pset = bit_set(p, n, words, 1)
    cdef uint64_t* scratch = <uint64_t*>malloc((words + 1) * sizeof(uint64_t))
    cdef uint64_t* here = <uint64_t*>malloc((words + 1) * sizeof(uint64_t))
    cdef int b, x, y
    cdef bint new, broken = False
    try:
        if scratch == NULL or here == NULL:
            raise MemoryError()
        store_open(&store, words)
        memset(scratch, 0, (words + 1) * sizeof(uint64_t))
        if known == 0:
            store_add(&store, 0, scratch, &new)
            broken = p[0] != 0
        for i in range(known):
            memcpy(scratch, &us[i * words * 8], words * sizeof(uint64_t))
            store_add(&store, xs[i], scratch, &new)
        while s < store.count and not broken:
            if (s & (SIGNAL_STEPS - 1)) == 0:
                PyErr_CheckSignals()
            x = store.xs[s]
            memcpy(here, store.us + s * words, words * sizeof(uint64_t))
            for b in range(first if s < known else 0, beh.count):
                y = successor(&table[0], n, beh, b, x, here, scratch, words)
                found = store_add(&store, y, scratch, &new)
                if new:
                    if found >= limit:
                        raise ValueError(f"more than {limit} states")
                    if (p[y] != 0) == meets(scratch, pset, words):
                        broken = True
                        break
            s += 1
        return (broken, array("i", [store.xs[i] for i in range(store.count)]),
                (<char*>store.us)[:store.count * words * 8])
    finally:
        store_close(&store)
        free(pset)
        free(scratch)
        free(here)


cdef int settle_flag(unsigned char[::1] p, uint64_t* pset, int x, const uint64_t* u,
                     Py_ssize_t words) except -1:
    """x's flag from its least position's options' images u (flags 0 or 1 are kept)."""
    cdef Py_ssize_t i
    cdef bint moves = False
    if p[x] == 2:
        for i in range(words):
            if u[i]:
                moves = True
        p[x] = moves and not meets(u, pset, words)
        if p[x]:
            pset[x >> 6] |= (<uint64_t>1) << (x & 63)
    return 0


def mark(const int[::1] table, Py_ssize_t n, Py_ssize_t stride, unsigned char[::1] p, behaviours,
         Py_ssize_t limit):
    """See kayles/engine/_quotient_pure.py (the walk of _lex_walk, with frames per depth)."""
    _args.for_walk(table, n, p, behaviours, limit, stride, 2, None)
    entries(table, n, "a product")
    cdef _Behaviours beh = _Behaviours(table, n, behaviours, stride)
    cdef Py_ssize_t words = (n + 63) // 64, visits = 1, width = beh.count, d, k
    cdef unsigned char* seen = <unsigned char*>malloc(n + 1)
    cdef int* at = <int*>malloc((width + 1) * sizeof(int))          # each depth's element
    cdef uint64_t* sets = <uint64_t*>malloc(((width + 1) * words + 1) * sizeof(uint64_t))
    cdef uint64_t* scratch = <uint64_t*>malloc((words + 1) * sizeof(uint64_t))
    cdef uint64_t* pset = bit_set(p, n, words, 1)
    cdef int y
    try:
        if seen == NULL or at == NULL or sets == NULL or scratch == NULL:
            raise MemoryError()
        memset(seen, 0, n + 1)
        memset(sets, 0, ((width + 1) * words + 1) * sizeof(uint64_t))
        for d in range(width):
            at[d] = 0
        seen[0] = 1
        settle_flag(p, pset, 0, sets, words)
        while True:
            d = 0
            while d < width:
                y = successor(&table[0], n, beh, <int>d, at[d], sets + d * words, scratch, words)
                if not seen[y]:
                    break
                d += 1
            else:
                return
            visits += 1
            if visits > limit:
                raise ValueError(f"more than {limit} states")
            if (visits & (SIGNAL_STEPS - 1)) == 0:
                PyErr_CheckSignals()
            for k in range(d + 1):
                at[k] = y
                memcpy(sets + k * words, scratch, words * sizeof(uint64_t))
            seen[y] = 1
            settle_flag(p, pset, y, scratch, words)
    finally:
        free(seen)
        free(at)
        free(sets)
        free(scratch)
        free(pset)


def least_failure(const int[::1] table, Py_ssize_t n, const unsigned char[::1] p, behaviours,
                  Py_ssize_t limit):
    """See kayles/engine/_quotient_pure.py (the walk of _lex_walk, over stored states)."""
    _args.for_walk(table, n, p, behaviours, limit, entries=None)
    entries(table, n, "a product")
    cdef _Behaviours beh = _Behaviours(table, n, behaviours, n)
    cdef Py_ssize_t words = (n + 63) // 64, width = beh.count, d, k, s, seen_room = 0, i
    cdef Store store
    cdef unsigned char* seen = NULL
    cdef Py_ssize_t* at = <Py_ssize_t*>malloc((width + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* counts = <Py_ssize_t*>malloc((width + 1) * sizeof(Py_ssize_t))
    cdef uint64_t* pset = bit_set(p, n, words, 1)
    cdef uint64_t* scratch = <uint64_t*>malloc((words + 1) * sizeof(uint64_t))
    cdef uint64_t* here = <uint64_t*>malloc((words + 1) * sizeof(uint64_t))
    cdef int y
    cdef bint new
    try:
        if at == NULL or counts == NULL or scratch == NULL or here == NULL:
            raise MemoryError()
        store_open(&store, words)
        memset(scratch, 0, (words + 1) * sizeof(uint64_t))
        store_add(&store, 0, scratch, &new)
        if p[0]:
            return []
        reserve(<void**>&seen, &seen_room, 1, 1)
        seen[0] = 1
        for d in range(width):
            at[d] = 0
            counts[d] = 0
        while True:
            d = 0
            while d < width:
                memcpy(here, store.us + at[d] * words, words * sizeof(uint64_t))
                y = successor(&table[0], n, beh, <int>d, store.xs[at[d]], here, scratch, words)
                s = store_add(&store, y, scratch, &new)
                if new and s >= limit:
                    raise ValueError(f"more than {limit} states")
                if s >= seen_room or not seen[s]:
                    break
                counts[d] = 0
                d += 1
            else:
                return None
            if s >= seen_room:
                i = seen_room
                reserve(<void**>&seen, &seen_room, s + 1, 1)
                memset(seen + i, 0, seen_room - i)
            if (s & (SIGNAL_STEPS - 1)) == 0:
                PyErr_CheckSignals()
            counts[d] += 1
            for k in range(d + 1):
                at[k] = s
            seen[s] = 1
            if (p[y] != 0) == meets(scratch, pset, words):
                return [b for b in range(width - 1, -1, -1) for _ in range(counts[b])]
    finally:
        store_close(&store)
        free(seen)
        free(at)
        free(counts)
        free(pset)
        free(scratch)
        free(here)


def reach(const int[::1] table, Py_ssize_t n, Py_ssize_t stride, gens):
    """See kayles/engine/_quotient_pure.py."""
    _args.for_reach(table, n, stride, gens, None)
    entries(table, n, "a product")
    cdef Py_ssize_t width = len(gens), s = 0, count = 1, a, found
    cdef int* gen = <int*>malloc((width + 1) * sizeof(int))
    cdef Py_ssize_t* where = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
    cdef int* order = <int*>malloc((n + 1) * sizeof(int))
    cdef int* moves = <int*>malloc((n * width + 1) * sizeof(int))
    cdef int y
    try:
        if gen == NULL or where == NULL or order == NULL or moves == NULL:
            raise MemoryError()
        for a in range(width):
            gen[a] = gens[a]
        for a in range(n):
            where[a] = -1
        order[0] = 0
        where[0] = 0
        while s < count:
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


def restrict(const int[::1] table, Py_ssize_t n, elements):
    """See kayles/engine/_quotient_pure.py."""
    _args.for_restrict(table, n, elements, None)
    entries(table, n, "a product")
    cdef Py_ssize_t m = len(elements), i, j
    cdef const int[::1] el = elements if isinstance(elements, array) else array("i", elements)
    cdef int* rank = <int*>malloc((n + 1) * sizeof(int))
    if rank == NULL:
        raise MemoryError()
    result = array("i", [0]) * (m * m)
    cdef int[::1] out = result
    try:
        for i in range(n):
            rank[i] = -1
        for i in range(m):
            rank[el[i]] = <int>i
        for i in range(m):
            for j in range(m):
                out[i * m + j] = rank[table[el[i] * n + el[j]]]
                if out[i * m + j] < 0:
                    raise _args.not_closed()
        return result
    finally:
        free(rank)


cdef inline uint64_t row_hash(const int* row, Py_ssize_t length) noexcept:
    cdef uint64_t h = 0x632BE59BD9B4E019ULL
    cdef Py_ssize_t i
    for i in range(length):
        h = (h ^ <uint64_t><unsigned int>row[i]) * 0x100000001B3ULL
        h ^= h >> 29
    return h


cdef int name_row(const int* rows, Py_ssize_t s, Py_ssize_t used, Py_ssize_t length,
                  Py_ssize_t* table, Py_ssize_t slots, const int* named,
                  Py_ssize_t* names) noexcept:
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
    """See kayles/engine/_quotient_pure.py (the same blocks, numbered alike: each round names a
    state's (block, successors' blocks) in order of first appearance)."""
    _args.for_minimize(count, width, moves, labels, None)
    cdef const int[::1] step = moves if isinstance(moves, array) else array("i", moves)
    cdef Py_ssize_t length = width + 1, s, b, slots = 16, blocks = -1, names
    cdef int* block = <int*>malloc((count + 1) * sizeof(int))
    cdef int* new = <int*>malloc((count + 1) * sizeof(int))
    cdef int* rows = <int*>malloc((count * length + 1) * sizeof(int))
    cdef Py_ssize_t* table = NULL
    cdef int* swap
    entries(step, count, "a move's state")
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
        names = 0
        memset(table, 0xFF, slots * sizeof(Py_ssize_t))
        for s in range(count):
            block[s] = name_row(rows, s, 1, length, table, slots, block, &names)
        while True:
            for s in range(count):
                rows[s * length] = block[s]
                for b in range(width):
                    rows[s * length + 1 + b] = block[step[s * width + b]]
            names = 0
            memset(table, 0xFF, slots * sizeof(Py_ssize_t))
            for s in range(count):
                new[s] = name_row(rows, s, length, length, table, slots, new, &names)
            swap = block
            block = new
            new = swap
            if names == blocks:
                return [block[s] for s in range(count)]
            blocks = names
    finally:
        free(block)
        free(new)
        free(rows)
        free(table)


cdef inline int power(int i, int tail) noexcept:
    """The exponent of g^i when g^(tail+2) = g^tail."""
    return i if i < tail + 2 else tail + (i - tail) % 2


def product_columns(const int[::1] base, Py_ssize_t nb, tails, needed):
    """See kayles/engine/_quotient_pure.py."""
    _args.for_product_columns(base, nb, tails, needed, None)
    entries(base, nb, "a product")
    cdef Py_ssize_t factors = len(tails), m = len(needed), size = nb, x, k, j, r, s
    cdef int tail[64]
    cdef int width[64]
    cdef int xd[64]
    cdef int* ed
    cdef const int[::1] want = needed if isinstance(needed, array) else array("i", needed)
    for j in range(factors):
        tail[j] = tails[j]
        width[j] = tail[j] + 2
        size *= width[j]
    result = array("i", [0]) * (size * m)
    cdef int[::1] out = result
    ed = <int*>malloc((m * (factors + 1) + 1) * sizeof(int))
    if ed == NULL:
        raise MemoryError()
    try:
        for k in range(m):  # each needed element's digits: base part first
            r = want[k]
            for j in range(factors - 1, -1, -1):
                ed[k * (factors + 1) + 1 + j] = r % width[j]
                r //= width[j]
            ed[k * (factors + 1)] = r
        for x in range(size):
            r = x
            for j in range(factors - 1, -1, -1):
                xd[j] = r % width[j]
                r //= width[j]
            for k in range(m):
                s = base[r * nb + ed[k * (factors + 1)]]
                for j in range(factors):
                    s = s * width[j] + power(xd[j] + ed[k * (factors + 1) + 1 + j], tail[j])
                out[x * m + k] = <int>s
    finally:
        free(ed)
    return result


def paths_table(Py_ssize_t count, Py_ssize_t width, trans, parent, letter):
    """See kayles/engine/_quotient_pure.py."""
    _args.for_paths_table(count, width, trans, parent, letter, None)
    cdef const int[::1] step = trans if isinstance(trans, array) else array("i", trans)
    cdef const int[::1] up = array("i", parent)
    cdef const int[::1] by = array("i", letter)
    result = array("i", [0]) * (count * count)
    cdef int[::1] out = result
    cdef Py_ssize_t x, y, row
    entries(step, count, "a transition's element")
    for x in range(count):
        row = x * count
        out[row] = <int>x
        for y in range(1, count):
            out[row + y] = step[out[row + up[y]] * width + by[y]]
    return result
