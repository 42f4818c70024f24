# The compiled core, one part: ext/_core.pyx includes it and declares the state it uses.
#
# The sparse-space method's runs: starting, extend_sparse, extend_bounded, settling.
#
# How the sparse-space method works (Berlekamp; Flammenkamp).  Fix a mask M and
# call a value common when popcount(v & M) is odd, rare when it is even.  A
# common XOR common or rare XOR rare is rare, so a common option value needs a
# rare part.  When rare positions are few, G(n) is found by: (1) marking every
# option with a rare part (one pass over the rare positions), which marks every
# common option; (2) taking the least unmarked common value as the candidate;
# (3) confirming each unmarked rare value below it by scanning the remaining
# pairs, resuming where the last scan stopped, until it shows up.  The first
# rare value that never shows up is G(n); otherwise the candidate is.  Option
# constants (kept 'o' heaps) must be even under M so they do not change a
# value's class; masks are chosen among those.  The result is exact whatever the
# mask: the mask only decides the speed.

cdef void start_one_hot(const nimber_t* g, Py_ssize_t n, Sparse* st) noexcept nogil:
    """Turn the one-hot path on at heap n: the words of G(0..n-1), the rare positions by
    value.  Out of memory, it stays off (the flags give the same values)."""
    cdef Py_ssize_t a, i
    cdef int v
    if grow(<void**> &st.onehot, &st.onehot_room, st.stop, sizeof(word_t)):
        return
    for a in range(n):
        st.onehot[a] = (<word_t> 1) << g[a]
    for v in range(64):
        st.by_value_count[v] = 0
    st.batch_r0[0] = st.batch_r0[1] = -1
    st.narrow = True
    for i in range(st.nrare):
        v = st.rare_values[i]
        if grow(<void**> &st.by_value[v], &st.by_value_room[v], st.by_value_count[v] + 1,
                sizeof(pos_t)):
            st.narrow = False
            return
        st.by_value[v][st.by_value_count[v]] = st.rare[i]
        st.by_value_count[v] += 1


cdef inline void add_rare(Sparse* st, Py_ssize_t a, int value) noexcept nogil:
    """Append a rare position (room for the whole call is reserved up front); a crew's
    threads read the count, so it grows only once the position is in place."""
    st.rare[st.nrare] = <pos_t> a
    st.rare_values[st.nrare] = value
    atomic_store(&st.nrare, st.nrare + 1)
    if not st.narrow:
        return
    if grow(<void**> &st.by_value[value], &st.by_value_room[value],
            st.by_value_count[value] + 1, sizeof(pos_t)):
        st.narrow = False  # out of memory: the general path is exact too, only slower
        return
    st.by_value[value][st.by_value_count[value]] = <pos_t> a
    st.by_value_count[value] += 1


cdef inline int crew_size(Sparse* st) noexcept nogil:
    """The threads of a crew on this scratch's kinds (start_groups set the independence)."""
    return max(1, min(st.threads, st.independence + SLACK, st.cores))


cdef bint start_groups(Sparse* st, Kind* ks, int nkinds) except -1:
    """Make the rare pass's groups and the crew ready for the kinds; whether a kind is
    unequal.

    Heaps n..n+d-1 need none of each other's pairs when every part of a two-part
    move is at most n - d, so d threads can solve them at once (d, the
    independence: the least span + 1 of a kind leaving two parts).  A crew goes
    SLACK heaps further, leaving out the options whose part is not in the table
    yet (first_part): heap n is solved once the values below n - d - SLACK + 1
    are there.  So the groups flag the rare a from ends = GROUP + SLACK up to
    r0 - SLACK only: both parts of such a pair are in the table and a listed
    (mark_ends marks the rest).  So a crew shares even Grundy's game (d = 1:
    a split leaves a part of n - 1).  One thread needs the groups of a heap's
    remainders n - span; a crew also those fill_ahead fills up to early_from
    heaps ahead and those of the heaps up to d + SLACK ahead.
    """
    cdef int k, independence = MAX_INDEPENDENCE
    cdef bint unequal = False
    cdef Py_ssize_t widest = 0
    for k in range(nkinds):
        widest = max(widest, ks[k].span)
        unequal = unequal or ks[k].unequal
        if ks[k].leave & 4:
            independence = min(independence, ks[k].span + 1)
    st.widest = widest
    st.independence = independence
    st.slack = SLACK
    st.crew = crew_size(st)
    if st.crew == 1:
        st.slack = 0
    st.block = min(CREW_BLOCK, (independence + st.slack) // st.crew)
    st.ends = GROUP + st.slack
    hire(st, st.crew)
    if st.crew == 1:
        st.early_from = st.ends
        st.ngroups = widest // GROUP + 2
    else:
        st.early_from = max(st.ends, AHEAD + st.crew)
        st.ngroups = (widest + max(st.early_from, independence + st.slack) + st.crew) // GROUP + 3
    reserve(<void**> &st.slots, &st.nslots, st.ngroups, GROUP * FLAG_STRIDE)
    for k in range(st.ngroups):
        st.groups[k].r0 = -1
        st.groups[k].flags = st.slots + k * GROUP * FLAG_STRIDE
    st.batch_r0[0] = st.batch_r0[1] = -1
    st.reach = 0
    st.frozen = False
    return unequal


cdef int start_sparse(Sparse* st, const nimber_t* g, Py_ssize_t start, Py_ssize_t stop,
                      Kind* ks, int nkinds) except -1:
    """Make the scratch ready for heaps start..stop-1 of the table g: its histogram and,
    where the call goes on where the last one ended (the same table, start = the heap
    it reached), the mask and rare heaps that call had (a sequence calls it piece by
    piece: the pieces then cost no pass over the table)."""
    cdef Py_ssize_t n
    cdef int largest = 0
    cdef bint goes_on = (not st.frozen and st.mask >= 0 and st.table == g and st.next == start
                         and st.nkinds == nkinds
                         and not memcmp(st.kinds, ks, nkinds * sizeof(Kind)))
    cdef bint unequal = start_groups(st, ks, nkinds)
    memcpy(st.kinds, ks, nkinds * sizeof(Kind))
    st.nkinds = nkinds
    reserve(<void**> &st.rare, &st.rare_room, stop, sizeof(pos_t))
    reserve(<void**> &st.rare_values, &st.rare_values_room, stop, sizeof(nimber_t))
    st.stop = stop
    if goes_on:
        if st.narrow and grow(<void**> &st.onehot, &st.onehot_room, stop, sizeof(word_t)):
            st.narrow = False   # out of memory: the general path is exact too
        return 0
    memset(st.counts, 0, st.width * sizeof(long long))
    memset(st.odd, 0, VALUE_LIMIT * sizeof(long long))   # (what a bounded call left too)
    st.odd_upto = 0
    for n in range(start):
        st.counts[g[n]] += 1
        largest = max(largest, g[n])
    st.width = next_power(largest) if start else 1
    st.narrow_ok = st.width <= 64 and not unequal
    st.narrow = False   # choose_split turns it on where it pays
    st.mask = -1  # no rare set yet: the first choose_split lists one
    st.nrare = 0
    return 0


cdef int start_bounded(Sparse* st, const nimber_t* g, Py_ssize_t start, Py_ssize_t stop,
                       Kind* ks, int nkinds, int mask, counts, Py_ssize_t prefix,
                       Py_ssize_t reach) except -1:
    """Make the scratch ready for extend_bounded (see there): counts given, the mask frozen,
    the rare positions those of G(0..min(prefix, start)-1), no one-hot path; or, where the
    call goes on from the scratch's last one, all of that kept as it is."""
    cdef Py_ssize_t a, known = min(prefix, start), room = max(0, min(prefix, stop) - start)
    cdef int v, k
    if (st.frozen and st.table == g and st.next == start and st.mask == mask
            and prefix >= st.prefix and same_counts(st, counts)):
        if st.crew != crew_size(st):   # Scratch.cores changed: the crew and its groups
            start_groups(st, ks, nkinds)
        reserve(<void**> &st.rare, &st.rare_room, st.nrare + room + 1, sizeof(pos_t))
        reserve(<void**> &st.rare_values, &st.rare_values_room, st.nrare + room + 1,
                sizeof(nimber_t))
        st.checked_lanes = st.checked_misses = 0
        st.reach = reach
        st.prefix = prefix
        return 0
    start_groups(st, ks, nkinds)
    st.mask = mask
    st.split_parity = split_parity_of(ks, nkinds)
    for a in range(known):
        room += is_rare(st, a, g[a])
    reserve(<void**> &st.rare, &st.rare_room, room + 1, sizeof(pos_t))
    reserve(<void**> &st.rare_values, &st.rare_values_room, room + 1, sizeof(nimber_t))
    memset(st.counts, 0, VALUE_LIMIT * sizeof(long long))
    st.width = 1
    for v in range(len(counts)):
        st.counts[v] = counts[v]
        if counts[v]:
            st.width = max(st.width, next_power(v))
    st.narrow_ok = st.narrow = False
    st.low_common = 0
    for k in range(64):
        st.low_common |= (<word_t> parity(k & mask)) << k
    st.nrare = 0
    st.checked_lanes = st.checked_misses = 0
    for a in range(known):
        if is_rare(st, a, g[a]):
            add_rare(st, a, g[a])
    st.frozen = True
    st.reach = reach
    st.prefix = prefix
    st.table = g
    return 0


cdef bint same_counts(Sparse* st, counts) except -1:
    """Whether the scratch's histogram is ``counts`` (zeros past its end)."""
    cdef Py_ssize_t v, size = len(counts)
    if size > st.width:
        return False
    for v in range(st.width):
        if st.counts[v] != (counts[v] if v < size else 0):
            return False
    return True


def extend_sparse(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, kinds, scratch=None):
    """Fill table[start:stop] by the sparse-space method; same values as extend_plain."""
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds
    cdef int value
    cdef Py_ssize_t n
    cdef Scratch own = open_call(table, start, stop, kinds, scratch, ks, &nkinds)
    cdef Sparse* st = &own.st
    own.hold()
    try:
        if stop > POSITION_LIMIT:
            raise ValueError(f"the sparse method stops below {POSITION_LIMIT} heaps")
        if start == stop:
            return
        start_sparse(st, &table[0], start, stop, ks, nkinds)
        with nogil:
            n = run_sparse(&table[0], start, stop, ks, nkinds, st, &value)
        st.table = &table[0]
        st.next = n
        if n < stop:
            if value == INTERRUPTED:
                st.mask = -1   # the next call lists its rare heaps anew
                raise_signalled()
            put(table, n, value)  # raises: the value does not fit
    finally:
        own.let_go()


def extend_bounded(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, kinds, scratch,
                   int mask, counts, Py_ssize_t prefix, Py_ssize_t reach):
    """Fill table[start:stop] as extend_sparse does, reading only part of the table before start.

    For long runs whose rare heaps (under ``mask``) all lie below ``prefix``: the
    sparse method then reads G(0..prefix-1) and G(start - prefix - span..start-1)
    (span: the widest move) and nothing between, so a run may give that memory
    back.  The mask is kept (choosing one reads the whole table); ``counts`` is
    the value histogram of G(0..start-1); a search uses smaller parts below
    ``reach`` only (reach <= prefix; 0: any, the table holding every value).

    Returns (stop, None) or (n, why) with table[start:n] filled and heap n not:
    why is "reach" when its value needs a pair whose smaller part is ``reach`` or
    more, "rare" when its value is rare and n >= prefix (later heaps would need
    the values between).  Every value it writes is extend_sparse's.

    A call that goes on where the scratch's last one ended (the same table, mask
    and counts, start = the heap it returned, a prefix as large) keeps the rare
    heaps that call listed instead of reading G(0..prefix-1) again: a run calls
    it chunk after chunk, and its prefix may grow past each new rare heap.
    """
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds
    cdef int value
    cdef Py_ssize_t n
    cdef Scratch own = open_call(table, start, stop, kinds, scratch, ks, &nkinds)
    cdef Sparse* st = &own.st
    own.hold()
    try:
        check_bounded(&table[0], start, ks, nkinds, mask, counts, prefix, reach)
        if start == stop:
            return stop, None
        start_bounded(st, &table[0], start, stop, ks, nkinds, mask, counts, prefix, reach)
        with nogil:
            n = run_sparse(&table[0], start, stop, ks, nkinds, st, &value)
        st.next = n
        if n == stop:
            return stop, None
        if value == INTERRUPTED:
            st.frozen = False   # the next call lists its rare heaps anew
            raise_signalled()
        if value == OUT_OF_REACH:
            return n, "reach"
        if value == RARE_PAST_PREFIX:
            return n, "rare"
        put(table, n, value)  # raises: the value does not fit
    finally:
        own.let_go()


cdef int check_bounded(const nimber_t* g, Py_ssize_t start, Kind* ks, int nkinds, int mask,
                       counts, Py_ssize_t prefix, Py_ssize_t reach) except -1:
    cdef int k
    if not (MAX_SPAN < prefix <= POSITION_LIMIT and 0 <= reach <= prefix):
        raise ValueError(f"extend_bounded needs {MAX_SPAN} < prefix <= {POSITION_LIMIT} and "
                         f"0 <= reach <= prefix, not prefix {prefix} and reach {reach}")
    if not (0 < mask < VALUE_LIMIT or mask & HEAP_PARITY and 0 < mask - HEAP_PARITY < VALUE_LIMIT
                                    and split_parity_of(ks, nkinds) >= 0):
        raise ValueError(f"the mask is 1 to {VALUE_LIMIT - 1}, or that plus {HEAP_PARITY} where "
                         f"the two-part kinds' spans share a parity, not {mask}")
    for k in range(nkinds):
        if ks[k].span <= start and parity(constant(g, &ks[k]) & mask):
            raise ValueError(f"the mask {mask} makes an option constant common")
    if len(counts) > VALUE_LIMIT or any(c < 0 for c in counts) or sum(counts) != start:
        raise ValueError(f"counts must be the histogram of the {start} values before start")
    return 0


cdef Py_ssize_t run_sparse(nimber_t* g, Py_ssize_t start, Py_ssize_t stop, Kind* ks, int nkinds,
                           Sparse* st, int* value) noexcept nogil:
    """Fill g[start:stop] by the sparse method; the first heap whose value does not fit, or stop.

    The mask is chosen at the start, at each power of two and at each span; in
    between, past st.crew_from, a crew of threads solves the heaps (run_crew).  With
    no mask (0) each heap takes the dense path (mex_heap).
    """
    cdef Py_ssize_t n = start, end, began
    cdef int v
    st.crew_ran = 1
    st.solved_again = 0
    while n < stop:
        if n == start or (n & (n - 1)) == 0 or is_span(ks, nkinds, n):
            if st.frozen:
                st.checked_lanes = st.checked_misses = 0   # the checked share is tried anew
            else:
                choose_split(g, n, ks, nkinds, st)
        if (st.crew > 1 and not st.narrow and n >= st.crew_from and n >= st.widest
                and (st.nrare >= st.crew_rare or not st.mask)):   # (kept heaps: in the table)
            end = n + 1
            while end & (end - 1):   # the next power of two
                end &= end - 1
            end = min(stop, end << 1, n + CREW_STRETCH)
            if not st.mask:   # dense heaps: a stretch of some SIGNAL_WORK * 8 pairs at most
                end = min(end, n + max(CREW_BLOCK * st.crew, 8 * SIGNAL_WORK // (n + 1)))
            began = n
            n = run_crew(g, n, end, ks, nkinds, st, value)
            if n < end:
                return n
            if n < stop and signalled(st, (n - began) * (st.nrare + 64 if st.mask else n)):
                value[0] = INTERRUPTED
                return n
            continue
        if signalled(st, st.nrare + 64 if st.mask else n + 64):
            value[0] = INTERRUPTED
            return n
        st.workers[0].width = st.width
        st.workers[0].nrare = st.nrare
        v = mex_heap(g, n, ks, nkinds, st, &st.workers[0], n)
        if settle(g, n, v, st, st.counts, value):
            return n
        n += 1
    return stop


cdef bint settle(nimber_t* g, Py_ssize_t n, int v, Sparse* st, long long* counts,
                 int* value) noexcept nogil:
    """Put G(n) = v into the table and the scratch (counts, its width and rare heaps); or
    leave it and say why in value: too large for the table, OUT_OF_REACH, RARE_PAST_PREFIX."""
    if v >= VALUE_LIMIT or v < 0:
        value[0] = v
        return True
    if st.frozen and n >= st.prefix and is_rare(st, n, v):
        value[0] = RARE_PAST_PREFIX
        return True
    g[n] = v
    counts[v] += 1
    if v >= st.width:
        atomic_store_int(&st.width, next_power(v))
    if st.narrow_ok and st.width > 64:  # a value of 64 or more ends the one-hot path
        st.narrow_ok = False
        if st.narrow:   # never in a crew (its threads read st.narrow): only then written
            st.narrow = False
    if st.narrow:
        st.onehot[n] = (<word_t> 1) << v
    if st.mask and is_rare(st, n, v):
        add_rare(st, n, v)
    return False
