# The compiled core, one part: ext/_core.pyx includes it and declares the state it uses.
#
# The plain scan: every option of every heap (extend_plain), the oracle the sparse method
# is checked against.

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
    cdef int nkinds
    cdef Py_ssize_t n
    cdef int value
    cdef Scratch own = open_call(table, start, stop, kinds, scratch, ks, &nkinds)
    cdef Sparse* st = &own.st
    own.hold()
    try:
        if start == stop:
            return
        with nogil:
            n = run_plain(&table[0], start, stop, ks, nkinds, st, &value)
        if n < stop:
            if value == INTERRUPTED:
                raise_signalled()
            put(table, n, value)  # raises: the value does not fit
    finally:
        own.let_go()


cdef Py_ssize_t run_plain(nimber_t* g, Py_ssize_t start, Py_ssize_t stop, Kind* ks, int nkinds,
                          Sparse* st, int* value) noexcept nogil:
    """Fill g[start:stop] by the plain scan; the first heap whose value does not fit (or at
    which a signal's handler raised: INTERRUPTED), or stop."""
    cdef Py_ssize_t n
    for n in range(start, stop):
        if signalled(st, n + 64):
            value[0] = INTERRUPTED
            return n
        value[0] = mex_plain(g, n, ks, nkinds, st.workers[0].seen, next_stamp(&st.workers[0]))
        if value[0] >= VALUE_LIMIT:
            return n
        g[n] = value[0]
    return stop
