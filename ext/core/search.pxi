# The compiled core, one part: ext/_core.pyx includes it and declares the state it uses.
#
# Steps (2) and (3): the candidate, then the search for the rare values below it.
#
# How step (3) ends (sweep).  Marking costs a store a pair, so once the search
# has swept FAR pairs and few values are left, it looks for all of them at once
# to the end instead: by comparisons (an instruction per value and vector of
# pairs: 32 a vector with AVX-512, 16 with AVX2, 8 with SSE2), or with AVX-512
# and values below 2048 by testing each vector of 32 pairs against the whole set
# of values left (two table lookups, whatever their number).  The instructions
# are chosen at run time (VECTORS; Scratch(vector=...)), so one build runs on any
# x86-64; every path gives the same values (tests/kernels/test_kernels.py).

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
    cdef int s, c, v, common, mask = st.mask, nfound = 0, f = flip(st, n)
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
                if parity(v & mask) == f:   # rare in heap n's class
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
                if parity(common & mask) != f:
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
