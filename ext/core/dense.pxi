# The compiled core, one part: ext/_core.pyx includes it and declares the state it uses.
#
# The dense path: the heaps of a game that no mask makes sparse (st.mask == 0; values
# that keep growing: .1607, .0644), on one thread or in a crew (crews.pxi).
#
# The plain scan marks every pair of a heap, a store each, and stores are what bound
# it (about 0.5 ns a pair on a 2-core EPYC, whatever the instructions that compute
# the pairs).  With AVX-512, heap n marks only a share of its pairs, the smaller
# parts first..marked-1 of each split.  Every value below the least unmarked value
# u is then an option, so G(n) is u or an unmarked value above it: the first one no
# pair left (smaller parts from marked on) gives.  One sweep looks for every
# unmarked value in [u, u + 2048) among those pairs at once, with no store
# (sweep_window: two table lookups a vector of 32 pairs, about 0.07 ns a pair); the
# least one it does not find is G(n).  Where it finds them all, the next window is
# swept; past DENSE_WINDOWS windows every pair left is marked.
#
# The share is each worker's own and follows the game.  Too large a share marks
# pairs a sweep would pass over for less; too small a one leaves many values that
# are options after all (those few pairs give) for the sweep to find, each found
# costing it about as much as marking DENSE_HIT / 3 pairs, and needs more windows.
# So the share grows by a quarter when a heap needed a third window or its finds
# cost over twice its marking, and shrinks by a fifth after DENSE_STREAK heaps in a
# row whose finds cost under half of it.  Where values have
# few pairs each (.7267: 9 on average) the share climbs to DENSE_SHARE_MAX and the
# path costs what the plain scan does; where they have many (.1607, .0644), it is
# 1.25-1.45x faster.  Without AVX-512 (no window sweep; comparing a few candidates at a time
# did not pay on these games) every pair is marked.  Values of options are below
# the width (a power of two above every value), so u = width ends the search.  A
# 4,096-value window (eight table registers, twice the lookups) was measured 0.965x
# on the census's dense codes, 1.06x at best where values pass 4,096: not kept
# (docs/benchmarks.md).


cdef inline int mex_heap(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds, Sparse* st,
                         Worker* w, Py_ssize_t known) noexcept nogil:
    """G(n) by the sparse method under st.mask, or by the dense path without one."""
    if st.mask:
        return mex_sparse(g, n, kinds, nkinds, st, w, known)
    return mex_dense(g, n, kinds, nkinds, w, st.vec, known)


cdef int mex_dense(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds, Worker* w,
                   const vectors_t* vec, Py_ssize_t known) noexcept nogil:
    """G(n) from G below known (n: all of them): with fewer, the mex of the options whose
    parts are below known (first_part, left_out), as mex_sparse's."""
    cdef Split splits[MAX_KINDS]
    cdef Py_ssize_t r[MAX_KINDS]
    cdef Py_ssize_t last[MAX_KINDS]
    cdef unsigned int c[MAX_KINDS]
    cdef stamp_t* seen = w.seen
    cdef stamp_t stamp = next_stamp(w)
    cdef int nsplits = mark_whole_and_ends(g, n, kinds, nkinds, seen, stamp, splits, known)
    cdef Py_ssize_t first = first_part(n, kinds, nkinds, known), end = first, marked
    cdef int s, u = 0, sweeps = 0, found = 0
    for s in range(nsplits):
        r[s] = splits[s].r
        last[s] = splits[s].last
        c[s] = splits[s].c
        end = max(end, last[s] + 1)   # every smaller part is below end
    marked = end
    if vec.sweep_window != NULL and end - first >= DENSE_MIN:
        marked = first + ((end - first) * w.dense_share >> 10)
    mark_share(g, splits, nsplits, first, marked, seen, stamp)
    while True:
        while seen[u] == stamp:
            u += 1
        if marked >= end or u >= w.width:   # every pair is marked, or none can give u
            break
        sweeps += 1
        if sweeps > DENSE_WINDOWS:   # the share was far too small: mark every pair left
            mark_share(g, splits, nsplits, marked, end, seen, stamp)
            marked = end
            continue
        if window_sweep(g, r, last, c, nsplits, marked, vec, w, u, stamp, &found):
            while seen[u] == stamp:   # the least candidate not found
                u += 1
            break
    if sweeps:
        adapt_share(w, sweeps, found, (marked - first) * nsplits)
    return u


cdef inline void adapt_share(Worker* w, int sweeps, int found, Py_ssize_t marked) noexcept nogil:
    """Grow or shrink the worker's share after a heap's sweeps (see the top of the file)."""
    if sweeps > 2 or found * DENSE_HIT > 2 * marked:
        w.dense_share = min(DENSE_SHARE_MAX, w.dense_share + w.dense_share // 4 + 1)
        w.dense_streak = 0
    elif found * DENSE_HIT * 2 < marked:
        w.dense_streak += 1
        if w.dense_streak >= DENSE_STREAK:
            w.dense_share = max(1, w.dense_share - w.dense_share // 5)
            w.dense_streak = 0
    else:
        w.dense_streak = 0


cdef void mark_share(const nimber_t* g, Split* splits, int nsplits, Py_ssize_t a,
                     Py_ssize_t end, stamp_t* seen, stamp_t stamp) noexcept nogil:
    """Mark the pairs of every split whose smaller part is in [a, end)."""
    cdef int s
    for s in range(nsplits):
        if a <= splits[s].last:
            mark_pairs(g, splits[s].r, a, min(end, splits[s].last + 1), splits[s].c, seen,
                       stamp)


cdef bint window_sweep(const nimber_t* g, const Py_ssize_t* r, const Py_ssize_t* last,
                       const unsigned int* c, int nsplits, Py_ssize_t a, const vectors_t* vec,
                       Worker* w, int u, stamp_t stamp, int* found) noexcept nogil:
    """Look for the unmarked values in [u, u + SET_WIDTH) below w.width among the pairs
    whose smaller part is a or more, marking those found (counted in found); whether
    one was not found."""
    cdef int v, left = 0, unfound
    memset(w.wanted, 0, sizeof(w.wanted))
    for v in range(u, min(u + SET_WIDTH, w.width)):
        if w.seen[v] != stamp:
            w.wanted[(v - u) >> 4] |= 1 << ((v - u) & 15)
            left += 1
    unfound = vec.sweep_window(g, r, last, c, nsplits, a, u, w.wanted, left, w.seen, stamp)
    found[0] += left - unfound
    return unfound != 0

