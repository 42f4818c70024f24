# The compiled core, one part: ext/_core.pyx includes it and declares the state it uses.
#
# Choosing the rare mask.
#
# How the mask is chosen (choose_mask; the same integers in both twins).  For
# the value histogram h over [0, w), w a power of two, the Walsh-Hadamard
# transform H[M] = sum_v h[v] (-1)^popcount(v & M) gives every mask's rare count
# at once, rare(M) = (total + H[M]) / 2, in w log2 w steps whatever the width.
# The transform of the indicator of the values that occur counts the distinct
# rare values D(M) the same way.  Per heap, step (1) costs about rare(M) pairs;
# step (3) scans every pair when G(n) is rare (about rare/total of the heaps:
# rare/2 pairs on average) and about D log2 D pairs to confirm the rare values
# below the candidate.  Doubled to stay an integer, the estimate is
# cost(M) = 3 rare(M) + 2 D(M) bit_length(D(M)); the plain scan costs about
# total/2 pairs a heap, i.e. total in the same units.  The allowed mask of least
# cost wins (ties: the smaller mask) and is used when SAVING * cost < total.

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
