# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True, embedsignature=True
"""The compiled kernels: Grundy tables, periods and row moves on flat data.

kayles/_pure.py is the twin: same names, arguments, results and errors.  Tables
are writable buffers of unsigned 16-bit nimbers; kinds are the tuples of
rules.encode: (span, const_heaps, leave_mask, unequal).

How the sparse-space method works (Berlekamp; Flammenkamp).  Fix a mask M and
call a value common when popcount(v & M) is odd, rare when it is even.  A
common XOR common or rare XOR rare is rare, so a common option value needs a
rare part.  When rare positions are few, G(n) is found by: (1) marking every
option with a rare part (one pass over the rare positions), which marks every
common option; (2) taking the least unmarked common value as the candidate;
(3) confirming each unmarked rare value below it by scanning the remaining
pairs, resuming where the last scan stopped, until it shows up.  The first
rare value that never shows up is G(n); otherwise the candidate is.  Option
constants (kept 'o' heaps) must be even under M so they do not change a
value's class; masks are chosen among those.  The result is exact whatever the
mask: the mask only decides the speed.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.stdlib cimport free, realloc
from libc.string cimport memset

ctypedef unsigned short nimber_t
ctypedef unsigned int stamp_t
ctypedef unsigned long long word_t  # a one-hot set of values below 64

cdef enum:
    VALUE_LIMIT = 65536   # nimbers are stored as unsigned 16-bit integers
    STAMPS = 131072       # option values v ^ c < 2**16 and the mex <= 2**16
    MASK_BITS = 10        # masks are searched among values below 2**10
    SAVING = 4            # split only when rare positions are under 1/SAVING of the table
    MAX_KINDS = 64        # more move kinds than an octal code of 63 digits: refused
    MAX_SPAN = 64         # the widest move: extend_sparse keeps MAX_SPAN + 1 rows of pair values
    BATCH = 64            # remainders per batch on the one-hot path (kayles_gather_or's 64)


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define KAYLES_NOINLINE __attribute__((noinline))
    #define KAYLES_RESTRICT __restrict__
    #else
    #define KAYLES_NOINLINE
    #define KAYLES_RESTRICT
    #endif

    /* The general sparse path's hottest loop: flags[G(a) ^ G(r - a)] = 1 for the
       rare a.  Kept out of line so the compiler gives it registers of its own;
       inlined into the large kernel it spilled its pointers on every step. */
    static KAYLES_NOINLINE void kayles_flag_pairs(
            const unsigned short *top, const Py_ssize_t *a, const Py_ssize_t *end,
            const unsigned short *value_of_a, unsigned int *flags) {
        for (; a < end; a++, value_of_a++)
            flags[*value_of_a ^ top[-*a]] = 1;   /* top[-a] is G(r - a) */
    }

    /* out[j] = OR over i < n of onehot[r0 - pos[i] + j], j < 64: the one-hot
       path's hot loop.  Eight accumulators stay in registers, so each source
       word costs one load and one OR. */
    static KAYLES_NOINLINE void kayles_gather_or(
            unsigned long long *out, const unsigned long long *onehot, Py_ssize_t r0,
            const Py_ssize_t *pos, Py_ssize_t n) {
        for (int jb = 0; jb < 64; jb += 8) {
            unsigned long long a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
            for (Py_ssize_t i = 0; i < n; i++) {
                const unsigned long long *s = onehot + (r0 - pos[i]) + jb;
                a0 |= s[0]; a1 |= s[1]; a2 |= s[2]; a3 |= s[3];
                a4 |= s[4]; a5 |= s[5]; a6 |= s[6]; a7 |= s[7];
            }
            out[jb] = a0; out[jb + 1] = a1; out[jb + 2] = a2; out[jb + 3] = a3;
            out[jb + 4] = a4; out[jb + 5] = a5; out[jb + 6] = a6; out[jb + 7] = a7;
        }
    }
    """
    void flag_pairs "kayles_flag_pairs"(const nimber_t* top, const Py_ssize_t* a,
                                        const Py_ssize_t* end, const nimber_t* value_of_a,
                                        stamp_t* flags) noexcept nogil
    void gather_or "kayles_gather_or"(word_t* out, const word_t* onehot, Py_ssize_t r0,
                                      const Py_ssize_t* pos, Py_ssize_t n) noexcept nogil


cdef struct Kind:
    Py_ssize_t span
    int leave
    bint unequal
    Py_ssize_t heaps[8]   # lengths of the kept 'o' runs
    int nheaps


cdef struct Split:        # a kind that may leave two parts, at the heap being solved
    Py_ssize_t r
    int c
    bint unequal


cdef struct PairValues:   # the distinct G(a) ^ G(r - a) over rare a, for one remainder r
    Py_ssize_t r          # -1: empty
    bint unequal
    Py_ssize_t count
    nimber_t* values      # room for VALUE_LIMIT values


cdef struct Sparse:       # the state of one extend_sparse call
    int mask              # 0: no saving split, use the plain scan
    Py_ssize_t* rare      # the rare positions, ascending
    nimber_t* rare_values # G at those positions
    Py_ssize_t nrare
    int width             # a power of two above every value so far
    stamp_t* flags        # scratch: width zeros between uses
    PairValues* ring      # the general path: pair values by r % nring
    int nring
    bint narrow           # values below 64 and no unequal split: the one-hot path
    word_t* onehot        # onehot[i] = 1 << G(i)
    Py_ssize_t* by_value[64]          # the rare positions of each value, ascending
    Py_ssize_t by_value_count[64]
    Py_ssize_t by_value_room[64]
    Py_ssize_t batch_r0[2]            # the aligned batch each slot holds (-1: none)
    word_t batch_bits[2 * BATCH]


cdef int load_kinds(kinds, Kind* out) except -1:
    cdef int k = 0, h
    if len(kinds) > MAX_KINDS:
        raise ValueError(f"at most {MAX_KINDS} move kinds")
    for span, heaps, leave, unequal in kinds:
        if len(heaps) > 8:
            raise ValueError("at most 8 kept runs in one pattern")
        if not 0 <= span <= MAX_SPAN:
            raise ValueError(f"a move spans at most {MAX_SPAN} tokens")
        out[k].span = span
        out[k].leave = leave
        out[k].unequal = unequal
        out[k].nheaps = len(heaps)
        for h in range(out[k].nheaps):
            out[k].heaps[h] = heaps[h]
        k += 1
    return k


cdef inline int parity(unsigned int x) noexcept nogil:
    x ^= x >> 16
    x ^= x >> 8
    x ^= x >> 4
    x ^= x >> 2
    x ^= x >> 1
    return x & 1


cdef inline int constant(const nimber_t* g, Kind* kind) noexcept nogil:
    cdef int c = 0, h
    for h in range(kind.nheaps):
        c ^= g[kind.heaps[h]]
    return c


cdef int check_range(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop) except -1:
    if not 0 <= start <= stop <= table.shape[0]:
        raise ValueError(f"range {start}:{stop} does not fit a table of {table.shape[0]}")
    return 0


cdef int store(nimber_t[::1] table, Py_ssize_t n, int value) except -1:
    if value >= VALUE_LIMIT:
        raise OverflowError(f"G({n}) = {value} does not fit the 16-bit table")
    table[n] = value
    return 0


cdef int mark_whole_and_ends(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds,
                             stamp_t* seen, stamp_t stamp, Split* splits) noexcept nogil:
    """Mark the options of heap n that leave no part or one part; list the two-part kinds.

    Returns how many Split entries (kinds that may leave two parts) were written.
    """
    cdef int k, c, nsplits = 0
    cdef Py_ssize_t r
    for k in range(nkinds):
        if n < kinds[k].span:
            continue
        c = constant(g, &kinds[k])
        r = n - kinds[k].span
        if r == 0:
            if kinds[k].leave & 1:
                seen[c] = stamp
            continue
        if kinds[k].leave & 2:
            seen[g[r] ^ c] = stamp
        if kinds[k].leave & 4:
            splits[nsplits].r = r
            splits[nsplits].c = c
            splits[nsplits].unequal = kinds[k].unequal
            nsplits += 1
    return nsplits


cdef inline Py_ssize_t last_part(const Split* split) noexcept nogil:
    """The largest smaller part a of the split r = a + (r - a)."""
    return split.r // 2 - 1 if split.unequal and split.r % 2 == 0 else split.r // 2


cdef int mex_plain(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds,
                   stamp_t* seen, stamp_t stamp) noexcept nogil:
    cdef Split splits[MAX_KINDS]
    cdef int s, c, m, nsplits = mark_whole_and_ends(g, n, kinds, nkinds, seen, stamp, splits)
    cdef Py_ssize_t r, a
    for s in range(nsplits):
        r = splits[s].r
        c = splits[s].c
        for a in range(1, last_part(&splits[s]) + 1):
            seen[g[a] ^ g[r - a] ^ c] = stamp
    m = 0
    while seen[m] == stamp:
        m += 1
    return m


def extend_plain(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, kinds):
    """Fill table[start:stop] with the mex over every option (the quadratic scan)."""
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds = load_kinds(kinds, ks)
    cdef Py_ssize_t n
    cdef int value
    check_range(table, start, stop)
    cdef stamp_t* seen = <stamp_t*> PyMem_Malloc(STAMPS * sizeof(stamp_t))
    if seen == NULL:
        raise MemoryError()
    memset(seen, 0, STAMPS * sizeof(stamp_t))
    try:
        for n in range(start, stop):
            with nogil:
                value = mex_plain(&table[0], n, ks, nkinds, seen, <stamp_t> (n - start + 1))
            store(table, n, value)
    finally:
        PyMem_Free(seen)


cdef int choose_mask(const long long* counts, int* constants, int nconst) noexcept nogil:
    """The mask with the fewest rare positions keeping every constant even; 0: no split."""
    cdef int top = 0, v, mask, i, best = 0
    cdef long long total = 0, rare, best_rare
    for v in range(VALUE_LIMIT):
        if counts[v]:
            top = v
            total += counts[v]
    for i in range(nconst):
        if constants[i] > top:
            top = constants[i]
    if top >= (1 << MASK_BITS):
        return 0
    cdef int width = 1
    while width <= top:
        width <<= 1
    best_rare = total
    for mask in range(1, width):
        for i in range(nconst):
            if parity(constants[i] & mask):
                break
        else:
            rare = 0
            for v in range(width):
                if not parity(v & mask):
                    rare += counts[v]
            if rare < best_rare:
                best = mask
                best_rare = rare
    return best if best_rare * SAVING < total else 0


cdef inline Py_ssize_t bisect(const Py_ssize_t* items, Py_ssize_t count, Py_ssize_t x) noexcept nogil:
    """How many of the sorted items are below x."""
    cdef Py_ssize_t lo = 0, hi = count, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef void rare_pairs(const nimber_t* g, Py_ssize_t r, bint unequal, Sparse* st,
                     PairValues* out) noexcept nogil:
    """Fill out with the distinct G(a) ^ G(r - a) over rare a in [1, r - 1], a != r - a if unequal.

    Every a < r is computed by the time r is needed, so the result stays valid
    until the rare set changes (a new mask).
    """
    cdef Py_ssize_t i, lo = bisect(st.rare, st.nrare, 1), hi = bisect(st.rare, st.nrare, r)
    cdef int v
    flag_pairs(g + r, st.rare + lo, st.rare + hi, st.rare_values + lo, st.flags)
    if unequal and r % 2 == 0:
        i = bisect(st.rare, st.nrare, r // 2)
        if i < hi and st.rare[i] == r // 2 and not has_split(g, st, lo, hi, r, i):
            st.flags[0] = 0  # G(r/2) ^ G(r/2) came only from the equal split
    out.r = r
    out.unequal = unequal
    out.count = 0
    for v in range(st.width):
        if st.flags[v]:
            st.flags[v] = 0
            out.values[out.count] = v
            out.count += 1


cdef inline word_t xor_permute(word_t x, int u) noexcept nogil:
    """{v ^ u : v in x} for a one-hot set x: swap bit blocks of each size in u."""
    if u & 1:
        x = ((x & 0x5555555555555555ULL) << 1) | ((x >> 1) & 0x5555555555555555ULL)
    if u & 2:
        x = ((x & 0x3333333333333333ULL) << 2) | ((x >> 2) & 0x3333333333333333ULL)
    if u & 4:
        x = ((x & 0x0F0F0F0F0F0F0F0FULL) << 4) | ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL)
    if u & 8:
        x = ((x & 0x00FF00FF00FF00FFULL) << 8) | ((x >> 8) & 0x00FF00FF00FF00FFULL)
    if u & 16:
        x = ((x & 0x0000FFFF0000FFFFULL) << 16) | ((x >> 16) & 0x0000FFFF0000FFFFULL)
    if u & 32:
        x = (x << 32) | (x >> 32)
    return x


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


cdef bint has_split(const nimber_t* g, Sparse* st, Py_ssize_t lo, Py_ssize_t hi,
                    Py_ssize_t r, Py_ssize_t skip) noexcept nogil:
    """Whether a rare a other than rare[skip] in rare[lo:hi] has G(a) == G(r - a)."""
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if i != skip and st.rare_values[i] == g[r - st.rare[i]]:
            return True
    return False


cdef bint search(const nimber_t* g, Split* splits, int nsplits, Py_ssize_t* next_a,
                 stamp_t* seen, stamp_t stamp, int value) noexcept nogil:
    """Mark the options of the splits until value is marked; False if it never is.

    The splits are swept side by side in blocks of 64 smaller parts, resuming
    where the last search stopped (next_a), so each pair is marked at most once
    per heap and a value that one split lacks costs no more than the first hit
    in another.
    """
    cdef Py_ssize_t a, i, end, r, last
    cdef int s, c
    cdef bint active = True
    while seen[value] != stamp:
        if not active:
            return False
        active = False
        a = next_a[0]
        for s in range(nsplits):
            r = splits[s].r
            last = last_part(&splits[s])
            if a > last:
                continue
            active = True
            end = min(a + 64, last + 1)
            c = splits[s].c
            for i in range(a, end):
                seen[g[i] ^ g[r - i] ^ c] = stamp
        next_a[0] = a + 64
    return True


cdef int mex_sparse(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds, Sparse* st,
                    stamp_t* seen, stamp_t stamp) noexcept nogil:
    cdef Split splits[MAX_KINDS]
    cdef int nsplits = mark_whole_and_ends(g, n, kinds, nkinds, seen, stamp, splits)
    cdef int s, c, v, value, common, mask = st.mask
    cdef Py_ssize_t next_a = 1  # where the search resumes
    cdef Py_ssize_t r, j
    cdef word_t bits
    cdef PairValues* pairs
    for s in range(nsplits):
        r = splits[s].r
        c = splits[s].c
        if st.narrow:
            bits = narrow_pairs(g, st, r)
            for v in range(64):
                if bits >> v & 1:
                    seen[v ^ c] = stamp
        else:
            pairs = &st.ring[r % st.nring]  # kinds with other spans meet this r again soon
            if pairs.r != r or pairs.unequal != splits[s].unequal:
                rare_pairs(g, r, splits[s].unequal, st, pairs)
            for j in range(pairs.count):
                seen[pairs.values[j] ^ c] = stamp
    # Every common-valued option has a rare part, so it is marked by now.
    common = 0
    while not parity(common & mask) or seen[common] == stamp:
        common += 1
    for value in range(common):
        if parity(value & mask) or seen[value] == stamp:
            continue
        if not search(g, splits, nsplits, &next_a, seen, stamp, value):
            return value
    return common


cdef void choose_split(const nimber_t* g, Py_ssize_t n, Kind* kinds, int nkinds,
                       const long long* counts, Sparse* st) noexcept nogil:
    """Pick the mask for the table so far; on a new mask, list the rare positions anew."""
    cdef int constants[MAX_KINDS]
    cdef int nconst = 0, k, mask
    cdef Py_ssize_t a
    for k in range(nkinds):
        if kinds[k].span <= n:
            constants[nconst] = constant(g, &kinds[k])
            nconst += 1
    mask = choose_mask(counts, constants, nconst)
    if mask == st.mask and st.nrare:
        return
    st.mask = mask
    st.nrare = 0
    st.batch_r0[0] = st.batch_r0[1] = -1
    for k in range(st.nring):
        st.ring[k].r = -1
    for k in range(64):
        st.by_value_count[k] = 0
    if mask:
        for a in range(n):
            if not parity(g[a] & mask):
                add_rare(st, a, g[a])


cdef inline void add_rare(Sparse* st, Py_ssize_t a, int value) noexcept nogil:
    st.rare[st.nrare] = a
    st.rare_values[st.nrare] = value
    st.nrare += 1
    if not st.narrow:
        return
    cdef Py_ssize_t room = st.by_value_room[value]
    cdef Py_ssize_t* grown
    if st.by_value_count[value] == room:
        room = 2 * room + 16
        grown = <Py_ssize_t*> realloc(st.by_value[value], room * sizeof(Py_ssize_t))
        if grown == NULL:
            st.narrow = False  # the general path is exact too, only slower
            return
        st.by_value[value] = grown
        st.by_value_room[value] = room
    st.by_value[value][st.by_value_count[value]] = a
    st.by_value_count[value] += 1


def extend_sparse(nimber_t[::1] table, Py_ssize_t start, Py_ssize_t stop, kinds):
    """Fill table[start:stop] by the sparse-space method; same values as extend_plain."""
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds = load_kinds(kinds, ks)
    cdef int k, value
    cdef bint unequal = False
    cdef Py_ssize_t n
    check_range(table, start, stop)
    cdef Sparse st
    memset(&st, 0, sizeof(Sparse))
    st.nring = 1
    for k in range(nkinds):
        st.nring = max(st.nring, ks[k].span + 1)
        unequal = unequal or ks[k].unequal
    st.width = 1
    cdef PairValues ring[MAX_SPAN + 1]
    st.ring = ring
    cdef stamp_t* seen = <stamp_t*> PyMem_Malloc(STAMPS * sizeof(stamp_t))
    cdef long long* counts = <long long*> PyMem_Malloc(VALUE_LIMIT * sizeof(long long))
    cdef nimber_t* slots = <nimber_t*> PyMem_Malloc(st.nring * VALUE_LIMIT * sizeof(nimber_t))
    st.flags = <stamp_t*> PyMem_Malloc(STAMPS * sizeof(stamp_t))
    st.rare = <Py_ssize_t*> PyMem_Malloc((stop + 1) * sizeof(Py_ssize_t))
    st.rare_values = <nimber_t*> PyMem_Malloc((stop + 1) * sizeof(nimber_t))
    st.onehot = <word_t*> PyMem_Malloc((stop + 1) * sizeof(word_t))
    try:
        if not (seen and counts and slots and st.flags and st.rare and st.rare_values
                and st.onehot):
            raise MemoryError()
        memset(seen, 0, STAMPS * sizeof(stamp_t))
        memset(counts, 0, VALUE_LIMIT * sizeof(long long))
        memset(st.flags, 0, STAMPS * sizeof(stamp_t))
        for k in range(st.nring):
            ring[k].r = -1
            ring[k].values = slots + k * VALUE_LIMIT
        for n in range(start):
            counts[table[n]] += 1
            st.width = max(st.width, next_power(table[n]))
            st.onehot[n] = (<word_t> 1) << (table[n] & 63)
        st.narrow = st.width <= 64 and not unequal
        for n in range(start, stop):
            with nogil:
                if n == start or (n & (n - 1)) == 0 or is_span(ks, nkinds, n):
                    choose_split(&table[0], n, ks, nkinds, counts, &st)
                if st.mask:
                    value = mex_sparse(&table[0], n, ks, nkinds, &st, seen, <stamp_t> (n - start + 1))
                else:
                    value = mex_plain(&table[0], n, ks, nkinds, seen, <stamp_t> (n - start + 1))
            store(table, n, value)
            counts[value] += 1
            st.width = max(st.width, next_power(value))
            st.narrow = st.narrow and st.width <= 64
            st.onehot[n] = (<word_t> 1) << (value & 63)
            if st.mask and not parity(value & st.mask):
                add_rare(&st, n, value)
    finally:
        PyMem_Free(seen)
        PyMem_Free(counts)
        PyMem_Free(slots)
        PyMem_Free(st.flags)
        PyMem_Free(st.rare)
        PyMem_Free(st.rare_values)
        PyMem_Free(st.onehot)
        for k in range(64):
            free(st.by_value[k])


cdef inline int next_power(int value) noexcept nogil:
    """The least power of two above value: XORs of values below it stay below it."""
    cdef int p = 1
    while p <= value:
        p <<= 1
    return p


cdef inline bint is_span(Kind* kinds, int nkinds, Py_ssize_t n) noexcept nogil:
    cdef int k
    for k in range(nkinds):
        if kinds[k].span == n:
            return True
    return False


def find_period(const nimber_t[::1] table, Py_ssize_t length, Py_ssize_t span):
    """The candidate period whose proof needs the fewest values, if fewer than 2 * length.

    Returns (p, n0, needed) or None; see kayles/_pure.py for the definition.
    """
    if not 0 <= length <= table.shape[0]:
        raise ValueError(f"length {length} does not fit a table of {table.shape[0]}")
    cdef Py_ssize_t p, k, start, bound, best_n0 = 0, best_p = 0, best_needed = 2 * length
    with nogil:
        for p in range(1, length // 2 + 1):
            if max(2 * p + span + 1, p + span + 1) >= best_needed:
                break  # needed only grows with p
            bound = (best_needed - 2 * p - span) // 2  # n0 must be <= bound to win
            k = start = min(bound, length - p)
            while k < length - p and table[k] == table[k + p]:
                k += 1
            if k < length - p:
                continue
            k = start - 1
            while k >= 0 and table[k] == table[k + p]:
                k -= 1
            best_n0 = k + 1
            best_needed = max(2 * max(best_n0, 1) + 2 * p + span - 1, p + span + 1)
            best_p = p
    if best_p == 0:
        return None
    return best_p, best_n0, best_needed


cdef Py_ssize_t nim_sum(const unsigned char* row, Py_ssize_t n, const nimber_t* g,
                        Py_ssize_t limit, int* total) noexcept nogil:
    """XOR of G(run) over the runs of 'x' into total; the first run >= limit, or -1."""
    cdef Py_ssize_t i = 0, first
    cdef int t = 0
    while i < n:
        if row[i] != 120:  # not 'x'
            i += 1
            continue
        first = i
        while i < n and row[i] == 120:
            i += 1
        if i - first >= limit:
            return i - first
        t ^= g[i - first]
    total[0] = t
    return -1


cdef int row_total(const unsigned char[::1] row, const nimber_t[::1] table) except -1:
    cdef int total = 0
    cdef Py_ssize_t n = row.shape[0], limit = table.shape[0], too_long = -1
    if n:
        with nogil:
            too_long = nim_sum(&row[0], n, &table[0], limit, &total)
    if too_long >= 0:
        raise ValueError(f"a run of {too_long} pins needs a table longer than {limit}")
    return total


def row_nim_sum(const unsigned char[::1] row, const nimber_t[::1] table):
    """XOR of G(run) over the runs of 'x' in a row of b'x' and b'.'."""
    return row_total(row, table)


def row_move(const unsigned char[::1] row, const nimber_t[::1] table, kinds):
    """The seed's winning move on a row, as (first covered index, kind index), or None.

    See kayles/_pure.py for the tie-break.
    """
    cdef Kind ks[MAX_KINDS]
    cdef int nkinds = load_kinds(kinds, ks)
    cdef int total = row_total(row, table), target = 0, k, found_kind = 0
    cdef Py_ssize_t i, size = 0, first = 0, b, n = row.shape[0], found = -1
    if total == 0:
        return None
    with nogil:
        # The run holding the highest bit of the nim-sum can always be lowered.
        i = 0
        while i < n:
            if row[i] != 120:
                i += 1
                continue
            first = i
            while i < n and row[i] == 120:
                i += 1
            size = i - first
            target = table[size] ^ total
            if target < table[size]:
                break
        for i in range(size):
            for k in range(nkinds):
                b = size - ks[k].span - i
                if b < 0:
                    continue
                if not (ks[k].leave >> ((i > 0) + (b > 0))) & 1 or (ks[k].unequal and i == b > 0):
                    continue
                if table[i] ^ table[b] ^ constant(&table[0], &ks[k]) == target:
                    found, found_kind = first + i, k
                    break
            if found >= 0:
                break
    if found < 0:
        raise RuntimeError(f"no option of G({size}) has value {target}: the table is wrong")
    return found, found_kind
