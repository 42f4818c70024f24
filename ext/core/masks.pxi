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
#
# Masks that read the heap's parity too (HEAP_PARITY; Czajka's analyser has
# them).  When every two-part kind has a span of one parity s, the parts of a
# split of heap n sum to r = n - span, of parity (n ^ s) & 1 whatever the kind.
# Give heap a the class q(a) = (a ^ s) & 1 and call it rare when
# popcount(G(a) & M) + q(a) is even: the class of a + b's parts then decides
# an option's class exactly as before, with the value's parity flipped where
# q(n) = 1 (flip).  Some games (0.2171: half its heaps rare under any value
# mask, 152 of 2**18 with mask 16 and the parity) are sparse only so.  The
# histogram of (value, class) pairs, 2w wide, scores both kinds of mask in one
# transform: mask M + HEAP_PARITY is the pair mask 2M + 1, a value mask M the
# pair mask 2M (the same rare count; its D(M) from the values as before, so a
# game's value masks score as they always did, and win ties).

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


cdef inline int flip(const Sparse* st, Py_ssize_t n) noexcept nogil:
    """1 where heap n's value classes are swapped: the mask holds HEAP_PARITY and n's
    class q(n) is 1 (for a split's sum r, r & 1 is the class of the heap it came from)."""
    return (st.mask >> PARITY_SHIFT) & (n ^ st.split_parity) & 1


cdef inline bint is_rare(const Sparse* st, Py_ssize_t n, int value) noexcept nogil:
    """Whether heap n, of this value, is rare under the mask."""
    return parity(value & st.mask) == flip(st, n)


cdef inline word_t low_common_of_sum(const Sparse* st, Py_ssize_t r) noexcept nogil:
    """Bit i: i < 64 is common among the options of splits whose parts sum to r."""
    return st.low_common ^ (<word_t> 0 - <word_t> ((st.mask >> PARITY_SHIFT) & r & 1))


cdef int split_parity_of(const Kind* ks, int nkinds) noexcept nogil:
    """The span parity of every kind that may leave two parts, or -1 (none, or both)."""
    cdef int k, s = -1
    for k in range(nkinds):
        if ks[k].leave & 4:
            if s >= 0 and s != (ks[k].span & 1):
                return -1
            s = ks[k].span & 1
    return s


cdef int pick_mask(Sparse* st, const int* constants, int nconst,
                     long long* rare_count) noexcept nogil:
    """The allowed mask of least estimated cost (see the header); 0: the plain scan.

    Masks with HEAP_PARITY are scored where st.split_parity >= 0, from st.odd (the
    histogram of the heaps of class 1).  rare_count receives the rare positions
    under the mask (under 0: all).
    """
    cdef int top = 0, width = 1, v, e, mask, i, best = 0
    cdef bint positions = st.split_parity >= 0
    cdef long long total = 0, distinct = 0, distinct_pairs = 0, rare, rare_values, cost
    cdef long long best_cost = -1, low, high
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
        st.present[v] = st.counts[v] != 0
        high = st.odd[v] if positions else 0
        low = st.counts[v] - high
        st.spectrum[2 * v] = low
        st.spectrum[2 * v + 1] = high
        st.present_pairs[2 * v] = low != 0
        st.present_pairs[2 * v + 1] = high != 0
        distinct_pairs += (low != 0) + (high != 0)
    transform(st.spectrum, 2 * width)
    transform(st.present, width)
    transform(st.present_pairs, 2 * width)
    rare_count[0] = total
    for e in range(2, 2 * width):
        if e & 1 and not positions:
            continue
        mask = e >> 1
        for i in range(nconst):
            if parity(constants[i] & mask):
                break
        else:
            rare = (total + st.spectrum[e]) // 2
            if e & 1:
                rare_values = (distinct_pairs + st.present_pairs[e]) // 2
                mask |= HEAP_PARITY
            else:
                rare_values = (distinct + st.present[mask]) // 2
            cost = 3 * rare + 2 * rare_values * bit_length(rare_values)
            if best_cost < 0 or cost < best_cost:
                best, best_cost = mask, cost
                rare_count[0] = rare
    if best and SAVING * best_cost < total:
        return best
    rare_count[0] = total
    return 0


def choose_mask(counts, constants, odd=None):
    """(mask, rare) for a value histogram and option constants: the mask extend_sparse picks.

    counts[v] is how many heaps have value v (v < 2**16); constants are the
    values of the kept runs of the move kinds.  rare is how many heaps have an
    even-parity value under the mask; mask 0 means the plain scan (rare: all).
    odd, where the game's two-part kinds share a span parity s, is the
    histogram of the heaps a with (a ^ s) odd: masks may then hold HEAP_PARITY
    (a heap is rare when the parity of its value under the mask, plus its class, is even).
    """
    cdef Scratch own = Scratch()
    cdef int cs[MAX_KINDS]
    cdef int nconst = len(constants), v
    cdef long long rare = 0
    if len(counts) > VALUE_LIMIT or odd is not None and len(odd) > len(counts):
        raise ValueError(f"at most {VALUE_LIMIT} counts, and no more odd than counts")
    if nconst > MAX_KINDS:
        raise ValueError(f"at most {MAX_KINDS} move kinds")
    for v in range(len(counts)):
        if counts[v] < 0:
            raise ValueError("counts must be >= 0")
        own.st.counts[v] = counts[v]
    if odd is not None:
        for v in range(len(odd)):
            if not 0 <= odd[v] <= counts[v]:
                raise ValueError("odd counts must be 0 to counts")
            own.st.odd[v] = odd[v]
        own.st.split_parity = 0
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
    st.split_parity = split_parity_of(kinds, nkinds)
    if st.split_parity >= 0:   # the class 1 heaps since the last choice (start_sparse: none)
        for a in range(st.odd_upto + ((st.odd_upto ^ st.split_parity ^ 1) & 1), n, 2):
            st.odd[g[a]] += 1
        st.odd_upto = n
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
                if is_rare(st, a, g[a]):
                    add_rare(st, a, g[a])
    if st.narrow_ok and not st.narrow and mask and st.nrare >= ONE_HOT_MIN:
        start_one_hot(g, n, st)
