# The compiled core, one part: ext/_core.pyx includes it and declares the state it uses.
#
# Step (1) of the sparse method, the rare pass: every option with a rare part.
#
# How step (1) is cut (rare_pairs, checked_gives).  The rare pass costs a byte
# store a pair, about one a cycle whatever the instructions.  With AVX-512 or AVX2
# and CHECK_MIN rare positions, a group of remainders flags only its older rare
# parts; for the newest 1/CHECKED it takes each remainder's first CANDIDATES
# common values the flags leave unset and checks those parts against them with
# vector compares (a load and a compare for 32 lanes, two on AVX2, where flagging
# costs four stores).
# Step (2) reads a candidate's answer from the check; a value past a full list
# (on .04 about one remainder in a hundred; games of several splits more often)
# gets the checked parts flagged after all; where that befalls over 1/MISS_SHARE
# of the remainders, checking stops till the mask is next chosen (choose_split,
# at each doubling of the table).  Rare values that only a checked pair gives
# stay unflagged and are found by step (3) like any other.  Step (2) itself
# tests 64 values a step (marks and every split's flags at once) and looks only
# at the unmarked ones.

cdef inline Py_ssize_t bisect(const pos_t* items, Py_ssize_t count, Py_ssize_t x) noexcept nogil:
    """How many of the sorted items are below x."""
    cdef Py_ssize_t lo = 0, hi = count, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if <Py_ssize_t> items[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef unsigned char* rare_pairs(const nimber_t* g, Py_ssize_t r, Sparse* st, Worker* w,
                               int* width, PairGroup** of_group) noexcept nogil:
    """The flags of every G(a) ^ G(r - a) over rare a in the middle, [st.ends, r0 - st.slack),
    valid below width (mark_ends marks the pairs of the rare a at both ends).

    Remainders come in groups of GROUP: the first r of a group asked for flags
    them for all of them at once (r0 + j - a < r0 - st.slack: its G is known by
    then; fill_early and fill_late).  Every such a is listed by the time r is
    needed, so the flags stay valid until the rare set changes (a new mask).
    of_group receives the group (its checked rare a: see checked_gives).

    Threads share the groups: each is filled under its lock and read without
    it once ready (r0, then ready, are stored last).  Flags only ever go from 0
    to 1 while a heap reads them (checked_gives).
    """
    cdef Py_ssize_t r0 = r - r % GROUP
    cdef PairGroup* group = &st.groups[(r0 // GROUP) % st.ngroups]
    of_group[0] = group
    if not (atomic_load(&group.r0) == r0 and atomic_load_int(&group.ready)):
        lock(&group.lock)
        if group.r0 != r0:
            fill_early(g, st, group, r0, w.width, w.nrare)
        if not group.ready:
            fill_late(g, st, group, w.width, w.nrare)
        unlock(&group.lock)
    width[0] = group.width
    return group.flags + (r - r0) * FLAG_STRIDE


cdef void mark_ends(const nimber_t* g, Sparse* st, Worker* w, Py_ssize_t r, int c,
                    bint unequal, Py_ssize_t first, stamp_t* seen, stamp_t stamp) noexcept nogil:
    """Mark the options G(a) ^ G(r - a) ^ c of the rare a of split r that the groups leave
    out: a below st.ends, and a from r0 - st.slack on; but for the pairs with a part below
    first (see first_part) and, where unequal, the equal split."""
    cdef Py_ssize_t i, a, hi = r - first + 1
    cdef Py_ssize_t upper = bisect(st.rare, w.nrare, max(st.ends, r - r % GROUP - st.slack))
    for i in range(bisect(st.rare, w.nrare, first), bisect(st.rare, w.nrare, min(st.ends, hi))):
        a = st.rare[i]
        if not (unequal and 2 * a == r):
            seen[st.rare_values[i] ^ g[r - a] ^ c] = stamp
    for i in range(upper, bisect(st.rare, w.nrare, hi)):
        a = st.rare[i]
        if not (unequal and 2 * a == r):
            seen[st.rare_values[i] ^ g[r - a] ^ c] = stamp


cdef void fill_early(const nimber_t* g, Sparse* st, PairGroup* group, Py_ssize_t r0, int width,
                     Py_ssize_t nrare) noexcept nogil:
    """Start group r0 (its lock held): flag the rare a in [st.early_from, r0 - st.slack) of
    the first nrare, but for the newest 1/CHECKED of them with AVX-512 or AVX2 (checked
    instead); fill_late does the rest.  Needs G below r0 + GROUP - st.early_from only, so
    threads fill groups ahead of need (fill_ahead)."""
    cdef Py_ssize_t i, lo, hi, mid, split
    atomic_store(&group.r0, -1)   # readers without the lock now wait for it
    atomic_store_int(&group.ready, False)
    for i in range(GROUP):
        memset(group.flags + i * FLAG_STRIDE, 0, width)
        group.drop_zero[i] = -1
    group.width = width
    lo = bisect(st.rare, nrare, st.ends)
    hi = max(lo, bisect(st.rare, nrare, r0 - st.slack))
    mid = hi
    if st.vec.unhit != NULL and hi - lo >= CHECK_MIN and (
            atomic_load(&st.checked_lanes) < TRIAL_LANES
            or MISS_SHARE * atomic_load(&st.checked_misses) < atomic_load(&st.checked_lanes)):
        mid = hi - (hi - lo) // CHECKED
        atomic_add(&st.checked_lanes, GROUP)
    split = min(mid, max(lo, bisect(st.rare, nrare, st.early_from)))
    if split < mid:
        flag_group(g + r0, st.rare + split, st.rare + mid, st.rare_values + split, group.flags)
    group.late_lo = lo
    group.late_hi = split
    group.checked_lo = mid
    group.checked_hi = hi
    atomic_store(&group.r0, r0)


cdef void fill_late(const nimber_t* g, Sparse* st, PairGroup* group, int width,
                    Py_ssize_t nrare) noexcept nogil:
    """Finish the group (its lock held) for a heap whose rare heaps are the first nrare
    (every one below r0 - st.slack): flag what fill_early left (the oldest rare a, and
    those listed since), then take each remainder's candidates and check them against
    the checked rare a."""
    cdef Py_ssize_t r0 = group.r0, i
    cdef Py_ssize_t hi = bisect(st.rare, nrare, r0 - st.slack)
    cdef int k
    cdef nimber_t unset[CANDIDATES]
    if group.width < width:
        for i in range(GROUP):
            memset(group.flags + i * FLAG_STRIDE + group.width, 0, width - group.width)
        group.width = width
    if group.late_lo < group.late_hi:
        flag_group(g + r0, st.rare + group.late_lo, st.rare + group.late_hi,
                   st.rare_values + group.late_lo, group.flags)
    if group.checked_hi < hi:
        flag_group(g + r0, st.rare + group.checked_hi, st.rare + hi,
                   st.rare_values + group.checked_hi, group.flags)
    for i in range(GROUP):
        group.checking[i] = group.checked_lo < group.checked_hi
    if group.checked_lo < group.checked_hi:
        memset(group.candidates, 0, sizeof(group.candidates))
        for i in range(GROUP):
            group.checked_width[i] = width
            group.ncandidates[i] = st.vec.candidates(
                group.flags + i * FLAG_STRIDE, width, st.mask, low_common_of_sum(st, r0 + i), unset,
                CANDIDATES)
            for k in range(group.ncandidates[i]):
                group.candidates[k * GROUP + i] = unset[k]
        group.unhit = st.vec.unhit(g + r0, st.rare + group.checked_lo,
                                   st.rare + group.checked_hi,
                                   st.rare_values + group.checked_lo, group.candidates)
    atomic_store_int(&group.ready, True)


cdef bint fill_ahead(const nimber_t* g, Sparse* st, Worker* w, int crew,
                     Py_ssize_t stop) noexcept nogil:
    """In a crew: fill_early the worker's own groups (every crew-th) as soon as the values
    they read are in the table; whether it filled any.  The workers share this, the
    rare pass's bulk, evenly however the heaps that first need a group fall to them."""
    cdef Py_ssize_t r0, published
    cdef PairGroup* group
    cdef bint filled = False
    if not st.mask:
        return False   # the dense path: no rare pass
    while w.next_group < stop:
        r0 = w.next_group
        published = atomic_load(&st.published)
        if published < r0 + GROUP - st.early_from:
            break
        group = &st.groups[(r0 // GROUP) % st.ngroups]
        lock(&group.lock)
        if group.r0 >= 0 and group.r0 < r0 and group.r0 + GROUP + st.widest > published:
            unlock(&group.lock)   # its remainders are still needed (the ring is too short)
            break
        if group.r0 < r0:
            fill_early(g, st, group, r0, atomic_load_int(&st.width),
                       atomic_load(&st.nrare))
            filled = True
        unlock(&group.lock)
        w.next_group += crew * GROUP
    return filled


cdef bint zero_from_equal_only(const nimber_t* g, Sparse* st, Worker* w,
                               Py_ssize_t r, Py_ssize_t first) noexcept nogil:
    """For even r: whether the rare pass's 0 came only from the equal split r/2 + r/2,
    among the pairs whose parts are first or more (see first_part: a crew's heap
    checks the others when it is settled, left_out).  An answer found from a smaller
    first holds for this one: a pair it found is there, and none it ruled out is.
    A wrong True only costs time (the search looks for 0 among every pair); a
    wrong False loses the value 0 (test_threads: crews from the first heap)."""
    cdef PairGroup* group = &st.groups[(r // GROUP) % st.ngroups]   # filled by rare_pairs
    cdef int j = r % GROUP
    cdef Py_ssize_t i, lo, hi
    cdef bint only
    lock(&group.lock)
    if group.drop_zero[j] < 0 or group.drop_zero_first[j] > first:
        lo = bisect(st.rare, w.nrare, first)
        hi = bisect(st.rare, w.nrare, r - first + 1)
        i = bisect(st.rare, w.nrare, r // 2)
        group.drop_zero[j] = (i < hi and st.rare[i] == <pos_t> (r // 2)
                              and not has_split(g, st, lo, hi, r, i))
        group.drop_zero_first[j] = first
    only = group.drop_zero[j]
    unlock(&group.lock)
    return only


cdef bint checked_gives(const nimber_t* g, Sparse* st, PairGroup* group, Py_ssize_t r,
                        int x) noexcept nogil:
    """Whether a checked rare a (not flagged) gives the common value x for r.

    Called only for an x the flags left unset.  The group's candidates for r
    are the least common values its flags left unset when it was filled, so an
    x among them has its answer, and an x below the last one or past the
    width then is not given by a checked pair.  Past a full list, the checked
    a are flagged for r after all (rarely: the candidate is mostly the first);
    once they are (by this heap or another thread's: checking[j] is stored
    last), the flags answer.  Only that flagging takes the group's lock.
    """
    cdef int j = r % GROUP, k
    cdef unsigned char* flags = group.flags + j * FLAG_STRIDE
    cdef bint gives
    if not atomic_load_int(&group.checking[j]):
        return x < group.width and flags[x]
    if x >= group.checked_width[j]:
        return False
    for k in range(group.ncandidates[j]):
        if group.candidates[k * GROUP + j] == x:
            return not (group.unhit >> (k * GROUP + j) & 1)
    if group.ncandidates[j] < CANDIDATES or x < group.candidates[(CANDIDATES - 1) * GROUP + j]:
        return False
    lock(&group.lock)
    if group.checking[j]:
        atomic_add(&st.checked_misses, 1)
        flag_one(g + r, st.rare + group.checked_lo, st.rare + group.checked_hi,
                 st.rare_values + group.checked_lo, flags)
        atomic_store_int(&group.checking[j], False)
    gives = flags[x]
    unlock(&group.lock)
    return gives


cdef void fill_batch(Sparse* st, Py_ssize_t r0, word_t* bits) noexcept nogil:
    """bits[j] = the one-hot set of G(a) ^ G(r0 + j - a) over rare a in [BATCH, r0 - 1].

    For such a, r0 + j - a < r0: the batch reads only G already known when r0
    is first needed.  Rare parts are taken a value u at a time, so the hot loop
    ORs contiguous one-hot words; each value's result is XOR-shifted by u once.
    """
    cdef Py_ssize_t j, lo, hi
    cdef int u
    cdef word_t group[BATCH]
    for j in range(BATCH):
        bits[j] = 0
    for u in range(64):
        lo = bisect(st.by_value[u], st.by_value_count[u], BATCH)
        hi = bisect(st.by_value[u], st.by_value_count[u], r0)
        if lo < hi:
            gather_or(group, st.onehot, r0, st.by_value[u] + lo, hi - lo)
            for j in range(BATCH):
                bits[j] |= xor_permute(group[j], u)


cdef word_t narrow_pairs(const nimber_t* g, Sparse* st, Py_ssize_t r) noexcept nogil:
    """The one-hot set of G(a) ^ G(r - a) over rare a in [1, r - 1] (values below 64)."""
    cdef Py_ssize_t r0 = r - r % BATCH, i
    cdef int slot = (r0 // BATCH) % 2
    if st.batch_r0[slot] != r0:
        fill_batch(st, r0, st.batch_bits + slot * BATCH)
        st.batch_r0[slot] = r0
    cdef word_t bits = st.batch_bits[slot * BATCH + r - r0]
    # The rare parts the batch leaves out: below BATCH, and from r0 on (recent).
    for i in range(bisect(st.rare, st.nrare, 1), bisect(st.rare, st.nrare, min(BATCH, r))):
        bits |= (<word_t> 1) << (st.rare_values[i] ^ g[r - st.rare[i]])
    for i in range(bisect(st.rare, st.nrare, max(BATCH, r0)), bisect(st.rare, st.nrare, r)):
        bits |= (<word_t> 1) << (st.rare_values[i] ^ g[r - st.rare[i]])
    return bits
