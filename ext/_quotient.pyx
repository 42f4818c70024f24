# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled misère-quotient kernels: state walks, marking, minimization.

kayles/_quotient_pure.py is the twin (same names, results, order of work and errors) and
says what they compute.  Here a state is an element ``x`` and a bit set ``U`` of
``words`` 64-bit words, kept in one arena; an open-addressing table (linear probing, at
most half full) finds a state's index.  ``mark`` is Dijkstra's search with a binary heap
of (weight, push order, state), the twin's order exactly.
"""

from array import array

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memset

from _common cimport reserve
from _kernels cimport lowest_bit

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


cdef class Behaviours:
    """The heaps' behaviours as flat arrays: images, and options' images (CSR)."""
    cdef int count
    cdef int* g
    cdef int* start
    cdef int* items
    cdef int* columns  # columns[b * n + e] = e g_b

    def __cinit__(self, const int[::1] table, int n, behaviours):
        cdef int b, e, k = 0, total = 0
        self.count = len(behaviours)
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
                self.columns[<Py_ssize_t>b * n + e] = table[<Py_ssize_t>e * n + g]
        self.start[self.count] = k

    def __dealloc__(self):
        free(self.g)
        free(self.start)
        free(self.items)
        free(self.columns)


cdef inline int successor(const int[::1] table, int n, Behaviours beh, int b, int x,
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
        e = table[<Py_ssize_t>x * n + beh.items[k]]
        out[e >> 6] |= (<uint64_t>1) << (e & 63)
    return table[<Py_ssize_t>x * n + beh.g[b]]


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


def explore(const int[::1] table, int n, const unsigned char[::1] p, behaviours,
            Py_ssize_t limit, bint stop):
    """See kayles/_quotient_pure.py."""
    cdef Behaviours beh = Behaviours(table, n, behaviours)
    cdef Py_ssize_t words = (n + 63) // 64, s = 0, found
    cdef Store store
    cdef uint64_t* pset = bit_set(p, n, words, 1)
    cdef uint64_t* scratch = <uint64_t*>malloc((words + 1) * sizeof(uint64_t))
    cdef uint64_t* here = <uint64_t*>malloc((words + 1) * sizeof(uint64_t))
    cdef int b, x, y
    cdef bint new, broken = p[0] != 0
    moves = array("i")
    lost = bytearray()
    try:
        if scratch == NULL or here == NULL:
            raise MemoryError()
        store_open(&store, words)
        memset(scratch, 0, (words + 1) * sizeof(uint64_t))
        store_add(&store, 0, scratch, &new)
        lost.append(0)
        if broken and stop:
            return True, [0], lost, moves
        while s < store.count:
            if (s & (SIGNAL_STEPS - 1)) == 0:
                PyErr_CheckSignals()
            x = store.xs[s]
            memcpy(here, store.us + s * words, words * sizeof(uint64_t))
            for b in range(beh.count):
                y = successor(table, n, beh, b, x, here, scratch, words)
                found = store_add(&store, y, scratch, &new)
                if new:
                    if found >= limit:
                        raise ValueError(f"more than {limit} states")
                    lost.append(0 if meets(scratch, pset, words) else 1)
                    if (p[y] != 0) != (lost[found] != 0):
                        broken = True
                        if stop:
                            return True, [store.xs[i] for i in range(store.count)], lost, moves
                moves.append(found)
            s += 1
        return broken, [store.xs[i] for i in range(store.count)], lost, moves
    finally:
        store_close(&store)
        free(pset)
        free(scratch)
        free(here)


def grow(const int[::1] table, int n, const unsigned char[::1] p, behaviours, xs,
         const unsigned char[::1] us, int first, Py_ssize_t limit):
    """See kayles/_quotient_pure.py."""
    cdef Behaviours beh = Behaviours(table, n, behaviours)
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
        if us.shape[0] != known * words * 8:
            raise ValueError("the known states' sets do not match their images")
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
                y = successor(table, n, beh, b, x, here, scratch, words)
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


cdef struct Entry:
    int64_t dist
    int64_t tick
    Py_ssize_t state


cdef inline bint before(Entry a, Entry b) noexcept:
    return a.dist < b.dist or (a.dist == b.dist and a.tick < b.tick)


cdef int heap_push(Entry** heap, Py_ssize_t* size, Py_ssize_t* room, Entry item) except -1:
    cdef Py_ssize_t i = size[0], parent
    reserve(<void**>heap, room, i + 1, sizeof(Entry))
    while i > 0:
        parent = (i - 1) // 2
        if not before(item, heap[0][parent]):
            break
        heap[0][i] = heap[0][parent]
        i = parent
    heap[0][i] = item
    size[0] += 1
    return 0


cdef Entry heap_pop(Entry* heap, Py_ssize_t* size) noexcept:
    cdef Entry top = heap[0], last
    cdef Py_ssize_t i = 0, child
    size[0] -= 1
    last = heap[size[0]]
    while True:
        child = 2 * i + 1
        if child >= size[0]:
            break
        if child + 1 < size[0] and before(heap[child + 1], heap[child]):
            child += 1
        if not before(heap[child], last):
            break
        heap[i] = heap[child]
        i = child
    heap[i] = last
    return top


def mark(const int[::1] table, int n, unsigned char[::1] p, behaviours, weights,
         Py_ssize_t limit):
    """See kayles/_quotient_pure.py."""
    cdef Behaviours beh = Behaviours(table, n, behaviours)
    cdef Py_ssize_t words = (n + 63) // 64, size = 0, room = 0, done_count = 0, i
    cdef Py_ssize_t done_room = 0, left = 0, top = 1
    cdef Store store
    cdef Entry* heap = NULL
    cdef unsigned char* done = NULL
    cdef int* reach = <int*>malloc((n + 1) * sizeof(int))
    cdef unsigned char* reached = <unsigned char*>malloc(n + 1)
    cdef uint64_t* pset = bit_set(p, n, words, 1)
    cdef uint64_t* scratch = <uint64_t*>malloc((words + 1) * sizeof(uint64_t))
    cdef uint64_t* here = <uint64_t*>malloc((words + 1) * sizeof(uint64_t))
    cdef int64_t* weight = <int64_t*>malloc((beh.count + 1) * sizeof(int64_t))
    cdef int64_t tick = 1
    cdef int b, x, y, e
    cdef bint new, lost
    cdef Entry item
    try:
        if reach == NULL or reached == NULL or scratch == NULL or here == NULL or weight == NULL:
            raise MemoryError()
        for b in range(beh.count):
            weight[b] = weights[b]
        memset(reached, 0, n + 1)
        reach[0] = 0
        reached[0] = 1
        i = 0
        while i < top:
            for b in range(beh.count):
                y = table[<Py_ssize_t>reach[i] * n + beh.g[b]]
                if not reached[y]:
                    reached[y] = 1
                    reach[top] = y
                    top += 1
            i += 1
        for i in range(top):
            if p[reach[i]] == 2:
                left += 1
        store_open(&store, words)
        memset(scratch, 0, (words + 1) * sizeof(uint64_t))
        item.state = store_add(&store, 0, scratch, &new)
        item.dist = 0
        item.tick = 0
        heap_push(&heap, &size, &room, item)
        while size and left:
            item = heap_pop(heap, &size)
            if item.state < done_room and done[item.state]:
                continue
            if item.state >= done_room:
                i = done_room
                reserve(<void**>&done, &done_room, item.state + 1, 1)
                memset(done + i, 0, done_room - i)
            done[item.state] = 1
            done_count += 1
            if done_count > limit:
                raise ValueError(f"more than {limit} states")
            if (done_count & (SIGNAL_STEPS - 1)) == 0:
                PyErr_CheckSignals()
            x = store.xs[item.state]
            memcpy(here, store.us + item.state * words, words * sizeof(uint64_t))
            if p[x] == 2:
                lost = False
                for i in range(words):
                    if here[i]:
                        lost = True
                if lost:
                    for e in range(n):
                        if (here[e >> 6] >> (e & 63)) & 1 and p[e] == 1:
                            lost = False
                            break
                p[x] = lost
                left -= 1
            for b in range(beh.count):
                y = successor(table, n, beh, b, x, here, scratch, words)
                i = store_add(&store, y, scratch, &new)
                if new or i >= done_room or not done[i]:
                    heap_push(&heap, &size, &room,
                              Entry(dist=item.dist + weight[b], tick=tick, state=i))
                    tick += 1
    finally:
        store_close(&store)
        free(heap)
        free(done)
        free(reach)
        free(reached)
        free(pset)
        free(scratch)
        free(here)
        free(weight)


def minimize(Py_ssize_t count, Py_ssize_t width, moves, labels):
    """See kayles/_quotient_pure.py."""
    cdef const int[::1] step = moves if isinstance(moves, array) else array("i", moves)
    cdef Py_ssize_t s, b, blocks = -1
    cdef list block = list(labels)
    cdef list new
    cdef dict names
    while True:
        names = {}
        new = [0] * count
        for s in range(count):
            key = (block[s],) + tuple([block[step[s * width + b]] for b in range(width)])
            new[s] = names.setdefault(key, len(names))
        block = new
        if len(names) == blocks:
            return block
        blocks = len(names)


def times_cyclic(const int[::1] table, Py_ssize_t n, int tail):
    """See kayles/_quotient_pure.py."""
    cdef Py_ssize_t width = tail + 2, size = n * width, x, y, i, j, row, xy
    cdef int power[64]
    if width * 2 > 64:
        raise ValueError("tail too long")
    for i in range(2 * width):
        power[i] = i if i < width else tail + (i - tail) % 2
    result = array("i", [0]) * (size * size)
    cdef int[::1] out = result
    for x in range(n):
        for y in range(n):
            xy = table[x * n + y] * width
            for i in range(width):
                row = (x * width + i) * size + y * width
                for j in range(width):
                    out[row + j] = <int>(xy + power[i + j])
    return result


def paths_table(Py_ssize_t count, Py_ssize_t width, trans, parent, letter):
    """See kayles/_quotient_pure.py."""
    cdef const int[::1] step = trans if isinstance(trans, array) else array("i", trans)
    cdef const int[::1] up = array("i", parent)
    cdef const int[::1] by = array("i", letter)
    result = array("i", [0]) * (count * count)
    cdef int[::1] out = result
    cdef Py_ssize_t x, y, row
    for x in range(count):
        row = x * count
        out[row] = <int>x
        for y in range(1, count):
            out[row + y] = step[out[row + up[y]] * width + by[y]]
    return result
